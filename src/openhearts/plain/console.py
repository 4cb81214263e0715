"""The plain game's terminal: whole lines out, one line in, and the signals that stop it.

Ctrl-C, a closed terminal (SIGHUP) and ``kill`` (SIGTERM) must not cut an action in
half or lose the game: while a line is awaited they stop at once, otherwise they are
noted and acted on between actions.  Either way the game is then saved.
"""

from __future__ import annotations

import contextlib
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TextIO

from ..sentences import Style
from ..session.outcome import Ending

__all__ = ["Console", "Stop"]

#: A byte the input's encoding could not read, as ``surrogateescape`` keeps it.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")

_SIGNALS = {
    signal.SIGINT: Ending.INTERRUPTED,
    signal.SIGTERM: Ending.TERMINATED,
    **({signal.SIGHUP: Ending.HANGUP} if hasattr(signal, "SIGHUP") else {}),
}


class Stop(Exception):
    """The session stops: the player quit, the input ended, or a signal came."""

    def __init__(self, ending: Ending) -> None:
        super().__init__(ending.value)
        self.ending = ending


class Console:
    """Lines of text out (``say``) and in (``ask``).

    :param out: where the text goes.
    :param style: how cards are written.
    """

    def __init__(self, out: TextIO, style: Style) -> None:
        self.out = out
        self.style = style
        #: The signal's ending, once one came.
        self.pending: Ending | None = None
        self._reading = False
        # Not a terminal: prompts and answers are printed so the output reads as a transcript.
        self._echo = not _isatty(sys.stdin)
        # A line the input's encoding cannot read raised UnicodeDecodeError, and the
        # lines read with it in the same chunk were lost: its bytes are kept as escapes
        # instead, and the line alone is asked again.
        with contextlib.suppress(AttributeError, ValueError, OSError):
            sys.stdin.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]

    def say(self, text: str = "") -> None:
        self._write(self.style.for_stream(text, self.out) + "\n")

    def _write(self, text: str) -> None:
        # The terminal may be gone (SIGHUP) or the reader of a pipe (``| head``): the game
        # goes on to its end or its save all the same.
        with contextlib.suppress(OSError, ValueError):
            self.out.write(text)
            self.out.flush()

    def ask(self, prompt: str) -> str:
        """One line of input; raises :class:`Stop` when the input ends or a signal came."""
        while True:
            self.check()
            shown = self.style.for_stream(prompt, self.out)
            self._reading = True
            try:
                if self._echo:
                    self._write(shown)
                    answer = input()
                    self._write(self.style.for_stream(answer, self.out) + "\n")
                else:
                    answer = input(shown)
            except EOFError:
                raise Stop(Ending.END_OF_INPUT) from None
            except KeyboardInterrupt:
                raise Stop(self.pending or Ending.INTERRUPTED) from None
            except UnicodeDecodeError as error:
                self._cannot_read(error.encoding)
                continue
            finally:
                self._reading = False
            self.check()
            if _ESCAPED_BYTE.search(answer):
                self._cannot_read(getattr(sys.stdin, "encoding", None) or "text")
                continue
            return answer.strip()

    def _cannot_read(self, encoding: str) -> None:
        self._write(
            f"\nThat line cannot be read as {encoding}: type it again in plain letters (QS, 10H).\n"
        )

    def check(self) -> None:
        """Stop here if a signal came while something else was going on."""
        if self.pending is not None:
            raise Stop(self.pending)

    @contextmanager
    def signals(self) -> Iterator[None]:
        """Catch Ctrl-C, SIGHUP and SIGTERM for the duration (main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous: dict[signal.Signals, Any] = {}

        def handler(signum: int, frame: FrameType | None) -> None:
            self.pending = _SIGNALS[signal.Signals(signum)]
            if self._reading:
                raise Stop(self.pending)

        for number in _SIGNALS:
            try:
                previous[number] = signal.signal(number, handler)
            except (ValueError, OSError):
                continue
        try:
            yield
        finally:
            for number, old in previous.items():
                signal.signal(number, old)


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:
        return False
