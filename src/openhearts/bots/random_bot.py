"""``random``: any legal card, any cards to pass.  The baseline."""

from __future__ import annotations

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
        return CardSet(self.rng.sample(view.hand.cards(), view.rules.cards_passed))

    def choose_play(self, view: PlayerView) -> Card:
        return self.rng.choice(view.legal.cards())

    def choose_moon(self, view: PlayerView) -> bool:
        return self.rng.random() < 0.5
