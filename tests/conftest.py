"""Shared helpers for the test suite: rule configurations, hand building, random play.

The helpers only use the public engine API, so tests built on them check the engine
the way the faces use it.  Hypothesis runs derandomized (the ``openhearts`` profile,
loaded here) so that a CI run is reproducible; set ``HYPOTHESIS_PROFILE=explore`` to
search with fresh random examples locally.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, settings

import openhearts.record
from openhearts import Card, CardSet, DealState, Game, MoonChoice, Pass, Play, PlayerView, Rules
from openhearts.game import Action
from openhearts.record_schema import schema

_RECORD_VALIDATOR = jsonschema.Draft202012Validator(
    schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)
_write_record = openhearts.record.dumps


def _checked_record(game: Game, extra: Mapping[str, Any] | None = None) -> str:
    """``record.dumps``, checking every record the suite writes against the published
    schema.  Installed here, before any face imports ``dumps`` by name."""
    text = _write_record(game, extra)
    error = jsonschema.exceptions.best_match(_RECORD_VALIDATOR.iter_errors(json.loads(text)))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the record"
        raise AssertionError(
            f"a record does not fit docs/record.schema.json at {where}: {error.message}"
        )
    return text


openhearts.record.dumps = _checked_record

settings.register_profile(
    "openhearts",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "openhearts"))

#: Player counts each preset supports (RULES.md's table).
PRESET_PLAYERS: Mapping[str, tuple[int, ...]] = {
    "standard": (3, 4, 5, 6),
    "source-000": (4,),
    "source-001": (4,),
    "source-002": (3, 4, 5),
    "source-003": (3, 4, 5, 6),
    "source-004": (4,),
}

#: Every (preset, players) pair a game can be played with.
CONFIGS: list[tuple[str, int]] = [
    (name, players) for name, counts in PRESET_PLAYERS.items() for players in counts
]


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test reads or writes the real user's settings, saves or database."""
    if "OPENHEARTS_HOME" not in os.environ:
        monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path_factory.mktemp("home")))


def config_id(config: tuple[str, int]) -> str:
    """A readable pytest id: ``source-003-6p``."""
    return f"{config[0]}-{config[1]}p"


def cards(text: str) -> CardSet:
    """Shorthand for :meth:`CardSet.parse`."""
    return CardSet.parse(text)


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def build_hands(rules: Rules, fixed: Mapping[int, str | CardSet]) -> list[CardSet]:
    """Deal hands where some seats hold given cards (a full hand or only part of one).

    The cards not named are handed out lowest first to the seats in seat order, each
    seat being filled up to the hand size before the next.  A scenario names every card
    whose place matters and leaves the rest to this filler.
    """
    size = rules.hand_size
    hands: list[int] = [0] * rules.players
    used = 0
    for seat, given in fixed.items():
        mask = int(given if isinstance(given, CardSet) else CardSet.parse(given))
        assert mask & used == 0, f"seat {seat}: {CardSet(mask & used)} named twice"
        assert mask & ~rules.deck_mask == 0, f"seat {seat}: {CardSet(mask)} not all in play"
        assert mask.bit_count() <= size, f"seat {seat}: more than {size} cards"
        hands[seat] = mask
        used |= mask
    rest = [c for c in CardSet(rules.deck_mask & ~used)]
    for seat in range(rules.players):
        while hands[seat].bit_count() < size:
            hands[seat] |= 1 << rest.pop(0)
    assert not rest
    return [CardSet(h) for h in hands]


def hold_rules(preset: str = "standard", players: int | None = None, **changes: object) -> Rules:
    """A preset where every deal is a hold hand, so play starts at once."""
    return Rules.preset(preset, players, pass_cycle=("hold",), **changes)


def scripted_game(rules: Rules, fixed: Mapping[int, str | CardSet], **kwargs: object) -> Game:
    """A game whose first deal has the hands :func:`build_hands` makes from ``fixed``."""
    hands = build_hands(rules, fixed)
    return Game(rules, hands=[hands], **kwargs)  # type: ignore[arg-type]


def play_sequence(game: Game, names: str | Iterable[str]) -> None:
    """Play cards in play order, each by whichever seat is to move: ``"2C 3C 4C 5C"``."""
    for name in names.split() if isinstance(names, str) else names:
        game.play(Card.parse(name))


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action for a random seat that may act now."""
    seat = rng.choice(game.to_act())
    if game.phase == "passing":
        hand = list(game.hand(seat))
        return Pass(seat, CardSet(rng.sample(hand, game.rules.cards_passed)))
    if game.phase == "playing":
        legal = list(game.legal_plays())
        return Play(seat, rng.choice(legal))
    return MoonChoice(seat, rng.random() < 0.5)


def play_random(
    game: Game,
    rng: random.Random,
    *,
    on_action: Callable[[Game, Action], None] | None = None,
    max_actions: int | None = None,
) -> list[Action]:
    """Play random legal actions until the game is over (or ``max_actions`` are done).

    ``on_action(game, action)`` runs after each action, for checks.
    """
    done: list[Action] = []
    while not game.is_over and (max_actions is None or len(done) < max_actions):
        action = random_action(game, rng)
        game.apply(action)
        done.append(action)
        if on_action is not None:
            on_action(game, action)
    return done


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything observable about a game, for exact before/after comparisons."""
    return (
        tuple(state.key() for state in game.deal_states()),
        tuple(game.scores),
        tuple(game.results),
        tuple(game.actions),
        game.phase,
        game.names,
        game.deal_number,
        game.dealer,
        game.pass_direction,
        tuple(game.to_act()),
        game.current_player,
        game.legal_mask(),
        tuple(game.winners),
    )


def views(game: Game) -> tuple[object, ...]:
    """Every seat's view (PlayerView compares field by field)."""
    return tuple(game.view(seat) for seat in range(game.rules.players))


def deal_to_end(game: Game, rng: random.Random) -> None:
    """Play random actions until the current deal is over (a new deal or game over)."""
    start = game.deal_number
    results = len(game.results)
    while not game.is_over and game.deal_number == start and len(game.results) == results:
        game.apply(random_action(game, rng))


def seats_holding(game: Game, wanted: Sequence[Card]) -> dict[Card, int]:
    """Which seat holds each wanted card now."""
    found: dict[Card, int] = {}
    for seat in range(game.rules.players):
        for c in wanted:
            if c in game.hand(seat):
                found[c] = seat
    return found


def play_out_deal(game: Game, pick: Callable[[list[Card]], Card] | None = None) -> None:
    """Play the current deal's cards (lowest legal card by default) until it is scored,
    a moon choice is pending, or the game is over.  Passing must be done already."""
    choose = pick or (lambda legal: legal[0])
    start = len(game.results)
    while game.phase == "playing" and len(game.results) == start:
        game.play(choose(list(game.legal_plays())))


#: Four hands of one suit each: seat 0 leads clubs to every trick and takes them all.
SUIT_HANDS: Mapping[int, str] = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    2: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    3: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
}

#: Seat 0 takes every point card but seat 1 takes the J♦ (on a pointless first trick):
#: seat 1 wins the 2♣ with the A♣ while seat 3 must drop the J♦, then leads a spade
#: into seat 0's A♠, and seat 0 runs its clubs.
MOON_WITHOUT_JACK: Mapping[int, str] = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS",
    1: "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    2: "2D 3D 4D 5D 6D 7D 8D 9D TD QD KD AD AH",
    3: "JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
}


def cards_in(value: object) -> Iterator[int]:
    """Every card anywhere inside a view field (cards, card sets, nested containers)."""
    if isinstance(value, Card):
        yield int(value)
    elif isinstance(value, CardSet):
        yield from (int(c) for c in value)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))


def holds_engine_objects(value: object) -> bool:
    if isinstance(value, (Game, DealState)):
        return True
    if isinstance(value, (tuple, list, frozenset, set)):
        return any(holds_engine_objects(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_engine_objects(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def check_view_secrecy(game: Game, seat: int) -> PlayerView:
    """A view shows only the seat's own cards, its passes and the cards played."""
    view = game.view(seat)
    deal = game.deal
    played = 0
    for _leader, trick_cards, _winner in deal.tricks:
        for c in trick_cards:
            played |= 1 << c
    for c in deal.trick:
        played |= 1 << c
    own = deal.hands[seat] | (deal.passes[seat] or 0)
    received = deal.received(seat)
    if received:
        own |= received
    removed = int(game.rules.removed or CardSet())
    allowed = own | played | removed
    assert view.rules == game.rules  # the rules (first lead, removed cards) are public
    for field in dataclasses.fields(view):
        if field.name == "rules":
            continue
        value = getattr(view, field.name)
        leaked = [c for c in cards_in(value) if not allowed >> c & 1]
        assert not leaked, f"{field.name} shows {CardSet(leaked)} to seat {seat}"
    assert not holds_engine_objects(view)
    assert view.hand == game.hand(seat)
    if deal.phase == "passing":
        assert view.received is None
        assert view.hand.mask & ~deal.dealt[seat] == 0
    return view


class FirstCardBot:
    """A plain, predictable player: passes its lowest cards, plays its lowest legal card,
    and, where it shoots the moon and may choose, subtracts."""

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(view.hand.cards()[: view.rules.cards_passed])

    def choose_play(self, view: PlayerView) -> Card:
        return view.legal.cards()[0]

    def choose_moon(self, view: PlayerView) -> bool:
        return False
