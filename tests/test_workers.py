"""Long work in worker processes stops as people expect (:mod:`openhearts.workers`):
one Ctrl+C keeps what is under way and starts nothing new, a second one or SIGTERM
stops at once and leaves no worker behind, a dead worker is a clear error."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from openhearts.workers import WorkerDied, map_unordered

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from openhearts.workers import Stopped, map_unordered

    MARKS = Path(sys.argv[1])
    SECONDS = float(sys.argv[2])

    def work(item):
        (MARKS / f"{item}-{os.getpid()}").write_text("")
        time.sleep(SECONDS)
        return item

    if __name__ == "__main__":
        try:
            for item, result in map_unordered(work, range(20), 2):
                print("done", result, flush=True)
        except Stopped as stop:
            print("stopped", stop.exit_status, flush=True)
            sys.exit(stop.exit_status)
    """
)


def _start(tmp_path: Path, seconds: float) -> tuple[subprocess.Popen[str], Path]:
    script = tmp_path / "work.py"
    script.write_text(SCRIPT)
    marks = tmp_path / "marks"
    marks.mkdir()
    process = subprocess.Popen(
        [sys.executable, str(script), str(marks), str(seconds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while len(list(marks.iterdir())) < 2:  # both workers busy
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.02)
    return process, marks


def _started(marks: Path) -> list[int]:
    return sorted(int(mark.name.split("-")[0]) for mark in marks.iterdir())


def _gone(marks: Path) -> bool:
    """Whether every worker process has ended (a zombie has: nothing runs)."""
    for mark in marks.iterdir():
        status = Path(f"/proc/{mark.name.split('-')[1]}/status")
        try:
            text = status.read_text()
        except OSError:
            continue
        if "State:\tZ" not in text:
            return False
    return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads worker states from /proc")
def test_one_ctrl_c_keeps_the_work_under_way_and_starts_nothing_new(tmp_path: Path) -> None:
    process, marks = _start(tmp_path, seconds=1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    lines = out.splitlines()
    assert sorted(lines[:2]) == ["done 0", "done 1"] and lines[2:] == ["stopped 130"], out
    assert _started(marks) == [0, 1], "a piece was started after Ctrl+C"
    assert "Ctrl+C again to stop now" in err


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads worker states from /proc")
@pytest.mark.parametrize("signals", [("SIGINT", "SIGINT"), ("SIGTERM",)])
def test_a_second_ctrl_c_or_sigterm_stops_at_once_and_ends_the_workers(
    tmp_path: Path, signals: tuple[str, ...]
) -> None:
    """A second Ctrl+C hung for ever (the workers waited on a pipe), and SIGTERM left
    the workers running on their own."""
    process, marks = _start(tmp_path, seconds=60.0)
    began = time.monotonic()
    for name in signals:
        process.send_signal(getattr(signal, name))
        time.sleep(0.3)
    out, err = process.communicate(timeout=20)
    assert time.monotonic() - began < 15
    assert process.returncode == (143 if signals == ("SIGTERM",) else 130), err
    assert "done" not in out and "Traceback" not in err
    deadline = time.monotonic() + 10
    while not _gone(marks):
        assert time.monotonic() < deadline, "a worker process was left running"
        time.sleep(0.05)


def _dies_at_three(item: int) -> int:
    if item == 3:
        os._exit(1)
    return item


def test_a_worker_that_dies_is_a_clear_error() -> None:
    with pytest.raises(WorkerDied, match="killed, or out of memory"):
        for _ in map_unordered(_dies_at_three, range(6), 2):
            pass


def test_one_worker_works_here_and_yields_every_result_in_order() -> None:
    assert list(map_unordered(abs, [-3, 2, -1], 1)) == [(-3, 3), (2, 2), (-1, 1)]
    assert sorted(map_unordered(abs, range(-4, 0), 2)) == [(-4, 4), (-3, 3), (-2, 2), (-1, 1)]


def test_a_pool_found_broken_when_handing_on_work_is_the_same_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker dying just as another's result came in broke the pool under the next
    hand-over: BrokenProcessPool escaped as a traceback (seen once in CI)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    real = ProcessPoolExecutor.submit
    calls = {"n": 0}

    def breaks_at_the_third(self: ProcessPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise BrokenProcessPool("A child process terminated abruptly")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", breaks_at_the_third)
    with pytest.raises(WorkerDied, match="killed, or out of memory"):
        for _ in map_unordered(abs, range(6), 2):
            pass


def _one_fails_while_the_other_will_not_end(marks: Path, item: int) -> int:
    if item == 1:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        (marks / "ignoring").write_text("")
        time.sleep(20)
        (marks / "finished").write_text("")
        return item
    deadline = time.monotonic() + 20
    while not (marks / "ignoring").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    raise ValueError("the first piece went wrong")


def test_a_worker_that_does_not_end_on_sigterm_is_killed(tmp_path: Path) -> None:
    """A worker can miss SIGTERM (one forked a moment before still runs the main
    process's handler): the pool then waited for it for ever (seen once in CI)."""
    from functools import partial

    work = partial(_one_fails_while_the_other_will_not_end, tmp_path)
    with pytest.raises(ValueError, match="went wrong"):
        for _ in map_unordered(work, range(2), 2):
            pass
    assert (tmp_path / "ignoring").exists()
    assert not (tmp_path / "finished").exists(), "the worker was waited for, not ended"
