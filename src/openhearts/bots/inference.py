"""Inference: how likely the other players' actual plays and pass were in a world.

Every deal of the hidden cards that fits the hard facts (:mod:`openhearts.bots.sampler`)
is possible, but not equally likely: a player who ducked with the 9♠ under the K♠
probably holds no J♠ or 10♠ (a sensible player ducks as high as it can), and a player
who passed us three low clubs probably kept no Q♠.  :func:`world_weight` replays the
deal so far in a sampled world and compares each choice another player made with what
a model of their play (the rules of thumb of :mod:`openhearts.bots.policy`) would have
chosen with the cards the world gives it.  Every disagreement multiplies the world's
weight by a constant below one, so worlds that explain the play well count more, and
no world is ruled out by a model that is only an approximation.

:func:`weighted_deals` draws a pool of consistent worlds and keeps as many as the search
will play, chosen in proportion to their weights (systematic resampling).
"""

from __future__ import annotations

import random
from typing import Final

from ..deal import DealState
from ..game import PlayerView
from .policy import moon_threat, pass_ranking, play_policy
from .sampler import Knowledge, sample

__all__ = ["world_weight", "weighted_deals", "PLAY_MISS", "PASS_MISS"]

#: Weight factor for a card another player chose differently from the model.
PLAY_MISS: Final = 0.5
#: Weight factor for each card the passer kept that the model would rather have passed.
PASS_MISS: Final = 0.6


def _alike(first: int, second: int, known: int) -> bool:
    """Two cards of a suit play alike when every card between them is ``known``
    (played or in the same hand)."""
    if first // 13 != second // 13:
        return False
    low, high = sorted((first, second))
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return not between & ~known


def world_weight(
    view: PlayerView,
    hidden: list[int],
    play_miss: float = PLAY_MISS,
    pass_miss: float = PASS_MISS,
) -> float:
    """How well ``hidden`` (each other seat's cards now) explains the others' choices:
    1.0 when the model agrees with every one of them."""
    rules = view.rules
    players = rules.players
    seat = view.seat
    jack = rules.jack_of_diamonds
    plays = [pair for trick in view.tricks for pair in trick.plays(players)]
    plays += list(view.trick)
    held = [hidden[s] for s in range(players)]
    held[seat] = view.hand.mask
    for who, card in plays:
        held[who] |= 1 << card
    weight = 1.0
    if plays:
        state = DealState.from_position(
            rules, held, leader=plays[0][0], trick=[], taken=[0] * players,
            tricks_won=[0] * players, played=0, hearts_broken=False,
            deal_number=view.deal_number,
        )  # fmt: skip
        point_mask = rules.point_mask
        for who, card in plays:
            if who != seat:
                legal = state.legal_mask()
                if legal & (legal - 1):
                    guess = play_policy(
                        who, state.hands[who], legal, state.trick, state.leader, players,
                        state.played, moon_threat(state.taken, point_mask), jack,
                    )  # fmt: skip
                    if guess != card and not _alike(guess, card, state.played | state.hands[who]):
                        weight *= play_miss
            state.play_card(card)
    source = view.pass_source
    if view.received is not None and source is not None and source != seat:
        received = view.received.mask
        # What the passer held before passing, give or take the cards it received.
        before = held[source] | received
        order = pass_ranking(before, rules.cards_passed, jack)
        worst = max(order.index(card) for card in range(52) if received >> card & 1)
        kept_better = sum(1 for card in order[:worst] if not received >> card & 1)
        weight *= pass_miss**kept_better
    return weight


def weighted_deals(
    view: PlayerView, knowledge: Knowledge, rng: random.Random, keep: int, pool: int
) -> tuple[tuple[int, ...], ...]:
    """``keep`` deals of the hidden cards, drawn from ``pool`` consistent ones in
    proportion to :func:`world_weight`."""
    worlds = [sample(knowledge, rng) for _ in range(pool)]
    weights = [world_weight(view, world) for world in worlds]
    total = sum(weights)
    if total <= 0:
        chosen = worlds[:keep]
    else:
        step = total / keep
        point = rng.random() * step
        chosen = []
        running = 0.0
        index = -1
        for _ in range(keep):
            while running <= point and index + 1 < len(worlds):
                index += 1
                running += weights[index]
            chosen.append(worlds[index])
            point += step
    seat = view.seat
    hand = view.hand.mask
    return tuple(tuple(hand if s == seat else w[s] for s in range(len(w))) for w in chosen)
