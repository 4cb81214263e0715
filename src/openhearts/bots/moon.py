"""Playouts that take a would-be shooter seriously from its first point.

``hard``'s playouts (:func:`openhearts.bots.hard.playout`, and the kernel) treat a
player as shooting the moon only once it holds every point taken and at least half of
them; before that it plays to avoid points, so a real shooter is seen late, when it can
no longer be stopped.  :func:`watched_playout` plays the same deal assuming that one
seat, which holds every point taken so far, *is* going for the moon: it plays for every
point (:func:`~openhearts.bots.policy.play_policy` with itself as the threat) and the
others defend at once (take a point trick from it, throw hearts to anyone else), until
another player takes a point.

``expert`` mixes these playouts with the ordinary ones in proportion to how likely its
inference finds that the seat is shooting (:mod:`openhearts.bots.inference`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..deal import DealState
from .hard import TOTALS, Plan, playout
from .objective import margin, other_shot
from .policy import holds_every_point
from .sampler import sample

if TYPE_CHECKING:
    from .hard import _Task, _Totals

__all__ = ["holds_every_point", "watched_playout", "watched_totals"]


def watched_playout(state: DealState, watch: int, add_for: Sequence[bool], jack: bool) -> list[int]:
    """Play ``state`` to the end by the rules of thumb, seat ``watch`` going for the moon
    (and everyone else stopping it) while it holds every point taken."""
    return playout(state, Plan(watch, add_for, jack, watch=watch))


def watched_totals(task: _Task, watch: int) -> _Totals:
    """``hard``'s totals for ``task`` (same worlds, candidates and rows) with every
    playout a :func:`watched_playout`; the moon plans of the searching seat are moot
    while another seat holds points, so every mode plays the same."""
    rules = task.rules
    seat = task.knowledge.seat
    jack = rules.jack_of_diamonds
    rows = len(task.candidates) * len(task.modes)
    totals = [[0.0] * TOTALS for _ in range(rows)]
    for world in task.worlds:
        if task.deals:
            hands = list(task.deals[world])
        else:
            hands = sample(task.knowledge, random.Random(task.seed * 1_000_003 + world))
        hands[seat] = task.hand
        weight = task.weights[world] if task.weights else 1
        base = DealState.from_position(
            rules, hands, leader=task.leader, trick=list(task.trick), taken=list(task.taken),
            tricks_won=list(task.tricks_won), played=task.played,
            hearts_broken=task.hearts_broken, deal_number=task.deal_number,
        )  # fmt: skip
        index = 0
        for card in task.candidates:
            state = base.clone()
            state.play_card(card)
            if state.points is None:
                points = watched_playout(state, watch, task.add_for, jack)
            else:
                points = state.points
            value = margin(
                points, seat, rules.points_in_play, task.moon_fear, task.near_moon,
                task.fear_scale,
            )  # fmt: skip
            shot = other_shot(points, seat, rules.points_in_play)
            for _ in task.modes:
                row = totals[index]
                row[0] += weight * value
                row[1] += weight * points[seat]
                row[2] += weight
                if task.fear_floor and shot:
                    row[3] += weight
                index += 1
    return totals
