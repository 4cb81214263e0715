"""Phases and outcomes as enums: what a deal or game is doing, and how a deal was shot.

They are :class:`~enum.StrEnum` members, so they compare equal to the plain strings
the engine used before (``game.phase == "passing"``), go into JSON as those strings
and print as them too (``repr`` included, so printed data reads as before).

>>> Phase.PASSING == "passing", Phase("game_over") is Phase.GAME_OVER
(True, True)
>>> [Shot.SUN, MoonScore.OTHERS_ADD]
['sun', 'add']
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase", "Shot", "MoonScore"]


class _Word(StrEnum):
    def __repr__(self) -> str:
        return repr(self.value)


class Phase(_Word):
    """What a deal (or the game) waits for."""

    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"
    #: A deal whose last trick is scored (:class:`~openhearts.deal.DealState` only).
    DONE = "done"
    #: The game's phase once a deal ends with someone at the end score.
    GAME_OVER = "game_over"


class Shot(_Word):
    """How one seat took everything in a deal."""

    MOON = "moon"
    SUN = "sun"


class MoonScore(_Word):
    """How a shot moon scored, where the shooter chose."""

    OTHERS_ADD = "add"
    SHOOTER_SUBTRACTS = "subtract"
