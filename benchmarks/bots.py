"""Decision times of the bots: median and 95th percentile per level.

Plays seeded deals with one bot of the measured level against ``easy`` opponents and
times every play decision that has a real choice (two or more legal cards), and
separately every pass (``pass_*``: ``hard`` and ``expert`` pass by simulation).  For
``hard``, the same deals are played twice, with its playouts in the compiled kernel and
in the pure-Python engine, and the report gives both times, the speed-up, and how many
decisions chose the same card (all of them, when the kernel equals its reference).

    python benchmarks/bots.py --level hard --deals 20
    python benchmarks/bots.py --level hard --deals 20 --workers 2
    python benchmarks/bots.py --level expert --deals 20
    python benchmarks/bots.py --level expert --option learned=1 --deals 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from openhearts import Game, Rules
from openhearts.bots import Bot, BotError, act, make_bot
from openhearts.bots.hard import DEFAULT_BUDGET, HardBot
from openhearts.game import Play
from openhearts.kernel import COMPILED


def measure(
    level: str,
    deals: int,
    budget: int,
    workers: int,
    seed: str,
    compiled: bool = True,
    passes: list[float] | None = None,
    options: dict[str, float] | None = None,
) -> tuple[list[float], list[int]]:
    """Seconds per real decision of the measured bot over ``deals`` deals, and the cards
    it chose in those decisions; the seconds of each pass are added to ``passes``."""
    times: list[float] = []
    choices: list[int] = []
    rules = Rules()
    for number in range(deals):
        players = rules.players
        seat = number % players
        bots = [make_bot("easy", seed=f"{seed}:{number}:{s}") for s in range(players)]
        if level == "hard":
            bots[seat] = HardBot(
                f"{seed}:{number}", budget=budget, workers=workers, compiled=compiled
            )
        else:
            bots[seat] = make_bot(level, seed=f"{seed}:{number}", **(options or {}))
        game = Game(rules, seed=f"{seed}:{number}", first_deal=number)
        while not game.is_over and game.deal_number == number:
            mover = game.to_act()[0]
            choice = game.phase == "playing" and mover == seat and len(game.legal_plays()) > 1
            passing = game.phase == "passing" and mover == seat
            start = time.perf_counter()
            act(game, mover, bots[mover])
            if passing and passes is not None:
                passes.append(time.perf_counter() - start)
            if choice:
                times.append(time.perf_counter() - start)
                action = game.actions[-1]
                assert isinstance(action, Play)
                choices.append(int(action.card))
        close = getattr(bots[seat], "close", None)
        if callable(close):
            close()
    return times, choices


def summary(times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    if not ordered:
        return {"decisions": 0, "median_ms": None, "p95_ms": None, "max_ms": None}
    # The nearest rank, in whole numbers: the smallest time at least 95% of the
    # decisions take no longer than, never below the median however few they are.
    rank = (95 * len(ordered) + 99) // 100
    return {
        "decisions": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "p95_ms": round(1000 * ordered[rank - 1], 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


def _measured_bot(args: argparse.Namespace, options: dict[str, float]) -> Bot:
    """The measured bot as :func:`measure` builds it.

    :raises BotError: for a level, or options, it cannot be built with.
    """
    if args.level != "hard":
        return make_bot(args.level, seed=args.seed, **options)
    try:
        return HardBot(args.seed, budget=args.budget, workers=args.workers)
    except ValueError as error:
        raise BotError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="bench")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a bot option (not for hard), e.g. learned=1; may be repeated",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals: at least 1")
    options = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        try:
            options[name] = float(value)
        except ValueError:
            parser.error(f"--option {item!r}: NAME=NUMBER, please")
        if not eq or not name:
            parser.error(f"--option {item!r}: NAME=NUMBER, please")
    if options and args.level == "hard":
        parser.error("--option: not for hard (its options are --budget and --workers)")
    # Built once here so that a bad level or option is said before any deal is played.
    try:
        bot = _measured_bot(args, options)
    except BotError as error:
        parser.error(str(error))
    close = getattr(bot, "close", None)
    if callable(close):
        close()
    passes: list[float] = []
    times, choices = measure(
        args.level, args.deals, args.budget, args.workers, args.seed, passes=passes,
        options=options,
    )  # fmt: skip
    figures: dict[str, Any] = {
        "level": args.level,
        "options": args.option or None,
        "budget": args.budget if args.level == "hard" else None,
        "workers": args.workers,
        "kernel": COMPILED if args.level in ("hard", "expert") else None,
        **summary(times),
    }
    if passes:
        figures.update({f"pass_{key}": value for key, value in summary(passes).items()})
    if args.level == "hard":
        slow_times, slow_choices = measure(
            "hard", args.deals, args.budget, args.workers, args.seed, compiled=False
        )
        python = summary(slow_times)
        figures.update({f"python_{key}": value for key, value in python.items()})
        figures["same_choices"] = sum(a == b for a, b in zip(choices, slow_choices, strict=False))
        if times and slow_times:
            figures["speedup_median"] = round(
                statistics.median(slow_times) / statistics.median(times), 2
            )
            figures["speedup_total"] = round(sum(slow_times) / sum(times), 2)
    if args.json:
        print(json.dumps(figures))
    else:
        print(", ".join(f"{k}: {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
