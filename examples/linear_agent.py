"""Train a tiny linear agent on one seat against our bots, and compare it with random play.

The agent scores every legal action with a linear function of the observation
(:mod:`openhearts.observation`) and samples from the softmax of those scores; it learns
by REINFORCE with a running baseline, rewarded per trick.  It needs only numpy and the
``rl`` extra::

    pip install -e '.[rl]'
    python examples/linear_agent.py --episodes 2000 --eval 500 --opponents random

Evaluation uses the same seeded deals for the untrained (uniformly random) agent and
the trained one, and prints the mean points per deal of each with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from openhearts.env import SingleSeatEnv
from openhearts.observation import SIZE
from openhearts.turns import ACTION_COUNT

Vector = npt.NDArray[np.float64]
Policy = Callable[[dict[str, Any], np.random.Generator], int]


class LinearAgent:
    """A softmax policy over the legal actions with linear scores ``W @ observation``."""

    def __init__(self, learning_rate: float = 0.01) -> None:
        self.weights = np.zeros((ACTION_COUNT, SIZE))
        self.learning_rate = learning_rate
        self.baseline = 0.0

    def probabilities(self, observation: dict[str, Any]) -> Vector:
        scores = self.weights @ observation["observation"].astype(np.float64)
        legal = observation["action_mask"].astype(bool)
        scores = np.where(legal, scores, -np.inf)
        scores -= scores[legal].max()
        exp = np.exp(scores)
        probabilities: Vector = exp / exp.sum()
        return probabilities

    def act(self, observation: dict[str, Any], rng: np.random.Generator) -> int:
        return int(rng.choice(ACTION_COUNT, p=self.probabilities(observation)))

    def learn(self, steps: Sequence[tuple[dict[str, Any], int]], rewards: Sequence[float]) -> None:
        """One REINFORCE update from an episode: each step weighted by the rewards after it."""
        to_go = np.cumsum(np.asarray(rewards)[::-1])[::-1]
        self.baseline += 0.05 * (to_go[0] - self.baseline)
        for (observation, action), future in zip(steps, to_go, strict=True):
            features = observation["observation"].astype(np.float64)
            gradient = -self.probabilities(observation)
            gradient[action] += 1.0
            self.weights += (
                self.learning_rate * (future - self.baseline) * np.outer(gradient, features)
            )


def uniform(observation: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def train(env: SingleSeatEnv, agent: LinearAgent, episodes: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[dict[str, Any], int]] = []
        rewards: list[float] = []
        done = False
        while not done:
            action = agent.act(observation, rng)
            steps.append((observation, action))
            observation, reward, done, _, _ = env.step(action)
            rewards.append(float(reward))
        agent.learn(steps, rewards)


def evaluate(env: SingleSeatEnv, policy: Policy, episodes: int) -> tuple[float, float]:
    """Mean points per deal of the learner's seat and the half-width of a 95% interval."""
    rng = np.random.default_rng(12345)
    points = []
    for episode in range(episodes):
        observation, _ = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            observation, reward, done, _, _ = env.step(policy(observation, rng))
            total += float(reward)
        points.append(-total)
    mean = float(np.mean(points))
    half = 1.96 * float(np.std(points, ddof=1)) / math.sqrt(len(points)) if len(points) > 1 else 0.0
    return mean, half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=2000, help="training deals")
    parser.add_argument("--eval", type=int, default=500, help="evaluation deals per agent")
    parser.add_argument("--opponents", default="random", help="bot level of the other seats")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    def make_env(trick_rewards: bool) -> SingleSeatEnv:
        return SingleSeatEnv(
            preset=args.preset,
            players=args.players,
            opponents=args.opponents,
            trick_rewards=trick_rewards,
        )

    agent = LinearAgent()
    before = evaluate(make_env(False), uniform, args.eval)
    train(make_env(True), agent, args.episodes, args.seed)
    after = evaluate(make_env(False), lambda o, r: agent.act(o, r), args.eval)
    figures = {
        "episodes": args.episodes,
        "eval": args.eval,
        "opponents": args.opponents,
        "random_points": before[0],
        "random_ci": before[1],
        "trained_points": after[0],
        "trained_ci": after[1],
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"against {args.opponents}, {args.eval} deals each (mean points per deal, 95% CI):")
        print(f"  uniformly random agent: {before[0]:.2f} ± {before[1]:.2f}")
        print(
            f"  linear agent after {args.episodes} training deals: {after[0]:.2f} ± {after[1]:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
