"""The card table's state, drawing and flow: what the other table modules build on.

The state that decides what the table shows is reactive (as in Textual's own
examples): changing :attr:`TableBase.chosen` or :attr:`TableBase.message` redraws.
The game itself is the face-neutral :class:`~openhearts.session.Session`; this screen
draws it, lets the computer players act (in a worker thread, so the screen stays
live) and turns the session's events into announcements.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, Input, RichLog
from textual.worker import Worker

from ..cards import CardSet
from ..game import TrickRecord
from ..phases import Phase
from ..sentences import Style
from ..sentences import spoken as words
from ..sentences.events import Narrator
from ..session import Session
from ..session.driver import decide
from ..session.events import DealScored, DealStarted, Event
from ..session.memory import just_received
from ..session.statistics import Stats
from .widgets import (
    FittingFooter,
    HandView,
    SeatInfo,
    SeatPanel,
    StatusLine,
    TrickPicture,
    TrickView,
    slot_angle,
    slot_side,
)

if TYPE_CHECKING:
    from .app import HeartsApp

__all__ = ["TableBase", "TRICK_PAUSE", "SPOKEN"]

#: Pause after a finished trick, in units of the animation delay.
TRICK_PAUSE = 2.5

#: Cards said by name in the announcements (they are read aloud).
SPOKEN = Style(spoken=True)


class TableBase(Screen[None]):
    """The card table: opponents around, the trick in the middle, your hand at the bottom."""

    #: Cards chosen to pass.
    chosen: reactive[CardSet] = reactive(CardSet, init=False)
    #: The last thing said, under the status line.
    message: reactive[str] = reactive("", init=False)
    message_is_error: reactive[bool] = reactive(False, init=False)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        #: Increases with every change of the game, so stale computer moves are dropped.
        self.generation = 0
        self.results_seen = len(session.game.results)
        self.pending_sheet = False
        #: The last trick of the deal just finished, shown until the score sheet opens.
        self.previous_trick: TrickRecord | None = None
        #: The hint on the moon choice (its deal, the line), shown in the dialog.
        self.moon_hint: tuple[int, str] | None = None
        #: The computer is working out a move for the person (G): the moon dialog is not
        #: asked again meanwhile (it would stay up after the choice is made).
        self.choosing_for_me = False
        self.stats_recorded = session.game.is_over
        self.final_stats: Stats | None = None
        #: The save problem last told, so that it is told once.
        self.save_warned: str | None = None
        players = session.game.rules.players
        self.slots = [self._slot(seat) for seat in range(players)]

    @property
    def hearts(self) -> HeartsApp:
        from .app import HeartsApp

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
        human = self.session.human
        sides: dict[str, list[tuple[float, int]]] = {"left": [], "top": [], "right": []}
        for seat in range(players):
            if seat == human:
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
            yield SeatPanel(human, id=f"seat-{human}", classes="me")
            yield HandView(id="hand")
            yield Input(
                id="entry",
                placeholder="type cards (qs, 10h, queen of spades) and Enter; Escape cancels",
                # A rank key opens the entry holding that rank: the next key must follow
                # it, not replace it as a selected text would be.
                select_on_focus=False,
            )
            with Horizontal(id="status-row"):
                yield StatusLine(id="status")
                yield Button("Pass ▸", id="pass-button", variant="primary")
            # Wrapped, so a long announcement is read whole, not cut at the edge.
            # min_width 1: its default, 78, wrapped lines wider than the log at 80 columns.
            yield RichLog(id="log", max_lines=500, wrap=True, markup=False, min_width=1)
        yield FittingFooter()

    def on_mount(self) -> None:
        self.query_one("#entry", Input).display = False
        log = self.query_one("#log", RichLog)
        log.can_focus = False
        earlier = self.hearts.announcements[-50:]
        for sentence in earlier[:-1]:
            log.write(sentence)
        if earlier:
            # The latest (the welcome, with its "Press ? for the keys") is shown from its
            # start once the log has its size, and repeated on the status line.
            self.call_after_refresh(self.log_line, earlier[-1])
            self.message = earlier[-1]
        self.query_one(HandView).focus()
        self.refresh_table()
        if self.session.game.is_over:
            self.call_after_refresh(self.show_game_over)

    #: Below these many rows the log gives its rows to the table (the status line's
    #: second line still shows the latest announcement), and below the second the other
    #: players' panels shrink to two lines: your hand and the trick must stay in sight.
    SHORT = 24
    LOW = 23
    #: Below this many columns the panels at the sides narrow, leaving the trick room;
    #: below the second (the first with five or six players), narrower still.
    SLIM = 72
    THIN = 60

    def on_resize(self) -> None:
        width, height = self.app.size
        self.set_class(height < self.SHORT, "-short")
        self.set_class(height < self.LOW, "-low")
        self.set_class(width < self.SLIM, "-slim")
        # A trick of five or six cards needs the room of the narrower panels sooner.
        many = self.session.game.rules.players > 4
        self.set_class(width < (self.SLIM if many else self.THIN), "-thin")
        # On a small terminal the table needs the rows more than the log does.
        for log in self.query("#log").results(RichLog):
            log.styles.height = 3 if height >= 30 else 2
        # A tall terminal gets the large cards in the hand.
        for hand in self.query("#hand").results(HandView):
            hand.styles.height = 6 if height >= 36 else 5

    def on_screen_resume(self) -> None:
        self.refresh_table()
        self.advance()

    def watch_chosen(self) -> None:
        self.refresh_table()

    def watch_message(self) -> None:
        self.refresh_table()

    def watch_message_is_error(self) -> None:
        self.refresh_table()

    # Drawing -------------------------------------------------------------------------

    @property
    def is_current(self) -> bool:
        return self.is_attached and self.app.screen is self

    def sheet_first(self) -> bool:
        """A deal has just ended: its score sheet comes before any move in the next one
        (a key pressed while the last card was being played for you shows it now)."""
        if not self.pending_sheet:
            return False
        self.pending_sheet = False
        self.stop_driving()
        self.show_sheet(after_deal=True)
        return True

    def can_pass(self) -> bool:
        """Whether the person has cards to pass now (P is live, and in the footer)."""
        game = self.session.game
        return game.phase == Phase.PASSING and self.session.human in game.to_act()

    def refresh_table(self) -> None:
        if not self.is_mounted:
            return
        session = self.session
        game = session.game
        view = session.view()
        players = game.rules.players
        for seat in range(players):
            passed = view.phase == Phase.PASSING and seat not in game.to_act()
            info = SeatInfo(
                seat=seat,
                name=game.names[seat],
                cards=view.hand_sizes[seat],
                taken=view.points_taken[seat],
                total=view.scores[seat],
                won=view.won[seat],
                tricks=sum(1 for t in view.tricks if t.winner == seat),
                to_move=view.to_move == seat or (view.phase == Phase.PASSING and not passed),
                dealer=view.dealer == seat,
                passed=passed,
                you=seat == session.human,
                jack=game.rules.jack_of_diamonds,
            )
            self.query_one(f"#seat-{seat}", SeatPanel).show(info)
        self.query_one(TrickView).show(self._picture())
        my_turn = view.phase == Phase.PLAYING and view.to_move == session.human
        fresh = just_received(view)
        self.query_one(HandView).show(
            view.hand.cards(),
            legal=view.legal if my_turn else None,
            chosen=self.chosen if view.phase == Phase.PASSING else CardSet(),
            new=fresh,
        )
        passing = self.can_pass()
        button = self.query_one("#pass-button", Button)
        if button.display != passing:
            button.display = passing
            # The footer offers Pass only while there is something to pass.
            self.refresh_bindings()
        self.query_one(HandView).set_choosing(passing)
        # Two fixed lines: a longer sentence ends in "…" here and is read whole in the log.
        status = Text(no_wrap=True, overflow="ellipsis")
        status.append(words.status(view, len(self.chosen)), style="bold")
        if self.message:
            status.append("\n")
            style = "bold #ffb4a8" if self.message_is_error else "#d7ecdc"
            status.append(self.message, style=style)
        self.query_one("#status", StatusLine).show(status)

    def _picture(self) -> TrickPicture:
        view = self.session.view()
        game = self.session.game
        players = game.rules.players
        picture = TrickPicture(players, self.slots, game.names)
        if view.trick:
            picture.plays = list(view.trick)
            self.previous_trick = None
            return picture
        last = view.tricks[-1] if view.tricks else self.previous_trick
        if last is not None:
            picture.plays = last.plays(players)
            picture.winner = last.winner
            picture.caption = words.trick_taken(view, last).split(" with ")[0]
        elif view.phase == Phase.PASSING and view.pass_target is not None:
            side = slot_side(self.slots[view.pass_target], players)
            arrow = {"left": "◀", "right": "▶", "top": "▲"}[side]
            where = f"{arrow} {game.names[view.pass_target]}"
            count = view.rules.cards_passed
            cards = "card" if count == 1 else "cards"
            picture.caption = f"Deal {view.deal_number + 1}: pass {count} {cards} {where}"
            # Narrower, the arrow and the target stay: they are what the caption is for.
            picture.short_captions = (f"Pass {count} {where}", where)
        elif view.phase == Phase.PLAYING:
            picture.caption = f"Deal {view.deal_number + 1}"
        return picture

    def say(self, sentences: Iterable[str], error: bool = False) -> None:
        """Announce sentences (log, status line, file, speech)."""
        for sentence in sentences:
            self.hearts.announce(sentence)
            self.message_is_error = error
            self.message = sentence

    def log_line(self, sentence: str) -> None:
        if not self.is_mounted:
            return
        log = self.query_one("#log", RichLog)
        before = len(log.lines)
        log.write(sentence, scroll_end=False)
        # A sentence taller than the log (a hint at 80 columns) is shown from its start,
        # where it says what it is about; a shorter one scrolls the log to its end.
        if len(log.lines) - before > log.scrollable_content_region.height > 0:
            log.scroll_to(y=before, animate=False)
        else:
            log.scroll_end(animate=False)

    def refuse(self, reason: str) -> None:
        self.app.bell()
        self.say([reason], error=True)

    def sentences(self, events: Iterable[Event]) -> list[str]:
        """What the events say to the person."""
        narrator = Narrator(self.session.view(), SPOKEN)
        said: list[str] = []
        for event in events:
            said += narrator.lines(event)
            if isinstance(event, DealScored):
                said.append(narrator.points_sentence(event))
            elif isinstance(event, DealStarted):
                said.append(words.status(narrator.view))
        return said

    # The flow of the game ----------------------------------------------------------

    def after_action(self, events: list[Event]) -> None:
        """Bookkeeping after any change of the game."""
        session = self.session
        game = session.game
        self.generation += 1
        if len(game.results) > self.results_seen:
            self.pending_sheet = True
            tricks = game.results[-1].tricks
            self.previous_trick = tricks[-1] if tricks else None
        self.results_seen = len(game.results)
        if game.phase != Phase.PASSING:
            self.chosen = CardSet()
        self.say(self.sentences(events))
        storage = self.hearts.storage
        # The finished game's record stays, for `hearts replay` (the next game takes the
        # file over; a finished game is not offered for resuming). Saved before it is
        # counted: a crash between the two counted it, then offered it to finish and
        # counted it again.
        saved = storage.save_game(session)
        if game.is_over and not self.stats_recorded:
            self.stats_recorded = True
            storage.problem = None
            self.final_stats = storage.record_game(game, session.human)
            if storage.problem:
                self._warn(storage.problem)
        if storage.save_moved is not None:
            self._warn(storage.save_moved)
            storage.save_moved = None
        unsaved = storage.game_not_saved
        if not saved and unsaved is not None and unsaved != self.save_warned:
            # Said once, not at every card (it was never said, and the game was lost).
            self.save_warned = unsaved
            self._warn(unsaved)
        self.refresh_table()

    def _warn(self, problem: str) -> None:
        """A problem with the files, in sight and said."""
        self.hearts.notify(problem, severity="warning", timeout=12)
        self.hearts.announce(problem)

    def advance(self) -> None:
        """Start whatever must happen next without the human (computer moves, dialogs)."""
        if self.is_current:
            # The function, not a coroutine: a run cancelled before it starts leaves nothing
            # unawaited.
            self.driving: Worker[None] = self.run_worker(
                self._drive, group="driver", exclusive=True
            )

    def _pause(self) -> float:
        delay = self.hearts.settings.delay
        view = self.session.view()
        if view.phase == Phase.PLAYING and not view.trick and view.tricks:
            return delay * TRICK_PAUSE
        if view.phase == Phase.PASSING:
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
            if game.phase == Phase.MOON_CHOICE and game.current_player == session.human:
                if not self.choosing_for_me:
                    self.ask_moon()
                return
            seat = session.bot_to_act()
            if seat is None:
                if session.auto_card() is None:
                    return
                await asyncio.sleep(self._pause())
                if generation != self.generation or not self.is_current:
                    return
                self.after_action(session.auto_play())
                continue
            await asyncio.sleep(self._pause())
            if generation != self.generation or not self.is_current:
                return
            bot, view = session.seats.bots[seat], game.view(seat)
            decision = await asyncio.to_thread(decide, bot, view)
            if generation != self.generation or not self.is_current:
                return
            self.after_action(session.apply_decision(decision))

    def stop_driving(self) -> None:
        self.workers.cancel_group(self, "driver")
        self.workers.cancel_group(self, "hint")

    # Provided by the dialogs.
    def show_sheet(self, after_deal: bool = False) -> None:
        raise NotImplementedError

    def show_game_over(self) -> None:
        raise NotImplementedError

    def ask_moon(self) -> None:
        raise NotImplementedError

    # Provided by the keys (the moon dialog passes its H, G and U on to them).
    def action_hint(self) -> None:
        raise NotImplementedError

    def action_play_for_me(self) -> None:
        raise NotImplementedError

    def action_undo(self) -> None:
        raise NotImplementedError
