"""Decision times of the bots: median and 95th percentile per level.

Plays seeded deals with one bot of the measured level against ``easy`` opponents and
times every play decision that has a real choice (two or more legal cards).

    python benchmarks/bots.py --level hard --deals 20
    python benchmarks/bots.py --level hard --deals 20 --workers 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from openhearts import Game, Rules
from openhearts.bots import act, make_bot
from openhearts.bots.hard import DEFAULT_BUDGET, HardBot


def measure(level: str, deals: int, budget: int, workers: int, seed: str) -> list[float]:
    """Seconds per real decision of the measured bot, over ``deals`` deals."""
    times: list[float] = []
    rules = Rules()
    for number in range(deals):
        players = rules.players
        seat = number % players
        bots = [make_bot("easy", seed=f"{seed}:{number}:{s}") for s in range(players)]
        if level == "hard":
            bots[seat] = HardBot(f"{seed}:{number}", budget=budget, workers=workers)
        else:
            bots[seat] = make_bot(level, seed=f"{seed}:{number}")
        game = Game(rules, seed=f"{seed}:{number}", first_deal=number)
        while not game.is_over and game.deal_number == number:
            mover = game.to_act()[0]
            choice = game.phase == "playing" and mover == seat and len(game.legal_plays()) > 1
            start = time.perf_counter()
            act(game, mover, bots[mover])
            if choice:
                times.append(time.perf_counter() - start)
        close = getattr(bots[seat], "close", None)
        if callable(close):
            close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    times = sorted(measure(args.level, args.deals, args.budget, args.workers, args.seed))
    figures = {
        "level": args.level,
        "budget": args.budget if args.level == "hard" else None,
        "workers": args.workers,
        "decisions": len(times),
        "median_ms": round(1000 * statistics.median(times), 1),
        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1),
        "max_ms": round(1000 * times[-1], 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(", ".join(f"{k}: {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
