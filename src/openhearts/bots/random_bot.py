"""``random``: any legal card, any cards to pass.  The baseline."""

from __future__ import annotations

import random

from ..cards import Card, CardSet
from ..game import PlayerView
from .base import BaseBot


class RandomBot(BaseBot):
    """Plays a uniformly random legal card and passes random cards.

    >>> from openhearts import Game
    >>> game = Game(seed=3)
    >>> bot = RandomBot(seed=1)
    >>> len(bot.choose_pass(game.view(0)))
    3
    """

    name = "random"

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(self._rng(view).sample(view.hand.cards(), view.rules.cards_passed))

    def choose_play(self, view: PlayerView) -> Card:
        return self._rng(view).choice(view.legal.cards())

    def choose_moon(self, view: PlayerView) -> bool:
        return self._rng(view).random() < 0.5

    def _rng(self, view: PlayerView) -> random.Random:
        """A generator drawn from the seed and the position alone, so that a game
        replayed from its record (a resumed save, an undo) gets the same choices."""
        position = (
            f"{view.deal_number}:{view.seat}:{view.phase}:{view.hand.mask}:{view.played.mask}"
        )
        return random.Random(f"RandomBot:{self.seed}:{position}")
