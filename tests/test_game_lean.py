"""A Game keeps little per finished deal, and its shortcuts change nothing observable.

Finished deals are kept as their results (undo and ``deal_states()`` replay them; only
the last one is kept as it ended),
``DealState`` keeps no undo log, and ``Game.play`` checks a card against the mask
``legal_mask()`` just returned.  These tests hold the memory to its bound and check that
the replayed states, undo across deals and refused plays are exactly as before.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest

from conftest import CONFIGS, config_id, random_action, snapshot
from openhearts import Game, IllegalActionError, Rules
from openhearts.cards import cards_of
from openhearts.game import pack_tricks


def _play_deals(game: Game, rng: random.Random, deals: int) -> None:
    while len(game.results) < deals and not game.is_over:
        game.apply(random_action(game, rng))


def test_a_finished_deal_costs_at_most_2_kib() -> None:
    game = Game(Rules(end_score=10**9), seed=1)
    rng = random.Random(1)
    tracemalloc.start()
    try:
        _play_deals(game, rng, 1)
        before = tracemalloc.get_traced_memory()[0]
        _play_deals(game, rng, 41)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert (after - before) / 40 <= 2048


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_finished_deals_replay_to_the_states_they_ended_in(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1])
    rng = random.Random(config_id(config))
    game = Game(rules, seed=config_id(config))
    ended = []
    while len(game.results) < 3 and not game.is_over:
        deal = game.deal
        game.apply(random_action(game, rng))
        if game.deal is not deal or game.is_over:
            ended.append(deal.key())
    states = game.deal_states()
    assert [state.key() for state in states[: len(ended)]] == ended
    for result, state in zip(game.results, game.deal_states(), strict=False):
        assert result.trick_plays == tuple(state.tricks)
        assert result.packed_tricks == pack_tricks(state.tricks)


def test_undo_steps_back_through_finished_deals_exactly() -> None:
    rules = Rules.preset("source-000")
    rng = random.Random(7)
    game = Game(rules, seed=7)
    snapshots = [snapshot(game)]
    while len(game.results) < 3:
        game.apply(random_action(game, rng))
        snapshots.append(snapshot(game))
    for expected in reversed(snapshots[:-1]):
        game.undo()
        assert snapshot(game) == expected


@pytest.mark.parametrize("card", [-1, 52, 1000])
def test_a_card_out_of_range_after_legal_mask_is_refused(card: int) -> None:
    game = Game(Rules(pass_cycle=("hold",)), seed=2)
    before = snapshot(game)
    game.legal_mask()
    with pytest.raises(IllegalActionError, match="not a card"):
        game.play(card)
    assert snapshot(game) == before


def test_an_illegal_card_after_legal_mask_is_refused() -> None:
    game = Game(Rules(pass_cycle=("hold",)), seed=2)
    legal = game.legal_mask()
    illegal = next(c for c in cards_of(int(game.hand(game.deal.to_move))) if not legal >> c & 1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="first trick must be led"):
        game.play(illegal)
    assert snapshot(game) == before


def test_a_mask_from_before_an_undo_does_not_pass_a_card() -> None:
    game = Game(Rules(pass_cycle=("hold",)), seed=2)
    before = snapshot(game)
    game.play(cards_of(game.legal_mask())[0])
    next_mask = game.legal_mask()
    game.undo()
    # No state read in between (a snapshot reads legal_mask() and so renews the mask).
    leader_hand = int(game.deal.hands[game.deal.to_move])
    stale = next(c for c in cards_of(next_mask) if not leader_hand >> c & 1)
    with pytest.raises(IllegalActionError, match="you do not hold"):
        game.play(stale)
    assert snapshot(game) == before
