"""How cards and tables are printed in plain lines: with suit symbols (``10♥``) or, where
the output cannot show them, with letters (``10H``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Sequence
from typing import TextIO

from ..cards import Card, Suit
from ..session.names import columns, padded
from ..session.words import join_words

__all__ = ["Style", "supports_symbols", "table", "visible"]


_SYMBOL_TO_LETTER = {"♣": "C", "♦": "D", "♠": "S", "♥": "H"}
_SYMBOL_TO_WORD = {"♣": "clubs", "♦": "diamonds", "♠": "spades", "♥": "hearts"}
_RANKED_SYMBOL = re.compile(r"(?<=[0-9TJQKA])([♣♦♠♥])")
_LONE_SYMBOL = re.compile(r"[♣♦♠♥]")
# Control characters (but the line break and the tab) and the marks that reverse the
# direction of text.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with its control characters written out: an escape sequence typed in a
    file name, or kept in a record's seed, would otherwise drive the terminal it is
    printed on (clear it, retitle it, hide what follows).

    >>> print(visible("save \x1b[2J.json"))
    save \\x1b[2J.json
    """
    return _INVISIBLE.sub(lambda found: found.group().encode("unicode_escape").decode(), text)


def supports_symbols(stream: TextIO) -> bool:
    """Whether the stream can print the suit symbols (else letters are used)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        "♣♦♠♥".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Style:
    """How cards look: with suit symbols (``10♥``) or, where the output cannot show
    them, with letters (``10H``).  Tens are written ``10``, the easiest to read aloud.

    >>> from openhearts.cards import CardSet
    >>> Style(True).cards(CardSet.parse("TH QS 2C"))
    '2♣ Q♠ 10♥'
    >>> Style(False).card(Card.parse("QS")), Style(False).clean("you hold ♣; not the Q♠")
    ('QS', 'you hold clubs; not the QS')
    >>> Style(spoken=True).card(Card.parse("QS"))
    'queen of spades'

    """

    def __init__(self, symbols: bool = True, spoken: bool = False) -> None:
        self.symbols = symbols
        #: Cards by their names (``queen of spades``), as said aloud.
        self.spoken = spoken

    def card(self, card: Card) -> str:
        if self.spoken:
            return card.name
        return card.rank.shown + (card.suit.symbol if self.symbols else card.suit.letter)

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def the(self, card: Card) -> str:
        """A card mid-sentence: ``Q♠``, or ``the queen of spades`` when spoken."""
        return f"the {card.name}" if self.spoken else self.card(card)

    def listing(self, cards: Iterable[Card]) -> str:
        """Cards mid-sentence: ``2♣ 3♣ Q♠``, or ``the two of clubs, ... and the queen of
        spades`` when spoken."""
        if not self.spoken:
            return self.cards(cards)
        return join_words([f"the {card.name}" for card in cards])

    def suit(self, suit: Suit) -> str:
        return f"{suit.symbol} {suit.word}" if self.symbols else suit.word

    def clean(self, text: str) -> str:
        """Engine messages use suit symbols; spell them out when they cannot be shown."""
        if self.symbols:
            return text
        text = _RANKED_SYMBOL.sub(lambda m: _SYMBOL_TO_LETTER[m.group(1)], text)
        return _LONE_SYMBOL.sub(lambda m: _SYMBOL_TO_WORD[m.group(0)], text)

    def for_stream(self, text: str, stream: TextIO) -> str:
        """``text`` as ``stream`` can print it: suits as :meth:`clean` writes them,
        control characters written out (:func:`visible`), and any other character its
        encoding lacks as its escape, ``\\xeb`` (printing it raised an error; as ``?``,
        Ω and 😀 read the same)."""
        text = visible(self.clean(text))
        encoding = getattr(stream, "encoding", None)
        if encoding:
            with contextlib.suppress(LookupError):
                text = text.encode(encoding, "backslashreplace").decode(encoding)
        return text


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows of aligned columns: the first left-aligned, the others right-aligned.

    >>> print("\\n".join(table(["", "Total"], [["You", 5], ["West", 26]])))
           Total
    You        5
    West      26
    """
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    # Padded by the columns each cell takes on screen, not its letters: a name in
    # Chinese (two columns a letter) put every number after it out of line.
    widths = [max(columns(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [padded(row[0], widths[0], left=True)]
        parts += [padded(cell, max(widths[i], 5)) for i, cell in enumerate(row[1:], start=1)]
        lines.append("  ".join(parts).rstrip())
    return lines
