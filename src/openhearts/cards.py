"""Suits, ranks, cards and card sets.

A card is a small int from 0 to 51: ``suit * 13 + rank``, with ranks 0 (two) to
12 (ace).  A set of cards is an int with one bit per card, so a suit of a hand is
``(hand >> (13 * suit)) & 0x1FFF`` and "does this hand hold a heart" is one ``&``.
:class:`Card` and :class:`CardSet` wrap those ints for printing and parsing; the
engine's hot paths use the plain ints.

>>> Card.parse("Q of spades")
Card.parse('QS')
>>> str(Card.parse("10h")), Card.parse("th").pretty
('TH', '10♥')
>>> hand = CardSet.parse("2C 5C QS AH")
>>> len(hand), Card.parse("QS") in hand, str(hand.of_suit(Suit.CLUBS))
(4, True, '2C 5C')
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final, SupportsIndex

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardSet",
    "CardParseError",
    "card_of",
    "suit_of",
    "rank_of",
    "bits",
    "CARDS",
    "cards_of",
    "SUIT_MASKS",
    "FULL_DECK",
    "HEARTS_MASK",
    "QUEEN_OF_SPADES",
    "JACK_OF_DIAMONDS",
    "TWO_OF_CLUBS",
]


class CardParseError(ValueError):
    """A card or card list could not be read; the message says what was expected."""


class Suit(IntEnum):
    """The four suits, in the order a sorted hand shows them (colours alternate)."""

    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♠♥"[self]

    @property
    def word(self) -> str:
        """The plural name used in sentences: ``clubs``."""
        return ("clubs", "diamonds", "spades", "hearts")[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(IntEnum):
    """Ranks from two (0) to ace (12); aces are high."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self]

    @property
    def shown(self) -> str:
        """The rank as people write it on a card: ``10`` for the ten, else the letter."""
        return "10" if self == Rank.TEN else self.letter

    @property
    def word(self) -> str:
        return _RANK_WORDS[self]


_RANK_WORDS: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip

SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK: Final = (1 << 52) - 1
HEARTS_MASK: Final = SUIT_MASKS[Suit.HEARTS]


def card_of(rank: int, suit: int) -> int:
    """The card number of a rank and suit (both as ints)."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def bits(mask: int) -> Iterator[int]:
    """The card numbers in a mask, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _numbers_of_patterns(first: int) -> tuple[tuple[int, ...], ...]:
    """For every 13-bit pattern, ``first + r`` for each bit ``r`` set in it, lowest
    first.  Built by doubling (the patterns with bit ``r`` are those without it, plus
    ``r``): testing every bit of every pattern took a third of the package's import.

    >>> table = _numbers_of_patterns(13)
    >>> table[0], table[0b101], table[1 << 12]
    ((), (13, 15), (25,))
    """
    table: list[tuple[int, ...]] = [()]
    for r in range(13):
        table += [(*numbers, first + r) for numbers in table]
    return tuple(table)


# For every 13-bit suit pattern, the rank numbers set in it: a mask's cards are then
# four table look-ups instead of a loop over bits.
_RANKS_OF_PATTERN: Final = _numbers_of_patterns(0)
_CARDS_OF_PATTERN: Final = tuple(_numbers_of_patterns(13 * suit) for suit in range(4))


def cards_of(mask: int) -> list[int]:
    """The card numbers in a mask, lowest first, as a list (faster than :func:`bits`).

    >>> cards_of((1 << 0) | (1 << 13) | (1 << 51))
    [0, 13, 51]
    """
    table = _CARDS_OF_PATTERN
    return [
        *table[0][mask & 0x1FFF],
        *table[1][mask >> 13 & 0x1FFF],
        *table[2][mask >> 26 & 0x1FFF],
        *table[3][mask >> 39 & 0x1FFF],
    ]


class Card(int):
    """One card; an int from 0 to 51 with names.

    Use :meth:`parse` to read any common spelling, ``str(card)`` for the short
    canonical form (``QS``), :attr:`pretty` for ``Q♠`` and :attr:`name` for
    ``queen of spades``.
    """

    __slots__ = ()

    def __new__(cls, value: SupportsIndex) -> Card:
        if type(value) is not int:
            # A Card, or numpy's integers; not True (it was the 3♣) or a card's name.
            value = _card_number(value)
        if not 0 <= value < 52:
            raise ValueError(f"a card number is 0 to 51, not {value}")
        return _CARDS[value] if _CARDS else super().__new__(cls, value)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    @property
    def mask(self) -> int:
        return 1 << self

    @property
    def pretty(self) -> str:
        return _PRETTY[self]

    @property
    def name(self) -> str:
        """The spoken name: ``queen of spades``."""
        return f"{self.rank.word} of {self.suit.word}"

    def __str__(self) -> str:
        return _SHORT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_SHORT[self]!r})"

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        return _CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in any common spelling.

        Accepted: ``QS``, ``qs``, ``Q♠``, ``♠Q``, ``10H``, ``TH``, ``Q of spades``,
        ``queen of spades``, ``ten of hearts``; also ``1H`` for the ace, as some programs
        print it (the faces refuse a typed ``1``, more likely a ten that lost its 0).

        >>> [str(Card.parse(t)) for t in ("qs", "Q♠", "10H", "TH", "ace of hearts", "♦j")]
        ['QS', 'QS', 'TH', 'TH', 'AH', 'JD']
        >>> Card.parse("QX")
        Traceback (most recent call last):
        ...
        openhearts.cards.CardParseError: cannot read 'QX' as a card: expected a rank ...
        """
        if not isinstance(text, str):
            raise TypeError(f"Card.parse reads a card's name, not {text!r} (Card takes a number)")
        cleaned = _without_variation_selectors(text).strip().lower()
        found = _parse_one(cleaned)
        if found is None:
            # A whole pasted page is not worth repeating back: its start says enough.
            shown = text if len(text) <= 40 else text[:39] + "…"
            raise CardParseError(
                f"cannot read {shown!r} as a card: expected a rank (2-10, J, Q, K, A) and a "
                "suit (C, D, S, H or ♣ ♦ ♠ ♥), for example QS, 10H, Q♠ or 'queen of spades'"
            )
        return _CARDS[found]


_RANK_ALIASES: Final = {
    **{Rank(r).letter.lower(): r for r in range(13)},
    "10": Rank.TEN,
    "1": Rank.ACE,  # some programs print the ace as 1
    **{w: r for r, w in enumerate(_RANK_WORDS)},
    "deuce": Rank.TWO,
}
_SUIT_ALIASES: Final = {
    "c": 0, "♣": 0, "♧": 0, "club": 0, "clubs": 0,
    "d": 1, "♦": 1, "♢": 1, "diamond": 1, "diamonds": 1,
    "s": 2, "♠": 2, "♤": 2, "spade": 2, "spades": 2,
    "h": 3, "♥": 3, "♡": 3, "heart": 3, "hearts": 3,
}  # fmt: skip
_WORDS_RE: Final = re.compile(r"^(\w+)\s*(?:of\s+)?(\w+|[♣♧♦♢♠♤♥♡])$")
_COMPACT_RE: Final = re.compile(r"^(10|[2-9tjqka1])\s*([cdsh♣♧♦♢♠♤♥♡])$")
_SUIT_FIRST_RE: Final = re.compile(r"^([cdsh♣♧♦♢♠♤♥♡])\s*(10|[2-9tjqka1])$")


def _without_variation_selectors(text: str) -> str:
    # Phone and emoji keyboards send "♠" followed by U+FE0F (emoji style) or U+FE0E.
    return text.replace("\ufe0f", "").replace("\ufe0e", "")


def _parse_one(text: str) -> int | None:
    for pattern, rank_group in ((_COMPACT_RE, 1), (_SUIT_FIRST_RE, 2), (_WORDS_RE, 1)):
        match = pattern.match(text)
        if match:
            rank = _RANK_ALIASES.get(match.group(rank_group))
            suit = _SUIT_ALIASES.get(match.group(3 - rank_group))
            if rank is not None and suit is not None:
                return suit * 13 + rank
    return None


_SHORT: Final = tuple(Rank(c % 13).letter + Suit(c // 13).letter for c in range(52))
# Shown to people, so the ten is written as players write it: 10♥, not T♥.
_PRETTY: Final = tuple(Rank(c % 13).shown + Suit(c // 13).symbol for c in range(52))
_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(c) for c in range(52))
#: The 52 :class:`Card` objects, indexed by card number.
CARDS: Final = _CARDS

QUEEN_OF_SPADES: Final = _CARDS[Suit.SPADES * 13 + Rank.QUEEN]
JACK_OF_DIAMONDS: Final = _CARDS[Suit.DIAMONDS * 13 + Rank.JACK]
TWO_OF_CLUBS: Final = _CARDS[Suit.CLUBS * 13 + Rank.TWO]


class CardSet:
    """An immutable set of cards kept as an int bitmask (bit ``n`` = card ``n``).

    Iteration goes from the lowest card up, which is also the display order of a
    sorted hand (clubs, diamonds, spades, hearts; two to ace).

    >>> hand = CardSet.parse("AH, 2c qs")
    >>> str(hand), hand.pretty, int(hand) == (1 << 0) | (1 << 36) | (1 << 51)
    ('2C QS AH', '2♣ Q♠ A♥', True)
    >>> str(hand - CardSet.parse("QS")), bool(CardSet())
    ('2C AH', False)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[int] = 0) -> None:
        """A set from a :class:`Card` (that one card), a bitmask (an int, or any integer
        such as numpy's), or card numbers; text is read by :meth:`parse`.

        >>> str(CardSet(Card.parse("QS"))), str(CardSet(0b101)), str(CardSet([0, 36]))
        ('QS', '2C 4C', '2C QS')
        """
        mask = _mask_of(cards)
        if mask is None:
            if isinstance(cards, str):
                raise TypeError(f"a card set from text is read by CardSet.parse, not {cards!r}")
            if not isinstance(cards, Iterable):
                raise TypeError(f"a card set is made of cards or a mask, not {cards!r}")
            mask = 0
            for item in cards:
                card = _card_number(item)
                if not 0 <= card < 52:
                    raise ValueError(f"a card number is 0 to 51, not {card}")
                mask |= 1 << card
        if not 0 <= mask <= FULL_DECK:
            raise ValueError("a card set mask has bits 0 to 51 only")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces or commas; a duplicate is an error.

        >>> CardSet.parse("QS qs")
        Traceback (most recent call last):
        ...
        openhearts.cards.CardParseError: QS is named twice
        """
        mask = 0
        for card in parse_cards(text):
            if mask >> card & 1:
                raise CardParseError(f"{card} is named twice")
            mask |= 1 << card
        return cls(mask)

    @classmethod
    def full_deck(cls) -> CardSet:
        return cls(FULL_DECK)

    def of_suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __iter__(self) -> Iterator[Card]:
        return (_CARDS[c] for c in bits(self.mask))

    def __reversed__(self) -> Iterator[Card]:
        return reversed(list(self))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        """Whether the set holds ``card``: a Card, a card number or a card's name.

        >>> "qs" in CardSet.parse("2C QS"), 36 in CardSet.parse("2C")
        (True, False)
        """
        if isinstance(card, str):
            # Read, as everywhere else: "QS" in a hand holding the Q♠ was False.
            card = Card.parse(card)
        elif not isinstance(card, int) or isinstance(card, bool):
            try:
                card = _card_number(card)
            except TypeError:
                return False
        return 0 <= card < 52 and bool(self.mask >> card & 1)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    # The other operand of | & - ^ is a CardSet, a Card (that one card) or a bitmask:
    # a Card is an int too, but taken as a mask it would stand for unrelated cards.

    def __or__(self, other: CardSet | SupportsIndex) -> CardSet:
        """The cards in either; a :class:`Card` operand is that one card.

        >>> hand = CardSet.parse("2C 7C QS")
        >>> str(hand | Card.parse("AH")), str(hand - Card.parse("QS"))
        ('2C 7C QS AH', '2C 7C')
        >>> str(hand & Card.parse("7C")), str(hand ^ CardSet.parse("2C 3C"))
        ('7C', '3C 7C QS')
        """
        mask = _mask_of(other)
        return NotImplemented if mask is None else CardSet(self.mask | mask)

    def __and__(self, other: CardSet | SupportsIndex) -> CardSet:
        mask = _mask_of(other)
        return NotImplemented if mask is None else CardSet(self.mask & mask)

    def __sub__(self, other: CardSet | SupportsIndex) -> CardSet:
        mask = _mask_of(other)
        return NotImplemented if mask is None else CardSet(self.mask & ~mask)

    def __xor__(self, other: CardSet | SupportsIndex) -> CardSet:
        mask = _mask_of(other)
        return NotImplemented if mask is None else CardSet(self.mask ^ mask)

    # With the Card (or mask) on the left, Python asks the set: the same meanings hold.
    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __rsub__(self, other: CardSet | SupportsIndex) -> CardSet:
        """What the left operand holds that this set does not.

        >>> card = Card.parse("QS")
        >>> str(card | CardSet.parse("2C")), str(card - CardSet.parse("QS AH"))
        ('2C QS', '')
        """
        mask = _mask_of(other)
        return NotImplemented if mask is None else CardSet(mask & ~self.mask)

    def __le__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask & ~other.mask == 0

    def __str__(self) -> str:
        return " ".join(_SHORT[c] for c in bits(self.mask))

    @property
    def pretty(self) -> str:
        return " ".join(_PRETTY[c] for c in bits(self.mask))

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def cards(self) -> list[Card]:
        return list(self)


def _mask_of(value: object) -> int | None:
    """The mask ``value`` stands for: a Card's own bit, a CardSet's mask, an integer as
    it is (numpy's integers too); None for anything else (True and False included)."""
    if type(value) is CardSet:  # the usual case first: this runs in the bots' loops
        return value.mask
    if type(value) is int:
        if not 0 <= value <= FULL_DECK:
            # As an operand too: hand - (-1) emptied the hand, where hand | -1 was refused.
            raise ValueError("a card set mask has bits 0 to 51 only")
        return value
    if isinstance(value, Card):
        return 1 << value
    if isinstance(value, CardSet):
        return value.mask
    if isinstance(value, bool):
        return None
    try:
        mask = operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # no integer (a numpy array has __index__ but refuses it)
        return None
    return _mask_of(mask)


def _card_number(value: object) -> int:
    """A card number from an item of a card list (numpy's integers too); True and
    False, which are ints to Python, and names are refused."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    hint = " (Card.parse reads a card's name)" if isinstance(value, str) else ""
    try:
        if not isinstance(value, bool):
            return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        pass
    raise TypeError(f"a card number is an int from 0 to 51, not {value!r}{hint}")


def parse_cards(text: str) -> list[Card]:
    """Read a list of cards separated by commas, spaces or ``and``.

    Multi-word names (``queen of spades``) are understood too.

    >>> [str(c) for c in parse_cards("queen of spades, 2c and ace of hearts")]
    ['QS', '2C', 'AH']
    >>> [str(c) for c in parse_cards("QS, AH, and TH")]
    ['QS', 'AH', 'TH']
    """
    if not isinstance(text, str):
        raise CardParseError(f"cards as text, such as '2C 3C', not {text!r}")
    text = _without_variation_selectors(text)
    # "QS, AH, and TH": the serial comma before "and" too.
    items = [part for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text.strip()) if part]
    cards: list[Card] = []
    for item in items:
        single = _parse_one(item.strip().lower())
        if single is not None:
            cards.append(_CARDS[single])
            continue
        words = item.split()
        index = 0
        while index < len(words):
            # Prefer the three-word form "queen of spades", then "queen spades", then "qs".
            for width in (3, 2, 1):
                chunk = " ".join(words[index : index + width]).lower()
                found = _parse_one(chunk) if index + width <= len(words) else None
                if found is not None:
                    cards.append(_CARDS[found])
                    index += width
                    break
            else:
                Card.parse(words[index])  # raises with the standard message
    return cards


__all__ += ["parse_cards"]
