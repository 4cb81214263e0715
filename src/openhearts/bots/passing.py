"""Passing by simulation: try a short list of passes on many deals of the hidden cards.

The rules of thumb (:func:`~openhearts.bots.policy.pass_ranking`) rank the cards of the
hand by how much they are worth passing.  Every set of ``cards_passed`` cards among the
``width`` best ranked is a candidate (20 for 3 of 6), with, for a hand that may shoot
the moon, the lowest cards too.  Each candidate is then played out on the same
``worlds`` deals of the unseen cards: the other seats pass by their model (``easy``'s
rules unless told otherwise), so the simulation also guesses what this seat receives,
and the whole deal is played to the end by the given playout.  The candidate with the
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

from ..deal import DealState
from ..game import PlayerView
from .policy import pass_ranking
from .sampler import constraints, sample

__all__ = ["simulate_pass", "Playout", "PassModel"]

#: ``playout(state, root, shoot, add_for, jack) -> points``, as :func:`hard.playout`.
Playout = Callable[[DealState, int, bool, Sequence[bool], bool], list[int]]
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


def may_shoot(hand: int) -> bool:
    """A hand with at least half its cards from the jack up may try for the moon."""
    high = sum(1 for card in range(52) if hand >> card & 1 and card % 13 >= 9)
    return high * 2 >= hand.bit_count()


def simulate_pass(
    view: PlayerView,
    key: str,
    playout: Playout,
    add_for: Sequence[bool],
    worlds: int = 30,
    width: int = 6,
    model: PassModel | None = None,
) -> int:
    """The pass (a card mask) with the best simulated result for ``view.seat``.

    :param key: seeds the worlds (with the hand), so the choice is repeatable.
    :param add_for: each seat's moon choice where the shooter chooses.
    :param model: how the other seats pass (default: ``easy``'s rules).
    """
    from .policy import pass_policy

    rules = view.rules
    seat = view.seat
    players = rules.players
    hand = view.hand.mask
    count = rules.cards_passed
    jack = rules.jack_of_diamonds
    others_pass = model or pass_policy
    shoot = may_shoot(hand)
    candidates = _candidates(hand, count, jack, width, shoot)
    if len(candidates) == 1 or worlds < 1:
        return candidates[0]
    modes = (False, True) if shoot else (False,)
    totals = [[0.0] * len(modes) for _ in candidates]
    knowledge = constraints(view)
    rng = random.Random(zlib.crc32(f"{key}:{hand}".encode()))
    for _ in range(worlds):
        hands = sample(knowledge, rng)
        hands[seat] = hand
        passes = [0 if s == seat else others_pass(hands[s], count, jack) for s in range(players)]
        for index, mine in enumerate(candidates):
            passes[seat] = mine
            for m, mode in enumerate(modes):
                state = DealState.new(rules, hands, deal_number=view.deal_number)
                for giver in range(players):
                    state.set_pass(giver, passes[giver])
                points = playout(state, seat, mode, add_for, jack)
                own = points[seat]
                totals[index][m] += own - (sum(points) - own) / (players - 1)
    best = min(range(len(candidates)), key=lambda i: (min(totals[i]), i))
    return candidates[best]
