"""The seed a game is dealt from, read the same way by every face.

``hearts play --seed 1`` hands the face the text ``"1"``; the engine deals differently
from the string ``"1"`` and the number ``1``.  Every face passes what it was given
through :func:`game_seed`, so the same seed deals the same game everywhere.

>>> game_seed("1"), game_seed(" -7 "), game_seed(1), game_seed("ruby")
(1, -7, 1, 'ruby')
>>> isinstance(game_seed(None), int)
True
"""

from __future__ import annotations

import contextlib
import random

__all__ = ["game_seed", "SEED_RANGE"]

#: Random seeds are drawn below this (short enough to read out and type back).
SEED_RANGE = 10**9


def _without_lone_surrogates(text: str) -> str:
    """``text`` with the bytes a command line could not decode (kept by Python as lone
    surrogates, which no file can hold) written as ``\\xff``: ``--seed`` with such a
    byte stopped with a traceback.

    >>> _without_lone_surrogates("caf\\udce9")
    'caf\\\\xe9'
    """
    if text.isascii():
        return text
    for errors in ("surrogateescape", "surrogatepass"):
        try:
            return text.encode("utf-8", errors).decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            continue
    return text  # pragma: no cover - one of the two always encodes


def game_seed(value: object = None, rng: random.Random | None = None) -> int | str:
    """Whole numbers, written or not, become ints; other text is kept as it is;
    ``None`` draws a random seed."""
    if value is None:
        return (rng or random.Random()).randrange(SEED_RANGE)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    text = _without_lone_surrogates(str(value).strip())
    digits = text[1:] if text[:1] in "+-" else text
    if digits.isascii() and digits.isdigit():
        # Past Python's 4,300 digits int() refuses the text: it stays a word.
        with contextlib.suppress(ValueError):
            return int(text)
    return text
