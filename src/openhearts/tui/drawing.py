"""Cards drawn with box characters on a small character canvas.

A card is five columns by four rows, or seven by five where there is room::

    ╭───╮   ╭─────╮
    │Q  │   │Q    │
    │ ♠ │   │  ♠  │
    ╰───╯   │    Q│
            ╰─────╯

Cards overlap from the left like a fanned hand; the rank and suit stay visible down
to three columns per card.  Each state has a shape as well as a colour, so the hand
reads without colour too: the cursor card has a heavy border, a chosen card sits one
row higher, a card you may not play is dim, a card just received has a double border
and the winner of a trick a double border.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from ..cards import Card

__all__ = [
    "Canvas",
    "CardLook",
    "draw_card",
    "card_size",
    "CARD_WIDTH",
    "CARD_HEIGHT",
    "LARGE_WIDTH",
    "LARGE_HEIGHT",
]

CARD_WIDTH: Final = 5
CARD_HEIGHT: Final = 4
#: The large card, used where there is room, also shows the rank at the bottom right.
LARGE_WIDTH: Final = 7
LARGE_HEIGHT: Final = 5

_FACE: Final = "#fbfaf4"
_FACE_DIM: Final = "#77807a"
_FACE_CHOSEN: Final = "#fff0a0"
_FACE_NEW: Final = "#d5ebff"
_RED: Final = "#c8102e"
_BLACK: Final = "#121212"
_RED_DIM: Final = "#4a1f22"
_BLACK_DIM: Final = "#2e3230"
_EDGE: Final = "#8d8d86"
_EDGE_CURSOR: Final = "#1456d8"
_EDGE_WIN: Final = "#c99700"

_BORDERS: Final = {
    "normal": "╭─╮││╰─╯",
    "heavy": "┏━┓┃┃┗━┛",
    "double": "╔═╗║║╚═╝",
}


@dataclass(frozen=True)
class CardLook:
    """How one card is drawn."""

    dim: bool = False
    chosen: bool = False
    cursor: bool = False
    new: bool = False
    winner: bool = False


class Canvas:
    """A grid of characters with styles, turned into a Rich :class:`Text`."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles: list[list[Style | None]] = [[None] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        """Write text from ``(x, y)``, clipped to the canvas, a column for each column
        it takes on screen: a character two columns wide (Chinese, an emoji) takes two
        cells, the second left empty; one of no width (an accent, a joiner) joins the
        cell before it.  One cell a character, names in Chinese ran the row past the
        canvas's edge and pushed what was beside it on screen to the right."""
        if not 0 <= y < self.height:
            return
        row, styles = self.chars[y], self.styles[y]
        column = x
        for char in text:
            width = cell_len(char)
            if width == 0:
                if 0 < column <= self.width and row[column - 1]:
                    row[column - 1] += char
                continue
            if column >= 0 and column + width <= self.width:
                self._clear(row, column, width)
                row[column] = char
                styles[column] = style
                for extra in range(column + 1, column + width):
                    row[extra] = ""
                    styles[extra] = style
            column += width

    def _clear(self, row: list[str], column: int, width: int) -> None:
        """Make room for ``width`` cells from ``column``: a wide character cut in two by
        them gives its half left outside them a space, so the row keeps its width."""
        if row[column] == "" and column > 0:
            row[column - 1] = " "
        end = column + width
        if end < self.width and row[end] == "":
            row[end] = " "

    def strips(self, base: Style) -> list[Strip]:
        """The canvas as Textual strips, each cell's style laid over ``base``."""
        strips = []
        for row, styles in zip(self.chars, self.styles, strict=True):
            segments = []
            start = 0
            for column in range(1, len(row) + 1):
                if column == len(row) or styles[column] is not styles[start]:
                    style = styles[start]
                    segments.append(
                        Segment("".join(row[start:column]), base + style if style else base)
                    )
                    start = column
            strips.append(Strip(segments, self.width))
        return strips

    def text(self) -> Text:
        text = Text(no_wrap=True, overflow="crop", end="")
        for index, (row, styles) in enumerate(zip(self.chars, self.styles, strict=True)):
            if index:
                text.append("\n")
            start = 0
            for column in range(1, len(row) + 1):
                if column == len(row) or styles[column] is not styles[start]:
                    text.append("".join(row[start:column]), styles[start])
                    start = column
        return text


def draw_card(
    canvas: Canvas,
    x: int,
    y: int,
    card: Card,
    look: CardLook = CardLook(),
    large: bool = False,
) -> None:
    """Draw a card face with its top-left corner at ``(x, y)``; ``large`` is 7 by 5."""
    red = card.suit.is_red
    if look.dim:
        face, ink = _FACE_DIM, _RED_DIM if red else _BLACK_DIM
    else:
        face = _FACE_CHOSEN if look.chosen else _FACE_NEW if look.new else _FACE
        ink = _RED if red else _BLACK
    if look.cursor:
        edge_colour, shape = _EDGE_CURSOR, "heavy"
    elif look.winner:
        edge_colour, shape = _EDGE_WIN, "double"
    elif look.new:
        edge_colour, shape = _EDGE_CURSOR, "double"
    else:
        edge_colour, shape = (_BLACK_DIM if look.dim else _EDGE), "normal"
    border = _BORDERS[shape]
    edge = Style(color=edge_colour, bgcolor=face, bold=look.cursor or look.winner)
    ink_style = Style(color=ink, bgcolor=face, bold=not look.dim, dim=look.dim)
    rank = card.rank.shown
    inner = 5 if large else 3
    rows = [f"{rank:<{inner}}", f"{card.suit.symbol:^{inner}}"]
    if look.new:
        # Marked inside too: under the cursor the heavy border replaces the double one.
        rows[0] = rows[0][:-1] + "•"
    if large:
        rows.append(f"{rank:>{inner}}")
    canvas.put(x, y, border[0] + border[1] * inner + border[2], edge)
    for row, text in enumerate(rows, start=1):
        canvas.put(x, y + row, border[3], edge)
        canvas.put(x + 1, y + row, text, ink_style)
        canvas.put(x + inner + 1, y + row, border[4], edge)
    canvas.put(x, y + len(rows) + 1, border[5] + border[6] * inner + border[7], edge)


def card_size(large: bool) -> tuple[int, int]:
    """Width and height of a card."""
    return (LARGE_WIDTH, LARGE_HEIGHT) if large else (CARD_WIDTH, CARD_HEIGHT)
