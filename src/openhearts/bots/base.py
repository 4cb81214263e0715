"""The bot interface: three decisions, each from a :class:`~openhearts.view.PlayerView`.

A bot never sees the :class:`~openhearts.game.Game`: it is handed the view of its
own seat, which holds no other seat's hidden cards.
"""

from __future__ import annotations

import contextlib
import random
from typing import Protocol, runtime_checkable

from ..cards import Card, CardSet
from ..game import PlayerView

__all__ = ["Bot", "BaseBot", "close_bot"]


@runtime_checkable
class Bot(Protocol):
    """Anything with these three methods can sit at a table."""

    def choose_pass(self, view: PlayerView) -> CardSet:
        """The cards to pass (``view.rules.cards_passed`` of them, from ``view.hand``)."""
        ...

    def choose_play(self, view: PlayerView) -> Card:
        """A card from ``view.legal``."""
        ...

    def choose_moon(self, view: PlayerView) -> bool:
        """Where the shooter chooses: True to add the points to everyone else,
        False to subtract them from the shooter's own total."""
        ...


class BaseBot:
    """Shared plumbing: a seeded random generator and the conventional moon choice.

    :param seed: makes the bot's choices repeatable; any int or str.
    """

    name = "base"

    def __init__(self, seed: object = 0) -> None:
        self.seed = seed
        self.rng = random.Random(f"{type(self).__name__}:{seed}")

    def choose_moon(self, view: PlayerView) -> bool:
        return view.suggested_moon_choice()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def close_bot(bot: object) -> None:
    """Let ``bot`` free what it holds (an outside program, worker processes), if it has
    a ``close()``; a failure there is no concern of the game's."""
    close = getattr(bot, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()
