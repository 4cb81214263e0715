"""``scripts/moon_compare.py``: the others' moons and the first bot's cost, board by board."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from openhearts.arena import main as arena
from script_support import ROOT, load_script

MATCH: dict[str, Any] = {
    "rules": {"players": 4},
    "seed": "s",
    "lineup": ["a", "b", "b", "b"],
    "mode": "deals",
}


def _log(path: Path, boards: dict[int, list[dict[str, Any]]], **match: Any) -> Path:
    lines: list[dict[str, Any]] = [{"type": "match", "match": {**MATCH, **match}}]
    lines += [{"type": "board", "board": b, "rotations": r} for b, r in boards.items()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _rotation(points: list[int], shots: list[list[Any]] | None = None) -> dict[str, Any]:
    return {"points": [points], "shots": shots or []}


def test_moons_against_the_first_bot_and_its_paired_cost(tmp_path: Path) -> None:
    script = load_script("moon_compare")
    # Board 0: the run's first bot (seat 0, then seat 1) lets a moon through in rotation
    # 0; the reference stops it by taking a heart, and shoots itself in rotation 1.
    run = _log(
        tmp_path / "run.jsonl",
        {
            0: [_rotation([26, 0, 26, 26], [[1, "moon"]]), _rotation([13, 0, 13, 0])],
            1: [_rotation([0, 13, 13, 0]), _rotation([0, 0, 26, 0])],
        },
    )
    reference = _log(
        tmp_path / "ref.jsonl",
        {
            0: [_rotation([1, 25, 0, 0]), _rotation([26, 0, 26, 26], [[1, "moon"]])],
            1: [_rotation([0, 13, 13, 0]), _rotation([0, 0, 26, 0])],
            2: [_rotation([0, 13, 13, 0]), _rotation([0, 0, 26, 0])],
        },
    )
    logs = [script.read_log(run), script.read_log(reference)]
    boards = script.common_boards(logs)
    assert boards == [0, 1]
    assert [script.moons_against(log, boards) for log in logs] == [1, 0]
    assert script.common_boards(logs, limit=1) == [0]
    mean, half = script.paired_cost(logs[0], logs[1], boards)
    # Board 0 (seat 0, then seat 1): run margins 26 - 52/3 and 0 - 26/3; reference
    # 1 - 25/3 and 0 - 78/3.  Board 1 is the same in both.
    board_0 = ((26 - 52 / 3) + (0 - 26 / 3)) / 2 - ((1 - 25 / 3) + (0 - 78 / 3)) / 2
    assert mean == pytest.approx(board_0 / 2) and half > 0
    kinds = script.changes(logs[0], logs[1], boards)
    assert kinds["a moon against it let through"] == (1, pytest.approx(26 - 52 / 3 - (1 - 25 / 3)))
    assert kinds["its own shot lost"][0] == 1
    assert kinds["no other change in moons"] == (2, 0.0)


def test_logs_of_other_deals_or_no_logs_get_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_compare")
    board = {0: [_rotation([0, 13, 13, 0])]}
    first = _log(tmp_path / "a.jsonl", board)
    other_seed = _log(tmp_path / "b.jsonl", board, seed="t")
    other_boards = _log(tmp_path / "c.jsonl", {5: [_rotation([0, 13, 13, 0])]})
    games = _log(tmp_path / "d.jsonl", board, mode="games")
    text = tmp_path / "e.txt"
    text.write_text("not a log\n")
    cases: list[tuple[list[Path | str], str]] = [
        ([first, other_seed], "another seed"),
        ([first, other_boards], "no board in common"),
        ([games], "whole games"),
        ([text], "not an arena results log"),
        ([tmp_path / "missing.jsonl"], "not an arena results log"),
        ([first, "--boards", "0"], "--boards: at least 1"),
    ]
    for argv, message in cases:
        with pytest.raises(SystemExit) as stopped:
            script.main([str(arg) for arg in argv])
        assert stopped.value.code == 2
        assert message in capsys.readouterr().err
    assert script.main([str(first), str(first), "--changes"]) == 0
    out = capsys.readouterr().out
    assert "0 moons against the first bot in 3" in out
    assert "+0.00 (one board: no interval)" in out and "no other change in moons: 1 deals" in out
    assert "no moon to compare with" in out


def _moons(path: Path, per_board: list[int]) -> Path:
    """A log whose board ``i`` holds ``per_board[i]`` moons against the first bot, one
    deal each, in a board of two deals."""
    moon = _rotation([26, 26, 0, 26], [[2, "moon"]])
    quiet = _rotation([0, 13, 13, 0])
    return _log(path, {i: [moon] * n + [quiet] * (2 - n) for i, n in enumerate(per_board)})


def test_the_moon_share_has_an_interval_paired_by_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_compare")
    run = script.read_log(_moons(tmp_path / "run.jsonl", [1, 0, 1]))
    other = script.read_log(_moons(tmp_path / "other.jsonl", [2, 1, 1]))
    share, low, high = script.share_interval(run, other, [0, 1, 2])
    # Per board, each run's share of its own moons: (1/2, 0, 1/2) and (2/4, 1/4, 1/4);
    # their differences (0, -1/4, 1/4) give log-share variance 3/2 * 1/8.
    half = 1.96 * (3 / 2 / 8) ** 0.5
    assert share == 0.5
    assert low == pytest.approx(0.5 * math.exp(-half))
    assert high == pytest.approx(0.5 * math.exp(half))
    # The same moons on the same boards leave no doubt about the share.
    assert script.share_interval(run, run, [0, 1, 2]) == (1.0, 1.0, 1.0)
    none = script.read_log(_moons(tmp_path / "none.jsonl", [0, 0, 0]))
    assert script.share_interval(none, other, [0, 1, 2])[0] == 0.0
    assert all(math.isnan(bound) for bound in script.share_interval(none, other, [0, 1, 2])[1:])
    assert math.isnan(script.share_interval(run, none, [0, 1, 2])[0])
    assert all(math.isnan(v) for v in script.share_interval(run, other, [0])[1:])
    assert script.main([str(tmp_path / "run.jsonl"), str(tmp_path / "other.jsonl")]) == 0
    assert "the first run's is 50% (95% CI 21% to 117%)" in capsys.readouterr().out


def _cut_and_resumed(path: Path) -> Path:
    """An arena log whose fourth board line was cut short by a hard stop, then played
    again at the end when the arena resumed: ``path`` ending ``.jsonl``."""
    command = ["--bot", "easy", "--bot", "random", "--no-progress", "--workers", "1"]
    command += ["--out", str(path)]
    assert arena([*command, "--deals", "4"]) == 0
    with path.with_suffix(".jsonl").open("r+b") as handle:
        handle.truncate(handle.seek(0, 2) - 40)
    assert arena([*command, "--deals", "6"]) == 0
    return path.with_suffix(".jsonl")


def test_a_line_cut_by_a_hard_stop_is_skipped_as_the_arena_skips_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_compare")
    log = _cut_and_resumed(tmp_path / "cut")
    lines = log.read_text().splitlines()
    cut = next(n for n, line in enumerate(lines, start=1) if not line.endswith("}"))
    assert cut == 5 and len(lines) == 8
    capsys.readouterr()
    assert script.main([str(log), str(log)]) == 0
    assert "6 boards, 24 deals" in capsys.readouterr().out
    # The board of the cut line is read from the line that replays it.
    _, records = script.read_records(log)
    assert sorted(records) == list(range(6)) and cut not in [n for n, _ in records.values()]


def test_a_bad_line_is_reported_by_its_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_compare")
    log = _log(tmp_path / "bad.jsonl", {b: [_rotation([0, 13, 13, 0])] for b in range(4)})
    lines = log.read_text().splitlines()
    cases = [
        ('{"type": "board", "board": 2, "rotations": 5}', "line 4: not a board of the arena"),
        ("[2]", "line 4: not a board record"),
        ('{"type": "board", "board": "2"}', "line 4: the board number is '2'"),
        ('{"type": "board", "board": 2, "rotations": []}', "line 4: a board without deals"),
    ]
    for bad, message in cases:
        log.write_text("\n".join([*lines[:3], bad, *lines[4:]]) + "\n")
        with pytest.raises(SystemExit) as stopped:
            script.main([str(log)])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert f"{log}, {message}" in err and "Traceback" not in err
    log.write_text('{"type": "match", "match": {"seed": "s"}}\n')
    with pytest.raises(SystemExit):
        script.main([str(log)])
    assert "not an arena results log" in capsys.readouterr().err


def test_logs_with_other_deals_on_a_board_get_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_compare")
    one = _log(tmp_path / "one.jsonl", {0: [_rotation([0, 13, 13, 0])]})
    two = _log(tmp_path / "two.jsonl", {0: [_rotation([0, 13, 13, 0])] * 2})
    with pytest.raises(SystemExit) as stopped:
        script.main([str(one), str(two), "--changes"])
    assert stopped.value.code == 2
    assert "board 0 has other deals" in capsys.readouterr().err


def test_the_logs_of_the_example_exist() -> None:
    script = load_script("moon_compare")
    named = re.findall(r"docs/arena/\S+\.jsonl", script.__doc__ or "")
    assert len(named) == 3
    assert [path for path in named if not (ROOT / path).is_file()] == []
