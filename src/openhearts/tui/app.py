"""The terminal game: :class:`HeartsApp` and its table screen."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Iterable
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Log

from ..cards import Card, CardParseError, CardSet, parse_cards
from ..game import MOON_CHOICE, PASSING, PLAYING, IllegalActionError, TrickRecord
from ..record import RecordError
from ..sentences import spoken as words
from .options_screen import OptionsResult, OptionsScreen
from .screens import (
    KEYS_HELP,
    ChoiceScreen,
    InfoScreen,
    memory_text,
    score_table,
    trick_text,
    won_cards_text,
)
from .session import Session, decide, default_names
from .speech import Speaker
from .storage import Settings, Stats, Storage
from .widgets import (
    HandView,
    SeatInfo,
    SeatPanel,
    StatusLine,
    TrickPicture,
    TrickView,
    slot_angle,
    slot_side,
)

__all__ = ["HeartsApp", "TableScreen"]

#: Pause after a finished trick, in units of the animation delay.
TRICK_PAUSE = 2.5


class TableScreen(Screen[None]):
    """The card table: opponents around, the trick in the middle, your hand at the bottom."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "pass_cards", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+z", "undo", show=False),
        Binding("l", "last_trick", "Trick"),
        Binding("w", "won", "Won"),
        Binding("m", "memory", "Memory"),
        Binding("d", "sheet", "Scores"),
        Binding("c", "read_table", show=False),
        *(Binding(str(n), f"read_card({n})", show=False) for n in range(1, 7)),
        Binding("s", "read_scores", show=False),
        Binding("t", "read_turn", show=False),
        Binding("r", "read_hand", show=False),
        Binding("o", "options", "Options"),
        Binding("n", "new_game", "New", show=False),
        Binding("i", "stats", "Stats", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("slash", "type_card('')", show=False),
        *(Binding(key, f"type_card('{key}')", show=False) for key in "qkaj789"),
        Binding("escape", "clear", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.chosen = CardSet()
        #: Increases with every change of the game, so stale computer moves are dropped.
        self.generation = 0
        self.results_seen = len(session.game.results)
        self.pending_sheet = False
        self.previous_trick: TrickRecord | None = None
        self.message = ""
        self.message_is_error = False
        self.stats_recorded = session.game.is_over
        self.final_stats: Stats | None = None
        players = session.game.rules.players
        self.slots = [self._slot(seat) for seat in range(players)]

    @property
    def hearts(self) -> HeartsApp:
        app = self.app
        assert isinstance(app, HeartsApp)
        return app

    def _slot(self, seat: int) -> int:
        """Display slot of a seat: 0 is you, then clockwise on screen."""
        game = self.session.game
        players = game.rules.players
        if game.rules.direction == "counterclockwise":
            return (self.session.human - seat) % players
        return (seat - self.session.human) % players

    # Layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        players = self.session.game.rules.players
        sides: dict[str, list[tuple[float, int]]] = {"left": [], "top": [], "right": []}
        for seat in range(players):
            if seat == self.session.human:
                continue
            slot = self.slots[seat]
            angle = slot_angle(slot, players)
            side = slot_side(slot, players)
            key = math.cos(angle) if side == "top" else -math.sin(angle)
            sides[side].append((key, seat))
        for entries in sides.values():
            entries.sort()
        with Vertical(id="table"):
            with Horizontal(id="top"):
                for _, seat in sides["top"]:
                    yield SeatPanel(seat, id=f"seat-{seat}", classes="seat")
            with Horizontal(id="middle"):
                with Vertical(id="left", classes="side"):
                    for _, seat in sides["left"]:
                        yield SeatPanel(seat, id=f"seat-{seat}", classes="seat")
                yield TrickView(id="trick")
                with Vertical(id="right", classes="side"):
                    for _, seat in sides["right"]:
                        yield SeatPanel(seat, id=f"seat-{seat}", classes="seat")
            yield SeatPanel(self.session.human, id=f"seat-{self.session.human}", classes="me")
            yield HandView(id="hand")
            yield Input(
                id="entry",
                placeholder="type a card (qs, 10h, queen of spades) and Enter; Escape cancels",
            )
            with Horizontal(id="status-row"):
                yield StatusLine(id="status")
                yield Button("Pass ▸", id="pass-button", variant="primary")
            yield Log(id="log", max_lines=500)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#entry", Input).display = False
        self.query_one("#log", Log).can_focus = False
        for sentence in self.hearts.announcements[-50:]:
            self.query_one("#log", Log).write_line(sentence)
        self.query_one(HandView).focus()
        self.refresh_table()
        if self.session.game.is_over:
            self.call_after_refresh(self.show_game_over)

    def on_resize(self) -> None:
        # On a small terminal the table needs the rows more than the log does.
        height = self.app.size.height
        for log in self.query("#log").results(Log):
            log.styles.height = 3 if height >= 30 else 2
        # A tall terminal gets the large cards in the hand.
        for hand in self.query("#hand").results(HandView):
            hand.styles.height = 6 if height >= 36 else 5

    def on_screen_resume(self) -> None:
        self.refresh_table()
        self.advance()

    # Drawing -------------------------------------------------------------------------

    @property
    def is_current(self) -> bool:
        return self.is_attached and self.app.screen is self

    def refresh_table(self) -> None:
        if not self.is_mounted:
            return
        session = self.session
        game = session.game
        view = session.view()
        players = game.rules.players
        for seat in range(players):
            passed = view.phase == PASSING and seat not in game.to_act()
            info = SeatInfo(
                seat=seat,
                name=game.names[seat],
                cards=view.hand_sizes[seat],
                taken=view.points_taken[seat],
                total=view.scores[seat],
                won=view.won[seat],
                tricks=sum(1 for t in view.tricks if t.winner == seat),
                to_move=view.to_move == seat or (view.phase == PASSING and not passed),
                dealer=view.dealer == seat,
                passed=passed,
                you=seat == session.human,
                jack=game.rules.jack_of_diamonds,
            )
            self.query_one(f"#seat-{seat}", SeatPanel).show(info)
        picture = TrickPicture(players, self.slots, game.names)
        if view.trick:
            picture.plays = list(view.trick)
            self.previous_trick = None
        else:
            last = view.tricks[-1] if view.tricks else self.previous_trick
            if last is not None:
                picture.plays = last.plays(players)
                picture.winner = last.winner
                picture.caption = words.trick_taken(view, last).split(" with ")[0]
            elif view.phase == PASSING and view.pass_target is not None:
                side = slot_side(self.slots[view.pass_target], players)
                arrow = {"left": "◀", "right": "▶", "top": "▲"}[side]
                picture.caption = (
                    f"Deal {view.deal_number + 1}: pass {view.rules.cards_passed} cards "
                    f"{arrow} {game.names[view.pass_target]}"
                )
            elif view.phase == PLAYING:
                picture.caption = f"Deal {view.deal_number + 1}"
        self.query_one(TrickView).show(picture)
        my_turn = view.phase == PLAYING and view.to_move == session.human
        received = view.received or CardSet()
        # Received cards stay marked until you have played one card after the exchange.
        fresh = received if len(view.hand) >= game.rules.hand_size - 1 else CardSet()
        self.query_one(HandView).show(
            view.hand.cards(),
            legal=view.legal if my_turn else None,
            chosen=self.chosen if view.phase == PASSING else CardSet(),
            new=fresh,
        )
        passing = view.phase == PASSING and session.human in game.to_act()
        button = self.query_one("#pass-button", Button)
        if button.display != passing:
            button.display = passing
        status = Text()
        status.append(words.status(view, len(self.chosen)), style="bold")
        if self.message:
            status.append("\n")
            style = "bold #ffb4a8" if self.message_is_error else "#d7ecdc"
            status.append(self.message, style=style)
        self.query_one("#status", StatusLine).show(status)

    def say(self, sentences: Iterable[str], error: bool = False) -> None:
        """Announce sentences (log, status line, file, speech)."""
        for sentence in sentences:
            self.hearts.announce(sentence)
            self.message = sentence
            self.message_is_error = error
        if self.is_mounted:
            self.refresh_table()

    def log_line(self, sentence: str) -> None:
        if self.is_mounted:
            self.query_one("#log", Log).write_line(sentence)

    def refuse(self, reason: str) -> None:
        self.app.bell()
        self.say([reason], error=True)

    # The flow of the game ----------------------------------------------------------

    def after_action(self, sentences: list[str]) -> None:
        """Bookkeeping after any change of the game."""
        session = self.session
        game = session.game
        self.generation += 1
        if len(game.results) > self.results_seen:
            self.pending_sheet = True
            tricks = game.results[-1].tricks
            self.previous_trick = tricks[-1] if tricks else None
        self.results_seen = len(game.results)
        if game.phase != PASSING:
            self.chosen = CardSet()
        self.say(sentences)
        if game.is_over:
            if not self.stats_recorded:
                self.stats_recorded = True
                self.final_stats = self.hearts.storage.record_game(game, session.human)
            self.hearts.storage.clear_game()
        else:
            self.hearts.storage.save_game(game)
        self.refresh_table()

    def advance(self) -> None:
        """Start whatever must happen next without the human (computer moves, dialogs)."""
        if self.is_current:
            self.run_worker(self._drive(), group="driver", exclusive=True)

    def _auto_card(self) -> Card | None:
        """The sole legal card (or, once the points are settled, the lowest one), when
        auto play one is on and it is your turn."""
        game = self.session.game
        if not self.hearts.settings.auto_play_one or game.current_player != self.session.human:
            return None
        return game.auto_play_card()

    def _pause(self) -> float:
        delay = self.hearts.settings.delay
        view = self.session.view()
        if view.phase == PLAYING and not view.trick and view.tricks:
            return delay * TRICK_PAUSE
        if view.phase == PASSING:
            return 0.0
        return delay

    async def _drive(self) -> None:
        session = self.session
        while self.is_current:
            generation = self.generation
            game = session.game
            if self.pending_sheet:
                await asyncio.sleep(self.hearts.settings.delay * TRICK_PAUSE)
                if generation != self.generation or not self.is_current:
                    return
                self.pending_sheet = False
                self.show_sheet(after_deal=True)
                return
            if game.is_over:
                return
            if game.phase == MOON_CHOICE and game.current_player == session.human:
                self.ask_moon()
                return
            seat = session.bot_seat()
            if seat is None:
                card = self._auto_card()
                if card is None:
                    return
                await asyncio.sleep(self._pause())
                if generation != self.generation or not self.is_current:
                    return
                if len(game.legal_plays()) == 1:
                    self.say([f"Your only legal card is the {card.name}: it is played for you."])
                else:
                    self.say([f"No points are left to take: the {card.name} is played for you."])
                self.play_card(card, from_driver=True)
                continue
            await asyncio.sleep(self._pause())
            if generation != self.generation or not self.is_current:
                return
            view = game.view(seat)
            bot = session.bots[seat]
            action = await asyncio.to_thread(decide, bot, view)
            if generation != self.generation or not self.is_current:
                return
            try:
                sentences = session.apply(action)
            except IllegalActionError:
                continue
            self.after_action(sentences)

    def stop_driving(self) -> None:
        self.workers.cancel_group(self, "driver")
        self.workers.cancel_group(self, "hint")

    def show_sheet(self, after_deal: bool = False) -> None:
        game = self.session.game
        if game.is_over:
            self.show_game_over()
            return
        if not game.results:
            self.say(["No deal has been finished yet."])
            return
        title = f"After deal {game.results[-1].number + 1}" if after_deal else "Score sheet"
        table = score_table(game, self.session.human)
        self.app.push_screen(
            InfoScreen(title, table, button="Next deal" if after_deal else "Close")
        )

    def show_game_over(self) -> None:
        session = self.session
        game = session.game
        view = session.view()
        winners = " and ".join(game.names[s] for s in game.winners)
        headline = words.status(view)
        if self.hearts.announcements[-1:] != [headline]:
            self.say([headline])
        stats = self.final_stats or self.hearts.storage.load_stats()
        body = Text(f"{headline}\n", style="bold")
        body.append(f"Winner{'s' if len(game.winners) > 1 else ''}: {winners}\n")
        group = Group(
            body,
            score_table(game, session.human),
            Text.assemble(("Your statistics: ", "bold"), stats.summary()),
        )
        self.app.push_screen(
            ChoiceScreen(
                "Game over",
                group,
                [("again", "Play again"), ("options", "Options"), ("quit", "Quit")],
                cancel="stay",
            ),
            self._game_over_choice,
        )

    def _game_over_choice(self, choice: str | None) -> None:
        if choice == "again":
            self.hearts.start_game(self.hearts.settings)
        elif choice == "options":
            self.hearts.show_options(in_game=False)
        elif choice == "quit":
            self.app.exit(0)

    def ask_moon(self) -> None:
        game = self.session.game
        points = game.rules.points_in_play
        suggested = game.suggested_moon_choice()
        me = self.session.human
        added = [s + (0 if seat == me else points) for seat, s in enumerate(game.scores)]
        subtracted = [s - (points if seat == me else 0) for seat, s in enumerate(game.scores)]

        def listing(values: list[int]) -> str:
            return ", ".join(f"{n} {v}" for n, v in zip(game.names, values, strict=True))

        totals = (
            f"{listing(list(game.scores))}\nIf everyone else adds {points}: {listing(added)}"
            f"\nIf you subtract {points}: {listing(subtracted)}"
        )
        self.say(
            [
                f"You shot the moon! Choose: everyone else adds {points}, or you subtract "
                f"{points}. Suggested: {'add' if suggested else 'subtract'}."
            ]
        )
        self.app.push_screen(
            ChoiceScreen(
                "You shot the moon!",
                Text("Totals now: " + totals),
                [("add", f"Everyone else adds {points}"), ("subtract", f"I subtract {points}")],
                cancel="add" if suggested else "subtract",
                focus="add" if suggested else "subtract",
            ),
            self._moon_choice,
        )

    def _moon_choice(self, choice: str | None) -> None:
        game = self.session.game
        if game.phase != MOON_CHOICE or game.current_player != self.session.human:
            return
        try:
            sentences = self.session.choose_moon(choice != "subtract")
        except IllegalActionError as error:
            self.refuse(str(error))
            return
        self.after_action(sentences)

    # The human's actions -------------------------------------------------------------

    def play_card(self, card: Card, from_driver: bool = False) -> None:
        session = self.session
        game = session.game
        if game.phase == PASSING:
            self.toggle(card)
            return
        if game.phase != PLAYING or game.current_player != session.human:
            self.refuse(session.not_now())
            return
        if card not in game.legal_plays():
            self.refuse(f"You cannot play the {card.pretty}: {game.why_illegal(card)}.")
            return
        try:
            sentences = session.play(card)
        except IllegalActionError as error:
            self.refuse(str(error))
            return
        self.after_action(sentences)
        if not from_driver:
            self.advance()

    def toggle(self, card: Card) -> None:
        """Choose or unchoose a card to pass."""
        session = self.session
        game = session.game
        if game.phase != PASSING or session.human not in game.to_act():
            self.refuse(session.not_now())
            return
        count = game.rules.cards_passed
        if card in self.chosen:
            self.chosen = self.chosen - CardSet([card])
            self.say([f"Unchosen: the {card.name}. {len(self.chosen)} of {count} chosen."])
        elif len(self.chosen) >= count:
            self.refuse(
                f"You have already chosen {words.number_word(count)} cards: press P to pass "
                "them, or unchoose one first."
            )
        else:
            self.chosen = self.chosen | CardSet([card])
            text = f"Chosen: the {card.name}. {len(self.chosen)} of {count} chosen."
            if len(self.chosen) == count:
                text += " Press P to pass them."
            self.say([text])

    def action_pass_cards(self) -> None:
        session = self.session
        game = session.game
        if game.phase != PASSING or session.human not in game.to_act():
            self.refuse("There is nothing to pass now.")
            return
        count = game.rules.cards_passed
        if len(self.chosen) != count:
            self.refuse(
                f"Choose {words.number_word(count)} cards to pass first "
                f"({len(self.chosen)} chosen): Enter or Space on a card chooses it."
            )
            return
        try:
            sentences = session.pass_cards(self.chosen)
        except IllegalActionError as error:
            self.refuse(str(error))
            return
        self.chosen = CardSet()
        self.after_action(sentences)
        self.advance()

    def on_hand_view_activated(self, message: HandView.Activated) -> None:
        message.stop()
        self.play_card(message.card)

    def on_hand_view_cursor_moved(self, message: HandView.CursorMoved) -> None:
        """With a speech command, say the card under the cursor (never queued up)."""
        message.stop()
        view = self.session.view()
        text = message.card.name
        if message.card in self.chosen:
            text += ", chosen"
        elif view.phase == PLAYING and view.is_my_turn and message.card not in view.legal:
            text += ", not playable"
        self.hearts.speaker.say_if_idle(text)

    def on_seat_panel_clicked(self, message: SeatPanel.Clicked) -> None:
        message.stop()
        self.show_won([message.seat])

    def on_trick_view_clicked(self, message: TrickView.Clicked) -> None:
        message.stop()
        self.action_last_trick()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "pass-button":
            self.action_pass_cards()

    def action_undo(self) -> None:
        session = self.session
        try:
            self.stop_driving()
            sentences = session.undo(self.hearts.settings.auto_play_one)
        except IllegalActionError as error:
            self.refuse(str(error))
            self.advance()
            return
        self.pending_sheet = False
        self.previous_trick = None
        self.results_seen = len(session.game.results)
        self.after_action(sentences)
        self.advance()

    def action_hint(self) -> None:
        session = self.session
        game = session.game
        if not session.human_to_act() or game.phase not in (PASSING, PLAYING):
            self.refuse("A hint is for when it is your turn.")
            return
        self.say(["Thinking about a hint…"])
        self._hint(self.generation, session.view())

    @work(thread=True, group="hint", exclusive=True)
    def _hint(self, generation: int, view: Any) -> None:
        from .hints import hint

        text, card = hint(view)
        self.app.call_from_thread(self._show_hint, generation, text, card)

    def _show_hint(self, generation: int, text: str, card: Card | None) -> None:
        if generation != self.generation:
            return
        if card is not None:
            self.query_one(HandView).place(card)
        self.say([text])

    def action_last_trick(self) -> None:
        view = self.session.view()
        last = view.tricks[-1] if view.tricks else self.previous_trick
        if last is None:
            self.refuse("No trick has been finished yet in this deal.")
            return
        self.say(
            [
                words.table(view)
                if not view.trick and view.tricks
                else "Last trick: "
                + ", ".join(
                    f"{words.who(view, s)} the {c.name}" for s, c in last.plays(view.players)
                )
                + ". "
                + words.trick_taken(view, last)
            ]
        )
        number = len(view.tricks) if view.tricks else view.rules.hand_size
        title = f"Trick {number} of {view.rules.hand_size}"
        self.app.push_screen(
            InfoScreen("Last trick", trick_text(last, view.names, view.players, title))
        )

    def action_won(self) -> None:
        self.show_won(list(range(self.session.game.rules.players)))

    def show_won(self, seats: list[int]) -> None:
        view = self.session.view()
        for seat in seats:
            won = view.won[seat]
            who = words.subject(view, seat)
            verb = "have" if seat == view.seat else "has"
            what = words.cards_words(won) if won else "nothing"
            self.hearts.announce(f"{who} {verb} won {what}.")
        title = "Cards won this deal" if len(seats) > 1 else f"Cards won by {view.names[seats[0]]}"
        self.app.push_screen(
            InfoScreen(title, won_cards_text(self.session.game, self.session.human, seats))
        )

    def action_memory(self) -> None:
        """Memory aids for this deal: a dialog, and the same said in sentences."""
        view = self.session.view()
        for sentence in words.memory(view):
            self.hearts.announce(sentence)
        title = f"Memory: deal {view.deal_number + 1}"
        self.app.push_screen(InfoScreen(title, memory_text(view)))

    def action_sheet(self) -> None:
        game = self.session.game
        for sentence in self.session.deal_sentences()[-1:] if game.results else []:
            self.hearts.announce(sentence)
        if game.is_over:
            self.show_game_over()
            return
        self.app.push_screen(InfoScreen("Score sheet", score_table(game, self.session.human)))

    def action_read_table(self) -> None:
        self.say([words.table(self.session.view())])

    def action_read_card(self, index: int) -> None:
        self.say([words.table_item(self.session.view(), index)])

    def action_read_scores(self) -> None:
        self.say([words.scores(self.session.view())])

    def action_read_turn(self) -> None:
        self.say([words.turn(self.session.view())])

    def action_read_hand(self) -> None:
        view = self.session.view()
        self.say([words.hand(view, self.chosen if view.phase == PASSING else None)])

    def action_options(self) -> None:
        self.hearts.show_options(in_game=True)

    def action_new_game(self) -> None:
        def chosen(choice: str | None) -> None:
            if choice == "new":
                self.hearts.start_game(self.hearts.settings)
            elif choice == "options":
                self.hearts.show_options(in_game=True)

        self.app.push_screen(
            ChoiceScreen(
                "New game?",
                Text("The game in progress will be abandoned."),
                [("new", "New game"), ("options", "Options first"), ("cancel", "Cancel")],
                focus="cancel",
            ),
            chosen,
        )

    def action_stats(self) -> None:
        stats = self.hearts.storage.load_stats()
        for line in stats.lines():
            self.hearts.announce(line)
        self.app.push_screen(InfoScreen("Your statistics", Text("\n".join(stats.lines()))))

    def action_help(self) -> None:
        self.hearts.announce(
            "Help: arrows move along your hand, Enter plays, P passes, H hint, U undo, "
            "C table, 1 to 6 each card, S scores, T turn, R your hand, M memory aids."
        )
        self.app.push_screen(InfoScreen("Keys", Text.from_markup(KEYS_HELP)))

    def action_type_card(self, prefix: str) -> None:
        game = self.session.game
        if game.phase not in (PASSING, PLAYING):
            self.refuse("There is no card to choose now.")
            return
        entry = self.query_one("#entry", Input)
        entry.display = True
        entry.value = prefix
        entry.focus()
        entry.cursor_position = len(prefix)

    def _close_entry(self) -> None:
        entry = self.query_one("#entry", Input)
        entry.value = ""
        entry.display = False
        self.query_one(HandView).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self._close_entry()
        if not text:
            return
        game = self.session.game
        try:
            if game.phase == PASSING:
                for card in parse_cards(text):
                    self.toggle(card)
                return
            card = Card.parse(text)
        except CardParseError as error:
            self.refuse(str(error))
            return
        if card not in self.session.view().hand:
            self.refuse(f"You do not hold the {card.pretty}.")
            return
        self.query_one(HandView).place(card)
        self.play_card(card)

    def action_clear(self) -> None:
        entry = self.query_one("#entry", Input)
        if entry.display:
            self._close_entry()
            return
        if self.chosen:
            self.chosen = CardSet()
            self.say(["Choice cleared."])


class HeartsApp(App[int]):
    """Hearts against the computer, in the terminal."""

    CSS_PATH = "hearts.tcss"
    TITLE = "OpenHearts"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        storage: Storage | None = None,
        settings: Settings | None = None,
        seed: object = None,
        resume: str | None = None,
        show_options: bool = True,
    ) -> None:
        super().__init__()
        self.storage = storage or Storage()
        self.settings = settings or self.storage.load_settings()
        self.first_seed = seed
        self.resume_path = resume
        self.show_options_first = show_options
        self.announcements: list[str] = []
        self.speaker = Speaker(self.settings.speech_command)
        self._speech_problem_shown: str | None = None
        self.table: TableScreen | None = None

    # Announcements ---------------------------------------------------------------------

    def announce(self, sentence: str) -> None:
        """Say something: the log on the table, the announcements file, the speech command."""
        self.announcements.append(sentence)
        del self.announcements[:-1000]
        if self.table is not None:
            self.table.log_line(sentence)
        self.storage.announce(sentence)
        self.speaker.say(sentence)
        problem = self.speaker.problem
        if problem and problem != self._speech_problem_shown:
            self._speech_problem_shown = problem
            self.notify(problem, title="Speech is off", severity="warning", timeout=8)

    # Flow --------------------------------------------------------------------------------

    def on_mount(self) -> None:
        try:
            self.storage.announcements_path.parent.mkdir(parents=True, exist_ok=True)
            self.storage.announcements_path.write_text("", encoding="utf-8")
        except OSError:
            pass
        if self.resume_path:
            try:
                game, meta = self.storage.load_game(self.resume_path)
            except RecordError as error:
                self.announce(f"Cannot resume: {error}")
                self.notify(str(error), title="Cannot resume", severity="error", timeout=10)
                self.show_options(in_game=False)
                return
            self.resume_game(game, meta)
            return
        if self.storage.has_unfinished_game():
            self.offer_resume()
            return
        if self.storage.problem:
            self.notify(self.storage.problem, severity="warning", timeout=8)
        if self.show_options_first:
            self.show_options(in_game=False)
        else:
            self.start_game(self.settings)

    def offer_resume(self) -> None:
        try:
            game, _ = self.storage.load_game()
        except RecordError:
            self.show_options(in_game=False)
            return
        scores = ", ".join(f"{n} {s}" for n, s in zip(game.names, game.scores, strict=True))
        text = f"A game was left unfinished: deal {game.deal_number + 1}, scores {scores}."
        self.announce(text + " Resume it?")

        def chosen(choice: str | None) -> None:
            if choice == "resume":
                try:
                    loaded, meta = self.storage.load_game()
                except RecordError as error:
                    self.notify(str(error), severity="error")
                    self.show_options(in_game=False)
                    return
                self.resume_game(loaded, meta)
            else:
                self.storage.clear_game()
                self.show_options(in_game=False)

        self.push_screen(
            ChoiceScreen("Resume?", Text(text), [("resume", "Resume"), ("new", "New game")]),
            chosen,
        )

    def show_options(self, in_game: bool) -> None:
        def done(result: OptionsResult | None) -> None:
            if result is None:
                return
            self.settings = result.settings
            self.storage.save_settings(self.settings)
            self.speaker.close()
            self.speaker = Speaker(self.settings.speech_command)
            if result.action == "start":
                self.start_game(self.settings)
            elif self.table is not None:
                self.table.refresh_table()

        self.push_screen(
            OptionsScreen(self.settings, in_game=in_game and self.table is not None), done
        )

    def _new_seed(self) -> object:
        if self.first_seed is not None:
            seed, self.first_seed = self.first_seed, None
            return seed
        return random.randrange(10**9)

    def start_game(self, settings: Settings) -> None:
        try:
            rules = settings.make_rules()
        except Exception as error:  # bad saved rules fall back to standard
            self.notify(f"Rules problem: {error}; using the standard rules", severity="error")
            from ..rules import Rules

            rules = Rules.preset("standard")
        names = default_names(rules.players, settings.name, settings.opponents)
        session = Session.new(rules, self._new_seed(), names, level=settings.level)
        self.storage.clear_game()
        self._show_table(session)
        what = words.status(session.view())
        self.announce(
            f"New game: {len(names)} players, {', '.join(names[1:])} against you. "
            f"The game ends at {rules.end_score}. {what} Press ? for the keys."
        )

    def resume_game(self, game: Any, meta: dict[str, Any]) -> None:
        session = Session.resume(game, meta, self.settings.name, self.settings.level)
        self._show_table(session)
        self.announce(f"Game resumed: deal {game.deal_number + 1}. {words.status(session.view())}")

    def _show_table(self, session: Session) -> None:
        if session.problem:
            self.notify(session.problem, severity="warning", timeout=8)
        if not session.game.is_over:
            self.storage.save_game(session.game, session.meta())
        table = TableScreen(session)
        old = self.table
        self.table = table
        if old is not None:
            old.stop_driving()
        # Whatever is on the stack (options, dialogs, an old table) gives way to the table.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(table)

    def on_unmount(self) -> None:
        self.speaker.close()
