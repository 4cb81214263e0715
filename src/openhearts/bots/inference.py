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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..deal import DealState
from ..game import PlayerView
from .policy import moon_threat, pass_ranking, play_policy
from .sampler import Knowledge, sample

__all__ = [
    "Explanation",
    "explain",
    "world_weight",
    "weighted_deals",
    "Inference",
    "PLAY_MISS",
    "PASS_MISS",
    "MOON_PRIOR",
    "Choice",
    "PlayModel",
    "LEARNED_FLOOR",
]

#: Weight factor for a card another player chose differently from the model.
PLAY_MISS: Final = 0.5
#: Weight factor for each card the passer kept that the model would rather have passed.
PASS_MISS: Final = 0.6
#: Added to a learned model's probability of a play before it weighs a world (then
#: scaled so that a sure play counts 1): one play the model found unlikely rules no
#: world out (:func:`openhearts.bots.learned.play_factors`).
LEARNED_FLOOR: Final = 0.25
#: How likely another player is to be going for the moon, before seeing its play.
MOON_PRIOR: Final = 0.1


def _alike(first: int, second: int, known: int) -> bool:
    """Two cards of a suit play alike when every card between them is ``known``
    (played or in the same hand)."""
    if first // 13 != second // 13:
        return False
    low, high = sorted((first, second))
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return not between & ~known


@dataclass(frozen=True)
class Explanation:
    """How well a world explains the others' choices, seat by seat.

    ``normal[s]`` and ``shooting[s]``: the likelihood factor of seat ``s``'s plays if it
    plays by the rules of thumb, and if it is going for the moon (playing for every point
    while nobody else has one); ``passing``: the factor of the pass we received.
    """

    normal: tuple[float, ...]
    shooting: tuple[float, ...]
    passing: float

    def weight(self, moon_prior: float = MOON_PRIOR) -> float:
        """The world's weight: each seat a shooter with probability ``moon_prior``."""
        weight = self.passing
        for normal, shooting in zip(self.normal, self.shooting, strict=True):
            weight *= (1 - moon_prior) * normal + moon_prior * shooting
        return weight

    def shooter_odds(self, seat: int, moon_prior: float = MOON_PRIOR) -> float:
        """In this world, the probability that ``seat`` is going for the moon."""
        shoot = moon_prior * self.shooting[seat]
        total = (1 - moon_prior) * self.normal[seat] + shoot
        return shoot / total if total else 0.0


def explain(
    view: PlayerView,
    hidden: list[int],
    play_miss: float = PLAY_MISS,
    pass_miss: float = PASS_MISS,
    choices: list[Choice] | None = None,
) -> Explanation:
    """Replay the deal so far in the world ``hidden`` (each other seat's cards now) and
    compare every choice another seat made with the two models of its play.

    With ``choices``, the plays are left for another model to weigh
    (:func:`openhearts.bots.learned.play_factors`): each choice among two or more
    legal cards is appended to it, and only a shooter's plays for every point are
    compared with the rules of thumb here."""
    rules = view.rules
    players = rules.players
    seat = view.seat
    jack = rules.jack_of_diamonds
    plays = view.plays
    held = [hidden[s] for s in range(players)]
    held[seat] = view.hand.mask
    for who, card in plays:
        held[who] |= 1 << card
    normal = [1.0] * players
    shooting = [1.0] * players
    if plays:
        state = DealState.from_position(
            rules, held, leader=plays[0][0], trick=[], taken=[0] * players,
            tricks_won=[0] * players, played=0, hearts_broken=False,
            deal_number=view.deal_number,
        )  # fmt: skip
        point_mask = rules.point_mask
        for step, (who, card) in enumerate(plays):
            if who != seat:
                legal = state.legal_mask()
                if legal & (legal - 1):
                    hand = state.hands[who]
                    known = state.played | hand
                    threat = moon_threat(state.taken, point_mask)
                    # A shooter plays for every point while nobody else has one.
                    shoots = threat in (-1, who) and not any(
                        state.taken[s] & point_mask for s in range(players) if s != who
                    )
                    if shoots:
                        aim = play_policy(
                            who, hand, legal, state.trick, state.leader, players,
                            state.played, who, jack,
                        )  # fmt: skip
                        if not _alike(aim, card, known):
                            shooting[who] *= play_miss
                    if choices is not None:
                        alike = _alike_run(card, known) & legal
                        choices.append((step, who, hand, legal, alike, not shoots))
                    else:
                        guess = play_policy(
                            who, hand, legal, state.trick, state.leader, players, state.played,
                            threat, jack,
                        )  # fmt: skip
                        if not _alike(guess, card, known):
                            normal[who] *= play_miss
                            if not shoots:
                                shooting[who] *= play_miss
            state.play_card(card)
    passing = 1.0
    source = view.pass_source
    if view.received is not None and source is not None and source != seat:
        received = view.received.mask
        # What the passer held before passing, give or take the cards it received.
        before = held[source] | received
        order = pass_ranking(before, rules.cards_passed, jack)
        worst = max(order.index(card) for card in range(52) if received >> card & 1)
        kept_better = sum(1 for card in order[:worst] if not received >> card & 1)
        passing = pass_miss**kept_better
    normal[seat] = shooting[seat] = 1.0
    return Explanation(tuple(normal), tuple(shooting), passing)


#: A choice left to another model: the index of the play in the deal, the seat, its
#: hand and legal cards then, the cards that play alike with the one it played (that
#: card included), and whether a shooter would have chosen by the same model (False
#: where it plays for every point instead, compared by the rules of thumb).
Choice = tuple[int, int, int, int, int, bool]


def _alike_run(card: int, known: int) -> int:
    """The cards that play alike with ``card`` (itself included): the run of
    consecutive ``known`` cards of its suit around it (:func:`_alike`)."""
    low = card - card % 13
    run = 1 << card
    other = card + 1
    while other < low + 13 and known >> other & 1:
        run |= 1 << other
        other += 1
    other = card - 1
    while other >= low and known >> other & 1:
        run |= 1 << other
        other -= 1
    return run


def world_weight(view: PlayerView, hidden: list[int]) -> float:
    """How well ``hidden`` (each other seat's cards now) explains the others' choices:
    1.0 when the rules of thumb agree with every one of them."""
    return explain(view, hidden).weight(moon_prior=0.0)


@dataclass(frozen=True)
class Inference:
    """The deals to search and, for each seat, how likely it is to be shooting.

    ``weights``: how much each deal counts in the search, one per deal; empty when the
    deals were resampled in proportion to their weights (each then counts once).
    """

    deals: tuple[tuple[int, ...], ...]
    shooters: tuple[float, ...]
    weights: tuple[float, ...] = ()


def weighted_deals(
    view: PlayerView,
    knowledge: Knowledge,
    rng: random.Random,
    keep: int,
    pool: int,
    moon_prior: float = MOON_PRIOR,
    resample: bool = True,
    model: PlayModel | None = None,
) -> Inference:
    """``keep`` deals of the hidden cards, drawn from ``pool`` consistent ones in
    proportion to their weight (:meth:`Explanation.weight`), and each seat's chance of
    going for the moon averaged over the pool by the same weights.

    With ``resample`` False, every deal of the pool is kept with its weight (scaled to
    average 1) instead: the search then counts each deal for its weight, which spends
    no deal on a copy of another and loses none by the luck of the draw.

    With ``model``, the others' plays are weighed by it instead of the rules of thumb
    (a shooter's plays for every point excepted): ``model(view, choices)`` gives, for
    each world, each seat's factors from the choices :func:`explain` left in it.
    """
    players = view.rules.players
    worlds = [sample(knowledge, rng) for _ in range(pool)]
    if model is None:
        explained = [explain(view, world) for world in worlds]
    else:
        left: list[list[Choice]] = [[] for _ in worlds]
        explained = [explain(view, world, choices=c) for world, c in zip(worlds, left, strict=True)]
        factors = model(view, left)
        explained = [
            replace(e, normal=_times(e.normal, f), shooting=_times(e.shooting, s))
            for e, (f, s) in zip(explained, factors, strict=True)
        ]
    weights = [e.weight(moon_prior) for e in explained]
    total = sum(weights)
    kept_weights: tuple[float, ...] = ()
    if total <= 0:
        chosen = list(range(min(keep, pool)))
        shooters = (0.0,) * players
    else:
        shooters = tuple(
            sum(w * e.shooter_odds(s, moon_prior) for w, e in zip(weights, explained, strict=True))
            / total
            for s in range(players)
        )
        if resample:
            chosen = _resample(weights, total, keep, rng)
        else:
            chosen = list(range(pool))
            kept_weights = tuple(w * pool / total for w in weights)
    seat = view.seat
    hand = view.hand.mask
    deals = tuple(
        tuple(hand if s == seat else worlds[i][s] for s in range(players)) for i in chosen
    )
    return Inference(deals, shooters, kept_weights)


#: Weighs the choices :func:`explain` left, world by world: for each world, each seat's
#: factor for its plays if it plays normally, and if it is going for the moon.
PlayModel = Callable[
    [PlayerView, list[list[Choice]]], Sequence[tuple[Sequence[float], Sequence[float]]]
]


def _times(factors: tuple[float, ...], more: Sequence[float]) -> tuple[float, ...]:
    return tuple(a * b for a, b in zip(factors, more, strict=True))


def _resample(weights: list[float], total: float, keep: int, rng: random.Random) -> list[int]:
    """The indices of ``keep`` worlds drawn in proportion to their ``weights`` (systematic
    resampling: one random offset, then evenly spaced points along the running sum)."""
    step = total / keep
    point = rng.random() * step
    chosen = []
    running = 0.0
    index = -1
    for _ in range(keep):
        while running <= point and index + 1 < len(weights):
            index += 1
            running += weights[index]
        chosen.append(index)
        point += step
    return chosen
