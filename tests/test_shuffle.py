"""The deal's shuffle in C (``_shuffle.c``) deals exactly the hands of the Python
reference, which seeds ``random.Random`` with the deal's seed: for seeds of every kind
(small, large and negative numbers, any text), every table size, dealer and deck."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CONFIGS
from openhearts import Game, Rules
from openhearts.game import (
    _compiled_shuffle,
    _deal_seed,
    _reference_shuffled_hands,
    _seed_key,
    _shuffled_hands,
)

pytestmark = pytest.mark.skipif(_compiled_shuffle is None, reason="the C shuffle is not built")

RULES = [Rules.preset(preset, players) for preset, players in CONFIGS]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(st.integers(), st.integers(min_value=2**60, max_value=2**200), st.text()),
    rules=st.sampled_from(RULES),
    dealer=st.integers(min_value=0, max_value=5),
)
def test_the_c_shuffle_deals_what_random_random_deals(
    seed: int | str, rules: Rules, dealer: int
) -> None:
    dealer %= rules.players
    assert _compiled_shuffle is not None
    hands = _compiled_shuffle.shuffled_hands(
        _seed_key(seed), rules.deck_mask, rules.players, dealer
    )
    assert hands == _reference_shuffled_hands(rules, seed, dealer)


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{rules.players}p")
def test_games_deal_the_same_hands_either_way(rules: Rules) -> None:
    for seed in (0, 1, 8, "8", "a game", 2**63):
        for number in range(4):
            dealer = rules.dealer(number)
            expected = _reference_shuffled_hands(rules, _deal_seed(seed, number), dealer)
            assert _shuffled_hands(rules, seed, number, dealer) == expected
    game = Game(rules, seed="x")
    assert [int(game.hand(s)) for s in range(rules.players)] == _reference_shuffled_hands(
        rules, _deal_seed("x", 0), rules.dealer(0)
    )


def test_bad_arguments_are_refused() -> None:
    assert _compiled_shuffle is not None
    with pytest.raises(ValueError, match="bad key"):
        _compiled_shuffle.shuffled_hands(b"abc", Rules().deck_mask, 4, 0)
    with pytest.raises(ValueError, match="bad key"):
        _compiled_shuffle.shuffled_hands(b"abcd", Rules().deck_mask, 9, 0)
