"""The mapping between our :class:`~openhearts.Rules` and OpenSpiel's C++ Hearts.

OpenSpiel (``pip install open-spiel``) has a fixed 4-player game ``"hearts"`` with eight
boolean parameters.  This module says which of our rules it can play, converts between
the two, and converts cards, seats and pass directions.  It imports ``pyspiel`` only in
:func:`load_game`, so it works without OpenSpiel installed; the whole mapping is checked
deal by deal against OpenSpiel in ``tests/test_openspiel_crosscheck.py``.

>>> from openhearts import Card, Rules
>>> parameters = openspiel_parameters(Rules.preset("source-000", moon="others_add"))
>>> parameters == OPENSPIEL_DEFAULTS  # OpenSpiel's default game is source-000's rules
True
>>> openspiel_parameters(Rules.preset("standard", players=5))
Traceback (most recent call last):
...
openhearts.openspiel.OpenSpielMappingError: players: OpenSpiel's Hearts has 4 players, not 5
>>> card_to_action(Card.parse("QS")), action_to_card(43)
(43, Card.parse('QS'))

Cards: OpenSpiel's action for a card is ``rank * 4 + suit`` with suits C, D, H, S; our
card number is ``suit * 13 + rank`` with suits C, D, S, H (ranks 2..A are 0..12 in
both).  Seats: OpenSpiel's player ``p`` is our seat ``p``: both number the seats in the
order of play, and OpenSpiel's "left" (chance outcome 1) passes to ``p + 1`` as our
clockwise "left" does.  Pass directions: OpenSpiel draws one per deal by chance
(0 no pass, 1 left, 2 across, 3 right, i.e. ``p + outcome``); ours follow the pass
cycle, so a deal of ours is OpenSpiel's deal with outcome :func:`pass_outcome`.

Options (OpenSpiel's on the left):

==========================================  ===========================================
``pass_cards`` False / True                  no pass in the cycle (or 0 cards) / 3 cards
``no_pts_on_first_trick`` True / False       ``first_trick`` NO_POINTS_UNLESS_FORCED /
                                             ALLOWED
``must_break_hearts=False``                  ``hearts_break=NEVER_RESTRICTED``
``qs_breaks_hearts`` True / False            ``hearts_break`` POINT_CARD / HEART
``jd_bonus``                                 ``jack_of_diamonds``
(moon: always, others add 26)                ``moon=OTHERS_ADD``, ``sun=False``
``can_lead_any_club``,                       no counterpart: must stay False
``avoid_all_tricks_bonus``,
``can_lead_hearts_instead_of_qs``
==========================================  ===========================================

OpenSpiel's *default* ``qs_breaks_hearts=True`` makes its default game our
``hearts_break=POINT_CARD``, not our ``standard`` preset (``HEART``).  OpenSpiel plays
one deal, so ``end_score``, ``seating`` and ``first_dealer`` do not enter the mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import Card, CardSet, Suit
from .rules import FirstTrick, HeartsBreak, MoonScoring, Rules, RulesError, integer_or_none

__all__ = [
    "OpenSpielMappingError",
    "OPENSPIEL_DEFAULTS",
    "UNMAPPED_PARAMETERS",
    "PASS_OUTCOMES",
    "openspiel_parameters",
    "rules_from_openspiel",
    "pass_outcome",
    "card_to_action",
    "action_to_card",
    "mask_to_actions",
    "actions_to_mask",
    "load_game",
]


class OpenSpielMappingError(RulesError):
    """Rules OpenSpiel's Hearts cannot express, or OpenSpiel parameters we cannot.

    The message starts with the option name, as every :class:`RulesError` does.
    """


#: OpenSpiel's Hearts parameters and their defaults (its ``get_parameters()``).
OPENSPIEL_DEFAULTS: Final[Mapping[str, bool]] = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}

#: OpenSpiel parameters with no counterpart in :class:`Rules`: they must stay False.
UNMAPPED_PARAMETERS: Final = (
    "can_lead_any_club",
    "avoid_all_tricks_bonus",
    "can_lead_hearts_instead_of_qs",
)

#: OpenSpiel's pass-direction chance outcomes, by number: what our cycle calls them.
PASS_OUTCOMES: Final = ("hold", "left", "across", "right")

# OpenSpiel's suit order (C, D, H, S) as our suit numbers (C, D, S, H).
_SUIT_TO_OURS: Final = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_ACTION_TO_CARD: Final = tuple(Card(_SUIT_TO_OURS[a % 4] * 13 + a // 4) for a in range(52))
_CARD_TO_ACTION: Final = tuple(_ACTION_TO_CARD.index(Card(c)) for c in range(52))


def card_to_action(card: int) -> int:
    """OpenSpiel's action id for one of our cards (a :class:`Card` or its number).

    >>> card_to_action(Card.parse("2C")), card_to_action(Card.parse("AS"))
    (0, 51)
    """
    return _CARD_TO_ACTION[
        _below_52(card, "card: a card number", "Card.parse({!r}) reads a card's name")
    ]


def action_to_card(action: int) -> Card:
    """Our card for an OpenSpiel card action id (0..51: dealing, passing or playing).

    >>> action_to_card(0), action_to_card(2).pretty
    (Card.parse('2C'), '2♥')
    """
    # A name is pointed to card_to_action, not to Card.parse alone: our number of a card
    # taken as an action is another card (Card.parse("QS") is the action of the J♣).
    return _ACTION_TO_CARD[
        _below_52(
            action,
            "action: an OpenSpiel card action",
            "card_to_action(Card.parse({!r})) is its action",
        )
    ]


def _below_52(value: object, what: str, named: str) -> int:
    """``value`` as a number from 0 to 51 (numpy's integers too), or a ValueError saying
    ``what`` was expected, and for a text ``named`` (formatted with it): how to turn a
    card's name into the number.  A text or a float failed deep inside ("'<=' not
    supported", "tuple indices must be integers") and True was taken as 1."""
    number = integer_or_none(value)
    if number is not None and 0 <= number < 52:
        return number
    hint = f" ({named.format(value)})" if isinstance(value, str) else ""
    raise ValueError(f"{what} from 0 to 51, not {value!r}{hint}")


def mask_to_actions(mask: int | CardSet) -> list[int]:
    """OpenSpiel's action ids, ascending, for a card mask of ours (an int, or a
    :class:`CardSet` such as ``game.legal_plays()``).

    >>> from openhearts import CardSet
    >>> mask_to_actions(CardSet.parse("2C 2H AS").mask), mask_to_actions(CardSet.parse("QS"))
    ([0, 2, 51], [43])
    """
    # Through CardSet: a CardSet itself failed ("unsupported operand type(s) for >>"),
    # and a negative mask or bits past the deck were read as the cards they overlap.
    return sorted(_CARD_TO_ACTION[card] for card in CardSet(mask))


def actions_to_mask(actions: Any) -> int:
    """Our card mask for OpenSpiel card action ids (e.g. ``state.legal_actions()``).

    >>> from openhearts import CardSet
    >>> str(CardSet(actions_to_mask([0, 2, 51])))
    '2C AS 2H'
    """
    mask = 0
    for action in actions:
        mask |= 1 << action_to_card(action)
    return mask


def openspiel_parameters(rules: Rules) -> dict[str, bool]:
    """OpenSpiel ``"hearts"`` parameters that play one deal of ``rules`` exactly.

    Every parameter is given, in OpenSpiel's order.  Raises
    :class:`OpenSpielMappingError` naming the first option OpenSpiel cannot express.
    The pass direction of a given deal is :func:`pass_outcome`.
    """
    if not isinstance(rules, Rules):
        # A preset's name failed with "'str' object has no attribute 'removed'".
        hint = f" (Rules.preset({rules!r}) makes a preset's)" if isinstance(rules, str) else ""
        raise ValueError(f"rules: a Rules object, not {rules!r}{hint}")
    assert rules.removed is not None and rules.pass_cycle is not None
    if rules.players != 4:
        raise OpenSpielMappingError(
            f"players: OpenSpiel's Hearts has 4 players, not {rules.players}"
        )
    if rules.removed:
        raise OpenSpielMappingError(
            f"removed: OpenSpiel's Hearts deals the whole deck, so nothing can be removed "
            f"(not {rules.removed})"
        )
    passes = rules.cards_passed > 0 and any(d != "hold" for d in rules.pass_cycle)
    if passes and rules.cards_passed != 3:
        raise OpenSpielMappingError(
            f"cards_passed: OpenSpiel's Hearts passes 3 cards, not {rules.cards_passed}"
        )
    if rules.first_lead is not None and rules.first_lead != Card.parse("2C"):
        raise OpenSpielMappingError(
            f"first_lead: OpenSpiel's Hearts opens with the 2♣, not {rules.first_lead.pretty}"
        )
    if rules.first_trick not in (FirstTrick.NO_POINTS_UNLESS_FORCED, FirstTrick.ALLOWED):
        raise OpenSpielMappingError(
            f"first_trick: OpenSpiel's Hearts has no_points_unless_forced or allowed, "
            f"not {rules.first_trick.value}"
        )
    if rules.moon is not MoonScoring.OTHERS_ADD:
        raise OpenSpielMappingError(
            f"moon: OpenSpiel's Hearts scores a moon as others_add, not {rules.moon.value}"
        )
    if rules.sun:
        raise OpenSpielMappingError("sun: OpenSpiel's Hearts has no shooting the sun")
    return {
        "pass_cards": passes,
        "no_pts_on_first_trick": rules.first_trick is FirstTrick.NO_POINTS_UNLESS_FORCED,
        "can_lead_any_club": False,
        "jd_bonus": rules.jack_of_diamonds,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": rules.hearts_break is not HeartsBreak.NEVER_RESTRICTED,
        # Without must_break_hearts OpenSpiel ignores it; keep its default then.
        "qs_breaks_hearts": rules.hearts_break is not HeartsBreak.HEART,
        "can_lead_hearts_instead_of_qs": False,
    }


def rules_from_openspiel(parameters: Mapping[str, Any] | None = None) -> Rules:
    """Our :class:`Rules` equivalent to OpenSpiel ``"hearts"`` parameters.

    Missing parameters take OpenSpiel's defaults.  The pass cycle is OpenSpiel's four
    chance outcomes in order (``hold, left, across, right``), so deal number ``k`` of a
    :class:`~openhearts.Game` is the OpenSpiel deal whose drawn outcome is ``k``.

    >>> rules = rules_from_openspiel({"qs_breaks_hearts": False})
    >>> rules.hearts_break.value, rules.pass_cycle
    ('heart', ('hold', 'left', 'across', 'right'))
    >>> rules_from_openspiel({"avoid_all_tricks_bonus": True})
    Traceback (most recent call last):
    ...
    openhearts.openspiel.OpenSpielMappingError: avoid_all_tricks_bonus: no counterpart in Rules
    """
    given = dict(parameters or {})
    unknown = sorted(set(given) - set(OPENSPIEL_DEFAULTS))
    if unknown:
        raise OpenSpielMappingError(
            f"{unknown[0]}: not an OpenSpiel Hearts parameter "
            f"(parameters: {', '.join(OPENSPIEL_DEFAULTS)})"
        )
    for name, value in given.items():
        if not isinstance(value, bool):
            raise OpenSpielMappingError(f"{name}: true or false, not {value!r}")
    full = {**OPENSPIEL_DEFAULTS, **given}
    for name in UNMAPPED_PARAMETERS:
        if full[name]:
            raise OpenSpielMappingError(f"{name}: no counterpart in Rules")
    if not full["must_break_hearts"]:
        hearts_break = HeartsBreak.NEVER_RESTRICTED
    elif full["qs_breaks_hearts"]:
        hearts_break = HeartsBreak.POINT_CARD
    else:
        hearts_break = HeartsBreak.HEART
    return Rules(
        players=4,
        pass_cycle=PASS_OUTCOMES if full["pass_cards"] else ("hold",),
        cards_passed=3,
        first_trick=(
            FirstTrick.NO_POINTS_UNLESS_FORCED
            if full["no_pts_on_first_trick"]
            else FirstTrick.ALLOWED
        ),
        hearts_break=hearts_break,
        moon=MoonScoring.OTHERS_ADD,
        sun=False,
        jack_of_diamonds=full["jd_bonus"],
        direction="clockwise",
    )


def pass_outcome(rules: Rules, deal_number: int) -> int:
    """OpenSpiel's pass-direction chance outcome for deal ``deal_number`` of ``rules``.

    0 for a hold hand, else how many seats later in play order the cards go; a
    counter-clockwise "left" is OpenSpiel's right.

    >>> pass_outcome(Rules(), 0), pass_outcome(Rules(direction="counterclockwise"), 0)
    (1, 3)
    """
    openspiel_parameters(rules)
    # Checked as Game checks first_deal: -1 was read as the cycle's last deal.
    number = integer_or_none(deal_number)
    if number is None or number < 0:
        raise ValueError(f"deal_number: a deal number from 0, not {deal_number!r}")
    return rules.pass_offset(number)


def load_game(rules: Rules) -> Any:
    """OpenSpiel's C++ ``"hearts"`` game for ``rules`` (imports ``pyspiel`` now).

    Raises :class:`OpenSpielMappingError` for rules it cannot play, and
    :class:`ModuleNotFoundError` saying what to install when OpenSpiel is absent.
    """
    parameters = openspiel_parameters(rules)
    try:
        import pyspiel
    except ImportError:
        raise ModuleNotFoundError(
            "OpenSpiel is not installed: pip install 'openhearts[openspiel]'", name="pyspiel"
        ) from None
    return pyspiel.load_game("hearts", parameters)
