"""``scripts/moon_oracle.py``: ``expert`` searching the true deal, against the arena's boards."""

from __future__ import annotations

import pytest

from openhearts import Game, Rules
from openhearts.bots import act, make_bot
from openhearts.bots.sampler import constraints
from script_support import load_script


def test_the_oracle_searches_the_true_hands() -> None:
    script = load_script("moon_oracle")
    game = Game(seed=3)
    bots = [make_bot("easy", s) for s in range(4)]
    while len(game.actions) < 10:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    seat = game.to_act()[0]
    view = game.view(seat)
    oracle = script.OracleBot("o", game, budget=2, pool=2)
    deals, weights = oracle._deals(view, constraints(view), 0)
    truth = tuple(game.hand(s).mask for s in range(4))
    assert deals == (truth, truth) and not weights
    # Seeing the cards only from a later trick, it searches sampled deals until then.
    later = script.OracleBot("o", game, 13, budget=4, pool=8)
    assert len(later._deals(view, constraints(view), 0)[0]) == 4
    assert oracle.choose_play(view) in view.legal


def test_a_board_counts_the_others_moons_in_every_rotation() -> None:
    script = load_script("moon_oracle")
    board = script.play_board(Rules(), "t", "easy", 29)
    assert len(board.oracle_points) == len(board.others_moons) == len(board.oracle_margins) == 4
    assert all(moon in (0, 1) for moon in board.others_moons)
    # An easy player shot the moon on this board in rotation 1 against easy; the oracle
    # in that seat does not let it happen.
    assert board.others_moons[1] == 0


def test_the_margin_is_the_points_less_the_others_average() -> None:
    script = load_script("moon_oracle")
    board = script.play_board(Rules(), "t", "easy", 29)
    # Every deal of standard rules hands out 26 points (52 to the others on a moon).
    for points, margin, moon in zip(
        board.oracle_points, board.oracle_margins, board.others_moons, strict=True
    ):
        others = (52 if moon else 26 - points) / 3
        assert margin == pytest.approx(points - others)


def test_several_fears_are_compared_on_the_boards_they_share() -> None:
    script = load_script("moon_oracle")
    rules = Rules()
    first = {
        0: script.Board(
            0, (0, 4, 0, 13), (0, 0, 0, 0), (-26 / 3, 4 - 22 / 3, -26 / 3, 13 - 13 / 3)
        ),
        1: script.Board(1, (0, 0, 26, 0), (0, 0, 1, 0), (-26 / 3, -26 / 3, 26 / 3, -26 / 3)),
    }
    # The second fear finished board 0 only (an interrupted run): board 1 is left out.
    second = {
        0: script.Board(
            0, (1, 4, 0, 13), (0, 0, 0, 0), (1 - 25 / 3, 4 - 22 / 3, -26 / 3, 13 - 13 / 3)
        ),
    }
    lines = script.report(rules, [first, second], [0.0, 2.0], 1, "hard")
    assert lines[0] == "1 boards, 4 deals; oracle from trick 1 vs 3 hard"
    assert "moon_fear 0: oracle's points per deal 4.25" in lines[1]
    assert "the others' moons 0 in 12 of their deals (0.0%)" in lines[1]
    assert "moon_fear 2: oracle's points per deal 4.50" in lines[2]
    # Only rotation 0 changed, by 1 + 1/3, over 4 deals; one board: no interval.
    assert lines[2].endswith("margin less moon_fear 0's: +0.33 (no interval)")
    assert script.report(rules, [first, {}], [0.0, 2.0], 1, "hard") == [
        "0 boards, 0 deals; oracle from trick 1 vs 3 hard"
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--opponent", "nonsense"], "no bot level 'nonsense'"),
        (["--deals", "0"], "--deals and --workers: at least 1"),
        (["--workers", "0"], "--deals and --workers: at least 1"),
        (["--from-trick", "14"], "--from-trick: a trick from 1 to 13"),
        (["--moon-fear", "-1"], "--moon-fear: a number, not negative"),
        (["--moon-fear", "0", "--moon-fear", "-2"], "--moon-fear: a number, not negative"),
        (["--moon-fear", "nan"], "--moon-fear: a number, not negative"),
        (["--moon-fear", "inf"], "--moon-fear: a number, not negative"),
        (["--moon-fear", "2", "--moon-fear", "2"], "--moon-fear: each fear once"),
        (["--moon-fear", "much"], "invalid float value: 'much'"),
    ],
)
def test_bad_arguments_get_a_message(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        load_script("moon_oracle").main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
