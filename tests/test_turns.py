"""A game one integer action at a time (:mod:`openhearts.turns`)."""

from __future__ import annotations

import random

import pytest

from conftest import CONFIGS, build_hands, config_id
from openhearts import CardSet, IllegalActionError, Pass, Rules
from openhearts.bots import decide, make_bot
from openhearts.turns import MOON_OTHERS_ADD, MOON_SHOOTER_SUBTRACTS, TurnGame, action_name


def play_randomly(turns: TurnGame, rng: random.Random) -> int:
    steps = 0
    while not turns.is_over:
        turns.apply(rng.choice(turns.legal_actions()))
        steps += 1
    return steps


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_deal_takes_every_card_once(config: tuple[str, int]) -> None:
    preset, players = config
    rules = Rules.preset(preset, players=players)
    turns = TurnGame(rules, seed=f"turns:{preset}:{players}")
    steps = play_randomly(turns, random.Random(1))
    passes = players * rules.cards_passed if rules.pass_offset(0) else 0
    moon = 1 if turns.game.results[0].moon_choice else 0
    assert steps == passes + rules.deck_mask.bit_count() + moon
    assert turns.phase == "game_over" and turns.seat is None
    assert turns.legal_actions() == []
    assert turns.scored_points() == list(turns.game.results[0].points)


def test_whole_game_runs_to_the_end_score() -> None:
    turns = TurnGame(Rules(end_score=40), seed=3, whole_game=True)
    play_randomly(turns, random.Random(2))
    assert turns.game.is_over
    assert max(turns.scored_points()) >= 40
    assert turns.points_so_far() == turns.scored_points()


def test_passing_is_one_card_at_a_time_in_seat_order() -> None:
    turns = TurnGame(Rules(), seed=5)
    seen = []
    while turns.phase == "passing":
        seat = turns.seat
        assert seat is not None
        seen.append(seat)
        card = turns.legal_actions()[0]
        turns.apply(card)
        if turns.phase == "passing" and turns.seat == seat:
            assert card in turns.selected(seat)
            assert card not in turns.legal_actions()
            # Chosen cards are still the seat's own until its pass is complete.
            assert card in turns.view(seat).hand
    assert seen == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert all(turns.view(seat).received is not None for seat in range(4))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (-1, "-1 is not an action"),
        (54, "54 is not an action"),
        (True, "True is not an action"),
        ("2C", "'2C' is not an action"),
        (MOON_OTHERS_ADD, "there is no moon to choose"),
    ],
)
def test_bad_actions_are_refused_clearly(action: object, message: str) -> None:
    turns = TurnGame(Rules(), seed=5)
    with pytest.raises(IllegalActionError, match=message):
        turns.apply(action)  # type: ignore[arg-type]
    assert turns.selected(0) == CardSet()


def test_numpy_integers_are_action_numbers() -> None:
    """What ``np.flatnonzero(mask)`` and ``action_space.sample()`` give: action_name
    crashed on them and apply refused them as no action."""
    np = pytest.importorskip("numpy")
    turns = TurnGame(Rules(), seed=5)
    mask = np.zeros(54, dtype=np.int8)
    mask[turns.legal_actions()] = 1
    first = np.flatnonzero(mask)[0]
    assert action_name(first) == action_name(int(first)) == str(turns.game.hand(0).cards()[0])
    assert action_name(np.int64(MOON_OTHERS_ADD)) == "moon: others add"
    turns.apply(first)
    assert turns.selected(0) == CardSet([int(first)])
    for bad in (54, -1, "QS", True, 1.5):
        with pytest.raises(ValueError, match="is not an action"):
            action_name(bad)  # type: ignore[arg-type]


def test_illegal_cards_say_why_and_change_nothing() -> None:
    turns = TurnGame(Rules(), seed=5)
    hand = turns.game.hand(0)
    missing = next(c for c in range(52) if c not in hand)
    with pytest.raises(IllegalActionError, match="you do not hold"):
        turns.apply(missing)
    turns.apply(hand.cards()[0])
    with pytest.raises(IllegalActionError, match="already chosen to pass"):
        turns.apply(hand.cards()[0])
    while turns.phase == "passing":
        turns.apply(turns.legal_actions()[0])
    leader = turns.seat
    assert leader is not None
    other = next(c for c in turns.game.hand(leader) if c not in turns.legal_actions())
    with pytest.raises(IllegalActionError, match="first trick must be led"):
        turns.apply(other)
    assert turns.seat == leader


def test_moon_choice_is_two_actions() -> None:
    rules = Rules.preset("source-000", pass_cycle=("hold",))
    hands = build_hands(rules, {0: "AC KC QC JC TC 9C 8C 7C 6C AH KH QH JH"})
    turns = TurnGame(rules, hands=hands)
    while turns.phase != "moon_choice":
        turns.apply(turns.legal_actions()[0])
    assert turns.legal_actions() == [MOON_OTHERS_ADD, MOON_SHOOTER_SUBTRACTS]
    assert turns.points_so_far() == [26, 0, 0, 0]
    with pytest.raises(IllegalActionError, match="must choose how to score the moon"):
        turns.apply(turns.game.hand(0).cards()[0] if turns.game.hand(0) else 0)
    turns.apply(MOON_SHOOTER_SUBTRACTS)
    assert turns.scored_points() == [-26, 0, 0, 0]
    assert action_name(MOON_SHOOTER_SUBTRACTS) == "moon: shooter subtracts"


def test_the_view_after_a_single_deal_is_of_that_deal() -> None:
    turns = TurnGame(Rules(), seed=8)
    play_randomly(turns, random.Random(8))
    view = turns.view(2)
    assert view.phase == "game_over"
    assert len(view.tricks) == 13 and not view.hand
    assert list(view.points_taken) == list(turns.game.results[0].taken_points)
    # The game underneath has dealt the next deal; the view does not leave it changed.
    assert turns.game.phase == "passing" and len(turns.game.hand(2)) == 13


def test_whole_actions_from_bots_apply_card_by_card() -> None:
    turns = TurnGame(Rules(players=5), seed=12)
    bots = [make_bot("easy", seat) for seat in range(5)]
    while not turns.is_over:
        seat = turns.seat
        assert seat is not None
        turns.apply_action(decide(bots[seat], turns.view(seat)))
    assert len(turns.game.results) == 1


def test_a_bad_whole_action_changes_nothing() -> None:
    turns = TurnGame(Rules(), seed=12)
    hand = turns.game.hand(0).cards()
    with pytest.raises(IllegalActionError, match="pass exactly 3 cards"):
        turns.apply_action(Pass(0, CardSet(hand[:2])))
    missing = next(c for c in range(52) if c not in turns.game.hand(0))
    with pytest.raises(IllegalActionError, match="you do not hold"):
        turns.apply_action(Pass(0, CardSet([hand[0], hand[1], missing])))
    with pytest.raises(IllegalActionError, match="seat 0's turn, not seat 1's"):
        turns.apply_action(Pass(1, CardSet(turns.game.hand(1).cards()[:3])))
    with pytest.raises(IllegalActionError, match="not an action"):
        turns.apply_action("2C")  # type: ignore[arg-type]
    assert turns.selected(0) == CardSet() and turns.seat == 0
    turns.apply(hand[0])
    with pytest.raises(IllegalActionError, match="before any card is chosen"):
        turns.apply_action(Pass(0, CardSet(hand[1:4])))
    assert turns.selected(0) == CardSet([hand[0]])


def test_a_play_while_passing_is_refused_not_taken_as_a_card_to_pass() -> None:
    """Found by a tester: apply_action(Play(...)) while passing chose the card to pass,
    where Game.apply refuses it; selected(-1) read the last seat's choice."""
    import copy

    from openhearts import Play

    turns = TurnGame(Rules(), seed=1)
    card = turns.game.hand(0).cards()[0]
    with pytest.raises(IllegalActionError, match="cards are being passed"):
        turns.apply_action(Play(0, card))
    assert not turns.selected(0)
    for seat in (-1, 4):
        with pytest.raises(IllegalActionError, match=f"no seat {seat}: seats are 0 to 3"):
            turns.selected(seat)
    other = copy.copy(turns)
    other.apply(int(card))
    assert not turns.selected(0) and other.selected(0) == CardSet(card)


def test_the_rules_may_be_a_presets_name_as_a_game_takes_them() -> None:
    """``TurnGame("source-003")`` said "'str' object has no attribute 'players'"."""
    turns = TurnGame("source-003", seed=2)
    assert turns.rules == Rules.preset("source-003")
    assert turns.legal_actions() == TurnGame(Rules.preset("source-003"), seed=2).legal_actions()
