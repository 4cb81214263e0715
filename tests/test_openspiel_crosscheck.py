"""Cross-check of the engine against OpenSpiel's Hearts (``pyspiel``, game ``"hearts"``).

Random deals are played in OpenSpiel and every action is mirrored into our
:class:`~openhearts.Game`: the dealt hands, the passes and every card played.  At each
play decision the set of legal cards must agree exactly (and the seat to move, and
whether hearts are broken); after every trick the points taken so far must agree; at
the end each seat's points for the deal must agree exactly.  About 16,500 deals per
run (~10 s of CPU): 8,000 with OpenSpiel's default options, 600 for each single option
change, 60 for each of the 32 combinations of the mapped options, 1,000 steered towards
moons (random play rarely shoots one) and hands built to force the rare situations
(every card barred on trick 1, leading from only hearts or only Q♠ and hearts).

The mapping of rules, cards, seats and pass directions is :mod:`openhearts.openspiel`
(public API; see its docstring and OpenSpiel's ``open_spiel/games/hearts/hearts.cc``).
OpenSpiel's hands are dealt card by card (the k-th dealt card goes to player ``k % 4``)
and handed to our game with ``hands=``; OpenSpiel passes one card per action, player 0's
three first; we pass each seat's three cards together once OpenSpiel has them.

Every deal is seeded by ``(option label, deal index)`` and a failure names both; it
replays with ``_crosscheck_deal(pyspiel.load_game("hearts", options),
rules_from_openspiel(options), _RandomPolicy(_rng(label, index)), "where")``.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from openhearts import CardSet, DealResult, Game, Rules
from openhearts.cards import CARDS, HEARTS_MASK, QUEEN_OF_SPADES, SUIT_MASKS, Suit, cards_of
from openhearts.openspiel import (
    OPENSPIEL_DEFAULTS,
    action_to_card,
    actions_to_mask,
    card_to_action,
    load_game,
    pass_outcome,
    rules_from_openspiel,
)
from openhearts.rules import FirstTrick, HeartsBreak

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")

# How many deals each test plays (about 0.3-0.8 ms each, both engines together).
#: The default OpenSpiel game, split in chunks so that pytest-xdist can spread it.
DEFAULT_DEALS = 8000
DEFAULT_CHUNKS = 8
VARIANT_DEALS = 600
COMBO_DEALS = 60
MOON_DEALS = 500
EDGE_DEALS = 40


def _rng(label: str, index: int) -> random.Random:
    return random.Random(f"openspiel-crosscheck:{label}:{index}")


class _RandomPolicy:
    """Uniformly random choices for every chance outcome and decision."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def direction(self, legal: list[int]) -> int:
        return self.rng.choice(legal)

    def deal(self, legal: list[int], index: int) -> int:
        return self.rng.choice(legal)

    def pass_card(self, legal: list[int], seat: int) -> int:
        return self.rng.choice(legal)

    def play(self, legal: list[int], seat: int) -> int:
        return self.rng.choice(legal)


def _crosscheck_deal(
    game_os: Any,
    rules: Rules,
    policy: _RandomPolicy,
    where: str,
    edges: Counter[str] | None = None,
) -> DealResult:
    """Play one deal in OpenSpiel, mirror it into our Game, compare; return our result.

    ``edges``, if given, counts the rare rule situations met (see :func:`_edge_kind`).
    """
    state = game_os.new_initial_state()
    # Our deal number for each pass direction OpenSpiel may draw under these rules.
    numbers = {pass_outcome(rules, k): k for k in reversed(range(len(rules.pass_cycle or ())))}
    # Pass direction: drawn from legal_actions(): chance_outcomes() ignores pass_cards.
    direction = policy.direction([a for a in state.legal_actions() if a in numbers])
    state.apply_action(direction)
    hands = [0, 0, 0, 0]
    for k in range(52):
        card = policy.deal(state.legal_actions(), k)
        hands[k % 4] |= 1 << action_to_card(card)
        state.apply_action(card)
    game = Game(rules, seed=0, hands=[hands], first_deal=numbers[direction])
    assert rules.pass_offset(game.deal_number) == direction, where

    if direction:
        for seat in range(4):
            assert game.phase == "passing", where
            passed = 0
            for _ in range(3):
                assert state.current_player() == seat, where
                legal = state.legal_actions()
                assert actions_to_mask(legal) == int(game.hand(seat)) & ~passed, where
                card = policy.pass_card(legal, seat)
                passed |= 1 << action_to_card(card)
                state.apply_action(card)
            game.pass_cards(seat, CardSet(passed))

    assert game.phase == "playing", where
    held = state.to_struct().hands
    for seat in range(4):
        assert sorted(held[seat]) == sorted(str(c) for c in game.hand(seat)), where
    for number in range(52):
        seat = state.current_player()
        assert game.current_player == seat, f"{where}: card {number}: seat to move"
        legal = state.legal_actions()
        if actions_to_mask(legal) != game.legal_mask():
            pytest.fail(
                f"{where}: card {number}, seat {seat}: OpenSpiel allows "
                f"{sorted(state.action_to_string(seat, a) for a in legal)}, we allow "
                f"{game.legal_plays()} (hand {game.hand(seat)}, trick "
                f"{[str(CARDS[c]) for c in game.deal.trick]}, "
                f"hearts broken {game.deal.hearts_broken})"
            )
        assert state.hearts_broken() == game.deal.hearts_broken, f"{where}: card {number}"
        if edges is not None:
            kind = _edge_kind(game, number)
            if kind:
                edges[kind] += 1
        card = policy.play(legal, seat)
        state.apply_action(card)
        game.play(action_to_card(card), seat=seat)
        if number % 4 == 3 and number < 51:
            live = [int(state.points(p)) for p in range(4)]
            assert live == game.deal.raw_points(), f"{where}: after trick {number // 4 + 1}"

    assert state.is_terminal(), where
    result = game.results[0]
    expected = [int(state.points(p)) for p in range(4)]
    assert [26 - int(r) for r in state.returns()] == expected, where
    assert list(result.points) == expected, (
        f"{where}: points {list(result.points)} but OpenSpiel {expected} "
        f"(shot {result.shot}, taken {list(result.taken_points)})"
    )
    return result


def _edge_kind(game: Game, number: int) -> str | None:
    """Name the rare rule situation of the seat to move, if it is in one."""
    deal = game.deal
    hand = deal.hands[deal.to_move]
    points_only = hand & ~(HEARTS_MASK | 1 << QUEEN_OF_SPADES) == 0
    if 0 < number < 4 and hand & SUIT_MASKS[Suit.CLUBS] == 0 and points_only:
        return "first trick: void in clubs, only hearts/QS"
    if number and number % 4 == 0 and not deal.hearts_broken:
        if hand & ~HEARTS_MASK == 0:
            return "lead, hearts unbroken: only hearts"
        if hand >> QUEEN_OF_SPADES & 1 and points_only and hand & HEARTS_MASK:
            return "lead, hearts unbroken: only QS and hearts"
    return None


def _run(options: Mapping[str, bool], label: str, deals: int) -> None:
    """Cross-check ``deals`` seeded random deals under OpenSpiel ``options``."""
    game_os = pyspiel.load_game("hearts", dict(options))
    rules = rules_from_openspiel(options)
    for index in range(deals):
        policy = _RandomPolicy(_rng(label, index))
        _crosscheck_deal(game_os, rules, policy, f"{label} deal {index}")


def test_openspiel_parameters_are_the_known_ones() -> None:
    """A new or changed OpenSpiel option would need a mapping decision here."""
    assert pyspiel.load_game("hearts").get_parameters() == dict(OPENSPIEL_DEFAULTS)


@pytest.mark.parametrize("chunk", range(DEFAULT_CHUNKS))
def test_default_options(chunk: int) -> None:
    per_chunk = DEFAULT_DEALS // DEFAULT_CHUNKS
    _run({}, f"default-{chunk}", per_chunk)


#: Single option changes from OpenSpiel's defaults (and one pair).
VARIANTS: Mapping[str, Mapping[str, bool]] = {
    "jd_bonus": {"jd_bonus": True},
    "qs_breaks_hearts_false": {"qs_breaks_hearts": False},
    "no_pts_on_first_trick_false": {"no_pts_on_first_trick": False},
    "must_break_hearts_false": {"must_break_hearts": False},
    "pass_cards_false": {"pass_cards": False},
    "jd_bonus_no_first_trick_rule": {"jd_bonus": True, "no_pts_on_first_trick": False},
}


VARIANTS_WITH_DEFAULT: Mapping[str, Mapping[str, bool]] = {"default": {}, **VARIANTS}


@pytest.mark.parametrize("label", list(VARIANTS))
def test_option_variants(label: str) -> None:
    _run(VARIANTS[label], label, VARIANT_DEALS)


_MAPPED = ("pass_cards", "no_pts_on_first_trick", "jd_bonus", "must_break_hearts",
           "qs_breaks_hearts")  # fmt: skip


@pytest.mark.parametrize(
    "values",
    list(itertools.product([False, True], repeat=len(_MAPPED))),
    ids=lambda values: "-".join(f"{n}={int(v)}" for n, v in zip(_MAPPED, values, strict=True)),
)
def test_every_mapped_combination(values: tuple[bool, ...]) -> None:
    options = dict(zip(_MAPPED, values, strict=True))
    _run(options, "combo-" + "".join(str(int(v)) for v in values), COMBO_DEALS)


class _MoonPolicy(_RandomPolicy):
    """Steers deals towards moons so that the moon scoring is exercised often.

    Seat 0 is dealt mostly high cards (OpenSpiel numbers cards rank first, so the
    highest action is the highest card left), passes its lowest and plays its highest
    legal card; the other seats mostly play their lowest.  About one deal in six is a
    moon and many more end a point or two short of one: the boundary worth checking.
    """

    def deal(self, legal: list[int], index: int) -> int:
        if index % 4 == 0 and self.rng.random() < 0.9:
            return max(legal)
        return self.rng.choice(legal)

    def pass_card(self, legal: list[int], seat: int) -> int:
        return min(legal) if seat == 0 else self.rng.choice(legal)

    def play(self, legal: list[int], seat: int) -> int:
        if seat == 0:
            return max(legal)
        if self.rng.random() < 0.9:
            return min(legal)
        return self.rng.choice(legal)


@pytest.mark.parametrize("jd_bonus", [False, True])
def test_moon_deals_agree(jd_bonus: bool) -> None:
    """Deals steered towards moons (random play rarely shoots one) score the same."""
    options = {"jd_bonus": jd_bonus}
    game_os = pyspiel.load_game("hearts", options)
    rules = rules_from_openspiel(options)
    shots = 0
    for index in range(MOON_DEALS):
        policy = _MoonPolicy(_rng(f"moon-{jd_bonus}", index))
        result = _crosscheck_deal(game_os, rules, policy, f"moon jd={jd_bonus} deal {index}")
        shots += result.shot == "moon"
    assert shots >= MOON_DEALS // 15, f"only {shots} moons: the steering no longer produces them"


class _FixedHandPolicy(_RandomPolicy):
    """No pass; one seat is dealt the given cards, the rest is random; random play."""

    def __init__(self, rng: random.Random, seat: int, cards: str) -> None:
        super().__init__(rng)
        fixed = [card_to_action(c) for c in CardSet.parse(cards)]
        rest = [a for a in range(52) if a not in fixed]
        rng.shuffle(rest)
        fixed += [rest.pop() for _ in range(13 - len(fixed))]
        self.hands = [rest[i * 13 : i * 13 + 13] for i in range(3)]
        self.hands.insert(seat, fixed)

    def direction(self, legal: list[int]) -> int:
        return 0

    def deal(self, legal: list[int], index: int) -> int:
        return self.hands[index % 4][index // 4]


#: Hands (one seat's cards) that force the rare rule situations.
SCENARIOS: Mapping[str, tuple[int, str]] = {
    # Void in clubs, every card barred on trick 1: anything may be played, QS too.
    "12 hearts and QS": (1, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS"),
    "13 hearts": (2, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    # Wins spade tricks, then leads from QS + hearts with hearts unbroken.
    "AS KS QS and hearts": (3, "AS KS QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH"),
    "JD QS and hearts": (1, "JD QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
    "AS QS and 6 hearts": (2, "AS QS 2H 3H 4H 5H 6H 7H"),
    # Wins trick 1 with the AC, then leads with hearts unbroken.
    "AC and 12 hearts": (0, "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
    "AC QS and 11 hearts": (3, "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
}


@pytest.mark.parametrize("label", list(VARIANTS_WITH_DEFAULT))
def test_rule_edges(label: str) -> None:
    """Hands that force the rare situations, under each option set; all must occur."""
    options = VARIANTS_WITH_DEFAULT[label]
    game_os = pyspiel.load_game("hearts", dict(options))
    rules = rules_from_openspiel(options)
    edges: Counter[str] = Counter()
    for name, (seat, cards) in SCENARIOS.items():
        for index in range(EDGE_DEALS):
            policy = _FixedHandPolicy(_rng(f"edge-{label}-{name}", index), seat, cards)
            _crosscheck_deal(game_os, rules, policy, f"{label} {name} deal {index}", edges)
    assert edges["first trick: void in clubs, only hearts/QS"] > 0
    if rules.hearts_break is not HeartsBreak.NEVER_RESTRICTED:
        assert edges["lead, hearts unbroken: only hearts"] > 0, edges
        assert edges["lead, hearts unbroken: only QS and hearts"] > 0, edges


def test_card_mapping() -> None:
    """The card conversions agree with OpenSpiel's own card names."""
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(1)
    for action in range(52):
        assert str(action_to_card(action)) == state.action_to_string(-1, action)
        assert card_to_action(action_to_card(action)) == action
    assert sorted(cards_of((1 << 52) - 1)) == sorted(action_to_card(a) for a in range(52))


#: Rules of ours beyond OpenSpiel's own option sets that the mapping claims to express:
#: our pass cycles by deal number (a counter-clockwise left is OpenSpiel's right),
#: a hold-only cycle, no cards passed.
MAPPED_RULES: Mapping[str, Rules] = {
    "standard": Rules.preset("standard"),
    "source-004 unless forced": Rules.preset(
        "source-004", first_trick=FirstTrick.NO_POINTS_UNLESS_FORCED
    ),
    "source-000 others add": Rules.preset("source-000", moon="others_add"),
    "source-003 no sun": Rules.preset("source-003", sun=False, jack_of_diamonds=True),
    "left only": Rules(pass_cycle=("left",)),
    "hold only": Rules(pass_cycle=("hold",)),
    "no cards passed": Rules(cards_passed=0),
}


@pytest.mark.parametrize("label", list(MAPPED_RULES))
def test_mapped_rules_agree(label: str) -> None:
    """Our rules, loaded in OpenSpiel through the public mapping, play identical deals."""
    rules = MAPPED_RULES[label]
    game_os = load_game(rules)
    for index in range(VARIANT_DEALS // 4):
        policy = _RandomPolicy(_rng(f"mapped-{label}", index))
        _crosscheck_deal(game_os, rules, policy, f"{label} deal {index}")


def test_engine_benchmark_runs() -> None:
    """``benchmarks/engine.py`` runs in its tiny mode and reports every figure."""
    root = Path(__file__).resolve().parent.parent
    completed = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "engine.py"), "--seconds", "0.05", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    figures = json.loads(completed.stdout)
    assert {
        "ours_deals_per_s",
        "ours_unchecked_deals_per_s",
        "openspiel_deals_per_s",
        "ours_clones_per_s",
    } <= set(figures)
    for key, value in figures.items():
        assert value > 0, key
