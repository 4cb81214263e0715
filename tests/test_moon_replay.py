"""``scripts/moon_replay.py``: which moons against the first bot one card would stop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhearts import Game, Rules
from openhearts.arena import Match, play_board
from openhearts.arena import main as arena
from script_support import load_script


def test_moons_against_the_first_bot_leave_out_its_own() -> None:
    script = load_script("moon_replay")
    records = [
        {"board": 3, "rotations": [{"shots": [[2, "moon"]]}, {"shots": [[1, "moon"]]}]},
        {"board": 4, "rotations": [{"shots": [[0, "moon"]]}, {"shots": [[3, "sun"]]}]},
    ]
    # The first bot sits in seat r in rotation r: seat 1 of rotation 1 and seat 0 of
    # rotation 0 are its own moons, and a sun is no moon.
    assert script.moons_against_first(records, 4) == [(3, 0, 2)]


def test_a_replayed_moon_is_the_logged_one_and_one_card_can_stop_it() -> None:
    script = load_script("moon_replay")
    match = Match(Rules(), ("easy", "easy", "easy", "easy"), "t", False)
    record = play_board(match, 29)
    moons = script.moons_against_first([record], 4)
    assert moons[0] == (29, 1, 0)
    replay = script.Replay(match.to_dict())
    game: Game = replay.game(29)
    replay.finish(game, replay.bots(29, 1))
    assert game.results[0].shooter == 0 and game.results[0].shot == "moon"
    assert script.first_stop(replay, moons[0]) == (2, "AS", "6S")


def test_a_file_that_is_no_arena_log_gets_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_replay")
    text = tmp_path / "text.jsonl"
    text.write_text("not json\n")
    for log in (tmp_path / "missing.jsonl", text):
        with pytest.raises(SystemExit) as stopped:
            script.main([str(log)])
        assert stopped.value.code == 2
        assert "not an arena" in capsys.readouterr().err


def test_a_line_cut_by_a_hard_stop_is_skipped_as_the_arena_skips_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("moon_replay")
    command = ["--bot", "easy", "--bot", "random", "--no-progress", "--workers", "1"]
    command += ["--out", str(tmp_path / "a")]
    assert arena([*command, "--deals", "4"]) == 0
    log = tmp_path / "a.jsonl"
    with log.open("r+b") as handle:
        handle.truncate(handle.seek(0, 2) - 40)
    assert arena([*command, "--deals", "6"]) == 0
    capsys.readouterr()
    assert script.main([str(log)]) == 0
    assert "moons stopped by one card" in capsys.readouterr().out
    _, records = script.read_records(log)
    # Line 5, cut, is left for the line that plays its board again.
    assert sorted(records) == list(range(6)) and 5 not in [n for n, _ in records.values()]


def _log(path: Path, mode: str, board: str, lineup: tuple[str, ...] = ("easy",) * 4) -> Path:
    match = {"rules": Rules().to_dict(), "lineup": list(lineup), "seed": "s", "mode": mode}
    path.write_text(json.dumps({"type": "match", "match": match}) + "\n" + board + "\n")
    return path


QUIET = '{"type": "board", "board": 0, "rotations": [{"shots": []}]}'


CASES = {
    # Only a game's first deal could be replayed, not the deals its moons are in.
    "games": ("games", QUIET, [], "a log of whole games"),
    "bad line": ("deals", '{"type": "board", "board": 0}', [], ", line 2: not a board of the"),
    # A negative sample would replay all the moons but a few.
    "negative sample": ("deals", QUIET, ["--sample", "-1"], "--sample: at least 1"),
    "no sample": ("deals", QUIET, ["--sample", "0"], "--sample: at least 1"),
    "no boards": ("deals", QUIET, ["--boards", "0"], "--boards: at least 1"),
}


@pytest.mark.parametrize(("mode", "board", "arguments", "message"), CASES.values(), ids=CASES)
def test_logs_and_arguments_it_cannot_replay_get_a_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    board: str,
    arguments: list[str],
    message: str,
) -> None:
    script = load_script("moon_replay")
    log = _log(tmp_path / "log.jsonl", mode, board)
    with pytest.raises(SystemExit) as stopped:
        script.main([str(log), *arguments])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


MOON = '{"type": "board", "board": 0, "rotations": [{"shots": [[1, "moon"]]}]}'


@pytest.mark.parametrize(
    ("lineup", "board", "message"),
    [
        (("nosuch",) * 4, QUIET, "no bot level 'nosuch'"),
        (("easy",) * 3, QUIET, "3 bots for 4 seats"),
        # Found only when the moon's deal is replayed.
        (("no_such_module:Bot",) * 4, MOON, "No module named 'no_such_module'"),
    ],
    ids=["unknown level", "too few bots", "missing module"],
)
def test_a_line_up_it_cannot_build_gets_a_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lineup: tuple[str, ...],
    board: str,
    message: str,
) -> None:
    script = load_script("moon_replay")
    log = _log(tmp_path / "log.jsonl", "deals", board, lineup)
    with pytest.raises(SystemExit) as stopped:
        script.main([str(log)])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
