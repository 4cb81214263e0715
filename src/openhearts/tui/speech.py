"""Speaking announcements with a command of the user's choice (``espeak-ng``, ``say``, ``spd-say``).

The command runs once per announcement, one after another in a background thread, so
the game never waits for speech.  A command that cannot run is switched off and the
reason kept in :attr:`Speaker.problem`.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading

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
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._speaking = False

    @property
    def active(self) -> bool:
        return bool(self.words) and self.problem is None

    def say(self, sentence: str) -> None:
        if not self.active:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()
        self._queue.put(sentence)

    def say_if_idle(self, sentence: str) -> None:
        """Speak only if nothing is being said or waiting (for the card under the cursor:
        moving fast must not queue up a long list)."""
        if not self._speaking and self._queue.empty():
            self.say(sentence)

    def _run(self) -> None:
        while True:
            sentence = self._queue.get()
            if sentence is None:
                return
            self._speaking = True
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

    def close(self, wait: float = 0.0) -> None:
        """Stop after what is queued; ``wait`` seconds at most for it to be said."""
        if self._thread is not None:
            self._queue.put(None)
            if wait:
                self._thread.join(wait)
