"""The rare corners of the rules: first-trick options, breaking hearts, moon, sun, J♦."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import (
    MOON_WITHOUT_JACK,
    SUIT_HANDS,
    hold_rules,
    play_out_deal,
    play_sequence,
    scripted_game,
    snapshot,
)
from openhearts import (
    Card,
    CardSet,
    FirstTrick,
    Game,
    HeartsBreak,
    IllegalActionError,
    MoonScoring,
    Rules,
    conventional_moon_choice,
)

HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def first_trick_game(option: FirstTrick, seat1: str, **changes: Any) -> Game:
    """A hold deal: South leads the 2♣, West (seat 1, holding ``seat1``) plays next."""
    rules = hold_rules(first_trick=option, **changes)
    game = scripted_game(rules, {0: "2C", 1: seat1})
    play_sequence(game, "2C")
    assert game.current_player == 1
    return game


# First trick: a player void in clubs holding only hearts and the Q♠ ------------------

ONLY_HEARTS_AND_QUEEN = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"


@pytest.mark.parametrize(
    ("option", "legal"),
    [
        (FirstTrick.ALLOWED, ONLY_HEARTS_AND_QUEEN),
        # "unless the player holds no non-point cards" (000): any point card, Q♠ included.
        (FirstTrick.NO_POINTS_UNLESS_FORCED, ONLY_HEARTS_AND_QUEEN),
        # "even if you have no clubs" (001, 004): the player must still move; a heart.
        (FirstTrick.NO_POINTS, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
        # Only hearts are barred (002): the Q♠ is the one card that may be played.
        (FirstTrick.NO_HEARTS, "QS"),
    ],
)
def test_only_hearts_and_the_queen_on_the_first_trick(option: FirstTrick, legal: str) -> None:
    game = first_trick_game(option, ONLY_HEARTS_AND_QUEEN)
    assert game.legal_plays() == CardSet.parse(legal)
    assert game.view(1).legal == CardSet.parse(legal)
    assert game.legal_plays(), "a player can always move"


def test_no_points_refuses_the_queen_when_only_hearts_and_queen_are_held() -> None:
    game = first_trick_game(FirstTrick.NO_POINTS, ONLY_HEARTS_AND_QUEEN)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="the Q♠ may not be played on the first trick"):
        game.play("QS")
    assert snapshot(game) == before
    game.play("KH")
    assert game.view(0).hearts_broken, "the forced heart breaks hearts"


def test_no_hearts_refuses_a_heart_when_the_queen_is_held() -> None:
    game = first_trick_game(FirstTrick.NO_HEARTS, ONLY_HEARTS_AND_QUEEN)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="hearts may not be played on the first trick"):
        game.play("KH")
    assert snapshot(game) == before
    game.play("QS")
    assert not game.view(0).hearts_broken, "the Q♠ does not break hearts under 'heart'"


@pytest.mark.parametrize("option", list(FirstTrick))
def test_only_hearts_on_the_first_trick(option: FirstTrick) -> None:
    game = first_trick_game(option, HEARTS)
    assert game.legal_plays() == CardSet.parse(HEARTS)
    game.play("AH")
    assert game.view(2).hearts_broken


MIXED = "2D QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"


@pytest.mark.parametrize(
    ("option", "legal"),
    [
        (FirstTrick.ALLOWED, MIXED),
        (FirstTrick.NO_POINTS_UNLESS_FORCED, "2D"),
        (FirstTrick.NO_POINTS, "2D"),
        (FirstTrick.NO_HEARTS, "2D QS"),
    ],
)
def test_void_in_clubs_with_a_safe_card(option: FirstTrick, legal: str) -> None:
    game = first_trick_game(option, MIXED)
    assert game.legal_plays() == CardSet.parse(legal)


@pytest.mark.parametrize("option", list(FirstTrick))
def test_a_club_must_follow_on_the_first_trick(option: FirstTrick) -> None:
    game = first_trick_game(option, "3C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    assert game.legal_plays() == CardSet.parse("3C")
    with pytest.raises(IllegalActionError, match="you hold ♣, and must follow suit"):
        game.play("QS")


def test_queen_discard_on_a_later_trick() -> None:
    # Seat 1 is void in clubs: the Q♠ is barred on the first club trick, allowed on the next.
    rules = hold_rules()
    game = scripted_game(
        rules,
        {
            0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            1: "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        },
    )
    play_sequence(game, "2C")
    assert Card.parse("QS") not in game.legal_plays()
    play_sequence(game, "2D")
    play_out_trick(game)
    play_sequence(game, "3C")
    assert Card.parse("QS") in game.legal_plays()


def play_out_trick(game: Game) -> None:
    """Finish the trick in progress with the lowest legal cards."""
    while game.view(0).trick:
        game.play(next(iter(game.legal_plays())))


@pytest.mark.parametrize(
    ("option", "legal"),
    [
        (FirstTrick.NO_POINTS_UNLESS_FORCED, "KS"),
        (FirstTrick.NO_POINTS, "KS"),
        (FirstTrick.NO_HEARTS, "QS KS"),
        (FirstTrick.ALLOWED, "QS KS"),
    ],
)
def test_first_trick_led_with_a_spade_bars_the_queen_when_following(
    option: FirstTrick, legal: str
) -> None:
    rules = hold_rules(first_trick=option, first_lead=Card.parse("3S"))
    game = scripted_game(rules, {0: "3S", 1: "QS KS"})
    assert game.legal_plays() == CardSet.parse("3S")
    play_sequence(game, "3S")
    assert game.legal_plays() == CardSet.parse(legal)


@pytest.mark.parametrize("option", list(FirstTrick))
def test_following_suit_beats_the_first_trick_bar(option: FirstTrick) -> None:
    # The Q♠ is this player's only spade: following suit comes first.
    rules = hold_rules(first_trick=option, first_lead=Card.parse("3S"))
    game = scripted_game(rules, {0: "3S", 1: "QS 2D 2H"})
    play_sequence(game, "3S")
    assert game.legal_plays() == CardSet.parse("QS")


# Breaking hearts ----------------------------------------------------------------------

# Seat 3 wins the first trick with the A♣ and leads the second; seat 1, void in clubs,
# discards on the first trick.
BREAK_HANDS = {
    0: "2C 3C",
    1: "2D 3D QS 2H 3H",
    2: "4C 5C",
    3: "AC 4D 4H 5H",
}


def test_a_heart_breaks_hearts() -> None:
    game = scripted_game(hold_rules(first_trick=FirstTrick.ALLOWED), BREAK_HANDS)
    play_sequence(game, "2C 2H 4C AC")
    assert game.view(3).hearts_broken
    assert CardSet.parse("4H 5H") <= game.legal_plays()


@pytest.mark.parametrize(
    ("option", "broken"),
    [(HeartsBreak.HEART, False), (HeartsBreak.POINT_CARD, True)],
)
def test_the_queen_breaks_hearts_only_under_point_card(option: HeartsBreak, broken: bool) -> None:
    rules = hold_rules(first_trick=FirstTrick.ALLOWED, hearts_break=option)
    game = scripted_game(rules, BREAK_HANDS)
    play_sequence(game, "2C QS 4C AC")
    assert game.current_player == 3
    assert game.view(3).hearts_broken is broken
    hearts = CardSet.parse("4H 5H")
    assert (hearts <= game.legal_plays()) is broken
    if not broken:
        with pytest.raises(IllegalActionError, match="hearts have not been broken"):
            game.play("4H")


def test_never_restricted_allows_leading_hearts_at_once() -> None:
    rules = hold_rules(hearts_break=HeartsBreak.NEVER_RESTRICTED)
    game = scripted_game(rules, BREAK_HANDS)
    assert game.view(0).hearts_broken
    play_sequence(game, "2C 2D 4C AC")
    assert game.current_player == 3
    assert CardSet.parse("4D 4H 5H") <= game.legal_plays()
    game.play("4H")
    assert game.view(0).trick[0][1] == Card.parse("4H")


@pytest.mark.parametrize("option", [HeartsBreak.HEART, HeartsBreak.POINT_CARD])
def test_a_leader_holding_only_hearts_may_lead_one(option: HeartsBreak) -> None:
    rules = hold_rules(hearts_break=option)
    # Seat 3 wins the first trick with the A♣ and then holds nothing but hearts.
    game = scripted_game(
        rules, {0: "2C", 1: "3C", 2: "4C", 3: "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"}
    )
    play_sequence(game, "2C 3C 4C AC")
    assert game.current_player == 3
    assert not game.view(3).hearts_broken
    assert game.legal_plays() == CardSet.parse("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    game.play("7H")
    assert game.view(0).hearts_broken, "leading a heart breaks hearts"


@pytest.mark.parametrize("option", [HeartsBreak.HEART, HeartsBreak.POINT_CARD])
def test_a_leader_holding_only_hearts_and_the_queen_leads_the_queen(
    option: HeartsBreak,
) -> None:
    rules = hold_rules(hearts_break=option)
    game = scripted_game(
        rules, {0: "2C", 1: "3C", 2: "4C", 3: "AC QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"}
    )
    play_sequence(game, "2C 3C 4C AC")
    assert game.legal_plays() == CardSet.parse("QS")
    game.play("QS")
    assert game.view(0).hearts_broken is (option is HeartsBreak.POINT_CARD)


def test_hearts_break_when_undone_is_unbroken_again() -> None:
    game = scripted_game(hold_rules(first_trick=FirstTrick.ALLOWED), BREAK_HANDS)
    play_sequence(game, "2C 2H")
    assert game.view(0).hearts_broken
    game.undo()
    assert not game.view(0).hearts_broken


# Moon ---------------------------------------------------------------------------------


def finished(rules: Rules, fixed: dict[int, str] | None = None, **kwargs: Any) -> Game:
    game = scripted_game(rules, fixed or dict(SUIT_HANDS), **kwargs)
    play_out_deal(game)
    return game


@pytest.mark.parametrize(
    ("moon", "points", "shooter"),
    [
        (MoonScoring.OTHERS_ADD, (0, 26, 26, 26), 0),
        (MoonScoring.SHOOTER_SUBTRACTS, (-26, 0, 0, 0), 0),
        (MoonScoring.NONE, (26, 0, 0, 0), None),
    ],
)
def test_moon_scoring(moon: MoonScoring, points: tuple[int, ...], shooter: int | None) -> None:
    game = finished(hold_rules(moon=moon))
    result = game.results[0]
    assert result.taken_points == (26, 0, 0, 0)
    assert result.points == points
    assert result.shooter == shooter
    assert result.shot == (None if shooter is None else "moon")
    assert result.moon_choice is None
    assert game.scores == list(points)


def test_shooter_chooses_waits_for_the_shooter() -> None:
    game = finished(hold_rules("source-000"))
    assert game.phase == "moon_choice"
    assert game.to_act() == [0] and game.current_player == 0
    assert game.legal_plays() == CardSet()
    assert game.results == [] and game.scores == [0, 0, 0, 0]
    view = game.view(0)
    assert view.phase == "moon_choice" and view.to_move == 0 and view.legal == CardSet()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="South must first choose how to score the moon"):
        game.play("2C")
    with pytest.raises(IllegalActionError, match="only the player who shot the moon chooses"):
        game.choose_moon(1, others_add=True)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("others_add", "points", "word"),
    [(True, (0, 26, 26, 26), "add"), (False, (-26, 0, 0, 0), "subtract")],
)
def test_shooter_chooses_both_choices(others_add: bool, points: tuple[int, ...], word: str) -> None:
    game = finished(hold_rules("source-000"), scores=[10, 20, 30, 40])
    game.choose_moon(0, others_add=others_add)
    result = game.results[0]
    assert result.points == points and result.moon_choice == word
    assert result.shooter == 0 and result.shot == "moon"
    assert game.scores == [s + p for s, p in zip([10, 20, 30, 40], points, strict=True)]
    assert game.deal_number == 1 and game.phase in ("passing", "playing")


@pytest.mark.parametrize(
    ("scores", "others_add"),
    [
        ([0, 0, 0, 0], True),  # 0 against 26 each: adding leaves the shooter lowest
        ([10, 90, 90, 90], True),
        ([80, 10, 20, 30], False),  # adding would leave 80 against 36: subtract
        ([50, 30, 60, 60], True),  # 50 against 56: still lowest
        ([56, 30, 60, 60], False),  # 56 against 56: not alone in the lead, so subtract
        ([57, 30, 60, 60], False),
    ],
)
def test_conventional_moon_choice(scores: list[int], others_add: bool) -> None:
    # 000: "the second option [everyone else +26] is chosen unless it would not make the
    # shooter the low scorer".
    assert conventional_moon_choice(scores, 0, 26) is others_add
    game = finished(hold_rules("source-000"), scores=scores)
    assert game.suggested_moon_choice() is others_add


def test_conventional_choice_for_another_shooter() -> None:
    assert conventional_moon_choice([90, 10, 90, 90], shooter=1, points=26) is True
    assert conventional_moon_choice([0, 40, 10, 10], shooter=1, points=26) is False


def test_moon_needs_every_point_card() -> None:
    # Seat 1 wins the first trick with the A♣ and a forced heart in it; seat 0 then takes
    # every other trick: 25 points, one short of the moon.
    hands = {
        0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS",
        1: "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        2: SUIT_HANDS[1],
        3: SUIT_HANDS[3],
    }
    game = finished(hold_rules(), hands)
    result = game.results[0]
    assert result.taken_points == (25, 1, 0, 0)
    assert result.shooter is None and result.shot is None
    assert result.points == (25, 1, 0, 0)


# Moon and sun with cards removed -------------------------------------------------------

THREE_PLAYERS_NO_2H = {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC AS KS AD KD"}
# Seat 0 wins every trick: it holds all the clubs and the top two diamonds and spades.
SIX_PLAYERS = {0: "7C 8C 9C TC JC QC KC AC", 1: "2C"}
# Six players without the four 3s: seat 1 leads the 2♣, seat 0 (last to play) wins with
# any of its clubs, which beat every other club, and so takes every trick.


def test_three_player_moon_with_a_heart_removed_is_25() -> None:
    rules = hold_rules(players=3, removed=CardSet.parse("2H"))
    assert rules.points_in_play == 25 and rules.hand_size == 17
    game = finished(rules, THREE_PLAYERS_NO_2H)
    result = game.results[0]
    assert result.taken_points == (25, 0, 0)
    assert result.points == (0, 25, 25) and result.shot == "moon"


@pytest.mark.parametrize(
    ("preset", "points", "shot"),
    [
        ("standard", (0, 25, 25, 25, 25, 25), "moon"),
        ("source-003", (-25, 25, 25, 25, 25, 25), "sun"),
    ],
)
def test_six_player_moon_and_sun_are_25(preset: str, points: tuple[int, ...], shot: str) -> None:
    rules = hold_rules(preset, 6)
    assert rules.removed == CardSet.parse("3C 3D 3S 3H")
    game = finished(rules, SIX_PLAYERS)
    result = game.results[0]
    assert all(t.winner == 0 for t in result.tricks) and len(result.tricks) == 8
    assert result.taken_points[0] == 25
    assert result.points == points and result.shot == shot and result.shooter == 0


@pytest.mark.parametrize(
    ("players", "removed", "fixed"),
    [
        # Seat 1 leads the lowest club; seat 0 wins it and every later trick.
        (3, "2D", {0: "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC KD AD KS AS AH", 1: "2C"}),
        (5, "2C 2D", {0: "5C 6C 7C 8C 9C TC JC QC KC AC", 1: "3C"}),
    ],
)
def test_source_002_moon_subtracts_26_with_the_twos_removed(
    players: int, removed: str, fixed: dict[int, str]
) -> None:
    rules = hold_rules("source-002", players)
    assert rules.removed == CardSet.parse(removed) and rules.points_in_play == 26
    game = finished(rules, fixed)
    result = game.results[0]
    assert result.tricks[0].leader == 1
    assert result.tricks[0].cards[0] == rules.first_lead_card
    assert all(t.winner == 0 for t in result.tricks)
    assert result.points == (-26,) + (0,) * (players - 1)
    assert result.shot == "moon"


# Sun ----------------------------------------------------------------------------------


def test_sun_for_taking_every_trick() -> None:
    game = finished(hold_rules("source-003"))
    result = game.results[0]
    assert result.shot == "sun" and result.shooter == 0
    assert result.points == (-26, 26, 26, 26)
    assert game.scores == [-26, 26, 26, 26]


def test_sun_replaces_a_chosen_moon() -> None:
    game = finished(hold_rules("source-000", sun=True))
    assert game.phase != "moon_choice"
    assert game.results[0].shot == "sun" and game.results[0].points == (-26, 26, 26, 26)


def test_a_moon_without_every_trick_is_not_a_sun() -> None:
    game = finished(hold_rules("source-003"), dict(MOON_WITHOUT_JACK))
    result = game.results[0]
    assert result.tricks[0].winner == 1
    assert result.shot == "moon" and result.points == (0, 26, 26, 26)


def test_no_sun_unless_the_rules_say_so() -> None:
    game = finished(hold_rules())
    assert game.results[0].shot == "moon"


# The J♦ -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "fixed", "taken", "points", "shot"),
    [
        # The shooter also took the J♦: everyone else +26, the shooter -10.
        ({}, SUIT_HANDS, (16, 0, 0, 0), (-10, 26, 26, 26), "moon"),
        # The J♦ is not needed to shoot: seat 1 took it on the first trick.
        ({}, MOON_WITHOUT_JACK, (26, -10, 0, 0), (0, 16, 26, 26), "moon"),
        (
            {"moon": MoonScoring.SHOOTER_SUBTRACTS},
            MOON_WITHOUT_JACK,
            (26, -10, 0, 0),
            (-26, -10, 0, 0),
            "moon",
        ),
        ({"moon": MoonScoring.NONE}, SUIT_HANDS, (16, 0, 0, 0), (16, 0, 0, 0), None),
        ({"sun": True}, SUIT_HANDS, (16, 0, 0, 0), (-36, 26, 26, 26), "sun"),
    ],
)
def test_jack_of_diamonds(
    changes: dict[str, Any],
    fixed: dict[int, str],
    taken: tuple[int, ...],
    points: tuple[int, ...],
    shot: str | None,
) -> None:
    game = finished(hold_rules(jack_of_diamonds=True, **changes), dict(fixed))
    result = game.results[0]
    assert result.taken_points == taken
    assert result.points == points
    assert result.shot == shot


def test_jack_of_diamonds_with_a_chosen_moon() -> None:
    game = finished(hold_rules("source-000", jack_of_diamonds=True))
    game.choose_moon(0, others_add=True)
    assert game.results[0].points == (-10, 26, 26, 26)


def test_jack_of_diamonds_counts_only_in_its_variant() -> None:
    fixed = {0: "2C AC", 1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", 2: "3C", 3: "4C"}
    for jack, value in ((True, -10), (False, 0)):
        game = scripted_game(hold_rules(jack_of_diamonds=jack), fixed)
        play_sequence(game, "2C JD 3C 4C")
        assert game.view(0).points_taken == (0, 0, 0, value)
        assert game.view(0).won[3] == CardSet.parse("2C JD 3C 4C")


def test_moon_without_the_queen_in_play_is_every_heart() -> None:
    rules = hold_rules(removed=CardSet.parse("QS 2D 3D 4D"))
    assert rules.points_in_play == 13 and rules.hand_size == 12
    # Seat 1 leads the 2♣; seat 0, last to play, wins with any club and then runs them.
    game = finished(rules, {0: "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", 1: "2C"})
    result = game.results[0]
    assert result.taken_points == (13, 0, 0, 0)
    assert result.points == (0, 13, 13, 13) and result.shot == "moon"


def test_the_shooter_chooses_even_without_the_last_trick() -> None:
    # Seat 0 takes every point card but loses the pointless last trick to seat 1; the
    # choice is still the shooter's.  Seat 0 plays its lowest legal card (clubs before the
    # 2♦), the others their highest (hearts and high cards first).
    rules = hold_rules("source-000", first_trick=FirstTrick.ALLOWED)
    fixed = {
        0: "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D",
        1: "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        2: "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H",
        3: "2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    }
    game = scripted_game(rules, fixed)
    play_out_deal(game, pick=lambda legal: legal[0] if game.current_player == 0 else legal[-1])
    state = game.deal
    assert state.tricks[-1][2] == 1, "seat 1 won the last trick"
    assert game.phase == "moon_choice"
    assert game.current_player == 0 and game.to_act() == [0]
    assert game.view(2).to_move == 0
    with pytest.raises(IllegalActionError, match="only the player who shot the moon chooses"):
        game.choose_moon(1, others_add=False)
    game.choose_moon(0, others_add=False)
    result = game.results[0]
    assert result.shooter == 0 and result.points == (-26, 0, 0, 0)
    assert result.taken_points == (26, 0, 0, 0)
