"""Keys that ask for something: hints, play for me, undo, and the reading keys of
source 003."""

from __future__ import annotations

from typing import Any

from textual import work

from ..cards import Card
from ..phases import Phase
from ..sentences import spoken as words
from ..sentences.advice import chosen_line, hint_line
from ..session import Hint, NoHint, SessionError
from ..session.hints import make_hint
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
        session = self.session
        if session.human not in session.game.to_act():
            self.refuse("A hint is for when it is your turn.")
            return
        self.say(["Thinking about a hint…"])
        self._hint(self.generation, session.view())

    @work(thread=True, group="hint", exclusive=True)
    def _hint(self, generation: int, view: Any) -> None:
        card: Card | None = None
        try:
            hint = make_hint(view, seed=self.session.game.seed)
            text = hint_line(hint, SPOKEN, [words.subject(view, s) for s in range(view.players)])
            if hint.best.cards:
                card = hint.best.cards.cards()[0]
        except NoHint as error:
            text = str(error)
        except Exception as error:  # a hint must never end the game
            text = f"No hint this time: {error}."
        self.app.call_from_thread(self._show_hint, generation, text, card)

    def _show_hint(self, generation: int, text: str, card: Card | None) -> None:
        if generation != self.generation:
            return
        if card is not None:
            self.query_one(HandView).place(card)
        self.say([text])

    def action_play_for_me(self) -> None:
        session = self.session
        if session.human not in session.game.to_act():
            self.refuse(session.not_now())
            return
        self.say(["The computer is choosing for you…"])
        self._choose_for_me(self.generation, session.view())

    @work(thread=True, group="hint", exclusive=True)
    def _choose_for_me(self, generation: int, view: Any) -> None:
        hint: Hint | None = None
        problem = ""
        try:
            hint = make_hint(view, seed=self.session.game.seed)
        except NoHint as error:
            problem = str(error)
        except Exception as error:  # the computer's choice must never end the game
            problem = f"The computer could not choose this time: {error}."
        self.app.call_from_thread(self._follow, generation, hint, problem)

    def _follow(self, generation: int, hint: Hint | None, problem: str) -> None:
        if generation != self.generation:
            return
        if hint is None:
            self.refuse(problem)
            return
        try:
            events = self.session.follow(hint)
        except SessionError as error:
            self.refuse(str(error))
            return
        self.say([chosen_line(hint, SPOKEN)])
        self.after_action(events)
        self.advance()

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
