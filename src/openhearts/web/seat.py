"""A seat at a table: who holds it (a person by token, a bot, nobody) and who watches
it."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots import Bot
from ..cards import CardSet
from .connection import Connection
from .storage import (
    SeatRow,
)

__all__ = ["BOT_NAMES", "Seat"]

log = logging.getLogger("openhearts.web")


#: Friendly names for bots, by seat.
BOT_NAMES: Final = ("Ada", "Blaise", "Carmen", "Dmitri", "Emmy", "Farid")


@dataclass(eq=False)
class Seat:
    index: int
    kind: str = "empty"
    name: str | None = None
    token_hash: str | None = None
    player_hash: str | None = None
    level: str | None = None
    host: bool = False
    auto_play_one: bool = True
    #: A person who left or dropped: a bot plays for them until they come back.
    away: bool = False
    connections: set[Connection] = field(default_factory=set)
    bot: Bot | None = None
    takeover: asyncio.TimerHandle | None = None
    #: The turn clock ran out: a bot makes this one move for the person.
    overdue: bool = False
    #: Turn clocks run out in a row (a move of the person's own resets it).
    timeouts: int = 0
    #: A bot made a move for this person in the game in progress (they left, dropped or
    #: let the clock run out): the game does not count in their statistics.
    helped: bool = False
    #: The cards the person has picked to pass so far, with the game and deal they were
    #: picked in: a pass the clock makes for them starts with these.
    picks: tuple[tuple[int, int], CardSet] | None = None
    #: Its bot failed in the game in progress: a random player plays for it until the
    #: game ends (the faulty-bot policy; kept while the server runs).
    replaced: bool = False

    def empty(self) -> None:
        """Nobody in the seat: what the last person chose (auto play one) or had happen
        (clock run out, helped by a bot) goes with them, not to who sits down next."""
        self.kind, self.name, self.level, self.bot = "empty", None, None, None
        self.token_hash = self.player_hash = None
        self.picks = None
        self.auto_play_one, self.away, self.overdue, self.timeouts, self.helped = (
            True, False, False, 0, False
        )  # fmt: skip
        self.replaced = False

    def emptied(self) -> SeatRow:
        """The row of this seat once :meth:`empty` (stored before it is emptied)."""
        return SeatRow(seat=self.index, host=self.host)

    @property
    def bot_playing(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.away)

    def row(self) -> SeatRow:
        return SeatRow(
            seat=self.index,
            kind=self.kind,
            name=self.name,
            token_hash=self.token_hash,
            player_hash=self.player_hash,
            level=self.level,
            host=self.host,
            auto_play_one=self.auto_play_one,
            helped=self.helped,
        )

    def restore(self, row: SeatRow) -> None:
        """Put back what :meth:`row` said, a change that could not be stored undone."""
        self.index, self.kind, self.name, self.level = row.seat, row.kind, row.name, row.level
        self.token_hash, self.player_hash = row.token_hash, row.player_hash
        self.host, self.auto_play_one, self.helped = row.host, row.auto_play_one, row.helped

    @classmethod
    def of_row(cls, row: SeatRow) -> Seat:
        return cls(
            index=row.seat,
            kind=row.kind,
            name=row.name,
            token_hash=row.token_hash,
            player_hash=row.player_hash,
            level=row.level,
            host=row.host,
            auto_play_one=row.auto_play_one,
            helped=row.helped,
        )

    def summary(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "host": self.host,
            "connected": bool(self.connections),
            "bot_playing": self.bot_playing,
            # The turn clock ran out: a bot makes this person's move now.
            "overdue": self.overdue,
            # A bot moved for this person in the game in progress: it will not count in
            # their statistics (their page says so, once).
            "helped": self.helped,
            # Its bot failed in this game: a random player plays for it (said once, to
            # everyone at the table, in the state that carries its first move).
            "replaced": self.replaced,
        }
        if self.kind == "bot":
            data["level"] = self.level
        return data
