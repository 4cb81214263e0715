"""Speaking announcements with a command of the user's choice (``espeak-ng``, ``say``, ``spd-say``).

The command runs once per announcement, one after another in a background thread, so
the game never waits for speech.  A command that cannot run is switched off and the
reason kept in :attr:`Speaker.problem`.
"""

from __future__ import annotations

import shlex
import subprocess
import threading
from collections import deque

__all__ = ["Speaker", "command_problem"]


def command_problem(command: str) -> str | None:
    """Why a speech command cannot be read as words (an unclosed quote), or None.

    >>> command_problem('espeak-ng -v "en'), command_problem("espeak-ng -v en")
    ('the speech command cannot be read: no closing quotation', None)
    """
    try:
        shlex.split(command)
    except ValueError as error:
        return f"the speech command cannot be read: {str(error).lower()}"
    return None


class Speaker:
    """Runs ``command SENTENCE`` for each sentence, in order, off the main thread."""

    def __init__(self, command: str) -> None:
        # A command saved by hand (settings.json) may not be readable: speech is then
        # off, saying why, rather than the game failing to start.
        self.problem: str | None = command_problem(command)
        self.words = shlex.split(command) if command.strip() and not self.problem else []
        self._pending: deque[str] = deque()
        #: Guards the sentences waiting and the flags below; told when either changes.
        self._changed = threading.Condition()
        self._closing = False
        self._speaking = False
        self._thread: threading.Thread | None = None
        #: The thread of the speaker this one took over from: the sentence it is saying
        #: is heard to its end before this one starts, so two voices never overlap.
        self._before: threading.Thread | None = None

    @property
    def active(self) -> bool:
        return bool(self.words) and self.problem is None

    @property
    def idle(self) -> bool:
        """Whether nothing is being said and nothing waits to be."""
        with self._changed:
            return not self._speaking and not self._pending

    def say(self, sentence: str) -> None:
        if not self.active:
            return
        with self._changed:
            if self._closing:
                return
            self._pending.append(sentence)
            self._changed.notify()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
                self._thread.start()

    def say_if_idle(self, sentence: str) -> None:
        """Speak only if nothing is being said or waiting (for the card under the cursor:
        moving fast must not queue up a long list)."""
        if self.idle:
            self.say(sentence)

    def _next(self) -> str | None:
        """The next sentence to say, waited for; None once closed with nothing left."""
        with self._changed:
            while not self._pending and not self._closing:
                self._changed.wait()
            if not self._pending:
                return None
            self._speaking = True
            return self._pending.popleft()

    def _run(self) -> None:
        if self._before is not None:
            self._before.join()
        while (sentence := self._next()) is not None:
            try:
                done = subprocess.run(
                    [*self.words, sentence],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    timeout=30,
                    check=False,
                )
            except (OSError, subprocess.SubprocessError) as error:
                self.problem = f"the speech command {self.words[0]!r} failed: {error}"
                return
            finally:
                with self._changed:
                    self._speaking = False
            if done.returncode != 0:
                # It runs but cannot speak (no sound device, a wrong option): every
                # sentence would fail alike, so it is switched off, saying why.
                said = done.stderr.decode("utf-8", "replace").strip().splitlines()
                reason = f": {said[-1][:80]}" if said else ""
                self.problem = (
                    f"the speech command {self.words[0]!r} failed "
                    f"(exit code {done.returncode}){reason}"
                )
                return

    def replaced(self, command: str) -> Speaker:
        """A speaker for ``command`` that takes over from this one: this one finishes
        the sentence it is saying and says no more; the new one then says what was
        still waiting, in order (nothing, when the new command is empty: speech was
        switched off).  One voice at a time, as a blind player follows it."""
        successor = Speaker(command)
        with self._changed:
            unsaid = list(self._pending)
            self._pending.clear()
            self._closing = True
            self._changed.notify()
            successor._before = self._thread
        for sentence in unsaid:
            successor.say(sentence)
        return successor

    def close(self, wait: float = 0.0) -> None:
        """Stop after what is queued; ``wait`` seconds at most for it to be said."""
        with self._changed:
            self._closing = True
            self._changed.notify()
            thread = self._thread
        if thread is not None and wait:
            thread.join(wait)
