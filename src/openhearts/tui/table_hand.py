"""The person's cards: playing, choosing cards to pass, and typing cards by name."""

from __future__ import annotations

from textual.widgets import Button, Input

from ..cards import Card, CardParseError, CardSet
from ..phases import Phase
from ..session import SessionError
from ..session.checks import pass_problem, repeat_problem, typed_cards
from ..session.words import as_sentence, counted, number_word
from .table_base import TableBase
from .widgets import HandView

__all__ = ["HandMixin"]


class HandMixin(TableBase):
    def play_card(self, card: Card) -> None:
        if self.sheet_first():
            return
        session = self.session
        game = session.game
        if game.phase == Phase.PASSING:
            self.toggle(card)
            return
        try:
            events = session.play(session.human, card)
        except SessionError as error:
            self.refuse(str(error))
            return
        self.after_action(events)
        self.advance()

    def toggle(self, card: Card) -> None:
        """Choose or unchoose a card to pass."""
        session = self.session
        game = session.game
        if game.phase != Phase.PASSING or session.human not in game.to_act():
            self.refuse(session.not_now())
            return
        count = game.rules.cards_passed
        if card not in session.view().hand:
            self.refuse(f"You do not hold the {card.pretty}.")
            return
        if card in self.chosen:
            self.chosen = self.chosen - CardSet([card])
            self.say([f"Unchosen: the {card.name}. {len(self.chosen)} of {count} chosen."])
        elif len(self.chosen) >= count:
            self.refuse(
                f"You have already chosen {counted(count, 'card')}: press P to pass "
                f"{'it' if count == 1 else 'them'}, or unchoose one first."
            )
        else:
            self.chosen = self.chosen | CardSet([card])
            text = f"Chosen: the {card.name}. {len(self.chosen)} of {count} chosen."
            if len(self.chosen) == count:
                text += " Press P to pass it." if count == 1 else " Press P to pass them."
            self.say([text])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pass_cards":
            return self.can_pass()
        over = self.session.game.is_over
        # Once the game is over the footer offers a new game, not the keys of a move;
        # pressed, those say so (action_game_over).
        if action in ("hint", "play_for_me", "undo"):
            return not over
        if action == "new_game_now":
            return over
        return True

    def action_game_over(self) -> None:
        self.refuse("The game is over: N starts a new game.")

    def action_pass_refused(self) -> None:
        self.refuse("There is nothing to pass now.")

    def action_pass_cards(self) -> None:
        if self.sheet_first():
            return
        session = self.session
        game = session.game
        if not self.can_pass():
            self.action_pass_refused()
            return
        count = game.rules.cards_passed
        if len(self.chosen) != count:
            self.refuse(
                f"Choose {counted(count, 'card')} to pass first "
                f"({len(self.chosen)} chosen): Enter or Space on a card chooses it."
            )
            return
        try:
            events = session.pass_cards(session.human, self.chosen)
        except SessionError as error:
            self.refuse(str(error))
            return
        self.chosen = CardSet()
        self.after_action(events)
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
        elif view.phase == Phase.PLAYING and view.is_my_turn and message.card not in view.legal:
            text += ", not playable"
        self.hearts.speaker.say_if_idle(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "pass-button":
            self.action_pass_cards()
            # The button hides once the cards are passed: the keys go back to the hand
            # (they went nowhere until Tab).
            self.query_one(HandView).focus()

    # Typing cards ----------------------------------------------------------------------

    def action_type_card(self, prefix: str) -> None:
        game = self.session.game
        if game.phase not in (Phase.PASSING, Phase.PLAYING):
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
        try:
            cards = typed_cards(text)
        except CardParseError as error:
            self.refuse(as_sentence(str(error)))
            return
        if self.session.game.phase == Phase.PASSING:
            self._type_pass(cards)
            return
        if len(cards) != 1:
            self.refuse("Play one card at a time.")
            return
        if cards[0] in self.session.view().hand:
            self.query_one(HandView).place(cards[0])
        self.play_card(cards[0])

    def _type_pass(self, cards: list[Card]) -> None:
        """Typed cards to pass: all held, none twice, at most the number passed; then
        chosen, as Enter on each would (P passes them)."""
        view = self.session.view()
        count = view.rules.cards_passed
        wanted = [*(c for c in self.chosen if c not in cards), *cards]
        problem = pass_problem(view, wanted) if len(wanted) >= count else None
        chosen = len(self.chosen)
        if len(wanted) > count and len(cards) <= count and chosen:
            # Typed on top of cards already chosen: say so, as Enter on a card does.
            if chosen >= count:
                problem = (
                    f"You have already chosen {counted(chosen, 'card')}: press P to pass "
                    "them, or unchoose one first."
                )
            else:
                problem = (
                    f"You have already chosen {counted(chosen, 'card')}: name "
                    f"{number_word(count - chosen)} more to pass {number_word(count)}, "
                    f"not {number_word(len(cards))}."
                )
        if problem is None:
            held = [c for c in cards if c not in view.hand]
            problem = f"You do not hold the {held[0].pretty}." if held else repeat_problem(cards)
        if problem is not None:
            self.refuse(problem)
            return
        said = ", ".join(f"the {c.name}" for c in cards)
        if all(c in self.chosen for c in cards):
            self.say([f"Already chosen: {said}. {len(self.chosen)} of {count} chosen."])
            return
        self.chosen = CardSet(wanted)
        text = f"Chosen: {said}. {len(self.chosen)} of {count} chosen."
        if len(self.chosen) == count:
            text += " Press P to pass it." if count == 1 else " Press P to pass them."
        self.say([text])

    def action_clear(self) -> None:
        entry = self.query_one("#entry", Input)
        if entry.display:
            self._close_entry()
            return
        if self.chosen:
            self.chosen = CardSet()
            self.say(["Choice cleared."])
