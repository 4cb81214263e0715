"""What the parts of a plain game share: the session, the console, the save file."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..sentences.events import Narrator
from ..session import Session
from ..session.events import DealScored, DealStarted, Event, GameOver, MoonPending, TrickTaken
from ..session.names import marked_names
from ..session.saving import SessionInfo
from .console import Console
from .saving import SaveSlot
from .scores import show_deal_result

__all__ = ["Table"]


@dataclass
class Table:
    session: Session
    console: Console
    slot: SaveSlot
    #: Undo just happened: the person's sole legal card waits instead of being replayed.
    skip_auto: bool = False

    @property
    def me(self) -> int:
        return self.session.human

    @property
    def narrator(self) -> Narrator:
        return Narrator(self.session.view(), self.console.style)

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def who(self, seat: int) -> str:
        return "You" if seat == self.me else self.session.names[seat]

    @property
    def names(self) -> list[str]:
        """Names for tables: the person's marked ``(you)``."""
        return marked_names(self.session.names, self.me)

    def tell(self, events: Iterable[Event]) -> None:
        """Say what the events caused (deal results with their table)."""
        narrator = self.narrator
        for event in events:
            if isinstance(event, DealStarted):
                # The game loop announces each deal as it begins, resumed games too.
                continue
            if isinstance(event, MoonPending) and event.seat == self.me:
                # The moon prompt says it, with the choices.
                continue
            if isinstance(event, GameOver):
                # The end of the game says it, once, with the history of the deals.
                continue
            for line in narrator.lines(event):
                self.say(line)
            if isinstance(event, TrickTaken):
                self.say()
            elif isinstance(event, DealScored):
                show_deal_result(self, event)

    def info(self) -> SessionInfo:
        return self.session.info()
