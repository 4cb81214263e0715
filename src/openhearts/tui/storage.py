"""Where the terminal game keeps things between runs: settings, statistics, the game in progress.

Settings live in the user's config directory and everything else in the data directory
(``platformdirs``).  ``OPENHEARTS_HOME`` puts both in one directory of your choice; the
tests use it to work in a temporary directory.

Every read is forgiving: a missing or damaged file gives the defaults (and the damaged
file is kept aside as ``*.bad`` so nothing is silently lost), never a traceback.

>>> import tempfile
>>> store = Storage(tempfile.mkdtemp())
>>> store.load_settings().auto_play_one
True
>>> store.load_stats().games_played
0
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .. import paths
from ..bots import LEVELS
from ..game import Game
from ..record import RecordError
from ..rules import PRESETS, Rules, RulesError
from ..session import Session
from ..session.names import clean_name, opponent_names
from ..session.saving import (
    SessionInfo,
    dumps_session,
    free_file,
    keep_aside,
    load_session,
    only_this_game_on,
    resumed_save_file,
    save_somewhere,
    text_record_kept,
    write_atomic,
)
from ..session.statistics import Stats, load_stats, record_game
from ..session.words import as_sentence

__all__ = ["Settings", "Stats", "Storage", "SPEEDS", "LEVEL_NAMES", "HOME_VARIABLE"]

#: Environment variable naming one directory for settings, statistics and saved games.
HOME_VARIABLE: Final = paths.HOME_VARIABLE

#: Animation speed name -> seconds between two computer plays.
SPEEDS: Final[dict[str, float]] = {"off": 0.0, "fast": 0.25, "normal": 0.6, "slow": 1.1}

#: Computer levels offered on the options screen.
LEVEL_NAMES: Final = tuple(LEVELS)


@dataclass
class Settings:
    """The options screen's choices, saved between runs."""

    name: str = "You"
    preset: str = "standard"
    #: Every rules option as :meth:`Rules.to_dict` gives them; ``None``: the preset's.
    rules: dict[str, Any] | None = None
    level: str = "easy"
    speed: str = "normal"
    auto_play_one: bool = True
    #: Opponent names in seat order after yours; empty: the compass names.
    opponents: list[str] = field(default_factory=list)
    #: A command run with each announcement as its last argument (``espeak-ng``, ``say``).
    speech_command: str = ""

    def make_rules(self) -> Rules:
        """The rules these settings describe (raises :class:`RulesError`)."""
        if self.rules is None:
            return Rules.preset(self.preset)
        return Rules.from_dict(self.rules)

    @property
    def delay(self) -> float:
        return SPEEDS.get(self.speed, SPEEDS["normal"])

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Settings:
        """Read saved settings, keeping the default for anything missing or wrong."""
        settings = cls()
        if not isinstance(data, dict):
            return settings
        name = data.get("name")
        if isinstance(name, str) and name.strip():
            settings.name = clean_name(name, settings.name)
        preset = data.get("preset")
        if isinstance(preset, str) and preset in PRESETS:
            settings.preset = preset
        rules = data.get("rules")
        if isinstance(rules, dict):
            try:
                settings.rules = Rules.from_dict(rules).to_dict()
            except (RulesError, TypeError, ValueError):
                settings.rules = None
        level = data.get("level")
        if isinstance(level, str) and level:
            settings.level = level
        speed = data.get("speed")
        if speed in SPEEDS:
            settings.speed = str(speed)
        auto = data.get("auto_play_one")
        if isinstance(auto, bool):
            settings.auto_play_one = auto
        opponents = data.get("opponents")
        if isinstance(opponents, list) and all(isinstance(o, str) for o in opponents):
            settings.opponents = opponent_names(opponents)
        speech = data.get("speech_command")
        if isinstance(speech, str):
            settings.speech_command = speech.strip()
        return settings


class Storage:
    """The files of one user.

    :param home: one directory for everything; default ``$OPENHEARTS_HOME``, else the
        platform's config and data directories.
    :param save_path: where the game in progress is saved (``hearts play --save``).
    """

    def __init__(self, home: str | os.PathLike[str] | None = None, save_path: str | None = None):
        if home:
            self.config_dir = self.data_dir = Path(os.path.expanduser(home))
        else:
            self.config_dir = paths.config_dir()
            self.data_dir = paths.data_dir()
        self.settings_path = self.config_dir / "settings.json"
        self.stats_path = self.data_dir / "statistics.json"
        #: Where new games are saved; a resumed game is saved back to its own file.
        self.new_game_path = (
            Path(os.path.expanduser(save_path))
            if save_path
            else (self.data_dir / "saved-game.json")
        )
        self.save_path = self.new_game_path
        self.save_path_given = bool(save_path)
        #: The save file this program holds for its game (:meth:`hold`), and its lock.
        self.held_path: Path | None = None
        self._held_lock: contextlib.ExitStack | None = None
        self.announcements_path = self.data_dir / "announcements.txt"
        #: The last problem met reading or writing, for the interface to show.
        self.problem: str | None = None
        #: Why the game in progress could not be saved the last time it was, if so:
        #: on the way out it is saved elsewhere (:meth:`save_on_the_way_out`).
        self.game_not_saved: str | None = None
        #: Where the game went when its file could not be written, to be said once.
        self.save_moved: str | None = None

    # Plumbing -----------------------------------------------------------------------

    def _read_json(self, path: Path) -> object:
        try:
            text = paths.read_text(path)
        except FileNotFoundError:
            return None
        except OSError as error:
            self.problem = f"cannot read {path}: {error.strerror or error}"
            return None
        except UnicodeDecodeError as error:
            self.problem = f"cannot read {path}: {error}"
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as error:  # not JSON, too long, too deep
            self._set_aside(path, str(error) or type(error).__name__)
            return None

    def _set_aside(self, path: Path, reason: str) -> None:
        if not path.is_file():
            # A folder, a device or a pipe is never moved (as root, /dev/null was moved
            # away for a file in its place): the write that follows is refused and said.
            self.problem = f"{path} is not a file this game can use"
            return
        kept = paths.set_aside_name(path)
        # Why, as the plain game says it: a game lost to a damaged file is no mystery.
        self.problem = f"{path} could not be read ({reason}); it was kept as {Path(kept).name}"
        with contextlib.suppress(OSError):
            os.replace(path, kept)

    def _write(self, path: Path, text: str) -> bool:
        try:
            write_atomic(path, text)
        except OSError as error:
            self.problem = f"cannot write {path}: {error}"
            return False
        return True

    # Settings and statistics ---------------------------------------------------------

    def load_settings(self) -> Settings:
        return Settings.from_dict(self._read_json(self.settings_path))

    def save_settings(self, settings: Settings) -> bool:
        return self._write(self.settings_path, json.dumps(settings.to_dict(), indent=2) + "\n")

    def load_stats(self) -> Stats:
        """The statistics every face shares; a damaged file is set aside, and
        :attr:`problem` says so."""
        stats = load_stats(self.stats_path)
        if stats.note:
            self.problem = as_sentence(stats.note)
        return stats

    def record_game(self, game: Game, seat: int) -> Stats:
        """Add a finished game to the statistics (the file every face shares, counted as
        the plain game counts it: :func:`openhearts.session.statistics.record_game`).
        When they cannot be kept, :attr:`problem` says so and the file is untouched."""
        try:
            stats = record_game(game, seat, self.stats_path)
        except OSError as error:
            stats = self.load_stats()
            stats.add_game(game, seat)
            self.problem = f"The statistics could not be kept: {error.strerror or error}."
            return stats
        if stats.note:
            self.problem = as_sentence(stats.note)
        return stats

    # The game in progress ----------------------------------------------------------

    def save_game(self, session: Session) -> bool:
        """Save the game in progress (atomically): the record with the session's data
        in it, one file that ``hearts replay`` and the plain game read too."""
        try:
            write_atomic(self.save_path, dumps_session(session.game, session.info()))
        except OSError as error:
            failed, reason = self.save_path, error.strerror or error
            # At once, as the plain game does: kept in memory until the end, the game
            # was lost to a crash or a hang-up that never came.
            saved, problems = self.save_on_the_way_out(session)
            if saved is not None:
                if not _same_path(Path(saved), failed):
                    # problems[0] is the save file failing once more.
                    self.save_moved = " ".join(
                        [
                            f"The game could not be saved to {failed}: {reason}.",
                            *problems[1:],
                            f"It is saved in {saved} from now on.",
                        ]
                    )
                return True
            self.game_not_saved = (
                f"The game could not be saved to {failed}: {reason}. "
                "When you quit it is saved elsewhere, and you are told where."
            )
            return False
        self.game_not_saved = None
        return True

    def save_on_the_way_out(self, session: Session) -> tuple[str | None, list[str]]:
        """Save where it can be (:func:`~openhearts.session.saving.save_somewhere`): the
        game's file, else the default one, else one in the temporary directory."""
        default = str(self.data_dir / "saved-game.json")
        saved, problems = save_somewhere(
            session.game, session.info(), str(self.save_path), default, claim=self._claim
        )
        if saved is not None:
            self.save_path = Path(saved)
            self.game_not_saved = None
        return saved, problems

    def load_game(
        self, path: str | os.PathLike[str] | None = None
    ) -> tuple[Game, SessionInfo | None]:
        """The saved game and its session data; raises :class:`RecordError` with the reason."""
        return load_session(Path(os.path.expanduser(path)) if path else self.save_path)

    def has_unfinished_game(self) -> bool:
        """Whether a saved game can be resumed (a damaged one is set aside)."""
        if not self.save_path.exists():
            return False
        try:
            game, _ = self.load_game()
        except RecordError as error:
            self._set_aside(self.save_path, str(error))
            return False
        return not game.is_over

    def resumed_from(self, path: str | os.PathLike[str]) -> str | None:
        """A game resumed from ``path`` is saved back there (beside it, when it is a text
        record), unless a save file was given: an unfinished game in the file saved to
        is kept aside first (said in the sentence returned)."""
        source = Path(os.path.expanduser(path))
        if self.save_path_given and not _same_path(self.save_path, source):
            return self._keep_aside(None)
        target, moved = resumed_save_file(os.fspath(path))
        self.save_path = Path(os.path.expanduser(target))
        if moved is None:
            return None
        if self.held_path is not None and not _same_path(self.held_path, self.save_path):
            # The text record was held (--save FILE.pbn, resumed when offered): the file
            # beside it is the game's now.
            self.save_path = self._free_file(self.save_path)
            moved = text_record_kept(path, self.save_path)
        kept = self._keep_aside(None)
        return " ".join(filter(None, (moved, kept)))

    def hold(self, path: str | os.PathLike[str]) -> None:
        """Hold the save file ``path`` for this program's game, letting go of the one
        held before (see :func:`~openhearts.session.saving.only_this_game_on`).

        :raises SaveFileInUse: when another program has a game open on it.
        """
        lock = contextlib.ExitStack()
        lock.enter_context(only_this_game_on(path))
        self.release()
        self.held_path, self._held_lock = Path(os.path.expanduser(path)), lock

    def release(self) -> None:
        """Let go of the save file held, if any."""
        if self._held_lock is not None:
            self._held_lock.close()
        self.held_path, self._held_lock = None, None

    def clear_game(self, abandoning: Game | None = None) -> str | None:
        """Make room for a new game in :attr:`new_game_path` (the file of a resumed game
        stays as it is): an unfinished game there, other than the one ``abandoning``
        gives up, is kept aside, as the plain game does; the sentence says where.  While
        a save file is held and another window's game has that one open, the new game
        goes to ``NAME-2.json`` (or the next free number) instead: that game was moved
        aside while it was being played, and the two wrote over each other."""
        target = self.new_game_path
        moved = None
        if self.held_path is not None and not _same_path(self.held_path, target):
            target = self._free_file(target)
            if target != self.new_game_path:
                moved = (
                    f"Another game is open on {self.new_game_path} (in another window or "
                    f"terminal): this game is saved in {target}."
                )
        self.save_path = target
        kept = self._keep_aside(abandoning)
        return " ".join(filter(None, (moved, kept))) or None

    def _free_file(self, wanted: Path) -> Path:
        """``wanted``, held, or the first of ``NAME-2.json``, ``NAME-3.json``... that no
        other program holds (:func:`~openhearts.session.saving.free_file`); the file
        held before when none is free."""
        free = free_file(str(wanted), self.hold)
        return Path(free) if free is not None else (self.held_path or wanted)

    def _claim(self, wanted: str) -> str | None:
        """The file to save in instead of ``wanted``, held for this game (see
        :func:`~openhearts.session.saving.save_somewhere`), or None when none is free."""
        if self.held_path is None or _same_path(self.held_path, Path(wanted)):
            return wanted
        free = free_file(wanted, self.hold)
        return None if free is None else free

    def _keep_aside(self, abandoning: Game | None) -> str | None:
        try:
            return keep_aside(self.save_path, unless=abandoning)
        except OSError as error:
            self.problem = f"nothing can be saved to {self.save_path}: {error.strerror or error}"
            return None

    def announce(self, sentence: str) -> None:
        """Append an announcement to the announcements file (for ``tail -f``)."""
        try:
            self.announcements_path.parent.mkdir(parents=True, exist_ok=True)
            with self.announcements_path.open("a", encoding="utf-8") as stream:
                stream.write(sentence + "\n")
        except OSError as error:
            self.problem = f"cannot write {self.announcements_path}: {error}"


def _same_path(one: Path, other: Path) -> bool:
    return os.path.abspath(one) == os.path.abspath(other)
