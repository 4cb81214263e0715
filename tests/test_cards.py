"""Cards and card sets: every common spelling parses, both printed forms, clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from openhearts import Card, CardParseError, CardSet, Rank, Suit, parse_cards
from openhearts.cards import (
    FULL_DECK,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TWO_OF_CLUBS,
    bits,
)

# Each spelling and the canonical card it names.
SPELLINGS = [
    ("QS", "QS"),
    ("qs", "QS"),
    ("Qs", "QS"),
    ("Q♠", "QS"),
    ("q♠", "QS"),
    ("♠Q", "QS"),
    ("Q♤", "QS"),
    ("S Q", "QS"),
    ("Q S", "QS"),
    ("  QS  ", "QS"),
    ("Q of spades", "QS"),
    ("q of Spades", "QS"),
    ("queen of spades", "QS"),
    ("Queen of Spades", "QS"),
    ("queen spades", "QS"),
    ("queen of spade", "QS"),
    ("10H", "TH"),
    ("10h", "TH"),
    ("TH", "TH"),
    ("th", "TH"),
    ("10♥", "TH"),
    ("T♥", "TH"),
    ("♥10", "TH"),
    ("10 of hearts", "TH"),
    ("ten of hearts", "TH"),
    ("2C", "2C"),
    ("2♣", "2C"),
    ("two of clubs", "2C"),
    ("deuce of clubs", "2C"),
    ("AH", "AH"),
    ("ace of hearts", "AH"),
    ("A♥", "AH"),
    ("as", "AS"),
    ("JD", "JD"),
    ("J♦", "JD"),
    ("jack of diamonds", "JD"),
    ("K♣", "KC"),
    ("king of clubs", "KC"),
    ("9d", "9D"),
    ("nine of diamonds", "9D"),
]


@pytest.mark.parametrize(("text", "expected"), SPELLINGS)
def test_card_parses_common_spellings(text: str, expected: str) -> None:
    parsed = Card.parse(text)
    assert str(parsed) == expected
    assert isinstance(parsed, Card)


BAD_SPELLINGS = [
    "QX",
    "",
    "   ",
    "Q",
    "S",
    "11H",
    "1 1 H",
    "0S",
    "QSS",
    "joker",
    "queen of",
    "of spades",
    "queen of swords",
    "zero of hearts",
    "Q of spades and more",
    "♠",
    "10",
    "52",
]


@pytest.mark.parametrize("text", BAD_SPELLINGS)
def test_card_rejects_bad_spellings_with_a_clear_message(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Card.parse(text)
    message = str(caught.value)
    assert repr(text) in message, "the message quotes what was typed"
    assert "expected a rank" in message and "suit" in message
    assert "QS" in message, "the message shows an example of a good spelling"


def test_a_long_bad_text_is_quoted_by_its_start() -> None:
    with pytest.raises(CardParseError) as caught:
        Card.parse("x" * 100_000)
    message = str(caught.value)
    assert f"'{'x' * 39}…' as a card" in message and len(message) < 300


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)


@pytest.mark.parametrize("number", range(52))
def test_every_card_round_trips_through_all_printed_forms(number: int) -> None:
    c = Card(number)
    assert Card.parse(str(c)) == c
    assert Card.parse(c.pretty) == c
    assert Card.parse(c.name) == c
    assert Card.parse(str(c).lower()) == c
    assert eval(repr(c), {"Card": Card}) == c
    assert c.suit * 13 + c.rank == number
    assert Card.of(c.rank, c.suit) == c


def test_canonical_and_pretty_forms() -> None:
    qs = Card.parse("Q of spades")
    assert str(qs) == "QS"
    assert qs.pretty == "Q♠"
    assert qs.name == "queen of spades"
    assert repr(qs) == "Card.parse('QS')"
    ten = Card.parse("10H")
    assert str(ten) == "TH" and ten.pretty == "10♥" and ten.name == "ten of hearts"
    assert [str(Card.parse(f"A{s}")) for s in "CDSH"] == ["AC", "AD", "AS", "AH"]
    assert [Card.parse(f"2{s}").pretty for s in "cdsh"] == ["2♣", "2♦", "2♠", "2♥"]


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert int(Card.parse("2C")) == 0
    assert int(Card.parse("AC")) == 12
    assert int(Card.parse("2D")) == 13
    assert int(Card.parse("QS")) == 2 * 13 + 10
    assert int(Card.parse("AH")) == 51
    assert Card.parse("QS") == QUEEN_OF_SPADES
    assert Card.parse("JD") == JACK_OF_DIAMONDS
    assert Card.parse("2C") == TWO_OF_CLUBS
    assert Card.parse("AH").rank is Rank.ACE and Card.parse("AH").suit is Suit.HEARTS


def test_aces_are_high_within_a_suit() -> None:
    ranks = [Card.parse(f"{r}S") for r in "23456789TJQKA"]
    assert ranks == sorted(ranks)
    assert [c.rank for c in ranks] == list(Rank)


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_number_out_of_range(number: int) -> None:
    with pytest.raises(ValueError, match="0 to 51"):
        Card(number)


def test_suit_names() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♠", "♥"]
    assert [s.letter for s in Suit] == ["C", "D", "S", "H"]
    assert [s.word for s in Suit] == ["clubs", "diamonds", "spades", "hearts"]
    assert [s.is_red for s in Suit] == [False, True, False, True]


def test_rank_names() -> None:
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert Rank.QUEEN.word == "queen" and Rank.TWO.word == "two"


def test_masks() -> None:
    assert FULL_DECK == (1 << 52) - 1
    assert SUIT_MASKS[Suit.HEARTS] == HEARTS_MASK
    assert sum(m.bit_count() for m in SUIT_MASKS) == 52
    for suit, mask in enumerate(SUIT_MASKS):
        assert {Card(c).suit for c in bits(mask)} == {suit}
    assert list(bits(0)) == []
    assert list(bits(0b1011)) == [0, 1, 3]


# Card sets --------------------------------------------------------------------------


def test_card_set_parse_and_print() -> None:
    hand = CardSet.parse("AH, 2c qs 10D")
    assert str(hand) == "2C TD QS AH"
    assert hand.pretty == "2♣ 10♦ Q♠ A♥"
    assert len(hand) == 4
    assert Card.parse("QS") in hand
    assert Card.parse("KS") not in hand
    assert 52 not in hand and -1 not in hand and True not in hand and 0.0 not in hand
    assert repr(hand) == "CardSet.parse('2C TD QS AH')"
    assert eval(repr(hand), {"CardSet": CardSet}) == hand


def test_a_card_name_is_read_wherever_a_card_is_asked_about() -> None:
    """Found by a tester: "QS" in a hand holding the Q♠ was False, without a word."""
    hand = CardSet.parse("AH, 2c qs 10D")
    assert "QS" in hand and "queen of spades" in hand and "KS" not in hand
    with pytest.raises(CardParseError, match="cannot read 'QX' as a card"):
        _ = "QX" in hand


@pytest.mark.parametrize("value", [True, 1.0, "QS", [1], None])
def test_a_card_is_made_from_a_number_only(value: object) -> None:
    """Found by a tester: Card(True) was the 3♣, and Card("QS") failed deep inside."""
    with pytest.raises(TypeError, match="a card number is an int from 0 to 51, not"):
        Card(value)  # type: ignore[arg-type]
    assert Card(np.int64(36)) == QUEEN_OF_SPADES and Card(QUEEN_OF_SPADES) is QUEEN_OF_SPADES
    with pytest.raises(TypeError, match=r"Card\.parse reads a card's name, not 5"):
        Card.parse(5)  # type: ignore[arg-type]


def test_a_mask_out_of_range_is_refused_by_every_operator() -> None:
    """hand - (-1) emptied the hand where hand | -1 was refused."""
    hand = CardSet.parse("2C QS")
    for combine in (hand.__or__, hand.__and__, hand.__sub__, hand.__xor__, hand.__rsub__):
        with pytest.raises(ValueError, match="bits 0 to 51 only"):
            combine(-1)
        with pytest.raises(ValueError, match="bits 0 to 51 only"):
            combine(1 << 52)
    assert hand - np.int64(1) == CardSet.parse("QS")


def test_card_set_iterates_low_to_high_in_suit_order() -> None:
    hand = CardSet.parse("AH 2H KS 3C AC 4D")
    assert [str(c) for c in hand] == ["3C", "AC", "4D", "KS", "2H", "AH"]
    assert [str(c) for c in reversed(hand)] == ["AH", "2H", "KS", "4D", "AC", "3C"]
    assert all(isinstance(c, Card) for c in hand)


def test_card_set_operations() -> None:
    a = CardSet.parse("2C 3C QS")
    b = CardSet.parse("3C AH")
    assert a | b == CardSet.parse("2C 3C QS AH")
    assert a & b == CardSet.parse("3C")
    assert a - b == CardSet.parse("2C QS")
    assert a ^ b == CardSet.parse("2C QS AH")
    assert CardSet.parse("3C") <= a and not b <= a
    assert a.of_suit(Suit.CLUBS) == CardSet.parse("2C 3C")
    assert a.of_suit(Suit.HEARTS) == CardSet()
    assert not CardSet() and bool(a)
    assert int(a) == a.mask == (1 << 0) | (1 << 1) | (1 << QUEEN_OF_SPADES)
    assert a | Card.parse("AH").mask == CardSet.parse("2C 3C QS AH")
    assert len({a, CardSet.parse("qs 3c 2c")}) == 1, "equal sets hash equal"
    assert a.cards() == [Card.parse("2C"), Card.parse("3C"), Card.parse("QS")]
    assert CardSet.full_deck().mask == FULL_DECK and len(CardSet.full_deck()) == 52


def test_a_card_operand_of_a_card_set_operator_is_that_one_card() -> None:
    """A Card is an int (its number): taken as a mask, ``hand - QS`` removed the 7C
    (card 36 = bits 2 and 5) and left the Q♠."""
    hand = CardSet.parse("2C 3C 5C 7C QS AH")
    qs, ah, seven = Card.parse("QS"), Card.parse("AH"), Card.parse("7C")
    assert hand - qs == CardSet.parse("2C 3C 5C 7C AH")
    assert CardSet() | ah == CardSet.parse("AH")
    assert hand & qs == CardSet.parse("QS") and hand & ah.mask == CardSet.parse("AH")
    assert hand ^ seven == CardSet.parse("2C 3C 5C QS AH")
    assert hand - int(qs) == hand - CardSet.parse("4C 7C"), "a plain int is a mask"
    assert CardSet(qs) == CardSet.parse("QS") and CardSet(int(qs)) == CardSet.parse("4C 7C")
    hand -= qs
    assert hand == CardSet.parse("2C 3C 5C 7C AH")
    for bad in ("QS", 1.5, True, None):
        with pytest.raises(TypeError):
            hand | bad  # type: ignore[operator]
        with pytest.raises(TypeError):
            hand - bad  # type: ignore[operator]
    with pytest.raises(TypeError, match=r"CardSet\.parse"):
        CardSet("QS")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not True"):
        CardSet(True)
    with pytest.raises(TypeError):
        assert hand <= qs  # type: ignore[operator]


def test_a_card_on_the_left_of_a_card_set_operator_is_that_one_card() -> None:
    """``card | hand`` was a TypeError while ``hand | card`` worked."""
    hand = CardSet.parse("2C 7C QS")
    qs, ah = Card.parse("QS"), Card.parse("AH")
    assert ah | hand == CardSet.parse("2C 7C QS AH") == hand | ah
    assert qs & hand == CardSet.parse("QS") and ah & hand == CardSet()
    assert qs ^ hand == CardSet.parse("2C 7C") and ah - hand == CardSet.parse("AH")
    assert qs - hand == CardSet() and (1 << 5) - hand == CardSet.parse("7C") - hand
    assert 0b11 | hand == CardSet.parse("2C 3C 7C QS"), "a plain int is a mask"
    for bad in ("QS", 1.5, True, None):
        with pytest.raises(TypeError):
            bad | hand  # type: ignore[operator, arg-type]
        with pytest.raises(TypeError):
            bad - hand  # type: ignore[operator]


def test_numpy_integers_are_masks_and_card_numbers() -> None:
    """What learning code passes: ``np.flatnonzero(mask)`` gives numpy integers."""
    np = pytest.importorskip("numpy")
    assert CardSet(np.int64(5)) == CardSet.parse("2C 4C")
    assert CardSet(np.flatnonzero(np.arange(52) % 36 == 0)) == CardSet.parse("2C QS")
    assert np.int64(36) in CardSet.parse("QS") and np.int64(35) not in CardSet.parse("QS")
    assert CardSet.parse("QS") | np.int64(1) == CardSet.parse("2C QS")
    assert type(CardSet(np.int64(5)).mask) is int and len(CardSet([np.int8(3)])) == 1


def test_card_set_is_immutable() -> None:
    hand = CardSet.parse("2C")
    with pytest.raises(AttributeError):
        hand.mask = 5  # type: ignore[misc]
    assert hand == CardSet.parse("2C")


def test_card_set_rejects_bad_input() -> None:
    with pytest.raises(CardParseError, match="QS is named twice"):
        CardSet.parse("QS qs")
    with pytest.raises(CardParseError, match=r"'qx'|'QX'"):
        CardSet.parse("2C QX 3C")
    with pytest.raises(ValueError, match="bits 0 to 51"):
        CardSet(1 << 52)
    with pytest.raises(ValueError, match="bits 0 to 51"):
        CardSet(-1)
    with pytest.raises(ValueError, match="0 to 51"):
        CardSet([3, 52])


def test_card_set_empty_text() -> None:
    assert CardSet.parse("") == CardSet()
    assert CardSet.parse("  ") == CardSet()
    assert str(CardSet()) == "" and CardSet().pretty == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("queen of spades, 2c and ace of hearts", ["QS", "2C", "AH"]),
        ("QS, AH, and TH", ["QS", "AH", "TH"]),
        ("2C 3C 4C", ["2C", "3C", "4C"]),
        ("2C,3C,  4C", ["2C", "3C", "4C"]),
        ("Q♠ A♥ 10♦", ["QS", "AH", "TD"]),
        ("queen of spades ten of hearts", ["QS", "TH"]),
        ("2 of clubs 3 of hearts", ["2C", "3H"]),
        ("qs", ["QS"]),
        ("", []),
    ],
)
def test_parse_cards_lists(text: str, expected: list[str]) -> None:
    assert [str(c) for c in parse_cards(text)] == expected


def test_parse_cards_keeps_order_and_duplicates() -> None:
    # parse_cards reads a list (order matters for plays); CardSet.parse refuses duplicates.
    assert [str(c) for c in parse_cards("AH 2C AH")] == ["AH", "2C", "AH"]


def test_parse_cards_bad_item_says_what_was_expected() -> None:
    with pytest.raises(CardParseError, match="expected a rank"):
        parse_cards("2C, queen of swords")


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_card_set_round_trips_any_mask(mask: int) -> None:
    s = CardSet(mask)
    assert CardSet.parse(str(s)) == s
    assert CardSet.parse(s.pretty) == s
    assert CardSet.parse(", ".join(c.name for c in s)) == s
    assert len(s) == mask.bit_count()
    listed = list(s)
    assert listed == sorted(listed)
    assert CardSet(listed) == s
    assert all(c in s for c in listed)
    for suit in Suit:
        assert s.of_suit(suit).mask == mask & SUIT_MASKS[suit]


@given(st.integers(0, FULL_DECK), st.integers(0, FULL_DECK))
def test_card_set_algebra_matches_python_sets(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    sx, sy = set(x), set(y)
    assert set(x | y) == sx | sy
    assert set(x & y) == sx & sy
    assert set(x - y) == sx - sy
    assert set(x ^ y) == sx ^ sy
    assert (x <= y) == (sx <= sy)


def test_card_list_error_quotes_the_text_as_typed() -> None:
    with pytest.raises(CardParseError, match="cannot read 'QX' as a card"):
        CardSet.parse("2C QX 3C")


@pytest.mark.parametrize("text", ["Q♠\ufe0f", "10♥\ufe0f", "♦\ufe0fJ"])
def test_suit_symbols_typed_from_an_emoji_keyboard(text: str) -> None:
    # Phone and emoji keyboards send a suit symbol followed by U+FE0F ("♥️").
    assert str(Card.parse(text)) in ("QS", "TH", "JD")
    assert len(CardSet.parse(f"2C {text}")) == 2


def test_the_pattern_tables_hold_every_bit_of_every_pattern() -> None:
    """They are built by doubling, for a quicker import: each entry is still the bits
    set in its pattern, lowest first, offset by the suit."""
    from openhearts.cards import _CARDS_OF_PATTERN, _RANKS_OF_PATTERN

    assert len(_RANKS_OF_PATTERN) == 1 << 13
    for pattern, ranks in enumerate(_RANKS_OF_PATTERN):
        assert ranks == tuple(r for r in range(13) if pattern >> r & 1)
        for suit in range(4):
            assert _CARDS_OF_PATTERN[suit][pattern] == tuple(13 * suit + r for r in ranks)


def test_parse_cards_refuses_what_is_not_text() -> None:
    with pytest.raises(CardParseError, match="cards as text, such as '2C 3C', not None"):
        parse_cards(None)  # type: ignore[arg-type]
