"""The options screen: rules preset and every rules option, players, opponents, speed, name.

Changing the preset or the number of players fills every rules option with that
preset's values; each option can then be changed on its own.  The summary on the
right always says, in sentences, what the chosen rules are (or what is wrong).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static, Switch

from ..bots import level_note
from ..options import check_typed_cards
from ..rules import (
    PRESET_SOURCES,
    PRESETS,
    FirstTrick,
    HeartsBreak,
    MoonScoring,
    Rules,
    RulesError,
    Seating,
)
from ..session.names import NAME_CHARS, clean_name, opponent_names, typed_opponents
from .screens import new_game_question
from .speech import command_problem
from .storage import LEVEL_NAMES, SPEEDS, Settings

__all__ = ["OptionsScreen", "OptionsResult"]

_WORDS = {
    FirstTrick.ALLOWED: "any card",
    FirstTrick.NO_POINTS_UNLESS_FORCED: "no points unless forced",
    FirstTrick.NO_POINTS: "no points (hearts if nothing else)",
    FirstTrick.NO_HEARTS: "no hearts (Q♠ allowed)",
    HeartsBreak.HEART: "a heart played",
    HeartsBreak.POINT_CARD: "any point card played",
    HeartsBreak.NEVER_RESTRICTED: "never restricted",
    MoonScoring.OTHERS_ADD: "everyone else adds",
    MoonScoring.SHOOTER_SUBTRACTS: "shooter subtracts",
    MoonScoring.SHOOTER_CHOOSES: "shooter chooses",
    MoonScoring.NONE: "no moon",
    Seating.FIXED: "fixed",
    Seating.SHUFFLED: "shuffled at the start",
}


@dataclass
class OptionsResult:
    """What the options screen ended with: ``start`` a new game, or ``back`` to the game."""

    action: str
    settings: Settings


def _select(options: list[tuple[str, Any]], value: Any, id: str) -> Select[Any]:
    # Text, not str: a level kept in the settings (cmd:PROGRAM ...) is shown as typed;
    # read as markup, "[/]" in it stopped the game before its first screen.
    prompts = [(Text(prompt), choice) for prompt, choice in options]
    return Select(prompts, value=value, allow_blank=False, id=id)


class OptionsScreen(Screen[OptionsResult | None]):
    """Every choice for the next game; the settings are saved when a game starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        # One of the two is live: the footer names what the button says.
        Binding("ctrl+s", "start", "Start game"),
        Binding("ctrl+s", "new_game", "New game"),
    ]

    def __init__(
        self, settings: Settings, in_game: bool = False, abandons_game: bool = False
    ) -> None:
        super().__init__()
        self.settings = copy.deepcopy(settings)
        self.in_game = in_game
        #: New game gives up an unfinished game: it asks first, as N on the table does
        #: (it was the one way to lose a game without a question).
        self.abandons_game = abandons_game
        self._loading = False
        self.error = ""
        #: Why the computer players' names typed are refused, when they are.
        self.refused_opponents: str | None = None
        try:
            self.rules = settings.make_rules()
        except RulesError:
            self.rules = Rules.preset("standard")

    # Layout ------------------------------------------------------------------------

    def _row(
        self, label: str, widget: Any, help_text: str = "", help_id: str | None = None
    ) -> ComposeResult:
        with Horizontal(classes="option-row"):
            yield Label(label, classes="option-label")
            yield widget
        if help_text:
            yield Static(help_text, id=help_id, classes="option-help", markup=False)

    def compose(self) -> ComposeResult:
        s = self.settings
        r = self.rules
        yield Static("OpenHearts · options", id="options-title")
        with Horizontal(id="options-main"):
            with VerticalScroll(id="options-form"):
                yield Static("Game", classes="option-section")
                yield from self._row(
                    "Your name", Input(s.name, id="opt-name", max_length=NAME_CHARS)
                )
                yield from self._row(
                    "Players",
                    _select([(f"{n} players", n) for n in range(3, 7)], r.players, "opt-players"),
                )
                yield from self._row(
                    "Rules preset",
                    _select([(name, name) for name in PRESETS], s.preset, "opt-preset"),
                )
                yield from self._row(
                    "End score", Input(str(r.end_score), id="opt-end_score", type="integer")
                )
                levels = LEVEL_NAMES if s.level in LEVEL_NAMES else (*LEVEL_NAMES, s.level)
                yield from self._row(
                    "Opponents' level",
                    _select([(level, level) for level in levels], s.level, "opt-level"),
                    level_note(s.level),
                    help_id="opt-level-note",
                )
                yield from self._row(
                    "Opponents' names",
                    Input(", ".join(s.opponents), id="opt-opponents", placeholder="West, North…"),
                )
                yield from self._row(
                    "Animation speed",
                    _select([(name, name) for name in SPEEDS], s.speed, "opt-speed"),
                )
                yield from self._row(
                    "Auto play one",
                    Switch(s.auto_play_one, id="opt-auto_play_one"),
                    "play a sole legal card by itself, and the rest of a deal once no "
                    "points are left",
                )
                yield from self._row(
                    "Speech command",
                    Input(s.speech_command, id="opt-speech", placeholder="e.g. espeak-ng"),
                    "run with each announcement (empty: none)",
                )
                yield Static("Rules options", classes="option-section")
                yield from self._row(
                    "Cards passed",
                    Input(str(r.cards_passed), id="opt-cards_passed", type="integer"),
                )
                yield from self._row(
                    "Pass cycle", Input(", ".join(r.pass_cycle or ()), id="opt-pass_cycle")
                )
                yield from self._row(
                    "Cards removed", Input(str(r.removed or ""), id="opt-removed"), "e.g. 2D 2S"
                )
                yield from self._row(
                    "First lead",
                    Input(
                        "" if r.first_lead is None else str(r.first_lead),
                        id="opt-first_lead",
                        placeholder="lowest club",
                    ),
                )
                yield from self._row(
                    "First trick",
                    _select(
                        [(_WORDS[v], v.value) for v in FirstTrick],
                        r.first_trick.value,
                        "opt-first_trick",
                    ),
                )
                yield from self._row(
                    "Hearts broken by",
                    _select(
                        [(_WORDS[v], v.value) for v in HeartsBreak],
                        r.hearts_break.value,
                        "opt-hearts_break",
                    ),
                )
                yield from self._row(
                    "Shooting the moon",
                    _select([(_WORDS[v], v.value) for v in MoonScoring], r.moon.value, "opt-moon"),
                )
                yield from self._row("Shooting the sun", Switch(r.sun, id="opt-sun"))
                yield from self._row(
                    "J♦ counts -10", Switch(r.jack_of_diamonds, id="opt-jack_of_diamonds")
                )
                yield from self._row(
                    "Seating",
                    _select(
                        [(_WORDS[v], v.value) for v in Seating], r.seating.value, "opt-seating"
                    ),
                )
                yield from self._row(
                    "Direction of play",
                    _select(
                        [("clockwise", "clockwise"), ("counter-clockwise", "counterclockwise")],
                        r.direction,
                        "opt-direction",
                    ),
                )
                yield from self._row(
                    "First dealer (seat)",
                    Input(str(r.first_dealer), id="opt-first_dealer", type="integer"),
                    "0 is your seat",
                )
            # The buttons stay in sight under the summary, which scrolls on its own: the
            # focus starts on a button, and must not scroll the summary's start away.
            with Vertical(id="options-side"):
                with VerticalScroll(id="options-side-text"):
                    if self.in_game:
                        yield Static(
                            "Rules, players, names and level take effect in a new game; "
                            "speed, auto play one and speech at once.",
                            id="options-note",
                        )
                    yield Static("", id="options-summary")
                    yield Static("", id="options-error", markup=False)
                with Horizontal(classes="buttons"):
                    label = "New game" if self.in_game else "Start game"
                    yield Button(label, variant="primary", id="start")
                    if self.in_game:
                        yield Button("Back to the game", id="back")
                    else:
                        yield Button("Quit", id="quit")
        yield Footer()

    #: Below this many columns the form and the summary share the width more tightly.
    NARROW = 110
    #: Below this many, more tightly still (at 60 columns the inputs were 12 wide, and
    #: their lists wrapped inside them).
    TIGHT = 72

    def on_resize(self) -> None:
        # At 80 columns the summary's usual width left the inputs a few columns wide.
        self.set_class(self.app.size.width < self.NARROW, "narrow")
        self.set_class(self.app.size.width < self.TIGHT, "tight")

    def on_mount(self) -> None:
        self.on_resize()
        # In a game, Enter must not end it unasked: the focus starts on Back.
        self.query_one("#back" if self.in_game else "#start", Button).focus()
        self._update_summary()
        if self.in_game:
            new_game = (
                "New game asks, then starts one now"
                if self.abandons_game
                else "New game starts one now"
            )
            self._announce(
                "Options. Changes apply to the next game; Escape (or Enter) goes back to "
                f"this one, {new_game}. Tab and Shift+Tab move between the options."
            )
            return
        self._announce(
            "Options. Enter starts a game with these options; Tab and Shift+Tab move "
            "between the options."
        )

    def _announce(self, sentence: str) -> None:
        announce = getattr(self.app, "announce", None)
        if callable(announce):
            announce(sentence)

    # Reading the form ----------------------------------------------------------------

    def _value(self, name: str) -> Any:
        widget = self.query_one(f"#opt-{name}")
        if isinstance(widget, Input):
            return widget.value.strip()
        if isinstance(widget, Switch):
            return widget.value
        if isinstance(widget, Select):
            return widget.value
        raise AssertionError(name)

    def _int(self, name: str, label: str) -> int:
        text = self._value(name)
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"{label}: a whole number, not {text!r}") from None

    def read_rules(self) -> Rules:
        """The rules the form describes; raises :class:`RulesError` with the reason."""
        first_lead = self._value("first_lead") or None
        data: dict[str, Any] = {
            "players": self._value("players"),
            "removed": self._value("removed"),
            "pass_cycle": self._value("pass_cycle"),
            "cards_passed": self._int("cards_passed", "cards passed"),
            "first_lead": first_lead,
            "first_trick": self._value("first_trick"),
            "hearts_break": self._value("hearts_break"),
            "moon": self._value("moon"),
            "sun": self._value("sun"),
            "jack_of_diamonds": self._value("jack_of_diamonds"),
            "end_score": self._int("end_score", "end score"),
            "seating": self._value("seating"),
            "first_dealer": self._int("first_dealer", "first dealer"),
            "direction": self._value("direction"),
        }
        check_typed_cards(data)
        return Rules.from_dict(data)

    def read_settings(self, rules: Rules | None) -> Settings:
        settings = copy.deepcopy(self.settings)
        settings.name = clean_name(str(self._value("name")), "You")
        settings.preset = str(self._value("preset"))
        if rules is not None:
            settings.rules = rules.to_dict()
        settings.level = str(self._value("level"))
        settings.speed = str(self._value("speed"))
        settings.auto_play_one = bool(self._value("auto_play_one"))
        settings.speech_command = str(self._value("speech"))
        opponents = str(self._value("opponents"))
        settings.opponents = opponent_names(opponents.split(","))
        return settings

    # Reacting ---------------------------------------------------------------------------

    def _fill_rules(self) -> None:
        """Fill the rules options from the preset and player count chosen."""
        preset = str(self._value("preset"))
        players = int(self._value("players"))
        try:
            end_score = int(self._value("end_score"))
        except ValueError:
            end_score = 100
        try:
            rules = Rules.preset(preset, players=players, end_score=max(1, end_score))
        except RulesError as error:
            self._show_error(str(error))
            return
        self._loading = True
        try:
            values = {
                "cards_passed": str(rules.cards_passed),
                "pass_cycle": ", ".join(rules.pass_cycle or ()),
                "removed": str(rules.removed or ""),
                "first_lead": "" if rules.first_lead is None else str(rules.first_lead),
                "first_dealer": str(rules.first_dealer),
            }
            for name, value in values.items():
                self.query_one(f"#opt-{name}", Input).value = value
            for name in ("first_trick", "hearts_break", "moon", "seating", "direction"):
                select: Select[Any] = self.query_one(f"#opt-{name}", Select)
                value = getattr(rules, name)
                select.value = value.value if hasattr(value, "value") else value
            self.query_one("#opt-sun", Switch).value = rules.sun
            self.query_one("#opt-jack_of_diamonds", Switch).value = rules.jack_of_diamonds
        finally:
            self._loading = False

    def _show_error(self, message: str) -> None:
        # The rules name their options as the command line does (end_score); the form's
        # labels are words.
        field, colon, rest = message.partition(": ")
        if colon and field.replace("_", "").isalpha():
            message = f"{field.replace('_', ' ')}: {rest}"
        self.error = message
        self.query_one("#options-error", Static).update(f"⚠ {message}")

    def _update_summary(self) -> Rules | None:
        summary = self.query_one("#options-summary", Static)
        self.refused_opponents = None
        try:
            # The preset must allow the number of players (source-000 is for four).
            Rules.preset(str(self._value("preset")), players=int(self._value("players")))
            rules = self.read_rules()
        except (RulesError, ValueError) as error:
            summary.update("")
            self._show_error(str(error).removeprefix("--"))
            return None
        self.refused_opponents = self._opponents_problem(rules)
        if self.refused_opponents is not None:
            summary.update("")
            self._show_error(self.refused_opponents)
            return None
        self.error = ""
        self.query_one("#options-error", Static).update("")
        preset = str(self._value("preset"))
        lines = [f"[b]{preset}[/b]: {PRESET_SOURCES.get(preset, '')}", ""]
        lines += [f"• {line}" for line in rules.describe()]
        summary.update("\n".join(lines))
        return rules

    def _opponents_problem(self, rules: Rules) -> str | None:
        # Refused, as on the command line: the names past the computer players were
        # dropped without a word.
        try:
            typed_opponents(str(self._value("opponents")), rules.players)
        except ValueError as error:
            return str(error).removeprefix("--")
        return None

    def on_select_changed(self, event: Select.Changed) -> None:
        if self._loading or not self.is_mounted:
            return
        if event.select.id in ("opt-preset", "opt-players"):
            self._fill_rules()
        if event.select.id == "opt-level":
            self.query_one("#opt-level-note", Static).update(level_note(str(event.value)))
        self._update_summary()

    def on_input_changed(self, event: Input.Changed) -> None:
        if not self._loading and self.is_mounted:
            self._update_summary()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if not self._loading and self.is_mounted:
            self._update_summary()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # Enter in a field starts the first game, but goes back to a game in progress.
        if self.in_game:
            self.action_back()
        else:
            self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "back":
            self.action_back()
        elif event.button.id == "quit":
            self.app.exit(0)

    def action_start(self) -> None:
        rules = self._update_summary()
        speech = command_problem(str(self._value("speech")))
        if rules is not None and speech is not None:
            self._show_error(speech)
        if rules is None or speech is not None:
            self.app.bell()
            self._announce(f"Cannot start: {self.error}")
            return
        settings = self.read_settings(rules)
        if not self.abandons_game:
            self.dismiss(OptionsResult("start", settings))
            return

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self.dismiss(OptionsResult("start", settings))
            else:
                self._announce("No new game: the options stay open, and the game goes on.")

        sentence, question = new_game_question(over=False, options_first=False)
        self._announce(sentence)
        self.app.push_screen(question, chosen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Before the first game there is nothing to go back to: hide the key.
        if action in ("back", "new_game"):
            return self.in_game
        if action == "start":
            return not self.in_game
        return True

    def action_new_game(self) -> None:
        self.action_start()

    def action_back(self) -> None:
        if not self.in_game:
            return
        # The rules shown are kept for the next game when they make one; otherwise the
        # rules and the preset stay as they were, together.
        rules = self._update_summary()
        if rules is None and self.refused_opponents is not None:
            # The rules are good; only the names are not (too many for the seats).
            settings = self.read_settings(self.read_rules())
            settings.opponents = self.settings.opponents
            self.app.notify(
                f"The computer players' names were not changed: {self.error}",
                severity="warning",
            )
        else:
            settings = self.read_settings(rules)
        if rules is None and self.refused_opponents is None:
            settings.preset = self.settings.preset
            self.app.notify(f"The rules were not changed: {self.error}", severity="warning")
        speech = command_problem(settings.speech_command)
        if speech is not None:
            settings.speech_command = self.settings.speech_command
            self.app.notify(f"The speech command was not changed: {speech}.", severity="warning")
        self.dismiss(OptionsResult("back", settings))
