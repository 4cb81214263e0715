"""The compiled kernel against its reference, the pure-Python engine: same answers, bit for bit.

Random positions of every preset and player count (and the option combinations no preset
has) are played into with random legal cards, from ordinary deals and from lopsided ones
where one seat holds the high cards (so that moons and suns come up often).  On each, the
kernel and the reference must agree on the legal cards, on every card played to the end
of the deal (winners, cards won, hearts broken, points, shooter), on random playouts
under the same SplitMix64 stream, on ``easy`` playouts, and on ``hard``'s search step
(with nobody, the searching seat or every seat looking ahead in its playouts, one or two
levels deep).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CONFIGS, config_id
from openhearts import Card, CardSet, FirstTrick, HeartsBreak, MoonScoring, Rules, kernel
from openhearts.cards import cards_of
from openhearts.deal import PLAYING, DealState
from openhearts.kernel import Position
from openhearts.prng import SplitMix64

#: Every preset and player count, then option combinations the presets do not cover.
VARIANTS: list[tuple[str, Rules]] = [
    (config_id(config), Rules.preset(config[0], config[1])) for config in CONFIGS
] + [
    (f"jack-{players}p", Rules.preset("source-003", players, jack_of_diamonds=True))
    for players in (3, 4, 5, 6)
] + [
    ("no-moon", Rules(moon=MoonScoring.NONE)),
    ("first-trick-allowed", Rules(first_trick=FirstTrick.ALLOWED)),
    (
        "everything",
        Rules(
            moon=MoonScoring.SHOOTER_CHOOSES, sun=True, jack_of_diamonds=True,
            hearts_break=HeartsBreak.POINT_CARD, first_trick=FirstTrick.NO_POINTS,
        ),
    ),
    (
        "hearts-removed",
        Rules(players=4, removed=CardSet.parse("2H 3H 4H 5H"), first_lead=Card.parse("2D")),
    ),
    ("no-queen-6p", Rules(players=6, removed=CardSet.parse("3C 3D 3S QS"))),
]  # fmt: skip

needs_kernel = pytest.mark.skipif(
    not kernel.COMPILED, reason="the compiled kernel is not built (pure-Python fallback)"
)


def random_position(rules: Rules, rng: random.Random) -> Position:
    """A position in the play phase of a random (sometimes lopsided) deal, with random
    legal cards played."""
    deck = cards_of(rules.deck_mask)
    if rng.random() < 0.3:
        # Lopsided: seat 0 gets the highest ranks, so it often takes every point or trick.
        deck.sort(key=lambda card: -(card % 13) + rng.random() * 4)
        size = rules.hand_size
        hands = [0] * rules.players
        for index, card in enumerate(deck):
            hands[min(index // size, rules.players - 1)] |= 1 << card
    else:
        rng.shuffle(deck)
        hands = [0] * rules.players
        for index, card in enumerate(deck):
            hands[index % rules.players] |= 1 << card
    assert rules.pass_cycle is not None
    state = DealState.new(rules, hands, deal_number=rng.randrange(len(rules.pass_cycle)))
    for seat in range(rules.players):
        if state.phase == PLAYING:
            break
        passed = rng.sample(cards_of(state.hands[seat]), rules.cards_passed)
        state.set_pass(seat, sum(1 << card for card in passed))
    for _ in range(rng.randrange(rules.deck_mask.bit_count())):
        state.play_card(rng.choice(cards_of(state.legal_mask())))
    assert state.phase == PLAYING
    return Position.of(state)


def random_line(rules: Rules, position: Position, rng: random.Random) -> list[int]:
    """Random legal cards from ``position`` to the end of the deal (reference engine)."""
    line: list[int] = []
    while kernel.reference_play(rules, position, line).phase == PLAYING:
        played = kernel.reference_play(rules, position, line)
        line.append(rng.choice(cards_of(kernel.reference_legal_mask(rules, played.position))))
    return line


def check_same(rules: Rules, position: Position, rng: random.Random) -> None:
    """Every kernel answer on ``position`` equals the reference's."""
    assert kernel.legal_mask(rules, position) == kernel.reference_legal_mask(rules, position)
    line = random_line(rules, position, rng)
    for length in sorted({0, 1, rng.randrange(len(line) + 1), len(line)}):
        expected = kernel.reference_play(rules, position, line[:length])
        assert kernel.play(rules, position, line[:length]) == expected, line[:length]
    add_for = [rng.random() < 0.5 for _ in range(rules.players)]
    seed = rng.getrandbits(64)
    for policy in kernel.POLICIES:
        expected_points = kernel.reference_playout(rules, position, policy, seed, 3, add_for)
        assert kernel.playout(rules, position, policy, seed, 3, add_for) == expected_points
    candidates = cards_of(kernel.reference_legal_mask(rules, position))
    root = (position.leader + len(position.trick)) % rules.players
    expected_points = kernel.reference_evaluate(
        rules, position, candidates, root, (False, True), add_for
    )
    assert kernel.evaluate(rules, position, candidates, root, (False, True), add_for) == (
        expected_points
    )
    looks = [(1, 1), (2, 1)]
    if position.played.bit_count() * 2 >= rules.deck_mask.bit_count():
        # Two levels deep only in the second half of a deal: the reference is slow there.
        looks.append((1, 2))
    for lookahead, depth in looks:
        expected_points = kernel.reference_evaluate(
            rules, position, candidates, root, (False, True), add_for, lookahead, depth
        )
        points = kernel.evaluate(
            rules, position, candidates, root, (False, True), add_for, lookahead, depth
        )
        assert points == expected_points, (lookahead, depth)
    # Another seat going for the moon, with and without the seats looking ahead.
    rival = (root + rng.randrange(1, rules.players)) % rules.players
    for lookahead in (0, rng.choice((1, 2))):
        expected_points = kernel.reference_evaluate(
            rules, position, candidates, root, (False, True), add_for, lookahead, 1, rival
        )
        points = kernel.evaluate(
            rules, position, candidates, root, (False, True), add_for, lookahead, 1, rival
        )
        assert points == expected_points, ("rival", rival, lookahead)
    alarm = rng.randrange(1, 14)
    expected_points = kernel.reference_evaluate(
        rules, position, candidates, root, (False, True), add_for, 1, 1, -1, alarm
    )
    points = kernel.evaluate(
        rules, position, candidates, root, (False, True), add_for, 1, 1, -1, alarm
    )
    assert points == expected_points, ("alarm", alarm)


@needs_kernel
@pytest.mark.parametrize(("name", "rules"), VARIANTS, ids=[name for name, _ in VARIANTS])
def test_kernel_equals_reference(name: str, rules: Rules) -> None:
    rng = random.Random(name)
    for _ in range(25):
        check_same(rules, random_position(rules, rng), rng)


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize(("name", "rules"), VARIANTS, ids=[name for name, _ in VARIANTS])
def test_kernel_equals_reference_many(name: str, rules: Rules) -> None:
    rng = random.Random(f"many:{name}")
    for _ in range(500):
        check_same(rules, random_position(rules, rng), rng)


@needs_kernel
@settings(max_examples=150)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_kernel_equals_reference_hypothesis(variant: tuple[str, Rules], seed: int) -> None:
    rng = random.Random(seed)
    check_same(variant[1], random_position(variant[1], rng), rng)


@needs_kernel
def test_moons_and_suns_come_up() -> None:
    """The positions above do reach every kind of scoring, so the comparison covers it."""
    shots: set[str | None] = set()
    for name, rules in VARIANTS:
        if name not in ("source-003-4p", "everything", "source-000-4p"):
            continue
        rng = random.Random(f"shots:{name}")
        for _ in range(120):
            position = random_position(rules, rng)
            played = kernel.play(rules, position, random_line(rules, position, rng))
            shots.add(played.shot)
            if played.phase == "moon_choice":
                shots.add("choice")
    assert shots >= {None, "moon", "sun", "choice"}


@needs_kernel
def test_random_stream_matches_prng() -> None:
    from openhearts import _kernel

    for seed in (0, 1, 2**63, 2**64 - 1):
        stream = SplitMix64(seed)
        assert _kernel.random_u64(seed, 50) == [stream.next() for _ in range(50)]


@pytest.mark.parametrize("implementation", ["kernel", "reference"])
def test_bad_input_is_a_value_error(implementation: str) -> None:
    rules = Rules()
    position = random_position(rules, random.Random(3))
    illegal = next(c for c in range(52) if not kernel.legal_mask(rules, position) >> c & 1)
    if implementation == "kernel":
        play, playout, evaluate = kernel.play, kernel.playout, kernel.evaluate
    else:
        play, playout, evaluate = (
            kernel.reference_play, kernel.reference_playout, kernel.reference_evaluate
        )  # fmt: skip
    with pytest.raises(ValueError, match="may not be played"):
        play(rules, position, [illegal])
    with pytest.raises(ValueError, match="may not be played"):
        evaluate(rules, position, [illegal], 0)
    with pytest.raises(ValueError, match="policy"):
        playout(rules, position, "clever")
    legal = cards_of(kernel.legal_mask(rules, position))
    with pytest.raises(ValueError, match="lookahead"):
        evaluate(rules, position, legal, 0, (False,), None, 3)
    with pytest.raises(ValueError, match="depth"):
        evaluate(rules, position, legal, 0, (False,), None, 1, 0)
    root = (position.leader + len(position.trick)) % rules.players
    for rival in (root, rules.players, -2):
        with pytest.raises(ValueError, match="rival"):
            evaluate(rules, position, legal, root, (False,), None, 0, 1, rival)
    with pytest.raises(ValueError, match="alarm"):
        evaluate(rules, position, legal, root, (False,), None, 0, 1, -1, -1)


@needs_kernel
def test_malformed_positions_are_refused() -> None:
    rules = Rules()
    rng = random.Random(4)
    position = random_position(rules, rng)
    while position.played == 0 or position.hands[0].bit_count() < 3:
        position = random_position(rules, rng)
    gone = position.played & -position.played
    # Hands of a deal just started: seat 0 would not hold the 2C it must lead with.
    start = Position(
        (0x1FFF << 13, 0x1FFF, 0x1FFF << 26, 0x1FFF << 39), 0, (), (0,) * 4, (0,) * 4, 0, False
    )
    with pytest.raises(ValueError, match="first lead"):
        kernel.playout(rules, start)
    for bad in (
        position._replace(hands=position.hands[:3]),
        position._replace(leader=4),
        position._replace(trick=(1, 2, 3, 4)),
        position._replace(hands=(1 << 60, *position.hands[1:])),
        position._replace(hands=(0, *position.hands[1:])),
        position._replace(hands=(position.hands[0] | gone, *position.hands[1:])),
    ):
        with pytest.raises(ValueError):
            kernel.legal_mask(rules, bad)
        with pytest.raises(ValueError):
            kernel.playout(rules, bad, "random", count=3)


@needs_kernel
@pytest.mark.parametrize("position", ["2C", None, [0, 0, 0, 0]])
def test_a_position_that_is_no_tuple_is_a_type_error(position: object) -> None:
    """The compiled kernel raised SystemError ("new style getargs format but argument is
    not a tuple"), which reads as a fault of the kernel, not of the call."""
    rules = Rules()
    calls = (
        lambda: kernel.legal_mask(rules, position),  # type: ignore[arg-type]
        lambda: kernel.play(rules, position, []),  # type: ignore[arg-type]
        lambda: kernel.playout(rules, position),  # type: ignore[arg-type]
        lambda: kernel.evaluate(rules, position, [1], 0),  # type: ignore[arg-type]
    )
    for call in calls:
        with pytest.raises(TypeError, match=r"^position: a kernel\.Position \(a tuple\), not "):
            call()


def test_position_needs_the_play_phase() -> None:
    state = DealState.new(Rules(), [0x1FFF << (13 * seat) for seat in range(4)], deal_number=0)
    assert state.phase == "passing"
    with pytest.raises(ValueError, match="play phase"):
        Position.of(state)


def test_missing_kernel_is_announced_once() -> None:
    """Without the compiled module, the reference answers and one warning says so."""
    code = (
        "import sys, warnings\n"
        "sys.modules['openhearts._kernel'] = None\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    from openhearts import kernel\n"
        "    import openhearts.bots.hard\n"
        "print(kernel.COMPILED, len(caught), str(caught[0].message).splitlines()[0])\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "OPENHEARTS_KERNEL"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert result.stdout.split()[:2] == ["False", "1"]
    assert "compiled kernel is missing" in result.stdout


def test_ci_builds_the_kernel() -> None:
    """Guard for the test above being the only one to run: CI must test the compiled path."""
    assert kernel.COMPILED or not os.environ.get("CI")


@pytest.mark.parametrize(
    ("preset", "players"), [("standard", 4), ("source-000", 4), ("source-003", 3)]
)
def test_hard_ranks_cards_the_same_with_and_without_the_kernel(preset: str, players: int) -> None:
    """Every card's value, not only the choice, is identical: same worlds, same playouts."""
    from openhearts import Game
    from openhearts.bots import act, make_bot
    from openhearts.bots.hard import HardBot

    rules = Rules.preset(preset, players, jack_of_diamonds=preset == "source-003")
    fast = HardBot("same", budget=8)
    reference = HardBot("same", budget=8, compiled=False)
    easy = make_bot("easy", seed=1)
    compared = 0
    for number in range(2):
        game = Game(rules, seed=f"same:{number}", first_deal=number)
        while not game.is_over and game.deal_number == number:
            seat = game.to_act()[0]
            if game.phase == "playing" and seat == number % players:
                view = game.view(seat)
                assert fast.analyse(view) == reference.analyse(view)
                compared += 1
            act(game, seat, fast if seat == number % players else easy)
    assert compared > 5
