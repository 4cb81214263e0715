"""The OpenSpiel game ``"openhearts"`` (:mod:`openhearts.openspiel_game`).

OpenSpiel's own consistency checks (``pyspiel.random_sim_test``: legal actions, chance
outcomes, returns, rewards, observation and information-state strings and tensors,
cloning) run on every preset and player count under both reward models.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from conftest import CONFIGS, build_hands, config_id
from openhearts import CardSet, Game, Rules
from openhearts.turns import MOON_OTHERS_ADD, MOON_SHOOTER_SUBTRACTS

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
openspiel_game = pytest.importorskip("openhearts.openspiel_game")


def load(**parameters: Any) -> Any:
    return pyspiel.load_game("openhearts", parameters)


@pytest.mark.parametrize("trick_rewards", [False, True], ids=["deal", "trick"])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_checks(config: tuple[str, int], trick_rewards: bool) -> None:
    preset, players = config
    game = load(preset=preset, players=players, trick_rewards=trick_rewards)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_options_reach_the_rules() -> None:
    game = load(preset="source-003", players=5, options="jack_of_diamonds=true; sun=false")
    rules = game.rules
    assert (rules.players, rules.jack_of_diamonds, rules.sun) == (5, True, False)
    assert game.get_parameters()["options"] == "jack_of_diamonds:true;sun:false"


def test_a_game_with_options_loads_back_from_its_string_and_pickles() -> None:
    """``NAME=VALUE`` inside the game string made OpenSpiel read ``options=sun`` as a
    parameter's name: the game could not be loaded back, pickled or serialized."""
    game = load(
        preset="source-003",
        players=5,
        options='jack_of_diamonds=true;pass_cycle=["left", "hold"];removed=2C 2S',
    )
    assert "pass_cycle:left hold" in str(game)
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and again.rules.pass_cycle == ("left", "hold")
    unpickled = pickle.loads(pickle.dumps(game))
    assert unpickled.rules == game.rules and unpickled.new_initial_state().is_chance_node()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    copied = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(copied) == str(state) and copy.deepcopy(state).history() == state.history()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"preset": "nope"}, "preset: no preset named 'nope'"),
        ({"players": 7}, "players: Hearts is played by 3 to 6 players"),
        ({"preset": "source-001", "players": 3}, "players: source-001 describes"),
        ({"options": "bogus=1"}, "bogus: not an option"),
        ({"options": "moon=sometimes"}, "moon: expected one of"),
        ({"options": "sun=maybe"}, "sun: true or false"),
        ({"options": "players=5"}, "players: give the player count as the game's players"),
    ],
)
def test_bad_parameters_are_a_clear_error(parameters: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(**parameters)


def _deal(state: Any, rules: Rules, hands: Sequence[CardSet], deal_number: int = 0) -> None:
    """Apply the chance actions that deal ``hands`` (and draw ``deal_number``)."""
    assert rules.pass_cycle is not None
    if len(rules.pass_cycle) > 1:
        state.apply_action(deal_number)
    order = [list(hand) for hand in hands]
    for k in range(rules.deck_mask.bit_count()):
        state.apply_action(int(order[k % rules.players][k // rules.players]))


def _play_out(state: Any, choose: Any = None) -> list[tuple[int, int]]:
    moves = []
    while not state.is_terminal():
        actions = state.legal_actions()
        action = choose(state, actions) if choose else actions[0]
        moves.append((state.current_player(), action))
        state.apply_action(action)
    return moves


#: Seat 0 wins every trick whatever the others do: nine top clubs, then the top hearts.
MOON_HAND = "AC KC QC JC TC 9C 8C 7C 6C AH KH QH JH"


@pytest.mark.parametrize(
    ("action", "points"),
    [(MOON_OTHERS_ADD, [0, 26, 26, 26]), (MOON_SHOOTER_SUBTRACTS, [-26, 0, 0, 0])],
)
def test_a_moon_under_shooter_chooses_offers_both_choices(action: int, points: list[int]) -> None:
    game = load(preset="source-000", options="pass_cycle=hold")
    rules = game.rules
    state = game.new_initial_state()
    _deal(state, rules, build_hands(rules, {0: MOON_HAND}))
    while state.legal_actions() != [MOON_OTHERS_ADD, MOON_SHOOTER_SUBTRACTS]:
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0
    assert state.action_to_string(0, action).startswith("moon:")
    state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [-p for p in points]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_returns_are_our_engines_deal_points(config: tuple[str, int]) -> None:
    """A deal played in OpenSpiel scores as the same deal played on our Game."""
    preset, players = config
    game = load(preset=preset, players=players)
    rules = game.rules
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    dealt = [state.dealt_to(seat) for seat in range(players)]
    moves = _play_out(state, lambda _state, actions: int(rng.choice(actions)))
    ours = Game(rules, hands=[dealt], first_deal=state.deal_number)
    passing = ours.deal.pass_offset != 0
    chosen = [0] * players
    for seat, action in moves:
        if passing and ours.phase == "passing":
            chosen[seat] |= 1 << action
            if chosen[seat].bit_count() == rules.cards_passed:
                ours.pass_cards(seat, CardSet(chosen[seat]))
        elif action >= 52:
            ours.choose_moon(seat, others_add=action == MOON_OTHERS_ADD)
        else:
            ours.play(action, seat=seat)
    assert state.returns() == [-float(p) for p in ours.results[0].points]


@pytest.mark.parametrize("config", [("standard", 4), ("source-003", 6)], ids=config_id)
def test_trick_rewards_add_up_to_the_deal_returns(config: tuple[str, int]) -> None:
    preset, players = config
    rng = np.random.default_rng(3)
    for _ in range(5):
        by_trick = load(preset=preset, players=players, trick_rewards=True).new_initial_state()
        by_deal = load(preset=preset, players=players).new_initial_state()
        total = np.zeros(players)
        while not by_trick.is_terminal():
            if by_trick.is_chance_node():
                action = int(rng.choice([a for a, _ in by_trick.chance_outcomes()]))
            else:
                action = int(rng.choice(by_trick.legal_actions()))
            by_trick.apply_action(action)
            by_deal.apply_action(action)
            total += by_trick.rewards()
            assert list(total) == by_trick.returns()
            if not by_deal.is_terminal():
                assert by_deal.returns() == [0.0] * players
        assert by_trick.returns() == by_deal.returns()
        assert by_trick.get_game().get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS


@pytest.mark.parametrize("trick_rewards", [False, True], ids=["deal", "trick"])
def test_no_return_or_reward_is_minus_zero(trick_rewards: bool) -> None:
    """A seat that took no points had a return of ``-0.0`` (and rewards of ``-0.0``),
    printed as such by every loop that shows them."""
    rng = np.random.default_rng(11)
    state = load(trick_rewards=trick_rewards).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        shown = [str(value) for value in state.returns() + state.rewards()]
        assert "-0.0" not in shown, shown


def test_trick_rewards_come_as_each_trick_is_won() -> None:
    rng = np.random.default_rng(5)
    for _ in range(5):
        state = load(trick_rewards=True).new_initial_state()
        early = False
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                continue
            state.apply_action(int(rng.choice(state.legal_actions())))
            if any(state.rewards()) and not state.is_terminal():
                early = True
                # A reward comes with the last card of a trick, to the trick's winner only.
                assert len(state.turns.game.deal.trick) == 0
                assert sum(r != 0 for r in state.rewards()) == 1
        assert early, "no reward before the end of the deal"


@pytest.mark.parametrize("players", [4.7, "x", True])
def test_rules_from_parameters_checks_the_player_count(players: object) -> None:
    """``rules_from_parameters({"players": 4.7})`` gave 4 players, and ``"x"`` said
    "invalid literal for int() with base 10"."""
    from openhearts import RulesError

    with pytest.raises(RulesError, match=f"^players: a whole number from 3 to 6, not {players!r}"):
        openspiel_game.rules_from_parameters({"players": players})
    assert openspiel_game.rules_from_parameters({"players": np.int64(5)}).players == 5
    assert openspiel_game.rules_from_parameters(None) == Rules()


def test_chance_outcomes_after_the_deal_are_refused_in_words() -> None:
    """``chance_outcomes()`` at a player's turn raised a bare AssertionError."""
    state = load(options="pass_cycle=hold").new_initial_state()
    for card in range(52):
        state.apply_action(card)
    assert not state.is_chance_node()
    with pytest.raises(ValueError, match="chance outcomes only at a chance node"):
        state.chance_outcomes()


def test_chance_outcomes_not_offered_are_refused() -> None:
    """A deal number or card chance does not offer was taken, corrupting the deal."""
    state = load().new_initial_state()
    for action in (9, 60):
        with pytest.raises(ValueError, match=f"{action} is not a deal number here"):
            state.apply_action(action)
    state.apply_action(0)
    state.apply_action(5)
    with pytest.raises(ValueError, match="5 is not a card to deal here"):
        state.apply_action(5)
    assert [card for card, _ in state.chance_outcomes()] == [c for c in range(52) if c != 5]


def test_a_finished_deal_prints_its_own_empty_hands() -> None:
    """A finished state printed the next deal's hands, which the game underneath deals."""
    state = load().new_initial_state()
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert str(state).startswith("game_over:  |  |  | ;"), str(state)


def test_observations_hold_what_the_observation_type_asks_for() -> None:
    """A public observation held the player's hand; one of every player's hidden cards
    was silently the player's own."""
    from open_spiel.python.observation import make_observation

    game = load()
    state = game.new_initial_state()
    _deal(state, game.rules, build_hands(game.rules, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}))
    kinds = pyspiel.PrivateInfoType
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=kinds.NONE)
    )
    private = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=False)
    )
    both = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    for observer in (public, private, both):
        observer.set_from(state, 0)
    assert public.dict["hand"].sum() == 0 and both.dict["hand"].sum() == 13
    assert public.dict["in_play"].sum() == 52 and private.dict["in_play"].sum() == 0
    assert private.dict["hand"].sum() == 13
    assert "hand" not in public.string_from(state, 0) and "2C" not in public.string_from(state, 0)
    assert private.string_from(state, 0) == "seat 0; hand 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    assert both.string_from(state, 0) == state.observation_string(0)
    with pytest.raises(ValueError, match="not every player's"):
        make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=False, private_info=kinds.ALL_PLAYERS)
        )
    with pytest.raises(ValueError, match="perfect_recall=True"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True, public_info=False))


def test_information_never_shows_another_seats_hidden_cards() -> None:
    """Two deals differing only in seats 2 and 3's hands look the same to seat 0 and 1."""
    game = load(options="pass_cycle=hold")
    rules = game.rules
    one = build_hands(rules, {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    other = list(one)
    # Swap one diamond for one spade between seats 2 and 3.
    two, three = CardSet(one[2]), CardSet(one[3])
    give, take = two.cards()[0], three.cards()[-1]
    other[2] = CardSet((two.mask & ~(1 << give)) | 1 << take)
    other[3] = CardSet((three.mask & ~(1 << take)) | 1 << give)
    states = []
    for hands in (one, other):
        state = game.new_initial_state()
        _deal(state, rules, hands)
        states.append(state)
    for seat in (0, 1):
        assert states[0].information_state_string(seat) == states[1].information_state_string(seat)
        assert states[0].observation_string(seat) == states[1].observation_string(seat)
        assert states[0].observation_tensor(seat) == states[1].observation_tensor(seat)
    assert states[0].information_state_string(2) != states[1].information_state_string(2)
    assert states[0].observation_tensor(3) != states[1].observation_tensor(3)


def test_passing_choices_stay_private_until_the_exchange() -> None:
    game = load()  # standard: the first deal passes left
    rules = game.rules
    state = game.new_initial_state()
    _deal(state, rules, build_hands(rules, {}), deal_number=0)
    before = state.information_state_string(1)
    state.apply_action(state.legal_actions()[0])  # seat 0 chooses a card
    assert state.current_player() == 0
    assert state.information_state_string(1) == before
    assert state.observation_string(1) != state.observation_string(0)
    assert "passed" in state.information_state_string(0)


def test_openspiel_bots_play_every_player_count() -> None:
    """OpenSpiel's own evaluation loop and bots play the game to the end."""
    evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
    rng = np.random.default_rng(11)
    for preset, players in [("standard", 3), ("source-002", 5), ("source-003", 6)]:
        game = load(preset=preset, players=players)
        bots = [pyspiel.make_uniform_random_bot(seat, seat + 1) for seat in range(players)]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal()
        assert len(returns) == players


def _random_decision_states(game: Any, rng: np.random.Generator, count: int) -> list[Any]:
    """States at player decisions of random deals (passing, playing, late in the deal)."""
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        stop = int(rng.integers(0, game.max_game_length() - 1))
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                continue
            if steps == stop:
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        if not state.is_terminal():
            states.append(state)
    return states


@pytest.mark.parametrize(
    "config", [("standard", 4), ("source-003", 6), ("source-002", 3)], ids=config_id
)
def test_resampled_worlds_look_the_same_to_the_seat(config: tuple[str, int]) -> None:
    """What OpenSpiel's ISMCTS needs: other hands redrawn, the seat's information kept."""
    preset, players = config
    game = load(preset=preset, players=players)
    rng = np.random.default_rng(21)
    changed = 0
    for state in _random_decision_states(game, rng, 25):
        seat = state.current_player()
        world = state.resample_from_infostate(seat, lambda: float(rng.random()))
        assert world.current_player() == seat
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        changed += str(world) != str(state)
    assert changed > 0, "the other hands are never redrawn"


def _before_the_first_lead(game: Any, rng: np.random.Generator) -> Any:
    """A random deal played (passes and all) up to its first lead."""
    state = game.new_initial_state()
    while state.is_chance_node() or state.turns.game.phase == "passing":
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "config", [("standard", 4), ("source-003", 5), ("source-002", 5)], ids=config_id
)
def test_resampled_worlds_keep_the_first_leader_for_every_seat(config: tuple[str, int]) -> None:
    """Before the first lead, who leads is part of what every seat observes, so a world
    redrawn for a seat not to move gives the first lead card to the seat to lead: it was
    dealt anywhere, and another seat led (the observation's leader differed)."""
    preset, players = config
    game = load(preset=preset, players=players)
    rng = np.random.default_rng(7)
    for _ in range(6):
        state = _before_the_first_lead(game, rng)
        leader = state.current_player()
        lead = state.rules.first_lead_card
        assert lead in state.turns.game.hand(leader)
        for seat in range(players):
            for _ in range(4):
                world = state.resample_from_infostate(seat, lambda: float(rng.random()))
                assert world.current_player() == leader
                assert lead in world.turns.game.hand(leader)
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                assert world.information_state_string(seat) == state.information_state_string(seat)


def test_openspiel_ismcts_plays_the_game_on_resampled_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    resample = openspiel_game.OpenHeartsState.resample_from_infostate
    worlds = []

    def counted(state: Any, seat: int, sampler: Any) -> Any:
        world = resample(state, seat, sampler)
        worlds.append(str(world))
        return world

    monkeypatch.setattr(openspiel_game.OpenHeartsState, "resample_from_infostate", counted)
    game = load(players=3, options="pass_cycle=hold")
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(3)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(4),
    )
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    # Its searches ran in worlds drawn by our resampling, not in the true deal alone.
    assert len(set(worlds)) > 1
