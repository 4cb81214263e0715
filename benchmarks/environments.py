"""Speed of the research interfaces: steps per second of random play, 4-player standard.

* ``TurnGame``: the single-action game underneath both (no observations);
* ``HeartsEnv``: PettingZoo AEC steps, each with the acting agent's observation (the
  885-number array and the action mask), as a learner would take them;
* ``SingleSeatEnv``: Gymnasium steps of one seat against three ``random`` bots (a step
  includes the bots' moves until the learner's next turn);
* the OpenSpiel game ``"openhearts"`` (Python) against OpenSpiel's own C++ ``"hearts"``,
  both driven from Python with ``legal_actions``/``apply_action`` and uniformly random
  chance outcomes; each figure is actions (decisions and chance) per second.

Each figure is the best of a few rounds of ``--seconds``.

    python benchmarks/environments.py                # 1 s per round
    python benchmarks/environments.py --seconds 0.1  # quick check that it runs
    python benchmarks/environments.py --json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from openhearts import Rules
from openhearts.turns import TurnGame

ROUNDS = 3


def _rate(step: Callable[[], int], seconds: float) -> float:
    """Best of a few rounds of ``step`` (which returns how many steps it took), per second."""
    best = 0.0
    for _ in range(ROUNDS):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            count += step()
        best = max(best, count / elapsed)
    return best


def _turn_game(rng: random.Random) -> Callable[[], int]:
    def step() -> int:
        turns = TurnGame(Rules(), rng.getrandbits(63))
        count = 0
        while not turns.is_over:
            turns.apply(rng.choice(turns.legal_actions()))
            count += 1
        return count

    return step


def _pettingzoo(rng: np.random.Generator) -> Callable[[], int]:
    from openhearts.env import HeartsEnv

    env = HeartsEnv()

    def step() -> int:
        env.reset(seed=int(rng.integers(2**31)))
        count = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            count += 1
        return count

    return step


def _gymnasium(rng: np.random.Generator) -> Callable[[], int]:
    from openhearts.env import SingleSeatEnv

    env = SingleSeatEnv(opponents="random")

    def step() -> int:
        observation, _ = env.reset(seed=int(rng.integers(2**31)))
        count, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, done, _, _ = env.step(action)
            count += 1
        return count

    return step


def _openspiel(game: Any, rng: random.Random) -> Callable[[], int]:
    def step() -> int:
        state = game.new_initial_state()
        count = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            count += 1
        return count

    return step


def measure(seconds: float, seed: int = 1) -> dict[str, float | None]:
    figures: dict[str, float | None] = {
        "turn_game_actions_per_s": _rate(_turn_game(random.Random(seed)), seconds),
        "pettingzoo_steps_per_s": _rate(_pettingzoo(np.random.default_rng(seed)), seconds),
        "gymnasium_steps_per_s": _rate(_gymnasium(np.random.default_rng(seed)), seconds),
        "openspiel_python_actions_per_s": None,
        "openspiel_cpp_actions_per_s": None,
    }
    try:
        import pyspiel

        import openhearts.openspiel_game  # noqa: F401  (registers "openhearts")
    except ImportError:
        return figures
    ours = pyspiel.load_game("openhearts", {"options": "pass_cycle=hold left right across"})
    figures["openspiel_python_actions_per_s"] = _rate(
        _openspiel(ours, random.Random(seed)), seconds
    )
    theirs = pyspiel.load_game("hearts")
    figures["openspiel_cpp_actions_per_s"] = _rate(_openspiel(theirs, random.Random(seed)), seconds)
    return figures


def report(figures: dict[str, float | None]) -> str:
    labels = {
        "turn_game_actions_per_s": "TurnGame, random actions per second",
        "pettingzoo_steps_per_s": "HeartsEnv (PettingZoo), steps with observation per second",
        "gymnasium_steps_per_s": "SingleSeatEnv (Gymnasium) vs 3 random, steps per second",
        "openspiel_python_actions_per_s": 'OpenSpiel "openhearts" (Python), actions per second',
        "openspiel_cpp_actions_per_s": 'OpenSpiel "hearts" (C++), actions per second',
    }
    lines = []
    for key, label in labels.items():
        value = figures[key]
        lines.append(f"{label}: {'not measured' if value is None else f'{value:,.0f}'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each round")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.seconds)
    print(json.dumps(figures) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
