"""Keys that ask for something: hints, play for me, undo, and the reading keys of
source 003."""

from __future__ import annotations

from typing import Any

from textual import work

from ..phases import Phase
from ..sentences import spoken as words
from ..sentences.advice import after_chosen, chosen_line, hint_line
from ..session import Hint, NoHint, SessionError
from ..session.checks import no_hint_now
from ..session.hints import HintKind, make_hint
from .screens import MoonChoiceScreen
from .table_base import SPOKEN, TableBase
from .widgets import HandView

__all__ = ["KeysMixin"]


class KeysMixin(TableBase):
    def action_undo(self) -> None:
        session = self.session
        self.stop_driving()
        try:
            events = session.undo()
        except SessionError as error:
            self.refuse(str(error))
            self.advance()
            return
        self.pending_sheet = False
        self.previous_trick = None
        self.results_seen = len(session.game.results)
        self.after_action(events)
        self.advance()

    def action_hint(self) -> None:
        if self.sheet_first():
            return
        session = self.session
        if session.human not in session.game.to_act():
            self.refuse(no_hint_now(session.view()))
            return
        self.say(["Thinking about a hint…"])
        self._work_out(self.generation, session.view(), follow=False)

    def action_play_for_me(self) -> None:
        if self.sheet_first():
            return
        session = self.session
        if session.human not in session.game.to_act():
            self.refuse(session.not_now())
            return
        self.say(["The computer is choosing for you…"])
        self.choosing_for_me = True
        self._work_out(self.generation, session.view(), follow=True)

    @work(thread=True, group="hint", exclusive=True)
    def _work_out(self, generation: int, view: Any, follow: bool) -> None:
        """The hint for ``view``, worked out aside; then shown, or followed (G)."""
        hint: Hint | None = None
        problem = ""
        try:
            hint = make_hint(view, seed=self.session.game.seed)
        except NoHint as error:
            problem = str(error)
        except Exception as error:  # a hint must never end the game
            problem = f"No hint this time: {error}."
        self.app.call_from_thread(self._worked_out, generation, view, hint, problem, follow)

    def _worked_out(
        self, generation: int, view: Any, hint: Hint | None, problem: str, follow: bool
    ) -> None:
        if follow:
            self.choosing_for_me = False
        if generation != self.generation:
            return
        if hint is None:
            if follow:
                self.refuse(problem)
                self.advance()  # the moon dialog, if that is what waits, comes back
            else:
                self.say([problem])
        elif follow:
            try:
                events = self.session.follow(hint)
            except SessionError as error:
                self.refuse(str(error))
                return
            self.say([chosen_line(hint, SPOKEN)])
            self.after_action(after_chosen(hint, events))
            self.advance()
        else:
            if hint.best.cards:
                self.query_one(HandView).place(hint.best.cards.cards()[0])
            names = [words.subject(view, seat) for seat in range(view.players)]
            line = hint_line(hint, SPOKEN, names)
            self.say([line])
            if hint.kind is HintKind.MOON:
                self.moon_hint = (self.session.game.deal_number, line)
                if isinstance(self.app.screen, MoonChoiceScreen):
                    self.app.screen.show_hint(line)

    def action_scroll_log(self, pages: int) -> None:
        """PageUp and PageDown: the announcements log a page back or on (a long hint at
        80×24 is taller than the log)."""
        log = self.query_one("#log")
        log.scroll_to(
            y=log.scroll_y + pages * max(1, log.scrollable_content_region.height),
            animate=False,
        )

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
        self.say([words.hand(view, self.chosen if view.phase == Phase.PASSING else None)])
