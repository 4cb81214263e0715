"""The PettingZoo and Gymnasium environments (:mod:`openhearts.env`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import CONFIGS, config_id
from openhearts import IllegalActionError, Rules, RulesError

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from openhearts.env import HeartsEnv, SingleSeatEnv, agent_name, env, raw_env

#: What PettingZoo's api_test says of any environment whose observations are dicts with an
#: action mask (its own card-game environments are exempted from these by name).
DICT_OBSERVATION_NOTES = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def checked_api_test(hearts: HeartsEnv) -> None:
    """PettingZoo's api_test; any warning beyond the dict-observation notes fails."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(hearts, num_cycles=200)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_NOTES


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def run_episode(hearts: HeartsEnv, seed: int) -> tuple[dict[str, float], int]:
    """Play an episode with random legal actions; the rewards each agent got, and steps."""
    hearts.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(hearts.possible_agents, 0.0)
    steps = 0
    for agent in hearts.agent_iter():
        observation, reward, terminated, truncated, _ = hearts.last()
        totals[agent] += reward
        if terminated or truncated:
            hearts.step(None)
            continue
        hearts.step(masked_choice(rng, observation["action_mask"]))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config: tuple[str, int]) -> None:
    preset, players = config
    checked_api_test(HeartsEnv(preset=preset, players=players))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"whole_game": True, "options": {"end_score": 30}},
        {"trick_rewards": True, "preset": "source-003", "players": 5},
        {"trick_rewards": True, "whole_game": True, "options": {"end_score": 30}},
    ],
    ids=["whole-game", "trick-rewards", "both"],
)
def test_pettingzoo_api_test_with_options(kwargs: dict[str, Any]) -> None:
    checked_api_test(HeartsEnv(**kwargs))


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3), num_cycles=50)


@pytest.mark.parametrize("trick_rewards", [False, True])
def test_a_deal_rewards_minus_its_points(trick_rewards: bool) -> None:
    hearts = HeartsEnv(preset="source-003", players=4, trick_rewards=trick_rewards)
    for seed in range(5):
        totals, steps = run_episode(hearts, seed)
        result = hearts.turns.game.results[0]
        assert [totals[agent_name(s)] for s in range(4)] == [-p for p in result.points]
        assert steps >= 52


def test_trick_rewards_arrive_before_the_end() -> None:
    hearts = HeartsEnv(trick_rewards=True)
    hearts.reset(seed=4)
    rng = np.random.default_rng(4)
    early = 0
    while not hearts.turns.is_over:
        hearts.step(masked_choice(rng, hearts.observe(hearts.agent_selection)["action_mask"]))
        early += any(hearts.rewards.values()) and not hearts.turns.is_over
    assert early > 0


def test_a_whole_game_runs_to_the_end_score() -> None:
    hearts = HeartsEnv(players=5, whole_game=True, options={"end_score": 40})
    totals, _ = run_episode(hearts, 9)
    game = hearts.turns.game
    assert game.is_over and max(game.scores) >= 40
    assert [totals[agent_name(s)] for s in range(5)] == [-s for s in game.scores]
    assert hearts.agents == []


def test_same_seed_same_deal_and_seed_none_moves_on() -> None:
    hearts = HeartsEnv()
    hearts.reset(seed=3)
    first = hearts.turns.game.hand(0)
    hearts.reset()
    second = hearts.turns.game.hand(0)
    hearts.reset(seed=3)
    assert hearts.turns.game.hand(0) == first != second


@pytest.mark.parametrize("make", [HeartsEnv, env, SingleSeatEnv], ids=["aec", "env", "single"])
def test_a_numpy_integer_seed_is_its_number_and_other_seeds_are_refused(make: Any) -> None:
    """``reset(seed=np.int64(3))``, the seed learning code draws from numpy, raised
    TypeError ("The only supported seed types are: None, int, ..."); a float, a text or
    True were each taken as a seed of their own by one environment and not the other."""
    hearts = make()
    hearts.reset(seed=np.int64(3))
    by_numpy = hearts.unwrapped.turns.game.hand(0)
    hearts.reset(seed=3)
    assert hearts.unwrapped.turns.game.hand(0) == by_numpy
    hearts.reset(seed=np.uint8(3))
    assert hearts.unwrapped.turns.game.hand(0) == by_numpy
    for wrong in (3.0, "3", True, np.bool_(True), [3]):
        with pytest.raises(TypeError, match=re.escape(f"seed: an integer or None, not {wrong!r}")):
            hearts.reset(seed=wrong)


@pytest.mark.parametrize("make", [HeartsEnv, env, SingleSeatEnv], ids=["aec", "env", "single"])
def test_a_negative_seed_is_refused(make: Any) -> None:
    """``reset(seed=-3)`` dealt what ``reset(seed=3)`` deals (``random.Random`` drops the
    sign) in the PettingZoo environment, and gymnasium's own words refused it in the other."""
    hearts = make()
    with pytest.raises(ValueError, match=re.escape("seed: a whole number from 0, not -3")):
        hearts.reset(seed=-3)
    hearts.reset(seed=0)


@pytest.mark.parametrize("method", ["observe", "observation_space", "action_space"])
def test_an_agent_not_at_the_table_is_refused_naming_the_agents(method: str) -> None:
    """``observe("bob")`` said "'bob' is not in list", and the spaces ``KeyError: 'bob'``."""
    for hearts in (HeartsEnv(players=3), env(players=3)):
        hearts.reset(seed=1)
        for wrong in ("bob", "player_3", 0):
            said = f"agent: one of player_0, player_1, player_2, not {wrong!r}"
            with pytest.raises(ValueError, match=re.escape(said)):
                getattr(hearts, method)(wrong)
        assert getattr(hearts, method)("player_2") is not None


def test_an_illegal_action_says_why_and_changes_nothing() -> None:
    hearts = HeartsEnv(options={"pass_cycle": "hold"})
    hearts.reset(seed=1)
    agent = hearts.agent_selection
    mask = hearts.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=r"first trick must be led|do not hold"):
        hearts.step(illegal)
    with pytest.raises(IllegalActionError, match="not an action"):
        hearts.step(99)
    with pytest.raises(ValueError, match="must act"):
        hearts.step(None)
    assert hearts.agent_selection == agent
    assert np.array_equal(hearts.observe(agent)["action_mask"], mask)


def test_only_the_agent_to_act_has_legal_actions() -> None:
    hearts = HeartsEnv(players=6)
    hearts.reset(seed=2)
    for agent in hearts.agents:
        mask = hearts.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == hearts.agent_selection)


def test_bad_construction_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="players: Hearts is played by 3 to 6"):
        HeartsEnv(players=8)
    with pytest.raises(ValueError, match="render_mode"):
        HeartsEnv(render_mode="rgb_array")
    with pytest.raises(ValueError, match="no bot level 'wizard'"):
        SingleSeatEnv(opponents="wizard")
    with pytest.raises(ValueError, match="seat: a seat from 0 to 3"):
        SingleSeatEnv(seat=4)


def test_render_shows_the_table_as_text() -> None:
    hearts = HeartsEnv(render_mode="ansi")
    hearts.reset(seed=1)
    text = hearts.render()
    assert text is not None and "player_3: 13 cards" in text


def test_render_after_a_one_deal_episode_shows_the_finished_deal() -> None:
    """The game underneath has dealt the next deal by then: render showed its 13 cards a
    seat and no points instead of the deal that ended."""
    hearts = HeartsEnv(render_mode="ansi")
    run_episode(hearts, 3)
    points = hearts.turns.game.results[0].points
    text = hearts.render()
    assert text is not None and text.startswith("game_over; to act: None")
    for seat in range(4):
        assert f"player_{seat}: 0 cards, points {points[seat]}" in text
    single = SingleSeatEnv(opponents="random", render_mode="ansi")
    single.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, _ = single.step(single.turns.legal_actions()[0])
    text = single.render()
    assert text is not None and "13 cards" not in text and "player_0: 0 cards" in text


def test_players_among_the_options_is_players_given_once() -> None:
    """A configuration's options may hold the player count: it raised a bare TypeError
    (Rules.preset got multiple values for 'players')."""
    assert HeartsEnv(options={"players": 5}).rules.players == 5
    assert HeartsEnv(players=5, options={"players": 5, "sun": True}).rules.players == 5
    assert SingleSeatEnv(preset="source-003", options={"players": 6}).rules.players == 6
    with pytest.raises(RulesError, match=r"^players: 4 as players= but 5 in options"):
        HeartsEnv(players=4, options={"players": 5})
    with pytest.raises(RulesError, match=r"^players: Hearts is played by 3 to 6"):
        HeartsEnv(options={"players": 0})


def test_gymnasium_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker warns that it cannot check masked actions
        check_env(
            SingleSeatEnv(opponents="random", illegal_action="random"), skip_render_check=True
        )


def test_illegal_actions_can_be_replaced_and_penalised() -> None:
    single = SingleSeatEnv(illegal_action="random", illegal_penalty=5.0)
    observation, _ = single.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, _, _, info = single.step(illegal)
    assert info["illegal_action"] is True and reward == -5.0
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    assert single.step(legal)[4]["illegal_action"] is False
    strict = SingleSeatEnv()
    observation, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="illegal_action: 'raise' or 'random'"):
        SingleSeatEnv(illegal_action="ignore")


@pytest.mark.parametrize(
    ("rules", "seat"), [(Rules(), 0), (Rules.preset("source-002", players=5), 3)]
)
def test_one_seat_against_bots_gets_its_deal_points(rules: Rules, seat: int) -> None:
    single = SingleSeatEnv(rules, opponents="easy", seat=seat)
    rng = np.random.default_rng(seat)
    for episode in range(3):
        observation, info = single.reset(seed=episode)
        total, done, steps = 0.0, False, 0
        while not done:
            assert np.array_equal(info["action_mask"], observation["action_mask"])
            action = masked_choice(rng, observation["action_mask"])
            observation, reward, done, truncated, info = single.step(action)
            total += reward
            steps += 1
            assert not truncated
        assert total == -single.turns.game.results[0].points[seat]
        assert steps >= rules.hand_size
    with pytest.raises(ValueError, match="call reset"):
        single.step(0)


def test_one_seat_against_bots_is_repeatable() -> None:
    def trajectory() -> list[float]:
        single = SingleSeatEnv(opponents=["random", "easy", "random", "easy"], seat=1)
        observation, _ = single.reset(seed=11)
        rewards, done = [], False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, reward, done, _, _ = single.step(action)
            rewards.append(reward)
        return rewards

    assert trajectory() == trajectory()


def test_the_example_agent_trains_and_evaluates() -> None:
    """``examples/linear_agent.py`` runs in a tiny mode and reports both agents' points."""
    script = Path(__file__).resolve().parent.parent / "examples" / "linear_agent.py"
    arguments = ["--episodes", "5", "--eval", "3", "--players", "3", "--json"]
    completed = subprocess.run(
        [sys.executable, str(script), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    figures = json.loads(completed.stdout)
    assert figures["episodes"] == 5 and figures["eval"] == 3
    for key in ("random_points", "trained_points"):
        assert -26 <= figures[key] <= 26 * 2


def test_the_environments_benchmark_runs() -> None:
    """``benchmarks/environments.py`` runs in a tiny mode and reports every figure."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "environments.py"
    completed = subprocess.run(
        [sys.executable, str(script), "--seconds", "0.02", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    figures = json.loads(completed.stdout)
    assert set(figures) == {
        "turn_game_actions_per_s",
        "pettingzoo_steps_per_s",
        "gymnasium_steps_per_s",
        "openspiel_python_actions_per_s",
        "openspiel_cpp_actions_per_s",
    }
    assert all(value is None or value > 0 for value in figures.values())


def test_single_deal_episodes_come_at_every_place_in_the_pass_cycle() -> None:
    """A deal episode is not always the first deal (pass left, seat 0 dealing): each
    reset draws its place in the cycle from the seed, repeatably; a whole game starts
    at its first deal."""
    hearts = HeartsEnv()
    hearts.reset(seed=42)
    seen = []
    for _ in range(40):
        seen.append(hearts.turns.game.deal_number)
        hearts.reset()
    assert {Rules().pass_direction(n) for n in seen} == {"left", "right", "across", "hold"}
    again = HeartsEnv()
    again.reset(seed=42)
    assert again.turns.game.deal_number == seen[0]
    learner = SingleSeatEnv(opponents="random")
    directions = set()
    for episode in range(40):
        learner.reset(seed=episode)
        directions.add(learner.turns.game.pass_direction)
    assert directions == {"left", "right", "across", "hold"}
    whole = HeartsEnv(whole_game=True)
    whole.reset(seed=3)
    assert whole.turns.game.deal_number == 0


def test_an_action_that_is_no_action_number_is_refused_or_replaced() -> None:
    """Negative, fractional and out-of-range actions are illegal actions like any other:
    refused with the reason, or under ``illegal_action="random"`` replaced."""
    strict = SingleSeatEnv(opponents="random")
    strict.reset(seed=1)
    for action in (-1, 3.7, 54, True):
        with pytest.raises(IllegalActionError, match="not an action"):
            strict.step(action)  # type: ignore[arg-type]
    forgiving = SingleSeatEnv(opponents="random", illegal_action="random", illegal_penalty=1.0)
    forgiving.reset(seed=1)
    _, _, _, _, info = forgiving.step(-1)
    assert info["illegal_action"] is True
    legal = np.flatnonzero(forgiving._info()["action_mask"])
    _, _, _, _, info = forgiving.step(np.int64(legal[0]))
    assert info["illegal_action"] is False
    hearts = HeartsEnv()
    hearts.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not an action"):
        hearts.step(3.7)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["raise", "random"])
def test_a_legal_action_is_legal_in_any_integer_type(mode: str) -> None:
    """A 0-d array (what a network's argmax gives) was played as a legal card but
    flagged illegal and penalised, and under "random" replaced by a random card."""
    env = SingleSeatEnv(opponents="random", illegal_action=mode, illegal_penalty=10.0)
    observation, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    for dtype in (np.int16, np.int64):
        _, reward, _, _, info = env.step(np.array(legal, dtype=dtype))
        assert info["illegal_action"] is False and reward > -10
        legal = int(np.flatnonzero(info["action_mask"])[0])
    # A one-element array, as vectorised learners hand out, was refused, and under
    # "random" replaced and penalised.
    _, reward, _, _, info = env.step(np.array([legal]))
    assert info["illegal_action"] is False and reward > -10
    hearts = HeartsEnv()
    hearts.reset(seed=0)
    agent = hearts.agent_selection
    legal = int(np.flatnonzero(hearts.observe(agent)["action_mask"])[0])
    hearts.step(np.array([legal]))  # type: ignore[arg-type]
    assert legal in hearts.turns.selected(int(agent.removeprefix("player_")))  # to pass


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"seat": 1.5}, "seat: a seat from 0 to 3, not 1.5"),
        ({"seat": "1"}, "seat: a seat from 0 to 3, not '1'"),
        ({"seat": True}, "seat: a seat from 0 to 3, not True"),
        ({"opponents": [1, 2, 3, 4]}, "opponents: a level name or a bot"),
        ({"opponents": None}, "opponents: one level or one per seat (4), not None"),
        ({"opponents": 3}, "opponents: one level or one per seat (4), not 3"),
        ({"illegal_action": "random", "illegal_penalty": "x"}, "illegal_penalty: a number"),
    ],
)
def test_a_single_seat_env_refuses_wrong_arguments_at_once(
    options: dict[str, Any], said: str
) -> None:
    """Found by a tester: these were taken, and failed at the first step deep inside (a
    wrong penalty after the step's actions were applied)."""
    with pytest.raises(ValueError, match=re.escape(said)):
        SingleSeatEnv(**options)
    assert SingleSeatEnv(seat=np.int64(2)).seat == 2  # type: ignore[arg-type]


def test_true_and_false_are_replaced_under_random_like_any_illegal_action() -> None:
    """``False`` is no action even where card 0 (the 2♣) is legal: it was played as the
    2♣ under "raise"-like checks and raised under "random" instead of being replaced."""
    env = SingleSeatEnv(opponents="random", illegal_action="random", illegal_penalty=1.0)
    for seed in range(50):
        observation, _ = env.reset(seed=seed)
        if observation["action_mask"][0]:
            break
    _, _, _, _, info = env.step(False)  # type: ignore[arg-type]
    assert info["illegal_action"] is True


def test_the_learners_own_entry_among_the_opponents_is_ignored() -> None:
    learner = SingleSeatEnv(opponents=["me", "easy", "random", "easy"], seat=0)
    learner.reset(seed=2)
    assert learner._bots[0] is None and learner._bots[2] is not None


def test_steps_outside_an_episode_say_to_reset() -> None:
    """Found by a tester: "you do not hold 2C" before the first reset, and PettingZoo's
    "KeyError: 'player_3'" once every agent was done."""
    learner = SingleSeatEnv()
    with pytest.raises(ValueError, match=r"call reset\(\) first"):
        learner.step(0)
    hearts = HeartsEnv()
    run_episode(hearts, seed=3)
    assert hearts.agents == []
    for call in (lambda: hearts.step(0), lambda: hearts.step(None), hearts.last):
        with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
            call()
    hearts.reset(seed=4)
    assert hearts.last()[0]["action_mask"].any()


def test_the_bots_an_env_built_are_closed_and_the_ones_it_was_given_are_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by a tester: each episode against cmd: opponents left three programs
    running, and close() ended none of them."""
    import openhearts.env as env_module
    from openhearts.bots import RandomBot

    closed: list[object] = []

    class Closing(RandomBot):
        def close(self) -> None:
            closed.append(self)

    monkeypatch.setattr(env_module, "make_bot", lambda level, seed=0: Closing(seed))
    given = Closing("given")
    learner = SingleSeatEnv(opponents=["me", "easy", given, "easy"], seat=0)
    # The bots built to check the level names are closed at once.
    assert len(closed) == 2 and given not in closed
    closed.clear()
    learner.reset(seed=1)
    first = [learner._bots[1], learner._bots[3]]
    assert closed == []
    learner.reset(seed=2)
    assert closed == first
    second = [learner._bots[1], learner._bots[3]]
    learner.close()
    assert closed == first + second and given not in closed


def test_env_is_wrapped_as_pettingzoos_classic_environments_are() -> None:
    """``env()`` returned the bare environment: PettingZoo's own ``env()`` factories wrap
    theirs in AssertOutOfBoundsWrapper and OrderEnforcingWrapper, which learning code
    relies on (step or observe before reset fail, agent_iter checks that every agent
    steps), and ``raw_env`` is the unwrapped class."""
    from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

    hearts = env(players=5, trick_rewards=True)
    assert isinstance(hearts, OrderEnforcingWrapper)
    assert isinstance(hearts.env, AssertOutOfBoundsWrapper)
    assert isinstance(hearts.unwrapped, HeartsEnv) and raw_env is HeartsEnv
    assert hearts.unwrapped.rules.players == 5 and str(hearts) == "openhearts_v0"
    with pytest.raises(AttributeError, match="before reset"):
        hearts.agents  # noqa: B018
    with pytest.raises(AssertionError, match="reset"):
        hearts.step(0)
    with pytest.raises(AssertionError, match="reset"):
        hearts.observe("player_0")
    hearts.reset(seed=2)
    with pytest.raises(AssertionError, match="not in action space"):
        hearts.step(54)
    agent = hearts.agent_selection
    illegal = int(np.flatnonzero(hearts.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        hearts.step(illegal)
    totals, steps = run_episode(hearts, seed=3)  # type: ignore[arg-type]
    points = hearts.unwrapped.turns.game.results[0].points
    assert [totals[agent_name(s)] for s in range(5)] == [-p for p in points] and steps > 0
    with pytest.raises(ValueError, match=r"the episode is over: call reset\(\)"):
        hearts.last()


@pytest.mark.parametrize("config", [("standard", 4), ("source-003", 6)], ids=config_id)
def test_pettingzoo_api_test_on_the_wrapped_env(config: tuple[str, int]) -> None:
    preset, players = config
    checked_api_test(env(preset=preset, players=players))  # type: ignore[arg-type]


def test_env_can_end_an_episode_on_an_illegal_action_as_pettingzoo_card_games_do() -> None:
    """``env(illegal_reward=R)`` adds PettingZoo's TerminateIllegalWrapper: an illegal
    action ends the episode with reward ``R`` for the agent that made it and 0 for the
    others, instead of raising."""
    hearts = env(illegal_reward=-26)
    hearts.reset(seed=1)
    agent = hearts.agent_selection
    illegal = int(np.flatnonzero(hearts.observe(agent)["action_mask"] == 0)[0])
    hearts.step(illegal)
    rewards = {}
    for name in hearts.agent_iter():
        _, reward, terminated, truncated, _ = hearts.last()
        assert terminated or truncated
        rewards[name] = reward
        hearts.step(None)
    assert rewards[agent] == -26 and sum(rewards.values()) == -26
    checked_api_test(env(illegal_reward=-26))  # type: ignore[arg-type]
    for wrong in ("x", True, float("nan")):
        with pytest.raises(ValueError, match="illegal_reward: a number"):
            env(illegal_reward=wrong)  # type: ignore[arg-type]
    env(illegal_reward=np.float32(-26))  # type: ignore[arg-type]


def test_an_illegal_penalty_is_any_finite_number() -> None:
    """``illegal_penalty=np.float32(1.0)`` was refused as no number, while NaN was taken
    (and made every reward after an illegal action NaN), unlike ``illegal_reward``."""
    for given in (np.float32(1.5), np.int64(2), 3):
        learner = SingleSeatEnv(illegal_action="random", illegal_penalty=given)  # type: ignore[arg-type]
        assert learner.illegal_penalty == float(given)
    for wrong in (float("nan"), float("inf"), True, np.bool_(True), "1"):
        with pytest.raises(
            ValueError, match=re.escape(f"illegal_penalty: a number, not {wrong!r}")
        ):
            SingleSeatEnv(illegal_action="random", illegal_penalty=wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [HeartsEnv, SingleSeatEnv], ids=["aec", "single-seat"])
def test_options_that_are_no_dict_are_refused_in_words(make: Any) -> None:
    """``options="jack_of_diamonds=true"`` (the OpenSpiel game's form) said "dictionary
    update sequence element #0 has length 1; 2 is required"."""
    for wrong in ("jack_of_diamonds=true", ["jack_of_diamonds"]):
        with pytest.raises(ValueError, match=r"^options: rules options by name in a dict"):
            make(options=wrong)
    assert make(options={"jack_of_diamonds": True}).rules.jack_of_diamonds


@pytest.mark.parametrize("make", [HeartsEnv, SingleSeatEnv], ids=["aec", "single-seat"])
def test_rules_and_preset_options_are_not_silently_dropped(make: Any) -> None:
    """``HeartsEnv(Rules(), players=5, options={"jack_of_diamonds": True})`` played the
    4-player standard game without the J♦, without a word; ``HeartsEnv("source-003")``
    (a preset's name, as ``Game`` takes it) failed with ``AttributeError: 'str' object
    has no attribute 'players'``."""
    with pytest.raises(ValueError, match=r"^rules= are the whole rules: .*players, options"):
        make(Rules(), players=5, options={"jack_of_diamonds": True})
    with pytest.raises(ValueError, match=r"^rules= are the whole rules: .*preset"):
        make(Rules(), preset="source-003")
    assert make(Rules(players=3)).rules == Rules(players=3)
    named = make("source-003", players=6, options={"sun": False})
    assert named.rules == Rules.preset("source-003", players=6, sun=False)
    with pytest.raises(ValueError, match="the preset twice"):
        make("source-003", preset="source-002")
    with pytest.raises(ValueError, match=r"^rules: a Rules object or a preset's name, not 4"):
        make(4)
    with pytest.raises(RulesError, match="no preset named 'nope'"):
        make("nope")
