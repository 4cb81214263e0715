"""``expert`` and its parts: passing by simulation, inference over the hidden cards."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import pytest

from openhearts import CardSet, Game, Rules, kernel
from openhearts.bots import BOTS, LEVEL_NOTES, LEVELS, BotError, act, make_bot
from openhearts.bots.expert import EXPERT_MOON_FEAR, ExpertBot
from openhearts.bots.hard import (
    LOOKAHEAD_ALL,
    LOOKAHEAD_MIXED,
    LOOKAHEAD_ROOT,
    NEVER_ALARMED,
    HardBot,
    Plan,
    _evaluate,
    lookahead_card,
    moon_choices,
    playout,
)
from openhearts.bots.inference import MOON_PRIOR, explain, weighted_deals, world_weight
from openhearts.bots.objective import shooter_of
from openhearts.bots.passing import may_shoot, simulate_pass
from openhearts.bots.policy import (
    holds_every_point,
    moon_threat,
    pass_policy,
    pass_ranking,
    play_policy,
)
from openhearts.bots.sampler import constraints, sample
from openhearts.deal import DealState
from openhearts.rules import MoonScoring

MOON_HAND = "AS KS QS AH KH QH JH TH AC KC AD KD 2C"


def _small_expert(seed: object) -> ExpertBot:
    return ExpertBot(seed, budget=8, pool=24, pass_worlds=4)


# Passing by simulation -------------------------------------------------------------


def test_pass_ranking_starts_with_the_rule_of_thumb_pass() -> None:
    hand = CardSet.parse("2C 7C JC QC 4D 7D 9D TD QD AD KS 2H 7H").mask
    ranking = pass_ranking(hand, 3, False)
    assert sorted(ranking) == [c for c in range(52) if hand >> c & 1]
    assert sum(1 << c for c in ranking[:3]) == pass_policy(hand, 3, False)


def test_simulated_pass_is_three_of_our_cards_and_repeatable() -> None:
    for seed in range(6):
        view = Game(seed=seed, first_deal=seed % 3).view(1)
        chosen = simulate_pass(view, "key", moon_choices(view), worlds=6)
        assert CardSet(chosen) <= view.hand and chosen.bit_count() == 3
        assert chosen == simulate_pass(view, "key", moon_choices(view), worlds=6)


def test_no_worlds_means_the_rule_of_thumb_pass() -> None:
    view = Game(seed=4).view(0)
    chosen = simulate_pass(view, "key", moon_choices(view), worlds=0)
    assert chosen == pass_policy(view.hand.mask, 3, False)
    plain = HardBot(1, pass_worlds=0).choose_pass(view)
    assert plain.mask == pass_policy(view.hand.mask, 3, False)


def test_simulation_changes_some_passes() -> None:
    """Passing by simulation is not the rule of thumb under another name."""
    changed = 0
    for seed in range(12):
        view = Game(seed=seed).view(0)
        easy = pass_policy(view.hand.mask, 3, False)
        changed += simulate_pass(view, "k", moon_choices(view), worlds=10) != easy
    assert changed >= 3


def test_a_moon_hand_keeps_its_high_cards_more_often_than_the_rule_of_thumb() -> None:
    """With the moon in view, passing the Q♠ and its guards away is rarely best."""
    hands = [
        MOON_HAND,
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS 3C 4C 5C",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 6C 7C",
        "2H 3H 4H 5H 6H 7H 8H 9H QC JC TC 9C 8C",
    ]
    view = Game(hands=[hands], seed=1).view(0)
    assert may_shoot(view.hand.mask)
    easy = pass_policy(view.hand.mask, 3, False)
    assert CardSet(easy) == CardSet.parse("QS KS AS")
    picks = [simulate_pass(view, key, moon_choices(view), worlds=30) for key in "abcd"]
    assert sum(pick == easy for pick in picks) == 0


def test_hard_passes_by_simulation_by_default() -> None:
    view = Game(seed=7).view(2)
    bot = HardBot(3)
    assert bot.pass_worlds > 0
    expected = simulate_pass(view, "3:0:2", moon_choices(view), bot.pass_worlds)
    assert bot.choose_pass(view).mask == expected
    with pytest.raises(ValueError, match="pass_worlds"):
        HardBot(1, pass_worlds=-1)


# Inference -------------------------------------------------------------------------


def _hold_deal_with_easy_bots(seed: int, cards: int) -> Game:
    game = Game(Rules(pass_cycle=("hold",)), seed=seed)
    bots = [make_bot("easy", s) for s in range(4)]
    for _ in range(cards):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    return game


def test_the_true_deal_explains_easy_play_perfectly() -> None:
    """Against ``easy`` (the model itself), the real hidden hands agree with every play,
    while typical consistent deals do not."""
    lower = 0
    for seed in range(8):
        game = _hold_deal_with_easy_bots(seed, 22)
        seat = game.to_act()[0]
        view = game.view(seat)
        truth = [int(game.hand(s)) if s != seat else 0 for s in range(4)]
        assert world_weight(view, truth) == 1.0
        deals = weighted_deals(view, constraints(view), random.Random(seed), 10, 10).deals
        weights = [world_weight(view, [0 if s == seat else d[s] for s in range(4)]) for d in deals]
        lower += sum(weights) / len(weights) < 1.0
    assert lower >= 6


def test_weighted_deals_fit_the_facts_and_favour_likely_worlds() -> None:
    game = _hold_deal_with_easy_bots(3, 26)
    seat = game.to_act()[0]
    view = game.view(seat)
    knowledge = constraints(view)
    kept = weighted_deals(view, knowledge, random.Random(1), 40, 200).deals
    assert len(kept) == 40
    for deal in kept:
        assert deal[seat] == view.hand.mask
        for other in range(4):
            if other != seat:
                assert deal[other] & ~knowledge.allowed[other] == 0
                assert deal[other].bit_count() == knowledge.sizes[other]

    def mean_weight(deals: Sequence[Sequence[int]]) -> float:
        return sum(world_weight(view, list(d)) for d in deals) / len(deals)

    rng = random.Random(1)
    uniform = [sample(knowledge, rng) for _ in range(40)]
    assert mean_weight(kept) > mean_weight(uniform)


def test_without_resampling_every_pool_deal_is_kept_with_its_weight() -> None:
    game = _hold_deal_with_easy_bots(3, 26)
    seat = game.to_act()[0]
    view = game.view(seat)
    found = weighted_deals(view, constraints(view), random.Random(1), 40, 120, resample=False)
    assert len(found.deals) == len(found.weights) == 120
    assert sum(found.weights) == pytest.approx(120)
    raw = [explain(view, [0 if s == seat else d[s] for s in range(4)]) for d in found.deals]
    ratios = {round(w / e.weight(), 9) for w, e in zip(found.weights, raw, strict=True)}
    assert len(ratios) == 1  # proportional to the explanation's weight
    assert len(set(found.weights)) > 1


def test_the_search_counts_each_world_for_its_weight() -> None:
    """Two worlds weighted 3 and 1 give the totals of the first counted three times."""
    game = _hold_deal_with_easy_bots(5, 18)
    seat = game.to_act()[0]
    view = game.view(seat)
    task, _ = ExpertBot("w", budget=2, pool=2, weighted=True)._task(view)
    deals = task.deals
    assert len(deals) == 2

    def totals(chosen: tuple[int, ...], weights: tuple[float, ...]) -> list[float]:
        rows = _evaluate(
            replace(task, deals=tuple(deals[i] for i in chosen), weights=weights,
                    worlds=range(len(chosen)))
        )  # fmt: skip
        return [value for row in rows for value in row]

    weighted = totals((0, 1), (3.0, 1.0))
    repeated = totals((0, 0, 0, 1), ())
    assert weighted == pytest.approx(repeated)
    assert weighted != pytest.approx(totals((0, 1), ()))


def test_no_play_and_no_pass_weighs_nothing() -> None:
    view = Game(Rules(pass_cycle=("hold",)), seed=2).view(1)
    assert world_weight(view, [0, 0, 0, 0]) == 1.0


# The expert level ------------------------------------------------------------------


def test_expert_is_a_level_every_face_offers() -> None:
    assert "expert" in LEVELS and "expert" in BOTS
    assert set(LEVEL_NOTES) == set(LEVELS)
    assert "longer" in LEVEL_NOTES["expert"]
    assert isinstance(make_bot("expert", 1), ExpertBot)
    with pytest.raises(BotError, match="pool"):
        make_bot("expert", 1, budget=50, pool=10)


def test_expert_plays_whole_deals_legally_and_repeatably() -> None:
    def deal(seed: int) -> tuple[int, ...]:
        game = Game(seed=seed, first_deal=seed)
        bots = [_small_expert(f"e{s}") if s % 2 == 0 else make_bot("easy", s) for s in range(4)]
        number = game.deal_number
        while game.deal_number == number:
            act(game, game.to_act()[0], bots[game.to_act()[0]])
        return game.results[-1].points

    for seed in range(2):
        points = deal(seed)
        assert sum(points) in (26, 78)
        assert deal(seed) == points


def test_hints_come_from_the_expert() -> None:
    from openhearts.session.hints import make_hint

    game = Game(seed=9)
    bots = [make_bot("easy", s) for s in range(4)]
    while game.phase == "passing":
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    for _ in range(5):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    seat = game.to_act()[0]
    view = game.view(seat)
    hint = make_hint(view, seed="s")
    expert = ExpertBot(f"s:{view.deal_number}:{len(view.tricks)}:{len(view.trick)}")
    values = expert.evaluate(view)
    assert [option.card for option in hint.options] == [v.card for v in values]
    assert [option.rank_value for option in hint.options] == [v.margin for v in values]


# The moon ---------------------------------------------------------------------------


def test_holds_every_point() -> None:
    points = Rules().point_mask
    heart, club = CardSet.parse("2H").mask, CardSet.parse("2C").mask
    assert holds_every_point([0, heart | club, club, 0], 1, points)
    assert not holds_every_point([0, heart, heart << 1, 0], 1, points)
    assert not holds_every_point([0, club, 0, 0], 1, points)


def _hard_deal_until(cards: int) -> Game:
    game = Game(seed=0, first_deal=0)
    bots = [make_bot("hard", s) for s in range(4)]
    while len(game.actions) < cards:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    return game


def test_the_inference_suspects_a_player_collecting_every_point() -> None:
    """Seat 3 has taken every point in this deal, winning tricks a careful player would
    have ducked: the inference finds it likelier to shoot than the prior, and more so as
    it goes on."""
    odds = []
    for cards in (19, 27):
        game = _hard_deal_until(cards)
        view = game.view(game.to_act()[0])
        found = weighted_deals(view, constraints(view), random.Random(0), 40, 120)
        odds.append(found.shooters[3])
    assert MOON_PRIOR <= odds[0] < odds[1]
    with pytest.raises(ValueError, match="moon_prior"):
        ExpertBot(1, moon_prior=1.0)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3),
        Rules.preset("source-002", players=5),
        Rules.preset("source-003", players=6, jack_of_diamonds=True),
        Rules.preset("source-000"),
    ],
    ids=["3 players", "source-002 5 players", "source-003 6 players J♦", "source-000"],
)
def test_expert_plays_every_variant(rules: Rules) -> None:
    game = Game(rules, seed=3, first_deal=1)
    bots = [_small_expert(s) if s % 2 == 0 else make_bot("easy", s) for s in range(rules.players)]
    number = game.deal_number
    while game.deal_number == number and not game.is_over:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    assert len(game.results) == 1


# Looking one card ahead in the playouts ---------------------------------------------


def test_a_seat_looking_ahead_does_at_least_as_well_as_the_rules_of_thumb() -> None:
    """In the deal it is played in, the card chosen by looking ahead leaves the seat a
    margin no worse than the rules of thumb's card, and a better one in some positions."""
    better = 0
    for seed in range(30):
        game = _hold_deal_with_easy_bots(seed, 4 + seed % 40)
        state = game.deal.clone()
        legal = state.legal_mask()
        if not legal & (legal - 1):
            continue
        seat = state.to_move
        add_for = (True,) * 4

        def value(card: int, state: DealState = state, seat: int = seat) -> int:
            after = state.clone()
            after.play_card(card)
            points = playout(after, Plan(seat, (True,) * 4))
            return 4 * points[seat] - sum(points)

        threat = moon_threat(state.taken, state.rules.point_mask)
        easy = play_policy(
            seat, state.hands[seat], legal, state.trick, state.leader, 4, state.played,
            threat, False,
        )  # fmt: skip
        chosen = lookahead_card(state, legal, Plan(seat, add_for))
        assert legal >> chosen & 1
        assert value(chosen) <= value(easy)
        better += value(chosen) < value(easy)
    assert better >= 3


def test_expert_looking_ahead_plays_whole_deals_legally_and_repeatably() -> None:
    def deal(seed: int) -> tuple[int, ...]:
        game = Game(seed=seed, first_deal=seed)
        bots = [
            ExpertBot(
                f"e{s}", budget=8, pool=24, pass_worlds=4, lookahead=1 + s // 2, depth=2 - s // 2
            )
            if s % 2 == 0
            else make_bot("hard", s, budget=8, lookahead=s)
            for s in range(4)
        ]
        number = game.deal_number
        while game.deal_number == number:
            act(game, game.to_act()[0], bots[game.to_act()[0]])
        return game.results[-1].points

    points = deal(1)
    assert sum(points) in (26, 78)
    assert deal(1) == points
    with pytest.raises(ValueError, match="lookahead"):
        HardBot(1, lookahead=4)
    with pytest.raises(ValueError, match="depth"):
        ExpertBot(1, depth=4)


def test_mixed_lookahead_alternates_the_two_models_world_by_world() -> None:
    game = _hold_deal_with_easy_bots(6, 14)
    view = game.view(game.to_act()[0])
    task, _ = ExpertBot("m", budget=2, pool=6, lookahead=LOOKAHEAD_MIXED)._task(view)
    assert len(task.deals) == 2

    def totals(lookahead: int, worlds: tuple[int, ...]) -> list[float]:
        chosen = replace(
            task, lookahead=lookahead, deals=tuple(task.deals[w] for w in worlds),
            worlds=range(len(worlds)),
        )  # fmt: skip
        return [value for row in _evaluate(chosen) for value in row]

    root_first = totals(LOOKAHEAD_ROOT, (0,))
    every_second = totals(LOOKAHEAD_ALL, (1,))
    expected = [a + b for a, b in zip(root_first, every_second, strict=True)]
    assert totals(LOOKAHEAD_MIXED, (0, 1)) == pytest.approx(expected)
    # The two models do differ on these worlds, so the order above is tested.
    assert totals(LOOKAHEAD_ALL, (0,)) != pytest.approx(root_first)


def test_passing_may_look_ahead_in_its_playouts() -> None:
    view = Game(seed=2, first_deal=1).view(3)
    key = "p:1:3"  # the bot's seed, the deal number and the seat
    looking = ExpertBot("p", pass_worlds=8, pass_lookahead=2)
    expected = simulate_pass(view, key, moon_choices(view), 8, lookahead=2)
    assert looking.choose_pass(view).mask == expected
    plain = ExpertBot("p", pass_worlds=8).rank_passes(view)
    assert [v.margin for v in looking.rank_passes(view)] != [v.margin for v in plain]
    with pytest.raises(ValueError, match="pass_lookahead"):
        ExpertBot(1, pass_lookahead=3)


# A rival going for the moon in the playouts --------------------------------------------


def test_a_rival_shoots_in_the_playouts() -> None:
    """In this deal (no passing) seat 1, playing by the rules of thumb, ducks and takes
    13 points; as the rival it plays for every point from the first trick and shoots."""
    game = Game(Rules(), seed=13, first_deal=3)
    assert game.hand(1) == CardSet.parse("5C 6C 7C JC QD 2S 9S QS AS 6H TH JH AH")
    state = game.deal_states()[0]
    add_for = moon_choices(game.view(0))
    assert playout(state.clone(), Plan(0, add_for)) == [0, 13, 0, 13]
    assert playout(state.clone(), Plan(0, add_for, rival=1)) == [26, 0, 26, 26]
    # The root's own plan works the same way.
    assert playout(state.clone(), Plan(1, add_for, shoot=True)) == [26, 0, 26, 26]


def test_an_alarm_sees_a_shooter_from_fewer_points() -> None:
    rules = Rules()
    taken = [0, CardSet.parse("2H 3H 4H 5H 6H 7H 8H").mask, 0, 0]
    assert moon_threat(taken, rules.point_mask) == -1
    assert moon_threat(taken, rules.point_mask, 7) == 1
    assert moon_threat(taken, rules.point_mask, 8) == -1


def test_an_eager_player_weighs_the_moon_with_any_hand() -> None:
    """With a hand of low cards hard does not even weigh a moon plan; moon_eager does,
    as long as nobody else has taken a point."""
    game = Game(seed=5, first_deal=3)
    bots = [make_bot("easy", s) for s in range(4)]
    while not (game.phase == "playing" and game.to_act()[0] == 2 and len(game.actions) > 4):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    view = game.view(2)
    assert not HardBot._may_shoot(view)
    assert HardBot(1)._task(view)[0].modes == (False,)
    assert HardBot(1, moon_eager=True)._task(view)[0].modes == (False, True)


def test_a_hopeful_player_sees_no_one_stop_a_moon() -> None:
    """moon_hope lifts the playouts' alarm above every point in the deck: no holder of
    every point is taken for a shooter, so nobody in them stops one."""
    rules = Rules()
    assert HardBot(1)._alarm(rules) == 0
    assert HardBot(1, moon_hope=True)._alarm(rules) == NEVER_ALARMED
    everything = [0, 0, rules.point_mask, 0]
    assert moon_threat(everything, rules.point_mask) == 2
    assert moon_threat(everything, rules.point_mask, NEVER_ALARMED) == -1
    game = _hard_deal_until(27)
    view = game.view(game.to_act()[0])
    hopeful = HardBot("h", budget=40, moon_hope=True).evaluate(view)
    plain = HardBot("h", budget=40).evaluate(view)
    assert [v.margin for v in hopeful] != [v.margin for v in plain]
    assert make_bot("hard", 1, moon_eager=1, moon_hope=1).moon_hope  # type: ignore[attr-defined]


# Fearing the others' moons -------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3},
        {"players": 5},
        {"players": 6, "jack_of_diamonds": True},
        {"jack_of_diamonds": True},
        {"sun": True},
        {"moon": MoonScoring.SHOOTER_SUBTRACTS, "jack_of_diamonds": True},
        {"moon": MoonScoring.SHOOTER_CHOOSES, "sun": True, "jack_of_diamonds": True},
        {"removed": CardSet.parse("QS 2C 2D 2S")},
    ],
    ids=str,
)
def test_the_shooter_is_read_from_the_points(options: dict[str, object]) -> None:
    """Whoever shot the moon or the sun, in deals played out with a seat going for every
    point, is what the points alone say, in every scoring of a shot."""
    rules = Rules(pass_cycle=("hold",), **options)  # type: ignore[arg-type]
    players = rules.players
    shots = 0
    for seed in range(60):
        state = Game(rules, seed=seed).deal_states()[0].clone()
        add_for = tuple(bool(seed >> s & 1) for s in range(players))
        points = playout(state, Plan(seed % players, add_for, shoot=True))
        expected = state.shooter if state.shot is not None else -1
        assert shooter_of(points, rules.points_in_play) == expected
        shots += expected >= 0
    assert shots >= 3


def test_fearing_the_others_moons_adds_to_the_worlds_where_one_happens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 1 of this deal shoots when it goes for the moon from the first card (the
    rival test above): searched on the true hands with seat 1 going for the moon in
    every playout, the fear of its moon adds a whole moon's worth to the objective
    wherever it shoots, and nothing else changes."""
    game = Game(Rules(), seed=13, first_deal=3)
    seat = game.to_act()[0]
    assert seat != 1
    view = game.view(seat)
    hands = tuple(game.hand(s).mask for s in range(4))
    task, _ = ExpertBot("f", budget=8, pool=24, pass_worlds=4, moon_fear=0)._task(view)
    task = replace(task, deals=(hands,) * 4, weights=(), worlds=range(4), lookahead=0)
    assert task.moon_fear == 0
    feared = replace(task, moon_fear=4)
    # Nobody has a point yet: the early fear counts.
    assert ExpertBot("f", moon_fear=4, early_fear=3)._task(view)[0].moon_fear == 3
    monkeypatch.setattr(kernel, "evaluate", partial(kernel.evaluate, rival=1))
    before, after = _evaluate(task), _evaluate(feared)
    moon = 4 * view.rules.points_in_play
    shots = 0
    for row, more in zip(before, after, strict=True):
        assert row[1:] == more[1:]  # own points and worlds are the same
        extra = (more[0] - row[0]) / moon
        assert extra == round(extra) and 0 <= extra <= 4
        shots += round(extra)
    assert shots > 0
    with pytest.raises(ValueError, match="moon_fear"):
        ExpertBot(1, moon_fear=-1)
    with pytest.raises(ValueError, match="early_fear"):
        ExpertBot(1, early_fear=-1)
    default = ExpertBot(1)
    assert default.moon_fear == default.early_fear == EXPERT_MOON_FEAR == 1
    assert ExpertBot(1, moon_fear=0).early_fear == 0
    assert ExpertBot(1, moon_fear=2).early_fear == 2


def test_the_fear_grows_once_another_seat_holds_every_point() -> None:
    game = _hard_deal_until(27)
    seat = game.to_act()[0]
    view = game.view(seat)
    assert seat != 3 and [s for s in range(4) if view.won[s].mask & view.rules.point_mask] == [3]
    assert ExpertBot("f", moon_fear=4, early_fear=1)._task(view)[0].moon_fear == 4
    # The same without the inference's pool (no weighing of worlds).
    assert ExpertBot("f", budget=80, pool=80, moon_fear=4)._task(view)[0].moon_fear == 4


def test_an_option_a_bot_does_not_have_is_refused_with_the_ones_it_has() -> None:
    """A removed or misspelt option gets the list of the bot's options, not Python's
    complaint about a keyword argument."""
    with pytest.raises(BotError, match=r"bot 'expert': no option 'moon_watch'; its options: "):
        make_bot("expert", 1, moon_watch=1)
    with pytest.raises(BotError, match=r"its options: budget, .*moon_fear, early_fear"):
        make_bot("expert", 1, moon_watch=1)
    with pytest.raises(BotError, match="bot 'hard': no option 'pool'"):
        make_bot("hard", 1, pool=240)


@pytest.mark.parametrize(
    ("level", "options", "message"),
    [
        ("expert", {"moon_fear": "x"}, "moon_fear=x: a number"),
        ("expert", {"early_fear": "lots"}, "early_fear=lots: a number"),
        ("hard", {"budget": "many"}, "budget=many: a number"),
        ("expert", {"weighted": "false"}, "weighted=false: 1 (on) or 0 (off)"),
        ("hard", {"moon_eager": "yes"}, "moon_eager=yes: 1 (on) or 0 (off)"),
        ("expert", {"moon_fear": math.nan}, "moon_fear=nan: a finite number"),
        ("hard", {"budget": math.inf}, "budget=inf: a finite number"),
        ("expert", {"moon_prior": -math.inf}, "moon_prior=-inf: a finite number"),
    ],
)
def test_options_given_as_text_where_a_number_is_wanted_get_a_message(
    level: str, options: dict[str, object], message: str
) -> None:
    """Options typed on a command line arrive as text unless they read as numbers; a
    word where a bot wants a number (or 0/1) is refused by name, not taken as true."""
    with pytest.raises(BotError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(level, 1, **options)
    assert make_bot("expert", 1, moon_fear=2, weighted=0).moon_fear == 2  # type: ignore[attr-defined]
