"""Hearts as a PettingZoo AEC environment and a Gymnasium single-seat environment.

Needs the ``rl`` extra (``pip install 'openhearts[rl]'``: numpy, pettingzoo, gymnasium).

:class:`HeartsEnv` is a multi-agent environment in PettingZoo's AEC (agent by agent)
form, for every preset, player count and option: agents ``player_0`` ... are our seats
in the order of play; :func:`env` wraps it as PettingZoo's own ``env()`` factories
do (``raw_env`` is the class).  :class:`SingleSeatEnv` is a Gymnasium environment in which the
agent plays one seat and our bots play the others.

* **Actions** (``Discrete(54)``): ``0``-``51`` a card (our card numbers, see
  :mod:`openhearts.cards`), passed one at a time then played; ``52``/``53`` a
  shooter's moon choice (others add / shooter subtracts), where the rules let the
  shooter choose.  See :mod:`openhearts.turns`.
* **Observations**: a dict of ``observation``, the :mod:`openhearts.observation`
  encoding of the seat's view (885 ``float32``, never another seat's hidden cards),
  and ``action_mask``, 54 ``int8`` with 1 for each legal action (all 0 for a seat not
  to act).
* **Rewards**: minus each seat's points for a deal, when the deal ends; with
  ``trick_rewards=True`` minus the points of each trick as it is won (a moon or sun
  adjusts at the end of the deal).  The rewards of a deal add up to minus its points
  either way.
* **Episodes**: one deal, or with ``whole_game=True`` deal after deal until someone
  reaches the end score.

>>> env = HeartsEnv(preset="source-003", players=6, whole_game=False)
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.last()[0]["action_mask"].sum())
('player_0', 8)
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Mapping
from typing import Any, Final

from .extras import explained

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as error:  # pragma: no cover - needs the extra uninstalled
    raise explained(error) from None

from .bots import Bot, close_bot, decide, make_bot
from .observation import bounds, encode
from .rules import Rules, RulesError, integer_or_none
from .turns import ACTION_COUNT, TurnGame, action_name, action_number

__all__ = ["HeartsEnv", "SingleSeatEnv", "env", "raw_env", "agent_name"]

_RENDER_MODES: Final = ["ansi", "human"]


def agent_name(seat: int) -> str:
    """The agent name of a seat: ``player_0`` for seat 0."""
    return f"player_{seat}"


def _observation_space() -> spaces.Dict:
    low, high = bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
        }
    )


def _action_mask(turns: TurnGame, seat: int) -> npt.NDArray[np.int8]:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if turns.seat == seat:
        mask[turns.legal_actions()] = 1
    return mask


def _observe(turns: TurnGame, seat: int) -> dict[str, Any]:
    return {
        "observation": encode(turns.view(seat), int(turns.selected(seat))),
        "action_mask": _action_mask(turns, seat),
    }


class _Rewarder:
    """Rewards per deal or per trick, from the change in points since the last call."""

    def __init__(self, trick_rewards: bool) -> None:
        self.trick_rewards = trick_rewards
        self.last: list[int] = []

    def reset(self, turns: TurnGame) -> None:
        self.last = self._points(turns)

    def _points(self, turns: TurnGame) -> list[int]:
        return turns.points_so_far() if self.trick_rewards else turns.scored_points()

    def __call__(self, turns: TurnGame) -> list[float]:
        now = self._points(turns)
        rewards = [float(before - after) for before, after in zip(self.last, now, strict=True)]
        self.last = now
        return rewards


def _new_turns(rules: Rules, seed: int, draw: int, whole_game: bool) -> TurnGame:
    """An episode's game from ``seed``: a whole game from its first deal, or one deal
    at a place in the pass cycle (and a dealer) picked by ``draw``, so that every pass
    direction comes up and not only the first deal's."""
    if whole_game:
        return TurnGame(rules, seed, whole_game=True)
    assert rules.pass_cycle is not None  # filled in when the rules are made
    deals = len(rules.pass_cycle) * rules.players
    return TurnGame(rules, seed, first_deal=draw % deals)


def _preset_rules(preset: str, players: int | None, options: dict[str, Any] | None) -> Rules:
    """The rules of ``preset`` for ``players`` with ``options``; a player count among the
    options (as a configuration file may give it) is the same as ``players=``."""
    if options is not None and not isinstance(options, Mapping):
        # A text as the OpenSpiel game takes it said "dictionary update sequence element
        # #0 has length 1; 2 is required".
        raise ValueError(
            f"options: rules options by name in a dict, such as "
            f"{{'jack_of_diamonds': True}}, not {options!r}"
        )
    changes = dict(options or {})
    if "players" in changes:
        given = changes.pop("players")
        if players is not None and given != players:
            raise RulesError(
                f"players: {players} as players= but {given!r} in options; give it once, "
                "as players="
            )
        players = given
    return Rules.preset(preset, players=players, **changes)


def _env_rules(
    rules: Rules | str | None,
    preset: str | None,
    players: int | None,
    options: dict[str, Any] | None,
) -> Rules:
    """The rules of an environment: ``rules`` (a :class:`Rules`, or a preset's name as
    :class:`~openhearts.Game` takes it), or else ``preset``, ``players`` and ``options``.
    Given beside a :class:`Rules`, those were dropped without a word."""
    if isinstance(rules, str):
        if preset is not None:
            raise ValueError(f"the preset twice: {rules!r} and preset={preset!r}; give it once")
        preset, rules = rules, None
    if rules is None:
        return _preset_rules(preset or "standard", players, options)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: a Rules object or a preset's name, not {rules!r}")
    given = [
        name
        for name, value in (("preset", preset), ("players", players), ("options", options))
        if value is not None and value != {}
    ]
    if given:
        raise ValueError(
            f"rules= are the whole rules: {', '.join(given)} cannot change them; give "
            "rules=Rules.preset(...) with every option, or preset, players and options alone"
        )
    return rules


def _episode_seed(seed: object) -> int | None:
    """``seed`` as a plain int (numpy's integers included, which learning code passes);
    None stays None.  ``random.Random`` refused numpy's integers and gymnasium took only
    Python's, while a float, a text or True would each seed a deal of its own."""
    if seed is None:
        return None
    number = None if isinstance(seed, np.bool_) else integer_or_none(seed)
    if number is None:
        raise TypeError(f"seed: an integer or None, not {seed!r}")
    # random.Random(-3) is random.Random(3): seeds -3 and 3 gave the same episodes.
    # Gymnasium refuses negative seeds too.
    if number < 0:
        raise ValueError(f"seed: a whole number from 0, not {seed!r}")
    return number


def _check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in _RENDER_MODES:
        raise ValueError(f"render_mode: one of {', '.join(_RENDER_MODES)}, not {mode!r}")


def _render(turns: TurnGame, mode: str | None) -> str | None:
    """The table as text: returned for ``ansi``, printed for ``human``."""
    if mode is None:
        gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'human'")
        return None
    # The view, not the game: once a one-deal episode is over the game has dealt the next
    # deal, and the view still shows the finished one.
    view = turns.view(0)
    points = turns.points_so_far()
    lines = [f"{turns.phase}; to act: {turns.seat}"]
    for seat in range(turns.rules.players):
        lines.append(f"  player_{seat}: {view.hand_sizes[seat]} cards, points {points[seat]}")
    lines.append("  trick: " + " ".join(action_name(card) for _seat, card in view.trick))
    text = "\n".join(lines)
    if mode == "human":
        print(text)
        return None
    return text


class HeartsEnv(AECEnv):  # type: ignore[misc]
    """Hearts for several learning agents, one action at a time (PettingZoo AEC).

    :param rules: the rules (or a preset's name); or build them from ``preset`` (default
        ``"standard"``), ``players`` and ``options`` (rules options by name, e.g.
        ``{"jack_of_diamonds": True}``; a ``"players"`` entry is the same as
        ``players=``), which cannot be given beside a :class:`Rules`.
    :param whole_game: an episode is a whole game (to the end score), not one deal.
    :param trick_rewards: reward each trick's points as it is won.
    :param render_mode: ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
    """

    metadata: Final = {
        "name": "openhearts_v0",
        "render_modes": _RENDER_MODES,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | None = None,
        *,
        preset: str | None = None,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        whole_game: bool = False,
        trick_rewards: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        self.rules = _env_rules(rules, preset, players, options)
        self.whole_game = whole_game
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        observation_space = _observation_space()
        action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self._rewarder = _Rewarder(trick_rewards)
        self._seeds = random.Random()
        self.turns = self._next_turns()
        self._start()

    def _next_turns(self) -> TurnGame:
        seed, draw = self._seeds.getrandbits(64), self._seeds.getrandbits(32)
        return _new_turns(self.rules, seed, draw, self.whole_game)

    def _seat(self, agent: object) -> int:
        """The seat of ``agent``; an agent not at the table said "'bob' is not in list"
        or "KeyError: 'bob'", naming none of the agents there are."""
        if agent in self.possible_agents:
            return self.possible_agents.index(agent)  # type: ignore[arg-type]
        raise ValueError(f"agent: one of {', '.join(self.possible_agents)}, not {agent!r}")

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._seat(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat(agent)
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarder.reset(self.turns)
        seat = self.turns.seat
        assert seat is not None
        self.agent_selection = agent_name(seat)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (or game), shuffled from ``seed`` or else from the previous seed; a
        single deal is drawn at any place in the pass cycle."""
        number = _episode_seed(seed)
        if number is not None:
            self._seeds = random.Random(number)
        self.turns = self._next_turns()
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        return _observe(self.turns, self._seat(agent))

    def step(self, action: int | None) -> None:
        """Take ``action`` for :attr:`agent_selection`.

        An illegal action raises :class:`~openhearts.IllegalActionError` saying why and
        changes nothing (use the ``action_mask``).
        """
        if not self.agents:
            raise ValueError("the episode is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        self.turns.apply(_one_action(action))
        self._cumulative_rewards[agent] = 0.0
        rewards = self._rewarder(self.turns)
        self.rewards = {name: rewards[seat] for seat, name in enumerate(self.possible_agents)}
        self._accumulate_rewards()
        seat = self.turns.seat
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
            # Every agent then steps once with None, in seat order from the next one.
            after = (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[after]
        else:
            self.agent_selection = agent_name(seat)
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # Once every agent is done PettingZoo's own answer was "KeyError: 'player_3'".
        if not self.agents:
            raise ValueError("the episode is over: call reset()")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def render(self) -> str | None:
        return _render(self.turns, self.render_mode)

    def close(self) -> None:
        pass


#: PettingZoo's name for the unwrapped environment class (``raw_env``), as its own
#: environments' modules have it.
raw_env = HeartsEnv


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's OrderEnforcingWrapper, keeping :class:`HeartsEnv`'s worded
    ``last()`` once every agent is done (PettingZoo's own says ``KeyError: 'player_3'``)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._has_reset and not self.agents:
            raise ValueError("the episode is over: call reset()")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def __str__(self) -> str:
        return str(self.env)  # the environment's name, as PettingZoo's own wrapper gives


def env(*, illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """A :class:`HeartsEnv` wrapped as PettingZoo's own ``env()`` factories wrap theirs:
    ``openhearts.env.env(players=5)``.

    PettingZoo's ``AssertOutOfBoundsWrapper`` refuses an action outside the action
    space and its ``OrderEnforcingWrapper`` refuses a step, an observation or the agents
    before ``reset()``.  An illegal card raises
    :class:`~openhearts.IllegalActionError`, as in :class:`HeartsEnv`, unless
    ``illegal_reward`` is given: then PettingZoo's ``TerminateIllegalWrapper`` ends the
    episode with that reward for the agent that made it (and 0 for the others), as
    PettingZoo's card games do.  The other arguments are :class:`HeartsEnv`'s; use
    ``.unwrapped`` (or :class:`HeartsEnv` itself) for the environment inside.
    """
    if illegal_reward is not None and not _finite_number(illegal_reward):
        raise ValueError(f"illegal_reward: a number, not {illegal_reward!r}")
    wrapped: AECEnv = HeartsEnv(**kwargs)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=float(illegal_reward))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _OrderEnforcingWrapper(wrapped)


def _finite_number(value: object) -> bool:
    """Whether ``value`` is a finite real number, numpy's included (``np.float32(1.0)``
    was refused as no number); True and False are not, nor NaN, which made every reward
    after an illegal action NaN."""
    return (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool | np.bool_)
        and math.isfinite(value)
    )


def _one_action(action: object) -> object:
    """A one-element integer array (what vectorised learners hand out: ``array([5])``)
    as its number; anything else as it is, for :meth:`TurnGame.apply` to judge."""
    if (
        isinstance(action, np.ndarray)
        and action.size == 1
        and np.issubdtype(action.dtype, np.integer)
    ):
        return int(action.reshape(()))
    return action


class SingleSeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Hearts for one learning agent at ``seat``; our bots play the other seats.

    :param opponents: a bot level (``"random"``, ``"easy"``, ``"hard"``) for every other
        seat, or one per seat (the learner's own entry is ignored), or built bots.
    :param seat: the learner's seat (0 leads no more often than any other).
    :param illegal_action: ``"raise"`` (an :class:`~openhearts.IllegalActionError` that
        changes nothing) or ``"random"``: a random legal action is taken instead, the
        reward is lowered by ``illegal_penalty`` and ``info["illegal_action"]`` is True
        (for learners that do not use the mask).

    The other parameters are :class:`HeartsEnv`'s.  ``info["action_mask"]`` repeats the
    observation's mask, for libraries that look for it there.
    """

    metadata = {"render_modes": _RENDER_MODES}  # noqa: RUF012 (gymnasium's own name)

    def __init__(
        self,
        rules: Rules | str | None = None,
        *,
        opponents: str | list[str | Bot] = "easy",
        seat: int = 0,
        preset: str | None = None,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        whole_game: bool = False,
        trick_rewards: bool = False,
        illegal_action: str = "raise",
        illegal_penalty: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        if illegal_action not in ("raise", "random"):
            raise ValueError(f"illegal_action: 'raise' or 'random', not {illegal_action!r}")
        # Checked now: a wrong one failed at the first illegal action, half way through it.
        if not _finite_number(illegal_penalty):
            raise ValueError(f"illegal_penalty: a number, not {illegal_penalty!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.rules = _env_rules(rules, preset, players, options)
        players = self.rules.players
        learner = action_number(seat)
        if learner is None or not 0 <= learner < players:
            raise ValueError(f"seat: a seat from 0 to {players - 1}, not {seat!r}")
        seat = learner
        if isinstance(opponents, str):
            opponents = [opponents] * players
        # None (for "the default") said "object of type 'NoneType' has no len()".
        if not isinstance(opponents, list | tuple) or len(opponents) != players:
            raise ValueError(f"opponents: one level or one per seat ({players}), not {opponents}")
        # Level names are resolved now, so that a wrong name fails at once; the learner's
        # own entry is never used.
        opponents = list(opponents)
        for other_seat, other in enumerate(opponents):
            if other_seat == seat:
                continue
            if isinstance(other, str):
                close_bot(make_bot(other))
            elif not all(
                callable(getattr(other, method, None))
                for method in ("choose_pass", "choose_play", "choose_moon")
            ):
                raise ValueError(
                    f"opponents: a level name or a bot (choose_pass, choose_play and "
                    f"choose_moon) for seat {other_seat}, not {other!r}"
                )
        self.seat = seat
        self.opponents = opponents
        self.whole_game = whole_game
        self.render_mode = render_mode
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._rewarder = _Rewarder(trick_rewards)
        self._bots: list[Bot | None] = []
        # Until the first reset there is no episode: a step played on this placeholder
        # said "you do not hold 2C".
        self._started = False
        self.turns = TurnGame(self.rules, 0, whole_game=whole_game)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new deal (or game); the bots are seeded from the same seed."""
        super().reset(seed=_episode_seed(seed))
        game_seed = int(self.np_random.integers(2**63))
        draw = int(self.np_random.integers(2**32))
        self.turns = _new_turns(self.rules, game_seed, draw, self.whole_game)
        # The last episode's bots are done with: an outside program each (cmd:) stayed
        # running, three more every episode.
        self._close_bots()
        self._started = True
        self._bots = [
            None
            if seat == self.seat
            else make_bot(other, f"{game_seed}:{seat}")
            if isinstance(other, str)
            else other
            for seat, other in enumerate(self.opponents)
        ]
        self._rewarder.reset(self.turns)
        # No trick can end before the learner's first card, so this brings no reward.
        self._bots_act()
        return self._observation(), self._info()

    def _bots_act(self) -> float:
        """Let the bots act until the learner is to act or the episode is over."""
        reward = 0.0
        while not self.turns.is_over and self.turns.seat != self.seat:
            seat = self.turns.seat
            assert seat is not None
            bot = self._bots[seat]
            assert bot is not None
            self.turns.apply_action(decide(bot, self.turns.view(seat)))
            reward += self._rewarder(self.turns)[self.seat]
        return reward

    def step(
        self, action: int | np.integer[Any] | npt.NDArray[np.integer[Any]]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until its next turn; an illegal action
        raises :class:`~openhearts.IllegalActionError` and changes nothing."""
        if not self._started:
            raise ValueError("no episode yet: call reset() first")
        if self.turns.is_over:
            raise ValueError("the episode is over: call reset()")
        given = _one_action(action)
        number = action_number(given)
        illegal = number is None or not self.turns.legal_mask() >> number & 1
        if illegal and self.illegal_action == "random":
            number = int(self.np_random.choice(self.turns.legal_actions()))
        # An action that is no number goes as it is: apply says what is wrong with it.
        self.turns.apply(given if number is None else number)
        reward = self._rewarder(self.turns)[self.seat] + self._bots_act()
        if illegal:
            reward -= self.illegal_penalty
        if self.render_mode == "human":
            self.render()
        info = self._info()
        info["illegal_action"] = illegal
        return self._observation(), reward, self.turns.is_over, False, info

    def _observation(self) -> dict[str, Any]:
        return _observe(self.turns, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": _action_mask(self.turns, self.seat)}

    def _close_bots(self) -> None:
        """Close the bots this environment built (the ones it was given are the
        caller's to close)."""
        for seat, bot in enumerate(self._bots):
            if bot is not None and isinstance(self.opponents[seat], str):
                close_bot(bot)
        self._bots = []

    def render(self) -> str | None:
        return _render(self.turns, self.render_mode)

    def close(self) -> None:
        """End the bots' outside programs (``cmd:`` opponents), if any."""
        self._close_bots()
        super().close()
