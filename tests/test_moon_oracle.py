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
    deals, weights, rivals = oracle._deals(view, constraints(view), 0)
    truth = tuple(game.hand(s).mask for s in range(4))
    assert deals == (truth, truth) and not weights and not rivals
    # Seeing the cards only from a later trick, it searches sampled deals until then.
    later = script.OracleBot("o", game, 13, budget=4, pool=8)
    assert len(later._deals(view, constraints(view), 0)[0]) == 4
    assert oracle.choose_play(view) in view.legal


def test_a_board_counts_the_others_moons_in_every_rotation() -> None:
    script = load_script("moon_oracle")
    board = script.play_board(Rules(), "t", "easy", 29)
    assert len(board.oracle_points) == len(board.others_moons) == 4
    assert all(moon in (0, 1) for moon in board.others_moons)
    # An easy player shot the moon on this board in rotation 1 against easy; the oracle
    # in that seat does not let it happen.
    assert board.others_moons[1] == 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--opponent", "nonsense"], "no bot level 'nonsense'"),
        (["--deals", "0"], "--deals and --workers: at least 1"),
        (["--workers", "0"], "--deals and --workers: at least 1"),
        (["--from-trick", "14"], "--from-trick: a trick from 1 to 13"),
        (["--moon-fear", "-1"], "--moon-fear: not negative"),
    ],
)
def test_bad_arguments_get_a_message(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        load_script("moon_oracle").main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
