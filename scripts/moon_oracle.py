"""How many moons could a player stop if it saw every card?

Plays the boards of an arena match (the same deals and seeds as ``hearts arena``) with
the first seat of the line-up taken by an *oracle*: ``expert``'s search run on the true
hands of the deal instead of sampled ones (it passes as ``expert`` does; from the first
card on it knows where every card is).  It counts the other players' moons and the
oracle's points and margin (its points less the others' average, what the arena ranks
by), to set beside the arena runs of fair players on the same boards.

    python scripts/moon_oracle.py --opponent hard:moon_eager=1,moon_hope=1 \\
        --deals 200 --seed expert --workers 2

If even a player that sees the cards lets the others shoot about as often as ``expert``
does, what lets the moons through is not what ``expert`` cannot see.  Given
``--moon-fear`` several times, the same boards are played with each fear and each row
after the first shows its margin less the first's, paired by board: what fear costs a
player that sees the cards.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from openhearts import Game, Rules
from openhearts.arena import ArenaError, BotSpec, mean_interval
from openhearts.bots import Bot, act
from openhearts.bots.expert import ExpertBot
from openhearts.bots.sampler import Knowledge
from openhearts.game import PlayerView


class OracleBot(ExpertBot):
    """``expert`` searching the true hands of ``game`` (twice: one world with this seat
    looking ahead, one with every seat, as ``expert`` mixes them) from trick
    ``from_trick`` on (1: from the first card), plain ``expert`` before."""

    def __init__(self, seed: object, game: Game, from_trick: int = 1, **options: object) -> None:
        super().__init__(seed, **options)  # type: ignore[arg-type]
        self.game = game
        self.from_trick = from_trick

    def _deals(
        self, view: PlayerView, knowledge: Knowledge, seed: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[float, ...]]:
        if len(view.tricks) + 1 < self.from_trick:
            return super()._deals(view, knowledge, seed)
        hands = tuple(self.game.hand(seat).mask for seat in range(view.rules.players))
        return (hands, hands), ()


@dataclass(frozen=True)
class Board:
    """What one board gave: per rotation, the oracle's points, its margin (its points
    less the others' average) and the others' moons."""

    board: int
    oracle_points: tuple[int, ...]
    others_moons: tuple[int, ...]
    oracle_margins: tuple[float, ...] = ()


def play_board(
    rules: Rules,
    seed: str,
    opponent: str,
    board: int,
    from_trick: int = 1,
    moon_fear: float = 0.0,
) -> Board:
    """Every rotation of ``board``: the oracle (fearing the others' moons as
    ``expert``'s ``moon_fear`` says; by default not at all) in seat ``rotation``,
    ``opponent`` elsewhere, each seeded as the arena seeds its bots."""
    players = rules.players
    spec = BotSpec(opponent)
    points, moons, margins = [], [], []
    cycle = len(rules.pass_cycle or ("hold",))
    for rotation in range(players):
        game = Game(rules, seed=f"{seed}:{board}", first_deal=board % cycle)
        bots: list[Bot] = [
            OracleBot(f"{seed}:{board}:{rotation}:{s}", game, from_trick, moon_fear=moon_fear)
            if s == rotation
            else spec.build(f"{seed}:{board}:{rotation}:{s}")
            for s in range(players)
        ]
        first = game.deal_number
        while game.deal_number == first and not game.is_over:
            seat = game.to_act()[0]
            act(game, seat, bots[seat])
        result = game.results[0]
        own = result.points[rotation]
        others = sum(result.points) - own
        points.append(own)
        margins.append(own - others / (players - 1))
        moons.append(int(result.shot == "moon" and result.shooter != rotation))
    return Board(board, tuple(points), tuple(moons), tuple(margins))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="hard", help="the other seats' bot (arena spec)")
    parser.add_argument("--deals", type=int, default=100, help="boards to play")
    parser.add_argument("--seed", default="arena", help="seed of the deals, as the arena's")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--from-trick", type=int, default=1, help="see the cards from this trick on (1: all)"
    )
    parser.add_argument(
        "--moon-fear",
        type=float,
        action="append",
        help="expert's moon_fear for the oracle (default 0: none, whatever expert's "
        "default; the oracle measures what seeing the cards is worth); "
        "repeat to play the same boards with each",
    )
    args = parser.parse_args(argv)
    fears: list[float] = args.moon_fear or [0.0]
    if not all(0 <= fear < math.inf for fear in fears):
        parser.error("--moon-fear: a number, not negative")
    if len(set(fears)) < len(fears):
        parser.error("--moon-fear: each fear once")
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers: at least 1")
    if not 1 <= args.from_trick <= 13:
        parser.error("--from-trick: a trick from 1 to 13")
    rules = Rules()
    try:
        BotSpec(args.opponent).build(0)  # a bad spec fails here, with the arena's message
    except ArenaError as error:
        parser.error(str(error))
    runs: list[dict[int, Board]] = [{} for _ in fears]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Board by board, every fear of a board before the next board, so that an
        # interruption leaves whole boards to compare.
        jobs = [
            (index, pool.submit(
                play_board, rules, args.seed, args.opponent, board, args.from_trick, fear
            ))
            for board in range(args.deals)
            for index, fear in enumerate(fears)
        ]  # fmt: skip
        try:
            for done, (index, job) in enumerate(jobs, 1):
                board = job.result()
                runs[index][board.board] = board
                if done % (20 * len(fears)) == 0 or done == len(jobs):
                    finished = done // len(fears)
                    print(f"{finished}/{args.deals} boards", file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            pool.shutdown(cancel_futures=True)
            print(f"interrupted: {len(runs[-1])} boards finished", file=sys.stderr)
    for line in report(rules, runs, fears, args.from_trick, args.opponent):
        print(line)
    return 0


def report(
    rules: Rules,
    runs: Sequence[dict[int, Board]],
    fears: Sequence[float],
    from_trick: int,
    opponent: str,
) -> list[str]:
    """The lines printed: per fear, the oracle's points and margin per deal and the
    others' moons over the boards every fear finished, and the margin less the first
    fear's, paired by board."""
    common = sorted(set.intersection(*(set(run) for run in runs)))
    rotations = rules.players
    deals = len(common) * rotations
    seats = deals * (rules.players - 1)
    lines = [f"{len(common)} boards, {deals} deals; oracle from trick {from_trick} vs 3 {opponent}"]
    if not common:
        return lines
    first = runs[0]
    for fear, run in zip(fears, runs, strict=True):
        boards = [run[b] for b in common]
        points = sum(sum(b.oracle_points) for b in boards) / deals
        margin = sum(sum(b.oracle_margins) for b in boards) / deals
        moons = sum(sum(b.others_moons) for b in boards)
        line = (
            f"moon_fear {fear:g}: oracle's points per deal {points:.2f}, margin {margin:+.2f}; "
            f"the others' moons {moons} in {seats} of their deals ({100 * moons / seats:.1f}%)"
        )
        if run is not first:
            change, half = mean_interval(
                [(sum(run[b].oracle_margins) - sum(first[b].oracle_margins)) / rotations
                 for b in common]
            )  # fmt: skip
            interval = (
                "no interval"
                if math.isnan(half)
                else f"95% CI {change - half:+.2f} to {change + half:+.2f}"
            )
            line += f"; margin less moon_fear {fears[0]:g}'s: {change:+.2f} ({interval})"
        lines.append(line)
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
