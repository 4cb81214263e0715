"""``expert``: ``hard``'s search on worlds weighted by what the other players did.

``hard`` treats every deal of the hidden cards that fits the facts as equally likely.
``expert`` draws a larger pool of such deals, weighs each by how well it explains the
other players' plays and pass under a model of their play, a player going for the moon
included (:mod:`openhearts.bots.inference`), and searches the deals kept in proportion
to those weights.  With ``moon_watch``, when another player holds every point taken so
far, its playouts are mixed with ones where that player goes for the moon and everyone
stops it (:mod:`openhearts.bots.moon`), as much as the inference finds it likely to
shoot.  In its playouts seats look one card ahead rather than following the rules of
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

import math
import random
from functools import partial
from typing import TYPE_CHECKING

from ..game import PlayerView
from ..rules import Rules
from .hard import (
    LOOKAHEAD_ALL,
    LOOKAHEAD_MIXED,
    LOOKAHEAD_NONE,
    LOOKAHEAD_ROOT,
    HardBot,
    _Task,
    _Totals,
)
from .inference import LEARNED_FLOOR, MOON_PRIOR, PlayModel, weighted_deals
from .moon import holds_every_point, watched_totals
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
    :param moon_watch: when another seat holds every point taken so far, mix in
        playouts where it goes for the moon (:mod:`openhearts.bots.moon`), as much as
        the inference finds it likely to.  Off by default: short arena runs did not
        show it to help (docs/bots.md), and it costs about half as much time again.
        Its playouts do not look ahead, whatever ``lookahead`` says.
    :param weighted: search every world of the pool, each counted for its weight,
        instead of ``budget`` worlds resampled from it by weight (``budget`` then only
        bounds ``pool`` from below).
    :param lookahead: as :class:`~openhearts.bots.hard.HardBot`'s, but by default this
        seat, and every seat in half the worlds (:data:`EXPERT_LOOKAHEAD`).
    :param pass_lookahead: who looks one card ahead in the playouts of passing by
        simulation (0 nobody, 1 this seat, 2 every seat).
    :param rivals: in each world searched, another seat drawn by its odds of going for
        the moon in that world (by the inference) plays for every point while nobody
        else has one, so that this seat sees a shooter coming before it holds half the
        points (:func:`~openhearts.bots.hard.playout`'s ``rival``).
    :param moon_prior: the inference's prior odds that another player is going for the
        moon (:data:`~openhearts.bots.inference.MOON_PRIOR`).
    :param moon_alarm: the share of the points in play that a seat holding every point
        taken must have for its playouts to take it for a shooter (it then plays for every
        point and the others stop it: :func:`~openhearts.bots.policy.moon_threat`); the
        rules of thumb's is half.
    :param pass_rivals: in the playouts of passing by simulation, another seat whose
        hand after the passes may shoot goes for the moon
        (:func:`~openhearts.bots.passing.rival_after_passing`).
    :param moon_hands: in the inference, a seat's going for the moon counts for much
        less in a world where its cards could not take every point from here
        (:func:`~openhearts.bots.inference.hopeless_moons`), so the odds of a shooter, and
        with ``rivals`` the worlds it shoots in, gather where it holds the cards to.
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
    :param pass_fear: fear the others' moons (``early_fear``) in the simulations of
        passing too.
    :param fear_floor: the share of the playouts of a card showing another seat's moon
        that the fear leaves alone (:func:`~openhearts.bots.objective.fear_above`): a
        card is feared only for the moons beyond it, so that a moon in a playout or two,
        which the luck of the draw puts there in deals where nobody is shooting, does
        not move the choice.  0 by default, every moon counting: at 0.05 with
        ``moon_fear=4`` it stopped fewer moons per point paid than ``moon_fear=2``
        alone (docs/bots.md).
    :param near_moon: above 0, the fear counts a playout where another seat took at
        least this share of the points in play as a moon too
        (:func:`~openhearts.bots.objective.margin`): the playouts' players seldom go for
        the moon, so a seat taking most points in one is the commoner sign of a hand
        that could shoot.  0 by default, only moons: at 0.95 with ``moon_fear=2`` it
        stopped no more moons for a point per deal more (docs/bots.md).
    :param fear_odds: weigh the fear of each seat's moon by how likely the inference
        finds that seat to be going for the moon, against the prior
        (``odds / moon_prior``, up to ``1 / moon_prior`` times the fear), so that the
        fear is paid where the play so far looks like a shooter's rather than in every
        deal alike.  Off by default: with ``moon_fear=2`` it stopped no more moons
        for no fewer points (docs/bots.md).  Needs the inference (``pool`` above
        ``budget`` or ``weighted``) and ``moon_prior`` above 0, and is refused without
        them.
    :param learned: in the inference, weigh the others' plays by a network trained to
        play like ``hard`` (:mod:`openhearts.bots.learned`) instead of by agreement
        with the rules of thumb; a shooter's plays for every point are still compared
        with the rules of thumb.  Needs numpy and the inference; under rules other than
        the network's (the standard game) the rules of thumb weigh the plays.
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
        moon_watch: bool = False,
        weighted: bool = False,
        lookahead: int = EXPERT_LOOKAHEAD,
        depth: int = 1,
        pass_lookahead: int = LOOKAHEAD_NONE,
        rivals: bool = False,
        moon_prior: float = MOON_PRIOR,
        pass_rivals: bool = False,
        moon_alarm: float = 0.5,
        moon_hands: bool = False,
        moon_fear: float = EXPERT_MOON_FEAR,
        early_fear: float | None = None,
        pass_fear: bool = False,
        fear_floor: float = 0.0,
        near_moon: float = 0.0,
        fear_odds: bool = False,
        learned: bool = False,
        learned_floor: float = LEARNED_FLOOR,
    ) -> None:
        super().__init__(
            seed, budget, workers, time_limit, pass_worlds, lookahead=lookahead, depth=depth
        )
        if pool < budget:
            raise ValueError("pool: at least as many worlds as the budget")
        self.pool = pool
        self.moon_watch = moon_watch
        self.weighted = weighted
        if pass_lookahead not in (LOOKAHEAD_NONE, LOOKAHEAD_ROOT, LOOKAHEAD_ALL):
            raise ValueError("pass_lookahead: 0 (nobody), 1 (this seat) or 2 (every seat)")
        self.pass_lookahead = pass_lookahead
        self.rivals = rivals
        if not 0 <= moon_prior < 1:
            raise ValueError("moon_prior: a probability, at least 0 and under 1")
        self.moon_prior = moon_prior
        self.pass_rivals = pass_rivals
        if not 0 < moon_alarm <= 1:
            raise ValueError("moon_alarm: a share of the points, above 0 and at most 1")
        self.moon_alarm = moon_alarm
        self.moon_hands = moon_hands
        if early_fear is None:
            early_fear = moon_fear
        if moon_fear < 0 or early_fear < 0:
            raise ValueError("moon_fear, early_fear: shares of the points in play, not negative")
        self.moon_fear = moon_fear
        self.early_fear = early_fear
        self.pass_fear = pass_fear
        if not 0 <= fear_floor < 1:
            raise ValueError("fear_floor: a share of the playouts, at least 0 and under 1")
        self.fear_floor = fear_floor
        if not 0 <= near_moon <= 1:
            raise ValueError("near_moon: a share of the points in play, 0 (off) to 1")
        self.near_moon = near_moon
        if fear_odds and not moon_prior:
            raise ValueError("fear_odds: needs moon_prior above 0, the odds are weighed against it")
        if fear_odds and pool == budget and not weighted:
            raise ValueError(
                "fear_odds: needs the inference to find the odds (pool above budget, or weighted)"
            )
        self.fear_odds = fear_odds
        if learned and pool == budget and not weighted:
            raise ValueError("learned: needs the inference (pool above budget, or weighted)")
        if not 0 < learned_floor <= 10:
            raise ValueError("learned_floor: above 0 and at most 10")
        self.learned_floor = learned_floor
        self._net: PolicyNet | None = _shipped_net() if learned else None
        #: The seat holding every point taken so far and its odds of shooting, found by
        #: the inference of the decision under way.
        self._watch: tuple[int, float] | None = None
        #: Each seat's odds of going for the moon, found by the same inference (empty
        #: without one).
        self._odds: tuple[float, ...] = ()

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed!r}, budget={self.budget}, pool={self.pool})"

    def _pass_lookahead(self) -> int:
        return self.pass_lookahead

    def _pass_rivals(self) -> bool:
        return self.pass_rivals

    def _moon_fear(self, view: PlayerView) -> float:
        return self.early_fear if _collector(view) < 0 else self.moon_fear

    def _pass_fear(self) -> float:
        # Nobody has a point yet when passing.
        return self.early_fear if self.pass_fear else 0.0

    def _fear_floor(self) -> float:
        return self.fear_floor

    def _near_moon(self) -> float:
        return self.near_moon

    def _fear_scale(self) -> tuple[float, ...]:
        if not self.fear_odds or not self._odds:
            return ()
        return tuple(odds / self.moon_prior for odds in self._odds)

    def _alarm(self, rules: Rules) -> int:
        return max(1, math.ceil(self.moon_alarm * rules.points_in_play))

    def _deals(
        self, view: PlayerView, knowledge: Knowledge, seed: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[float, ...], tuple[int, ...]]:
        self._watch = None
        self._odds = ()
        if self.pool == self.budget and not self.weighted:
            return (), (), ()
        found = weighted_deals(
            view, knowledge, random.Random(seed), self.budget, self.pool,
            moon_prior=self.moon_prior, resample=not self.weighted, rivals=self.rivals,
            hopeless=self.moon_hands, model=self._model(view),
        )  # fmt: skip
        self._odds = found.shooters
        collector = _collector(view)
        if collector >= 0:
            self._watch = (collector, found.shooters[collector])
        return found.deals, found.weights, found.rivals

    def _model(self, view: PlayerView) -> PlayModel | None:
        net = self._net
        if net is None or view.rules != net.rules:
            return None
        from .learned import play_factors

        return partial(play_factors, net, floor=self.learned_floor)

    def _totals(self, task: _Task) -> _Totals:
        totals = super()._totals(task)
        if self._watch is None or not self.moon_watch:
            return totals
        watch, odds = self._watch
        watched = watched_totals(task, watch)
        for row, other in zip(totals, watched, strict=True):
            if row[2] and other[2]:
                for i in (0, 1, 3):
                    row[i] = ((1 - odds) * row[i] / row[2] + odds * other[i] / other[2]) * row[2]
        return totals


def _shipped_net() -> PolicyNet:
    try:
        from .learned import shipped
    except ImportError as error:
        raise ValueError(
            "learned: needs numpy, which is not installed: pip install 'openhearts[rl]'"
        ) from error
    return shipped()


def _collector(view: PlayerView) -> int:
    """Another seat than ``view``'s holding every point taken so far, or -1."""
    taken = [won.mask for won in view.won]
    point_mask = view.rules.point_mask
    for other in range(view.rules.players):
        if other != view.seat and holds_every_point(taken, other, point_mask):
            return other
    return -1
