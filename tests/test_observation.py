"""The numeric observation of a seat (:mod:`openhearts.observation`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import CONFIGS, config_id
from openhearts import Rules
from openhearts.observation import PIECES, SIZE, encode, piece
from openhearts.turns import TurnGame


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_position_encodes_to_one_shape(config: tuple[str, int]) -> None:
    preset, players = config
    turns = TurnGame(Rules.preset(preset, players=players), seed=config_id(config))
    rng = random.Random(4)
    out = np.full(SIZE, 9.0, dtype=np.float32)
    while not turns.is_over:
        seat = turns.seat
        assert seat is not None
        observation = encode(turns.view(seat), int(turns.selected(seat)), out=out)
        assert observation is out and observation.shape == (SIZE,)
        for name, _ in PIECES:
            if name not in ("points_taken", "scores"):
                assert set(np.unique(piece(observation, name))) <= {0.0, 1.0}, name
        assert int(piece(observation, "phase").sum()) == 1
        # Cards are in exactly one of: my hand, chosen to pass, played by someone, unseen.
        hand, passing = piece(observation, "hand"), piece(observation, "passing")
        assert not np.any(hand * passing)
        assert int(hand.sum()) + len(turns.selected(seat)) == len(turns.view(seat).hand)
        turns.apply(rng.choice(turns.legal_actions()))
    assert sum(int(np.prod(shape)) for _, shape in PIECES) == SIZE


def test_seats_are_relative_to_the_observer() -> None:
    turns = TurnGame(Rules(pass_cycle=("hold",)), seed=2)
    leader = turns.seat
    assert leader is not None
    first = turns.legal_actions()[0]
    turns.apply(first)
    for seat in range(4):
        trick = piece(encode(turns.view(seat)), "trick")
        assert trick[(leader - seat) % 4, first] == 1.0
        assert trick.sum() == 1.0
        assert piece(encode(turns.view(seat)), "leader")[(leader - seat) % 4] == 1.0


def test_only_what_the_seat_may_know() -> None:
    """Other hands do not enter: swapping two other seats' unplayed cards changes nothing."""
    rules = Rules(pass_cycle=("hold",))
    turns = TurnGame(rules, seed=6)
    hands = [int(turns.game.hand(seat)) for seat in range(4)]
    a, b = hands[2] & -hands[2], hands[3] & -hands[3]
    swapped = list(hands)
    swapped[2] = hands[2] ^ a ^ b
    swapped[3] = hands[3] ^ b ^ a
    other = TurnGame(rules, hands=swapped)
    for seat in (0, 1):
        assert np.array_equal(encode(turns.view(seat)), encode(other.view(seat)))
    assert not np.array_equal(encode(turns.view(2)), encode(other.view(2)))


def test_the_cards_chosen_to_pass_may_be_given_as_a_card_set() -> None:
    """``encode(turns.view(seat), turns.selected(seat))`` raised "bad operand type for
    unary ~: 'CardSet'": ``selected`` had to be an int."""
    turns = TurnGame(Rules(), seed=1)
    turns.apply(turns.legal_actions()[0])
    chosen = turns.selected(0)
    by_set = encode(turns.view(0), chosen)
    assert np.array_equal(by_set, encode(turns.view(0), int(chosen)))
    assert piece(by_set, "passing")[int(chosen.cards()[0])] == 1.0


def test_a_piece_that_is_not_there_is_refused_naming_the_pieces() -> None:
    """``piece(observation, "points")`` said only ``KeyError: 'points'``."""
    observation = encode(TurnGame(Rules(), seed=1).view(0))
    with pytest.raises(ValueError, match=r"^piece: one of hand, passing, .*, not 'points'$"):
        piece(observation, "points")
