"""The table's widgets: your hand, the trick in the middle, and a panel for each player."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..cards import Card, CardSet, Suit
from ..session.names import columns, short_name
from .drawing import (
    CARD_HEIGHT,
    CARD_WIDTH,
    LARGE_HEIGHT,
    Canvas,
    CardLook,
    card_size,
    draw_card,
)

__all__ = [
    "FittingFooter",
    "HandView",
    "TrickView",
    "SeatPanel",
    "SeatInfo",
    "StatusLine",
    "slot_angle",
    "slot_side",
]


class FittingFooter(Footer):
    """A compact footer that shows only the keys that fit whole, in their order.

    Textual's footer cuts the last key mid-word ("o" for Options at 80 columns); the help
    screen lists every key, so one that does not fit is better left out.
    """

    def __init__(self) -> None:
        super().__init__(compact=True)

    #: Kept whatever else is cut: the help screen is where the keys left out are found.
    KEPT_ACTIONS: ClassVar[frozenset[str]] = frozenset({"help", "app.help"})

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        keys = [widget for widget in widgets if isinstance(widget, FooterKey)]

        def width(key: FooterKey) -> int:
            # Compact: the key, one space, the description; one column between keys.
            return cell_len(key.key_display) + 1 + cell_len(key.description) + 1

        room = self.app.size.width + 1
        room -= sum(width(key) for key in keys if key.action in self.KEPT_ACTIONS)
        shown: set[int] = set()
        for key in keys:
            if key.action in self.KEPT_ACTIONS:
                shown.add(id(key))
            elif width(key) <= room:
                room -= width(key)
                shown.add(id(key))
            else:
                room = 0  # keys are cut from the end, never one skipped for a shorter one
        self.styles.grid_size_columns = len(shown)
        for widget in widgets:
            if not isinstance(widget, FooterKey) or id(widget) in shown:
                yield widget

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)


class StatusLine(Widget):
    """A fixed-size line of text; updating it never changes the layout."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()

    def show(self, text: Text) -> None:
        if text != self.text:
            self.text = text
            self.refresh()

    def render(self) -> Text:
        return self.text


def slot_angle(slot: int, players: int) -> float:
    """Where a display slot sits around the table, as an angle in radians.

    Slot 0 is you, at the bottom; the others follow clockwise on screen (left, top, right).
    """
    return math.radians(270.0 - slot * 360.0 / players)


def slot_side(slot: int, players: int) -> str:
    """``left``, ``top`` or ``right``: the side of the screen an opponent's panel goes."""
    cosine = math.cos(slot_angle(slot, players))
    if cosine < -0.3:
        return "left"
    if cosine > 0.3:
        return "right"
    return "top"


class CanvasWidget(Widget):
    """A widget drawn on a :class:`Canvas`, rendered line by line (fast to refresh)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._strips: list[Strip] | None = None

    def draw(self) -> Canvas:
        raise NotImplementedError

    def redraw(self) -> None:
        self._strips = None
        self.refresh()

    def on_resize(self) -> None:
        self._strips = None

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        if (
            self._strips is None
            or len(self._strips) != self.size.height
            or (self._strips and self._strips[0].cell_length != self.size.width)
        ):
            self._strips = self.draw().strips(base)
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, base)


class HandView(CanvasWidget, can_focus=True):
    """Your hand, fanned along the bottom; arrows move, Enter or a click plays or chooses."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("home", "move_to(0)", show=False),
        Binding("end", "move_to(-1)", show=False),
        Binding("up", "suit(1)", "Next suit", show=False),
        Binding("down", "suit(-1)", "Previous suit", show=False),
        # One of the two Enter bindings is live: the footer says what Enter does now.
        Binding("enter", "activate", "Play", show=True),
        Binding("enter", "choose", "Choose", show=True),
        Binding("space", "activate", "Play", show=False),
        Binding("space", "choose", "Choose", show=False),
    ]

    class Activated(Message):
        """Enter, Space or a click on a card."""

        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    class CursorMoved(Message):
        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.legal: CardSet | None = None
        self.chosen: CardSet = CardSet()
        self.new: CardSet = CardSet()
        self.cursor = 0
        self.choosing = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "activate":
            # No card, nothing to play: the footer offers no Play (at the game's end).
            return not self.choosing and bool(self.cards)
        if action == "choose":
            return self.choosing
        return True

    def set_choosing(self, choosing: bool) -> None:
        """Whether Enter chooses cards to pass (rather than plays one), for the footer."""
        if choosing != self.choosing:
            self.choosing = choosing
            self.refresh_bindings()

    def show(
        self,
        cards: Sequence[Card],
        legal: CardSet | None = None,
        chosen: CardSet | None = None,
        new: CardSet | None = None,
    ) -> None:
        """Show these cards; the cursor stays on the same card where it can."""
        current = self.current
        had_cards = bool(self.cards)
        self.cards = list(cards)
        if had_cards != bool(self.cards):
            self.refresh_bindings()  # Play in the footer only with a card to play
        self.legal = legal
        self.chosen = chosen or CardSet()
        self.new = new or CardSet()
        if current is not None and current in self.cards:
            self.cursor = self.cards.index(current)
        else:
            self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
        self.redraw()

    @property
    def current(self) -> Card | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def place(self, card: Card) -> None:
        """Put the cursor on a card."""
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self.redraw()

    def _geometry(self) -> tuple[bool, int, int]:
        """Large cards or not, the card width, and the step from one card to the next.

        Large cards need one more row and, overlapped, four columns each to show the suit.
        """
        count = len(self.cards)
        for large in (True, False):
            if large and self.size.height < LARGE_HEIGHT + 1:
                continue
            width = card_size(large)[0]
            least = 4 if large else 3
            if count <= 1:
                return large, width, width + 1
            room = (self.size.width - width - 1) // (count - 1)
            if room >= least:
                return large, width, min(width + 1, room)
            if not large:
                # Seventeen cards (three players) at 50 columns: two columns each still
                # show the rank, where three would run off the edge.
                return large, width, max(2, room)
        raise AssertionError("unreachable")

    def _positions(self) -> list[int]:
        _, width, step = self._geometry()
        span = step * (len(self.cards) - 1) + width if self.cards else 0
        left = max(0, (self.size.width - span) // 2)
        return [left + i * step for i in range(len(self.cards))]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return CARD_HEIGHT + 1

    def draw(self) -> Canvas:
        canvas = Canvas(self.size.width, self.size.height)
        if not self.cards:
            canvas.put(1, 2, "(no cards)", Style(dim=True))
            return canvas
        focused = self.has_focus
        large = self._geometry()[0]
        for index, (card, x) in enumerate(zip(self.cards, self._positions(), strict=True)):
            chosen = card in self.chosen
            look = CardLook(
                dim=self.legal is not None and card not in self.legal,
                chosen=chosen,
                cursor=index == self.cursor and focused,
                new=card in self.new,
            )
            draw_card(canvas, x, 0 if chosen else 1, card, look, large)
        return canvas

    def card_at(self, x: int) -> Card | None:
        """The card whose visible part is at column ``x``."""
        found: Card | None = None
        width = self._geometry()[1]
        for card, left in zip(self.cards, self._positions(), strict=True):
            if left <= x < left + width:
                found = card
        return found

    def _moved(self) -> None:
        self.redraw()
        if self.current is not None:
            self.post_message(self.CursorMoved(self.current))

    def action_move(self, delta: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + delta) % len(self.cards)
            self._moved()

    def action_move_to(self, index: int) -> None:
        if self.cards:
            self.cursor = index % len(self.cards)
            self._moved()

    def action_suit(self, delta: int) -> None:
        """Jump to the first card of the next (or previous) suit held."""
        if not self.cards:
            return
        suits = sorted({card.suit for card in self.cards})
        here = self.cards[self.cursor].suit
        target = suits[(suits.index(here) + delta) % len(suits)]
        self.cursor = next(i for i, c in enumerate(self.cards) if c.suit == target)
        self._moved()

    def action_activate(self) -> None:
        if self.current is not None:
            self.post_message(self.Activated(self.current))

    def action_choose(self) -> None:
        self.action_activate()

    def on_click(self, event: events.Click) -> None:
        card = self.card_at(event.x)
        if card is not None:
            self.cursor = self.cards.index(card)
            self.redraw()
            self.post_message(self.Activated(card))

    def on_focus(self) -> None:
        self.redraw()

    def on_blur(self) -> None:
        self.redraw()


@dataclass
class TrickPicture:
    """What the middle of the table shows."""

    players: int
    #: Display slot of each seat (0 = you).
    slots: list[int]
    names: Sequence[str]
    plays: list[tuple[int, Card]] = field(default_factory=list)
    #: Seat that won, when the trick shown is finished.
    winner: int | None = None
    caption: str = ""
    #: Shorter forms of the caption, longest first, for a narrow table: cut to fit, the
    #: end of the pass caption (its arrow and target) was lost.
    short_captions: tuple[str, ...] = ()

    def caption_in(self, width: int) -> str:
        """The longest form of the caption that fits in ``width`` columns (the shortest
        cut to fit, when none does).

        >>> picture = TrickPicture(4, [0, 1, 2, 3], [], caption="Deal 1: pass 3 cards ◀ West",
        ...                        short_captions=("Pass 3 ◀ West", "◀ West"))
        >>> picture.caption_in(30), picture.caption_in(20), picture.caption_in(8)
        ('Deal 1: pass 3 cards ◀ West', 'Pass 3 ◀ West', '◀ West')
        >>> picture.caption_in(4)
        '◀ W…'
        """
        forms = (self.caption, *self.short_captions)
        for form in forms:
            if columns(form) <= width:
                return form
        return short_name(forms[-1], width)


class TrickView(CanvasWidget):
    """The cards on the table, each in front of the player who played it."""

    class Clicked(Message):
        """A click on the middle of the table (shows the last trick)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.picture: TrickPicture | None = None

    def show(self, picture: TrickPicture) -> None:
        self.picture = picture
        self.redraw()

    def draw(self) -> Canvas:
        width, height = self.size.width, self.size.height
        canvas = Canvas(width, height)
        picture = self.picture
        if picture is None:
            return canvas
        label_style = Style(color="#e8f5e9", bold=True)
        dim_label = Style(color="#a5c8ad")
        if width < 36 or height < 11:
            self._draw_row(canvas, picture, label_style, dim_label)
            return canvas
        large = width >= 48 and height >= 16
        card_width, card_height = card_size(large)
        centre_x, centre_y = width / 2, (height - 1) / 2
        radius_x = max(0.0, min(width / 2 - card_width - 4, 16.0 if large else 13.0))
        # Room for a label above the top card, and below the bottom one the label and caption.
        radius_y = max(0.0, min(centre_y - 1 - card_height / 2, 5.0 if large else 4.0))
        order = {seat: index for index, (seat, _) in enumerate(picture.plays)}
        for seat, card in picture.plays:
            angle = slot_angle(picture.slots[seat], picture.players)
            x = round(centre_x + radius_x * math.cos(angle) - card_width / 2)
            y = round(centre_y - radius_y * math.sin(angle) - card_height / 2)
            winner = picture.winner == seat
            draw_card(canvas, x, y, card, CardLook(winner=winner), large)
            prefix, star = f"{order[seat] + 1}·", " ★" if winner else ""
            if math.cos(angle) < -0.3:
                room = x - 1
            elif math.cos(angle) > 0.3:
                room = width - x - card_width - 1
            else:
                room = width
            name = short_name(picture.names[seat], min(10, room - len(prefix) - len(star)))
            mark = prefix + name + star
            # Placed by the columns it takes: a name in Chinese ran over its card.
            span = columns(mark)
            style = label_style if winner or picture.winner is None else dim_label
            if math.cos(angle) < -0.3:
                canvas.put(x - 1 - span, y + 1, mark, style)
            elif math.cos(angle) > 0.3:
                canvas.put(x + card_width + 1, y + 1, mark, style)
            else:
                left = min(max(0, x + (card_width - span) // 2), width - span)
                row = y - 1 if math.sin(angle) > 0 else y + card_height
                canvas.put(left, row, mark, style)
        if picture.caption:
            caption = picture.caption_in(width)
            canvas.put(max(0, (width - columns(caption)) // 2), height - 1, caption, label_style)
        return canvas

    def _draw_row(
        self, canvas: Canvas, picture: TrickPicture, label_style: Style, dim_label: Style
    ) -> None:
        """Where there is no room to lay the cards around the table: a row in play order."""
        width, height = canvas.width, canvas.height
        count = max(1, len(picture.plays))
        # Overlapped where the row would not fit: four columns still show rank and suit.
        step = CARD_WIDTH + 2
        if count > 1:
            step = max(4, min(step, (width - CARD_WIDTH) // (count - 1)))
        left = max(0, (width - step * (count - 1) - CARD_WIDTH) // 2)
        top = max(0, (height - CARD_HEIGHT - 2) // 2)
        for index, (seat, card) in enumerate(picture.plays):
            x = left + index * step
            winner = picture.winner == seat
            draw_card(canvas, x, top, card, CardLook(winner=winner))
            star = "★" if winner else ""
            name = star + short_name(picture.names[seat], step - 1 - len(star))
            style = label_style if winner or picture.winner is None else dim_label
            canvas.put(x, top + CARD_HEIGHT, name, style)
        if picture.caption and height > CARD_HEIGHT + 1:
            caption = picture.caption_in(width)
            canvas.put(max(0, (width - columns(caption)) // 2), height - 1, caption, label_style)

    def on_click(self) -> None:
        self.post_message(self.Clicked())


@dataclass
class SeatInfo:
    """What a panel shows about one player (all public knowledge)."""

    seat: int
    name: str
    cards: int
    taken: int
    total: int
    won: CardSet
    tricks: int
    to_move: bool = False
    dealer: bool = False
    passed: bool = False
    you: bool = False
    #: Whether the J♦ counts (then it is shown among the cards won).
    jack: bool = False


class SeatPanel(Widget):
    """One player: name, cards left, points this deal and in all, the cards won."""

    class Clicked(Message):
        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.seat = seat
        self.info: SeatInfo | None = None

    def show(self, info: SeatInfo) -> None:
        if info == self.info:
            return
        if self.info is None or self.info.to_move != info.to_move:
            self.set_class(info.to_move, "to-move")
        self.info = info
        self.refresh()

    def render(self) -> Text:
        info = self.info
        if info is None:
            return Text("")
        name_style = Style(bold=True, underline=info.to_move)
        arrow = "▶ " if info.to_move else ""
        width = self.content_size.width
        notes = (" · dealer" if info.dealer else "") + (
            " · passed" if info.passed and not info.you else ""
        )
        name = info.name
        if not info.you and len(arrow) + columns(name) + len(notes) > width:
            # Five or six players at 80 columns: "Southwest · dealer · p…" lost what the
            # seat is doing; the name gives way ("SW · dealer · passed"), measured in
            # columns (an emoji or a Chinese letter takes two).
            name = short_name(name, max(2, width - len(arrow) - len(notes)))
        head = Text(arrow, style=Style(bold=True))
        head.append(name, style=name_style)
        if notes:
            head.append(notes, style=Style(italic=True))
        points_line = f"{info.taken} this deal · {info.total} total"
        if not info.you and len(points_line) > width:
            # Two- and three-digit figures: the short form, rather than a wrapped line
            # pushing the cards won out of the panel; narrower still (five or six
            # players at 60 columns), the total first, so that it is never cut.
            points_line = f"deal {info.taken} · total {info.total}"
            if len(points_line) > width:
                # Signed as it comes: the J♦ taken alone is "(-10)", not "(+-10)".
                points_line = f"total {info.total} ({info.taken:+d})"
        won = won_summary(info.won, info.tricks, info.jack)
        if info.you:
            head.append(f" · {points_line} · {won}")
            # One line: what does not fit ends in "…" (it was cut off mid-word).
            head.no_wrap = True
            head.overflow = "ellipsis"
            return head
        cards = f"{info.cards} card{'s' if info.cards != 1 else ''}"
        if self.size.height < 4:
            # A small terminal: two lines, without the card backs; the count whole,
            # with a compass name written short where the panel is narrow.
            if columns(head.plain) + len(cards) + 3 > width:
                head = Text(arrow, style=Style(bold=True))
                room = width - len(arrow) - len(cards) - 3
                head.append(short_name(info.name, max(2, room)), style=name_style)
            head.append(f" · {cards}")
            return Text("\n").join([head, Text(f"{points_line} · {won}")])
        # As many card backs as leave the count in sight (13 at the usual width).
        room = self.content_size.width - len(cards) - 1
        shown = max(0, min(info.cards, 13, room))
        backs = Text("▮" * shown, style=Style(color="#7f9ee8"))
        backs.append(f" {cards}" if shown else cards)
        lines = Text("\n").join([head, backs, Text(f"{points_line}\n{won}")])
        return lines

    def on_resize(self) -> None:
        self.refresh()

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.seat))


def won_summary(won: CardSet, tricks: int, jack: bool = False) -> str:
    """``won 3 tricks: Q♠ ♥×4`` (the point cards, for a quick look).

    >>> won_summary(CardSet.parse("QS 2H 5H 3C 4C 5C 6C"), 2)
    'won 2 tricks: Q♠ ♥×2'
    """
    if not tricks:
        return "no tricks yet"
    hearts = len(won.of_suit(Suit.HEARTS))
    shown_cards = (Card.parse("QS"), Card.parse("JD")) if jack else (Card.parse("QS"),)
    extras = [card.pretty for card in won if card in shown_cards]
    shown = " ".join(extras + ([f"♥×{hearts}"] if hearts else []))
    plural = "s" if tricks != 1 else ""
    return f"won {tricks} trick{plural}" + (f": {shown}" if shown else "")
