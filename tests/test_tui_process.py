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


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_kill_ends_the_terminal_game_as_quit_does(tmp_path: Path, signum: int) -> None:
    """SIGTERM left the terminal in the game's screen, echo off, with no word of the
    save; the app now ends as Ctrl+Q does."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "OPENHEARTS_HOME": str(tmp_path), "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "openhearts", "play", "--seed", "9"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    output = bytearray()

    def read_for(seconds: float, until: Callable[[], bool]) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not until():
            ready, _, _ = select.select([controller], [], [], 0.2)
            if ready:
                try:
                    output.extend(os.read(controller, 65536))
                except OSError:
                    return

    saved = tmp_path / "saved-game.json"
    try:
        read_for(60, lambda: b"Start" in output)
        os.write(controller, b"\r")  # Enter on the options: start the game
        read_for(60, saved.exists)
        assert saved.exists(), output.decode(errors="replace")[-2000:]
        process.send_signal(signum)
        read_for(30, lambda: process.poll() is not None)
        read_for(2, lambda: False)
        assert process.wait(timeout=30) == 128 + signum  # as a shell reports it
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    text = output.decode(errors="replace")
    assert "\x1b[?1049l" in text  # the terminal's own screen is back
    assert "Traceback" not in text
    assert "The game is saved in " in text.replace("\r\n", "").replace("\n", "")
