"""Card points under a set of rules: one count for tricks, won cards and hints.

>>> from openhearts.rules import Rules
>>> from openhearts.cards import CardSet
>>> card_points(Rules(), CardSet.parse("QS 2H 3H JD"))
15
>>> card_points(Rules.preset("source-003", jack_of_diamonds=True), CardSet.parse("JD 2H"))
-9
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, CardSet
from ..rules import Rules

__all__ = ["card_points"]


def card_points(rules: Rules, cards: Iterable[int]) -> int:
    """Hearts 1 each, the Q♠ 13, and the J♦ -10 where that rule is in force."""
    mask = cards.mask if isinstance(cards, CardSet) else CardSet(cards).mask
    points = (mask & HEARTS_MASK).bit_count() + (13 if mask >> QUEEN_OF_SPADES & 1 else 0)
    if rules.jack_of_diamonds and mask >> JACK_OF_DIAMONDS & 1:
        points -= 10
    return points
