"""One plain game: the loop that lets the computer players act and asks the person."""

from __future__ import annotations

import shlex
import sys
from typing import TextIO

from ..bots import Bot
from ..game import Game
from ..phases import Phase
from ..sentences import Style, supports_symbols
from ..sentences.events import Narrator
from ..session import Seats, Session
from ..session.events import GameOver, deal_started
from ..session.outcome import Ending, game_outcome
from ..session.statistics import record_game
from ..session.words import as_sentence, join_words
from .commands import show_trick
from .console import Console, Stop
from .saving import SaveSlot
from .scores import show_history, show_totals
from .table import Table
from .turns import human_moon, human_pass, human_play

__all__ = ["PlainSession"]

_WHY = {
    Ending.QUIT: "",
    Ending.END_OF_INPUT: "End of input. ",
    Ending.INTERRUPTED: "Interrupted. ",
    Ending.HANGUP: "The terminal closed. ",
    Ending.TERMINATED: "Stopped. ",
}


class PlainSession:
    """One game in plain lines: the person at seat ``me``, bots at the other seats.

    :param game: a new or resumed game.
    :param bots: a bot for every seat other than ``me``.
    :param save_path: where ``save``, ``quit``, Ctrl-C, SIGHUP, SIGTERM and end of input
        save the game.
    :param auto_play_one: play the person's sole legal card without asking.
    :param out: where the text goes (default: standard output).
    :param level: the bots' level, kept in the save file.
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
        level: str = "easy",
    ) -> None:
        out = out if out is not None else sys.stdout
        seats = Seats(frozenset([me]), dict(bots), level=level)
        self.session = Session(game, seats, auto_play_one=auto_play_one)
        self.console = Console(out, style or Style(supports_symbols(out)))
        self.table = Table(self.session, self.console, SaveSlot(save_path))
        self._announced_deal: int | None = None
        self._unsaved_said = False

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def bots(self) -> dict[int, Bot]:
        return self.session.seats.bots

    @property
    def save_path(self) -> str:
        return self.table.slot.path

    def say(self, text: str = "") -> None:
        self.console.say(text)

    # The game loop -----------------------------------------------------------------

    def run(self) -> int:
        """Play to the end or until the person stops; returns the exit status."""
        with self.console.signals():
            try:
                self._intro()
                if not self.game.actions:
                    # The deal the person is shown is kept even if the program is killed
                    # before the first choice.
                    self._autosave()
                while not self.game.is_over:
                    self.console.check()
                    self._step()
            except Stop as stop:
                if stop.ending is not Ending.QUIT:
                    self.say()
                return self._save_and_leave(stop.ending)
            # Kept while a signal is only noted: one between the record and the
            # statistics stopped the program there, and the game was never counted.
            kept = self._keep_finished()
        self.finish(kept=kept)
        return 0

    def _save_and_leave(self, ending: Ending) -> int:
        why = _WHY.get(ending, "")
        saved, problems = self.table.slot.save_somewhere(self.session)
        for problem in problems:
            self.say(problem)
        if saved is None:
            self.say(f"{why}The game could not be saved anywhere.")
            return 1
        self.say(f"{why}The game is saved in {saved}.")
        self.say(f"Resume it with: hearts play --plain --resume {shlex.quote(saved)}")
        return ending.exit_status

    def _intro(self) -> None:
        game = self.game
        me = self.session.human
        others = [game.names[s] for s in range(game.rules.players) if s != me]
        if game.actions:
            self.say(
                f"Resuming the game: deal {game.deal_number + 1}, "
                f"against {join_words(others)}. Type 'help' for the commands."
            )
            if game.results:
                show_totals(self.table)
        else:
            self.say(
                f"Hearts: you ({game.names[me]}) against {join_words(others)}. "
                f"The game ends when someone reaches {game.rules.end_score}; "
                "the lowest total wins."
            )
            self.say("Type 'help' at any prompt for the commands.")
        problem = self.session.seats.problem
        if problem:
            self.say(problem[0].upper() + problem[1:] + ".")

    def _step(self) -> None:
        session = self.session
        game = session.game
        if self._announced_deal != game.deal_number:
            resumed = self._announced_deal is None and bool(game.actions)
            self._announced_deal = game.deal_number
            self.say()
            narrator = Narrator(session.view(), self.console.style)
            for line in narrator.lines(deal_started(game)):
                self.say(line)
            view = session.view()
            if resumed and view.trick and not session.people_to_act():
                # A resumed game goes on mid-trick with the computer players' cards:
                # the trick so far first, so that each of their cards has its context.
                show_trick(self.table, view)
        turn = {Phase.PASSING: human_pass, Phase.PLAYING: human_play, Phase.MOON_CHOICE: human_moon}
        # The computer players pass before the person is asked, as in the terminal game:
        # both write a deal's passes in the same order in the record.
        if session.people_to_act() and session.bot_to_act() is None:
            actions = len(game.actions)
            turn[game.phase](self.table)
            if len(game.actions) != actions:
                # Saved as it goes: even a kill that cannot be caught loses nothing chosen.
                self._autosave()
            return
        events = session.step()
        self.table.tell(events)

    def _autosave(self) -> None:
        """Save after the person's choice; where the save file cannot be written, the
        default file or the temporary directory takes over, said once."""
        slot = self.table.slot
        if slot.save_to(self.session, slot.path) is None:
            return
        before = slot.path
        saved, problems = slot.save_somewhere(self.session)
        if saved is not None and saved != before:
            for problem in problems:
                self.say(problem)
            self.say(f"The game is saved in {saved} from now on.")
        elif saved is None and not self._unsaved_said:
            self._unsaved_said = True
            for problem in problems:
                self.say(problem)
            self.say("The game cannot be saved anywhere: stopping the program would lose it.")

    def _keep_finished(self) -> tuple[str | None, list[str]]:
        """The finished game's record, then its statistics: where the record went, and
        the problems met.  The record first (a finished record is never resumed, so the
        game cannot be counted twice), then the statistics, a nicety beside it."""
        saved, problems = self.table.slot.save_somewhere(self.session)
        try:
            stats = record_game(self.game, self.session.human)
            if stats.note:
                problems.append(as_sentence(stats.note))
        except OSError as error:
            problems.append(f"The statistics could not be kept: {error.strerror or error}.")
        return saved, problems

    def finish(
        self, save_record: bool = True, kept: tuple[str | None, list[str]] | None = None
    ) -> None:
        """Say how the game ended; with ``save_record``, keep it first (unless ``kept``
        says where it was kept already) and say where."""
        game = self.game
        outcome = game_outcome(game)
        assert outcome is not None
        saved: str | None = None
        problems: list[str] = []
        if save_record:
            # Kept before anything is said, so that a program stopped at the end still
            # has the finished record and counts the game.
            saved, problems = kept if kept is not None else self._keep_finished()
        self.say()
        for line in Narrator(self.session.view(), self.console.style).lines(GameOver(outcome)):
            self.say(line)
        show_history(self.table)
        if not save_record:
            return
        for problem in problems:
            self.say(problem)
        if saved is None:
            self.say("The game's record could not be saved anywhere.")
            return
        self.say(
            f"The game's record is in {saved}; see it again with: "
            f"hearts replay {shlex.quote(saved)}"
        )
