"""From a sampled world back to a whole deal: the hands dealt and the passes made.

A world (:func:`openhearts.bots.sampler.sample`) gives the hands the other seats hold
now.  Programs that replay a deal from its start, OpenSpiel among them, need more: what
each seat was dealt and what it passed.  The cards a seat has played go back into its
hand, then the exchange is undone: the seat's own pass and the one it received are known,
and any other pass is drawn from the cards its receiver has held since (they came from
somewhere; no one can tell where).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import cards_of
from ..view import PlayerView

__all__ = ["held_since_exchange", "undo_exchange"]


def held_since_exchange(view: PlayerView, hidden: Sequence[int]) -> list[int]:
    """Every card each seat has held since the exchange, as masks: the hand it holds now
    (``hidden[s]`` for the others, the view's hand for the view's own seat) and the cards
    it has played since."""
    players = view.rules.players
    held = [view.hand.mask if s == view.seat else hidden[s] for s in range(players)]
    for trick in view.tricks:
        for who, card in trick.plays(players):
            held[who] |= 1 << card
    for who, card in view.trick:
        held[who] |= 1 << card
    return held


def undo_exchange(
    view: PlayerView, held: Sequence[int], offset: int, rng: random.Random
) -> tuple[list[int], list[int]]:
    """The dealt hands and every seat's pass (masks), given what each seat has held since
    the exchange (:func:`held_since_exchange`) and the pass offset (seats from giver to
    receiver; the exchange must have happened).  Passes the view does not know are drawn
    with ``rng``, giver by giver in seat order."""
    players = view.rules.players
    count = view.rules.cards_passed
    passes = [0] * players
    for giver in range(players):
        receiver = (giver + offset) % players
        if giver == view.seat:
            passes[giver] = view.passed.mask if view.passed is not None else 0
        elif receiver == view.seat:
            passes[giver] = view.received.mask if view.received is not None else 0
        else:
            passes[giver] = sum(1 << card for card in rng.sample(cards_of(held[receiver]), count))
    dealt = [held[s] & ~passes[(s - offset) % players] | passes[s] for s in range(players)]
    return dealt, passes
