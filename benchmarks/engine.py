"""Engine speed: random full deals per second, ours and OpenSpiel's, plus clone and undo rates.

A deal is the whole thing: shuffle and deal, pass (on three deals in four, as both
engines do), 13 tricks of uniformly random legal cards, and the score.  Ours goes
through the public API (:class:`openhearts.Game`, every action checked); OpenSpiel's
``hearts`` game goes through ``pyspiel`` with uniformly random chance outcomes and
actions, in the same run, in alternating rounds; each figure is the best round (as
``timeit`` reports), which keeps the ratio steady on a busy machine.  The same deals
are also played on the unchecked :class:`DealState` hot path the bots' search uses,
which shows what the checking ``Game`` layer costs.

OpenSpiel's own C++ loop is timed too: ``pyspiel.evaluate_bots`` with uniformly random
bots plays a whole deal (chance, pass, play) in one call from Python.

Random playouts (the play phase: from the first lead to the score, from positions dealt
and passed beforehand, one of 64 in turn) compare what search runs:

* the compiled kernel, one call per playout and 1,000 playouts per call
  (:func:`openhearts.kernel.playout`);
* the pure-Python reference (:func:`openhearts.kernel.reference_playout`, ``DealState``);
* OpenSpiel from Python (``clone()`` then random ``apply_action`` to the end) and in its
  C++ loop (``evaluate_bots`` on a clone).

Memory per finished deal in a ``Game``: what a game that has played 200 random deals
holds (``tracemalloc``), less the same game after one deal, divided by the deals between.

Also measured on a position in the middle of a deal (after the pass, 24 cards played):

* clones per second: ours :meth:`DealState.clone` (``game.deal.clone()``, what the bots'
  search copies) against OpenSpiel's ``state.clone()``;
* undo + replay per second: ours through ``Game.undo()``/``Game.play()`` and through the
  unchecked hot path ``DealState.undo_play()``/``play_card()``, four plies back and
  forth so that a trick's completion is undone and replayed too.  OpenSpiel's hearts has
  no undo (``UndoAction`` is not implemented), so its nearest equivalent, a child state
  (clone + apply: ``state.child(action)``), is timed instead.

    python benchmarks/engine.py                 # 2 s per figure
    python benchmarks/engine.py --seconds 0.2   # quick check that it runs
    python benchmarks/engine.py --json          # the figures as JSON

Without OpenSpiel installed, only our figures are printed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import openhearts
from openhearts import Game, Rules, kernel
from openhearts.cards import cards_of
from openhearts.deal import DealState
from openhearts.kernel import Position

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None


def _rate(step: Callable[[], int], seconds: float) -> float:
    """Calls ``step`` (which returns how many units it did) for ``seconds``; units/s."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += step()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


# Our engine -----------------------------------------------------------------------------


class _OurDeals:
    """Plays random deals one after another through the public Game API."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.games = 0
        self.game = self._new_game()

    def _new_game(self) -> Game:
        self.games += 1
        return Game(self.rules, seed=self.rng.getrandbits(32))

    def one_deal(self) -> int:
        game = self.game
        rng = self.rng
        if game.is_over:
            game = self.game = self._new_game()
        done = len(game.results)
        count = self.rules.cards_passed
        for seat in game.to_act() if game.phase == "passing" else ():
            game.pass_cards(seat, rng.sample(cards_of(int(game.hand(seat))), count))
        while len(game.results) == done:
            game.play(rng.choice(cards_of(game.legal_mask())))
        return 1


class _OurUncheckedDeals:
    """The same random deals on the unchecked hot path the bots' search uses:
    :class:`DealState` ``set_pass``/``legal_mask``/``play_card``, with no ``Game`` around
    it.  This is the ceiling for the checked figure: what the engine's own state costs."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.deck = cards_of(rules.deck_mask)
        self.deal_number = 0

    def one_deal(self) -> int:
        rules = self.rules
        rng = self.rng
        # Sorting by random keys, as the engine's own shuffle does.
        deck = sorted(self.deck, key=lambda _card: rng.random())
        players = rules.players
        hands = [0] * players
        for index, card in enumerate(deck):
            hands[index % players] |= 1 << card
        deal = DealState.new(rules, hands, self.deal_number)
        self.deal_number += 1
        if deal.phase == "passing":
            for seat in range(players):
                passed = 0
                for card in rng.sample(cards_of(deal.hands[seat]), rules.cards_passed):
                    passed |= 1 << card
                deal.set_pass(seat, passed)
        while deal.phase == "playing":
            deal.play_card(rng.choice(cards_of(deal.legal_mask())))
        return 1


def _dealt_positions(rules: Rules, seed: int, count: int = 64) -> list[Position]:
    """Positions at the first lead of random deals, after a random pass."""
    rng = random.Random(seed)
    positions = []
    for number in range(count):
        game = Game(rules, seed=rng.getrandbits(32), first_deal=number)
        for seat in game.to_act() if game.phase == "passing" else ():
            game.pass_cards(seat, rng.sample(cards_of(int(game.hand(seat))), rules.cards_passed))
        positions.append(Position.of(game.deal))
    return positions


def _kernel_playouts(rules: Rules, positions: list[Position], batch: int) -> Callable[[], int]:
    state = {"next": 0}

    def step() -> int:
        index = state["next"] = (state["next"] + 1) % len(positions)
        kernel.playout(rules, positions[index], "random", seed=index, count=batch)
        return batch

    return step


def _reference_playouts(rules: Rules, positions: list[Position]) -> Callable[[], int]:
    state = {"next": 0}

    def step() -> int:
        index = state["next"] = (state["next"] + 1) % len(positions)
        kernel.reference_playout(rules, positions[index], "random", seed=index, count=10)
        return 10

    return step


def bytes_per_finished_deal(rules: Rules, seed: int, deals: int = 200) -> float:
    """Memory a Game keeps per finished deal: its size after ``deals`` random deals, less
    its size after one, over the deals between (undo logs, results, action log)."""
    endless = rules.replace(end_score=10**9)
    rng = random.Random(seed)
    tracemalloc.start()
    try:
        game = Game(endless, seed=seed)
        sizes = []
        for target in (1, deals):
            while len(game.results) < target:
                for seat in game.to_act() if game.phase == "passing" else ():
                    hand = cards_of(int(game.hand(seat)))
                    game.pass_cards(seat, rng.sample(hand, rules.cards_passed))
                while game.phase == "playing":
                    game.play(rng.choice(cards_of(game.legal_mask())))
                if game.phase == "moon_choice":
                    game.choose_moon(game.current_player or 0, True)
            sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    return (sizes[1] - sizes[0]) / (deals - 1)


def _mid_deal_game(rules: Rules, seed: int, plies: int = 24) -> Game:
    """A game after the pass with ``plies`` cards played at random."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for seat in game.to_act() if game.phase == "passing" else ():
        game.pass_cards(seat, rng.sample(cards_of(int(game.hand(seat))), rules.cards_passed))
    for _ in range(plies):
        game.play(rng.choice(cards_of(game.legal_mask())))
    return game


def _our_clone(deal: DealState) -> Callable[[], int]:
    def step() -> int:
        for _ in range(100):
            deal.clone()
        return 100

    return step


def _our_undo_replay_game(game: Game, plies: int = 4) -> Callable[[], int]:
    def step() -> int:
        cards = [game.undo() for _ in range(plies)]
        for action in reversed(cards):
            game.apply(action)
        return plies

    return step


def _our_undo_replay_deal(deal: DealState, plies: int = 4) -> Callable[[], int]:
    def step() -> int:
        for _ in range(25):
            cards = [deal.undo_play() for _ in range(plies)]
            for card in reversed(cards):
                deal.play_card(card)
        return 25 * plies

    return step


# OpenSpiel ------------------------------------------------------------------------------


def _openspiel_deal(game: Any, rng: random.Random) -> Callable[[], int]:
    def step() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return step


def _openspiel_cpp_deal(game: Any, seed: int) -> Callable[[], int]:
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    state = {"seed": seed}

    def step() -> int:
        state["seed"] += 1
        pyspiel.evaluate_bots(game.new_initial_state(), bots, state["seed"])
        return 1

    return step


def _openspiel_dealt(game: Any, rng: random.Random, count: int = 64) -> list[Any]:
    """States at the first lead of random deals, after the pass."""
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))  # pass direction
        target = 1 + 52 + (12 if state.history()[0] else 0)
        while len(state.history()) < target:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def _openspiel_playouts(states: list[Any], rng: random.Random) -> Callable[[], int]:
    state_index = {"next": 0}

    def step() -> int:
        index = state_index["next"] = (state_index["next"] + 1) % len(states)
        state = states[index].clone()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return step


def _openspiel_cpp_playouts(game: Any, states: list[Any], seed: int) -> Callable[[], int]:
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    state_index = {"next": 0}

    def step() -> int:
        index = state_index["next"] = (state_index["next"] + 1) % len(states)
        pyspiel.evaluate_bots(states[index].clone(), bots, seed + index)
        return 1

    return step


def _openspiel_mid_deal(game: Any, rng: random.Random, plies: int = 24) -> Any:
    """A state after the pass with ``plies`` cards played at random."""
    state = game.new_initial_state()
    state.apply_action(rng.choice(state.legal_actions()))  # pass direction
    # 52 cards dealt, 12 passed unless it is a no-pass deal, then ``plies`` cards played.
    target = 1 + 52 + (12 if state.history()[0] else 0) + plies
    while len(state.history()) < target:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _openspiel_clone(state: Any) -> Callable[[], int]:
    def step() -> int:
        for _ in range(100):
            state.clone()
        return 100

    return step


def _openspiel_child(state: Any) -> Callable[[], int]:
    action = state.legal_actions()[0]

    def step() -> int:
        for _ in range(100):
            state.child(action)
        return 100

    return step


# Report ---------------------------------------------------------------------------------


#: The figures :func:`measure` returns, in order.
FIGURES = (
    "seconds_per_figure",
    "kernel_compiled",
    "engine_compiled",
    "ours_deals_per_s",
    "openspiel_deals_per_s",
    "openspiel_cpp_deals_per_s",
    "ours_over_openspiel_deals",
    "ours_unchecked_deals_per_s",
    "ours_unchecked_over_openspiel_deals",
    "kernel_playouts_per_s",
    "kernel_batched_playouts_per_s",
    "reference_playouts_per_s",
    "openspiel_playouts_per_s",
    "openspiel_cpp_playouts_per_s",
    "kernel_over_openspiel_playouts",
    "kernel_batched_over_openspiel_playouts",
    "kernel_over_openspiel_cpp_playouts",
    "kernel_batched_over_openspiel_cpp_playouts",
    "kernel_batched_over_openspiel_deals",
    "bytes_per_finished_deal",
    "ours_clones_per_s",
    "openspiel_clones_per_s",
    "ours_undo_replay_per_s",
    "ours_deal_state_undo_replay_per_s",
    "openspiel_child_per_s",
)

#: Ratios :func:`measure` works out: name -> (numerator, denominator).
RATIOS = {
    "ours_over_openspiel_deals": ("ours_deals_per_s", "openspiel_deals_per_s"),
    "ours_unchecked_over_openspiel_deals": ("ours_unchecked_deals_per_s", "openspiel_deals_per_s"),
    "kernel_over_openspiel_playouts": ("kernel_playouts_per_s", "openspiel_playouts_per_s"),
    "kernel_batched_over_openspiel_playouts": (
        "kernel_batched_playouts_per_s",
        "openspiel_playouts_per_s",
    ),
    "kernel_over_openspiel_cpp_playouts": (
        "kernel_playouts_per_s",
        "openspiel_cpp_playouts_per_s",
    ),
    "kernel_batched_over_openspiel_cpp_playouts": (
        "kernel_batched_playouts_per_s",
        "openspiel_cpp_playouts_per_s",
    ),
    "kernel_batched_over_openspiel_deals": (
        "kernel_batched_playouts_per_s",
        "openspiel_deals_per_s",
    ),
}


def _best_rates(steps: dict[str, Callable[[], int]], seconds: float) -> dict[str, float]:
    """Each step's best rate over rounds run in turn, ``seconds`` in all for each step.

    Alternating short rounds and keeping the best (as ``timeit`` does) makes the
    comparison fair on a busy machine: load that comes and goes hits both sides alike.
    """
    rounds = max(1, min(5, int(seconds / 0.2)))
    best = dict.fromkeys(steps, 0.0)
    for _ in range(rounds):
        for name, step in steps.items():
            best[name] = max(best[name], _rate(step, seconds / rounds))
    return best


def measure(seconds: float, seed: int = 1) -> dict[str, Any]:
    """Every figure, as a dict (rates per second; None where OpenSpiel is missing)."""
    rules = Rules.preset("standard")
    figures: dict[str, Any] = dict.fromkeys(FIGURES)
    figures["seconds_per_figure"] = seconds
    figures["kernel_compiled"] = kernel.COMPILED
    figures["engine_compiled"] = openhearts.ENGINE_COMPILED
    game = _mid_deal_game(rules, seed)
    deal = game.deal.clone()
    positions = _dealt_positions(rules, seed)
    deal_steps: dict[str, Callable[[], int]] = {
        "ours_deals_per_s": _OurDeals(rules, seed).one_deal,
        "ours_unchecked_deals_per_s": _OurUncheckedDeals(rules, seed).one_deal,
    }
    playout_steps: dict[str, Callable[[], int]] = {
        "kernel_playouts_per_s": _kernel_playouts(rules, positions, 1),
        "kernel_batched_playouts_per_s": _kernel_playouts(rules, positions, 1000),
        "reference_playouts_per_s": _reference_playouts(rules, positions),
    }
    state_steps: dict[str, Callable[[], int]] = {
        "ours_clones_per_s": _our_clone(game.deal),
        "ours_undo_replay_per_s": _our_undo_replay_game(game),
        "ours_deal_state_undo_replay_per_s": _our_undo_replay_deal(deal),
    }
    if pyspiel is not None:
        game_os = pyspiel.load_game("hearts")
        rng = random.Random(seed)
        deal_steps["openspiel_deals_per_s"] = _openspiel_deal(game_os, rng)
        deal_steps["openspiel_cpp_deals_per_s"] = _openspiel_cpp_deal(game_os, seed)
        dealt = _openspiel_dealt(game_os, rng)
        playout_steps["openspiel_playouts_per_s"] = _openspiel_playouts(dealt, rng)
        playout_steps["openspiel_cpp_playouts_per_s"] = _openspiel_cpp_playouts(
            game_os, dealt, seed
        )
        state = _openspiel_mid_deal(game_os, rng)
        state_steps["openspiel_clones_per_s"] = _openspiel_clone(state)
        state_steps["openspiel_child_per_s"] = _openspiel_child(state)
    figures.update(_best_rates(deal_steps, seconds))
    figures.update(_best_rates(playout_steps, seconds))
    figures.update(_best_rates(state_steps, seconds))
    figures["bytes_per_finished_deal"] = bytes_per_finished_deal(rules, seed)
    for name, (top, bottom) in RATIOS.items():
        if figures[top] is not None and figures[bottom]:
            figures[name] = figures[top] / figures[bottom]
    return figures


def report(figures: dict[str, Any]) -> str:
    """The figures as an aligned table."""

    def row(label: str, key: str, unit: str) -> str:
        value = figures[key]
        shown = "n/a (OpenSpiel not installed)" if value is None else f"{value:>12,.0f} {unit}"
        return f"  {label:<46}{shown}"

    def ratio(label: str, key: str) -> str:
        value = figures[key]
        return f"  {label:<46}" + ("n/a" if value is None else f"{value:>12.2f}x")

    kernel_note = "" if figures["kernel_compiled"] else " (NOT BUILT: pure-Python fallback)"
    engine = (
        "compiled by mypyc"
        if figures["engine_compiled"]
        else "pure Python (not compiled, or OPENHEARTS_KERNEL=python)"
    )
    return "\n".join(
        [
            f"Engine (deal.py, game.py): {engine}",
            "Random full deals (deal, pass, 13 tricks, score), "
            f"{figures['seconds_per_figure']:g} s per figure:",
            row("ours (Game API, every action checked)", "ours_deals_per_s", "deals/s"),
            row("OpenSpiel from Python (pyspiel)", "openspiel_deals_per_s", "deals/s"),
            row("OpenSpiel's C++ loop (evaluate_bots)", "openspiel_cpp_deals_per_s", "deals/s"),
            ratio("ours / OpenSpiel from Python", "ours_over_openspiel_deals"),
            row("ours unchecked (DealState hot path)", "ours_unchecked_deals_per_s", "deals/s"),
            ratio("ours unchecked / OpenSpiel from Python", "ours_unchecked_over_openspiel_deals"),
            f"Random playouts (first lead to score, dealt and passed beforehand){kernel_note}:",
            row("kernel, one call per playout", "kernel_playouts_per_s", "playouts/s"),
            row("kernel, 1,000 playouts per call", "kernel_batched_playouts_per_s", "playouts/s"),
            row("reference playouts (DealState)", "reference_playouts_per_s", "playouts/s"),
            row("OpenSpiel from Python (clone + play)", "openspiel_playouts_per_s", "playouts/s"),
            row(
                "OpenSpiel's C++ loop (evaluate_bots)", "openspiel_cpp_playouts_per_s", "playouts/s"
            ),
            ratio("kernel single / OpenSpiel from Python", "kernel_over_openspiel_playouts"),
            ratio(
                "kernel batched / OpenSpiel from Python", "kernel_batched_over_openspiel_playouts"
            ),
            ratio("kernel single / OpenSpiel C++ loop", "kernel_over_openspiel_cpp_playouts"),
            ratio(
                "kernel batched / OpenSpiel C++ loop", "kernel_batched_over_openspiel_cpp_playouts"
            ),
            ratio("kernel batched / OpenSpiel full deals", "kernel_batched_over_openspiel_deals"),
            "Memory:",
            row("a Game's memory per finished deal", "bytes_per_finished_deal", "bytes"),
            "Mid-deal position (after the pass, 24 cards played):",
            row("ours DealState.clone()", "ours_clones_per_s", "/s"),
            row("OpenSpiel state.clone()", "openspiel_clones_per_s", "/s"),
            row("ours Game.undo() + replay", "ours_undo_replay_per_s", "plies/s"),
            row(
                "ours DealState.undo_play() + play_card()",
                "ours_deal_state_undo_replay_per_s",
                "plies/s",
            ),
            row("OpenSpiel state.child() (it has no undo)", "openspiel_child_per_s", "/s"),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time spent on each figure (default 2)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    figures = measure(args.seconds, args.seed)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
