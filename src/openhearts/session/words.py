"""Small word helpers shared by the session's sentences.

>>> number_word(3), number_word(17), join_words(["a", "b", "c"])
('three', '17', 'a, b and c')
>>> counted(1, "card"), counted(3, "card")
('one card', 'three cards')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["number_word", "counted", "join_words", "plural", "as_sentence"]

_NUMBERS: Final = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen",
)  # fmt: skip


def number_word(count: int) -> str:
    return _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)


def counted(count: int, word: str) -> str:
    """The count in words and the noun, singular for one: ``one card``, ``three cards``."""
    return f"{number_word(count)} {word}" if count == 1 else f"{number_word(count)} {word}s"


def join_words(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, word: str) -> str:
    """>>> plural(1, "point"), plural(-9, "point")
    ('1 point', '-9 points')
    """
    return f"{count} {word}" if abs(count) == 1 else f"{count} {word}s"


def as_sentence(text: str) -> str:
    """An engine message as a sentence: capital first, full stop last.

    >>> as_sentence("cannot read 'x' as a card")
    "Cannot read 'x' as a card."
    """
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
