"""Statistics across games, from one person's seat: kept by the terminal game's files
and the web game's database alike.

>>> from openhearts import Game, Rules
>>> from openhearts.bots import act, make_bot
>>> game = Game(Rules(end_score=30), seed=2)
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> while not game.is_over:
...     act(game, game.to_act()[0], bots[game.to_act()[0]])
>>> stats = Stats()
>>> stats.add_game(game, 0)
>>> stats.games_played, stats.deals_played == len(game.results)
(1, True)
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game import Game
from ..paths import data_dir, lock_beside, read_text, set_aside_name
from ..phases import Shot
from .words import plural

__all__ = ["Stats", "default_stats_path", "load_stats", "record_game"]

#: The fields of :class:`Stats` that may be below 0.
SIGNED = frozenset({"points_taken", "best_total"})


@dataclass
class Stats:
    """Results across games, from the human player's seat."""

    games_played: int = 0
    games_won: int = 0
    deals_played: int = 0
    points_taken: int = 0
    moons_shot: int = 0
    suns_shot: int = 0
    #: Lowest final total of a finished game (None before the first).
    best_total: int | None = None
    #: Said when the file read was damaged and set aside (never saved).
    note: str = dataclasses.field(default="", compare=False, repr=False)

    @property
    def average_per_deal(self) -> float:
        return self.points_taken / self.deals_played if self.deals_played else 0.0

    @property
    def win_rate(self) -> float:
        return self.games_won / self.games_played if self.games_played else 0.0

    def add_game(self, game: Game, seat: int) -> None:
        """Count a finished game played from ``seat``."""
        self.games_played += 1
        if seat in game.winners:
            self.games_won += 1
        for result in game.results:
            self.deals_played += 1
            self.points_taken += result.points[seat]
            if result.shooter == seat:
                if result.shot == Shot.SUN:
                    self.suns_shot += 1
                else:
                    self.moons_shot += 1
        total = game.scores[seat]
        self.best_total = total if self.best_total is None else min(self.best_total, total)

    def lines(self) -> list[str]:
        """The statistics as plain sentences."""
        if not self.games_played:
            return ["No game finished yet."]
        lines = [
            f"Games played: {self.games_played}",
            f"Games won: {self.games_won} ({self.win_rate:.0%})",
            f"Deals played: {self.deals_played}",
            f"Average points per deal: {self.average_per_deal:.1f}",
            f"Moons shot: {self.moons_shot}",
        ]
        if self.suns_shot:
            lines.append(f"Suns shot: {self.suns_shot}")
        if self.best_total is not None:
            lines.append(f"Best final total: {self.best_total}")
        return lines

    def summary(self) -> str:
        """The statistics in one line."""
        if not self.games_played:
            return "No game finished yet."
        text = (
            f"{plural(self.games_played, 'game')}, "
            f"{self.games_won} won ({self.win_rate:.0%}), {plural(self.deals_played, 'deal')}, "
            f"{self.average_per_deal:.1f} points per deal, {plural(self.moons_shot, 'moon')} shot"
        )
        return text + (f", {plural(self.suns_shot, 'sun')}" if self.suns_shot else "") + "."

    @classmethod
    def from_dict(cls, data: object) -> Stats:
        stats = cls()
        if not isinstance(data, dict):
            return stats
        for item in dataclasses.fields(cls):
            if item.name == "note":
                continue
            value = data.get(item.name)
            # Counts are never negative; points and totals may be (a moon subtracted,
            # the J♦'s -10).
            signed = item.name in SIGNED
            if isinstance(value, int) and not isinstance(value, bool) and (signed or value >= 0):
                setattr(stats, item.name, value)
        return stats

    def to_dict(self) -> dict[str, Any]:
        saved = dataclasses.asdict(self)
        del saved["note"]
        return saved


def default_stats_path() -> Path:
    """The statistics file every face of this user shares."""
    return data_dir() / "statistics.json"


def load_stats(path: Path | None = None, *, strict: bool = False) -> Stats:
    """The saved statistics; a missing or unreadable file gives empty ones, and a
    damaged one is set aside as ``*.bad``, so that the next game counted does not write
    over what may still be read by hand.

    :param strict: raise the OSError of a file that is there but cannot be read (a
        permission, a disk error), rather than give empty statistics: counting a game
        onto those wrote over every game before it.
    """
    path = path or default_stats_path()
    try:
        data = json.loads(read_text(path))
    except FileNotFoundError:
        return Stats()
    except OSError:
        if strict:
            raise
        return Stats()
    except (ValueError, RecursionError):  # not text, not JSON, a number too long
        data = None
    if isinstance(data, dict):
        return Stats.from_dict(data)
    # Damaged, or JSON that holds no statistics ([], "x"): read as none, it was written
    # over by the next game counted, and the file set aside was set aside without a word.
    kept = set_aside_name(path)
    try:
        os.replace(path, kept)
    except OSError:
        return Stats(note=f"{path} holds no statistics: they start again from here")
    return Stats(
        note=f"{path} could not be read as statistics; it is kept as {Path(kept).name}, "
        "and they start again from here"
    )


def _only_one_at_a_time(path: Path) -> contextlib.AbstractContextManager[bool]:
    """Hold a lock beside ``path`` while its statistics are read, added to and written:
    two games ending together each wrote over the other's count.  Where there are no
    POSIX locks (Windows), as before."""
    from .saving import make_folder

    make_folder(path.parent)
    return lock_beside(path, wait=True)


def record_game(game: Game, seat: int, path: Path | None = None) -> Stats:
    """Add a finished game to the statistics file (raises OSError when it cannot, the
    file untouched: when it is there but cannot be read, too)."""
    from .saving import write_atomic

    path = path or default_stats_path()
    with _only_one_at_a_time(path):
        stats = load_stats(path, strict=True)
        stats.add_game(game, seat)
        write_atomic(path, json.dumps(stats.to_dict(), indent=2) + "\n")
    return stats
