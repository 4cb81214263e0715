"""``easy``: quick rule-based play, the way a careful casual player plays.

It passes the Q♠, A♠ and K♠ (unless its spades are long enough to guard them), high
hearts and short side suits; ducks under the winning card when it can; dumps the
queen and high hearts when void; leads low in suits where someone must go over it;
and, when one player has taken every point so far (at least half of them), it takes
a point trick away from that player or passes a heart to someone else.
"""

from __future__ import annotations

from ..cards import Card, CardSet
from ..game import PlayerView
from .base import BaseBot
from .policy import moon_threat, pass_policy, play_policy

__all__ = ["EasyBot", "view_masks"]


def view_masks(view: PlayerView) -> tuple[list[int], int, list[int]]:
    """From a view: the trick so far (card numbers), every card played, and each
    seat's won cards as masks."""
    trick = [int(card) for _, card in view.trick]
    gone = view.played.mask
    taken = [won.mask for won in view.won]
    return trick, gone, taken


class EasyBot(BaseBot):
    """The rules of thumb of :mod:`openhearts.bots.policy`; deterministic for a seed.

    >>> from openhearts import Game
    >>> game = Game(seed=3)
    >>> len(EasyBot(seed=1).choose_pass(game.view(0)))
    3
    """

    name = "easy"

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(
            pass_policy(view.hand.mask, view.rules.cards_passed, view.rules.jack_of_diamonds)
        )

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal.mask
        if legal & (legal - 1) == 0:
            return Card(legal.bit_length() - 1)
        trick, gone, taken = view_masks(view)
        leader = view.leader if view.leader is not None else view.seat
        card = play_policy(
            view.seat,
            view.hand.mask,
            legal,
            trick,
            leader,
            view.rules.players,
            gone,
            moon_threat(taken, view.rules.point_mask),
            view.rules.jack_of_diamonds,
        )
        return Card(card)
