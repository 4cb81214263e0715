"""The public mapping to OpenSpiel's Hearts (:mod:`openhearts.openspiel`), without OpenSpiel.

Whether the mapped rules really play the same deals is checked against OpenSpiel itself
in ``test_openspiel_crosscheck.py``.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from openhearts import PRESETS, Card, CardSet, FirstTrick, HeartsBreak, MoonScoring, Rules, Seating
from openhearts.openspiel import (
    OPENSPIEL_DEFAULTS,
    UNMAPPED_PARAMETERS,
    OpenSpielMappingError,
    action_to_card,
    actions_to_mask,
    card_to_action,
    load_game,
    mask_to_actions,
    openspiel_parameters,
    pass_outcome,
    rules_from_openspiel,
)
from openhearts.rules import RulesError

MAPPED = [name for name in OPENSPIEL_DEFAULTS if name not in UNMAPPED_PARAMETERS]


def test_the_module_imports_without_openspiel() -> None:
    """Importing the mapping must not import pyspiel (an optional dependency)."""
    code = "import sys, openhearts.openspiel; assert 'pyspiel' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_load_game_without_openspiel_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install .openhearts\[openspiel\]."):
        load_game(Rules())


@pytest.mark.parametrize(
    "values",
    list(itertools.product([False, True], repeat=len(MAPPED))),
)
def test_parameters_round_trip(values: tuple[bool, ...]) -> None:
    """Every combination of the mapped parameters comes back unchanged through Rules."""
    parameters = dict(zip(MAPPED, values, strict=True))
    full = {**OPENSPIEL_DEFAULTS, **parameters}
    rules = rules_from_openspiel(parameters)
    mapped = openspiel_parameters(rules)
    if not full["must_break_hearts"]:
        # OpenSpiel ignores qs_breaks_hearts then; the mapping gives its default.
        full["qs_breaks_hearts"] = True
    assert mapped == full
    assert list(mapped) == list(OPENSPIEL_DEFAULTS)


def test_the_default_openspiel_game_is_source_000_with_others_add() -> None:
    rules = rules_from_openspiel()
    assert rules.hearts_break is HeartsBreak.POINT_CARD
    assert rules.moon is MoonScoring.OTHERS_ADD
    assert openspiel_parameters(Rules.preset("source-000", moon="others_add")) == dict(
        OPENSPIEL_DEFAULTS
    )


#: What stops each preset (at 4 players) from being played by OpenSpiel, if anything.
PRESET_BLOCKERS = {
    "standard": None,
    "source-000": "moon",
    "source-001": "first_trick",
    "source-002": "first_trick",
    "source-003": "sun",
    "source-004": "first_trick",
}


def test_every_preset_is_named() -> None:
    assert set(PRESET_BLOCKERS) == set(PRESETS)


@pytest.mark.parametrize("preset", list(PRESET_BLOCKERS))
def test_presets_map_or_name_the_blocking_option(preset: str) -> None:
    rules = Rules.preset(preset)
    blocker = PRESET_BLOCKERS[preset]
    if blocker is None:
        assert openspiel_parameters(rules)["qs_breaks_hearts"] is False
    else:
        with pytest.raises(OpenSpielMappingError, match=f"^{blocker}: OpenSpiel's Hearts"):
            openspiel_parameters(rules)


@pytest.mark.parametrize(
    ("changes", "option"),
    [
        ({"players": 3}, "players"),
        ({"players": 6}, "players"),
        ({"removed": "2D 2S 2H 2C"}, "removed"),
        ({"cards_passed": 4}, "cards_passed"),
        ({"first_lead": "3C", "removed": "2C 2D 2S 2H"}, "removed"),
        ({"first_lead": "3C"}, "first_lead"),
        ({"first_trick": FirstTrick.NO_POINTS}, "first_trick"),
        ({"first_trick": FirstTrick.NO_HEARTS}, "first_trick"),
        ({"moon": MoonScoring.NONE}, "moon"),
        ({"moon": MoonScoring.SHOOTER_SUBTRACTS}, "moon"),
        ({"sun": True}, "sun"),
    ],
)
def test_inexpressible_options_raise_a_clear_error(changes: dict[str, object], option: str) -> None:
    rules = Rules().replace(**changes)
    with pytest.raises(OpenSpielMappingError, match=f"^{option}: ") as caught:
        openspiel_parameters(rules)
    assert isinstance(caught.value, RulesError)
    with pytest.raises(OpenSpielMappingError):
        load_game(rules)


def test_options_without_a_role_in_one_deal_map() -> None:
    """End score, seating and dealer do not change one deal; hold-only cycles do not pass."""
    rules = Rules(end_score=50, seating=Seating.SHUFFLED, first_dealer=2)
    assert openspiel_parameters(rules) == openspiel_parameters(Rules())
    assert openspiel_parameters(Rules(pass_cycle=("hold",)))["pass_cards"] is False
    assert openspiel_parameters(Rules(cards_passed=0))["pass_cards"] is False
    # 3 cards are only required when cards are passed at all.
    assert openspiel_parameters(Rules(cards_passed=5, pass_cycle=("hold",)))["pass_cards"] is False


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"can_lead_any_club": True}, r"^can_lead_any_club: no counterpart"),
        ({"avoid_all_tricks_bonus": True}, r"^avoid_all_tricks_bonus: no counterpart"),
        ({"can_lead_hearts_instead_of_qs": True}, r"^can_lead_hearts_instead_of_qs: "),
        ({"players": 4}, r"^players: not an OpenSpiel Hearts parameter"),
        ({"jd_bonus": "yes"}, r"^jd_bonus: true or false"),
    ],
)
def test_bad_openspiel_parameters_raise_a_clear_error(
    parameters: dict[str, object], message: str
) -> None:
    with pytest.raises(OpenSpielMappingError, match=message):
        rules_from_openspiel(parameters)


def test_pass_outcomes_follow_the_cycle_and_direction() -> None:
    standard = Rules()  # left, right, across, hold
    assert [pass_outcome(standard, k) for k in range(5)] == [1, 3, 2, 0, 1]
    backwards = Rules(direction="counterclockwise")
    assert [pass_outcome(backwards, k) for k in range(4)] == [3, 1, 2, 0]
    assert [pass_outcome(rules_from_openspiel(), k) for k in range(4)] == [0, 1, 2, 3]
    assert pass_outcome(Rules(cards_passed=0), 0) == 0
    with pytest.raises(OpenSpielMappingError, match=r"^players"):
        pass_outcome(Rules(players=5), 0)


@pytest.mark.parametrize("bad", [-1, 1.0, True, "1"])
def test_a_pass_outcome_needs_a_deal_number(bad: object) -> None:
    """``pass_outcome(Rules(), -1)`` was the hold of the cycle's last deal; a float
    failed inside with "tuple indices must be integers"."""
    with pytest.raises(ValueError, match=f"^deal_number: a deal number from 0, not {bad!r}$"):
        pass_outcome(Rules(), bad)  # type: ignore[arg-type]
    assert pass_outcome(Rules(), np.int64(1)) == pass_outcome(Rules(), 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("function", [openspiel_parameters, load_game])
def test_the_mapping_wants_rules_and_says_so(function: object) -> None:
    """``openspiel_parameters("standard")`` said "'str' object has no attribute 'removed'"."""
    with pytest.raises(ValueError, match=r"^rules: a Rules object, not 'standard' \(Rules\.preset"):
        function("standard")  # type: ignore[operator]
    with pytest.raises(ValueError, match=r"^rules: a Rules object, not None$"):
        function(None)  # type: ignore[operator]


def test_card_conversions_are_inverse_bijections() -> None:
    assert sorted(card_to_action(c) for c in range(52)) == list(range(52))
    for card in range(52):
        assert action_to_card(card_to_action(card)) == card
    # OpenSpiel orders rank first, then C, D, H, S.
    assert [str(action_to_card(a)) for a in range(8)] == [
        "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S"
    ]  # fmt: skip
    assert isinstance(action_to_card(7), Card)
    assert card_to_action(np.int64(5)) == 20  # type: ignore[arg-type]
    assert action_to_card(np.uint8(20)) == 5  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 52, 100, "QS", 1.0, True, None])
def test_card_conversions_refuse_out_of_range(bad: int) -> None:
    """A text or a float failed deep inside ("'<=' not supported between instances of
    'int' and 'str'") and True was the card or action 1."""
    with pytest.raises(ValueError, match="from 0 to 51"):
        card_to_action(bad)
    with pytest.raises(ValueError, match="from 0 to 51"):
        action_to_card(bad)
    with pytest.raises(ValueError, match="from 0 to 51"):
        actions_to_mask([0, bad])


def test_a_card_name_given_as_an_action_is_told_the_way_to_its_action() -> None:
    """``action_to_card("QS")`` said "Card.parse('QS') reads a card's name", and
    ``action_to_card(Card.parse("QS"))`` is the J♣: our card numbers are not
    OpenSpiel's actions.  The hint names the action of the card instead."""
    for convert in (action_to_card, lambda action: actions_to_mask([action])):
        with pytest.raises(ValueError) as refused:
            convert("QS")  # type: ignore[arg-type]
        said = str(refused.value)
        assert said.endswith("(card_to_action(Card.parse('QS')) is its action)"), said
    assert action_to_card(card_to_action(Card.parse("QS"))) == Card.parse("QS")
    with pytest.raises(ValueError, match=re.escape("(Card.parse('QS') reads a card's name)")):
        card_to_action("QS")  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_masks_and_action_lists_convert_both_ways(mask: int) -> None:
    actions = mask_to_actions(mask)
    assert actions == sorted(actions)
    assert len(actions) == len(CardSet(mask))
    assert actions_to_mask(actions) == mask


def test_a_card_set_converts_to_actions_and_a_mask_past_the_deck_is_refused() -> None:
    """``mask_to_actions(game.legal_plays())`` raised "unsupported operand type(s) for
    >>: 'CardSet' and 'int'"; ``-1`` gave every card and bits past the deck were dropped."""
    from openhearts import Game

    legal = Game(Rules(pass_cycle=("hold",)), seed=1).legal_plays()  # the 2♣ leads
    assert mask_to_actions(legal) == mask_to_actions(legal.mask) == [0]
    for bad in (-1, 1 << 52):
        with pytest.raises(ValueError, match="bits 0 to 51"):
            mask_to_actions(bad)
