"""``expert``: ``hard``'s search on worlds weighted by what the other players did.

``hard`` treats every deal of the hidden cards that fits the facts as equally likely.
``expert`` draws a larger pool of such deals, weighs each by how well it explains the
other players' plays and pass under a model of their play, a player going for the moon
included (:mod:`openhearts.bots.inference`), and searches the deals kept in proportion
to those weights.  In its playouts seats look one card ahead rather than following the rules of
thumb blindly: such a seat tries each legal card, plays each out by the rules, and plays
the best for itself (``lookahead``, :func:`openhearts.bots.hard.lookahead_card`); this
seat always, the others in half the worlds, as if unsure whether they do.  It passes
by simulation over more worlds (:mod:`openhearts.bots.passing`).  It ranks cards by
``hard``'s objective plus a fear of the others' moons (``moon_fear``, once the points in
play by default), which that objective counts for too little to stop them as often as
players expect (:mod:`openhearts.bots.objective`).  Everything else (candidates, its
own moon plan) is ``hard``'s.  It thinks several times longer than ``hard``
and stays well under a second per play.
"""

from __future__ import annotations

import functools
import random
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..game import PlayerView
from .hard import (
    LOOKAHEAD_ALL,
    LOOKAHEAD_MIXED,
    LOOKAHEAD_NONE,
    LOOKAHEAD_ROOT,
    HardBot,
)
from .inference import LEARNED_FLOOR, MOON_PRIOR, PlayModel, weighted_deals
from .policy import holds_every_point
from .sampler import Knowledge

if TYPE_CHECKING:
    from .learned import PolicyNet

__all__ = [
    "ExpertBot",
    "EXPERT_BUDGET",
    "EXPERT_POOL",
    "EXPERT_PASS_WORLDS",
    "EXPERT_LOOKAHEAD",
    "EXPERT_MOON_FEAR",
]

#: Worlds searched per decision.
EXPERT_BUDGET = 80
#: Consistent worlds drawn and weighed per decision, of which ``budget`` are searched.
EXPERT_POOL = 240
#: Worlds per candidate pass.
EXPERT_PASS_WORLDS = 60
#: What another player's moon costs beyond its points, as a share of the points in play:
#: once the points, which stops a quarter of the moons for little (docs/bots.md); more
#: stops few more moons for many more points.
EXPERT_MOON_FEAR = 1.0
#: Who looks one card ahead in the playouts: this seat, and the others in half the worlds
#: (see docs/bots.md for the arena runs behind this choice).
EXPERT_LOOKAHEAD = LOOKAHEAD_MIXED


class ExpertBot(HardBot):
    """``hard`` with inference over the hidden cards and a longer look at passing.

    :param pool: worlds drawn and weighed per decision (at least ``budget``).
    :param weighted: search every world of the pool, each counted for its weight,
        instead of ``budget`` worlds resampled from it by weight (``budget`` then only
        bounds ``pool`` from below).
    :param lookahead: as :class:`~openhearts.bots.hard.HardBot`'s, but by default this
        seat, and every seat in half the worlds (:data:`EXPERT_LOOKAHEAD`).
    :param pass_lookahead: who looks one card ahead in the playouts of passing by
        simulation (0 nobody, 1 this seat, 2 every seat).
    :param moon_prior: the inference's prior odds that another player is going for the
        moon (:data:`~openhearts.bots.inference.MOON_PRIOR`).
    :param moon_fear: what another seat's moon costs this seat beyond its points, as a
        share of the points in play, in the search of its plays
        (:func:`~openhearts.bots.objective.margin`), while another seat holds every
        point taken so far.  The points alone count an opponent's moon as a third of a
        moon against this seat (the moon adds as much to two more players), too little
        to stop moons as often as players expect.  1 by default
        (:data:`EXPERT_MOON_FEAR`): against ``hard`` players their moons fall by a
        quarter and this seat takes 0.13 points per deal more than without fear; at 2
        by a third, for 0.38 (docs/bots.md).  0 turns the fear off.
    :param early_fear: the same while no other seat holds every point taken so far,
        which matters only before the first point is taken; None: ``moon_fear``.
    :param learned: in the inference, weigh the others' plays by a network trained to
        play like ``hard`` (:mod:`openhearts.bots.learned`) instead of by agreement
        with the rules of thumb; a shooter's plays for every point are still compared
        with the rules of thumb.  Needs numpy and the inference; under rules other than
        the network's (the standard game) the rules of thumb weigh the plays.
    :param learned_weights: with ``learned``, a weights file written by ``hearts train
        --weights FILE`` instead of the package's own (to measure a model of your own
        in the arena: ``expert:learned=1,learned_weights=FILE``).
    :param learned_floor: added to the network's probability of each play before it
        weighs a world (:data:`~openhearts.bots.inference.LEARNED_FLOOR`), so that one
        play the network found unlikely does not rule a world out.

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
        weighted: bool = False,
        lookahead: int = EXPERT_LOOKAHEAD,
        depth: int = 1,
        pass_lookahead: int = LOOKAHEAD_NONE,
        moon_prior: float = MOON_PRIOR,
        moon_fear: float = EXPERT_MOON_FEAR,
        early_fear: float | None = None,
        learned: bool = False,
        learned_floor: float = LEARNED_FLOOR,
        learned_weights: str | None = None,
    ) -> None:
        super().__init__(
            seed, budget, workers, time_limit, pass_worlds, lookahead=lookahead, depth=depth
        )
        if pool < budget:
            raise ValueError("pool: at least as many worlds as the budget")
        self.pool = pool
        self.weighted = weighted
        if pass_lookahead not in (LOOKAHEAD_NONE, LOOKAHEAD_ROOT, LOOKAHEAD_ALL):
            raise ValueError("pass_lookahead: 0 (nobody), 1 (this seat) or 2 (every seat)")
        self.pass_lookahead = pass_lookahead
        if not 0 <= moon_prior < 1:
            raise ValueError("moon_prior: a probability, at least 0 and under 1")
        self.moon_prior = moon_prior
        if early_fear is None:
            early_fear = moon_fear
        if moon_fear < 0 or early_fear < 0:
            raise ValueError("moon_fear, early_fear: shares of the points in play, not negative")
        self.moon_fear = moon_fear
        self.early_fear = early_fear
        if learned and pool == budget and not weighted:
            raise ValueError("learned: needs the inference (pool above budget, or weighted)")
        if not 0 < learned_floor <= 10:
            raise ValueError("learned_floor: above 0 and at most 10")
        self.learned_floor = learned_floor
        if learned_weights is not None and not learned:
            raise ValueError("learned_weights: only with learned=1")
        self._net: PolicyNet | None = _net(learned_weights) if learned else None

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed!r}, budget={self.budget}, pool={self.pool})"

    def _pass_lookahead(self) -> int:
        return self.pass_lookahead

    def _moon_fear(self, view: PlayerView) -> float:
        return self.early_fear if _collector(view) < 0 else self.moon_fear

    def _deals(
        self, view: PlayerView, knowledge: Knowledge, seed: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[float, ...]]:
        if self.pool == self.budget and not self.weighted:
            return (), ()
        found = weighted_deals(
            view, knowledge, random.Random(seed), self.budget, self.pool,
            moon_prior=self.moon_prior, resample=not self.weighted, model=self._model(view),
        )  # fmt: skip
        return found.deals, found.weights

    def _model(self, view: PlayerView) -> PlayModel | None:
        net = self._net
        if net is None or view.rules != net.rules:
            return None
        from .learned import play_factors

        return partial(play_factors, net, floor=self.learned_floor)


def _net(weights: str | None) -> PolicyNet:
    """The package's network, or the one in the ``weights`` file."""
    try:
        from .learned import shipped
    except ImportError as error:
        raise ValueError(
            "learned: needs numpy, which is not installed: pip install 'openhearts[rl]'"
        ) from error
    if weights is None:
        return shipped()
    try:
        return _load_weights(weights)
    except OSError as error:
        raise ValueError(
            f"learned_weights: cannot read {weights}: {error.strerror or error}"
        ) from None
    except (KeyError, ValueError, TypeError) as error:
        raise ValueError(
            f"learned_weights: {weights} holds no weights of hearts train ({error})"
        ) from None


@functools.lru_cache(maxsize=4)
def _load_weights(path: str) -> PolicyNet:
    # Once per process: every board of an arena match builds its bots anew.
    from .learned import PolicyNet

    return PolicyNet.load(Path(path))


def _collector(view: PlayerView) -> int:
    """Another seat than ``view``'s holding every point taken so far, or -1."""
    taken = [won.mask for won in view.won]
    point_mask = view.rules.point_mask
    for other in range(view.rules.players):
        if other != view.seat and holds_every_point(taken, other, point_mask):
            return other
    return -1
