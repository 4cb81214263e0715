"""The actions of a game: passing cards, playing a card, choosing how a moon scores.

:class:`~openhearts.game.Game` takes them (``Game.apply``) and lists them
(``Game.actions``); records store them.  A refused action raises
:class:`IllegalActionError` with the reason in plain words.

>>> from openhearts.cards import Card, CardSet
>>> Play(2, Card.parse("QS"))
Play(seat=2, card=Card.parse('QS'))
>>> Pass(0, CardSet.parse("2C 3C 4C")).cards.pretty
'2♣ 3♣ 4♣'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardSet

__all__ = ["Action", "IllegalActionError", "MoonChoice", "Pass", "Play"]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat sets aside the cards it passes."""

    seat: int
    cards: CardSet


@dataclass(frozen=True, slots=True)
class Play:
    """The seat to move plays a card."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class MoonChoice:
    """A moon shooter's choice, where the rules let the shooter choose.

    ``others_add`` True: everyone else adds the points; False: the shooter subtracts them.
    """

    seat: int
    others_add: bool


Action = Pass | Play | MoonChoice
