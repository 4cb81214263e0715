"""``hearts arena``: play bots against each other and say, with error bars, who is better.

Duplicate format: every deal (a *board*) is played once per seat rotation, so each
bot of the line-up sits in every seat with the same cards and the luck of the deal
cancels out.  A bot's score on a board is its mean points per deal over its seats and
the rotations; boards are independent, so the 95% confidence interval is
``mean ± t·sd/√boards`` over the boards (``t`` is Student's 97.5% quantile for
``boards − 1`` degrees of freedom: 1.96 for many boards, wider for a few).  Differences
between two bots are taken board by board (paired), which is tighter than comparing two
intervals.

``--games N`` plays whole games to the end score instead (each game replayed in every
rotation) and adds win rates (a shared win counts as a fraction).

Finished boards are appended to ``OUT.jsonl`` as they finish; a stopped run (Ctrl-C)
loses only the boards in progress, and running the same command again resumes.  The
summary goes to ``OUT.json`` and ``OUT.csv`` and a table to standard output.
``--records DIR`` keeps each board's game in every rotation as a JSON record
(``DIR/board-000012-rotation-1.json``, see :func:`record_name`), for ``hearts replay``.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> args = parser.parse_args(["--bot", "easy", "--bot", "random", "--deals", "2",
...                           "--workers", "1", "--no-progress"])
>>> run(args)  # doctest: +ELLIPSIS
2 duplicate deals of 4 players (standard), each in 4 seat rotations
| bot | seats | deals | mean points/deal | 95% CI | moons | suns | ms/decision |
...
0
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import math
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .arena_ray import RayUnavailableError, play_boards, ray_module
from .bots import (
    BOTS,
    ENGINE_PREFIX,
    LEVELS,
    BotError,
    act,
    close_bot,
    engine_bot,
    load_bot,
    make_bot,
    split_options,
)
from .bots.base import Bot
from .bots.engine import EngineFault, program_problem
from .bots.hard import MAX_BUDGET
from .game import PLAYING, Game, name_problem
from .options import add_rules_arguments, file_name_problem, rules_from_args, whole_number
from .record import dumps as record_dumps
from .record import loads as record_loads
from .rules import Rules, RulesError
from .session.saving import make_folder, write_atomic
from .workers import MAX_WORKERS, Stopped, WorkerDied, map_unordered

__all__ = [
    "add_arguments",
    "run",
    "Match",
    "BotSpec",
    "play_board",
    "replay_board",
    "read_results",
    "record_name",
    "summarise",
    "mean_interval",
    "ArenaError",
]

#: The most deals or games one run may ask for (a typing slip past it ran for years).
MAX_BOARDS = 10_000_000


class ArenaError(ValueError):
    """A bad arena request (unknown bot, mismatching results file...)."""


class LogLineError(ArenaError):
    """A line of a results log that holds no board record."""


# Bots ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotSpec:
    """A bot as named on the command line: ``easy``, ``hard:budget=20``, ``pkg.mod:Cls``,
    ``cmd:./mybot --flag``."""

    text: str
    #: Options for an outside program (``cmd:``): ``time_limit``, ``start_limit``,
    #: ``fallback``, as :class:`~openhearts.bots.engine.EngineBot` takes them.
    program: tuple[tuple[str, Any], ...] = ()

    def parts(self) -> tuple[str, dict[str, Any]]:
        """Bot name (or import path, or ``cmd:PROGRAM``) and keyword options."""
        if self.text.startswith(ENGINE_PREFIX):
            return self.text, {}
        try:
            name, options = split_options(self.text)
        except BotError as error:
            raise ArenaError(str(error)) from None
        if name in BOTS:
            return name, options
        if ":" not in self.text:
            raise ArenaError(
                f"no bot level {self.text!r}: choose {', '.join(BOTS)} or module:Class"
            )
        return self.text, {}

    def build(self, seed: object) -> Bot:
        level, options = self.parts()
        try:
            if level.startswith(ENGINE_PREFIX):
                return engine_bot(level.removeprefix(ENGINE_PREFIX), seed, **dict(self.program))
            if level not in BOTS:
                return load_bot(level, seed)
            return make_bot(level, seed, **options)
        except BotError as error:
            raise ArenaError(f"bot {self.text!r}: {error}") from None


# The match -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """What is played: the same for every board, and checked when resuming."""

    rules: Rules
    lineup: tuple[str, ...]
    seed: str
    games: bool
    #: The outside programs' options (:attr:`BotSpec.program`); none by default.
    program: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ArenaError(f"rules: a Rules (Rules.preset('standard')), not {self.rules!r}")
        # A text is no line-up: "easy" made a 4-player match of bots 'e', 'a', 's', 'y'.
        if isinstance(self.lineup, str) or not all(isinstance(b, str) for b in self.lineup):
            raise ArenaError(
                f"lineup: one bot name per seat, such as ('expert', 'hard', 'hard', 'hard'), "
                f"not {self.lineup!r}"
            )
        object.__setattr__(self, "lineup", tuple(self.lineup))
        # Kept as text, as the results log keeps it: a seed of 5 was not the log's "5"
        # when the match was resumed.
        object.__setattr__(self, "seed", str(self.seed))
        if len(self.lineup) != self.rules.players:
            raise ArenaError(f"{len(self.lineup)} bots for {self.rules.players} seats")

    def to_dict(self) -> dict[str, Any]:
        data = {
            "rules": self.rules.to_dict(),
            "lineup": list(self.lineup),
            "seed": self.seed,
            "mode": "games" if self.games else "deals",
        }
        # Only when given: the logs of matches without them are resumed as before.
        if self.program:
            data["programs"] = dict(self.program)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match a results log records (:func:`read_results`' first answer).

        :raises ArenaError: when ``data`` holds no match.
        """
        try:
            return cls(
                Rules.from_dict(data["rules"]),
                tuple(str(text) for text in data["lineup"]),
                str(data["seed"]),
                data.get("mode") == "games",
                tuple(sorted(dict(data.get("programs") or {}).items())),
            )
        except (KeyError, TypeError, ValueError, RulesError) as error:
            raise ArenaError(f"not a match of an arena log ({error})") from None

    def spec(self, text: str) -> BotSpec:
        """A bot of the line-up as this match builds it."""
        return BotSpec(text, self.program)

    @property
    def labels(self) -> list[str]:
        """Distinct bots in line-up order."""
        return list(dict.fromkeys(self.lineup))

    def seat_bot(self, rotation: int, seat: int) -> str:
        """The bot in ``seat`` for a rotation: the line-up shifted ``rotation`` seats."""
        n = len(self.lineup)
        return self.lineup[(seat - rotation) % n]


def _rotation_bots(match: Match, specs: list[BotSpec], board: int, rotation: int) -> list[Bot]:
    """The bots of one rotation of a board, each seeded from the match, the board, the
    rotation and its seat."""
    players = match.rules.players
    return [
        specs[(seat - rotation) % players].build(f"{match.seed}:{board}:{rotation}:{seat}")
        for seat in range(players)
    ]


def _board_game(match: Match, board: int) -> Game:
    """A board's game before any card: its deal (or game) from the match's seed, at the
    board's place in the pass cycle."""
    rules = match.rules
    return Game(
        rules, seed=f"{match.seed}:{board}", first_deal=board % len(rules.pass_cycle or ("hold",))
    )


def replay_board(match: Match, board: int, rotation: int) -> Game:
    """One rotation of a board played again, as the arena played it: the game, with every
    action, for :func:`openhearts.record.save` or :mod:`openhearts.replay` (a moon to look
    at, a board where a program failed).  Bots seeded as the arena seeds them play the
    same cards, so the points are the log's (decision times aside, which a time limit
    may turn into other choices).

    :param rotation: 0 to ``players - 1``: the line-up shifted that many seats.
    """
    if not 0 <= rotation < match.rules.players:
        raise ArenaError(f"rotation: from 0 to {match.rules.players - 1}, not {rotation}")
    specs = [match.spec(text) for text in match.lineup]
    game, _bots = _play_one_rotation(match, specs, board, rotation, {})
    return game


def _play_one_rotation(
    match: Match,
    specs: list[BotSpec],
    board: int,
    rotation: int,
    timing: dict[str, list[float]],
) -> tuple[Game, list[Bot]]:
    """One rotation of a board played, timing the bots' decisions; the game, and its
    bots (closed: what they report of faults stays)."""
    bots = _rotation_bots(match, specs, board, rotation)
    labels = [match.seat_bot(rotation, seat) for seat in range(match.rules.players)]
    game = _board_game(match, board)
    try:
        _play_rotation(
            game, bots, labels, match.games, timing, f"board {board}, rotation {rotation}"
        )
    finally:
        for bot in bots:
            close_bot(bot)
    return game, bots


def record_name(board: int, rotation: int) -> str:
    """The file name of a board's record in one rotation, in a ``--records`` folder.

    >>> record_name(12, 1)
    'board-000012-rotation-1.json'
    """
    return f"board-{board:06d}-rotation-{rotation}.json"


def _rules_named(preset: str, rules: Rules) -> str:
    """The preset, and each option given that changes it (``source-003,
    jack_of_diamonds=true``): the preset's name alone stood for other rules.

    >>> _rules_named("source-003", Rules.preset("source-003", jack_of_diamonds=True))
    'source-003, jack_of_diamonds=true'
    """
    own = Rules.preset(preset, players=rules.players).to_dict()
    changed = [
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in rules.to_dict().items()
        if own[name] != value
    ]
    return ", ".join([preset, *changed])


def _seat_names(labels: Sequence[str]) -> list[str] | None:
    """The players' names of a record: each seat's bot, with its seat where the bot
    sits in more than one (``random (seat 2)``); None where a bot's name cannot be a
    player's (a control character in a ``cmd:`` line)."""
    repeated = {label for label in labels if labels.count(label) > 1}
    names = [
        f"{label} (seat {seat})" if label in repeated else label
        for seat, label in enumerate(labels)
    ]
    return names if all(name_problem(name) is None for name in names) else None


def game_record(match: Match, board: int, rotation: int, game: Game) -> str:
    """The JSON record of one rotation of a board (:mod:`openhearts.record`), named
    after the bots in their seats, with an ``arena`` key saying the match's seed, the
    board, the rotation and the bot in each seat (loading ignores it)."""
    labels = [match.seat_bot(rotation, seat) for seat in range(match.rules.players)]
    names = _seat_names(labels)
    if names is not None:
        data = json.loads(record_dumps(game))
        data["names"] = names
        game = record_loads(json.dumps(data))
    arena = {
        "seed": match.seed,
        "lineup": list(match.lineup),
        "mode": "games" if match.games else "deals",
        "board": board,
        "rotation": rotation,
        "seats": labels,
        "version": __version__,
    }
    return record_dumps(game, {"arena": arena})


def play_board(match: Match, board: int, records: bool = False) -> dict[str, Any]:
    """Play one board in every rotation; returns the JSON-ready record.

    :param records: add ``"records"``, each rotation's game as a JSON record
        (:func:`game_record`), which the arena writes to its ``--records`` folder.
    """
    rules = match.rules
    players = rules.players
    specs = [match.spec(text) for text in match.lineup]
    rotations: list[dict[str, Any]] = []
    timing: dict[str, list[float]] = {}
    faults: list[dict[str, Any]] = []
    programs: dict[str, list[int]] = {}
    texts: list[str] = []
    for rotation in range(players):
        game, bots = _play_one_rotation(match, specs, board, rotation, timing)
        if records:
            texts.append(game_record(match, board, rotation, game))
        labels = [match.seat_bot(rotation, seat) for seat in range(players)]
        # Outside programs that failed were replaced by a fallback bot: say so, and how
        # much of their play was the fallback's.
        for seat, bot in enumerate(bots):
            for fault in getattr(bot, "faults", ()):
                faults.append({"bot": labels[seat], "rotation": rotation, "fault": str(fault)})
            if isinstance(getattr(bot, "fallback_decisions", None), int):
                counts = programs.setdefault(labels[seat], [0, 0])
                counts[0] += bot.decisions  # type: ignore[attr-defined]
                counts[1] += bot.fallback_decisions  # type: ignore[attr-defined]
        results = game.results if match.games else game.results[:1]
        rotations.append(
            {
                "points": [list(r.points) for r in results],
                "shots": [[r.shooter, r.shot] for r in results if r.shot],
                "final": list(game.scores) if match.games else None,
                "winners": list(game.winners) if match.games else None,
            }
        )
    record: dict[str, Any] = {"board": board, "rotations": rotations, "timing": timing}
    if faults:
        record["faults"] = faults
    if programs:
        record["programs"] = programs
    if records:
        record["records"] = texts
    return record


def play_board_recorded(match: Match, board: int) -> dict[str, Any]:
    """:func:`play_board` with its records (a function of its own: Ray runs functions)."""
    return play_board(match, board, records=True)


def _write_records(folder: Path, board: int, texts: Sequence[str]) -> None:
    """A board's records, each file whole or not at all; a board played again (when a
    run is resumed) replaces its files, so none is ever written twice."""
    for rotation, text in enumerate(texts):
        write_atomic(folder / record_name(board, rotation), text, shared=True)


def _record_of_another_match(folder: Path, match: Match) -> Path | None:
    """A record in ``folder`` that another match wrote, or None.  Its boards' files were
    silently replaced board by board (a folder of two matches), and a resumed run took
    them for its own records.  One record says whose the folder is, as the log's first
    line does; files that are no arena record are left to whoever put them there."""
    for path in sorted(folder.glob("board-*-rotation-*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            made = data["arena"]
            same = (
                Rules.from_dict(data["rules"]) == match.rules
                and made["seed"] == match.seed
                and made["lineup"] == list(match.lineup)
                and made["mode"] == ("games" if match.games else "deals")
            )
        except (OSError, ValueError, KeyError, TypeError, RulesError):
            continue
        return None if same else path
    return None


def _records_missing(folder: Path, board: int, players: int) -> bool:
    return not all((folder / record_name(board, r)).is_file() for r in range(players))


def _play_rotation(
    game: Game,
    bots: list[Bot],
    labels: list[str],
    whole_games: bool,
    timing: dict[str, list[float]],
    where: str,
) -> None:
    """Play the deal (or the game) of one rotation, timing each bot's decisions."""
    first = game.deal_number
    while not game.is_over and (whole_games or game.deal_number == first):
        seat = game.to_act()[0]
        playing = game.phase == PLAYING
        start = time.perf_counter()
        try:
            act(game, seat, bots[seat])
        except Exception as error:  # someone else's bot: report it, do not crash
            # A program's fault is a sentence of ours; another error is named by its
            # class, which a bot's author needs (a KeyError says only the key).
            said = (
                str(error) if isinstance(error, EngineFault) else f"{type(error).__name__}: {error}"
            )
            raise ArenaError(
                f"{where}: bot {labels[seat]!r} in seat {seat} failed: {said}"
            ) from None
        if playing:
            row = timing.setdefault(labels[seat], [0.0, 0.0, 0.0])
            spent = time.perf_counter() - start
            row[0] += spent
            row[1] += 1
            row[2] = max(row[2], spent)


# Statistics ----------------------------------------------------------------------------


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` (one per board) and the half-width of its 95% interval,
    ``t·sd/√n`` with Student's ``t`` for ``n − 1`` degrees of freedom; NaN where there
    are too few values for either.  (1.96 in place of ``t`` covered 70% of the time with
    two boards, 92% with ten.)

    >>> mean, half = mean_interval([1.0, 2.0, 3.0])
    >>> mean, round(half, 4)
    (2.0, 2.4841)
    """
    n = len(values)
    mean = sum(values) / n if n else math.nan
    if n < 2:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, t_quantile(n - 1) * math.sqrt(var / n)


@functools.lru_cache(maxsize=512)
def t_quantile(degrees: int, level: float = 0.975) -> float:
    """Student's t distribution's ``level`` quantile for ``degrees`` degrees of freedom.

    >>> [round(t_quantile(d), 3) for d in (1, 2, 9, 1000)]
    [12.706, 4.303, 2.262, 1.962]
    """
    tail = 1.0 - level
    low, high = 0.0, 1.0
    while _t_upper_tail(high, degrees) > tail:
        high *= 2
    for _ in range(100):  # bisection: the tail falls as t grows
        middle = (low + high) / 2
        if _t_upper_tail(middle, degrees) > tail:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _t_upper_tail(t: float, degrees: int) -> float:
    """P(T > t) for t ≥ 0: half the regularised incomplete beta I_x(ν/2, 1/2),
    x = ν/(ν + t²)."""
    return 0.5 * _incomplete_beta(degrees / 2, 0.5, degrees / (degrees + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued fraction
    (on the side of x where it converges fast)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), evaluated by Lentz's method."""
    tiny = 1e-300

    def guarded(value: float) -> float:
        return value if abs(value) > tiny else tiny

    c = 1.0
    d = 1.0 / guarded(1.0 - (a + b) * x / (a + 1))
    result = d
    for m in range(1, 500):
        for term in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 / guarded(1.0 + term * d)
            c = guarded(1.0 + term / c)
            result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return result


@dataclass
class _Stat:
    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def mean(self) -> float:
        return mean_interval(self.values)[0]

    @property
    def half_width(self) -> float:
        return mean_interval(self.values)[1]


def summarise(match: Match, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per-bot means with 95% intervals, paired differences, moons, suns, win rates."""
    players = match.rules.players
    labels = match.labels
    per_board = {label: _Stat() for label in labels}
    wins = {label: _Stat() for label in labels}
    finals = {label: _Stat() for label in labels}
    moons = dict.fromkeys(labels, 0)
    suns = dict.fromkeys(labels, 0)
    deals = dict.fromkeys(labels, 0)
    seconds = dict.fromkeys(labels, 0.0)
    decisions = dict.fromkeys(labels, 0.0)
    slowest = dict.fromkeys(labels, 0.0)
    program_decisions = {label: [0, 0] for label in labels}
    for record in records:
        sums = dict.fromkeys(labels, 0.0)
        counts = dict.fromkeys(labels, 0)
        win_sum = dict.fromkeys(labels, 0.0)
        final_sum = dict.fromkeys(labels, 0.0)
        seat_games = dict.fromkeys(labels, 0)
        for rotation, data in enumerate(record["rotations"]):
            seat_label = [match.seat_bot(rotation, seat) for seat in range(players)]
            for points in data["points"]:
                for seat, value in enumerate(points):
                    sums[seat_label[seat]] += value
                    counts[seat_label[seat]] += 1
            for shooter, shot in data["shots"]:
                (moons if shot == "moon" else suns)[seat_label[shooter]] += 1
            if data.get("winners") is not None:
                winners = data["winners"]
                for seat in range(players):
                    label = seat_label[seat]
                    seat_games[label] += 1
                    final_sum[label] += data["final"][seat]
                    if seat in winners:
                        win_sum[label] += 1 / len(winners)
        for label in labels:
            per_board[label].add(sums[label] / counts[label])
            deals[label] += counts[label]
            if seat_games[label]:
                wins[label].add(win_sum[label] / seat_games[label])
                finals[label].add(final_sum[label] / seat_games[label])
        for label, (asked, by_fallback) in record.get("programs", {}).items():
            if label in program_decisions:
                program_decisions[label][0] += asked
                program_decisions[label][1] += by_fallback
        for label, (spent, count, high) in record.get("timing", {}).items():
            if label in seconds:
                seconds[label] += spent
                decisions[label] += count
                slowest[label] = max(slowest[label], high)
    table = []
    for label in labels:
        stat = per_board[label]
        row: dict[str, Any] = {
            "bot": label,
            "seats": match.lineup.count(label),
            "deals": deals[label],
            "mean_points": stat.mean,
            "ci95_low": stat.mean - stat.half_width,
            "ci95_high": stat.mean + stat.half_width,
            "moons": moons[label],
            "suns": suns[label],
            "ms_per_decision": 1000 * seconds[label] / decisions[label]
            if decisions[label]
            else math.nan,
            "max_ms_per_decision": 1000 * slowest[label],
            # An outside program's decisions its fallback bot made (after a fault): the
            # row is that much the fallback's play, not the program's.
            "fallback_share": program_decisions[label][1] / program_decisions[label][0]
            if program_decisions[label][0]
            else 0.0,
        }
        if match.games:
            row["win_rate"] = wins[label].mean
            row["win_ci95_low"] = wins[label].mean - wins[label].half_width
            row["win_ci95_high"] = wins[label].mean + wins[label].half_width
            row["mean_final_score"] = finals[label].mean
        table.append(row)
    differences = []
    first = labels[0]
    for label in labels[1:]:
        diff = _Stat(
            [a - b for a, b in zip(per_board[first].values, per_board[label].values, strict=True)]
        )
        differences.append(
            {
                "bot": first,
                "minus": label,
                "mean": diff.mean,
                "ci95_low": diff.mean - diff.half_width,
                "ci95_high": diff.mean + diff.half_width,
            }
        )
    faults = [
        {"board": record["board"], **fault}
        for record in records
        for fault in record.get("faults", ())
    ]
    return {
        "boards": len(records),
        "table": table,
        "differences": differences,
        "faults": faults,
    }


# Output --------------------------------------------------------------------------------


def _fmt(value: float, digits: int = 2) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _interval(
    low: float, high: float, digits: int = 2, joiner: str = " – ", prefix: str = ""
) -> str:
    """A 95% interval, or words saying why there is none: one board gives no spread."""
    if math.isnan(low) or math.isnan(high):
        return "no interval from one board"
    return f"{prefix}{low:.{digits}f}{joiner}{high:.{digits}f}"


def markdown_table(summary: dict[str, Any], games: bool) -> str:
    """The per-bot table in Markdown."""
    head = ["bot", "seats", "deals", "mean points/deal", "95% CI", "moons", "suns", "ms/decision"]
    if games:
        head += ["win rate", "win 95% CI", "mean final score"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in summary["table"]:
        cells = [
            f"`{row['bot']}`",
            str(row["seats"]),
            str(row["deals"]),
            _fmt(row["mean_points"]),
            _interval(row["ci95_low"], row["ci95_high"]),
            str(row["moons"]),
            str(row["suns"]),
            _fmt(row["ms_per_decision"], 1),
        ]
        if games:
            cells += [
                _fmt(row["win_rate"], 3),
                _interval(row["win_ci95_low"], row["win_ci95_high"], 3),
                _fmt(row["mean_final_score"], 1),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    for row in summary["table"]:
        if row.get("fallback_share"):
            lines.append("")
            lines.append(
                f"Warning: {row['fallback_share']:.0%} of `{row['bot']}`'s decisions were "
                "made by its fallback bot after the program failed: its row is not the "
                "program's play alone."
            )
    for diff in summary["differences"]:
        lines.append("")
        lines.append(
            f"`{diff['bot']}` minus `{diff['minus']}` (paired by board): "
            f"{_fmt(diff['mean'])} points/deal, "
            + _interval(diff["ci95_low"], diff["ci95_high"], joiner=" to ", prefix="95% CI ")
        )
    return "\n".join(lines)


def output_path(out: Path, ending: str) -> Path:
    """``--out PATH``'s file with ``ending`` (``.jsonl``, ``.json``, ``.csv``): the ending
    is added to the name (``budget-0.5`` keeps its ``.5``), or replaces one of those three.

    >>> output_path(Path("runs/budget-0.5"), ".json").name, output_path(Path("a.jsonl"), ".csv")
    ('budget-0.5.json', PosixPath('a.csv'))
    """
    if out.suffix in (".jsonl", ".json", ".csv"):
        out = out.with_suffix("")
    return out.with_name(out.name + ending)


def _plain_json(value: Any) -> Any:
    """``value`` with every NaN (an interval over one board) as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _plain_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain_json(item) for item in value]
    return value


def _write_outputs(out: Path, match: Match, summary: dict[str, Any], command: str) -> None:
    data = _plain_json({"command": command, "match": match.to_dict(), **summary})
    text = json.dumps(data, indent=2, allow_nan=False)
    output_path(out, ".json").write_text(text + "\n", encoding="utf-8")
    with output_path(out, ".csv").open("w", newline="", encoding="utf-8") as handle:
        columns = list(summary["table"][0]) if summary["table"] else []
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in summary["table"]:
            writer.writerow(row)


def _end_last_line(path: Path) -> None:
    """End a line cut short by a hard stop, so that the next board starts a line of its
    own (appended to the cut line, it would be lost with it)."""
    with path.open("rb") as handle:
        handle.seek(-1, 2)
        last = handle.read(1)
    if last != b"\n":
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n")


def read_results(
    path: str | os.PathLike[str], deals_only: bool = False
) -> tuple[dict[str, Any], dict[int, tuple[int, dict[str, Any]]]]:
    """The match a results log (``PATH.jsonl``) records and its boards' records, each with
    its line number, read as the arena reads them to resume: a line cut short by a hard
    stop is skipped, and a board played again later replaces it.  For research scripts
    that read the arena's logs.

    :raises ArenaError: when the file is no arena results log, saying why (and where), or
        with ``deals_only`` a log of whole games.
    :raises OSError: when it cannot be read.
    """
    # A file name as text, as record.load takes it, failed: "'str' object has no
    # attribute 'open'".
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except UnicodeDecodeError:
        raise ArenaError(f"{path}: not an arena results log (not text)") from None
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    match = header.get("match") if isinstance(header, dict) else None
    if not (
        isinstance(header, dict)
        and header.get("type") == "match"
        and isinstance(match, dict)
        and {"rules", "seed"} <= match.keys()
        and isinstance(match.get("lineup"), list)
        and len(match["lineup"]) > 1
    ):
        raise ArenaError(f"{path}: not an arena results log")
    if deals_only and match.get("mode") == "games":
        raise ArenaError(f"{path}: a log of whole games, not of single deals")
    boards: dict[int, tuple[int, dict[str, Any]]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a hard stop
        if not isinstance(record, dict) or record.get("type") != "board":
            raise LogLineError(f"{path}, line {number}: not a board record")
        board = record.get("board")
        if type(board) is not int or board < 0:
            raise LogLineError(f"{path}, line {number}: the board number is {board!r}")
        boards[board] = (number, record)
    return match, boards


def _read_log(path: Path, match: Match) -> dict[int, dict[str, Any]]:
    """Boards already finished in a results log; refuses a log of another match."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    advice = "mend or delete the line (its board is played again), or choose another --out"
    try:
        recorded, boards = read_results(path)
    except LogLineError as error:
        raise ArenaError(f"{error}: {advice}") from None
    if recorded != match.to_dict():
        raise ArenaError(
            f"{path} holds a different match (bots, rules, seed or mode differ): "
            "choose another --out, or delete the file to start again"
        )
    for number, record in boards.values():
        problem = _board_problem(record, match)
        if problem is not None:
            raise ArenaError(f"{path}, line {number}: {problem}: {advice}")
    _warn_of_another_version(path)
    return {board: record for board, (_, record) in boards.items()}


def _warn_of_another_version(path: Path) -> None:
    """Say so when a log being resumed was begun by another version of OpenHearts: its
    bots may have changed, and the table would mix the boards of both."""
    with path.open(encoding="utf-8") as handle:
        header = json.loads(handle.readline())
    begun = header.get("version")
    if begun != __version__:
        print(
            f"Warning: {path} was begun by "
            + (f"OpenHearts {begun}" if begun else "an OpenHearts that did not say its version")
            + f"; this is {__version__}: if a bot of the line-up changed since, the table "
            "mixes the boards of both.",
            file=sys.stderr,
        )


def _board_problem(record: dict[str, Any], match: Match) -> str | None:
    """Why a board record of a results log is no whole record of ``match``, or None."""
    board = record["board"]
    rotations = record.get("rotations")
    if not isinstance(rotations, list) or len(rotations) != match.rules.players:
        return f"board {board} does not hold one result per seat rotation"
    try:
        summarise(match, [record])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError):
        return f"board {board} is not a whole record of this match"
    return None


# Command line --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="a bot of the line-up, in seat order: random, easy, hard, expert, hard:budget=N, "
        "openspiel-ismcts:sims=700, openspiel-random, package.module:Class, or "
        "'cmd:PROGRAM ARGS' for a program speaking the engine protocol "
        "(repeatable; the last one fills the remaining seats; "
        "default: easy against random)",
    )
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--deals",
        type=whole_number(1, MAX_BOARDS),
        default=None,
        help="duplicate deals (default 100)",
    )
    count.add_argument(
        "--games",
        type=whole_number(1, MAX_BOARDS),
        default=None,
        help="duplicate whole games to the end score",
    )
    parser.add_argument("--seed", default="arena", help="seed of the deals (default: arena)")
    parser.add_argument(
        "--hard-budget",
        type=whole_number(1, MAX_BUDGET),
        default=None,
        metavar="N",
        help="worlds per decision for every plain `hard` bot (one given with options, "
        "`hard:...`, keeps its own)",
    )
    parser.add_argument(
        "--program-time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds a cmd: program has to start and for each decision (default 10)",
    )
    parser.add_argument(
        "--program-fallback",
        default=None,
        metavar="LEVEL",
        help="the bot that plays on for a cmd: program that failed (default easy), or "
        "none: a failure then stops the match (the finished boards are kept)",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, MAX_WORKERS),
        default=None,
        help="worker processes, or boards at once on Ray (default: one per core, "
        "of this machine or of the Ray cluster)",
    )
    parser.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="where boards run: local worker processes, or Ray tasks (a cluster or a "
        "local Ray instance; needs the ray extra); the results are the same",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="the Ray cluster for --backend ray (e.g. ray://head:10001 or auto; "
        "default: RAY_ADDRESS, else a local Ray instance)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="PATH",
        help="write PATH.jsonl (finished boards; re-run to resume), PATH.json and PATH.csv",
    )
    parser.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="keep each board's game in every seat rotation as a JSON record in DIR "
        "(board-000012-rotation-1.json), for hearts replay and hearts export",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_rules_arguments(parser)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
    if not 0 < value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"more than 0 and at most a day, not {text}")
    return value


def program_options(args: argparse.Namespace) -> tuple[tuple[str, Any], ...]:
    """The outside programs' options from the command line, for :class:`Match`."""
    options: list[tuple[str, Any]] = []
    fallback = getattr(args, "program_fallback", None)
    if fallback is not None:
        if fallback == "none":
            options.append(("fallback", None))
        elif fallback in LEVELS:
            options.append(("fallback", fallback))
        else:
            raise ArenaError(
                f"--program-fallback: one of {', '.join(LEVELS)} or none, not {fallback!r}"
            )
    limit = getattr(args, "program_time_limit", None)
    if limit is not None:
        options += [("start_limit", limit), ("time_limit", limit)]
    return tuple(options)


def _lineup(args: argparse.Namespace, players: int, rules: Rules | None = None) -> tuple[str, ...]:
    specs = list(args.bot) or ["easy", "random"]
    if len(specs) > players:
        raise ArenaError(f"{len(specs)} bots for {players} seats: give at most {players}")
    specs += [specs[-1]] * (players - len(specs))
    if args.hard_budget is not None:
        if args.hard_budget < 1:
            raise ArenaError("--hard-budget: at least 1")
        specs = [f"hard:budget={args.hard_budget}" if s == "hard" else s for s in specs]
    program = program_options(args)
    for spec in set(specs):
        problem = program_problem(BotSpec(spec, program).build(0))  # fail early, in words
        if problem is not None:
            raise ArenaError(f"{spec}: {problem}")
        if rules is not None and spec.startswith("openspiel-"):
            # Said before the log is begun, not when the first board starts.
            from .openspiel import OpenSpielMappingError, openspiel_parameters

            try:
                openspiel_parameters(rules)
            except OpenSpielMappingError as error:
                raise ArenaError(
                    f"{spec}: OpenSpiel's Hearts cannot play these rules: {error}"
                ) from None
    return tuple(specs)


def _deals(args: argparse.Namespace) -> int:
    return 100 if args.deals is None else int(args.deals)


def _command(args: argparse.Namespace, lineup: Sequence[str]) -> str:
    parts = ["hearts", "arena"]
    for spec in lineup:
        parts += ["--bot", spec]
    if args.games is not None:
        parts += ["--games", str(args.games)]
    else:
        parts += ["--deals", str(_deals(args))]
    parts += ["--seed", str(args.seed), "--preset", args.preset]
    if args.players is not None:
        parts += ["--players", str(args.players)]
    if args.end_score is not None:
        parts += ["--end-score", str(args.end_score)]
    for option in args.option:
        parts += ["-o", option]
    if args.out:
        parts += ["--out", args.out]
    if getattr(args, "records", None):
        parts += ["--records", args.records]
    if args.backend != "local":
        parts += ["--backend", args.backend]
    if args.program_time_limit is not None:
        parts += ["--program-time-limit", f"{args.program_time_limit:g}"]
    if args.program_fallback is not None:
        parts += ["--program-fallback", args.program_fallback]
    return shlex.join(parts)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
        lineup = _lineup(args, rules.players, rules)
    except (RulesError, ArenaError) as error:
        print(f"hearts arena: {error}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("hearts arena: --workers: at least 1", file=sys.stderr)
        return 2
    if args.ray_address is not None and args.backend != "ray":
        # Else the match ran in local workers while its author thought it on the cluster.
        print(
            "hearts arena: --ray-address is for --backend ray: add --backend ray", file=sys.stderr
        )
        return 2
    if args.backend == "ray":
        try:
            ray_module()
        except RayUnavailableError as error:
            # Said before any file is made, with the status of every missing extra.
            print(f"hearts arena: {error}", file=sys.stderr)
            return 2
    match = Match(rules, lineup, str(args.seed), args.games is not None, program_options(args))
    total = args.games if args.games is not None else _deals(args)
    if total < 1:
        print("hearts arena: play at least one deal or game", file=sys.stderr)
        return 2
    named = args.out is not None and args.out.strip()
    if named and (args.out.endswith(("/", os.sep)) or Path(args.out).is_dir()):
        # A folder named: "runs/" wrote runs.json beside it, "runs" failed to write.
        print(
            f"hearts arena: --out {args.out}: a folder; name the files in it, "
            f"e.g. --out {os.path.join(args.out, 'match')}",
            file=sys.stderr,
        )
        return 2
    problem = None if args.out is None else file_name_problem(args.out)
    if problem is not None:
        # As every command reads a file name: nothing, or control characters, refused.
        print(f"hearts arena: --out: {problem}", file=sys.stderr)
        return 2
    if args.out is not None and os.path.exists(args.out) and not os.path.isfile(args.out):
        # /dev/null, the usual "discard": PATH.jsonl and the rest were made beside it.
        print(
            f"hearts arena: --out {args.out}: not a file name for the results "
            "(leave --out out to keep none)",
            file=sys.stderr,
        )
        return 2
    records_folder = _records_folder(getattr(args, "records", None))
    if isinstance(records_folder, str):
        print(f"hearts arena: --records {records_folder}", file=sys.stderr)
        return 2
    other = None if records_folder is None else _record_of_another_match(records_folder, match)
    if other is not None:
        print(
            f"hearts arena: --records {args.records} holds the records of a different match "
            f"({other.name}: bots, rules, seed or mode differ): choose another folder, or "
            "delete its records to start again",
            file=sys.stderr,
        )
        return 2
    out = Path(args.out) if args.out else None
    log = output_path(out, ".jsonl") if out else None
    try:
        done = _read_log(log, match) if log else {}
    except ArenaError as error:
        print(f"hearts arena: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"hearts arena: cannot read {log}: {error.strerror or error}", file=sys.stderr)
        return 2
    if log is not None:
        # An output that cannot be written is said before any board is played.
        try:
            make_folder(log.parent)
            if not log.exists() or log.stat().st_size == 0:
                header = {"type": "match", "match": match.to_dict(), "version": __version__}
                log.write_text(json.dumps(header) + "\n")
            else:
                _end_last_line(log)
        except OSError as error:
            print(f"hearts arena: cannot write {log}: {error.strerror or error}", file=sys.stderr)
            return 2
    todo = [board for board in range(total) if board not in done]
    if done and todo:
        print(f"Resuming: {total - len(todo)} of {total} boards already played.", file=sys.stderr)
    # Boards of the log without their records (a first run without --records): played
    # again for the records alone, as the arena played them.
    unrecorded = (
        set()
        if records_folder is None
        else {
            board
            for board in done
            if board < total and _records_missing(records_folder, board, rules.players)
        }
    )
    if unrecorded:
        print(
            f"Playing {len(unrecorded)} logged board(s) again for their records.",
            file=sys.stderr,
        )
    stopped: int | None = None  # the exit status of a run stopped before its end
    try:
        boards = _play(match, sorted(unrecorded) + todo, args, total - len(todo) - len(unrecorded))
        for record in boards:
            texts = record.pop("records", None)
            if records_folder is not None and texts is not None:
                # Before the log's line: a board logged has its records.
                try:
                    _write_records(records_folder, record["board"], texts)
                except OSError as error:
                    raise ArenaError(
                        f"cannot write the records in {records_folder}: {error.strerror or error}"
                    ) from None
            if record["board"] in unrecorded:
                _compare_replayed(done[record["board"]], record)
                continue
            done[record["board"]] = record
            if log is not None:
                try:
                    with log.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps({"type": "board", **record}) + "\n")
                except OSError as error:
                    raise ArenaError(f"cannot write {log}: {error.strerror or error}") from None
    except Stopped as stop:
        stopped = stop.exit_status
    except KeyboardInterrupt:
        stopped = 130
    except (ArenaError, RayUnavailableError, WorkerDied) as error:
        print(f"hearts arena: {error}", file=sys.stderr)
        if log is not None:
            print(f"The finished boards are kept in {log}.", file=sys.stderr)
        return 1
    records = [done[b] for b in sorted(done) if b < total]
    if not records:
        print("No boards finished.", file=sys.stderr)
        return stopped or 1
    summary = summarise(match, records)
    command = _command(args, lineup)
    failed_to_write = False
    if out is not None:
        try:
            _write_outputs(out, match, summary, command)
        except OSError as error:
            print(f"hearts arena: cannot write the results: {error}", file=sys.stderr)
            failed_to_write = True
    unit = "game" if match.games else "deal"
    print(
        f"{len(records)} duplicate {unit}{'' if len(records) == 1 else 's'} of "
        f"{rules.players} players ({_rules_named(args.preset, rules)}), "
        f"each in {rules.players} seat rotations"
    )
    print(markdown_table(summary, match.games))
    _report_faults(summary["faults"])
    broken = _always_failed(match, summary)
    if broken:
        # Its numbers are its fallback's: a script reading the status must not take
        # them for a measurement of the program.
        print(
            f"\nhearts arena: {', '.join(broken)} failed in every game it played: the "
            "results above measure its fallback bot, not the program.",
            file=sys.stderr,
        )
    if stopped is not None:
        # Only a log can be resumed: without --out the finished boards are the table above.
        again = (
            "run the same command to resume"
            if log is not None
            else "the table above is of those; --out keeps the boards so that a run can resume"
        )
        print(f"\nStopped after {len(records)} of {total} boards; {again}.", file=sys.stderr)
        return stopped
    return 1 if failed_to_write or broken else 0


def _records_folder(given: str | None) -> Path | str | None:
    """The ``--records`` folder, made if need be; or what is wrong with it, in words
    (after ``--records``), before any board is played."""
    if given is None:
        return None
    problem = file_name_problem(given.rstrip("/" + os.sep) or given)
    if problem is not None:
        return f"{given}: {problem.replace('file name', 'folder name')}"
    folder = Path(given)
    try:
        make_folder(folder)
    except OSError as error:
        return f"{given}: cannot make the folder: {error.strerror or error}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{given}: cannot write in the folder"
    return folder


def _compare_replayed(logged: dict[str, Any], replayed: dict[str, Any]) -> None:
    """Say so when a logged board played again for its records came out otherwise (a
    bot whose choices depend on time): its records are then not the logged games."""
    if [r["points"] for r in logged["rotations"]] != [r["points"] for r in replayed["rotations"]]:
        print(
            f"Warning: board {logged['board']} played again for its records did not "
            "give the logged points (a bot of the line-up depends on time?): its "
            "records are of the new play.",
            file=sys.stderr,
        )


def _always_failed(match: Match, summary: dict[str, Any]) -> list[str]:
    """The outside programs that failed in every game they sat in (one fault per game
    and seat: the fallback then plays that game on)."""
    games = summary["boards"] * match.rules.players
    faulted = Counter(fault["bot"] for fault in summary["faults"])
    return [
        label
        for label in match.labels
        if faulted[label] and faulted[label] >= games * match.lineup.count(label)
    ]


def _report_faults(faults: Sequence[dict[str, Any]], shown: int = 10) -> None:
    """Outside programs that failed, on standard error: the match went on without them."""
    if not faults:
        return
    print(
        f"\n{len(faults)} time(s) a bot program failed and a fallback bot took its seat:",
        file=sys.stderr,
    )
    for fault in faults[:shown]:
        print(
            f"  board {fault['board']}, rotation {fault['rotation']}, {fault['bot']}: "
            f"{fault['fault']}",
            file=sys.stderr,
        )
    if len(faults) > shown:
        print(f"  ... and {len(faults) - shown} more (in the JSON results)", file=sys.stderr)


def _play(
    match: Match, boards: list[int], args: argparse.Namespace, already: int
) -> Iterator[dict[str, Any]]:
    """Finished board records, as they finish (in any order)."""
    if not boards:
        return
    bar = _Progress(len(boards) + already, already, not args.no_progress)
    workers = args.workers or os.cpu_count() or 1
    recorded = getattr(args, "records", None) is not None
    try:
        if args.backend == "ray":
            function = play_board_recorded if recorded else play_board
            for record in play_boards(function, match, boards, args.workers, args.ray_address):
                bar.advance()
                yield record
            return
        stopping = "Stopping once the boards being played end"
        play = functools.partial(play_board_recorded if recorded else play_board, match)
        for _board, record in map_unordered(play, boards, workers, stopping):
            bar.advance()
            yield record
    finally:
        bar.stop()


class _Progress:
    """A rich progress bar on standard error, with the time left; without rich (which
    the arena, like the engine, does not require) a line every half minute instead."""

    #: Seconds between two plain lines.
    EVERY = 30.0

    def __init__(self, total: int, completed: int, enabled: bool) -> None:
        self._progress: Any = None
        self._plain = False
        self._total, self._completed, self._started = total, completed, time.monotonic()
        self._first, self._said = completed, self._started
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            self._plain = True
            return

        self._progress = Progress(
            TextColumn("boards"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        self._progress.start()
        self._task = self._progress.add_task("boards", total=total, completed=completed)

    def advance(self) -> None:
        self._completed += 1
        if self._progress is not None:
            self._progress.advance(self._task)
        elif self._plain:
            now = time.monotonic()
            if now - self._said >= self.EVERY or self._completed == self._total:
                self._said = now
                print(self.line(now), file=sys.stderr, flush=True)

    def line(self, now: float) -> str:
        """``boards 12 of 100, 1m20s so far, about 9m50s left``."""
        spent = now - self._started
        played = self._completed - self._first
        text = f"boards {self._completed} of {self._total}, {_duration(spent)} so far"
        if played and self._completed < self._total:
            left = spent / played * (self._total - self._completed)
            text += f", about {_duration(left)} left"
        return text

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _duration(seconds: float) -> str:
    """``1h02m``, ``9m50s``, ``12s``.

    >>> _duration(3725), _duration(590), _duration(12.4)
    ('1h02m', '9m50s', '12s')
    """
    whole = round(seconds)
    if whole >= 3600:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    if whole >= 60:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole}s"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m openhearts.arena``: the same as ``hearts arena``."""
    parser = argparse.ArgumentParser(prog="hearts arena", description=__doc__.split("\n")[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
