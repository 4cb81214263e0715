"""Pass hints: every candidate pass with the simulated numbers it is ranked by, best
first, the first being what the ``expert`` player passes; exposing the numbers changed
no bot's choice."""

from __future__ import annotations

import pytest

from openhearts import CardSet, Game, Rules
from openhearts.bots.expert import ExpertBot
from openhearts.bots.hard import moon_choices
from openhearts.bots.passing import rank_passes, simulate_pass
from openhearts.session.hints import HintKind, NoHint, make_hint

#: (preset, players, seed, pass chosen before the ranking was exposed), recorded from
#: ``simulate_pass(view, "gold", moon_choices(view), worlds=8)`` for seat 0.
CHOSEN_BEFORE = [
    ("standard", 4, 1, "4C 5C AD"),
    ("standard", 3, 2, "TD KD JH"),
    ("standard", 5, 3, "AC JD KS"),
    ("standard", 6, 4, "JC 9D TD"),
    ("source-000", 4, 5, "KC JD QD"),
    ("source-001", 4, 6, "TC JD QS"),
    ("source-002", 3, 7, "KD AD KS"),
    ("source-003", 6, 8, "5C QC QS"),
    ("source-004", 4, 9, "JC KD KS"),
]

CASES = [(preset, players, seed) for preset, players, seed, _ in CHOSEN_BEFORE]


@pytest.mark.parametrize(("preset", "players", "seed", "chosen"), CHOSEN_BEFORE)
def test_simulated_passes_are_unchanged(preset: str, players: int, seed: int, chosen: str) -> None:
    view = Game(Rules.preset(preset, players=players), seed=seed).view(0)
    mask = simulate_pass(view, "gold", moon_choices(view), worlds=8)
    assert CardSet(mask) == CardSet.parse(chosen)
    ranked = rank_passes(view, "gold", moon_choices(view), worlds=8)
    assert ranked[0].mask == mask


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_the_expert_passes_the_first_ranked_pass(preset: str, players: int, seed: int) -> None:
    game = Game(Rules.preset(preset, players=players), seed=seed)
    for seat in range(players):
        view = game.view(seat)
        bot = ExpertBot(seed, pass_worlds=6)
        ranked = bot.rank_passes(view)
        assert bot.choose_pass(view).mask == ranked[0].mask
        margins = [value.margin for value in ranked]
        assert margins == sorted(margins)
        assert len({value.mask for value in ranked}) == len(ranked)


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_pass_hint_lists_every_candidate_best_first(preset: str, players: int, seed: int) -> None:
    view = Game(Rules.preset(preset, players=players), seed=seed).view(1)
    hint = make_hint(view, seed=seed)
    assert hint.kind == HintKind.PASS and len(hint.options) > 1
    assert hint.best.cards == ExpertBot(f"{seed}").choose_pass(view)
    ranks = [option.rank_value for option in hint.options]
    assert all(rank is not None for rank in ranks)
    assert ranks == sorted(ranks)  # type: ignore[type-var]
    for option in hint.options:
        # A moon or sun shot can make the points one expects negative.
        assert option.points is not None
        assert option.cards <= view.hand and len(option.cards) == view.rules.cards_passed


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_hold_deal_has_no_pass_hint(players: int) -> None:
    rules = Rules.preset("standard", players=players)
    assert rules.pass_cycle is not None
    game = Game(rules, seed=players, first_deal=rules.pass_cycle.index("hold"))
    assert game.view(0).pass_target is None
    for seat in range(players):
        view = game.view(seat)
        if view.is_my_turn:  # the holder of the first lead card
            assert make_hint(view, budget=4).kind == HintKind.PLAY
        else:
            with pytest.raises(NoHint):
                make_hint(view)
        with pytest.raises(ValueError, match="deal with passing"):
            rank_passes(view, "key", moon_choices(view))
