"""The terminal game: :class:`HeartsApp` (the card table is :mod:`openhearts.tui.table`)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import shlex
import signal

from rich.text import Text
from textual.app import App
from textual.notifications import SeverityLevel

from ..game import Game
from ..record import RecordError
from ..rules import Rules
from ..sentences import spoken as words
from ..session import Session
from ..session.names import table_names
from ..session.saving import AskedFor, SessionInfo, kept_from_save
from ..session.seeds import game_seed
from ..session.words import as_sentence
from .options_screen import OptionsResult, OptionsScreen
from .screens import ChoiceScreen
from .speech import Speaker
from .storage import Settings, Storage
from .table import TableScreen

__all__ = ["HeartsApp", "TableScreen"]


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
        asked: AskedFor | None = None,
        handle_signals: bool = False,
    ) -> None:
        super().__init__()
        self.storage = storage or Storage()
        self.settings = settings or self.storage.load_settings()
        self.first_seed = seed
        self.resume_path = resume
        self.asked = asked or AskedFor()
        self.handle_signals = handle_signals
        self.show_options_first = show_options
        self.announcements: list[str] = []
        self.speaker = Speaker(self.settings.speech_command)
        self._speech_problem_shown: str | None = None
        self.table: TableScreen | None = None
        #: The options' rules when the game at the table began (None: no rules they make).
        self.options_rules_at_start: Rules | None = None
        #: Whether the next game takes the options' rules even if they are unchanged.
        self.next_game_by_options = False

    # Announcements ---------------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A toast, its words as they are: they hold file names and typed values, in
        which "[b]" is no style and "[/]" stopped the game with a markup error."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

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

    def action_help_quit(self) -> None:
        """Ctrl+C, pressed by reflex to quit, says how to: Textual's own notice was
        markup shown as typed ("Press [b]ctrl+q[/b]"), and a toast alone is never heard."""
        saved = self.table is not None and not self.table.session.game.is_over
        said = "Ctrl+C does not quit here: press Ctrl+Q to quit" + (
            "; the game is saved." if saved else "."
        )
        self.notify(said, title="Do you want to quit?")
        self.announce(said)

    # Flow --------------------------------------------------------------------------------

    def stop_on_signals(self) -> None:
        """A kill (SIGTERM) or a closed terminal (SIGHUP) ends the app as Ctrl+Q does: the
        terminal is given back and the farewell says where the game is saved.  The exit
        status is a shell's for the signal (143, 129), as in the plain game."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.exit, 128 + int(signum))

    def on_mount(self) -> None:
        if self.handle_signals:
            self.stop_on_signals()
        try:
            self.storage.announcements_path.parent.mkdir(parents=True, exist_ok=True)
            self.storage.announcements_path.write_text("", encoding="utf-8")
        except OSError:
            pass
        if self.resume_path:
            try:
                game, info = self.storage.load_game(self.resume_path)
            except RecordError as error:
                self.announce(f"Cannot resume: {error}")
                self.notify(str(error), title="Cannot resume", severity="error", timeout=10)
                self.show_options(in_game=False)
                return
            kept = self.storage.resumed_from(self.resume_path)
            if kept:
                self.notify(kept, title="Kept aside", timeout=12)
                self.announce(kept)
            self.resume_game(game, info)
            return
        unfinished = self.storage.has_unfinished_game()
        if self.storage.problem:
            # A saved game set aside as damaged is news a listener must hear too: the
            # game they meant to resume is not offered.
            problem = as_sentence(self.storage.problem)
            self.notify(problem, severity="warning", timeout=8)
            self.announce(problem)
        if unfinished:
            self.offer_resume()
            return
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
                    loaded, info = self.storage.load_game()
                except RecordError as error:
                    self.notify(str(error), severity="error")
                    self.show_options(in_game=False)
                    return
                # A text record offered from --save FILE.pbn is not written over.
                kept = self.storage.resumed_from(self.storage.save_path)
                if kept:
                    self.notify(kept, title="Kept aside", timeout=12)
                    self.announce(kept)
                self.resume_game(loaded, info)
            else:
                # Kept until a new game starts: leaving the options (or Escape here) must
                # not lose it.
                self.show_options(in_game=False)

        self.push_screen(
            ChoiceScreen("Resume?", Text(text), [("resume", "Resume"), ("new", "New game")]),
            chosen,
        )

    def show_options(self, in_game: bool) -> None:
        # "Auto play one" is shown as the game in play has it (a resumed game keeps its
        # own), and changes the game, or the setting, only when changed on the screen.
        shown = self.settings
        if self.table is not None:
            shown = dataclasses.replace(shown, auto_play_one=self.table.session.auto_play_one)

        def done(result: OptionsResult | None) -> None:
            if result is None:
                return
            changed = result.settings.auto_play_one != shown.auto_play_one
            kept = result.settings.auto_play_one if changed else self.settings.auto_play_one
            speech_before = self.settings.speech_command
            self.settings = dataclasses.replace(result.settings, auto_play_one=kept)
            self.storage.save_settings(self.settings)
            # A new speaker only for a new command (or to try again one that failed):
            # one started beside the old, as the options closed, spoke over it and
            # out of order.
            if self.settings.speech_command != speech_before or self.speaker.problem:
                self.speaker = self.speaker.replaced(self.settings.speech_command)
            if result.action == "start":
                self.start_game(self.settings)
            elif self.table is not None:
                if changed:
                    self.table.session.auto_play_one = result.settings.auto_play_one
                self.table.refresh_table()

        in_game = in_game and self.table is not None
        unfinished = self.table is not None and not self.table.session.game.is_over
        screen = OptionsScreen(shown, in_game=in_game, abandons_game=in_game and unfinished)
        self.push_screen(screen, done)

    def _new_seed(self) -> int | str:
        seed, self.first_seed = self.first_seed, None
        return game_seed(seed)

    def _options_rules(self) -> Rules | None:
        try:
            return self.settings.make_rules()
        except Exception:  # said when a game is started from them
            return None

    def start_again(self) -> None:
        """Another game by the rules of the one at the table ("Play again", N), as the web
        page's: after a resumed game of other rules, the options' rules were a surprise.
        The options' rules, though, once changed since the game began ("changes apply to
        the next game", the options screen says) or typed with ``--resume`` (said to
        apply to new games only)."""
        table = self.table
        if (
            table is None
            or self.next_game_by_options
            or self._options_rules() != self.options_rules_at_start
        ):
            self.start_game(self.settings)
        else:
            self.start_game(self.settings, table.session.game.rules)

    def start_game(self, settings: Settings, rules: Rules | None = None) -> None:
        if rules is None:
            try:
                rules = settings.make_rules()
            except Exception as error:  # bad saved rules fall back to standard
                self.notify(f"Rules problem: {error}; using the standard rules", severity="error")
                rules = Rules.preset("standard")
        names = table_names(rules.players, settings.name, settings.opponents, rules.direction)
        session = Session.new(
            rules,
            self._new_seed(),
            names,
            level=settings.level,
            auto_play_one=settings.auto_play_one,
        )
        kept = self.storage.clear_game(self.table.session.game if self.table else None)
        if kept:
            self.notify(kept, title="Kept aside", timeout=12)
            self.announce(kept)
        self._show_table(session)
        what = words.status(session.view())
        self.announce(
            f"New game: {len(names)} players, {', '.join(session.game.names[1:])} against you. "
            f"The game ends at {rules.end_score}. {what} Press ? for the keys."
        )

    def resume_game(self, game: Game, info: SessionInfo | None) -> None:
        # A saved game keeps its own auto play one, unless --no-auto-play-one was
        # given; a record made elsewhere takes this player's.
        session = Session.resume(
            game,
            info,
            name=self.settings.name,
            level=self.settings.level,
            auto_play_one=self.settings.auto_play_one,
            name_typed=self.asked.name,
            no_auto_play_one=self.asked.no_auto_play_one,
        )
        self._show_table(session)
        # Rules typed with --resume were said to be for new games: they are Play again's.
        self.next_game_by_options = self.asked.rules
        notice = kept_from_save(self.asked, session.seats.level)
        self.asked = AskedFor()  # said once: the next resume in this run asks for nothing
        if notice:
            self.notify(notice, title="Resumed", timeout=10)
        resumed = f"Game resumed: deal {game.deal_number + 1}."
        self.announce(" ".join(filter(None, (resumed, notice, words.status(session.view())))))

    def _show_table(self, session: Session) -> None:
        self.options_rules_at_start = self._options_rules()
        self.next_game_by_options = False
        if session.seats.problem:
            problem = as_sentence(session.seats.problem)
            self.notify(problem, severity="warning", timeout=8)
            self.announce(problem)
        if not session.game.is_over:
            self.storage.save_game(session)
            moved = self.storage.save_moved
            if moved is not None:
                self.storage.save_moved = None
                self.notify(moved, severity="warning", timeout=12)
                self.announce(moved)
        table = TableScreen(session)
        old = self.table
        self.table = table
        if old is not None:
            old.stop_driving()
            # A cmd: program (or hard's worker processes) of the game left ran on until
            # the terminal game ended, three more at every new game.
            old.session.close()
        # Whatever is on the stack (options, dialogs, an old table) gives way to the table.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(table)

    def farewell(self) -> str | None:
        """What to print once the app has closed: where an unfinished game is saved, or
        where a finished one's record is (as the plain game says).  A game whose last
        save failed is saved elsewhere first (it was lost, without a word)."""
        table = self.table
        if table is None:
            return None
        lines: list[str] = []
        if self.storage.game_not_saved is not None:
            saved, problems = self.storage.save_on_the_way_out(table.session)
            lines += problems
            if saved is None:
                lines.append("The game could not be saved anywhere.")
                return "\n".join(lines)
        if not self.storage.save_path.exists():
            return "\n".join(lines) or None
        path = shlex.quote(str(self.storage.save_path))
        if table.session.game.is_over:
            said = f"The game's record is in {path}; see it again with: hearts replay {path}"
        else:
            said = f"The game is saved in {path}; resume it with: hearts play --resume {path}"
        lines.append(said)
        return "\n".join(lines)

    def on_unmount(self) -> None:
        self.speaker.close()
        if self.table is not None:
            self.table.session.close()
