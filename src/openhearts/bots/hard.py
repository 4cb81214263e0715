"""``hard``: Monte Carlo search over the cards it cannot see.

For each decision the bot deals the unseen cards many times at random, each time
consistently with everything its seat knows (see :mod:`openhearts.bots.sampler`).
In every such world it tries each legal card and plays the deal out to the end, all
four (or three to six) seats following the rules of thumb of
:mod:`openhearts.bots.policy` (which also take a point trick away from a player
collecting every point).  The same worlds are used for every candidate card, so
the comparison between cards is not drowned in the luck of the sampling.

A card's value is its average, over the worlds, of the bot's own points minus the
average of the other players' points for the deal: shooting the moon (0 for us,
26 for each other) is worth much more than a clean deal, and letting an opponent
shoot is worth much less.  When no other player has taken a point yet, every card is
also tried with the bot playing out the rest of the deal for every point; when that
plan is better on average, the bot goes for the moon.

Decisions are repeatable for a seed: the worlds come from a generator seeded by the
bot's seed and the position, whatever the number of worker processes.

The worlds are dealt here in Python and played out in the compiled kernel
(:func:`openhearts.kernel.evaluate`, every candidate of a world in one call) when it is
built; :func:`playout` below is the pure-Python reference it equals, so the choices are
the same with or without it.
"""

from __future__ import annotations

import math
import os
import random
import time
import zlib
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

from .. import kernel
from ..cards import Card, CardSet
from ..deal import MOON_CHOICE, PLAYING, DealState
from ..game import PlayerView, conventional_moon_choice
from ..rules import Rules
from .base import BaseBot
from .objective import margin
from .passing import PassValue, rank_passes, simulate_pass
from .policy import JD, QS, moon_threat, pass_policy, play_policy
from .sampler import Knowledge, WorldSampler, constraints, sample

__all__ = [
    "HardBot",
    "LOOKAHEAD_NONE",
    "LOOKAHEAD_ROOT",
    "LOOKAHEAD_ALL",
    "LOOKAHEAD_MIXED",
    "lookahead_card",
    "CardValue",
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "DEFAULT_PASS_WORLDS",
    "playout",
    "Plan",
    "moon_choices",
    "NEVER_ALARMED",
]

#: Worlds (deals of the unseen cards) examined per decision by default; on one core of
#: a 2-core machine this keeps decisions under a second.
DEFAULT_BUDGET = 60
#: Past this many a decision takes hours: a typing slip, not a stronger bot.
MAX_BUDGET = 1_000_000
#: Worlds per candidate pass (see :mod:`openhearts.bots.passing`).
DEFAULT_PASS_WORLDS = 30


#: A playout ``alarm`` no seat reaches: more points than the 13 hearts and Q♠ hold.
NEVER_ALARMED = 27


#: Who looks one card ahead in a playout (:func:`playout`'s ``lookahead``): nobody, the
#: searching seat, or every seat.
LOOKAHEAD_NONE, LOOKAHEAD_ROOT, LOOKAHEAD_ALL = 0, 1, 2
#: For a search (not a single playout): half the worlds with :data:`LOOKAHEAD_ROOT`, half
#: with :data:`LOOKAHEAD_ALL`, as if unsure whether the others play by the rules of thumb
#: or look ahead too.
LOOKAHEAD_MIXED = 3


@dataclass(frozen=True)
class Plan:
    """How the seats play in a playout (:func:`playout`); the compiled kernel's
    ``plan_t``."""

    #: The searching seat.
    root: int
    #: The moon choice each seat would make, where the shooter chooses.
    add_for: Sequence[bool]
    #: The J♦ rule is in play (the rules of thumb pass and play it).
    jack: bool = False
    #: Seat ``root`` plays for every point while no one else has taken any.
    shoot: bool = False
    #: :data:`LOOKAHEAD_ROOT` has seat ``root``, :data:`LOOKAHEAD_ALL` every seat, choose
    #: each card by trying every legal card and playing each out (:func:`lookahead_card`)
    #: instead of by the rules of thumb.
    lookahead: int = LOOKAHEAD_NONE
    #: How deep those seats look: at 1 the playouts behind a look follow the rules of
    #: thumb, at 2 they look ahead in turn.
    depth: int = 1
    #: Another seat than ``root`` that plays for every point while no one else has taken
    #: any, as ``root`` does with ``shoot`` (the others stop it only as they stop anyone:
    #: :func:`~openhearts.bots.policy.moon_threat`); -1 for none.
    rival: int = -1
    #: Above 0, a seat holding every point taken and at least that many points is taken
    #: for a shooter (by itself and the others), rather than from half of the points.
    alarm: int = 0


def playout(state: DealState, plan: Plan) -> list[int]:
    """Play ``state`` to the end with the rule-of-thumb policy, as ``plan`` says; returns
    the deal's points."""
    players = state.players
    point_mask = state.rules.point_mask
    root, rival, alarm = plan.root, plan.rival, plan.alarm
    shoot, lookahead = plan.shoot, plan.lookahead
    # Who looks like shooting the moon, read when a trick is led with a choice.
    threat = -1
    while state.phase == PLAYING:
        legal = state.legal_mask()
        if legal & (legal - 1):
            trick = state.trick
            if not trick:
                threat = moon_threat(state.taken, point_mask, alarm)
            seat = state.to_move
            if lookahead == LOOKAHEAD_ALL or (lookahead == LOOKAHEAD_ROOT and seat == root):
                state.play_card(lookahead_card(state, legal, plan))
                continue
            seen = threat
            # A moon plan (the root's, the rival's) holds while nobody else has a point.
            if ((shoot and seat == root) or seat == rival) and threat in (-1, seat):
                seen = seat
                for other in range(players):
                    if other != seat and state.taken[other] & point_mask:
                        seen = threat
                        break
            card = play_policy(
                seat, state.hands[seat], legal, trick, state.leader, players, state.played,
                seen, plan.jack,
            )  # fmt: skip
        else:
            card = legal.bit_length() - 1
        state.play_card(card)
    if state.phase == MOON_CHOICE:
        assert state.shooter is not None
        state.choose_moon(plan.add_for[state.shooter])
    assert state.points is not None
    return state.points


def lookahead_card(state: DealState, legal: int, plan: Plan) -> int:
    """The card of ``legal`` that the seat to move does best with when every seat then
    plays the rest of ``state`` (one deal of the cards) by the rules of thumb: its points
    less the others' average, lowest; the lowest card on ties.  A seat looking one card
    ahead this way plays as if it saw the cards of the deal it is played in.  With
    ``plan.depth`` above 1, the seats of ``plan.lookahead`` look ahead in those playouts
    too, one level less deep."""
    seat = state.to_move
    players = state.players
    if plan.depth > 1:
        behind = replace(plan, depth=plan.depth - 1)
    else:
        behind = replace(plan, lookahead=LOOKAHEAD_NONE)
    best = -1
    best_value = 0
    rest = legal
    while rest:
        card = (rest & -rest).bit_length() - 1
        rest &= rest - 1
        after = state.clone()
        after.play_card(card)
        points = playout(after, behind)
        # The margin times (players - 1), kept in integers.
        value = players * points[seat] - sum(points)
        if best < 0 or value < best_value:
            best = card
            best_value = value
    return best


def moon_choices(view: PlayerView) -> tuple[bool, ...]:
    """The moon choice each seat would make with the scores of ``view`` (where the
    shooter chooses): True to add to the others."""
    rules = view.rules
    return tuple(
        conventional_moon_choice(view.scores, s, rules.points_in_play) for s in range(rules.players)
    )


class CardValue(NamedTuple):
    """What the search found for one legal card."""

    card: Card
    #: The points this seat can expect to take in the rest of the deal.
    points: float
    #: Those points minus the other seats' average: what the cards are ranked by
    #: (lower is better), so a moon shot counts for what it is worth.
    margin: float


@dataclass(frozen=True)
class _Task:
    """One batch of worlds to evaluate (picklable, for worker processes)."""

    rules: Rules
    knowledge: Knowledge
    hand: int
    leader: int
    trick: tuple[int, ...]
    taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    played: int
    hearts_broken: bool
    deal_number: int
    candidates: tuple[int, ...]
    modes: tuple[bool, ...]
    add_for: tuple[bool, ...]
    seed: int
    worlds: range
    deadline: float | None
    #: Deals of the hidden cards chosen beforehand (indexed by world); empty: sample.
    deals: tuple[tuple[int, ...], ...] = ()
    #: How much each of ``deals`` counts; empty: each counts once.
    weights: tuple[float, ...] = ()
    #: :func:`playout`'s ``alarm`` (0: from half of the points in play).
    alarm: int = 0
    #: Deal worlds with :class:`WorldSampler` and play them out through the compiled
    #: kernel (when built), rather than with :func:`sample` and the Python engine.
    compiled: bool = True
    #: Who looks ahead in the playouts, and how deep (:func:`playout`).
    lookahead: int = LOOKAHEAD_NONE
    depth: int = 1
    #: What another seat's moon costs beyond its points (:func:`.objective.margin`).
    moon_fear: float = 0.0


#: Per candidate and mode: the sums of the margin (fear included), of own points and of
#: the worlds' weights (:attr:`_Task.weights`; 1 each without).
_Totals = list[list[float]]
TOTALS = 3


def _evaluate(task: _Task) -> _Totals:
    rules = task.rules
    seat = task.knowledge.seat
    totals = [[0.0] * TOTALS for _ in range(len(task.candidates) * len(task.modes))]
    if task.compiled:
        evaluate, deal = kernel.evaluate, WorldSampler(task.knowledge).sample
    else:
        # The pure-Python path, as it ran before the kernel: the reference of both parts.
        evaluate, deal = kernel.reference_evaluate, partial(sample, task.knowledge)
    for world in task.worlds:
        if (
            task.deadline is not None
            and world > task.worlds.start
            and (time.monotonic() > task.deadline)
        ):
            break
        if task.deals:
            hands = list(task.deals[world])
        else:
            hands = deal(random.Random(task.seed * 1_000_003 + world))
        hands[seat] = task.hand
        position = kernel.Position(
            tuple(hands), task.leader, task.trick, task.taken, task.tricks_won, task.played,
            task.hearts_broken,
        )  # fmt: skip
        # Every candidate, in every mode, played out in one call (candidate-major order).
        lookahead = task.lookahead
        if lookahead == LOOKAHEAD_MIXED:
            lookahead = LOOKAHEAD_ALL if world % 2 else LOOKAHEAD_ROOT
        outcomes = evaluate(
            rules, position, task.candidates, seat, task.modes, task.add_for, lookahead,
            task.depth, alarm=task.alarm,
        )  # fmt: skip
        weight = task.weights[world] if task.weights else 1
        for index, points in enumerate(outcomes):
            row = totals[index]
            row[0] += weight * margin(points, seat, rules.points_in_play, task.moon_fear)
            row[1] += weight * points[seat]
            row[2] += weight
    return totals


def points_settled_in_view(view: PlayerView) -> bool:
    """Whether the seat can see that no card left changes the deal's points: every point
    card (and the J♦ where it counts) lies in a finished trick, and no sun is left to
    take (the finished tricks went to two seats or more)."""
    rules = view.rules
    finished = 0
    winners = set()
    for trick in view.tricks:
        for card in trick.cards:
            finished |= 1 << card
        winners.add(trick.winner)
    scoring = rules.point_mask
    if rules.jack_of_diamonds:
        scoring |= rules.deck_mask & 1 << JD
    if scoring & ~finished:
        return False
    return not rules.sun or len(winners) > 1


def _candidates(legal: int, known: int, jack: bool) -> dict[int, list[int]]:
    """Legal cards grouped into equivalents: cards of a suit with nothing between them but
    cards this seat holds or that are gone play the same.  Representative -> members."""
    groups: dict[int, list[int]] = {}
    current = -1
    for card in range(52):
        if not legal >> card & 1:
            continue
        special = card == QS or (jack and card == JD)
        if current >= 0 and card // 13 == current // 13 and not special:
            between = ((1 << card) - 1) & ~((1 << (current + 1)) - 1)
            previous = groups[current][-1]
            if not (between & ~known) and previous != QS and not (jack and previous == JD):
                groups[current].append(card)
                continue
        groups[card] = [card]
        current = card
    return groups


class HardBot(BaseBot):
    """Monte Carlo search over the hidden cards.

    :param seed: makes decisions repeatable.
    :param budget: worlds (random deals of the unseen cards) per decision; each world
        plays every candidate card to the end of the deal.  Default
        :data:`DEFAULT_BUDGET`.
    :param workers: processes to spread the worlds over (1: think in this process); no
        more are started than the machine has cores, which is all that can help.
    :param time_limit: optional cap in seconds per decision; when it is reached the
        worlds examined so far decide (and decisions are no longer repeatable).
    :param pass_worlds: worlds per candidate pass for passing by simulation
        (:mod:`openhearts.bots.passing`); 0 passes by the rules of thumb.
    :param compiled: play the worlds out through the compiled kernel
        (:mod:`openhearts.kernel`) when it is built, dealing them with the prepared
        :class:`~openhearts.bots.sampler.WorldSampler`; False uses the pure-Python
        references of both.  The choices are the same either way, only the time differs.
    :param lookahead: who looks one card ahead in the playouts instead of following the
        rules of thumb (:func:`playout`): 0 nobody (``hard``'s default), 1 this seat,
        2 every seat, 3 this seat in half the worlds and every seat in the others
        (:data:`LOOKAHEAD_MIXED`).  Each look costs a playout per legal card.
    :param depth: how deep those seats look: 1, the playouts behind each look follow the
        rules of thumb; 2, they look ahead in turn (far costlier).
    :param moon_eager: weigh a moon plan at every decision while no other seat has taken
        a point, whatever the hand, instead of only with enough high cards or points
        already taken: a player that tries the moon whenever its simulations say it
        pays (an opponent for measuring how well others stop moons).
    :param moon_hope: in its playouts nobody stops a moon (no seat is ever taken for a
        shooter: :func:`playout`'s ``alarm`` above every point in the deck), so its
        moon plans look better than they are and it tries them far more often; with
        ``moon_eager``, the frequent shooter that stopping moons is measured against
        (docs/bots.md).
    """

    name = "hard"

    def __init__(
        self,
        seed: object = 0,
        budget: int = DEFAULT_BUDGET,
        workers: int = 1,
        time_limit: float | None = None,
        pass_worlds: int = DEFAULT_PASS_WORLDS,
        compiled: bool = True,
        lookahead: int = LOOKAHEAD_NONE,
        depth: int = 1,
        moon_eager: bool = False,
        moon_hope: bool = False,
    ) -> None:
        super().__init__(seed)
        self.moon_eager = moon_eager
        self.moon_hope = moon_hope
        if lookahead not in (LOOKAHEAD_NONE, LOOKAHEAD_ROOT, LOOKAHEAD_ALL, LOOKAHEAD_MIXED):
            raise ValueError(
                "lookahead: 0 (nobody), 1 (this seat), 2 (every seat) or 3 (half the worlds each)"
            )
        if not 1 <= depth <= 3:
            raise ValueError("depth: 1 to 3")
        self.lookahead = lookahead
        self.depth = depth
        if pass_worlds < 0:
            raise ValueError("pass_worlds: 0 (rules of thumb) or more")
        self.pass_worlds = pass_worlds
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"budget: 1 to {MAX_BUDGET:,} worlds per decision")
        if workers < 1:
            raise ValueError("workers: at least one")
        if time_limit is not None and not time_limit > 0:
            raise ValueError("time_limit: seconds per decision, above 0")
        self.budget = budget
        self.workers = workers
        self.time_limit = time_limit
        self.compiled = compiled
        self._pool: Executor | None = None

    def __repr__(self) -> str:
        return f"HardBot(seed={self.seed!r}, budget={self.budget}, workers={self.workers})"

    def close(self) -> None:
        """Stop the worker processes (if any)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()
        state["_pool"] = None
        return state

    # Decisions ---------------------------------------------------------------------

    def choose_pass(self, view: PlayerView) -> CardSet:
        if self.pass_worlds:
            chosen = simulate_pass(
                view, self._pass_key(view), moon_choices(view), self.pass_worlds,
                lookahead=self._pass_lookahead(),
            )  # fmt: skip
            return CardSet(chosen)
        return CardSet(
            pass_policy(view.hand.mask, view.rules.cards_passed, view.rules.jack_of_diamonds)
        )

    def rank_passes(self, view: PlayerView) -> list[PassValue]:
        """Every candidate pass with its simulated numbers, best first: the first is
        what :meth:`choose_pass` passes when it simulates (``pass_worlds`` above 0).

        :raises ValueError: without simulation or in a deal without passing.
        """
        return rank_passes(
            view, self._pass_key(view), moon_choices(view), self.pass_worlds,
            lookahead=self._pass_lookahead(),
        )  # fmt: skip

    def _alarm(self, rules: Rules) -> int:
        """The playouts' ``alarm``: 0 here, a shooter is seen from half of the points;
        with ``moon_hope``, never."""
        return NEVER_ALARMED if self.moon_hope else 0

    def _pass_lookahead(self) -> int:
        """Who looks ahead in the playouts of passing by simulation: nobody here."""
        return LOOKAHEAD_NONE

    def _moon_fear(self, view: PlayerView) -> float:
        """What another seat's moon costs beyond its points, as a share of the points in
        play, in the search of a play from ``view``
        (:func:`~openhearts.bots.objective.margin`): nothing here."""
        return 0.0

    def _pass_key(self, view: PlayerView) -> str:
        return f"{self.seed}:{view.deal_number}:{view.seat}"

    def choose_moon(self, view: PlayerView) -> bool:
        return view.suggested_moon_choice()

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal.mask
        if legal & (legal - 1) == 0:
            return Card(legal.bit_length() - 1)
        if points_settled_in_view(view):
            # Every card scores alike: the search would rank them all level and play the
            # lowest, after a tenth of a second (expert) of playouts that change nothing.
            return Card((legal & -legal).bit_length() - 1)
        return self._search(view)[0][0]

    def analyse(self, view: PlayerView) -> list[tuple[Card, float]]:
        """Every legal card with the points this seat can expect from the deal after
        playing it, best card first (the order the bot would rank them)."""
        legal = view.legal.mask
        if not legal:
            return []
        return [(card, points) for card, points, _ in self._search(view)]

    def evaluate(self, view: PlayerView) -> list[CardValue]:
        """Every legal card with its expected points and the margin it is ranked by,
        best first: the first is the card :meth:`choose_play` plays."""
        if not view.legal:
            return []
        return [CardValue(card, points, margin) for card, points, margin in self._search(view)]

    def _search(self, view: PlayerView) -> list[tuple[Card, float, float]]:
        """(card, expected own points, objective) for every legal card, best first."""
        task, groups = self._task(view)
        totals = self._totals(task)
        modes = task.modes
        results: list[tuple[Card, float, float]] = []
        for index, card in enumerate(task.candidates):
            rows = totals[index * len(modes) : (index + 1) * len(modes)]
            best = min(rows, key=lambda row: row[0] / row[2] if row[2] else math.inf)
            worlds = best[2] or 1.0
            for member in groups[card]:
                results.append((Card(member), best[1] / worlds, best[0] / worlds))
        results.sort(key=lambda item: (item[2], item[0]))
        return results

    def _task(self, view: PlayerView) -> tuple[_Task, dict[int, list[int]]]:
        """The search of a decision as a task (its worlds chosen or seeded), and the
        legal cards grouped behind each candidate."""
        rules = view.rules
        legal = view.legal.mask
        gone = view.played.mask
        hand = view.hand.mask
        jack = rules.jack_of_diamonds
        trick = tuple(int(card) for _, card in view.trick)
        on_table = sum(1 << card for card in trick)
        # Cards on the table still decide this trick, so they separate candidates.
        groups = _candidates(legal, (gone & ~on_table) | hand, jack)
        candidates = tuple(groups)
        taken = tuple(won.mask for won in view.won)
        point_mask = rules.point_mask
        others_clean = all(
            not taken[s] & point_mask for s in range(rules.players) if s != view.seat
        )
        may_shoot = self.moon_eager or self._may_shoot(view)
        modes = (False, True) if others_clean and may_shoot else (False,)
        key = f"{self.seed}:{view.deal_number}:{view.seat}:{gone}:{hand}:{trick}"
        seed = zlib.crc32(key.encode())
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        knowledge = constraints(view)
        deals, weights = self._deals(view, knowledge, seed)
        task = _Task(
            rules=rules,
            knowledge=knowledge,
            hand=hand,
            leader=view.leader if view.leader is not None else view.seat,
            trick=trick,
            taken=taken,
            tricks_won=tuple(
                sum(1 for t in view.tricks if t.winner == s) for s in range(rules.players)
            ),
            played=gone,
            hearts_broken=view.hearts_broken,
            deal_number=view.deal_number,
            candidates=candidates,
            modes=modes,
            add_for=moon_choices(view),
            seed=seed,
            worlds=range(len(deals) if deals else self.budget),
            deadline=deadline,
            deals=deals,
            weights=weights,
            alarm=self._alarm(rules),
            compiled=self.compiled,
            lookahead=self.lookahead,
            depth=self.depth,
            moon_fear=self._moon_fear(view),
        )
        return task, groups

    def _totals(self, task: _Task) -> _Totals:
        """Play out every world of ``task``: per candidate and mode, the sums of the
        margin and of own points, and the number of worlds."""
        if self.workers > 1 and len(task.candidates) * self.budget > 40:
            return self._parallel(task)
        return _evaluate(task)

    def _deals(
        self, view: PlayerView, knowledge: Knowledge, seed: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[float, ...]]:
        """Deals of the hidden cards to search, chosen before searching, and how much each
        counts (empty: once each).  No deals (here) lets every world sample its own deal
        uniformly among the consistent ones."""
        return (), ()

    def _parallel(self, task: _Task) -> _Totals:
        # The worlds' totals are sums, the same however the worlds are split: a slip such
        # as workers=10000 must not start ten thousand processes.
        count = min(self.workers, os.cpu_count() or 1)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=count)
        size = task.worlds.stop
        bounds = [size * i // count for i in range(count + 1)]
        tasks = [
            _replace_worlds(task, range(bounds[i], bounds[i + 1]))
            for i in range(count)
            if bounds[i + 1] > bounds[i]
        ]
        totals: _Totals | None = None
        for part in self._pool.map(_evaluate, tasks):
            if totals is None:
                totals = part
            else:
                for row, more in zip(totals, part, strict=True):
                    for i in range(TOTALS):
                        row[i] += more[i]
        assert totals is not None
        return totals

    @staticmethod
    def _may_shoot(view: PlayerView) -> bool:
        """Cheap filter before searching moon plans: enough high cards left to hope,
        or every point taken so far is already ours."""
        high = sum(1 for card in view.hand if card.rank >= 10)
        if view.won[view.seat].mask & view.rules.point_mask:
            return True
        if not view.tricks:
            return high * 2 >= len(view.hand)
        return high * 3 >= len(view.hand)


def _replace_worlds(task: _Task, worlds: range) -> _Task:
    return replace(task, worlds=worlds)
