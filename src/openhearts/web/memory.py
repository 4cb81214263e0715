"""Memory aids in the state message: the session core's (:mod:`openhearts.session.memory`),
computed once on the server for the seat that receives them.

A seat gets its own aids.  A spectator gets what anyone watching can work out: the cards
played, the cards not played yet, every known void, hearts broken and the points taken;
nothing that depends on a hand or a pass.

>>> from openhearts import Game
>>> game = Game(seed=1)
>>> aids = memory_json(game.view(0), seat=0)
>>> len(aids["played"]), len(aids["unseen"]), aids["voids"], aids["hearts_broken"]
(0, 39, [], False)
>>> len(memory_json(game.view(0), seat=None)["unseen"])
52
"""

from __future__ import annotations

from typing import Any

from ..cards import CardSet, Suit
from ..game import PlayerView
from ..session.memory import hearts_broken, hearts_sentence, memory_aids
from .views import cards_json

__all__ = ["memory_json"]


def memory_json(view: PlayerView, seat: int | None) -> dict[str, Any]:
    """The memory aids sent to ``seat``; ``seat`` None is a spectator, for whom
    ``view`` (any seat's) gives only its public part."""
    if seat is None:
        return {
            "played": cards_json(view.played),
            # Not played yet: every card in play but those played; no hand is subtracted.
            "unseen": cards_json(CardSet(view.rules.deck_mask & ~view.played.mask)),
            "voids": [
                [other, Suit(suit).letter]
                for other, suits in enumerate(view.voids)
                for suit in sorted(suits)
            ],
            "hearts_broken": hearts_broken(view),
            "hearts_sentence": hearts_sentence(view),
            "points_taken": list(view.points_taken),
            "still_out_from_pass": [],
        }
    if view.seat != seat:
        raise ValueError("a seat only ever gets its own memory aids")
    aids = memory_aids(view)
    return {
        "played": cards_json(aids.played),
        "unseen": cards_json(aids.unseen),
        "voids": [[void.seat, void.suit.letter] for void in aids.voids],
        "hearts_broken": aids.hearts_broken,
        "hearts_sentence": hearts_sentence(view),
        "points_taken": list(aids.points_taken),
        "still_out_from_pass": cards_json(aids.still_out_from_pass),
    }
