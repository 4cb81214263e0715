"""Where the plain game saves, and what it does when it cannot.

A ``save FILE`` that fails leaves the save file as it was; saving on the way out
tries the save file, then the default one, then a file in the temporary directory,
so that stopping never loses the game while any of them can be written.
"""

from __future__ import annotations

import contextlib
import os

from ..paths import data_dir
from ..session import Session
from ..session.saving import (
    SaveFileInUse,
    free_file,
    only_this_game_on,
    save_session,
    save_somewhere,
)
from ..session.saving import keep_aside as keep_aside_as

__all__ = ["SaveSlot", "default_save_path", "keep_aside"]


def default_save_path() -> str:
    """Where a game is saved when no ``--save`` file is given."""
    return str(data_dir() / "saved-game.json")


def keep_aside(path: str) -> str | None:
    """:func:`openhearts.session.saving.keep_aside`, saying how the plain game resumes."""
    return keep_aside_as(path, "hearts play --plain")


class SaveSlot:
    """The save file of one plain game."""

    def __init__(self, path: str | None) -> None:
        self.path = os.path.expanduser(path) if path else default_save_path()
        # The files a ``save FILE`` moved the game to, held as the first one is.
        self._held = contextlib.ExitStack()
        #: Every file this game has been saved in (absolute paths), all held: saving to
        #: one again is saving to its own file, not to one another game has open.
        self.own_files = {os.path.abspath(self.path)}

    def close(self) -> None:
        """Let go of the files ``save FILE`` took."""
        self._held.close()

    def save_to(self, session: Session, path: str) -> str | None:
        """Save to ``path``; None when done, else the reason in words."""
        try:
            save_session(path, session.game, session.info())
        except OSError as error:
            return error.strerror or str(error)
        return None

    def save(self, session: Session, path: str = "") -> tuple[str | None, str | None]:
        """``save [FILE]``: (where it was saved or None, what to say first or None: the
        problem, or where another unfinished game in FILE was kept).  A new file becomes
        the save file only once a save to it worked."""
        target = os.path.expanduser(path) if path else self.path
        kept = None
        before = self.path
        if os.path.abspath(target) not in self.own_files:
            try:
                # Another game open on FILE would write over this one, and this one
                # over it (only --save and --resume were checked).
                self._held.enter_context(only_this_game_on(target))
                self.own_files.add(os.path.abspath(target))
            except SaveFileInUse:
                return None, (
                    f"Nothing was saved to {target}: another game is open on it "
                    "(in another window or terminal)."
                )
            try:
                kept = keep_aside(target)
            except OSError as error:
                reason = error.strerror or str(error)
                return None, f"Nothing was saved to {target}: {reason}."
        problem = self.save_to(session, target)
        if problem is None:
            self.path = target
            if os.path.abspath(target) != os.path.abspath(before) and os.path.isfile(before):
                # Offered later as a game to resume, it replayed what goes on here.
                older = f"{before} keeps this game as it was before."
                # On a line of its own: "kept" may end with a command to copy.
                kept = f"{kept}\n{older}" if kept else older
            return target, kept
        return None, f"Could not save the game to {target}: {problem}."

    def save_somewhere(self, session: Session) -> tuple[str | None, list[str]]:
        """Save on the way out (:func:`openhearts.session.saving.save_somewhere`): the
        save file, else the default one, else a file in the temporary directory."""
        saved, problems = save_somewhere(
            session.game,
            session.info(),
            self.path,
            default_save_path(),
            "hearts play --plain",
            claim=self._claim,
        )
        if saved is not None:
            self.path = saved
        return saved, problems

    def _claim(self, wanted: str) -> str | None:
        """``wanted``, or a free file beside it, held for this game; None when other
        programs hold them all (:func:`openhearts.session.saving.free_file`)."""
        if os.path.abspath(wanted) in self.own_files:
            return wanted
        free = free_file(wanted, self._hold)
        if free is not None:
            self.own_files.add(os.path.abspath(free))
        return free

    def _hold(self, path: str) -> None:
        if os.path.abspath(path) not in self.own_files:
            self._held.enter_context(only_this_game_on(path))
