"""Properties over thousands of random seeded games, checked by an independent referee.

The :class:`Referee` re-implements the rules from RULES.md on plain Python sets, follows
every action of a game from the outside, and checks the engine at each step: the seat to
move, the legal cards (never empty while the game is live), trick winners, each card played
exactly once, points per deal and their totals (conserved), moon/sun/J♦ scoring, game end
and winners.  Undo is checked by taking back random actions (and whole games) and comparing
the complete state.

The plain loops run a fixed set of seeds; the ``slow`` versions run many more (``-m slow``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CONFIGS, check_view_secrecy, config_id, random_action, snapshot
from openhearts import (
    Card,
    CardSet,
    FirstTrick,
    Game,
    HeartsBreak,
    MoonChoice,
    MoonScoring,
    Pass,
    Play,
    Rules,
    Seating,
    conventional_moon_choice,
)
from openhearts.deal import DealState
from openhearts.game import Action

CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
QS = 2 * 13 + 10
JD = 1 * 13 + 9


def suit(card: int) -> int:
    return card // 13


def mask_of(cards: set[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def pass_offset(rules: Rules, deal_number: int) -> int:
    """Seats later in play order that the cards go to, from the direction names."""
    assert rules.pass_cycle is not None
    name = rules.pass_cycle[deal_number % len(rules.pass_cycle)]
    n = rules.players
    if name == "hold" or rules.cards_passed == 0:
        return 0
    if name == "across":
        step = n // 2
    elif name.startswith("left"):
        step = int(name[4:] or 1)
    else:
        assert name.startswith("right")
        step = -int(name[5:] or 1)
    # "Left" is the next player in clockwise play and the previous one counter-clockwise.
    if rules.direction == "counterclockwise":
        step = -step
    return step % n


class Referee:
    """Follows one deal from the outside and knows what the rules allow and score."""

    def __init__(self, rules: Rules, deal_number: int, dealt: list[set[int]]) -> None:
        self.rules = rules
        self.n = rules.players
        self.deal_number = deal_number
        self.deck = {int(c) for c in rules.deck}
        self.dealt = [set(h) for h in dealt]
        self.hands = [set(h) for h in dealt]
        self.offset = pass_offset(rules, deal_number)
        self.passes: list[set[int] | None] = [None] * self.n
        self.tricks: list[tuple[int, list[int], int]] = []
        self.trick: list[int] = []
        self.leader = -1
        self.to_move = -1
        if self.offset == 0:
            self._start_play()

    # Passing ----------------------------------------------------------------------------

    @property
    def passing(self) -> bool:
        return self.offset != 0 and any(p is None for p in self.passes)

    def record_pass(self, seat: int, cards: set[int]) -> None:
        assert self.passing and self.passes[seat] is None
        assert len(cards) == self.rules.cards_passed
        assert cards <= self.hands[seat]
        self.passes[seat] = cards
        self.hands[seat] -= cards
        if not self.passing:
            for giver, given in enumerate(self.passes):
                assert given is not None
                self.hands[(giver + self.offset) % self.n] |= given
            self._start_play()

    def check_hands(self, game: Game) -> None:
        for seat in range(self.n):
            assert game.hand(seat).mask == mask_of(self.hands[seat]), f"seat {seat}'s hand"

    def _start_play(self) -> None:
        lead = int(self.rules.first_lead_card)
        holders = [s for s in range(self.n) if lead in self.hands[s]]
        assert len(holders) == 1
        self.leader = self.to_move = holders[0]

    # Playing ----------------------------------------------------------------------------

    def played_so_far(self) -> set[int]:
        done = {c for _, cards, _ in self.tricks for c in cards}
        return done | set(self.trick)

    def hearts_broken(self) -> bool:
        if self.rules.hearts_break is HeartsBreak.NEVER_RESTRICTED:
            return True
        breakers = {c for c in self.deck if suit(c) == HEARTS}
        if self.rules.hearts_break is HeartsBreak.POINT_CARD:
            breakers.add(QS)
        return bool(self.played_so_far() & breakers)

    def legal(self) -> set[int]:
        hand = self.hands[self.to_move]
        first_trick = not self.tricks
        if not self.trick:
            if first_trick:
                return {int(self.rules.first_lead_card)}
            if self.hearts_broken():
                return set(hand)
            return {c for c in hand if suit(c) != HEARTS} or set(hand)
        led = suit(self.trick[0])
        options = {c for c in hand if suit(c) == led} or set(hand)
        option = self.rules.first_trick
        if not first_trick or option is FirstTrick.ALLOWED:
            return options
        hearts = {c for c in options if suit(c) == HEARTS}
        barred = hearts if option is FirstTrick.NO_HEARTS else hearts | ({QS} & options)
        if options - barred:
            return options - barred
        if option is FirstTrick.NO_POINTS:
            # Every card is barred: a heart (the Q♠ stays barred while a heart is held).
            return hearts or options
        return options

    def record_play(self, seat: int, card: int) -> None:
        assert seat == self.to_move
        assert card in self.legal()
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < self.n:
            self.to_move = (seat + 1) % self.n
            return
        led = suit(self.trick[0])
        best = max(c for c in self.trick if suit(c) == led)
        winner = (self.leader + self.trick.index(best)) % self.n
        self.tricks.append((self.leader, self.trick, winner))
        self.trick = []
        self.leader = self.to_move = winner

    @property
    def over(self) -> bool:
        return len(self.tricks) == self.rules.hand_size

    # Scoring ----------------------------------------------------------------------------

    def taken(self) -> list[set[int]]:
        won: list[set[int]] = [set() for _ in range(self.n)]
        for _, cards, winner in self.tricks:
            won[winner] |= set(cards)
        return won

    def raw_points(self) -> list[int]:
        result = []
        for cards in self.taken():
            value = sum(1 for c in cards if suit(c) == HEARTS) + (13 if QS in cards else 0)
            if self.rules.jack_of_diamonds and JD in cards:
                value -= 10
            result.append(value)
        return result

    def points_in_play(self) -> int:
        hearts = sum(1 for c in self.deck if suit(c) == HEARTS)
        return hearts + (13 if QS in self.deck else 0)

    def shot(self) -> tuple[int | None, str | None]:
        """Who shot what (``sun`` before ``moon``)."""
        if self.rules.sun:
            counts = [sum(1 for t in self.tricks if t[2] == s) for s in range(self.n)]
            if max(counts) == len(self.tricks):
                return counts.index(max(counts)), "sun"
        point_cards = {c for c in self.deck if suit(c) == HEARTS or c == QS}
        if self.rules.moon is not MoonScoring.NONE and point_cards:
            for seat, cards in enumerate(self.taken()):
                if point_cards <= cards:
                    return seat, "moon"
        return None, None

    def needs_choice(self) -> bool:
        _shooter, shot = self.shot()
        return shot == "moon" and self.rules.moon is MoonScoring.SHOOTER_CHOOSES

    def points(self, choice: bool | None) -> list[int]:
        """Points for the deal; ``choice`` is the shooter's (others add) where it chose."""
        shooter, shot = self.shot()
        total = self.points_in_play()
        jack = [-10 if self.rules.jack_of_diamonds and JD in cards else 0 for cards in self.taken()]
        if shot is None:
            return self.raw_points()
        if shot == "sun":
            base = [-total if s == shooter else total for s in range(self.n)]
        else:
            others_add = {
                MoonScoring.OTHERS_ADD: True,
                MoonScoring.SHOOTER_SUBTRACTS: False,
                MoonScoring.SHOOTER_CHOOSES: choice,
            }[self.rules.moon]
            assert others_add is not None
            if others_add:
                base = [0 if s == shooter else total for s in range(self.n)]
            else:
                base = [-total if s == shooter else 0 for s in range(self.n)]
        return [b + j for b, j in zip(base, jack, strict=True)]


class GameChecker:
    """Plays a game with random actions while a :class:`Referee` checks every step."""

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        *,
        undo_rate: float = 0.0,
        view_rate: float = 0.0,
    ) -> None:
        self.game = game
        self.rng = rng
        self.undo_rate = undo_rate
        self.view_rate = view_rate
        self.rules = game.rules
        self.scores = list(game.scores)
        self.referee = self._new_referee()
        self.choice: bool | None = None
        self.deals = 0
        self.undos = 0
        self.moons = 0
        self.suns = 0

    def _new_referee(self) -> Referee:
        game = self.game
        hands = [{int(c) for c in game.hand(s)} for s in range(self.rules.players)]
        referee = Referee(self.rules, game.deal_number, hands)
        # Every card in play dealt once, in equal hands.
        assert sorted(c for h in hands for c in h) == sorted(referee.deck)
        assert {len(h) for h in hands} == {self.rules.hand_size}
        assert game.dealer == (self.rules.first_dealer + game.deal_number) % self.rules.players
        return referee

    def run(self, max_actions: int = 100_000) -> None:
        for _ in range(max_actions):
            if self.game.is_over:
                break
            self.step()
        self.check_end()

    def check_live(self) -> None:
        game, referee = self.game, self.referee
        assert not game.is_over
        if referee.passing:
            assert game.phase == "passing"
            waiting = [s for s in range(referee.n) if referee.passes[s] is None]
            assert game.to_act() == waiting
            assert game.legal_plays() == CardSet()
        elif referee.over:
            assert game.phase == "moon_choice"
            assert referee.needs_choice()
            shooter, _ = referee.shot()
            assert game.to_act() == [shooter] and game.current_player == shooter
        else:
            assert game.phase == "playing"
            assert game.current_player == referee.to_move
            assert game.to_act() == [referee.to_move]
            expected = referee.legal()
            assert expected, "the referee always finds a legal card"
            legal = game.legal_plays()
            assert {int(c) for c in legal} == expected, (
                f"deal {game.deal_number} seat {referee.to_move}: engine {legal}, "
                f"rules {CardSet(expected)}; trick {CardSet(referee.trick)}"
            )
            assert game.legal_mask() == legal.mask
            assert game.hand(referee.to_move).mask == mask_of(referee.hands[referee.to_move])

    def step(self) -> None:
        game = self.game
        self.check_live()
        if self.view_rate and self.rng.random() < self.view_rate:
            for seat in range(self.rules.players):
                check_view_secrecy(game, seat)
                self.check_view(seat)
        action = random_action(game, self.rng)
        if self.undo_rate and self.rng.random() < self.undo_rate:
            self.check_undo(action)
        self.apply(action)

    def check_view(self, seat: int) -> None:
        """Every field of a seat's view holds what the referee says the seat knows."""
        game, ref, n = self.game, self.referee, self.rules.players
        view = game.view(seat)
        passing, hold = ref.passing, ref.offset == 0
        assert (view.seat, view.deal_number, view.names) == (seat, ref.deal_number, game.names)
        assert view.dealer == (self.rules.first_dealer + ref.deal_number) % n
        assert view.phase == game.phase and view.passing_done is not passing
        assert view.hand.mask == mask_of(ref.hands[seat])
        own = ref.passes[seat]
        assert view.passed == (None if hold or own is None else CardSet(own))
        source = (seat - ref.offset) % n
        got = ref.passes[source]
        assert view.received == (None if hold or passing or got is None else CardSet(got))
        assert view.pass_target == (None if hold else (seat + ref.offset) % n)
        assert view.pass_source == (None if hold else source)
        set_aside = [len(p or ()) if passing else 0 for p in ref.passes]
        sizes = tuple(len(h) + a for h, a in zip(ref.hands, set_aside, strict=True))
        assert view.hand_sizes == sizes
        playing = not passing and not ref.over
        if ref.over:
            assert view.to_move == ref.shot()[0], "the shooter is to choose"
        else:
            assert view.to_move == (ref.to_move if not passing else None)
        assert view.leader == (ref.leader if not passing else None)
        if playing and ref.to_move == seat:
            assert view.legal.mask == mask_of(ref.legal())
        else:
            assert view.legal == CardSet()
        assert [(s, int(c)) for s, c in view.trick] == [
            ((ref.leader + i) % n, c) for i, c in enumerate(ref.trick)
        ]
        assert [(t.leader, [int(c) for c in t.cards], t.winner) for t in view.tricks] == [
            (leader, cards, winner) for leader, cards, winner in ref.tricks
        ]
        assert [w.mask for w in view.won] == [mask_of(t) for t in ref.taken()]
        assert list(view.points_taken) == ref.raw_points()
        assert view.hearts_broken is (
            ref.hearts_broken()
            if not passing
            else (self.rules.hearts_break is HeartsBreak.NEVER_RESTRICTED)
        )
        voids: list[set[int]] = [set() for _ in range(n)]
        for leader, cards, _winner in [*ref.tricks, (ref.leader, ref.trick, -1)]:
            for index, c in enumerate(cards[1:], start=1):
                if suit(c) != suit(cards[0]):
                    voids[(leader + index) % n].add(suit(cards[0]))
        assert [set(v) for v in view.voids] == voids
        assert view.scores == tuple(self.scores)
        assert view.deal_points == tuple(r.points for r in game.results)

    def check_undo(self, action: Action) -> None:
        game = self.game
        before = snapshot(game)
        seen = [game.view(s) for s in range(self.rules.players)]
        game.apply(action)
        assert game.undo() == action
        assert snapshot(game) == before
        assert [game.view(s) for s in range(self.rules.players)] == seen
        self.undos += 1

    def apply(self, action: Action) -> None:
        game, referee = self.game, self.referee
        results = len(game.results)
        game.apply(action)
        if isinstance(action, Pass):
            referee.record_pass(action.seat, {int(c) for c in action.cards})
            referee.check_hands(game)
        elif isinstance(action, Play):
            referee.record_play(action.seat, int(action.card))
        else:
            assert isinstance(action, MoonChoice)
            shooter, _ = referee.shot()
            assert action.seat == shooter
            self.choice = action.others_add
        if len(game.results) > results:
            assert len(game.results) == results + 1
            self.check_deal(game.results[-1])
            if not game.is_over:
                assert game.deal_number == referee.deal_number + 1
                self.referee = self._new_referee()
                self.choice = None
        else:
            assert game.deal_number == referee.deal_number

    def check_deal(self, result: Any) -> None:
        referee, rules = self.referee, self.rules
        assert referee.over
        assert result.number == referee.deal_number
        assert result.dealer == (rules.first_dealer + referee.deal_number) % rules.players
        assert [{int(c) for c in h} for h in result.dealt] == referee.dealt
        expected_passes = [p or set() for p in referee.passes]
        assert [{int(c) for c in p} for p in result.passes] == expected_passes
        if referee.offset == 0:
            assert result.pass_direction == "hold"
        # Each card in play played exactly once, one card per seat per trick.
        played = [int(c) for t in result.tricks for c in t.cards]
        assert len(played) == len(set(played)) == len(referee.deck)
        assert set(played) == referee.deck
        assert [(t.leader, [int(c) for c in t.cards], t.winner) for t in result.tricks] == [
            (leader, cards, winner) for leader, cards, winner in referee.tricks
        ]
        for index, trick in enumerate(result.tricks[1:], start=1):
            assert trick.leader == result.tricks[index - 1].winner
        # Points: taken points conserved, then the moon/sun/J♦ rules.
        raw = referee.raw_points()
        assert list(result.taken_points) == raw
        jack_in_play = rules.jack_of_diamonds and JD in referee.deck
        assert sum(raw) == referee.points_in_play() - (10 if jack_in_play else 0)
        shooter, shot = referee.shot()
        assert (result.shooter, result.shot) == (shooter, shot)
        if referee.needs_choice():
            assert self.choice is not None
            assert result.moon_choice == ("add" if self.choice else "subtract")
        else:
            assert result.moon_choice is None
        expected = referee.points(self.choice)
        assert list(result.points) == expected
        total = referee.points_in_play()
        jack = -10 if jack_in_play else 0
        conserved = {
            None: total + jack,
            "sun": (rules.players - 2) * total + jack,
        }
        if shot == "moon":
            adds = result.moon_choice == "add" or rules.moon is MoonScoring.OTHERS_ADD
            conserved["moon"] = ((rules.players - 1) * total if adds else -total) + jack
        assert sum(result.points) == conserved[shot]
        self.moons += shot == "moon"
        self.suns += shot == "sun"
        # Totals and the end of the game.
        before = list(self.scores)
        self.scores = [s + p for s, p in zip(self.scores, expected, strict=True)]
        assert self.game.scores == self.scores
        assert self.game.view(0).scores == tuple(self.scores)
        over = max(self.scores) >= rules.end_score
        assert self.game.is_over is over
        assert max(before) < rules.end_score
        self.deals += 1

    def check_end(self) -> None:
        game = self.game
        assert game.is_over
        assert game.phase == "game_over"
        low = min(game.scores)
        assert game.winners == [s for s, v in enumerate(game.scores) if v == low]
        assert game.winners
        assert game.to_act() == [] and game.legal_plays() == CardSet()
        totals = [
            start + sum(r.points[s] for r in game.results)
            for s, start in enumerate(game.initial_scores)
        ]
        assert game.scores == totals
        assert [r.number for r in game.results] == list(
            range(game.first_deal, game.first_deal + len(game.results))
        )


def run_checked_games(
    rules: Rules, seeds: range, *, undo_rate: float = 0.0, view_rate: float = 0.0
) -> list[GameChecker]:
    checkers = []
    for seed in seeds:
        game = Game(rules, seed=seed)
        checker = GameChecker(game, random.Random(seed), undo_rate=undo_rate, view_rate=view_rate)
        checker.run()
        checkers.append(checker)
    return checkers


# Plain loops over seeds ------------------------------------------------------------------

GAMES_PER_CONFIG = 25
SLOW_GAMES_PER_CONFIG = 500


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_follow_the_rules(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    checkers = run_checked_games(rules, range(GAMES_PER_CONFIG), undo_rate=0.02, view_rate=0.01)
    assert sum(c.deals for c in checkers) >= GAMES_PER_CONFIG * 3
    assert sum(c.undos for c in checkers) > 0


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_follow_the_rules_many(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    seeds = range(1000, 1000 + SLOW_GAMES_PER_CONFIG)
    checkers = run_checked_games(rules, seeds, undo_rate=0.01, view_rate=0.002)
    assert sum(c.deals for c in checkers) >= SLOW_GAMES_PER_CONFIG * 3


def _game_invariants(game: Game) -> None:
    """The cheap end-of-game checks, for the larger unchecked runs."""
    rules = game.rules
    deck = {int(c) for c in rules.deck}
    total = rules.points_in_play
    jack = -10 if rules.jack_of_diamonds and JD in deck else 0
    for result in game.results:
        played = [int(c) for t in result.tricks for c in t.cards]
        assert len(played) == len(deck) and set(played) == deck
        assert sum(result.taken_points) == total + jack
        if result.shot is None:
            assert result.points == result.taken_points
    assert game.scores == [
        s + sum(r.points[i] for r in game.results) for i, s in enumerate(game.initial_scores)
    ]
    assert game.is_over and max(game.scores) >= rules.end_score


FAST_GAMES_PER_CONFIG = 150


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_random_games_conserve_cards_and_points(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    deals = 0
    for seed in range(FAST_GAMES_PER_CONFIG):
        game = Game(rules, seed=seed + 10_000)
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase == "playing":
                legal = game.legal_mask()
                assert legal, "legal moves are never empty while the game is live"
                bits = [c for c in range(52) if legal >> c & 1]
                game.play(rng.choice(bits))
            else:
                game.apply(random_action(game, rng))
        _game_invariants(game)
        deals += len(game.results)
    assert deals >= FAST_GAMES_PER_CONFIG * 3


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_undo_a_whole_game_and_replay_it(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    for seed in range(3):
        game = Game(rules, seed=seed)
        start = snapshot(game)
        rng = random.Random(seed)
        actions: list[Action] = []
        states = [start]
        while not game.is_over:
            action = random_action(game, rng)
            game.apply(action)
            actions.append(action)
            if len(actions) % 7 == 0:
                states.append(snapshot(game))
        end = snapshot(game)
        # Undo everything, checking the saved states on the way back.
        for index in range(len(actions), 0, -1):
            if index % 7 == 0:
                assert snapshot(game) == states[index // 7]
            assert game.undo() == actions[index - 1]
        assert snapshot(game) == start
        for action in actions:
            game.apply(action)
        assert snapshot(game) == end


# Hypothesis: any combination of options ---------------------------------------------------


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Rules with any valid combination of options."""
    players = draw(st.sampled_from([3, 4, 5, 6]))
    removed_choices: dict[int, list[str | None]] = {
        3: [None, "2C", "2H", "QS"],
        4: [None, "2C 2D 2S 2H", "QS 2C 2D 2S"],
        5: [None, "2C 2D", "2H 3H"],
        6: [None, "2C 2D 2S 2H", "2C 3C 4C 2D"],
    }
    removed = draw(st.sampled_from(removed_choices[players]))
    directions = ["left", "right", "hold", "left2", "right2"]
    if players % 2 == 0:
        directions.append("across")
    if players == 3:
        directions = ["left", "right", "hold", "left2"]
    cycle = tuple(draw(st.lists(st.sampled_from(directions), min_size=1, max_size=4)))
    options: dict[str, Any] = dict(
        players=players,
        removed=None if removed is None else CardSet.parse(removed),
        pass_cycle=cycle,
        cards_passed=draw(st.integers(0, 3)),
        first_trick=draw(st.sampled_from(list(FirstTrick))),
        hearts_break=draw(st.sampled_from(list(HeartsBreak))),
        moon=draw(st.sampled_from(list(MoonScoring))),
        sun=draw(st.booleans()),
        jack_of_diamonds=draw(st.booleans()),
        end_score=draw(st.integers(1, 120)),
        first_dealer=draw(st.integers(0, players - 1)),
        direction=draw(st.sampled_from(["clockwise", "counterclockwise"])),
        seating=draw(st.sampled_from(list(Seating))),
    )
    if draw(st.booleans()):
        # Any card in play may be named to lead the first trick.
        in_play = Rules(players=players, removed=options["removed"]).deck
        options["first_lead"] = Card(draw(st.sampled_from(list(in_play))))
    return Rules(**options)


@settings(max_examples=60)
@given(rules=any_rules(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_any_options_follow_the_rules(rules: Rules, seed: int, play_seed: int) -> None:
    game = Game(rules, seed=seed)
    checker = GameChecker(game, random.Random(play_seed), undo_rate=0.03, view_rate=0.01)
    checker.run()
    assert checker.deals == len(game.results) >= 1


@settings(max_examples=40)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    actions=st.integers(0, 400),
)
def test_undo_restores_any_state(config: tuple[str, int], seed: int, actions: int) -> None:
    game = Game(Rules.preset(*config), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
    if game.is_over:
        pytest.skip("the game ended early")
    before = snapshot(game)
    seen = [game.view(s) for s in range(game.rules.players)]
    done = []
    for _ in range(rng.randint(1, 60)):
        if game.is_over:
            break
        action = random_action(game, rng)
        game.apply(action)
        done.append(action)
    for action in reversed(done):
        assert game.undo() == action
    assert snapshot(game) == before
    assert [game.view(s) for s in range(game.rules.players)] == seen


# DealState: the fast state the bots search with ----------------------------------------


def _random_deal_state(rules: Rules, rng: random.Random, plays: int) -> tuple[Game, DealState]:
    game = Game(rules, seed=rng.randrange(1 << 30), first_deal=len(rules.pass_cycle or ()) - 1)
    while game.phase == "passing":
        game.apply(random_action(game, rng))
    for _ in range(plays):
        if game.phase != "playing" or game.deal_number != game.first_deal:
            break
        game.apply(random_action(game, rng))
    return game, game.deal


def _finish(state: DealState, rng: random.Random) -> list[int]:
    while state.phase == "playing":
        legal = state.legal_mask()
        assert legal
        state.play_card(rng.choice([c for c in range(52) if legal >> c & 1]))
    if state.phase == "moon_choice":
        state.choose_moon(True)
    assert state.points is not None
    return list(state.points)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_deal_state_clone_and_undo(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    rng = random.Random(7)
    for trial in range(20):
        _game, state = _random_deal_state(rules, rng, rng.randrange(rules.players * 6))
        if state.phase != "playing":
            continue
        key = state.key()
        copy = state.clone()
        assert copy.key() == key
        seed = rng.random()
        points = _finish(copy, random.Random(seed))
        assert state.key() == key, "playing on a clone leaves the original alone"
        # Play out on the original too, then undo every card back to the start.
        played = []
        replay = random.Random(seed)
        while state.phase == "playing":
            legal = state.legal_mask()
            card = replay.choice([c for c in range(52) if legal >> c & 1])
            state.play_card(card)
            played.append(card)
        if state.phase == "moon_choice":
            state.choose_moon(True)
        assert list(state.points or []) == points, f"trial {trial}: same plays, same points"
        if state.moon_choice is not None:
            state.undo_moon_choice()
        for card in reversed(played):
            assert state.undo_play() == card
        assert state.key() == key


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_deal_state_from_position_matches_the_game(config: tuple[str, int]) -> None:
    rules = Rules.preset(*config)
    rng = random.Random(11)
    for _ in range(20):
        _game, state = _random_deal_state(rules, rng, rng.randrange(rules.players * 6))
        if state.phase != "playing":
            continue
        rebuilt = DealState.from_position(
            rules,
            list(state.hands),
            leader=state.leader,
            trick=list(state.trick),
            taken=list(state.taken),
            tricks_won=list(state.tricks_won),
            played=state.played,
            hearts_broken=state.hearts_broken,
            deal_number=state.deal_number,
        )
        assert rebuilt.to_move == state.to_move
        assert rebuilt.legal_mask() == state.legal_mask()
        assert rebuilt.in_first_trick == state.in_first_trick
        seed = rng.random()
        assert _finish(rebuilt, random.Random(seed)) == _finish(state.clone(), random.Random(seed))


def test_conventional_choice_matches_its_definition() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        players = rng.randint(3, 6)
        scores = [rng.randint(-30, 130) for _ in range(players)]
        shooter = rng.randrange(players)
        points = rng.choice([25, 26])
        added = [s if i == shooter else s + points for i, s in enumerate(scores)]
        alone_lowest = all(added[shooter] < v for i, v in enumerate(added) if i != shooter)
        assert conventional_moon_choice(scores, shooter, points) is alone_lowest
