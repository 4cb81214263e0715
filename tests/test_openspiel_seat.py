"""OpenSpiel's bots at our table: the lockstep pyspiel state, fairness, errors."""

from __future__ import annotations

import random
import sys

import pytest

from openhearts import Game, Rules
from openhearts.arena import ArenaError, BotSpec, Match, play_board
from openhearts.bots import BotError, act, make_bot
from openhearts.bots.openspiel_seat import OpenSpielBot, OpenSpielError, lockstep_state
from openhearts.openspiel import card_to_action
from openhearts.rules import FirstTrick, HeartsBreak

#: Rules OpenSpiel's Hearts can express, one per option it has.
OPENSPIEL_RULES = {
    "standard": Rules.preset("standard"),
    "point card breaks": Rules(hearts_break=HeartsBreak.POINT_CARD),
    "hearts any time": Rules(hearts_break=HeartsBreak.NEVER_RESTRICTED),
    "points on trick 1": Rules(first_trick=FirstTrick.ALLOWED),
    "jack of diamonds": Rules(jack_of_diamonds=True),
    "no passing": Rules(pass_cycle=("hold",)),
}


def test_rules_openspiel_cannot_play_are_refused_clearly() -> None:
    game = Game(Rules(players=3), seed=1)
    with pytest.raises(OpenSpielError, match="cannot play these rules: players"):
        OpenSpielBot(1, kind="random").choose_pass(game.view(0))


def test_a_missing_openspiel_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(OpenSpielError, match=r"pip install .openhearts\[openspiel\]."):
        OpenSpielBot(1)
    with pytest.raises(ArenaError, match=r"pip install .openhearts\[openspiel\]."):
        BotSpec("openspiel-ismcts").build(1)


pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")


def _play_checking_every_decision(rules: Rules, seed: int) -> int:
    """Play one deal with ``easy`` bots; at every decision of every seat rebuild the
    lockstep state (which checks seat, hand and legal cards against our view).  At the
    deal's last card every card is known, so OpenSpiel's score must equal ours.
    Returns the number of decisions checked."""
    game = Game(rules, seed=seed, first_deal=seed)
    bots = [make_bot("easy", s) for s in range(4)]
    rng = random.Random(seed)
    checked = 0
    number = game.deal_number
    while game.deal_number == number and not game.is_over:
        seat = game.to_act()[0]
        view = game.view(seat)
        state = lockstep_state(view, rng)
        checked += 1
        if len(view.tricks) == 12 and len(view.trick) == 3:
            state.apply_action(card_to_action(view.legal.cards()[0]))
            act(game, seat, bots[seat])
            assert state.is_terminal()
            ours = list(game.results[-1].points)
            assert [26 - int(r) for r in state.returns()] == ours, f"seed {seed}"
            break
        act(game, seat, bots[seat])
    return checked


@pytest.mark.parametrize("label", list(OPENSPIEL_RULES))
def test_lockstep_state_agrees_at_every_decision(label: str) -> None:
    rules = OPENSPIEL_RULES[label]
    checked = sum(_play_checking_every_decision(rules, seed) for seed in range(12))
    assert checked >= 12 * 52


def test_hidden_cards_do_not_reach_openspiel() -> None:
    """Different guesses of the hidden hands give the same information state for the
    seat: what ISMCTS samples its worlds from (``ResampleFromInfostate``)."""
    game = Game(seed=11, first_deal=1)
    bots = [make_bot("easy", s) for s in range(4)]
    while len(game.view(0).tricks) < 5:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    seat = game.to_act()[0]
    view = game.view(seat)
    states = [lockstep_state(view, random.Random(world)) for world in range(6)]
    hidden = {str(state) for state in states}
    assert len(hidden) > 1  # the guesses really differ...
    infostates = {state.information_state_string(seat) for state in states}
    assert len(infostates) == 1  # ...but not what the seat's bot decides from


def test_openspiel_bots_play_arena_boards() -> None:
    match = Match(Rules(), ("openspiel-ismcts:sims=50", "openspiel-random", "easy", "easy"),
                  "os", games=False)  # fmt: skip
    record = play_board(match, 1)
    for rotation in record["rotations"]:
        assert sum(rotation["points"][0]) in (26, 78)
    assert set(record["timing"]) >= {"openspiel-ismcts:sims=50", "openspiel-random"}


def test_openspiel_bot_options_are_checked() -> None:
    with pytest.raises(BotError, match="sims"):
        make_bot("openspiel-ismcts", 1, sims=0)
    with pytest.raises(ArenaError, match="no option 'depth'; its options: sims, uct_c"):
        BotSpec("openspiel-ismcts:depth=3").build(1)
    with pytest.raises(ArenaError, match="no option 'kind'"):
        BotSpec("openspiel-ismcts:kind=random").build(1)
    # A word or an endless number where a number is wanted is named, not compared.
    with pytest.raises(ArenaError, match="sims=lots: a number, please"):
        BotSpec("openspiel-ismcts:sims=lots").build(1)
    with pytest.raises(ArenaError, match="seconds=nan: a finite number, please"):
        BotSpec("openspiel-ismcts:seconds=nan").build(1)
    game = Game(Rules.preset("source-000"), seed=1)
    with pytest.raises(OpenSpielError, match="moon"):
        make_bot("openspiel-random", 1).choose_pass(game.view(0))


def test_a_time_limit_too_short_for_one_simulation_still_decides() -> None:
    bot = OpenSpielBot(1, sims=1_000_000, seconds=1e-9)
    game = Game(seed=2)
    bots = [make_bot("easy", s) for s in range(4)]
    while game.phase == "passing":
        seat = game.to_act()[0]
        act(game, seat, bot if seat == 0 else bots[seat])
    while len(game.actions) < 30:
        seat = game.to_act()[0]
        act(game, seat, bot if seat == 0 else bots[seat])
    assert len(game.view(0).hand) < 13
