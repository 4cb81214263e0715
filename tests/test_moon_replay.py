"""``scripts/moon_replay.py``: which moons against the first bot one card would stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhearts import Game, Rules
from openhearts.arena import Match, play_board
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
        assert "not an arena log" in capsys.readouterr().err
