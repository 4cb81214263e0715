"""Dialogs over the table: score sheet, game over, won cards, last trick, memory aids, help,
and questions.

Each dialog is usable with the keyboard alone: its first button has the focus, Tab
moves between buttons, Enter presses, Escape closes.  Each one also says what it shows
in plain sentences through the announcements (see :meth:`HeartsApp.announce`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, TypeVar

from rich import box
from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..cards import CardSet, Suit
from ..game import Game, PlayerView
from ..rules import Rules
from ..sentences.records import takes
from ..session.keys import KEYS, Command, textual_keys
from ..session.memory import hearts_free, known_voids
from ..session.names import SHORT_COMPASS, columns, marked_names, padded, short_name
from ..session.review import DealReview
from ..session.words import plural
from .widgets import FittingFooter

__all__ = [
    "InfoScreen",
    "ChoiceScreen",
    "new_game_question",
    "MoonChoiceScreen",
    "score_table",
    "won_cards_text",
    "review_text",
    "ReviewScreen",
    "memory_text",
    "keys_help",
]


def keys_help(rules: Rules | None = None) -> Group:
    """The help dialog: moving along the hand, then the one key map of every face, in two
    columns, so a description that wraps stays in its column; then the rules in force
    (the plain game's ``rules``), as no key of their own shows them."""

    def grid(rows: list[tuple[str, str]]) -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True, width=15)
        table.add_column(ratio=1)
        for keys, description in rows:
            table.add_row(keys, description)
        return table

    playing = [
        ("← → ↑ ↓", "move along your hand (↑ ↓: next / previous suit)"),
        ("Home, End", "the first or last card of your hand"),
        ("Enter, Space", "play the card (or choose it to pass); a click does the same"),
        ("Q K A J 7 8 9", "start typing a card at once; Ctrl+Z undo"),
        ("PgUp, PgDn", "scroll the announcements log back and on"),
    ]
    keys = []
    for entry in KEYS:
        if entry.keys:
            if len(entry.keys) > 2:
                named = "-".join((entry.keys[0], entry.keys[-1]))
            else:
                named = ", ".join(entry.keys)
            keys.append((named, entry.description))
    keys.append(("Ctrl+Q", "quit (the game is saved)"))
    return Group(
        Text("Playing", style="bold"),
        grid(playing),
        Text(""),
        Text.assemble(("Keys", "bold"), " (letters in either case; the same in every face)"),
        grid(keys),
        *(
            (
                Text(""),
                Text("The rules of this game", style="bold"),
                Text("\n".join(rules.describe())),
            )
            if rules is not None
            else ()
        ),
    )


def score_table(
    game: Game, human: int, room: int | None = None, totals_first: bool = False
) -> Table:
    """Every finished deal's points and the totals, the lowest total marked.

    ``room``: the columns the sheet may take; a sheet wider leaves out the pass
    directions and writes the compass names short (SW, NE).  ``totals_first``: the
    totals above the deals, where a short screen shows them without scrolling.
    """
    names = marked_names(game.names, human)
    # Each column: the heading or a number with its mark, and three of padding and rule;
    # a heading measured in columns (a name in Chinese takes two a letter: measured in
    # letters, the figures under it stood out of line, or read "…").
    wanted = 4 + 7 + 7 + sum(max(columns(name) + 2, 6) + 3 for name in names)
    narrow = room is not None and wanted > room
    if narrow:
        names = [SHORT_COMPASS.get(name, name) for name in names]
    # Narrower still (six players at 60 columns): no rules between the columns and a
    # mark of one column, rather than headings and numbers cut to "…".
    narrow_width = 4 + 7 + sum(max(columns(name) + 2, 6) + 3 for name in names)
    tight_width = 5 + sum(max(columns(name) + 1, 5) + 2 for name in names)
    if room is not None and tight_width > room:
        # Long names (24 letters) would squeeze the numbers to "…": the headings give
        # way instead, cut to the columns' share of the room.
        longest = max(3, (room - 5) // len(names) - 4)
        names = [short_name(name, longest) for name in names]
        narrow_width = 4 + 7 + sum(max(columns(name) + 2, 6) + 3 for name in names)
        tight_width = 5 + sum(max(columns(name) + 1, 5) + 2 for name in names)
    tight = room is not None and narrow_width > room and tight_width <= room
    mark_width = 1 if tight else 2
    if tight:
        table = Table(
            box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False,
            header_style="bold", padding=(0, 0),
        )  # fmt: skip
    else:
        table = Table(show_edge=True, expand=False, header_style="bold", pad_edge=True)
    table.add_column("Deal", justify="right")
    if not narrow:
        table.add_column("Pass")
    # Numbers are padded here: right-justified columns do not survive every renderer.
    widths = []
    for heading in names:
        # Tight, the columns have no padding: each is one wider, for the space before.
        widths.append(max(columns(heading) + mark_width, 4 + mark_width) + (1 if tight else 0))
        # Text, not str: a name is shown as typed, never read as markup ("[/]" stopped the
        # game at the end of every deal).
        table.add_column(Text(padded(heading, widths[-1] - mark_width) + " " * mark_width))

    def number(value: int, mark: str = "", seat: int = 0) -> Text:
        marked = f"{value}{mark.rjust(mark_width)}"
        return Text(marked.rjust(widths[seat]))

    start = list(game.initial_scores)

    def row(deal: str, passing: str, cells: Sequence[str | Text]) -> None:
        table.add_row(*([deal or passing] if narrow else [deal, passing]), *cells)

    low = min(game.scores)
    totals: list[str | Text] = []
    for seat, value in enumerate(game.scores):
        style = Style(bold=True, color="green") if value == low else Style(bold=True)
        total = number(value, "◀" if value == low else "", seat)
        total.stylize(style)
        totals.append(total)
    if totals_first:
        row("", "Total", totals)
        table.add_section()
    if any(start):
        row("", "start", [number(v, seat=s) for s, v in enumerate(start)])
    for result in game.results:
        cells: list[str | Text] = []
        for seat, points in enumerate(result.points):
            mark = ""
            if result.shooter == seat:
                mark = "☾" if result.shot != "sun" else "☀"
            cells.append(number(points, mark, seat))
        row(str(result.number + 1).rjust(4), result.pass_direction, cells)
    if not totals_first:
        table.add_section()
        row("", "Total", totals)
    return table


def won_cards_text(game: Game, human: int, seats: Sequence[int]) -> Text:
    """The cards each of ``seats`` has won this deal, by suit."""
    view = game.view(human)
    text = Text()
    names = marked_names(view.names, human)
    for index, seat in enumerate(seats):
        if index:
            text.append("\n\n")
        name = names[seat]
        tricks = sum(1 for t in view.tricks if t.winner == seat)
        points = view.points_taken[seat]
        text.append(f"{name}: {tricks} trick{'s' if tricks != 1 else ''}, ", style="bold")
        text.append(f"{points} point{'s' if abs(points) != 1 else ''}", style="bold")
        won: CardSet = view.won[seat]
        if not won:
            text.append("\n  nothing yet", style="italic")
            continue
        for suit in reversed(Suit):
            cards = won.of_suit(suit)
            if cards:
                text.append(f"\n  {suit.symbol} ", style="bold red" if suit.is_red else "bold")
                text.append(" ".join(c.rank.shown for c in cards))
    return text


ResultT = TypeVar("ResultT")


def buttons_width(labels: Sequence[str]) -> int:
    """Columns a row of buttons needs: each at least 16 (its label, padding and
    border), with a margin of one on each side."""
    return sum(max(16, len(label) + 6) + 2 for label in labels)


#: The keys that scroll a dialog's body, after the dialog's own (the footer's order).
SCROLL_LINES: list[BindingType] = [
    Binding("down", "scroll_body(1)", "Scroll", key_display="↑↓"),
    Binding("up", "scroll_body(-1)", show=False),
    Binding("home", "scroll_body(0, 0, -1)", show=False),
    Binding("end", "scroll_body(0, 0, 1)", show=False),
]
SCROLL_PAGES: list[BindingType] = [
    Binding("pagedown", "scroll_body(0, 1)", show=False),
    Binding("pageup", "scroll_body(0, -1)", show=False),
]


class FittedDialog(ModalScreen[ResultT]):
    """A dialog sized to its contents (:func:`fit_width`), again whenever the terminal
    is resized; its body takes the focus (Tab) only when it has something to scroll.

    With :data:`SCROLL_LINES` and :data:`SCROLL_PAGES` among a dialog's keys, the arrows,
    PageUp, PageDown, Home and End scroll a body taller than the screen whatever has the
    focus (a button has it at first, and at 80×24 the memory aids and
    the keys went on below the edge with no key to reach them but Tab); the footer
    says so then.
    """

    _fitted: tuple[RenderableType, int] | None = None

    def _body_scrolls(self) -> bool:
        return any(body.max_scroll_y > 0 for body in self.query(".dialog-body"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_body":
            return self._body_scrolls()
        return True

    def action_scroll_body(self, lines: int, pages: int = 0, ends: int = 0) -> None:
        body = self.query_one(".dialog-body")
        if ends:
            body.scroll_to(y=0 if ends < 0 else body.max_scroll_y, animate=False)
        elif pages:
            height = max(1, body.scrollable_content_region.height - 1)
            body.scroll_to(y=body.scroll_y + pages * height, animate=False)
        else:
            body.scroll_to(y=body.scroll_y + lines, animate=False)

    def fit(self, body: RenderableType, least: int = 0) -> None:
        self._fitted = (body, least)
        fit_width(self, body, least)
        # Buttons that cannot stand in a row on this screen stand one above the other.
        self.query_one(".dialog").set_class(least > self.app.size.width - 4, "stacked")
        self.call_after_refresh(self._scrolls_or_not)

    def on_resize(self) -> None:
        if self._fitted is not None:
            self.fit(*self._fitted)

    def _scrolls_or_not(self) -> None:
        for body in self.query(".dialog-body"):
            body.can_focus = body.max_scroll_y > 0
        self.refresh_bindings()  # Scroll in the footer only when there is something to


def fit_width(screen: ModalScreen[Any], body: RenderableType, least: int = 0) -> None:
    """Size a dialog to its contents, at least ``least`` columns for its buttons (at most
    the screen's width less a margin)."""
    console = screen.app.console
    # Measured against the screen's width, not the console's default (80 columns).
    options = console.options.update_width(screen.app.size.width)
    measured = Measurement.get(console, options, body).maximum
    width = max(40, min(max(measured + 8, least), screen.app.size.width - 4))
    screen.query_one(".dialog").styles.width = width
    screen.query_one(".dialog-body Static").styles.width = max(1, width - 8)
    # The buttons must stay on screen: the body scrolls instead.
    screen.query_one(".dialog-body").styles.max_height = max(3, screen.app.size.height - 12)


#: The compass names in a narrow review of the tricks.
_REVIEW_SHORT: Final = {**SHORT_COMPASS, "North": "N", "South": "S", "East": "E", "West": "W"}


def review_text(
    deal: DealReview, names: Sequence[str], summary: str, room: int | None = None
) -> Text:
    """A deal's tricks, one line each: every card in play order after its player's
    name, the card that took the trick starred, then who took it and its points.

    Where the lines would not fit in ``room`` columns (six players at 80 columns: each
    trick wrapped onto a ragged second line), the names are short ("NW", "N", "Bar…")
    and each line ends with the trick's points only: the star says who took it."""
    text = Text(summary + "\n", style="bold")
    # Columns, not letters: a name in Chinese put every card after it out of line.
    width = max(columns(name) for name in names)
    players = len(names)
    # " 13 " + per play " name card★" + "  name takes 26"
    compact = room is not None and 4 + (players + 1) * (width + 6) + 5 > room
    if compact:
        names = [_REVIEW_SHORT.get(name) or short_name(name, 3) for name in names]
        width = max(columns(name) for name in names)
    for trick in deal.tricks:
        text.append(f"\n{trick.number:>2} ")
        for seat, card in trick.plays:
            text.append(f" {padded(names[seat], width)} ")
            shown = card.pretty
            text.append(f"{shown:>3}", style="bold red" if card.suit.is_red else "bold")
            text.append("★" if seat == trick.winner else " ")
        if compact:
            text.append(f"  {plural(trick.points, 'pt')}")
        else:
            text.append(f"  {takes(names[trick.winner])} {trick.points}")
    if not deal.tricks:
        text.append("\nNo trick of this deal is finished yet.", style="italic")
    return text


def memory_text(view: PlayerView) -> Text:
    """The ``M`` dialog: cards played and not yet seen by suit, known voids, hearts broken,
    and the points taken this deal (all from one seat's view)."""
    text = Text()
    played = view.played
    if not played:
        text.append("No cards have been played yet in this deal.", style="italic")
    else:
        complete = len(view.tricks)
        text.append(
            f"{plural(len(played), 'card')} played, {plural(complete, 'trick')} complete",
            style="bold",
        )
    unseen = view.unseen
    text.append("\n")
    for suit in reversed(Suit):
        style = "bold red" if suit.is_red else "bold"
        text.append(f"\n{suit.symbol} {suit.word:<9}", style=style)
        rows = (("played", played.of_suit(suit)), ("not yet seen", unseen.of_suit(suit)))
        for index, (label, cards) in enumerate(rows):
            indent = "\n" + " " * 11 if index else ""
            text.append(f"{indent}{label:<13} ")
            if cards:
                text.append(" ".join(c.rank.shown for c in cards))
            else:
                text.append("none", style="dim")
    if view.passed and view.received is not None and view.pass_target is not None:
        still = view.passed & unseen
        if still:
            text.append(f"\n\nStill out from your pass to {view.names[view.pass_target]}: ")
            text.append(" ".join(c.pretty for c in still))
    text.append("\n\nKnown voids", style="bold")
    voids = known_voids(view)
    for seat, suit, number in voids:
        shown = f" (showed it on trick {number})" if number is not None else ""
        text.append(f"\n  {view.names[seat]}: no {suit.symbol} {suit.word}{shown}")
    if not voids:
        text.append("\n  none yet", style="italic")
    text.append("\n\nHearts: ", style="bold")
    if hearts_free(view):
        text.append("may be led at any time")
    else:
        text.append("broken" if view.hearts_broken else "not broken yet")
    text.append("\n\nPoints taken this deal", style="bold")
    for seat, name in enumerate(marked_names(view.names, view.seat)):
        text.append(f"\n  {padded(name, 14, left=True)} {view.points_taken[seat]:>3}")
    return text


class InfoScreen(FittedDialog[None]):
    """A box of information with a Close button."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", show=False),
        *SCROLL_LINES,
        *SCROLL_PAGES,
    ]

    def __init__(self, title: str, body: RenderableType, button: str = "Close") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.button = button

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # Names and file names are shown as typed: "[b]" in one is no style, and
            # "[/]" no longer stops the game with a markup error.
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static(self.body, markup=False)
            with Horizontal(classes="buttons"):
                yield Button(self.button, variant="primary", id="close")
        # The dialog's own keys, over the table's footer.
        yield FittingFooter()

    def on_mount(self) -> None:
        self.fit(self.body)
        self.query_one("#close", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class ChoiceScreen(FittedDialog[str]):
    """A question with buttons; dismisses with the chosen button's id.

    Escape chooses ``cancel`` (the last button, unless told otherwise), and the footer
    says what that is: the button's label, ``escape_label``, or *Close* where ``cancel``
    is no button (the dialog closes and nothing else happens).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
        *SCROLL_LINES,
        *SCROLL_PAGES,
    ]

    def __init__(
        self,
        title: str,
        body: RenderableType,
        choices: Sequence[tuple[str, str]],
        cancel: str | None = None,
        focus: str | None = None,
        escape_label: str | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.choices = list(choices)
        self.cancel = cancel if cancel is not None else self.choices[-1][0]
        self.focus_id = focus or self.choices[0][0]
        labels = dict(self.choices)
        self.escape_label = escape_label or labels.get(self.cancel, "Close")
        # Each question's own words for Escape ("New game" on "Resume?").
        self._bindings.bind("escape", "cancel", self.escape_label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # Names and file names are shown as typed: "[b]" in one is no style, and
            # "[/]" no longer stops the game with a markup error.
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(classes="dialog-body"):
                yield Static(self.body, markup=False)
            with Horizontal(classes="buttons"):
                for index, (key, label) in enumerate(self.choices):
                    yield Button(
                        label, id=f"choice-{key}", variant="primary" if not index else "default"
                    )
        # The dialog's own keys, over the table's footer.
        yield FittingFooter()

    def on_mount(self) -> None:
        # The row of buttons must fit whole.
        self.fit(self.body, least=buttons_width([label for _, label in self.choices]) + 4)
        self.query_one(f"#choice-{self.focus_id}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button_id = event.button.id or ""
        self.dismiss(button_id.removeprefix("choice-"))

    def action_cancel(self) -> None:
        self.dismiss(self.cancel)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def new_game_question(over: bool, options_first: bool = True) -> tuple[str, ChoiceScreen]:
    """The question before a new game, N's and the options' New game's alike: the
    sentence to announce and the dialog (``new``, ``options`` when ``options_first``,
    or ``cancel``, which has the focus: Enter must not give up a game unasked)."""
    question = (
        "Start another game with the same settings?"
        if over
        else "The game in progress will be abandoned."
    )
    choices = [("new", "New game"), ("options", "Options first"), ("cancel", "Cancel")]
    if not options_first:
        del choices[1]
    return f"New game? {question}", ChoiceScreen(
        "New game?", Text(question), choices, focus="cancel"
    )


#: The table's keys that only look (a dialog or a sentence): over the moon choice too.
_LOOKS: Final = (
    Command.LAST_TRICK,
    Command.WON,
    Command.MEMORY,
    Command.SHEET,
    Command.STATS,
    Command.READ_TABLE,
    Command.READ_SCORES,
    Command.READ_TURN,
    Command.READ_HAND,
)


class MoonChoiceScreen(ChoiceScreen):
    """The moon choice, with the table's keys that still make sense there: H for a
    hint, G to let the computer choose, U to take back the last card, and every key
    that only looks (the score sheet, the tricks, the reading keys, the keys' help), so
    that the scores and tricks can be checked before choosing; the choice stays up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(textual_keys(Command.HINT), "choose('hint')", "Hint"),
        Binding(textual_keys(Command.PLAY_FOR_ME), "choose('for_me')", "For me"),
        Binding(textual_keys(Command.UNDO) + ",ctrl+z", "choose('undo')", "Undo"),
        *(
            Binding(textual_keys(command), f"look('{command.value}')", show=False)
            for command in _LOOKS
        ),
        *(Binding(str(n), f"look('read_card', {n})", show=False) for n in range(1, 7)),
        Binding("question_mark,f1", "look('help')", show=False),
    ]

    def action_look(self, action: str, *arguments: object) -> None:
        """The table's own key, its dialog opening over this one."""
        table = getattr(self.app, "table", None)
        if table is not None:
            getattr(table, f"action_{action}")(*arguments)

    hint_line: str | None = None

    def show_hint(self, line: str) -> None:
        """The hint under the totals: the table's log behind the dialog cannot be read."""
        self.hint_line = line
        if self.is_mounted:
            self._show_hint()

    def on_mount(self) -> None:
        super().on_mount()
        if self.hint_line is not None:
            self._show_hint()

    def _show_hint(self) -> None:
        body = self.body.copy() if isinstance(self.body, Text) else Text(str(self.body))
        body.append(f"\n\n{self.hint_line}")
        self.query_one(".dialog-body Static", Static).update(body)
        self.fit(body, least=buttons_width([label for _, label in self.choices]) + 4)
        scroll = self.query_one(".dialog-body", VerticalScroll)
        self.call_after_refresh(scroll.scroll_end, animate=False)


class ReviewScreen(FittedDialog[None]):
    """The tricks of the game (``L``), one deal at a time: it opens at the deal whose
    last trick is the last one played; ← and → (or the buttons) show the deal before
    and after, and say its summary."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", show=False),
        Binding("left,pageup", "step(-1)", "Previous deal"),
        Binding("right,pagedown", "step(1)", "Next deal"),
        *SCROLL_LINES,
    ]

    def __init__(
        self,
        deals: Sequence[DealReview],
        names: Sequence[str],
        summaries: Sequence[str],
        shown: int,
        say: Callable[[str], None],
    ) -> None:
        super().__init__()
        self.deals = list(deals)
        self.names = list(names)
        self.summaries = list(summaries)
        self.shown = shown
        self.say = say

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", classes="dialog-title", id="review-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static("", id="review-body")
            with Horizontal(classes="buttons"):
                yield Button("Previous deal", id="previous")
                yield Button("Next deal", id="next")
                yield Button("Close", variant="primary", id="close")
        # The dialog's own keys, over the table's footer.
        yield FittingFooter()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#close", Button).focus()

    def _show(self) -> None:
        deal = self.deals[self.shown]
        body = review_text(deal, self.names, self.summaries[self.shown], self.app.size.width - 12)
        self.query_one("#review-title", Static).update(f"Tricks of deal {deal.number + 1}")
        self.query_one("#review-body", Static).update(body)
        self.query_one("#previous", Button).disabled = self.shown == 0
        self.query_one("#next", Button).disabled = self.shown == len(self.deals) - 1
        self.fit(body, least=buttons_width(["Previous deal", "Next deal", "Close"]) + 4)

    def action_step(self, by: int) -> None:
        wanted = self.shown + by
        if not 0 <= wanted < len(self.deals):
            self.app.bell()
            return
        self.shown = wanted
        self._show()
        self.say(self.summaries[wanted])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "close":
            self.dismiss(None)
        else:
            self.action_step(-1 if event.button.id == "previous" else 1)

    def action_close(self) -> None:
        self.dismiss(None)
