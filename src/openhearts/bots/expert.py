"""``expert``: ``hard``'s search on worlds weighted by what the other players did.

``hard`` treats every deal of the hidden cards that fits the facts as equally likely.
``expert`` draws a larger pool of such deals, weighs each by how well it explains the
other players' plays and pass under a model of their play
(:mod:`openhearts.bots.inference`), and searches the deals kept in proportion to those
weights.  It passes by simulation over more worlds (:mod:`openhearts.bots.passing`).
Everything else (candidates, playouts, the moon plan, the objective) is ``hard``'s.
It thinks several times longer than ``hard`` and stays well under a second per play.
"""

from __future__ import annotations

import random

from ..game import PlayerView
from .hard import HardBot
from .inference import weighted_deals
from .sampler import Knowledge

__all__ = ["ExpertBot", "EXPERT_BUDGET", "EXPERT_POOL", "EXPERT_PASS_WORLDS"]

#: Worlds searched per decision.
EXPERT_BUDGET = 80
#: Consistent worlds drawn and weighed per decision, of which ``budget`` are searched.
EXPERT_POOL = 240
#: Worlds per candidate pass.
EXPERT_PASS_WORLDS = 60


class ExpertBot(HardBot):
    """``hard`` with inference over the hidden cards and a longer look at passing.

    :param pool: worlds drawn and weighed per decision (at least ``budget``).
    Other parameters as :class:`~openhearts.bots.hard.HardBot`.
    """

    name = "expert"

    def __init__(
        self,
        seed: object = 0,
        budget: int = EXPERT_BUDGET,
        workers: int = 1,
        time_limit: float | None = None,
        pass_worlds: int = EXPERT_PASS_WORLDS,
        pool: int = EXPERT_POOL,
    ) -> None:
        super().__init__(seed, budget, workers, time_limit, pass_worlds)
        if pool < budget:
            raise ValueError("pool: at least as many worlds as the budget")
        self.pool = pool

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed!r}, budget={self.budget}, pool={self.pool})"

    def _deals(
        self, view: PlayerView, knowledge: Knowledge, seed: int
    ) -> tuple[tuple[int, ...], ...]:
        if self.pool == self.budget:
            return ()
        return weighted_deals(view, knowledge, random.Random(seed), self.budget, self.pool)
