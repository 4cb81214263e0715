"""``scripts/moon_oracle.py``: ``expert`` searching the true deal, against the arena's boards."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from openhearts import Game, Rules
from openhearts.bots import act, make_bot
from openhearts.bots.sampler import constraints

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "moon_oracle", ROOT / "scripts" / "moon_oracle.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_oracle_searches_the_true_hands() -> None:
    script = _script()
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
    assert oracle.choose_play(view) in view.legal


def test_a_board_counts_the_others_moons_in_every_rotation() -> None:
    script = _script()
    board = script.play_board(Rules(), "t", "easy", 29)
    assert len(board.oracle_points) == len(board.others_moons) == 4
    assert all(moon in (0, 1) for moon in board.others_moons)
    # An easy player shot the moon on this board in rotation 1 against easy; the oracle
    # in that seat does not let it happen.
    assert board.others_moons[1] == 0
