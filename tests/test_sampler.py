"""The sampler deals hidden cards that never contradict what the player knows."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from conftest import CONFIGS, config_id
from openhearts import CardSet, Game, PlayerView, Rules
from openhearts.bots import act, make_bot
from openhearts.bots.sampler import Knowledge, SamplerError, WorldSampler, constraints, sample
from openhearts.cards import SUIT_MASKS


def _check_sample(view: PlayerView, hands: list[int]) -> None:
    """Every fact the view establishes holds in the sampled hands."""
    players = view.rules.players
    assert hands[view.seat] == 0
    union = 0
    for seat in range(players):
        if seat == view.seat:
            continue
        hand = hands[seat]
        assert hand.bit_count() == view.hand_sizes[seat], "card count"
        assert not union & hand, "a card dealt twice"
        union |= hand
        for suit in view.voids[seat]:
            assert not hand & SUIT_MASKS[suit], f"seat {seat} shown void in {suit}"
    assert union == view.unseen.mask, "exactly the unseen cards are dealt"
    if view.passed is not None and view.passing_done and view.pass_target is not None:
        kept = view.passed.mask & ~view.played.mask
        assert hands[view.pass_target] & kept == kept, "passed cards stay with the receiver"


def _check_truth(view: PlayerView, game: Game, knowledge: Knowledge) -> None:
    """The inferences are sound: the real hands satisfy them."""
    for seat in range(view.rules.players):
        if seat == view.seat:
            continue
        real = game.hand(seat).mask
        assert real & ~knowledge.allowed[seat] == 0, f"seat {seat}: real cards ruled out"
        assert knowledge.fixed[seat] & ~real == 0


def _walk(rules: Rules, seed: int, samples: int) -> int:
    """Play a random deal and sample at every play; returns the number of checks."""
    game = Game(rules, seed=seed, first_deal=seed)
    bots = [make_bot("random" if s % 2 else "easy", seed=s) for s in range(rules.players)]
    rng = random.Random(seed)
    checks = 0
    first = game.deal_number
    while not game.is_over and game.deal_number == first:
        seat = game.to_act()[0]
        if game.phase == "playing":
            for observer in range(rules.players):
                view = game.view(observer)
                knowledge = constraints(view)
                _check_truth(view, game, knowledge)
                for _ in range(samples):
                    _check_sample(view, sample(knowledge, rng))
                    checks += 1
        act(game, seat, bots[seat])
    return checks


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_samples_respect_counts_voids_and_passes(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1])
    assert sum(_walk(rules, seed, 2) for seed in range(6)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_samples_respect_what_is_known(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1])
    for seed in range(100):
        _walk(rules, seed, 5)


def test_tight_constraints_use_the_exact_fallback() -> None:
    """Three seats, each void in all but one suit: only one deal fits."""
    spades = SUIT_MASKS[2] & CardSet.parse("2S 3S 4S").mask
    hearts = SUIT_MASKS[3] & CardSet.parse("2H 3H 4H").mask
    clubs = CardSet.parse("2C 3C 4C").mask
    knowledge = Knowledge(
        seat=0,
        unseen=spades | hearts | clubs,
        sizes=(0, 3, 3, 3),
        fixed=(0, 0, 0, 0),
        allowed=(0, spades | clubs, spades | hearts, hearts | clubs),
    )
    seen: set[tuple[int, ...]] = set()
    rng = random.Random(3)
    for _ in range(50):
        hands = sample(knowledge, rng, tries=len(seen) % 2)  # 0: straight to the exact way
        for seat in (1, 2, 3):
            assert hands[seat] & ~knowledge.allowed[seat] == 0
            assert hands[seat].bit_count() == 3
        assert hands[1] | hands[2] | hands[3] == knowledge.unseen
        seen.add(tuple(hands))
    assert len(seen) > 1  # the deals vary where they may


def test_contradictions_are_reported() -> None:
    knowledge = Knowledge(
        seat=0,
        unseen=CardSet.parse("2C 3C").mask,
        sizes=(0, 1, 1),
        fixed=(0, 0, 0),
        allowed=(0, CardSet.parse("2C 3C").mask, CardSet.parse("2H").mask),
    )
    with pytest.raises(SamplerError):
        sample(knowledge, random.Random(0))


def test_voids_and_passes_are_read_from_the_view() -> None:
    rules = Rules()
    game = Game(rules, seed=5)
    for seat in range(4):
        game.pass_cards(seat, list(game.hand(seat))[-3:])
    view = game.view(0)
    knowledge = constraints(view)
    assert view.passed is not None and view.pass_target is not None
    assert knowledge.fixed[view.pass_target] == view.passed.mask
    for other in range(1, 4):
        if other != view.pass_target:
            assert not knowledge.allowed[other] & view.passed.mask
    bots = [make_bot("random", seed=s) for s in range(4)]
    while not any(view.voids) and not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
        view = game.view(0)
    for seat, voids in enumerate(view.voids):
        if seat != 0:
            for suit in voids:
                assert not constraints(view).allowed[seat] & SUIT_MASKS[suit]


# Completeness: the inferences rule out every deal the history forbids, and nothing more.


def _assignments(cards: Sequence[int], sizes: list[int], seat: int = 0) -> list[list[int]]:
    """Every way to deal ``cards`` (a list of card numbers) into hands of ``sizes``."""
    if seat == len(sizes):
        return [[]] if not cards else []
    result: list[list[int]] = []
    for chosen in itertools.combinations(cards, sizes[seat]):
        mask = sum(1 << card for card in chosen)
        rest = [card for card in cards if not mask >> card & 1]
        result.extend([mask, *tail] for tail in _assignments(rest, sizes, seat + 1))
    return result


def _history_fits(game: Game, observer: int, hidden: list[int]) -> bool:
    """Whether the play so far is legal had the other seats held ``hidden`` now."""
    played = [0] * game.rules.players
    for action in game.actions:
        played[action.seat] |= 1 << action.card  # type: ignore[union-attr]
    dealt = [
        (game.hand(seat).mask if seat == observer else hidden[seat]) | played[seat]
        for seat in range(game.rules.players)
    ]
    trial = Game(game.rules, hands=[[CardSet(hand) for hand in dealt]])
    try:
        for action in game.actions:
            trial.apply(action)
    except ValueError:  # IllegalActionError: this deal contradicts a play
        return False
    return True


def _late_position(rules: Rules, seed: int, unseen_at_most: int) -> Game:
    """A hold deal played at random until few cards are hidden from seat 0."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while game.view(0).unseen.mask.bit_count() > unseen_at_most:
        game.play(rng.choice(game.legal_plays().cards()))
    return game


def _check_complete(config: tuple[str, int], seeds: range, unseen_at_most: int) -> None:
    preset, players = config
    rules = Rules.preset(preset, players=players, pass_cycle=("hold",))
    ruled_out = 0
    for seed in seeds:
        game = _late_position(rules, seed, unseen_at_most)
        for observer in range(players):
            view = game.view(observer)
            knowledge = constraints(view)
            sizes = [0 if s == observer else view.hand_sizes[s] for s in range(players)]
            for hidden in _assignments(view.unseen.cards(), sizes):
                fits_knowledge = all(
                    hidden[s] & ~knowledge.allowed[s] == 0 and knowledge.fixed[s] & ~hidden[s] == 0
                    for s in range(players)
                )
                assert fits_knowledge == _history_fits(game, observer, hidden), (
                    f"seed {seed}, seat {observer}: the inferences "
                    f"{'miss a fact of' if fits_knowledge else 'go beyond'} the history"
                )
                ruled_out += not fits_knowledge
    assert ruled_out, "no position where the history rules anything out"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_inferences_are_complete_every_deal_the_history_allows_is_allowed(
    config: tuple[str, int],
) -> None:
    _check_complete(config, range(4), unseen_at_most=5)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_inferences_are_complete_on_many_positions(config: tuple[str, int]) -> None:
    _check_complete(config, range(4, 24), unseen_at_most=7)


def test_the_sampler_deals_every_deal_the_inferences_allow() -> None:
    """Not only sound samples: over many draws every consistent deal turns up."""
    rules = Rules.preset("standard", pass_cycle=("hold",))
    game = _late_position(rules, seed=4, unseen_at_most=6)
    view = game.view(0)
    knowledge = constraints(view)
    sizes = [0] + [view.hand_sizes[s] for s in range(1, 4)]
    possible = {
        tuple(hidden)
        for hidden in _assignments(view.unseen.cards(), sizes)
        if _history_fits(game, 0, hidden)
    }
    assert len(possible) > 5
    rng = random.Random(0)
    drawn = {tuple(sample(knowledge, rng)) for _ in range(40 * len(possible))}
    assert drawn == possible


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_world_sampler_deals_what_sample_deals(config: tuple[str, int]) -> None:
    """The prepared sampler hard uses draws the same numbers, so it deals the same worlds."""
    rules = Rules.preset(config[0], players=config[1])
    compared = 0
    for seed in range(4):
        game = Game(rules, seed=seed, first_deal=seed)
        bots = [make_bot("random" if s % 2 else "easy", seed=s) for s in range(rules.players)]
        while not game.is_over and game.deal_number == seed:
            if game.phase == "playing":
                knowledge = constraints(game.view(game.to_act()[0]))
                prepared = WorldSampler(knowledge)
                for world in range(3):
                    expected = sample(knowledge, random.Random(world))
                    assert prepared.sample(random.Random(world)) == expected
                    compared += 1
            act(game, game.to_act()[0], bots[game.to_act()[0]])
    assert compared > 0


def test_world_sampler_matches_the_exact_fallback() -> None:
    spades = CardSet.parse("2S 3S 4S").mask
    hearts = CardSet.parse("2H 3H 4H").mask
    clubs = CardSet.parse("2C 3C 4C").mask
    knowledge = Knowledge(
        seat=0,
        unseen=spades | hearts | clubs,
        sizes=(0, 3, 3, 3),
        fixed=(0, 0, 0, 0),
        allowed=(0, spades | clubs, spades | hearts, hearts | clubs),
    )
    prepared = WorldSampler(knowledge)
    for seed in range(40):
        for tries in (0, 1, 20):
            expected = sample(knowledge, random.Random(seed), tries)
            assert prepared.sample(random.Random(seed), tries) == expected


def test_world_sampler_reports_contradictions() -> None:
    knowledge = Knowledge(
        seat=0,
        unseen=CardSet.parse("2C 3C").mask,
        sizes=(0, 1, 1),
        fixed=(0, 0, 0),
        allowed=(0, CardSet.parse("2C 3C").mask, CardSet.parse("2H").mask),
    )
    with pytest.raises(SamplerError):
        WorldSampler(knowledge).sample(random.Random(0))
