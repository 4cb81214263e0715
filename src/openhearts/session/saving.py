"""Save and resume: one file, the game's JSON record with the session's own data in it.

The record (:mod:`openhearts.record`) holds the whole game; the ``session`` key adds
what a record lacks (which seats are people, the computer players' level, auto play
one).  ``hearts replay`` and every face read the same file; there is no second file.

>>> from openhearts import Game
>>> game = Game(seed=5)
>>> text = dumps_session(game, SessionInfo(humans=(0,), level="hard"))
>>> again, info = loads_session(text)
>>> again.seed, info
(5, SessionInfo(humans=(0,), level='hard', auto_play_one=True))
"""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import os
import shlex
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..game import Game
from ..paths import check_writable_target, lock_beside, read_text, set_aside_name
from ..record import RecordError, dumps, loads
from .words import join_words

__all__ = [
    "SESSION_KEY",
    "SessionInfo",
    "dumps_session",
    "loads_session",
    "save_session",
    "load_session",
    "write_atomic",
    "make_folder",
    "keep_aside",
    "save_somewhere",
    "free_file",
    "same_file",
    "SaveFileInUse",
    "only_this_game_on",
    "AskedFor",
    "kept_from_save",
    "resumed_save_file",
    "text_record_kept",
]

#: The record's key for the session's data.
SESSION_KEY: Final = "session"


@dataclass(frozen=True)
class SessionInfo:
    """What a record lacks to resume a session."""

    humans: tuple[int, ...] = (0,)
    level: str = "easy"
    auto_play_one: bool = True
    #: What of the saved data was not taken, to be said on resuming (never saved).
    note: str = field(default="", compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "humans": list(self.humans),
            "level": self.level,
            "auto_play_one": self.auto_play_one,
        }

    @classmethod
    def from_dict(cls, data: object, players: int) -> SessionInfo | None:
        """The saved data, or None when it is missing or makes no sense for the game."""
        if not isinstance(data, dict):
            return None
        humans = data.get("humans")
        if (
            not isinstance(humans, list)
            or not humans
            or not all(type(s) is int and 0 <= s < players for s in humans)
        ):
            return None
        level = data.get("level")
        auto = data.get("auto_play_one")
        from ..bots import LEVELS

        # Only a level by name (with its options): a file shared or downloaded must not
        # run a program (cmd:...) or import a module (package.module:Class) on resuming.
        named = level if isinstance(level, str) and level.split(":", 1)[0] in LEVELS else None
        note = ""
        if named is None and level is not None:
            shown = repr(level) if len(repr(level)) <= 40 else repr(level)[:39] + "…"
            note = (
                f"the file's computer players, {shown}, are no level by name (a saved "
                f"game never runs a program); playing against {cls.level} ones"
            )
        return cls(
            tuple(dict.fromkeys(humans)),
            named or cls.level,
            auto if isinstance(auto, bool) else cls.auto_play_one,
            note,
        )


def dumps_session(game: Game, info: SessionInfo) -> str:
    return dumps(game, extra={SESSION_KEY: info.to_dict()})


def loads_session(text: str) -> tuple[Game, SessionInfo | None]:
    """The game, and the session data when the file has them (a plain record has
    none); raises :class:`~openhearts.record.RecordError` with the line and reason.  A
    PBN-style text record is read too (it holds no session data)."""
    from .. import pbn
    from ..record import is_text_record

    if is_text_record(text):
        return pbn.loads(text), None
    game = loads(text)
    # loads() reads past a byte-order mark; json.loads() refused it (a traceback).
    data = json.loads(text.removeprefix("\ufeff"))
    return game, SessionInfo.from_dict(data.get(SESSION_KEY), game.rules.players)


def make_folder(folder: Path) -> None:
    """``folder`` and its parents; a file in the way is "Not a directory" (``mkdir``
    says "File exists", which reads as if the file to write were the trouble)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)) from None


#: A temporary file of an earlier write older than this was left by a program killed
#: mid-write (a write takes milliseconds): it is removed.
STALE_SECONDS: Final = 600


def write_atomic(path: Path, text: str, *, shared: bool = False) -> None:
    """Write the whole file or nothing (a crash mid-write keeps the old one, and the
    temporary file it leaves is removed by a later write).  A directory, a device or a
    pipe at ``path`` is refused, not replaced.

    The file is the user's alone (a saved game), or with ``shared`` readable as the
    user's umask lets any file they make be (an exported record), and its folder must
    then be there already."""
    check_writable_target(path)
    if shared:
        if not path.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, f"no folder {path.parent}")
    else:
        make_folder(path.parent)
    now = time.time()
    for left in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - left.stat().st_mtime > STALE_SECONDS:
                left.unlink()
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if shared:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    # Read by setting it: there is no other way; set back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_session(path: str | os.PathLike[str], game: Game, info: SessionInfo) -> None:
    """Save atomically; raises OSError (the caller says it in words)."""
    write_atomic(Path(os.path.expanduser(path)), dumps_session(game, info))


def load_session(path: str | os.PathLike[str]) -> tuple[Game, SessionInfo | None]:
    """Read a saved game; every failure is a :class:`RecordError` saying why."""
    source = Path(os.path.expanduser(path))
    try:
        text = read_text(source)
    except FileNotFoundError:
        raise RecordError(f"no saved game at {source}") from None
    except IsADirectoryError:
        raise RecordError(f"{source} is a directory, not a saved game") from None
    except OSError as error:
        raise RecordError(f"cannot read {source}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{source} is not UTF-8 text, not a saved game") from None
    return loads_session(text)


def resumed_save_file(resumed: str) -> tuple[str, str | None]:
    """Where a game resumed from the file ``resumed`` is saved, and the sentence saying
    so when it is not there: back in its own file, unless that holds a PBN-style text
    record, which a save (JSON, with the session's data) would replace in another
    format; then beside it, ``NAME.json`` (``NAME-resumed.json`` if that is its name).
    """
    try:
        text = read_text(Path(os.path.expanduser(resumed)))
    except (OSError, UnicodeDecodeError):
        return resumed, None  # resuming it says why
    from ..record import is_text_record

    if not is_text_record(text):
        return resumed, None
    stem, suffix = os.path.splitext(resumed)
    target = f"{stem}-resumed.json" if suffix.lower() == ".json" else f"{stem}.json"
    return target, text_record_kept(resumed, target)


def text_record_kept(record: object, target: object) -> str:
    """The sentence saying a resumed text record stays as it is, the game in ``target``."""
    return f"{record} is a text record and stays as it is: this game is saved in {target}."


@dataclass(frozen=True)
class AskedFor:
    """What the command line asked for besides the file to resume: the rules options,
    the computer players' level (None when not typed), the seed, a name, the computer
    players' names, and ``--no-auto-play-one``, which a resumed game honours."""

    rules: bool = False
    level: str | None = None
    seed: bool = False
    name: bool = False
    opponents: bool = False
    no_auto_play_one: bool = False


def kept_from_save(asked: AskedFor, level: str) -> str | None:
    """The sentence saying what a resumed game (whose computer players play at
    ``level``) keeps from its save instead of what was asked for; None when nothing.

    >>> print(kept_from_save(AskedFor(level="hard", seed=True), "easy"))  # doctest: +ELLIPSIS
    A resumed game keeps its computer players (easy) and its shuffles: --level and --seed ...
    >>> kept_from_save(AskedFor(level="hard"), "hard") is None
    True
    >>> kept_from_save(AskedFor(rules=True), "hard")
    'A resumed game keeps its rules: the rules options apply to new games only.'
    >>> kept_from_save(AskedFor(opponents=True), "hard")
    "A resumed game keeps its computer players' names: --opponents applies to new games only."
    """
    kept: list[str] = []
    options: list[str] = []
    if asked.rules:
        kept.append("its rules")
        options.append("the rules options")
    if asked.level is not None and asked.level != level:
        kept.append(f"its computer players ({level})")
        options.append("--level")
    if asked.seed:
        kept.append("its shuffles")
        options.append("--seed")
    if asked.opponents:
        kept.append("its computer players' names")
        options.append("--opponents")
    if not kept:
        return None
    verb = "apply" if len(options) > 1 or asked.rules else "applies"
    return (
        f"A resumed game keeps {join_words(kept)}: {join_words(options)} {verb} to new games only."
    )


def keep_aside(
    path: str | os.PathLike[str], command: str = "hearts play", unless: Game | None = None
) -> str | None:
    """Before another game is written to ``path``: an unfinished game there is moved to
    ``NAME-unfinished-N.json``, a finished one to ``NAME-finished-N.json`` and a damaged
    file to ``NAME.bad``, so that nothing is written over.  Says where, and how to
    resume with ``command`` (or replay), or None when there was nothing to keep.
    ``unless``: the unfinished game being given up for the new one, which is not kept
    when it is the one there.

    :raises OSError: when what is there cannot be moved; its ``strerror`` says what
        is there and why it stays.
    """
    path = os.fspath(path)
    try:
        game, _ = load_session(path)
    except RecordError as error:
        if not os.path.isfile(path):
            return None  # nothing there, or a device the write will refuse
        kept = set_aside_name(path)
        _move(path, kept, "it is not a saved game, and it")
        return f"{path} could not be read ({error}); it is kept as {kept}."
    if game.is_over:
        # The game's end said "see it again with hearts replay FILE": the next game
        # wrote over it without a word.
        kept = _free_name(path, "finished")
        _move(path, kept, "the finished game in it")
        return (
            f"The finished game in {path} is kept in {kept}: see it again with "
            f"hearts replay {shlex.quote(kept)}"
        )
    if unless is not None and game.seed == unless.seed and game.actions == unless.actions:
        return None
    kept = _free_name(path, "unfinished")
    _move(path, kept, "the unfinished game in it")
    return (
        f"An unfinished game was in {path}; it is kept in {kept}: resume it with "
        f"{command} --resume {shlex.quote(kept)}"
    )


def _free_name(path: str, kind: str) -> str:
    """``NAME-KIND-N.json`` beside ``path``, with the first number no file has."""
    stem, suffix = os.path.splitext(path)
    number = 1
    while os.path.exists(kept := f"{stem}-{kind}-{number}{suffix or '.json'}"):
        number += 1
    return kept


def same_file(one: str, other: str) -> bool:
    """Whether two file names name one file, however spelled (``./g.json`` and ``g.json``;
    ``~`` for the home folder)."""
    return os.path.abspath(os.path.expanduser(one)) == os.path.abspath(os.path.expanduser(other))


def save_somewhere(
    game: Game,
    info: SessionInfo,
    first: str,
    default: str,
    command: str = "hearts play",
    claim: Callable[[str], str | None] | None = None,
) -> tuple[str | None, list[str]]:
    """Save on the way out, so that stopping never loses a game while any file can be
    written: ``first`` (the game's own file), else ``default``, else a file in the
    temporary directory (another unfinished game in those is kept aside first, with
    ``command`` in the sentence saying how to resume it).  Returns where, or None, and
    the problems (and files kept aside) met on the way.

    ``claim``, given a file other than ``first``, holds it for this game and returns
    the file to save in (it, or a free one beside it: :func:`free_file`), or None when
    another program holds them all: a game another window was playing in the default
    file was moved aside while it went on, and the two wrote over each other.

    The same file named twice (a relative and an absolute path) is tried once, and never
    taken for another game to keep aside: that moved the game's own file out of the way.
    """
    problems: list[str] = []
    fallback = str(Path(tempfile.gettempdir()) / "openhearts-saved-game.json")
    tried: list[str] = []
    for wanted in (first, default, fallback):
        if any(same_file(wanted, done) for done in tried):
            continue
        tried.append(wanted)
        target = wanted
        if claim is not None and not same_file(wanted, first):
            free = claim(wanted)
            if free is None:
                problems.append(
                    f"Could not save the game to {wanted}: another game is open on it "
                    "(in another window or terminal)."
                )
                continue
            target = free
        if not same_file(target, first):
            try:
                kept = keep_aside(target, command)
            except OSError as error:
                problems.append(f"Could not save the game to {target}: {error.strerror}.")
                continue
            if kept is not None:
                problems.append(kept)
        try:
            save_session(target, game, info)
        except OSError as error:
            problems.append(f"Could not save the game to {target}: {error.strerror or error}.")
            continue
        return target, problems
    return None, problems


def free_file(wanted: str, hold: Callable[[str], object]) -> str | None:
    """``wanted``, or the first of ``NAME-2.json``, ``NAME-3.json``... that ``hold``
    takes for this game (it raises :class:`SaveFileInUse` for a file another program
    holds: :func:`only_this_game_on`); None when it took none."""
    stem, suffix = os.path.splitext(wanted)
    for candidate in [wanted] + [f"{stem}-{number}{suffix}" for number in range(2, 100)]:
        try:
            hold(candidate)
        except SaveFileInUse:
            continue
        return candidate
    return None


def _move(path: str, to: str, what: str) -> None:
    try:
        os.replace(path, to)
    except OSError as error:
        reason = f"{what} could not be moved to {to} ({error.strerror or error})"
        raise OSError(error.errno, reason, path) from None


class SaveFileInUse(Exception):
    """Another program has a game open on the same save file."""


@contextlib.contextmanager
def only_this_game_on(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the save file ``path`` for one game at a time while the block runs: two
    games on one file (two terminals on one home) each wrote over the other, and both
    said their game was saved there.  Where there are no POSIX locks (Windows), or no
    lock file can be made (the save will say why), as before.  The lock file,
    ``FILE.lock``, is removed when the block ends.

    :raises SaveFileInUse: saying what to do, when another program holds it.
    """
    source = Path(os.path.expanduser(path))
    with contextlib.ExitStack() as stack:
        try:
            # No lock file beside a device, a pipe or a folder (the save refuses them and
            # goes elsewhere): one was made as /dev/null.lock.
            check_writable_target(source)
            make_folder(source.parent)
            stack.enter_context(lock_beside(source, wait=False))
        except BlockingIOError:
            raise SaveFileInUse(
                f"another game is open on {source} (in another window or terminal): "
                "quit it first, or play this one with --save FILE"
            ) from None
        except OSError:
            pass
        yield
