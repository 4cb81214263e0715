"""Where OpenHearts keeps a user's files: settings, statistics, saved games, the web database.

``OPENHEARTS_HOME`` puts everything in one directory of your choice (tests use it);
otherwise the platform's usual directories are used, found with the standard library
alone so that the engine installs with no dependency: ``$XDG_DATA_HOME`` and
``$XDG_CONFIG_HOME`` (``~/.local/share`` and ``~/.config``) on Linux and other Unixes,
``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

HOME_VARIABLE: Final = "OPENHEARTS_HOME"
#: The largest file read as a record, a saved game, settings or statistics: a long
#: game's record is a few hundred kilobytes, and a larger file is not one of ours.
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
APP: Final = "openhearts"


def _home() -> Path | None:
    home = os.environ.get(HOME_VARIABLE)
    return Path(os.path.expanduser(home)) if home else None


def _platform_dir(xdg_variable: str, xdg_default: str) -> Path:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / APP / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    # XDG says a relative path in the variable is invalid and must be ignored.
    base = os.environ.get(xdg_variable, "")
    if not os.path.isabs(base):
        base = str(Path.home() / xdg_default)
    return Path(base) / APP


def data_dir() -> Path:
    """Saved games, statistics and the web game's SQLite database."""
    return _home() or _platform_dir("XDG_DATA_HOME", ".local/share")


def config_dir() -> Path:
    """Settings of the terminal game."""
    return _home() or _platform_dir("XDG_CONFIG_HOME", ".config")


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at ``path``, with universal newlines.

    Only a regular file of at most ``limit`` bytes is read: a device or a pipe named
    as a saved game (``/dev/zero``, a FIFO) would otherwise be read without end, or
    wait for ever for a writer, and no signal stops one ``read`` call.

    :raises OSError: the file cannot be opened; ``IsADirectoryError``; or ``strerror``
        says it is not a regular file, or too large.
    :raises UnicodeDecodeError: it is not UTF-8 text.
    """
    # Non-blocking, or opening a FIFO waits for a writer before anything is checked.
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(handle, "rb") as stream:
        facts = os.fstat(handle)
        mode = facts.st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not stat.S_ISREG(mode):
            raise OSError(
                errno.EINVAL, "not a regular file (a device, a pipe or a socket)", os.fspath(path)
            )
        # A file of /proc says 0 bytes and may hold more: the read itself is bounded.
        data = b"" if facts.st_size > limit else stream.read(limit + 1)
    if facts.st_size > limit or len(data) > limit:
        raise OSError(
            errno.EFBIG,
            f"larger than any file OpenHearts writes ({limit // 2**20} MiB at most)",
            os.fspath(path),
        )
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def set_aside_name(path: str | os.PathLike[str]) -> str:
    """Where a damaged file at ``path`` is kept: ``PATH.bad``, else the first free
    ``PATH.bad-N`` (a second damaged file replaced the first one kept).

    >>> set_aside_name("/nonexistent/saved-game.json")
    '/nonexistent/saved-game.json.bad'
    """
    base = f"{os.fspath(path)}.bad"
    kept, number = base, 1
    while os.path.lexists(kept):
        number += 1
        kept = f"{base}-{number}"
    return kept


def check_writable_target(path: str | os.PathLike[str]) -> None:
    """Refuse to put a file where a directory, a device or a pipe is: replacing
    ``/dev/null`` with a saved game (as root) would break the machine.

    :raises OSError: with ``strerror`` saying what is there.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError:
        return  # the write itself says why it cannot be made
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if not stat.S_ISREG(mode):
        raise OSError(
            errno.EINVAL, "not a regular file (a device, a pipe or a socket)", os.fspath(path)
        )


@contextlib.contextmanager
def lock_beside(path: str | os.PathLike[str], *, wait: bool) -> Iterator[bool]:
    """Hold ``PATH.lock``, made for it, while the block runs, and remove it afterwards
    (one stayed beside every save and statistics file).  Yields False, holding
    nothing, where there are no POSIX locks (Windows).

    :raises BlockingIOError: when another program holds it and ``wait`` is false.
    :raises OSError: when the lock file cannot be made.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield False
        return
    source = Path(path)
    lock = source.with_name(source.name + ".lock")
    while True:
        handle = open(lock, "a")  # noqa: SIM115
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BaseException:
            handle.close()
            raise
        # The holder before removes the lock file as it leaves: a lock won on the file
        # it removed keeps nobody out, so the file now at the path is taken instead.
        try:
            held = os.path.samestat(os.fstat(handle.fileno()), os.stat(lock))
        except OSError:
            held = False
        if held:
            break
        handle.close()
    with handle:
        try:
            yield True
        finally:
            with contextlib.suppress(OSError):
                os.unlink(lock)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
