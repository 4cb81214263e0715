"""The Game: dealing, passing, turn order, illegal actions, scoring, game end, undo, views."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conftest import (
    CONFIGS,
    SUIT_HANDS,
    build_hands,
    check_view_secrecy,
    config_id,
    deal_to_end,
    hold_rules,
    play_out_deal,
    play_random,
    play_sequence,
    random_action,
    scripted_game,
    snapshot,
    views,
)
from openhearts import (
    Card,
    CardSet,
    Game,
    IllegalActionError,
    MoonChoice,
    MoonScoring,
    Pass,
    Play,
    Rules,
    record,
)
from openhearts.rules import seat_names

# Dealing ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_card_in_play_is_dealt_in_equal_hands(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    expected_size = {3: 17, 4: 13, 5: 10, 6: 8}[rules.players]
    for seed in range(5):
        game = Game(rules, seed=seed)
        hands = [game.hand(s) for s in range(rules.players)]
        assert [len(h) for h in hands] == [expected_size] * rules.players
        union = CardSet()
        for hand in hands:
            assert not union & hand
            union |= hand
        assert union == rules.deck
        assert not union & (rules.removed or CardSet())


def test_deals_from_a_seed_are_deterministic() -> None:
    def hands_of(game: Game) -> list[CardSet]:
        return [game.hand(s) for s in range(game.rules.players)]

    for seed in (0, 1, 12345, "table-7"):
        assert hands_of(Game(seed=seed)) == hands_of(Game(seed=seed))
    assert hands_of(Game(seed=1)) != hands_of(Game(seed=2))
    assert hands_of(Game(seed="a")) != hands_of(Game(seed="b"))
    # The whole game follows from the seed and the actions.
    one, two = Game(seed=99), Game(seed=99)
    play_random(one, random.Random(5))
    play_random(two, random.Random(5))
    assert snapshot(one) == snapshot(two)
    assert len(one.results) > 1


def test_later_deals_differ_from_the_first() -> None:
    game = Game(seed=3)
    first = [game.hand(s) for s in range(4)]
    deal_to_end(game, random.Random(0))
    assert game.deal_number == 1
    assert [game.hand(s) for s in range(4)] != first


def test_explicit_hands_are_dealt() -> None:
    rules = Rules()
    first = build_hands(rules, SUIT_HANDS)
    second = build_hands(rules, {0: SUIT_HANDS[3], 1: SUIT_HANDS[2], 2: SUIT_HANDS[1]})
    game = Game(rules, seed=1, hands=[first, second])
    assert [game.hand(s) for s in range(4)] == first
    deal_to_end(game, random.Random(1))
    assert game.deal_number == 1
    assert game.results[0].dealt == tuple(first)
    assert game.results[0].pass_direction == "left"
    hands_now = [game.hand(s) for s in range(4)]
    assert hands_now == second, "deal 1 is a pass-right deal: nothing has moved yet"
    deal_to_end(game, random.Random(2))
    assert game.results[1].dealt == tuple(second)
    seeded = Game(rules, seed=1)
    deal_to_end(seeded, random.Random(0))
    deal_to_end(seeded, random.Random(0))
    assert [game.hand(s) for s in range(4)] == [seeded.hand(s) for s in range(4)], (
        "deals beyond the given hands come from the seed"
    )


def test_explicit_hands_as_text_and_masks() -> None:
    rules = hold_rules()
    as_text = Game(rules, hands=[[SUIT_HANDS[s] for s in range(4)]])
    as_masks = Game(rules, hands=[[int(CardSet.parse(SUIT_HANDS[s])) for s in range(4)]])
    assert [as_text.hand(s) for s in range(4)] == [as_masks.hand(s) for s in range(4)]


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["2C 3C"], "expected 4 hands, got 1"),
        ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], "2H 3H"], "hand 4 has 2 cards"),
        ([SUIT_HANDS[0], SUIT_HANDS[0], SUIT_HANDS[2], SUIT_HANDS[3]], "hand 2 repeats"),
        ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], "QX"], "hand 4"),
    ],
)
def test_bad_explicit_hands_are_refused(hands: list[str], message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        Game(Rules(), hands=[hands])


def test_explicit_hands_may_not_hold_removed_cards() -> None:
    rules = Rules(players=3)
    hands = ["2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2C 3C 4C 5C", "", ""]
    hands[1] = "6C 7C 8C 9C TC JC QC KC AC 2S 3S 4S 5S 6S 7S 8S 9S"
    hands[2] = "TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    with pytest.raises(IllegalActionError, match="removed from the deck"):
        Game(rules, hands=[hands])


def test_names_and_scores_must_match_the_players() -> None:
    with pytest.raises(ValueError, match="expected 4 names"):
        Game(Rules(), names=["A", "B"])
    with pytest.raises(ValueError, match="expected 4 scores"):
        Game(Rules(), scores=[1, 2, 3])
    game = Game(Rules(), names=["Ann", "Bob", "Cy", "Di"], scores=[5, 6, 7, 8])
    assert game.names == ("Ann", "Bob", "Cy", "Di")
    assert game.scores == [5, 6, 7, 8]


@pytest.mark.parametrize(
    "hands",
    [
        [SUIT_HANDS[s] for s in range(4)],
        [CardSet.parse(SUIT_HANDS[s]) for s in range(4)],
        [int(CardSet.parse(SUIT_HANDS[s])) for s in range(4)],
        SUIT_HANDS[0],
        5,
    ],
    ids=["texts", "card-sets", "masks", "one-text", "int"],
)
def test_hands_without_the_outer_list_of_deals_say_so(hands: object) -> None:
    """``hands`` is one list of hands per deal: a plain list of hands (as a reader of
    the README's form easily writes) is refused saying so, not counted as deals."""
    with pytest.raises(IllegalActionError, match=re.escape("one list of hands per deal")):
        Game(hold_rules(), hands=hands)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="hand 1: a card set is made of"):
        Game(Rules(), hands=[[None, None, None, None]])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "scores", [["10", 0, 0, 0], [1.5, 0, 0, 0], [True, 0, 0, 0], [None, 0, 0, 0], "0000", 5]
)
def test_starting_totals_must_be_whole_numbers(scores: object) -> None:
    """Refused when the game is built: taken, a text total broke the game at the end of
    the first deal (its phase over, its undo failing) and a fractional one saved a record
    that could not be loaded."""
    with pytest.raises(ValueError, match="scores: "):
        Game(Rules(), seed=3, scores=scores)  # type: ignore[arg-type]


def test_starting_totals_of_numpy_integers_are_kept_as_ints() -> None:
    np = pytest.importorskip("numpy")
    game = Game(Rules(), seed=3, scores=np.array([1, 2, 3, 4]))
    assert game.scores == [1, 2, 3, 4] and all(type(t) is int for t in game.initial_scores)
    assert record.loads(record.dumps(game)).initial_scores == (1, 2, 3, 4)


@pytest.mark.parametrize("seed", [True, False, None, 1.0, b"x", (1, 2)])
def test_a_seed_that_is_no_number_or_text_is_refused(seed: object) -> None:
    """A record kept True and False as they were and then refused to load them; None, a
    float or bytes were shuffled as their text: Game(seed=None) dealt one same game
    every time, where a fresh one was meant."""
    with pytest.raises(ValueError, match="seed: a number or a text, not"):
        Game(Rules(), seed=seed)


def test_a_numpy_integer_seed_is_the_same_int() -> None:
    import numpy as np

    game = Game(Rules(), seed=np.int64(7))
    assert type(game.seed) is int and game.hand(0) == Game(Rules(), seed=7).hand(0)


def test_a_shallow_copy_is_a_game_of_its_own() -> None:
    """Found by a tester: copy.copy shared the deal and the log, so finishing a deal on
    the copy left the original over at 18 points, and its record could not be written."""
    import copy

    game = Game(Rules(), seed=1, first_deal=3)  # a hold deal: play at once
    game.play(game.legal_plays().cards()[0])
    before = record.dumps(game)
    other = copy.copy(game)
    while not other.results:
        other.play(other.legal_plays().cards()[0])
    assert record.dumps(game) == before and game.action_count == 1 and not game.results
    assert other.action_count == 52


def test_what_is_asked_of_a_game_between_plays_is_answered_in_words() -> None:
    """Found by a tester: why_illegal said "you do not hold the 2♣" to a seat holding it
    while cards were being passed; a moon asked about where none is pending raised a
    bare AssertionError; a pass naming a card number twice was counted a card short."""
    game = Game(Rules(), seed=42)
    two = Card.parse("2C")
    assert game.why_illegal(two) == (
        "cards are being passed: play starts when every player has passed"
    )
    with pytest.raises(IllegalActionError, match="there is no moon to choose for now"):
        game.suggested_moon_choice()
    with pytest.raises(IllegalActionError, match="there is no moon to choose for now"):
        game.moon_totals(True)
    with pytest.raises(IllegalActionError, match="the 2♣ is named twice"):
        game.pass_cards(0, [0, 0, 1])
    over = Game(Rules(end_score=1), seed=1, first_deal=3)
    while not over.is_over:
        over.play(over.legal_plays().cards()[0])
    assert over.why_illegal(two) == "the game is over"


@pytest.mark.parametrize("name", ["", "   ", "a\nb", "tab\there", "\x1b[31mEvil", "a\u202eb"])
def test_blank_names_or_names_with_control_characters_are_refused(name: str) -> None:
    """The rule records hold names to (a terminal obeys an escape sequence in a name
    printed by a replay), so that every game built can be saved and loaded back."""
    with pytest.raises(ValueError, match="is blank or holds a control character"):
        Game(Rules(), names=["Ann", name, "Cy", "Di"])
    game = Game(Rules(), names=["Ann", 'Bob "B" Lee', "Zoë", "李"])
    assert record.loads(record.dumps(game)).names == game.names


def test_replace_hands_before_the_first_action_only() -> None:
    game = Game(Rules(), seed=4)
    hands = build_hands(game.rules, SUIT_HANDS)
    game.replace_hands(hands)
    assert [game.hand(s) for s in range(4)] == hands
    game.pass_cards(0, "2C 3C 4C")
    with pytest.raises(IllegalActionError, match="already under way"):
        game.replace_hands(hands)


# Seats and dealer ---------------------------------------------------------------------


def test_default_seats_and_first_dealer() -> None:
    game = Game(Rules())
    assert game.names == ("South", "West", "North", "East")
    assert game.names[game.dealer] == "South"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_dealer_rotates_in_play_order(players: int) -> None:
    game = Game(Rules(players=players), seed=8)
    rng = random.Random(8)
    for deal in range(players + 2):
        assert game.deal_number == deal
        assert game.dealer == deal % players
        assert game.view(0).dealer == deal % players
        deal_to_end(game, rng)
        if game.is_over:
            break
    assert [r.dealer for r in game.results] == [r.number % players for r in game.results]


def test_first_deal_number_sets_dealer_and_direction() -> None:
    game = Game(Rules(), seed=1, first_deal=2)
    assert game.deal_number == 2
    assert game.dealer == 2 and game.names[game.dealer] == "North"
    assert game.pass_direction == "across"


def test_fixed_seating_keeps_the_names_in_order() -> None:
    names = ["Ann", "Bob", "Cy", "Di"]
    for seed in range(20):
        assert Game(Rules(), seed=seed, names=names).names == tuple(names)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shuffled_seating_comes_from_the_seed(players: int) -> None:
    rules = Rules.preset("source-002", players)
    names = [f"P{i}" for i in range(players)]
    orders = {Game(rules, seed=seed, names=names).names for seed in range(60)}
    for order in orders:
        assert sorted(order) == sorted(names), "a permutation of the names"
        assert order[0] == "P0", "the first player keeps seat 0"
    assert len(orders) > 1, "different seeds give different orders"
    assert Game(rules, seed=9, names=names).names == Game(rules, seed=9, names=names).names


# Passing ------------------------------------------------------------------------------


def test_pass_phase_every_seat_chooses_before_seeing_what_it_receives() -> None:
    game = Game(Rules(), seed=11)
    dealt = [game.hand(s) for s in range(4)]
    assert game.phase == "passing"
    assert game.to_act() == [0, 1, 2, 3]
    assert game.current_player is None
    assert game.legal_plays() == CardSet()
    passes: dict[int, CardSet] = {}
    for step, seat in enumerate([2, 0, 3, 1]):
        chosen = CardSet(list(dealt[seat])[-3:])
        game.pass_cards(seat, chosen)
        passes[seat] = chosen
        if step < 3:
            assert game.to_act() == [s for s in range(4) if s not in passes]
            assert game.phase == "passing"
            for viewer in range(4):
                view = game.view(viewer)
                assert view.received is None
                assert not view.passing_done
                assert view.hand <= dealt[viewer], "nothing received shows in the hand"
                assert view.passed == passes.get(viewer)
                if viewer in passes:
                    assert view.hand == dealt[viewer] - passes[viewer]
                assert view.hand_sizes == (13, 13, 13, 13)
    assert game.phase == "playing"
    for seat in range(4):
        view = game.view(seat)
        source = (seat - 1) % 4
        assert view.pass_source == source and view.pass_target == (seat + 1) % 4
        assert view.received == passes[source]
        assert view.hand == dealt[seat] - passes[seat] | passes[source]
        assert view.passing_done


def test_pass_cards_accepts_text_and_card_lists() -> None:
    game = Game(Rules(), seed=2)
    h0, h1 = list(game.hand(0)), list(game.hand(1))
    game.pass_cards(0, " ".join(str(c) for c in h0[:3]))
    game.pass_cards(1, h1[:3])
    game.apply(Pass(2, CardSet(list(game.hand(2))[:3])))
    assert game.view(0).passed == CardSet(h0[:3])
    assert game.view(1).passed == CardSet(h1[:3])
    assert game.actions[0] == Pass(0, CardSet(h0[:3]))


@pytest.mark.parametrize(
    ("players", "preset", "offsets"),
    [
        (3, "standard", [1, -1, None]),
        (4, "standard", [1, -1, 2, None]),
        (5, "standard", [1, -1, 2, -2, None]),
        (6, "standard", [1, -1, 2, -2, 3, None]),
        (3, "source-002", [1, -1, None]),
        (5, "source-002", [1, -1, 2, -2, None]),
        (5, "source-003", [1, -1, 2, -2, None]),
        (6, "source-003", [1, -1, 2, -2, 3, None]),
        # 004 plays counter-clockwise: the player on your left plays before you.
        (4, "source-004", [-1, 1, 2, None]),
    ],
)
def test_pass_directions_over_a_cycle(players: int, preset: str, offsets: list[int | None]) -> None:
    rules = Rules.preset(preset, players)
    for deal, offset in enumerate(offsets * 2):
        game = Game(rules, seed=deal, first_deal=deal)
        if offset is None:
            assert game.pass_direction == "hold"
            assert game.phase == "playing", "a hold hand starts with play"
            view = game.view(0)
            assert view.pass_target is None and view.pass_source is None
            assert view.passed is None and view.received is None and view.passing_done
            continue
        dealt = [game.hand(s) for s in range(players)]
        chosen = [CardSet(list(h)[:3]) for h in dealt]
        for seat in range(players):
            assert game.view(seat).pass_target == (seat + offset) % players
            game.pass_cards(seat, chosen[seat])
        for seat in range(players):
            source = (seat - offset) % players
            assert game.view(seat).received == chosen[source]
            assert game.hand(seat) == dealt[seat] - chosen[seat] | chosen[source]


def test_no_cards_passed_means_every_deal_is_a_hold() -> None:
    game = Game(Rules(cards_passed=0), seed=1)
    for _ in range(4):
        assert game.phase == "playing" and game.pass_direction == "hold"
        deal_to_end(game, random.Random(0))


def test_two_cards_passed() -> None:
    game = Game(Rules(cards_passed=2), seed=1)
    with pytest.raises(IllegalActionError, match="pass exactly 2 cards, not 3"):
        game.pass_cards(0, list(game.hand(0))[:3])
    game.pass_cards(0, list(game.hand(0))[:2])
    assert len(game.view(0).passed or CardSet()) == 2


def _bad_pass_cases() -> Iterator[tuple[str, Callable[[Game], None], str]]:
    yield "too few", lambda g: g.pass_cards(0, list(g.hand(0))[:2]), "pass exactly 3 cards, not 2"
    yield "too many", lambda g: g.pass_cards(0, list(g.hand(0))[:4]), "pass exactly 3 cards, not 4"
    yield "not held", lambda g: g.pass_cards(0, list(g.hand(1))[:3]), "you do not hold"
    yield "bad text", lambda g: g.pass_cards(0, "2C 3C QX"), "(?i)cannot read 'QX'"
    yield "repeated", lambda g: g.pass_cards(0, "2C 2C 3C"), "named twice"
    yield "bad seat", lambda g: g.pass_cards(4, list(g.hand(0))[:3]), "no seat 4"
    yield "no seat", lambda g: g.pass_cards(-1, list(g.hand(0))[:3]), "no seat -1"
    yield "play now", lambda g: g.play(next(iter(g.hand(0)))), "cards are being passed"
    yield "moon now", lambda g: g.choose_moon(0, True), "no moon to choose"


@pytest.mark.parametrize(
    ("action", "message"),
    [(a, m) for _, a, m in _bad_pass_cases()],
    ids=[name for name, _, _ in _bad_pass_cases()],
)
def test_bad_passes_are_refused_and_change_nothing(
    action: Callable[[Game], None], message: str
) -> None:
    game = Game(Rules(), seed=5)
    game.pass_cards(1, list(game.hand(1))[:3])
    before, seen = snapshot(game), views(game)
    with pytest.raises(IllegalActionError, match=message):
        action(game)
    assert snapshot(game) == before
    assert views(game) == seen


def test_passing_twice_is_refused() -> None:
    game = Game(Rules(), seed=5)
    game.pass_cards(1, list(game.hand(1))[:3])
    key = game.deal.key()
    with pytest.raises(IllegalActionError, match="West has already passed"):
        game.pass_cards(1, list(game.hand(1))[:3])
    assert game.deal.key() == key


def test_no_passing_during_play() -> None:
    game = Game(hold_rules(), seed=5)
    key = game.deal.key()
    with pytest.raises(IllegalActionError, match="no passing now"):
        game.pass_cards(0, list(game.hand(0))[:3])
    assert game.deal.key() == key


# First lead and turn order --------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_first_lead_by_the_lowest_club_in_play(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    lowest = min(c for c in rules.deck if c.suit == 0)
    for seed in range(6):
        game = Game(rules, seed=seed)
        for seat in game.to_act():
            game.pass_cards(seat, list(game.hand(seat))[-rules.cards_passed :])
        leader = game.current_player
        assert leader is not None
        assert lowest in game.hand(leader)
        assert game.legal_plays() == CardSet([lowest])
        assert game.view(leader).legal == CardSet([lowest])
        assert game.view(leader).is_my_turn
        assert game.to_act() == [leader]


def test_five_players_of_002_lead_the_three_of_clubs() -> None:
    game = Game(Rules.preset("source-002", 5), seed=3, first_deal=4)
    assert game.phase == "playing"
    assert game.legal_plays() == CardSet.parse("3C")


def test_six_players_without_the_twos_lead_the_three_of_clubs() -> None:
    rules = Rules(players=6, removed=CardSet.parse("2C 2D 2S 2H"), pass_cycle=("hold",))
    game = Game(rules, seed=3)
    assert game.legal_plays() == CardSet.parse("3C")
    assert len(game.hand(0)) == 8


def test_turns_go_in_seat_order_and_the_winner_leads() -> None:
    game = scripted_game(hold_rules(), {0: "2C AS", 1: "3C", 2: "KC", 3: "4C"})
    assert game.current_player == 0
    play_sequence(game, "2C")
    assert game.current_player == 1
    play_sequence(game, "3C KC")
    assert game.current_player == 3
    play_sequence(game, "4C")
    assert game.current_player == 2, "the K♣ won the trick"
    trick = game.view(0).tricks[0]
    assert trick.leader == 0 and trick.winner == 2
    assert trick.plays(4) == [
        (0, Card.parse("2C")),
        (1, Card.parse("3C")),
        (2, Card.parse("KC")),
        (3, Card.parse("4C")),
    ]


def test_off_suit_cards_never_win() -> None:
    game = scripted_game(
        hold_rules(),
        {
            0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
            1: "AC AS KS 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
        },
    )
    play_sequence(game, "2C AC")
    assert game.current_player == 2
    view = game.view(0)
    assert view.leader == 0 and view.trick == ((0, Card.parse("2C")), (1, Card.parse("AC")))
    play_out_deal(game)
    first = game.results[0].tricks[0]
    assert first.winner == 1, "the A♣ beats every off-suit card"


# Illegal plays --------------------------------------------------------------------------

ILLEGAL_PLAYS = [
    # (fixed hands, cards played first, offending play, message)
    ({0: "2C 5C"}, "", "5C", "the first trick must be led with the 2♣"),
    ({0: "2C", 1: "3C 4D"}, "2C", "4D", "you hold ♣, and must follow suit"),
    ({0: "2C", 1: "3C AH"}, "2C", "AH", "you hold ♣, and must follow suit"),
    ({0: "2C", 1: "3C"}, "2C", "AH", "you do not hold the A♥"),
    ({0: "2C", 1: "2D QS"}, "2C", "QS", "the Q♠ may not be played on the first trick"),
    ({0: "2C", 1: "2D 5H"}, "2C", "5H", "hearts may not be played on the first trick"),
]


def test_hearts_may_not_be_led_before_they_are_broken() -> None:
    game = scripted_game(hold_rules(), {0: "2C", 1: "3C", 2: "4C", 3: "AC 2D 3H"})
    play_sequence(game, "2C 3C 4C AC")
    assert game.current_player == 3
    key = game.deal.key()
    with pytest.raises(IllegalActionError, match="hearts have not been broken: lead another suit"):
        game.play("3H")
    assert game.deal.key() == key
    assert Card.parse("3H") not in game.legal_plays()
    assert Card.parse("2D") in game.legal_plays()


@pytest.mark.parametrize(
    ("fixed", "before", "card", "message"),
    ILLEGAL_PLAYS,
    ids=[case[3] for case in ILLEGAL_PLAYS],
)
def test_illegal_plays_explain_and_change_nothing(
    fixed: dict[int, str], before: str, card: str, message: str
) -> None:
    game = scripted_game(hold_rules(), fixed)
    play_sequence(game, before)
    state, seen, key = snapshot(game), views(game), game.deal.key()
    assert Card.parse(card) not in game.legal_plays()
    with pytest.raises(IllegalActionError) as caught:
        game.play(card)
    assert str(caught.value) == message
    assert game.why_illegal(Card.parse(card)) == message
    assert game.deal.key() == key
    assert snapshot(game) == state
    assert views(game) == seen


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(
    ("attempt", "message"),
    [
        (lambda g: g.play("2C", seat=2), "it is South's turn, not North's"),
        (lambda g: g.play("2C", seat=9), "no seat 9"),
        (lambda g: g.play("ZZ"), "cannot read 'ZZ' as a card"),
        (lambda g: g.play(52), "not a card"),
        (lambda g: g.play(-3), "not a card"),
        (lambda g: g.apply(Play(1, Card.parse("2C"))), "it is South's turn, not West's"),
        (lambda g: g.choose_moon(0, True), "no moon to choose"),
        (lambda g: g.apply("2C"), "not an action"),  # type: ignore[arg-type]
        (lambda g: g.view(4), "no seat 4"),
    ],
    ids=[
        "wrong seat",
        "no seat",
        "bad text",
        "52",
        "-3",
        "apply wrong seat",
        "moon",
        "apply",
        "view",
    ],
)
def test_refused_actions_change_nothing(attempt: Callable[[Game], object], message: str) -> None:
    game = scripted_game(hold_rules(), SUIT_HANDS)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=message):
        attempt(game)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("attempt", "message"),
    [
        (lambda g: g.pass_cards(0, ["4S", "5S", "ZZ"]), "cannot read 'ZZ' as a card"),
        (lambda g: g.pass_cards(0, None), "cards: a CardSet, card names or card numbers"),
        (lambda g: g.pass_cards(0, [1.5, 2, 3]), "not a card: 1.5"),
        (lambda g: g.pass_cards(0, [True, 2, 3]), "not a card: True"),
        (lambda g: g.pass_cards(0, ["QS", "Q♠", "AH"]), "the Q♠ is named twice"),
        (lambda g: g.pass_cards("0", "QS AH KH"), "no seat '0'"),
        (lambda g: g.pass_cards(True, "QS AH KH"), "no seat True"),
        (lambda g: g.hand(True), "no seat True"),
        (lambda g: g.choose_moon(0, "false"), "others_add: True or False, not 'false'"),
        (lambda g: g.choose_moon(True, True), "no seat True"),
        # Found by a tester: compiled, these were TypeErrors that named no argument.
        (lambda g: g.apply(Pass("x", "QS AH KH")), "no seat 'x'"),  # type: ignore[arg-type]
        (lambda g: g.apply(Play("0", None)), "cards are being passed"),  # type: ignore[arg-type]
        (lambda g: g.apply(MoonChoice(0, "yes")), "others_add: True or False, not 'yes'"),  # type: ignore[arg-type]
        (lambda g: g.moon_totals(1), "others_add: True or False, not 1"),
    ],
    ids=["bad name", "None", "float", "bool card", "twice", "text seat", "bool seat",
         "hand bool", "moon text", "moon bool seat", "apply pass", "apply play",
         "apply moon", "moon totals"],
)  # fmt: skip
def test_inputs_of_any_type_are_refused_saying_why(
    attempt: Callable[[Game], object], message: str
) -> None:
    """The promise of :class:`Game`: a wrong input, of any type, raises
    IllegalActionError saying why and leaves the game unchanged."""
    game = Game(Rules(), seed=4)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        attempt(game)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"rules": 5}, "rules: a Rules object or a preset's name, not 5"),
        ({"rules": "nope"}, "preset: no preset named 'nope'"),
        ({"names": ["a", "b", "c", 5]}, "expected 4 names, got ['a', 'b', 'c', 5]"),
        ({"first_deal": "1"}, "first_deal: a deal number from 0, not '1'"),
    ],
)
def test_wrong_arguments_of_a_game_are_refused_saying_which(
    arguments: dict[str, Any], message: str
) -> None:
    """Found by a tester: compiled, a wrong type was a TypeError naming no argument."""
    with pytest.raises(ValueError, match=re.escape(message)):
        Game(**arguments)


def test_a_game_takes_a_presets_name_for_its_rules() -> None:
    assert Game("source-002", seed=1).rules == Rules.preset("source-002")
    game = Game("standard", seed=1)
    assert game.why_illegal("QS") == (
        "cards are being passed: play starts when every player has passed"
    )


def test_numpy_integers_are_card_and_seat_numbers() -> None:
    """Learning code hands out numpy integers: they are taken as the numbers they are,
    and the game keeps plain ints (it saves and reads back as before)."""
    np = pytest.importorskip("numpy")
    game = Game(Rules(), seed=4)
    for seat in range(4):
        cards = np.array([int(card) for card in game.hand(seat).cards()[:3]])
        game.pass_cards(np.int64(seat), cards)
    assert type(game.deal.hands[0]) is int
    assert game.hand(np.int64(2)) == game.hand(2)
    game.play(np.int64(int(game.legal_plays().cards()[0])))
    assert record.loads(record.dumps(game)).actions == game.actions
    # first_deal=np.int64(2) was refused: "a deal number from 0, not np.int64(2)".
    later = Game(Rules(), seed=4, first_deal=np.int64(2))
    assert type(later.first_deal) is int and later.hand(0) == Game(Rules(), 4, first_deal=2).hand(0)


def test_undo_with_nothing_to_undo() -> None:
    game = Game(Rules(), seed=1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    assert snapshot(game) == before


def test_play_accepts_card_int_and_text() -> None:
    game = scripted_game(hold_rules(), {0: "2C", 1: "3C", 2: "4C"})
    game.play(Card.parse("2C"))
    game.play(int(Card.parse("3C")))
    game.play("four of clubs", seat=2)
    assert [a.card for a in game.actions if isinstance(a, Play)] == [
        Card.parse("2C"),
        Card.parse("3C"),
        Card.parse("4C"),
    ]
    assert all(isinstance(a, Play) and type(a.card) is Card for a in game.actions)


# Scoring and the end of the game -------------------------------------------------------


def test_points_per_deal_and_totals() -> None:
    rules = hold_rules(moon=MoonScoring.NONE)
    game = scripted_game(rules, SUIT_HANDS, scores=[1, 2, 3, 4])
    play_out_deal(game)
    result = game.results[0]
    assert result.taken_points == (26, 0, 0, 0)
    assert result.points == (26, 0, 0, 0)
    assert result.shooter is None and result.shot is None
    assert game.scores == [27, 2, 3, 4]
    assert all(t.winner == 0 for t in result.tricks) and len(result.tricks) == 13
    assert game.view(2).deal_points == ((26, 0, 0, 0),)
    assert game.view(2).scores == (27, 2, 3, 4)


def test_points_taken_during_the_deal() -> None:
    game = scripted_game(hold_rules(), {0: "2C", 1: "3C", 2: "4C", 3: "5C QS"})
    play_sequence(game, "2C 3C 4C 5C")
    view = game.view(1)
    assert view.points_taken == (0, 0, 0, 0)
    assert view.won[3] == CardSet.parse("2C 3C 4C 5C")
    assert game.scores == [0, 0, 0, 0], "totals change only when the deal ends"


def test_scores_add_up_over_a_game() -> None:
    game = Game(Rules(), seed=21)
    play_random(game, random.Random(21))
    assert game.is_over
    totals = [sum(r.points[s] for r in game.results) for s in range(4)]
    assert game.scores == totals
    assert max(game.scores) >= 100
    before_last = [t - p for t, p in zip(totals, game.results[-1].points, strict=True)]
    assert max(before_last) < 100, "the game ended at the first deal reaching 100"


@pytest.mark.parametrize(
    ("start", "over", "winners"),
    [
        ([0, 80, 80, 90], True, [0]),
        ([0, 74, 0, 0], True, [0]),  # exactly 100 ends the game
        ([0, 73, 0, 0], False, []),  # 99 does not
        ([30, 4, 80, 80], True, [0, 1]),  # a tie for the lowest total
    ],
)
def test_game_over_at_the_end_score(start: list[int], over: bool, winners: list[int]) -> None:
    # Seat 0 shoots the moon: everyone else adds 26.
    game = scripted_game(hold_rules(), SUIT_HANDS, scores=start)
    play_out_deal(game)
    assert game.results[0].points == (0, 26, 26, 26)
    assert game.is_over is over
    assert game.winners == winners
    if over:
        assert game.phase == "game_over"
        assert game.to_act() == [] and game.current_player is None
        assert game.legal_plays() == CardSet() and game.legal_mask() == 0
        assert game.view(0).phase == "game_over"
        before = snapshot(game)
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.play("2C")
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.pass_cards(0, "2C 3C 4C")
        assert snapshot(game) == before
    else:
        assert game.phase in ("passing", "playing") and game.deal_number == 1


@pytest.mark.parametrize("end_score", [1, 30, 150])
def test_end_score_is_configurable(end_score: int) -> None:
    game = Game(Rules(end_score=end_score), seed=end_score)
    play_random(game, random.Random(end_score))
    assert game.is_over and max(game.scores) >= end_score
    for index in range(len(game.results) - 1):
        totals = [sum(r.points[s] for r in game.results[: index + 1]) for s in range(4)]
        assert max(totals) < end_score, "no earlier deal reached the end score"
    if end_score == 1:
        assert len(game.results) == 1


def test_tied_winners_share_the_win() -> None:
    rules = hold_rules(moon=MoonScoring.NONE, end_score=40)
    game = scripted_game(rules, SUIT_HANDS, scores=[0, 26, 30, 40])
    play_out_deal(game)
    assert game.scores == [26, 26, 30, 40]
    assert game.is_over and game.winners == [0, 1]


def test_a_score_at_the_end_before_the_deal_still_plays_the_deal() -> None:
    game = scripted_game(hold_rules(), SUIT_HANDS, scores=[0, 0, 0, 150])
    assert not game.is_over and game.winners == []
    play_out_deal(game)
    assert game.is_over and game.winners == [0]


# Undo -------------------------------------------------------------------------------------


def test_undo_of_each_pass_restores_the_state() -> None:
    game = Game(Rules(), seed=6)
    for seat in (3, 1, 0, 2):
        before, seen = snapshot(game), views(game)
        action = Pass(seat, CardSet(list(game.hand(seat))[:3]))
        game.apply(action)
        assert game.undo() == action
        assert snapshot(game) == before and views(game) == seen
        game.apply(action)
    assert game.phase == "playing"


def test_undo_back_to_the_start_and_replay() -> None:
    game = Game(Rules.preset("source-000"), seed=31)
    fresh = snapshot(Game(Rules.preset("source-000"), seed=31))
    actions = play_random(game, random.Random(31))
    end = snapshot(game)
    assert len(game.results) > 2
    while game.actions:
        game.undo()
    assert snapshot(game) == fresh
    for action in actions:
        game.apply(action)
    assert snapshot(game) == end


def test_undo_across_a_deal_boundary() -> None:
    game = Game(Rules(), seed=12)
    rng = random.Random(12)
    while len(game.results) == 0:
        before, seen = snapshot(game), views(game)
        action = random_action(game, rng)
        game.apply(action)
    assert game.deal_number == 1
    assert game.undo() == action
    assert snapshot(game) == before
    assert views(game) == seen
    assert game.scores == [0, 0, 0, 0] and game.results == []
    game.apply(action)
    assert game.deal_number == 1 and len(game.results) == 1


def test_undo_keeps_replaced_hands_of_a_later_deal() -> None:
    game = Game(Rules(), seed=12)
    deal_to_end(game, random.Random(3))
    hands = build_hands(game.rules, SUIT_HANDS)
    game.replace_hands(hands)
    game.pass_cards(0, "2C 3C 4C")
    game.undo()
    last = game.undo()
    assert game.deal_number == 0
    game.apply(last)
    assert [game.hand(s) for s in range(4)] == hands


def test_undo_of_a_moon_choice() -> None:
    rules = hold_rules("source-000")
    game = scripted_game(rules, SUIT_HANDS)
    play_out_deal(game)
    assert game.phase == "moon_choice"
    waiting, seen = snapshot(game), views(game)
    game.choose_moon(0, others_add=True)
    assert game.scores == [0, 26, 26, 26] and game.deal_number == 1
    assert game.undo() == MoonChoice(0, True)
    assert snapshot(game) == waiting and views(game) == seen
    game.choose_moon(0, others_add=False)
    assert game.scores == [-26, 0, 0, 0]
    assert game.results[-1].moon_choice == "subtract"
    game.undo()
    assert snapshot(game) == waiting
    # One more undo takes back the last card; the moon is no longer pending.
    last = game.undo()
    assert isinstance(last, Play) and game.phase == "playing"
    assert game.deal.shooter is None and game.deal.points is None
    game.apply(last)
    assert snapshot(game) == waiting


def test_undo_after_the_game_is_over() -> None:
    game = scripted_game(hold_rules(), SUIT_HANDS, scores=[0, 80, 80, 90])
    before_last: tuple[object, ...] = ()
    while not game.is_over:
        before_last = snapshot(game)
        game.play(next(iter(game.legal_plays())))
    game.undo()
    assert snapshot(game) == before_last
    assert not game.is_over and game.scores == [0, 80, 80, 90]


# Player views -----------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_views_hold_nothing_a_seat_may_not_know(config: tuple[str, int]) -> None:
    # Two deals with every seat's view checked after every action (the property tests
    # check sampled views over many more games).
    rules = Rules.preset(*config)
    for seed in range(1):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and game.deal_number < 2:
            for seat in range(rules.players):
                check_view_secrecy(game, seat)
            game.apply(random_action(game, rng))
            steps += 1


def test_view_fields_during_play() -> None:
    game = scripted_game(hold_rules(), {0: "2C", 1: "3C", 2: "2D 4C", 3: "5C AH KD"})
    play_sequence(game, "2C 3C 4C 5C")
    view = game.view(3)
    assert view.seat == 3 and view.names == game.names
    assert view.phase == "playing" and view.is_my_turn and view.to_move == 3
    assert view.leader == 3 and view.trick == ()
    assert len(view.tricks) == 1 and view.tricks[0].winner == 3
    assert view.played == CardSet.parse("2C 3C 4C 5C")
    assert view.hand_sizes == (12, 12, 12, 12)
    assert view.legal == game.legal_plays() and Card.parse("AH") not in view.legal
    assert not view.hearts_broken
    assert view.unseen == game.rules.deck - view.played - view.hand
    assert view.players == 4
    other = game.view(0)
    assert other.legal == CardSet() and not other.is_my_turn
    assert view.voids == (frozenset(),) * 4


def test_views_record_voids() -> None:
    game = scripted_game(hold_rules(), SUIT_HANDS)
    play_sequence(game, "2C 2D 2S")
    view = game.view(0)
    assert view.voids[1] == frozenset({0}) and view.voids[2] == frozenset({0})
    assert view.voids[3] == frozenset() and view.voids[0] == frozenset()


def test_hearts_broken_shows_in_the_views() -> None:
    game = scripted_game(hold_rules(), SUIT_HANDS)
    play_sequence(game, "2C 2D 2S")
    assert not game.view(0).hearts_broken
    play_sequence(game, "2H")
    assert all(game.view(s).hearts_broken for s in range(4))


def test_counterclockwise_pass_left_goes_to_west() -> None:
    # 000 names the seats West, North, East, South; at a real table West sits on South's
    # left whichever way play runs.  Seats are numbered in play order, so with
    # counter-clockwise play (004) the seat after South is East, and South's pass to the
    # left must reach the seat named West.
    game = Game(Rules.preset("source-004"), seed=1)
    assert game.pass_direction == "left"
    target = game.view(0).pass_target
    assert target is not None
    assert game.names[target] == "West"
    assert game.names == ("South", "East", "North", "West")


def test_clockwise_pass_left_goes_to_west() -> None:
    game = Game(Rules(), seed=1)
    target = game.view(0).pass_target
    assert target is not None and game.names[target] == "West"
    assert seat_names(4)[(0 + 1) % 4] == "West"


def test_a_view_lists_the_plays_of_the_deal_in_order() -> None:
    game = Game(seed=2, first_deal=3)  # a hold hand: play starts at once
    plays: list[tuple[int, Card]] = []
    while len(plays) < 6:
        seat = game.current_player
        assert seat is not None
        card = next(iter(game.legal_plays()))
        game.play(card, seat)
        plays.append((seat, card))
        assert game.view((seat + 1) % 4).plays == plays
    assert len(game.view(0).tricks) == 1 and len(game.view(0).trick) == 2


def test_the_words_of_a_phase_are_imported_from_the_package() -> None:
    """Found by a tester: the README shows ``Phase.PASSING``, but ``Phase`` could not be
    imported from ``openhearts``."""
    from openhearts import MoonScore, Phase, Shot

    assert Game(Rules(), seed=1).phase is Phase.PASSING
    assert {Shot.MOON, Shot.SUN} <= set(Shot) and len(MoonScore) >= 2
