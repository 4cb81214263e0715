"""``hearts arena --backend ray`` on a local Ray instance gives the local workers' results."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from openhearts import arena
from openhearts.arena_ray import play_boards
from openhearts.workers import Stopped

ray = pytest.importorskip("ray", reason="Ray (the ray extra) is not installed")


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    arena.add_arguments(parser)
    return arena.run(parser.parse_args(["--no-progress", *argv]))


def _boards(out: Path) -> dict[int, dict[str, Any]]:
    """Each board's record, without the decision times (the only thing that may differ)."""
    lines = out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines[1:]]
    return {r["board"]: {k: v for k, v in r.items() if k != "timing"} for r in records}


MATCH = ["--bot", "easy", "--bot", "random", "--preset", "source-003", "--players", "5"]


#: Decision times differ from run to run; everything else must not.
TIMES = ("ms_per_decision", "max_ms_per_decision")


def test_ray_and_local_workers_give_identical_boards_and_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    kept = ("--records", str(tmp_path / "local-records"))
    assert _run(*MATCH, "--deals", "6", "--workers", "1", "--out", str(local), *kept) == 0
    # Half the match on Ray: the arena starts a local Ray instance and stops it again.
    records = ("--records", str(tmp_path / "ray-records"))
    assert _run(*MATCH, "--deals", "3", "--backend", "ray", "--out", str(on_ray), *records) == 0
    assert len(_boards(on_ray)) == 3
    assert not ray.is_initialized()
    # The rest on a Ray instance already running (as a cluster would be): the same
    # command for the whole match resumes it.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="error")
    try:
        assert _run(*MATCH, "--deals", "6", "--backend", "ray", "--out", str(on_ray), *records) == 0
        assert _boards(on_ray) == _boards(local)
        # The boards' records too, each written once by the arena from Ray's results.
        folders = [tmp_path / "local-records", tmp_path / "ray-records"]
        files = [{p.name: p.read_text() for p in folder.iterdir()} for folder in folders]
        assert files[0] == files[1] and len(files[0]) == 6 * 5
        summaries = [json.loads(p.with_suffix(".json").read_text()) for p in (local, on_ray)]
        tables = [[{k: v for k, v in row.items() if k not in TIMES} for row in s["table"]]
                  for s in summaries]  # fmt: skip
        assert tables[0] == tables[1]
        assert "--backend ray" in summaries[1]["command"]

        def failing(match: object, board: int) -> dict[str, Any]:
            # Defined here so that Ray ships it by value to its workers.
            raise arena.ArenaError(f"board {board}: bot 'broken' in seat 1 failed")

        # A board's own error comes back as itself, not wrapped by Ray.
        with pytest.raises(arena.ArenaError, match=r"^board 2: bot 'broken' in seat 1 failed$"):
            list(play_boards(failing, None, [2], 1, None))

        def slow(match: object, board: int) -> dict[str, Any]:
            time.sleep(0.5)
            return {"board": board}

        # Found by a tester: the first Ctrl+C cancelled every board under way on Ray,
        # where the local workers let them finish.
        boards = play_boards(slow, None, list(range(6)), 2, None)
        finished = [next(boards)]
        if threading.current_thread() is threading.main_thread():
            os.kill(os.getpid(), signal.SIGINT)
            with pytest.raises(Stopped):
                finished.extend(boards)
            assert sorted(record["board"] for record in finished) == [0, 1]
            assert "Stopping once the boards being played end" in capsys.readouterr().err
        else:
            del boards  # closing it cancels the boards under way
    finally:
        ray.shutdown()


def test_without_ray_the_arena_says_what_to_install(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    # Refused before the match, as every missing extra is (status 2, and no files).
    assert _run("--deals", "1", "--backend", "ray", "--out", str(tmp_path / "none")) == 2
    assert "pip install 'openhearts[ray]'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("127.0.0.1:1", "cannot reach Ray at 127.0.0.1:1 (Connection refused)"),
        ("ray://127.0.0.1:1", "cannot reach Ray at 127.0.0.1:1 (Connection refused)"),
        ("head-node", "'head-node' is not an address (host:port, ray://host:port, auto)"),
    ],
)
def test_an_address_nothing_answers_at_is_a_clear_error_at_once(
    tmp_path: Path, capsys: Any, address: str, said: str
) -> None:
    """Ray retried a closed host:port for minutes, saying only that it retried."""
    out = str(tmp_path / "none")
    assert _run("--deals", "1", "--backend", "ray", "--ray-address", address, "--out", out) == 1
    assert said in capsys.readouterr().err
    assert not ray.is_initialized()


def test_a_local_ray_that_fails_to_start_is_said_in_words(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A local instance that failed to start raised its part's own error (a timeout, a
    process error) as a traceback."""

    def failing(**options: Any) -> None:
        raise TimeoutError("the node timed out during startup")

    monkeypatch.setattr(ray, "init", failing)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert _run("--deals", "1", "--backend", "ray", "--out", str(tmp_path / "none")) == 1
    err = capsys.readouterr().err
    assert "--backend ray: Ray did not start (TimeoutError: the node timed out" in err
    assert "Traceback" not in err
