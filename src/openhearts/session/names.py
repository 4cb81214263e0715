"""Player names: one rule for every face.

A name is cleaned (control characters dropped, white space collapsed, at most
:data:`NAME_CHARS` characters), an empty one gets the seat's default, and a name
already taken at the table (whatever its case) gets a number: ``West 2``.

>>> clean_name("  Ann\\x00 \\n  Lee  ", "Player 1")
'Ann Lee'
>>> clean_name("\\u3164\\u3164", "Player 1")
'Player 1'
>>> table_names(4, "You")
['You', 'West', 'North', 'East']
>>> table_names(3, "West", ["west", ""])
['West', 'west 2', 'East']
>>> unique_name("Ann", ["ann", "Ann 2"])
'Ann 3'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

from ..rules import seat_names

__all__ = [
    "NAME_CHARS",
    "JOINERS",
    "SHORT_COMPASS",
    "short_name",
    "columns",
    "padded",
    "clean_name",
    "unique_name",
    "table_names",
    "seated_compass_names",
    "marked_names",
    "opponent_names",
    "typed_opponents",
]

#: Longest name kept (longer ones are cut).
NAME_CHARS: Final = 24

#: Letters drawn as blank space (Hangul fillers, the blank Braille pattern), and the
#: joiners: a name of them alone showed as no name.
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800 \u200c\u200d")

#: Kept in names and chat though not printable: Persian and Indic words need them, and
#: emoji families are joined by them ("👩‍👧" became "👩 👧").
JOINERS: Final = "\u200c\u200d"


def clean_name(text: object, default: str) -> str:
    """A display name from anything typed; ``default`` when nothing usable is left."""
    if not isinstance(text, str):
        return default
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text[: NAME_CHARS * 8]
        if ch.isspace() or unicodedata.category(ch)[0] != "C" or ch in JOINERS
    )
    name = _cut(" ".join(kept.split()), NAME_CHARS).strip()
    if all(ch in _BLANK_LETTERS for ch in name):
        return default  # shown as nothing at all
    return name


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, never inside a character that is several
    (an emoji family of seven, a letter and its accent): six families cut at 24 left a
    different emoji at the end.

    >>> family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    >>> _cut(family * 6, 24) == family * 3
    True
    """
    if len(text) <= limit:
        return text
    cut = limit
    while cut > 0 and (_continues(text[cut]) or text[cut - 1] in JOINERS):
        cut -= 1
    return text[:cut]


def _continues(ch: str) -> bool:
    """Whether ``ch`` belongs to the character before it (a joiner, an accent, a
    variation selector, a skin tone)."""
    code = ord(ch)
    return (
        ch in JOINERS
        or unicodedata.category(ch) in ("Mn", "Me")
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
    )


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, numbered when another player already has it (case does not count)."""
    used = {other.casefold() for other in taken}
    candidate, number = name, 2
    while candidate.casefold() in used:
        suffix = f" {number}"
        candidate = name[: NAME_CHARS - len(suffix)] + suffix
        number += 1
    return candidate


def table_names(
    players: int,
    human: object,
    opponents: Sequence[object] = (),
    direction: str = "clockwise",
) -> list[str]:
    """Names for a table with the human first: the given opponents' names, then the
    compass names of the remaining seats (where they sit, for the direction of play);
    all different."""
    compass = list(seat_names(players, direction))
    wanted = [clean_name(human, "You")]
    given = [clean_name(name, "") for name in opponents][: players - 1]
    wanted += [name or compass[seat] for seat, name in enumerate(given, start=1)]
    wanted += compass[len(wanted) :]
    names: list[str] = []
    for name in wanted:
        names.append(unique_name(name, names))
    return names


def opponent_names(given: Iterable[object]) -> list[str]:
    """The computer players' names in seat order, each cleaned; a blank one stays
    blank, so that its seat keeps its default name and the names after it keep their
    seats; blanks at the end are dropped.

    >>> opponent_names(["Bo", " ", "Cy", "", " "])
    ['Bo', '', 'Cy']
    """
    names = [clean_name(name, "") for name in given]
    while names and not names[-1]:
        names.pop()
    return names


def typed_opponents(text: str | None, players: int) -> list[str]:
    """The computer players' names typed on the command line (``"Bo,Cy"``), in seat
    order (a blank entry keeps its seat's default name); more names than computer
    players is a ValueError.

    >>> typed_opponents("Bo, ,Cy", 4)
    ['Bo', '', 'Cy']
    >>> typed_opponents("Bo,Cy,Di,Ed", 4)
    Traceback (most recent call last):
    ...
    ValueError: --opponents: 4 names for 3 computer players
    """
    names = opponent_names((text or "").split(","))
    if len(names) > players - 1:
        raise ValueError(f"--opponents: {len(names)} names for {players - 1} computer players")
    return names


def seated_compass_names(names: Sequence[str], direction: str) -> list[str]:
    """After a seating shuffle, each compass name moved to the seat it names, so that
    "West" still sits on the person's left; other names stay with their players.

    The person keeps seat 0 and their name; a compass name taken by then gets a number,
    as every name already at the table does.

    >>> seated_compass_names(["You", "East", "Ann", "West"], "clockwise")
    ['You', 'West', 'Ann', 'East']
    >>> seated_compass_names(["West", "North", "West 2", "East"], "clockwise")
    ['West', 'West 3', 'West 2', 'East']
    """
    compass = seat_names(len(names), direction)
    seated = [names[0]]
    for seat, name in enumerate(names[1:], start=1):
        wanted = compass[seat] if name in compass[1:] else name
        # Names kept by the players still to seat are taken too; compass names move.
        kept = [later for later in names[seat + 1 :] if later not in compass[1:]]
        seated.append(unique_name(wanted, seated + kept))
    return seated


def marked_names(names: Sequence[str], me: int) -> list[str]:
    """Names for a table of everyone: the person's marked ``(you)``, unless it is "You".

    >>> marked_names(["Ann", "West"], 0), marked_names(["You", "West"], 0)
    (['Ann (you)', 'West'], ['You', 'West'])
    """
    return [
        f"{name} (you)" if seat == me and name.casefold() != "you" else name
        for seat, name in enumerate(names)
    ]


#: Short compass names where the long ones do not fit (six players): cut to "South…",
#: Southwest and Southeast could not be told apart.
SHORT_COMPASS: Final = {"Southwest": "SW", "Northwest": "NW", "Northeast": "NE", "Southeast": "SE"}


def columns(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character (Chinese,
    Japanese, most emoji), none for an accent or a joiner, one for any other.

    >>> columns("Zoë"), columns("李小龍"), columns("e\u0301")
    (3, 6, 1)
    """
    return sum(_char_columns(char) for char in text)


def padded(text: str, width: int, *, left: bool = False) -> str:
    """``text`` made ``width`` columns wide with spaces before it (right-aligned) or,
    ``left``, after it: :func:`columns`, not letters, as ``str.rjust`` counts.

    >>> padded("李", 4), padded("Bo", 4, left=True)
    ('  李', 'Bo  ')
    """
    room = " " * max(0, width - columns(text))
    return text + room if left else room + text


def _char_columns(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def short_name(name: str, width: int) -> str:
    """``name`` in at most ``width`` columns: whole, a compass name's short form, or cut
    with "…" (columns on screen, not characters: a name in Chinese takes two a letter).

    >>> short_name("Northeast", 20), short_name("Northeast", 6), short_name("Bartholomew", 6)
    ('Northeast', 'NE', 'Barth…')
    >>> short_name("北京北京北京", 6)
    '北京…'
    """
    if columns(name) <= width:
        return name
    short = SHORT_COMPASS.get(name)
    if short is not None and len(short) <= width:
        return short
    if width <= 0:
        return ""
    kept, used = "", 0
    for char in name:
        used += _char_columns(char)
        if used > width - 1:
            break
        kept += char
    return kept + "…"
