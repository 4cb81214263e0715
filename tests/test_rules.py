"""Rules as data: defaults, derived facts, validation messages, presets against RULES.md."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import CONFIGS, PRESET_PLAYERS, config_id
from openhearts import (
    PRESETS,
    CardSet,
    FirstTrick,
    HeartsBreak,
    MoonScoring,
    Rules,
    RulesError,
    Seating,
)
from openhearts.options import add_rules_arguments, parse_option, rules_from_args
from openhearts.rules import seat_names


def make(**options: Any) -> Rules:
    """Build rules from options as a user types them (card names as text, and so on)."""
    return Rules(**options)


# Derived facts ----------------------------------------------------------------------


def test_defaults_are_the_standard_four_player_game() -> None:
    rules = Rules()
    assert rules == Rules.preset("standard")
    assert rules.players == 4
    assert rules.removed == CardSet()
    assert rules.hand_size == 13
    assert rules.pass_cycle == ("left", "right", "across", "hold")
    assert rules.cards_passed == 3
    assert str(rules.first_lead_card) == "2C"
    assert rules.first_trick is FirstTrick.NO_POINTS_UNLESS_FORCED
    assert rules.hearts_break is HeartsBreak.HEART
    assert rules.moon is MoonScoring.OTHERS_ADD
    assert rules.sun is False and rules.jack_of_diamonds is False
    assert rules.end_score == 100
    assert rules.seating is Seating.FIXED
    assert rules.first_dealer == 0
    assert rules.direction == "clockwise"
    assert rules.points_in_play == 26
    assert len(rules.deck) == 52


@pytest.mark.parametrize(
    ("players", "removed", "hand_size", "cycle", "points"),
    [
        (3, "2D", 17, ("left", "right", "hold"), 26),
        (4, "", 13, ("left", "right", "across", "hold"), 26),
        (5, "2D 2S", 10, ("left", "right", "left2", "right2", "hold"), 26),
        (6, "3C 3D 3S 3H", 8, ("left", "right", "left2", "right2", "across", "hold"), 25),
    ],
)
def test_player_count_defaults(
    players: int, removed: str, hand_size: int, cycle: tuple[str, ...], points: int
) -> None:
    for preset in ("standard", "source-003"):
        rules = Rules.preset(preset, players)
        assert rules.removed == CardSet.parse(removed)
        assert rules.hand_size == hand_size
        assert hand_size * players + len(CardSet.parse(removed)) == 52
        assert rules.pass_cycle == cycle
        assert rules.points_in_play == points
        assert str(rules.first_lead_card) == "2C"
        assert len(rules.deck) == 52 - len(rules.removed or CardSet())


def test_first_lead_is_the_lowest_club_in_play() -> None:
    assert str(Rules.preset("source-002", players=5).first_lead_card) == "3C"
    assert str(make(players=6, removed="2C 2D 2S 2H").first_lead_card) == "3C"
    assert str(make(players=4, removed="2C 3C 4C 5C").first_lead_card) == "6C"
    assert str(make(first_lead="3S").first_lead_card) == "3S"


def test_six_players_without_the_twos_keeps_every_heart_but_the_two() -> None:
    rules = make(players=6, removed="2C 2D 2S 2H")
    assert rules.hand_size == 8
    assert rules.points_in_play == 25


def test_points_in_play_follow_the_removed_cards() -> None:
    assert make(players=4, removed="QS 2C 3C 4C").points_in_play == 13
    assert make(players=4, removed="2H 3H 4H 5H").points_in_play == 22
    assert make(players=3, removed="2H").points_in_play == 25


@pytest.mark.parametrize(
    ("players", "direction", "expected"),
    [
        (3, "left", 1),
        (3, "right", 2),
        (4, "left", 1),
        (4, "right", 3),
        (4, "across", 2),
        (5, "left", 1),
        (5, "right", 4),
        (5, "left2", 2),
        (5, "right2", 3),
        (6, "left", 1),
        (6, "right", 5),
        (6, "left2", 2),
        (6, "right2", 4),
        (6, "across", 3),
        (6, "left3", 3),
    ],
)
def test_pass_offsets_clockwise(players: int, direction: str, expected: int) -> None:
    rules = make(players=players, pass_cycle=(direction,))
    assert rules.pass_offset(0) == expected
    # Counter-clockwise play puts the player on your left before you in play order.
    other = make(players=players, pass_cycle=(direction,), direction="counterclockwise")
    assert other.pass_offset(0) == (-expected) % players


def test_hold_and_no_cards_passed_mean_no_pass() -> None:
    assert make(pass_cycle=("hold",)).pass_offset(0) == 0
    assert make(cards_passed=0).pass_offset(0) == 0
    assert make(cards_passed=0).pass_offset(1) == 0


def test_pass_cycle_repeats() -> None:
    rules = Rules()
    assert [rules.pass_direction(n) for n in range(9)] == [
        "left", "right", "across", "hold", "left", "right", "across", "hold", "left",
    ]  # fmt: skip
    assert [rules.pass_offset(n) for n in range(4)] == [1, 3, 2, 0]


def test_pass_cycle_accepts_text() -> None:
    assert make(pass_cycle="left, RIGHT hold").pass_cycle == ("left", "right", "hold")
    assert make(pass_cycle=["left", "across"]).pass_cycle == ("left", "across")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_dealer_rotates_one_seat_per_deal_from_south(players: int) -> None:
    rules = make(players=players)
    assert [rules.dealer(n) for n in range(2 * players)] == [
        n % players for n in range(2 * players)
    ]
    assert seat_names(players)[rules.dealer(0)] == "South"
    shifted = make(players=players, first_dealer=players - 1)
    assert shifted.dealer(0) == players - 1 and shifted.dealer(1) == 0


def test_seat_names_in_clockwise_play_order() -> None:
    # Clockwise as seen from above: South, then West on South's left, North, East.
    assert seat_names(4) == ("South", "West", "North", "East")
    for players in (3, 4, 5, 6):
        names = seat_names(players)
        assert len(names) == players == len(set(names))
        assert names[0] == "South"


def test_source_000_pass_direction_by_dealer() -> None:
    # "When South deals the pass direction is always left, and when East deals there is
    # no exchange."
    rules = Rules.preset("source-000")
    names = seat_names(4)
    for deal in range(12):
        dealer = names[rules.dealer(deal)]
        if dealer == "South":
            assert rules.pass_direction(deal) == "left"
        if dealer == "East":
            assert rules.pass_offset(deal) == 0


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.players = 5  # type: ignore[misc]
    assert hash(rules) == hash(Rules())
    assert rules != make(end_score=50)


def test_replace_rechecks_and_follows_the_player_count() -> None:
    rules = Rules().replace(players=6)
    assert rules.removed == CardSet.parse("3C 3D 3S 3H") and rules.hand_size == 8
    assert Rules().replace(end_score=50).end_score == 50
    with pytest.raises(RulesError, match=r"^players:"):
        Rules().replace(players=7)


def test_describe_summarises_the_options() -> None:
    text = "\n".join(Rules.preset("source-003", players=6, jack_of_diamonds=True).describe())
    assert "6 players, 8 cards each" in text
    assert "25" in text, "the moon's value with a heart removed"
    assert "sun" in text.lower()
    assert "J♦" in text
    assert "100" in text
    plain = "\n".join(Rules().describe())
    assert "sun" not in plain.lower() and "J♦" not in plain
    assert "2♣" in plain


@pytest.mark.parametrize("hearts_break", [HeartsBreak.HEART, HeartsBreak.POINT_CARD])
def test_describe_says_a_hand_of_hearts_may_lead_one(hearts_break: HeartsBreak) -> None:
    """The line read "only after a heart has been played", as if a leader holding
    nothing but hearts could not move; the engine lets that player lead one."""
    lines = Rules(hearts_break=hearts_break).describe()
    leading = next(line for line in lines if line.startswith("Leading hearts: "))
    assert leading.endswith(", or when you hold nothing but hearts")
    free = Rules(hearts_break=HeartsBreak.NEVER_RESTRICTED).describe()
    assert "Leading hearts: allowed at any time" in free


def test_describe_says_the_direction_seating_and_first_dealer() -> None:
    """source-004 read exactly like source-001, and 002's random order went unsaid."""
    assert Rules.preset("source-004").describe() == [
        *Rules.preset("source-001").describe()[:-1],
        "Play runs counter-clockwise",
        "The game ends when someone reaches 100",
    ]
    assert "The order of play is drawn at random at the start" in (
        Rules.preset("source-002").describe()
    )
    assert "East deals first" in Rules(first_dealer=3).describe()
    assert "West deals first" in Rules(first_dealer=3, direction="counterclockwise").describe()
    plain = " ".join(Rules().describe())
    assert "counter" not in plain and "random" not in plain and "deals first" not in plain


# Validation -------------------------------------------------------------------------

INVALID: list[tuple[dict[str, Any], str]] = [
    ({"players": 7}, "players"),
    ({"players": 2}, "players"),
    ({"players": 0}, "players"),
    ({"players": "4"}, "players"),
    ({"players": True}, "players"),
    ({"players": 4.0}, "players"),
    ({"players": 4, "removed": "2D"}, "removed"),
    ({"players": 5, "removed": ""}, "removed"),
    ({"players": 3, "removed": "2C 2D"}, "removed"),
    ({"players": 6, "removed": "3C 3D 3S"}, "removed"),
    ({"removed": "QX"}, "removed"),
    ({"removed": "QS QS"}, "removed"),
    ({"players": 4, "pass_cycle": ("left4",)}, "pass_cycle"),
    ({"players": 3, "pass_cycle": ("left3",)}, "pass_cycle"),
    ({"players": 5, "pass_cycle": ("right5",)}, "pass_cycle"),
    ({"players": 6, "pass_cycle": ("left12",)}, "pass_cycle"),
    ({"players": 4, "pass_cycle": ("left0",)}, "pass_cycle"),
    ({"players": 3, "pass_cycle": ("across",)}, "pass_cycle"),
    ({"players": 5, "pass_cycle": ("left", "across")}, "pass_cycle"),
    ({"pass_cycle": ("sideways",)}, "pass_cycle"),
    ({"pass_cycle": ("self",)}, "pass_cycle"),
    ({"pass_cycle": ()}, "pass_cycle"),
    ({"cards_passed": -1}, "cards_passed"),
    ({"cards_passed": 14}, "cards_passed"),
    ({"players": 6, "cards_passed": 9}, "cards_passed"),
    ({"cards_passed": "3"}, "cards_passed"),
    ({"first_lead": "QX"}, "first_lead"),
    ({"players": 5, "removed": "2C 2D", "first_lead": "2C"}, "first_lead"),
    ({"players": 3, "removed": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}, "first_lead"),
    ({"first_trick": "sometimes"}, "first_trick"),
    ({"hearts_break": "spade"}, "hearts_break"),
    ({"moon": "sun"}, "moon"),
    ({"seating": "random"}, "seating"),
    ({"end_score": 0}, "end_score"),
    ({"end_score": -5}, "end_score"),
    ({"end_score": "100"}, "end_score"),
    ({"first_dealer": 4}, "first_dealer"),
    ({"first_dealer": -1}, "first_dealer"),
    ({"first_dealer": True}, "first_dealer"),
    ({"first_dealer": "1"}, "first_dealer"),
    ({"direction": "widdershins"}, "direction"),
]


@pytest.mark.parametrize(("options", "option"), INVALID, ids=[f"{o}" for o, _ in INVALID])
def test_invalid_options_are_refused_naming_the_option(
    options: dict[str, Any], option: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**options)
    message = str(caught.value)
    assert message.startswith(f"{option}:"), message
    assert len(message) > len(option) + 10, "the message explains, not only names"


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_messages_say_what_is_wrong() -> None:
    with pytest.raises(RulesError, match="3 to 6 players, not 7"):
        make(players=7)
    # "1 card(s) removed" before.
    with pytest.raises(RulesError, match="with 1 card removed, 51 cards cannot be dealt evenly"):
        make(removed="2D")
    with pytest.raises(RulesError, match="with 2 cards removed, 50 cards cannot be dealt"):
        make(removed="2D 3D")
    with pytest.raises(RulesError, match="'left4' points back at the passer"):
        make(pass_cycle=("left4",))
    # Found by a tester: "left5" at a table of four passed one seat on and was said as
    # "five seats to the left"; a distance of 5,000 digits was repeated whole.
    with pytest.raises(RulesError, match="'left5' goes round the table: with 4 players, left1"):
        make(pass_cycle=("left5",))
    with pytest.raises(RulesError, match=r"'right7' goes round .* right1 to right3$"):
        make(pass_cycle=("right7",))
    with pytest.raises(RulesError, match=r"^pass_cycle: 'left9{16}…' goes round") as refused:
        make(pass_cycle=("left" + "9" * 5000,))
    assert len(str(refused.value)) < 100
    with pytest.raises(RulesError, match="'across' needs an even number of players"):
        make(players=5, pass_cycle=("across",))
    with pytest.raises(RulesError, match="removed"):
        make(players=5, removed="2C 2D", first_lead="2C")
    with pytest.raises(RulesError, match="no_points_unless_forced"):
        make(first_trick="bogus")


def test_enum_options_accept_their_string_values() -> None:
    rules = make(
        first_trick="no_hearts",
        hearts_break="point_card",
        moon="shooter_chooses",
        seating="shuffled",
    )
    assert rules.first_trick is FirstTrick.NO_HEARTS
    assert rules.hearts_break is HeartsBreak.POINT_CARD
    assert rules.moon is MoonScoring.SHOOTER_CHOOSES
    assert rules.seating is Seating.SHUFFLED


def test_removed_accepts_several_forms() -> None:
    expected = CardSet.parse("2D")
    assert make(players=3, removed="2D").removed == expected
    assert make(players=3, removed=["2D"]).removed == expected
    assert make(players=3, removed=expected).removed == expected
    assert make(players=3, removed=[13]).removed == expected


# Presets against RULES.md -----------------------------------------------------------

# What RULES.md's table says each source uses.  Options not listed are the defaults.
FOUR = ("left", "right", "across", "hold")
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "standard": {},
    "source-000": {
        "first_trick": FirstTrick.NO_POINTS_UNLESS_FORCED,
        "hearts_break": HeartsBreak.POINT_CARD,
        "moon": MoonScoring.SHOOTER_CHOOSES,
        "first_dealer": 0,
        "direction": "clockwise",
    },
    "source-001": {
        "first_trick": FirstTrick.NO_POINTS,
        "hearts_break": HeartsBreak.HEART,
        "moon": MoonScoring.OTHERS_ADD,
    },
    "source-002": {
        "first_trick": FirstTrick.NO_HEARTS,
        "hearts_break": HeartsBreak.NEVER_RESTRICTED,
        "moon": MoonScoring.SHOOTER_SUBTRACTS,
        "seating": Seating.SHUFFLED,
    },
    "source-003": {
        "first_trick": FirstTrick.NO_POINTS_UNLESS_FORCED,
        "hearts_break": HeartsBreak.HEART,
        "moon": MoonScoring.OTHERS_ADD,
        "sun": True,
    },
    "source-004": {
        "first_trick": FirstTrick.NO_POINTS,
        "hearts_break": HeartsBreak.HEART,
        "moon": MoonScoring.OTHERS_ADD,
        "direction": "counterclockwise",
    },
}

BASE: dict[str, Any] = {
    "cards_passed": 3,
    "first_trick": FirstTrick.NO_POINTS_UNLESS_FORCED,
    "hearts_break": HeartsBreak.HEART,
    "moon": MoonScoring.OTHERS_ADD,
    "sun": False,
    "jack_of_diamonds": False,
    "end_score": 100,
    "seating": Seating.FIXED,
    "first_dealer": 0,
    "direction": "clockwise",
    "first_lead": None,
}

# Removed cards and pass cycle by (preset, players), from RULES.md's table.
DECKS: dict[tuple[str, int], tuple[str, tuple[str, ...], str]] = {
    ("standard", 3): ("2D", ("left", "right", "hold"), "2C"),
    ("standard", 4): ("", FOUR, "2C"),
    ("standard", 5): ("2D 2S", ("left", "right", "left2", "right2", "hold"), "2C"),
    ("standard", 6): ("3C 3D 3S 3H", ("left", "right", "left2", "right2", "across", "hold"), "2C"),
    ("source-000", 4): ("", FOUR, "2C"),
    ("source-001", 4): ("", FOUR, "2C"),
    ("source-002", 3): ("2D", ("left", "right", "hold"), "2C"),
    ("source-002", 4): ("", FOUR, "2C"),
    ("source-002", 5): ("2C 2D", ("left", "right", "left2", "right2", "hold"), "3C"),
    ("source-003", 3): ("2D", ("left", "right", "hold"), "2C"),
    ("source-003", 4): ("", FOUR, "2C"),
    ("source-003", 5): ("2D 2S", ("left", "right", "left2", "right2", "hold"), "2C"),
    ("source-003", 6): (
        "3C 3D 3S 3H",
        ("left", "right", "left2", "right2", "across", "hold"),
        "2C",
    ),
    ("source-004", 4): ("", FOUR, "2C"),
}


def test_every_preset_is_tested() -> None:
    assert set(PRESETS) == set(PRESET_TABLE) == set(PRESET_PLAYERS)
    assert set(DECKS) == set(CONFIGS)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_preset_reproduces_its_source(config: tuple[str, int]) -> None:
    name, players = config
    rules = Rules.preset(name, players)
    expected = {**BASE, **PRESET_TABLE[name]}
    for option, value in expected.items():
        assert getattr(rules, option) == value, f"{name} {players}p: {option}"
    removed, cycle, lead = DECKS[config]
    assert rules.players == players
    assert rules.removed == CardSet.parse(removed)
    assert rules.pass_cycle == cycle
    assert str(rules.first_lead_card) == lead


@pytest.mark.parametrize("name", ["standard", "source-003", "source-004", "source-001"])
def test_preset_without_players_is_four(name: str) -> None:
    assert Rules.preset(name).players == 4


@pytest.mark.parametrize("name", ["source-000", "source-001", "source-004"])
@pytest.mark.parametrize("players", [3, 5, 6])
def test_four_player_sources_refuse_other_counts(name: str, players: int) -> None:
    with pytest.raises(RulesError, match=r"^players:"):
        Rules.preset(name, players)


@pytest.mark.parametrize("name", ["standard", "source-002", "source-003"])
@pytest.mark.parametrize("players", [0, 2, 7, True, "5", 4.0])
def test_preset_refuses_a_bad_player_count(name: str, players: object) -> None:
    """Checked as Rules checks it: the presets read a missing count as their default,
    and took 0 for it, so ``players=0`` gave four players."""
    with pytest.raises(RulesError, match=r"^players: "):
        Rules.preset(name, players)  # type: ignore[arg-type]


def test_source_002_refuses_six_players() -> None:
    with pytest.raises(RulesError, match=r"^players:.*3 to 5"):
        Rules.preset("source-002", 6)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError, match=r"^preset:.*source-003"):
        Rules.preset("source-009")


def test_a_change_that_is_no_option_is_a_rules_error() -> None:
    """Like :meth:`Rules.from_dict`: the name given, and the options there are."""
    with pytest.raises(RulesError, match=r"^bogus: not an option \(options: cards_passed"):
        Rules.preset("standard", bogus=1)


def test_preset_accepts_changes_on_top() -> None:
    rules = Rules.preset("source-003", 5, jack_of_diamonds=True, end_score=50)
    assert rules.jack_of_diamonds and rules.sun and rules.end_score == 50
    assert rules.removed == CardSet.parse("2D 2S")
    six = Rules.preset("source-003", 6, removed="2C 2D 2S 2H")
    assert str(six.first_lead_card) == "3C" and six.hand_size == 8
    literal = Rules.preset("source-003", 6, removed="2C 2D 2S 2H", first_lead="3S")
    assert str(literal.first_lead_card) == "3S"
    with pytest.raises(RulesError, match=r"^moon:"):
        Rules.preset("standard", moon="maybe")


# Serialisation ----------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_to_dict_round_trips_through_json(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    data = json.loads(json.dumps(rules.to_dict()))
    back = Rules.from_dict(data)
    assert back == rules
    assert back.deck_mask == rules.deck_mask
    assert back.to_dict() == rules.to_dict()


def test_to_dict_with_every_option_changed() -> None:
    rules = make(
        players=6,
        removed="2C 2D 2S 2H",
        pass_cycle=("right2", "left"),
        cards_passed=2,
        first_lead="3S",
        first_trick=FirstTrick.NO_HEARTS,
        hearts_break=HeartsBreak.POINT_CARD,
        moon=MoonScoring.NONE,
        sun=True,
        jack_of_diamonds=True,
        end_score=75,
        seating=Seating.SHUFFLED,
        first_dealer=3,
        direction="counterclockwise",
    )
    data = rules.to_dict()
    assert data["removed"] == ["2C", "2D", "2S", "2H"]
    assert data["first_lead"] == "3S"
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules


def test_from_dict_refuses_bad_data() -> None:
    with pytest.raises(RulesError, match=r"^colour: not an option"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match=r"^sun: true or false"):
        Rules.from_dict({"sun": "yes"})
    with pytest.raises(RulesError, match=r"^jack_of_diamonds: true or false"):
        Rules.from_dict({"jack_of_diamonds": 1})
    with pytest.raises(RulesError, match=r"^rules:"):
        Rules.from_dict(["players", 4])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"^players:"):
        Rules.from_dict({"players": 9})


def test_from_dict_partial_uses_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"players": 5}).removed == CardSet.parse("2D 2S")


def test_source_002_with_no_player_count_is_its_four_player_game() -> None:
    rules = Rules.preset("source-002")
    assert rules == Rules.preset("source-002", 4) == Rules.preset("source-002", players=4)
    assert rules.players == 4 and rules.removed == CardSet() and rules.hand_size == 13
    assert str(rules.first_lead_card) == "2C"
    assert rules.first_trick is FirstTrick.NO_HEARTS
    assert rules.hearts_break is HeartsBreak.NEVER_RESTRICTED
    assert rules.moon is MoonScoring.SHOOTER_SUBTRACTS
    assert rules.seating is Seating.SHUFFLED
    assert rules.pass_cycle == ("left", "right", "across", "hold")
    assert rules.points_in_play == 26
    # The same from the command line, where --players is left out.
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    assert rules_from_args(parser.parse_args(["--preset", "source-002"])) == rules


@pytest.mark.parametrize("flag", ["sun", "jack_of_diamonds"])
def test_flags_must_be_true_or_false_however_rules_are_built(flag: str) -> None:
    """``-o sun=maybe`` on a command line must not quietly mean true."""
    with pytest.raises(RulesError, match=rf"^{flag}: true or false, not 'maybe'"):
        Rules.preset("source-003", None, **{flag: "maybe"})
    with pytest.raises(RulesError, match=rf"^{flag}: true or false, not 1"):
        Rules(**{flag: 1})  # type: ignore[arg-type]


@pytest.mark.parametrize(("preset", "players"), [("source-002", 5), ("source-003", 6)])
def test_hearts_rules_shows_each_option_as_o_takes_it_back(
    preset: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from openhearts import rules_help
    from openhearts.options import rules_from_args

    parser = argparse.ArgumentParser()
    rules_help.add_arguments(parser)
    assert rules_help.run(parser.parse_args(["--preset", preset, "--players", str(players)])) == 0
    shown = capsys.readouterr().out.split("Options (change with -o NAME=VALUE):\n", 1)[1]
    options = [line.strip().replace(" = ", "=", 1) for line in shown.splitlines() if "=" in line]
    typed = ["--preset", preset, "--players", str(players)]
    for option in options:
        if not option.startswith("players="):
            typed += ["-o", option]
    assert rules_from_args(parser.parse_args(typed)) == Rules.preset(preset, players=players)


def test_hearts_rules_says_the_options_given_and_no_passing_where_there_is_none(
    capsys: Any,
) -> None:
    """ "Pass cycle: hold (3 cards)" for a game without passing, and a heading that left
    out the -o options it showed the rules of."""
    from openhearts import rules_help

    parser = argparse.ArgumentParser()
    rules_help.add_arguments(parser)
    argv = ["--preset", "source-000", "-o", "cards_passed=0", "-o", "first_trick=allowed"]
    assert rules_help.run(parser.parse_args(argv)) == 0
    out = capsys.readouterr().out
    assert "The rules of --preset source-000 -o cards_passed=0 -o first_trick=allowed:" in out
    assert "  No passing\n" in out and "Pass cycle" not in out
    assert "No passing" in Rules.preset("standard", pass_cycle=("hold",)).describe()
    assert (
        "Pass cycle: left, right (1 card)"
        in Rules.preset("standard", pass_cycle=("left", "right"), cards_passed=1).describe()
    )


def test_hearts_rules_on_an_ascii_only_output_spells_the_suits(tmp_path: Path) -> None:
    """Printing the suit symbols to an ASCII-only output raised UnicodeEncodeError."""
    import os
    import subprocess
    import sys

    environment = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-m", "openhearts", "rules", "--preset", "source-003"],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "QS" in done.stdout and "♠" not in done.stdout


def test_an_option_too_long_to_read_is_said_so() -> None:
    """Python reads no number of more than 4,300 digits: a traceback before."""
    with pytest.raises(RulesError, match="end_score: a number of 5000 digits is too long"):
        parse_option("end_score=" + "9" * 5000)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"first_lead": True}, "first_lead: a card number is an int from 0 to 51, not True"),
        ({"first_lead": 1.0}, "first_lead: a card number is an int from 0 to 51, not 1.0"),
        ({"players": 3, "removed": [True]}, "removed: a card number is an int"),
        ({"pass_cycle": 3}, "pass_cycle: a list of directions or a text, not 3"),
        # Found by a tester: `-o removed=1` said "'int' object is not iterable".
        ({"removed": 1}, "removed: cards as text ('2D 2S') or a list of cards, not 1"),
        (
            {"removed": "JD 2C 3C 4C", "jack_of_diamonds": True},
            "jack_of_diamonds: the J♦ is one of the removed cards",
        ),
    ],
)
def test_options_of_the_wrong_kind_are_refused_naming_the_option(
    options: dict[str, Any], said: str
) -> None:
    """Found by a tester: first_lead=True was the 3♣, first_lead=1.0 and pass_cycle=3
    failed deep inside with a TypeError, and the J♦ bonus was taken with the J♦ removed
    (its description still said "The J♦ counts -10")."""
    with pytest.raises(RulesError, match=re.escape(said)):
        Rules(**options)


def test_a_preset_named_by_something_else_than_text_is_refused() -> None:
    with pytest.raises(RulesError, match=re.escape("no preset named ['standard']")):
        Rules.preset(["standard"])  # type: ignore[arg-type]


def test_numpy_integers_are_whole_numbers_of_the_rules() -> None:
    """``Rules(players=np.int64(5))``, as a sweep over ``np.arange(3, 7)`` gives it, was
    refused as "players: a whole number from 3 to 6, not np.int64(5)" (and so
    ``HeartsEnv(players=...)``); True and floats still are."""
    np = pytest.importorskip("numpy")
    rules = Rules(players=np.int64(5), cards_passed=np.int8(2), end_score=np.uint16(50))
    assert rules == Rules(players=5, cards_passed=2, end_score=50)
    assert type(rules.players) is int and json.dumps(rules.to_dict())
    assert Rules.preset("source-003", players=np.int64(6)).players == 6
    assert Rules(first_dealer=np.int32(3)).first_dealer == 3
    for wrong in (True, 4.0, "4"):
        with pytest.raises(
            RulesError, match=re.escape(f"players: a whole number from 3 to 6, not {wrong!r}")
        ):
            Rules(players=wrong)  # type: ignore[arg-type]
        with pytest.raises(RulesError, match="players: a whole number"):
            Rules.preset("standard", players=wrong)  # type: ignore[arg-type]
