"""The terminal game as a real process on a pseudo-terminal: what signals do to it."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")


def on_a_terminal(tmp_path: Path, term: str, *argv: str) -> tuple[subprocess.Popen[bytes], int]:
    """``hearts play ARGV`` on a new pseudo-terminal whose TERM is ``term``: the process
    and the terminal's controlling side, to read and type on."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "OPENHEARTS_HOME": str(tmp_path), "TERM": term}
    env.pop("TEXTUAL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "openhearts", "play", *argv],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    return process, controller


class Screen:
    """What the program wrote on its terminal so far."""

    def __init__(self, controller: int) -> None:
        self.controller = controller
        self.output = bytearray()

    def read_for(self, seconds: float, until: Callable[[], bool]) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not until():
            ready, _, _ = select.select([self.controller], [], [], 0.2)
            if ready:
                try:
                    self.output.extend(os.read(self.controller, 65536))
                except OSError:
                    return


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_kill_ends_the_terminal_game_as_quit_does(tmp_path: Path, signum: int) -> None:
    """SIGTERM left the terminal in the game's screen, echo off, with no word of the
    save; the app now ends as Ctrl+Q does."""
    process, controller = on_a_terminal(tmp_path, "xterm-256color", "--seed", "9")
    screen = Screen(controller)
    output = screen.output
    saved = tmp_path / "saved-game.json"
    try:
        screen.read_for(60, lambda: b"Start" in output)
        os.write(controller, b"\r")  # Enter on the options: start the game
        screen.read_for(60, saved.exists)
        assert saved.exists(), output.decode(errors="replace")[-2000:]
        process.send_signal(signum)
        screen.read_for(30, lambda: process.poll() is not None)
        screen.read_for(2, lambda: False)
        assert process.wait(timeout=30) == 128 + signum  # as a shell reports it
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    text = output.decode(errors="replace")
    assert "\x1b[?1049l" in text  # the terminal's own screen is back
    assert "Traceback" not in text
    assert "The game is saved in " in text.replace("\r\n", "").replace("\n", "")


def test_a_terminal_that_cannot_draw_gets_the_plain_game(tmp_path: Path) -> None:
    """TERM=dumb (an editor's shell) showed the full-screen app as escape sequences."""
    process, controller = on_a_terminal(tmp_path, "dumb", "--seed", "9", "--level", "random")
    screen = Screen(controller)
    try:
        screen.read_for(60, lambda: b"Pass three cards" in screen.output)
        os.write(controller, b"quit\n")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    assert b"Pass three cards" in screen.output
    assert b"\x1b[" not in screen.output  # no cursor movement, no alternate screen
