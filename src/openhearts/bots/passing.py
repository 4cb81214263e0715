"""Passing by simulation: try a short list of passes on many deals of the hidden cards.

The rules of thumb (:func:`~openhearts.bots.policy.pass_ranking`) rank the cards of the
hand by how much they are worth passing.  Every set of ``cards_passed`` cards among the
``width`` best ranked is a candidate (20 for 3 of 6), with, for a hand that may shoot
the moon, the lowest cards too.  Each candidate is then played out on the same
``worlds`` deals of the unseen cards: the other seats pass by their model (``easy``'s
rules unless told otherwise), so the simulation also guesses what this seat receives,
and the whole deal is played to the end by ``hard``'s playout (every seat by the rules
of thumb, in the compiled kernel when it is built).  The candidate with the
lowest average of own points minus the others' average wins; ties keep the rule of
thumb's pass, which is always a candidate.

A hand strong enough to shoot is also played out with this seat going for every point,
and a candidate counts with its better plan, as in ``hard``'s play.
"""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import kernel
from ..game import PlayerView
from .objective import margin
from .policy import pass_policy, pass_ranking
from .sampler import constraints, sample

__all__ = [
    "simulate_pass",
    "rank_passes",
    "PassValue",
    "may_shoot",
    "PassModel",
]

#: ``model(hand, count, jack) -> mask`` of the cards another seat passes.
PassModel = Callable[[int, int, bool], int]


def _candidates(hand: int, count: int, jack: bool, width: int, shoot: bool) -> list[int]:
    ranking = pass_ranking(hand, count, jack)
    top = ranking[: max(width, count)]
    # The rule of thumb's own pass first, so that it wins ties.
    found = [sum(1 << c for c in ranking[:count])]
    for combo in itertools.combinations(top, count):
        mask = sum(1 << c for c in combo)
        if mask not in found:
            found.append(mask)
    if shoot:
        lowest = sorted(ranking, key=lambda c: (c % 13, c))[:count]
        mask = sum(1 << c for c in lowest)
        if mask not in found:
            found.append(mask)
    return found


def _view_candidates(view: PlayerView, width: int) -> list[int]:
    hand = view.hand.mask
    rules = view.rules
    return _candidates(hand, rules.cards_passed, rules.jack_of_diamonds, width, may_shoot(hand))


def may_shoot(hand: int) -> bool:
    """A hand with at least half its cards from the jack up may try for the moon."""
    high = sum(1 for card in range(52) if hand >> card & 1 and card % 13 >= 9)
    return high * 2 >= hand.bit_count()


@dataclass(frozen=True)
class PassValue:
    """One candidate pass with the simulated numbers it is ranked by."""

    #: The cards passed, as a mask.
    mask: int
    #: Points this seat can expect to take in the deal after this pass (with the
    #: better of its plans when the hand may shoot the moon).
    points: float
    #: What candidates are ranked by, lower first: those points less the other
    #: seats' average.
    margin: float


def simulate_pass(
    view: PlayerView,
    key: str,
    add_for: Sequence[bool],
    worlds: int = 30,
    width: int = 6,
    model: PassModel = pass_policy,
    lookahead: int = 0,
) -> int:
    """The pass (a card mask) with the best simulated result for ``view.seat``.

    :param key: seeds the worlds (with the hand), so the choice is repeatable.
    :param add_for: each seat's moon choice where the shooter chooses.
    :param model: how the other seats pass (default: ``easy``'s rules).
    :param lookahead: who looks one card ahead in the playouts (0 nobody, 1 this seat,
        2 every seat: :func:`openhearts.kernel.evaluate`).
    """
    candidates = _view_candidates(view, width)
    if len(candidates) == 1 or worlds < 1 or view.pass_target is None:
        return candidates[0]
    ranked = rank_passes(view, key, add_for, worlds, width, model, lookahead)
    return ranked[0].mask


def rank_passes(
    view: PlayerView,
    key: str,
    add_for: Sequence[bool],
    worlds: int = 30,
    width: int = 6,
    model: PassModel = pass_policy,
    lookahead: int = 0,
) -> list[PassValue]:
    """Every candidate pass with its simulated numbers, best first (the order
    :func:`simulate_pass` chooses by; the parameters are its own).

    :raises ValueError: for a deal without passing or fewer than one world.
    """
    if worlds < 1 or view.pass_target is None:
        raise ValueError("passes are ranked on one world or more, in a deal with passing")
    rules = view.rules
    seat = view.seat
    players = rules.players
    hand = view.hand.mask
    count = rules.cards_passed
    jack = rules.jack_of_diamonds
    shoot = may_shoot(hand)
    candidates = _view_candidates(view, width)
    offset = (view.pass_target - seat) % players
    modes = (False, True) if shoot else (False,)
    first = (rules.first_lead_card,)
    zeros = (0,) * players
    # Per candidate and plan: the sum of margins and of own points over the worlds.
    totals = [[0.0] * len(modes) for _ in candidates]
    owns = [[0.0] * len(modes) for _ in candidates]
    knowledge = constraints(view)
    rng = random.Random(zlib.crc32(f"{key}:{hand}".encode()))
    for _ in range(worlds):
        hands = sample(knowledge, rng)
        hands[seat] = hand
        passes = [0 if s == seat else model(hands[s], count, jack) for s in range(players)]
        for index, mine in enumerate(candidates):
            passes[seat] = mine
            after = tuple(
                hands[s] & ~passes[s] | passes[(s - offset) % players] for s in range(players)
            )
            leader = next(s for s in range(players) if after[s] >> first[0] & 1)
            start = kernel.Position(after, leader, (), zeros, zeros, 0, False)
            outcomes = kernel.evaluate(rules, start, first, seat, modes, add_for, lookahead)
            for m, points in enumerate(outcomes):
                owns[index][m] += points[seat]
                totals[index][m] += margin(points, seat, rules.points_in_play)
    # Ranked on the sums themselves (not averages), ties to the earlier candidate, so
    # the rule of thumb's pass wins ties.
    order = sorted(range(len(candidates)), key=lambda i: (min(totals[i]), i))
    values = []
    for i in order:
        plan = min(range(len(modes)), key=lambda m: totals[i][m])
        values.append(PassValue(candidates[i], owns[i][plan] / worlds, totals[i][plan] / worlds))
    return values
