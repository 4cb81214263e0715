"""Plain line-based play: ``hearts play --plain`` (and whenever input or output is not a terminal).

Everything is printed as whole lines and read with ``input()``: no screen drawing, no
colours, no cursor movement.  A screen reader reads it as it comes, a pipe or a script
can drive it, and a transcript of a game is a readable text file.

You sit at seat 0 against computer players.  Commands at any prompt: ``help``, ``hand``,
``scores``, ``last``, ``undo``, ``hint``, ``rules``, ``save [FILE]`` and ``quit``.  End of
input (Ctrl-D) and Ctrl-C save the game and quit cleanly; ``--resume FILE`` goes on.

The sentences come from :mod:`openhearts.sentences`, shared with the terminal game
and ``hearts replay``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, TextIO

from .bots import Bot, BotError, RandomBot, act, make_bot
from .cards import (
    Card,
    CardParseError,
    CardSet,
    Suit,
    parse_cards,
)
from .game import (
    MOON_CHOICE,
    PASSING,
    PLAYING,
    DealResult,
    Game,
    IllegalActionError,
    Play,
    PlayerView,
)
from .options import rules_from_args
from .record import RecordError, load, save
from .rules import RulesError, seat_names
from .sentences import Style, direction_words, shot_line, supports_symbols, table, trick_line
from .session.points import card_points

__all__ = [
    "run_plain",
    "PlainSession",
    "default_save_path",
]

HELP = """\
Commands (type them at any prompt):
  a card       play it: any spelling works, e.g. 5C, 5c, 10h, TH, Q♠, "queen of spades"
  help         this list
  hand         show your hand again (cards you may play are marked *)
  scores       the totals, deal by deal, and the points taken so far in this deal
  last         the last trick
  played       memory aid: the cards played this deal, the cards not yet seen, known voids
  undo         take back your last card (and the computer players' cards after it)
  hint         what the hard computer player would do here
  rules        the rules in force
  save [FILE]  save the game (to FILE, or to the save file) and go on playing
  quit         save the game and stop; resume later with: hearts play --resume FILE
When passing, name the cards together, e.g. "2c 5c QS" or "queen of spades, ace of hearts".
End of input (Ctrl-D) or Ctrl-C also saves the game and stops."""

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _number(count: int) -> str:
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def default_save_path() -> str:
    """Where a game is saved when no ``--save`` file is given."""
    from .paths import data_dir

    return str(data_dir() / "saved-game.json")


# The session ----------------------------------------------------------------------------


class _Quit(Exception):
    """The player asked to stop (``quit``); the game is saved."""


class PlainSession:
    """One game in plain lines: the human at seat ``me``, bots at the other seats.

    :param game: a new or resumed game.
    :param bots: a bot for every seat other than ``me``.
    :param save_path: where ``save``, ``quit``, Ctrl-C and end of input save the game.
    :param auto_play_one: play the human's sole legal card without asking.
    :param out: where the text goes (default: standard output).
    """

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        *,
        me: int = 0,
        save_path: str | None = None,
        auto_play_one: bool = True,
        out: TextIO | None = None,
        style: Style | None = None,
        hint_seed: object = 0,
    ) -> None:
        self.game = game
        self.bots = bots
        self.me = me
        self.save_path = save_path or default_save_path()
        self.auto_play_one = auto_play_one
        self.out = out if out is not None else sys.stdout
        self.style = style or Style(supports_symbols(self.out))
        self.hint_seed = hint_seed
        self._announced_deal: int | None = None
        self._results_seen = len(game.results)
        self._skip_auto = False
        self._interrupted = False
        self._reading = False
        self._echo = not _isatty(sys.stdin)

    # Output and input ------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        text = self.style.clean(text)
        encoding = getattr(self.out, "encoding", None)
        if encoding:
            text = text.encode(encoding, "replace").decode(encoding)
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        """One line of input.  EOFError and KeyboardInterrupt go up to :meth:`run`."""
        prompt = self.style.clean(prompt)
        self._reading = True
        try:
            if self._echo:
                # Not a terminal: print the prompt ourselves and echo the answer, so the
                # output reads as a transcript.
                self.out.write(prompt)
                self.out.flush()
                answer = input()
                print(answer, file=self.out, flush=True)
            else:
                answer = input(prompt)
        finally:
            self._reading = False
        if self._interrupted:
            raise KeyboardInterrupt
        return answer.strip()

    def who(self, seat: int) -> str:
        return "You" if seat == self.me else self.game.names[seat]

    def does(self, seat: int, verb: str) -> str:
        """``You play`` / ``West plays``."""
        return f"You {verb}" if seat == self.me else f"{self.game.names[seat]} {verb}s"

    @property
    def names(self) -> list[str]:
        """Names for tables: the human's marked ``(you)``."""
        return [
            f"{name} (you)" if seat == self.me else name
            for seat, name in enumerate(self.game.names)
        ]

    # The game loop -----------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end or until the player stops; returns the exit status."""
        installed, previous = self._install_interrupt_handler()
        try:
            try:
                self._intro()
                while not self.game.is_over:
                    if self._interrupted:
                        raise KeyboardInterrupt
                    self._step()
            except _Quit:
                return self._save_and_leave("")
            except EOFError:
                self.say()
                return self._save_and_leave("End of input. ")
            except KeyboardInterrupt:
                self.say()
                return self._save_and_leave("Interrupted. ")
            self._finish()
            return 0
        finally:
            if installed:
                signal.signal(signal.SIGINT, previous)

    def _install_interrupt_handler(self) -> tuple[bool, Any]:
        """Ctrl-C while a computer player thinks must not cut an action in half: it is
        noted and acted on between actions.  While waiting for input it stops at once.
        Returns whether a handler was installed, and the one it replaced."""
        if threading.current_thread() is not threading.main_thread():
            return False, None

        def handler(signum: int, frame: FrameType | None) -> None:
            self._interrupted = True
            if self._reading:
                raise KeyboardInterrupt

        try:
            return True, signal.signal(signal.SIGINT, handler)
        except (ValueError, OSError):
            return False, None

    def _save_and_leave(self, why: str) -> int:
        try:
            save(self.game, self.save_path)
        except OSError as error:
            self.say(f"{why}Could not save the game to {self.save_path}: {error.strerror}.")
            return 1
        self.say(f"{why}The game is saved in {self.save_path}.")
        self.say(f"Resume it with: hearts play --resume {_quote(self.save_path)}")
        return 0

    def _intro(self) -> None:
        game = self.game
        others = [game.names[s] for s in range(game.rules.players) if s != self.me]
        if game.actions:
            self.say(
                f"Resuming the game: deal {game.deal_number + 1}, "
                f"against {_join(others)}. Type 'help' for the commands."
            )
            if game.results:
                self._show_totals()
        else:
            self.say(
                f"Hearts: you ({game.names[self.me]}) against {_join(others)}. "
                f"The game ends when someone reaches {game.rules.end_score}; "
                "the lowest total wins."
            )
            self.say("Type 'help' at any prompt for the commands.")

    def _step(self) -> None:
        game = self.game
        if self._announced_deal != game.deal_number:
            self._announce_deal()
        phase = game.phase
        if phase == PASSING:
            if self.me in game.to_act():
                self._human_pass()
            for seat in game.to_act():
                self._bot_act(seat)
            if game.phase != PASSING:
                self._show_received()
        elif phase == PLAYING:
            mover = game.current_player
            assert mover is not None
            if mover == self.me:
                self._human_play()
            else:
                self._bot_play(mover)
        elif phase == MOON_CHOICE:
            shooter = game.current_player
            assert shooter is not None
            if shooter == self.me:
                self._human_moon()
            else:
                self._bot_act(shooter)
        self._check_deal_end()

    def _announce_deal(self) -> None:
        game = self.game
        self._announced_deal = game.deal_number
        view = game.view(self.me)
        self.say()
        head = f"Deal {game.deal_number + 1}. {self.does(game.dealer, 'deal')}."
        if view.pass_target is None:
            self.say(f"{head} A hold hand: no passing.")
        elif view.passed is not None:
            self.say(f"{head} You have passed {self.style.cards(view.passed)}.")
        else:
            count = _number(game.rules.cards_passed)
            self.say(
                f"{head} Pass {count} cards {direction_words(game.pass_direction)} "
                f"({game.names[view.pass_target]})."
            )

    # Bots --------------------------------------------------------------------------------

    def _bot_act(self, seat: int) -> None:
        game = self.game
        try:
            act(game, seat, self.bots[seat])
        except (IllegalActionError, BotError) as error:
            # A faulty bot must not end the human's game: a random player takes over.
            self.say(
                f"{game.names[seat]}'s computer player went wrong ({error}); "
                "a random player takes its place."
            )
            self.bots[seat] = RandomBot(seat)
            act(game, seat, self.bots[seat])

    def _bot_play(self, seat: int) -> None:
        game = self.game
        before = self._trick_size()
        self._bot_act(seat)
        action = game.actions[-1]
        assert isinstance(action, Play)
        self._announce_play(seat, action.card, before)

    def _trick_size(self) -> int:
        return len(self.game.view(self.me).trick)

    def _announce_play(self, seat: int, card: Card, before: int, note: str = "") -> None:
        verb = "lead" if before == 0 else "play"
        self.say(f"{self.does(seat, verb)} {self.style.card(card)}{note}.")
        if before == self.game.rules.players - 1:
            self._announce_trick_end()

    def _announce_trick_end(self) -> None:
        game = self.game
        if len(game.results) > self._results_seen:
            trick = game.results[-1].tricks[-1]
        else:
            trick = game.view(self.me).tricks[-1]
        points = card_points(game.rules, trick.cards)
        points_text = f" ({_plural(points, 'point')})" if points else ""
        winning = next(
            card for seat, card in trick.plays(game.rules.players) if seat == trick.winner
        )
        self.say(
            f"{self.does(trick.winner, 'take')} the trick with the "
            f"{self.style.card(winning)}{points_text}."
        )
        self.say()

    # The human's turns ---------------------------------------------------------------------

    def _human_pass(self) -> None:
        game = self.game
        view = game.view(self.me)
        assert view.pass_target is not None
        count = game.rules.cards_passed
        target = game.names[view.pass_target]
        self._show_hand(view)
        prompt = f"Pass {_number(count)} cards {direction_words(game.pass_direction)} ({target}): "
        while True:
            text = self.ask(prompt)
            if not text:
                self.say(
                    f"Name {_number(count)} cards from your hand, e.g. "
                    f"{self._example(view.hand, count)}; or type 'help'."
                )
                continue
            if self._command(text):
                continue
            try:
                cards = parse_cards(text)
            except CardParseError as error:
                self.say(f"{error}.")
                continue
            problem = self._pass_problem(cards, view.hand, count)
            if problem:
                self.say(problem)
                continue
            try:
                game.pass_cards(self.me, CardSet(cards))
            except IllegalActionError as error:
                self.say(f"{error}.")
                continue
            self.say(f"You pass {self.style.cards(CardSet(cards))} to {target}.")
            return

    def _pass_problem(self, cards: Sequence[Card], hand: CardSet, count: int) -> str | None:
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                return f"You named the {self.style.card(card)} twice."
            seen.add(card)
        if len(cards) != count:
            return f"Pass exactly {_number(count)} cards; you named {_number(len(cards))}."
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"You do not hold {_join([self.style.card(c) for c in missing])}."
        return None

    def _example(self, cards: CardSet, count: int) -> str:
        return " ".join(str(c).replace("T", "10") for c in cards.cards()[-count:])

    def _show_received(self) -> None:
        view = self.game.view(self.me)
        if view.received is not None and view.pass_source is not None:
            self.say(
                f"You receive {self.style.cards(view.received)} "
                f"from {self.game.names[view.pass_source]}."
            )

    def _human_play(self) -> None:
        game = self.game
        view = game.view(self.me)
        legal = view.legal
        before = len(view.trick)
        card = game.auto_play_card() if self.auto_play_one and not self._skip_auto else None
        if card is not None:
            game.play(card, seat=self.me)
            why = " (your only legal card)" if len(legal) == 1 else " (no points left to take)"
            self._announce_play(self.me, card, before, why)
            return
        self._skip_auto = False
        self._show_table(view)
        self._show_hand(view)
        self.say(f"You may play: {self.style.cards(legal)}")
        while True:
            text = self.ask("Your card: ")
            if not text:
                self.say(f"Type a card, e.g. {self._example(legal, 1)}, or 'help'.")
                continue
            actions = len(game.actions)
            if self._command(text):
                if len(game.actions) != actions:
                    return  # undone: show the position again
                continue
            try:
                cards = parse_cards(text)
            except CardParseError as error:
                self.say(f"{error}.")
                continue
            if len(cards) != 1:
                self.say("Play one card at a time.")
                continue
            card = cards[0]
            if card not in legal:
                self.say(f"You cannot play the {self.style.card(card)}: {game.why_illegal(card)}.")
                self.say(f"You may play: {self.style.cards(legal)}")
                continue
            game.play(card, seat=self.me)
            self._announce_play(self.me, card, before)
            return

    def _show_table(self, view: PlayerView) -> None:
        number = len(view.tricks) + 1
        if not view.trick:
            note = ""
            if not view.hearts_broken and any(c.suit is Suit.HEARTS for c in view.hand):
                note = " Hearts are not broken yet."
            self.say(f"Trick {number}: you lead.{note}")
        else:
            cards = ", ".join(
                f"{self.game.names[seat]} {self.style.card(card)}" for seat, card in view.trick
            )
            self.say(f"Trick {number}: on the table: {cards}.")

    def _show_hand(self, view: PlayerView) -> None:
        marks = view.legal if view.phase == PLAYING and view.is_my_turn else CardSet()
        self.say("Your hand:")
        for suit in Suit:
            cards = view.hand.of_suit(suit)
            ranks = " ".join(self.style.card(c)[:-1] + ("*" if c in marks else "") for c in cards)
            self.say(f"  {self.style.suit(suit)}: {ranks or '-'}")

    def _human_moon(self) -> None:
        game = self.game
        total = game.rules.points_in_play
        suggested = game.suggested_moon_choice()
        default = "add" if suggested else "subtract"
        self.say(
            f"You shot the moon! Choose: 'add' gives everyone else {total} points, "
            f"'subtract' takes {total} off your own total. The usual choice here is {default}."
        )
        while True:
            text = self.ask(f"add or subtract [{default}]: ").lower()
            if text in ("", "default"):
                others_add = suggested
            elif text in ("a", "add", "others", "others add"):
                others_add = True
            elif text in ("s", "sub", "subtract", "minus"):
                others_add = False
            elif self._command(text):
                if game.phase != MOON_CHOICE or game.current_player != self.me:
                    return
                continue
            else:
                self.say("Type 'add' or 'subtract' (or press Enter for the usual choice).")
                continue
            game.choose_moon(self.me, others_add)
            return

    # Commands ------------------------------------------------------------------------------

    def _command(self, text: str) -> bool:
        """Run a command; False when the text is not one (then it is read as cards)."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        commands: dict[str, Callable[[], None]] = {
            "help": lambda: self.say(HELP),
            "?": lambda: self.say(HELP),
            "hand": self._command_hand,
            "scores": self._command_scores,
            "score": self._command_scores,
            "last": self._command_last,
            "played": self._command_played,
            "memory": self._command_played,
            "undo": self._command_undo,
            "hint": self._command_hint,
            "rules": self._command_rules,
        }
        if word in ("quit", "exit", "q"):
            raise _Quit
        if word == "save":
            self._command_save(rest.strip())
            return True
        if word in commands and not rest.strip():
            commands[word]()
            return True
        return False

    def _command_hand(self) -> None:
        view = self.game.view(self.me)
        if view.phase == PLAYING and view.is_my_turn:
            self._show_table(view)
        self._show_hand(view)
        if view.legal:
            self.say(f"You may play: {self.style.cards(view.legal)}")

    def _command_scores(self) -> None:
        game = self.game
        view = game.view(self.me)
        if game.results:
            self._show_history()
        else:
            self.say("No deal has finished yet: every total is 0.")
        taken = ", ".join(
            f"{self.who(seat)} {points}" for seat, points in enumerate(view.points_taken)
        )
        self.say(f"Points taken so far in deal {game.deal_number + 1}: {taken}.")

    def _command_last(self) -> None:
        game = self.game
        view = game.view(self.me)
        if view.tricks:
            number, trick, where = len(view.tricks), view.tricks[-1], ""
        elif game.results:
            number = len(game.results[-1].tricks)
            trick, where = game.results[-1].tricks[-1], " of the previous deal"
        else:
            self.say("No trick has been played yet.")
            return
        line = trick_line(self.style, self.names, game.rules, number, trick)
        self.say(line.replace(f"Trick {number}:", f"Trick {number}{where}:", 1))

    def _command_played(self) -> None:
        """The memory aids: what has gone, what is still out, who lacks which suit."""
        view = self.game.view(self.me)
        played, unseen = view.played, view.unseen
        if not played:
            self.say("No card has been played yet in this deal.")
        else:
            self.say(f"Played in deal {view.deal_number + 1}:")
            for suit in Suit:
                gone = self.style.cards(played.of_suit(suit)) or "-"
                out = self.style.cards(unseen.of_suit(suit)) or "-"
                self.say(f"  {self.style.suit(suit)}: {gone}   (not seen yet: {out})")
        voids = [
            f"{self.who(seat)} {'have' if seat == self.me else 'has'} no "
            + " and no ".join(suit.word for suit in sorted(lacking))
            for seat, lacking in enumerate(view.voids)
            if lacking
        ]
        self.say("Known voids: " + ("; ".join(voids) if voids else "none yet") + ".")
        self.say("Hearts are broken." if view.hearts_broken else "Hearts are not broken yet.")

    def _command_rules(self) -> None:
        self.say("The rules of this game:")
        for line in self.game.rules.describe():
            self.say(f"  {line}")

    def _command_save(self, path: str) -> None:
        if path:
            self.save_path = os.path.expanduser(path)
        try:
            save(self.game, self.save_path)
        except OSError as error:
            self.say(f"Could not save the game to {self.save_path}: {error.strerror}.")
            return
        self.say(f"The game is saved in {self.save_path}.")

    def _played_this_deal(self) -> bool:
        game = self.game
        return game.phase in (PLAYING, MOON_CHOICE) and len(game.hand(self.me)) < (
            game.rules.hand_size
        )

    def _command_undo(self) -> None:
        game = self.game
        if not self._played_this_deal():
            self.say("You have not played a card in this deal: there is nothing to take back.")
            return
        taken: list[Play] = []
        while True:
            action = game.undo()
            if isinstance(action, Play):
                taken.append(action)
                if action.seat != self.me:
                    continue
                # A card played automatically was no choice: go back to the last real one.
                forced = game.auto_play_card() is not None
                if self.auto_play_one and forced and self._played_this_deal():
                    continue
                break
        mine = [a for a in taken if a.seat == self.me]
        cards = self.style.cards(a.card for a in reversed(mine))
        others = len(taken) - len(mine)
        after = f", and {_plural(others, 'card')} played after it" if others else ""
        self.say(f"Taken back: your {cards}{after}.")
        self._skip_auto = True

    def _command_hint(self) -> None:
        game = self.game
        if game.current_player != self.me or game.phase != PLAYING:
            self.say("Hints are for choosing a card to play.")
            return
        try:
            module = importlib.import_module("openhearts.bots.hard")
        except ImportError:
            module = None
        analyse = getattr(getattr(module, "HardBot", None), "analyse", None)
        if module is None or analyse is None:
            self.say("Hints need the hard computer player, which is not available here.")
            return
        self.say("Thinking...")
        bot = module.HardBot(self.hint_seed)
        try:
            result = bot.analyse(game.view(self.me))
        except Exception as error:  # a hint must never end the game
            self.say(f"No hint this time ({error}).")
            return
        finally:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        for line in _hint_lines(self.style, result):
            self.say(line)

    # Scores --------------------------------------------------------------------------------

    def _check_deal_end(self) -> None:
        game = self.game
        while self._results_seen < len(game.results):
            result = game.results[self._results_seen]
            self._results_seen += 1
            self._show_deal_result(result)

    def _show_deal_result(self, result: DealResult) -> None:
        game = self.game
        self.say(f"Deal {result.number + 1} is over.")
        line = shot_line([self.who(s) for s in range(game.rules.players)], game.rules, result)
        if line:
            self.say(line.replace("You subtracts", "You subtract"))
        totals = self._totals_after(result)
        rows = [[name, result.points[seat], totals[seat]] for seat, name in enumerate(self.names)]
        for text in table(["", "This deal", "Total"], rows):
            self.say(f"  {text}")

    def _totals_after(self, result: DealResult) -> list[int]:
        game = self.game
        totals = list(game.initial_scores)
        for earlier in game.results:
            totals = [a + b for a, b in zip(totals, earlier.points, strict=True)]
            if earlier is result:
                break
        return totals

    def _show_totals(self) -> None:
        rows = [[name, score] for name, score in zip(self.names, self.game.scores, strict=True)]
        for text in table(["", "Total"], rows):
            self.say(f"  {text}")

    def _show_history(self) -> None:
        game = self.game
        headers = ["", *self.names]
        rows: list[list[object]] = [[f"Deal {r.number + 1}", *r.points] for r in game.results]
        rows.append(["Total", *game.scores])
        for text in table(headers, rows):
            self.say(f"  {text}")

    def _finish(self, save_record: bool = True) -> None:
        game = self.game
        self.say()
        winners = game.winners
        low = game.scores[winners[0]]
        deals = len(game.results)
        if winners == [self.me]:
            verdict = f"You win with {low} points!"
        elif len(winners) == 1:
            verdict = f"{game.names[winners[0]]} wins with {low} points."
        else:
            verdict = f"{_join([self.who(s) for s in winners])} share the win with {low} points."
        self.say(f"Game over after {_plural(deals, 'deal')}. {verdict}")
        self._show_history()
        if not save_record:
            return
        try:
            save(self.game, self.save_path)
        except OSError as error:
            self.say(f"Could not save the record to {self.save_path}: {error.strerror}.")
            return
        self.say(
            f"The game's record is in {self.save_path}; see it again with: "
            f"hearts replay {_quote(self.save_path)}"
        )


def _hint_lines(style: Style, result: object) -> list[str]:
    """The hard player's analysis (cards with the points expected after each, best
    first) as lines of text; anything else it returns is shown as it is."""
    if isinstance(result, str):
        return result.splitlines()
    if not isinstance(result, list | tuple) or not result:
        return [f"Hint: {result}"]
    ranked = [
        item
        for item in result
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], int)
    ]
    if len(ranked) != len(result):
        return [f"Hint: {result}"]
    best = Card(ranked[0][0])
    lines = [
        f"Hint: the hard computer player would play the {style.card(best)}.",
        "Points it expects you to take in the rest of this deal after each card:",
    ]
    for card, value in ranked:
        value_text = f"{value:.1f}" if isinstance(value, float) else str(value)
        lines.append(f"  {style.card(Card(card))}: {value_text}")
    return lines


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _quote(path: str) -> str:
    import shlex

    return shlex.quote(path)


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:
        return False


# Setting up a game from the command line ------------------------------------------------


class SetupError(Exception):
    """The command line cannot start a game; the message says why."""


def _names(args: argparse.Namespace, players: int) -> list[str]:
    defaults = list(seat_names(players))
    human = (args.name or defaults[0]).strip() or defaults[0]
    opponents = [n.strip() for n in (args.opponents or "").split(",") if n.strip()]
    if len(opponents) > players - 1:
        raise SetupError(f"--opponents: {len(opponents)} names for {players - 1} computer players")
    names = [human, *opponents, *defaults[1 + len(opponents) :]]
    if len(set(names)) != len(names):
        raise SetupError(f"every player needs a different name, not {', '.join(names)}")
    return names


def _new_game(args: argparse.Namespace) -> tuple[Game, int]:
    try:
        rules = rules_from_args(args)
    except RulesError as error:
        raise SetupError(str(error)) from None
    seed: object = args.seed if args.seed is not None else random.randrange(10**9)
    names = _names(args, rules.players)
    game = Game(rules, seed, names)
    return game, game.names.index(names[0])


def _make_bots(
    level: str, seed: object, players: int, me: int, say: Callable[[str], None]
) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    warned = False
    for seat in range(players):
        if seat == me:
            continue
        try:
            bots[seat] = make_bot(level, f"{seed}:bot:{seat}")
        except ImportError:
            if not warned:
                say(
                    f"The {level} computer players are not available yet: "
                    "you play against random players."
                )
                warned = True
            bots[seat] = make_bot("random", f"{seed}:bot:{seat}")
        except BotError as error:
            raise SetupError(str(error)) from None
    return bots


def run_plain(args: argparse.Namespace) -> int:
    """``hearts play --plain``: set up (or resume) a game and play it in plain lines."""
    out = sys.stdout
    style = Style(supports_symbols(out) and not getattr(args, "ascii", False))
    try:
        if args.resume:
            try:
                game = load(os.path.expanduser(args.resume))
            except RecordError as error:
                raise SetupError(f"cannot resume {args.resume}: {error}") from None
            me = game.names.index(args.name) if args.name in game.names else 0
            save_path = args.save or args.resume
        else:
            game, me = _new_game(args)
            save_path = args.save
        session = PlainSession(
            game,
            {},
            me=me,
            save_path=os.path.expanduser(save_path) if save_path else None,
            auto_play_one=args.auto_play_one,
            out=out,
            style=style,
            hint_seed=game.seed,
        )
        if args.resume and (
            args.preset != "standard" or args.players or args.end_score or args.option
        ):
            session.say("The rules come from the saved game; the rules options are ignored.")
        session.bots = _make_bots(args.level, game.seed, game.rules.players, me, session.say)
    except SetupError as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2
    if game.is_over:
        session.say(f"That game is already over ({args.resume}).")
        session._finish(save_record=False)
        return 0
    return session.run()
