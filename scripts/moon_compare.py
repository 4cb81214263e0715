"""The others' moons and the first bot's points in arena runs, compared board by board.

Reads arena logs of the same deals (``hearts arena ... --seed S --out PATH`` writes
``PATH.jsonl``; the same rules and seed) and, over the boards every log holds, counts
the moons shot against the first bot of each line-up, and the first run's cost in
points per deal against the second, paired by board.  Each moon count is also given as
a share of the others', with a 95% interval paired by board (the same hands make moons
on the same boards in both runs).  With ``--changes`` it sorts the
first run's deals by what changed against the second (a moon against it stopped or let
through, its own shot won or lost) and adds up the margin each kind of change cost.

    python scripts/moon_compare.py docs/arena/expert/expert-fear2-vs-hard.jsonl \\
        docs/arena/expert/expert-lookahead3-vs-hard.jsonl \\
        docs/arena/expert/hard-vs-hard.jsonl --boards 600 --changes

The margin of a deal is the first bot's points less the other players' average (what
the bots rank their cards by, and what the arena's difference measures).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhearts.arena import ArenaError, mean_interval, read_results


class LogError(ValueError):
    """A file that is not an arena log, or logs that are not of the same deals."""


@dataclass(frozen=True)
class Deal:
    """One deal of the first bot's seat: its margin, and who shot."""

    margin: float
    #: A moon shot by another seat.
    moon_against: bool
    #: A moon or sun shot by the first bot.
    own_shot: bool


@dataclass(frozen=True)
class Log:
    """An arena log: its match and its boards' deals, per board in rotation order."""

    path: Path
    match: dict[str, Any]
    boards: dict[int, list[Deal]]


def read_records(path: Path) -> tuple[dict[str, Any], dict[int, tuple[int, dict[str, Any]]]]:
    """The match of the arena log of deals at ``path`` and its boards' records, each with
    its line number (:func:`openhearts.arena.read_results`); :class:`LogError` if none."""
    try:
        return read_results(path, deals_only=True)
    except OSError as error:
        raise LogError(f"{path}: not an arena results log ({error.strerror})") from None
    except ArenaError as error:
        raise LogError(str(error)) from None


def read_log(path: Path) -> Log:
    """The log at ``path``.

    :raises LogError: when it is not an arena log of deals.
    """
    match, records = read_records(path)
    players = len(match["lineup"])
    boards = {}
    for board, (number, record) in records.items():
        try:
            boards[board] = _deals(record["rotations"], players)
        except (ValueError, IndexError, KeyError, TypeError) as error:
            raise LogError(
                f"{path}, line {number}: not a board of the arena ({type(error).__name__}: {error})"
            ) from None
        if not boards[board]:
            raise LogError(f"{path}, line {number}: a board without deals")
    return Log(path, match, boards)


def _deals(rotations: Sequence[dict[str, Any]], players: int) -> list[Deal]:
    deals = []
    for rotation, result in enumerate(rotations):
        # The first bot sits in seat ``rotation`` (the line-up shifted that far).
        seat = rotation % players
        for points in result["points"]:
            own = points[seat]
            margin = own - (sum(points) - own) / (players - 1)
            shots = result["shots"]
            deals.append(
                Deal(
                    margin,
                    any(shooter != seat and shot == "moon" for shooter, shot in shots),
                    any(shooter == seat for shooter, _ in shots),
                )
            )
    return deals


def common_boards(logs: Sequence[Log], limit: int | None = None) -> list[int]:
    """The boards every log holds (below ``limit``), after checking the logs are of the
    same deals.

    :raises LogError: for logs of other rules or seeds, with no board in common, or with
        another number of deals on a board.
    """
    first = logs[0].match
    for log in logs[1:]:
        for key in ("rules", "seed"):
            if log.match[key] != first[key]:
                raise LogError(f"{log.path}: another {key} than {logs[0].path}'s")
    boards = set(logs[0].boards)
    for log in logs[1:]:
        boards &= set(log.boards)
    found = sorted(board for board in boards if limit is None or board < limit)
    if not found:
        raise LogError("the logs have no board in common")
    for log in logs[1:]:
        for board in found:
            if len(log.boards[board]) != len(logs[0].boards[board]):
                raise LogError(f"{log.path}: board {board} has other deals than {logs[0].path}'s")
    return found


def moons_against(log: Log, boards: Sequence[int]) -> int:
    """Moons shot against the first bot on ``boards``."""
    return sum(deal.moon_against for board in boards for deal in log.boards[board])


def share_interval(run: Log, other: Log, boards: Sequence[int]) -> tuple[float, float, float]:
    """The moons against the first bot in ``run`` as a share of those in ``other`` over
    ``boards``, and the bounds of its 95% interval; the bounds are NaN when either run
    has no moon there, or there is only one board.

    The interval is the delta method's on the share's logarithm, with the boards as the
    independent units: a board's moons in the two runs come from the same hands, so
    they are counted together.
    """
    ours = [sum(deal.moon_against for deal in run.boards[board]) for board in boards]
    theirs = [sum(deal.moon_against for deal in other.boards[board]) for board in boards]
    total_ours, total_theirs = sum(ours), sum(theirs)
    if not total_theirs:
        return math.nan, math.nan, math.nan
    share = total_ours / total_theirs
    n = len(boards)
    if not total_ours or n < 2:
        return share, math.nan, math.nan
    pairs = zip(ours, theirs, strict=True)
    spread = sum((a / total_ours - b / total_theirs) ** 2 for a, b in pairs)
    half = 1.96 * math.sqrt(spread * n / (n - 1))
    return share, share * math.exp(-half), share * math.exp(half)


def paired_cost(run: Log, reference: Log, boards: Sequence[int]) -> tuple[float, float]:
    """The mean over ``boards`` of the first bot's margin per deal in ``run`` less in
    ``reference``, and the half-width of its 95% interval (NaN for one board)."""
    differences = []
    for board in boards:
        ours, theirs = run.boards[board], reference.boards[board]
        differences.append(
            sum(d.margin for d in ours) / len(ours) - sum(d.margin for d in theirs) / len(theirs)
        )
    return mean_interval(differences)


def changes(run: Log, reference: Log, boards: Sequence[int]) -> dict[str, tuple[int, float]]:
    """The deals of ``run`` by what changed against the same deal in ``reference``, with
    the margin the change cost in all (positive: ``run`` did worse)."""
    kinds: dict[str, tuple[int, float]] = {}
    for board in boards:
        for ours, theirs in zip(run.boards[board], reference.boards[board], strict=True):
            if theirs.moon_against and not ours.moon_against:
                kind = "a moon against it stopped"
            elif ours.moon_against and not theirs.moon_against:
                kind = "a moon against it let through"
            elif ours.own_shot != theirs.own_shot:
                kind = "its own shot won" if ours.own_shot else "its own shot lost"
            elif ours.moon_against:
                kind = "a moon against it in both"
            else:
                kind = "no other change in moons"
            count, total = kinds.get(kind, (0, 0.0))
            kinds[kind] = (count + 1, total + ours.margin - theirs.margin)
    return kinds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", type=Path, nargs="+", help="arena logs (PATH.jsonl), first the run")
    parser.add_argument("--boards", type=int, help="only boards below this number")
    parser.add_argument(
        "--changes", action="store_true", help="sort the deals by what changed against the second"
    )
    args = parser.parse_args(argv)
    if args.boards is not None and args.boards < 1:
        parser.error("--boards: at least 1")
    try:
        logs = [read_log(path) for path in args.logs]
        boards = common_boards(logs, args.boards)
    except LogError as error:
        parser.error(str(error))
    run = logs[0]
    players = len(run.match["lineup"])
    deals = sum(len(run.boards[board]) for board in boards)
    seats = deals * (players - 1)
    moons = moons_against(run, boards)
    print(f"{len(boards)} boards, {deals} deals of the first bot's seat")
    print(
        f"{run.path}: {moons} moons against the first bot in {seats} ({100 * moons / seats:.2f}%)"
    )
    for other in logs[1:]:
        theirs = moons_against(other, boards)
        print(f"{other.path}: {theirs} ({100 * theirs / seats:.2f}%); {_share(run, other, boards)}")
    if len(logs) > 1:
        mean, half = paired_cost(run, logs[1], boards)
        interval = (
            "one board: no interval"
            if math.isnan(half)
            else f"95% CI {mean - half:+.2f} to {mean + half:+.2f}"
        )
        print(f"the first run's margin less the second's, per deal: {mean:+.2f} ({interval})")
        if args.changes:
            for kind, (count, total) in sorted(changes(run, logs[1], boards).items()):
                print(
                    f"  {kind}: {count} deals, margin {total:+.0f} ({total / deals:+.3f} per deal)"
                )
    return 0


def _share(run: Log, other: Log, boards: Sequence[int]) -> str:
    share, low, high = share_interval(run, other, boards)
    if math.isnan(share):
        return "no moon to compare with"
    interval = "no interval" if math.isnan(low) else f"95% CI {100 * low:.0f}% to {100 * high:.0f}%"
    return f"the first run's is {100 * share:.0f}% ({interval})"


if __name__ == "__main__":
    raise SystemExit(main())
