"""Properties of the session core under anything a person can do, in any order.

A Hypothesis state machine plays one person against the computer the way every face
drives a :class:`~openhearts.session.Session`: the computer players (and auto play
one) act until the person must, then the person does one thing -- plays or passes
cards (legal ones, or anything at all), makes a moon choice, asks a hint, lets the
computer play for them (or follows a hint worked out earlier), undoes (and makes the
same choice again), switches auto play one, or saves and resumes from the saved text
or from a plain record; or presses a key while the computer players are still
playing.  Games are of every preset and player count, or of any options, against
``random`` or ``easy`` players.  After each step it checks what must always hold:

* a person's action is done, or refused with a :class:`SessionError` (a hint with
  :class:`NoHint`) in a sentence, leaving the game as it was; nothing else is raised,
  and until the game is over someone always has something to do;
* undo takes back exactly the last actions, to the game replayed from the record up
  to there, and never deals any seat's cards again; the same choice made again brings
  the same game back (the computer players answer a position the same way each time);
* a save resumes as an equal game with the same session data;
* the person's view holds no other seat's hidden cards, and what the memory aids
  say of those cards (the unseen cards, the voids) is true;
* every deal plays each card once and its points add up, and so do the totals;
* hints and "play for me" choose legal actions only, a sole legal card too.

The first deal is sometimes one where the person holds the top cards of every suit on
a hold hand, so that the moon (or sun) and the person's moon choice come up as well.
The plain test runs fifty short games; ``-m slow`` runs many more, longer ones;
the explicit examples at the end reach the moments that matter for sure.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import event as hypothesis_event
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from conftest import CONFIGS, check_view_secrecy, snapshot
from openhearts import Card, CardSet, Game, MoonScoring, Rules
from openhearts.cards import SUIT_MASKS
from openhearts.game import Action, MoonChoice, Pass, Play, PlayerView
from openhearts.phases import Phase
from openhearts.record import dumps
from openhearts.sentences.events import Narrator
from openhearts.sentences.style import Style
from openhearts.session import NoHint, Session, SessionError
from openhearts.session.events import CardsPassed, DealScored, Event, Undone
from openhearts.session.hints import Hint, HintKind, turn_of
from openhearts.session.points import card_points
from openhearts.session.review import deal_reviews
from openhearts.session.saving import dumps_session, loads_session
from openhearts.session.seats import Seats
from openhearts.session.undo import has_choice_to_undo
from test_properties import any_rules

#: Hints are worked out by the expert player (up to a tenth of a second each): a
#: person in these games asks for at most a few, so that a run stays fast.
MOST_HINTS = 2


def event(text: str) -> None:
    """Counted in ``--hypothesis-show-statistics``; nothing when the machine is driven
    by hand (the explicit examples below)."""
    if currently_in_test_context():
        hypothesis_event(text)


def is_sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text.rstrip().endswith((".", "!", "?"))


def top_cards_hands(rules: Rules, seat: int) -> list[CardSet]:
    """Hands where ``seat`` holds the highest cards of every suit, so that whatever it
    plays it takes every trick (each of its cards beats every other card of its suit);
    the other cards go round the other seats."""
    size = rules.hand_size
    mine = 0
    by_suit = [
        sorted((c for c in rules.deck if c.suit == suit), reverse=True)
        for suit in range(4)  # clubs, diamonds, spades, hearts
    ]
    depth = 0
    while mine.bit_count() < size:
        # Hearts last, so that the hand is short of hearts rather than of a side suit.
        for suit in (0, 1, 2, 3):
            if mine.bit_count() < size and depth < len(by_suit[suit]):
                mine |= 1 << by_suit[suit][depth]
        depth += 1
    rest = [c for c in rules.deck if not mine >> c & 1]
    hands = [0] * rules.players
    hands[seat] = mine
    others = [s for s in range(rules.players) if s != seat]
    for index, c in enumerate(rest):
        hands[others[index % len(others)]] |= 1 << c
    return [CardSet(h) for h in hands]


class SessionMachine(RuleBasedStateMachine):
    session: Session
    #: How the game was made, to replay it from its record.
    given_hands: list[list[CardSet]] | None
    #: Each deal's dealt hands as first seen: no undo or resume deals them again.
    dealt: dict[int, tuple[CardSet, ...]]
    #: The actions after each prefix of the person's actions (with auto play one on or
    #: off): the computer players' answers, the same whenever the position comes back.
    answers: dict[tuple[tuple[Action, ...], bool], tuple[Action, ...]]
    #: The last hint asked for, with the view it was worked out for.
    hint_kept: tuple[Hint, PlayerView] | None
    hints_left: int
    last_undone: Undone | None
    #: Whether auto play one was ever switched in this game.
    switched: bool

    # Set up ---------------------------------------------------------------------

    @initialize(
        config=st.sampled_from(CONFIGS),
        seed=st.integers(0, 2**20),
        level=st.sampled_from(["random", "easy"]),
        auto_play_one=st.booleans(),
        end_score=st.sampled_from([1, 30, 100]),
        top_cards=st.booleans(),
        seat_pick=st.integers(0, 5),
        hints=st.integers(0, MOST_HINTS),
        options=st.none() | any_rules(),
    )
    def start(
        self,
        config: tuple[str, int],
        seed: int,
        level: str,
        auto_play_one: bool,
        end_score: int,
        top_cards: bool,
        seat_pick: int,
        hints: int,
        options: Rules | None,
    ) -> None:
        preset, players = config
        self.given_hands = None
        if top_cards:
            # The person shoots: the choice how it scores is theirs.
            rules = Rules.preset(
                preset, players, end_score=end_score, moon=MoonScoring.SHOOTER_CHOOSES
            )
            seat = seat_pick % players
            cycle = rules.pass_cycle or ("hold",)
            hold = cycle.index("hold") if "hold" in cycle else 0
            self.given_hands = [top_cards_hands(rules, seat)]
            game = Game(rules, seed=seed, hands=self.given_hands, first_deal=hold)
            seats = Seats.build(players, [seat], level, game.seed)
            self.session = Session(game, seats, auto_play_one=auto_play_one)
        else:
            rules = options or Rules.preset(preset, players, end_score=end_score)
            self.session = Session.new(
                rules, seed, ["Ann"], level=level, auto_play_one=auto_play_one
            )
        event(f"{rules.players} players, top cards: {top_cards}, options: {options is not None}")
        self.dealt = {}
        self.answers = {}
        self.hint_kept = None
        self.hints_left = hints
        self.last_undone = None
        self.switched = False
        self.let_the_computer_act()

    # Helpers ----------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def me(self) -> int:
        return self.session.human

    def let_the_computer_act(self) -> None:
        """What every face does between the person's actions: step until the person
        must act or the game is over (a bound stands for "never deadlocks")."""
        before = tuple(self.game.actions)
        for _ in range(2000):
            events = self.session.step()
            if not events:
                break
            self.check_events(events)
        else:
            raise AssertionError("the computer players never stopped")
        after = tuple(self.game.actions)
        assert after[: len(before)] == before
        key = (before, self.session.auto_play_one)
        answer = self.answers.setdefault(key, after[len(before) :])
        assert answer == after[len(before) :], "the same position, other answers"

    def check_events(self, events: list[Event]) -> None:
        """What the faces do with the events (say them to the person), and each deal's
        end."""
        narrator = Narrator(self.session.view(), Style())
        for happened in events:
            said = narrator.lines(happened)
            if isinstance(happened, CardsPassed) and happened.seat != self.me:
                assert not said, f"another seat's pass said: {said}"
            if isinstance(happened, DealScored):
                self.check_deal(happened)

    def check_deal(self, scored: DealScored) -> None:
        rules = self.game.rules
        result = scored.result
        played = [c for trick in result.tricks for c in trick.cards]
        assert len(played) == len(set(played)), "a card played twice in a deal"
        assert CardSet(played) == rules.deck, "a deal ended without every card played"
        in_tricks = sum(card_points(rules, trick.cards) for trick in result.tricks)
        assert sum(result.taken_points) == in_tricks
        jack = 10 if rules.jack_of_diamonds else 0  # the J♦ is never a removed card then
        assert in_tricks == rules.points_in_play - jack
        if result.shot is None:
            assert result.points == result.taken_points
        event(f"deal scored, shot={result.shot}")

    def attempt(self, action: Callable[[], list[Event]], allowed: bool) -> list[Event] | None:
        """Do what the person asked: done when ``allowed``, else refused in a sentence
        with the game left as it was."""
        before = snapshot(self.game)
        try:
            events = action()
        except (SessionError, NoHint) as refusal:
            assert is_sentence(str(refusal)), f"refused without a sentence: {refusal!r}"
            assert not allowed, f"refused though allowed: {refusal}"
            assert snapshot(self.game) == before, "a refusal changed the game"
            return None
        assert allowed, "done though not allowed"
        self.check_events(events)
        return events

    def replayed(self) -> Game:
        """The game replayed from its record's start and actions."""
        game = self.game
        copy = Game(
            game.rules,
            seed=game.seed,
            names=game.names,
            hands=self.given_hands,
            first_deal=game.first_deal,
            scores=game.initial_scores,
            seated=True,
        )
        for action in game.actions:
            copy.apply(action)
        return copy

    def to_play(self) -> bool:
        return self.game.phase == Phase.PLAYING and self.game.current_player == self.me

    def to_pass(self) -> bool:
        view = self.session.view()
        return view.phase == Phase.PASSING and view.passed is None and view.pass_target is not None

    def to_choose_moon(self) -> bool:
        return self.game.phase == Phase.MOON_CHOICE and self.game.current_player == self.me

    def natural_action(self, pick: int) -> Action:
        """A legal action for the person, chosen by ``pick``."""
        view = self.session.view()
        if self.to_pass():
            cards = view.hand.cards()
            chosen = [cards[(pick + step * 7) % len(cards)] for step in range(len(cards))]
            return Pass(self.me, CardSet(list(dict.fromkeys(chosen))[: view.rules.cards_passed]))
        if self.to_play():
            legal = view.legal.cards()
            return Play(self.me, legal[pick % len(legal)])
        assert self.to_choose_moon()
        event("the person chooses how the moon scores")
        return MoonChoice(self.me, pick % 2 == 0)

    def check_hint(self, hint: Hint) -> None:
        view = self.session.view()
        assert hint.seat == self.me and hint.turn == turn_of(view)
        event(f"a {hint.kind} hint")
        assert hint.options
        if hint.kind is HintKind.PLAY:
            assert view.phase == Phase.PLAYING
            assert {option.card for option in hint.options} == set(view.legal)
            assert all(len(option.cards) == 1 for option in hint.options)
            if len(view.legal) == 1:
                event("a play hint with one legal card")
        elif hint.kind is HintKind.PASS:
            assert view.phase == Phase.PASSING
            for option in hint.options:
                assert len(option.cards) == view.rules.cards_passed
                assert option.cards <= view.hand
        else:
            assert view.phase == Phase.MOON_CHOICE
            assert {option.others_add for option in hint.options} == {False, True}
            assert len(hint.options) == 2

    # The person's actions -------------------------------------------------------

    @precondition(lambda self: not self.game.is_over)
    @rule(picks=st.lists(st.integers(0, 51), min_size=1, max_size=40))
    def play_on(self, picks: list[int]) -> None:
        """A run of legal choices: the game goes on."""
        for pick in picks:
            if self.game.is_over:
                break
            self.attempt(partial(self.session.apply, self.natural_action(pick)), allowed=True)
            self.let_the_computer_act()

    @rule(
        kind=st.sampled_from(["play", "pass", "moon"]),
        cards=st.lists(st.integers(0, 51), max_size=4),
        others_add=st.booleans(),
    )
    def try_anything(self, kind: str, cards: list[int], others_add: bool) -> None:
        """Any card played, any cards passed, a moon choice: done when the rules allow
        it, else refused."""
        view = self.session.view()
        named = [Card(c) for c in cards]
        if kind == "play":
            card = named[0] if named else Card(0)
            allowed = self.to_play() and card in view.legal
            done = self.attempt(lambda: self.session.play(self.me, card), allowed)
        elif kind == "pass":
            allowed = (
                self.to_pass()
                and len(cards) == len(set(cards)) == view.rules.cards_passed
                and all(c in view.hand for c in named)
            )
            done = self.attempt(lambda: self.session.pass_cards(self.me, named), allowed)
        else:
            allowed = self.to_choose_moon()
            if allowed:
                event("the person chooses how the moon scores")
            done = self.attempt(lambda: self.session.choose_moon(self.me, others_add), allowed)
        if done is not None:
            self.let_the_computer_act()

    # Asked when it is the person's turn (a hint out of turn is refused on the way: see
    # interrupt_the_computer), so that the few hints of a game are worked out.
    @precondition(lambda self: self.hints_left > 0 and self.me in self.game.to_act())
    @rule()
    def hint(self) -> None:
        self.hints_left -= 1
        allowed = self.me in self.game.to_act()
        found: list[Hint] = []

        def ask() -> list[Event]:
            found.append(self.session.hint())
            return []

        self.attempt(ask, allowed)
        if found:
            self.check_hint(found[0])
            self.hint_kept = (found[0], self.session.view())

    @precondition(lambda self: self.hints_left > 0)
    @rule()
    def play_for_me(self) -> None:
        self.hints_left -= 1
        view = self.session.view()
        allowed = self.me in self.game.to_act()
        before = self.game.action_count
        if self.attempt(self.session.play_for_me, allowed) is None:
            return
        done = self.game.actions[before]
        assert done.seat == self.me
        if isinstance(done, Play):
            assert done.card in view.legal
            if len(view.legal) == 1:
                event("play for me with one legal card")
        elif isinstance(done, Pass):
            assert len(done.cards) == view.rules.cards_passed and done.cards <= view.hand
        else:
            assert view.phase == Phase.MOON_CHOICE
        self.let_the_computer_act()

    @precondition(lambda self: self.hint_kept is not None)
    @rule()
    def follow_an_earlier_hint(self) -> None:
        """A face works a hint out in a worker and follows it later: meanwhile the game
        may have moved on, or been taken back."""
        assert self.hint_kept is not None
        hint, seen = self.hint_kept
        view = self.session.view()
        same = view == seen
        if not same and hint.turn == turn_of(view):
            event("an earlier hint, another position on the same turn")
        before = snapshot(self.game)
        try:
            events = self.session.follow(hint)
        except (SessionError, NoHint) as refusal:
            assert is_sentence(str(refusal)), refusal
            assert snapshot(self.game) == before
            assert not same, f"a hint for this very position refused: {refusal}"
            return
        assert same, "a hint worked out for another position was followed"
        self.check_events(events)
        self.let_the_computer_act()

    @precondition(lambda self: not self.game.is_over)
    @rule(
        pick=st.integers(0, 51),
        steps=st.integers(0, 6),
        then=st.sampled_from(["undo", "save", "switch", "hint", "play"]),
        card=st.integers(0, 51),
    )
    def interrupt_the_computer(self, pick: int, steps: int, then: str, card: int) -> None:
        """The terminal and web games take the person's keys while the computer players
        are still playing: a choice, a few of their actions, then anything."""
        action = self.natural_action(pick)
        self.attempt(lambda: self.session.apply(action), allowed=True)
        for _ in range(steps):
            events = self.session.step()
            if not events:
                break
            self.check_events(events)
        if then == "undo":
            self.undo()
        elif then == "save":
            self.save_and_resume(record_only=False)
        elif then == "switch":
            self.switch_auto_play_one()
        elif then == "hint" and self.me not in self.game.to_act():

            def ask() -> list[Event]:
                self.session.hint()
                return []

            self.attempt(ask, allowed=False)
        else:
            allowed = self.to_play() and card in self.game.legal_plays()
            self.attempt(lambda: self.session.play(self.me, Card(card)), allowed)
        self.let_the_computer_act()

    @rule()
    def undo(self) -> None:
        session = self.session
        earlier = self.game.actions
        expected = has_choice_to_undo(self.game, self.me, session.auto_play_one)
        assert not expected or session.can_undo()
        if not session.can_undo():
            event("undo with nothing to undo")
        undone = self.attempt(session.undo, allowed=expected)
        if undone is None:
            return
        (taken,) = undone
        assert isinstance(taken, Undone) and taken.seat == self.me
        self.last_undone = taken
        now = self.game.actions
        assert now + list(reversed(taken.actions)) == earlier, "undo took back other actions"
        event(f"undo back over a deal's end: {taken.back_to_deal is not None}")
        # Back to the person's own choice: nothing is played for anyone before they act.
        assert session.human_to_act() and session.bot_to_act() is None
        assert session.auto_card() is None, "an undo the next step plays again"
        copy = self.replayed()
        assert snapshot(copy) == snapshot(self.game)
        assert copy.view(self.me) == session.view()
        self.let_the_computer_act()

    @precondition(lambda self: not self.switched)
    @rule()
    def undo_and_choose_again(self) -> None:
        """Undo, then the same choice again: the game is back as it was, nothing dealt
        again and the computer players answering as before (an undo is no way to have
        them play otherwise).  Only while auto play one stays as it was: switched, the
        cards it played are played by hand, or the other way round."""
        if not has_choice_to_undo(self.game, self.me, self.session.auto_play_one):
            return
        earlier, actions = snapshot(self.game), self.game.actions
        self.undo()
        assert self.last_undone is not None
        choice = self.last_undone.own[0]
        self.attempt(lambda: self.session.apply(choice), allowed=True)
        self.let_the_computer_act()
        assert self.game.actions == actions
        assert snapshot(self.game) == earlier

    @rule()
    def switch_auto_play_one(self) -> None:
        self.switched = True
        self.session.auto_play_one = not self.session.auto_play_one
        self.let_the_computer_act()

    @rule(record_only=st.booleans())
    def save_and_resume(self, record_only: bool) -> None:
        """Saved and resumed from the saved text; or from a plain record (made
        elsewhere), with the person's name, level and auto play one given."""
        session = self.session
        if record_only:
            game, info = loads_session(dumps(session.game))
            assert info is None
            resumed = Session.resume(
                game,
                None,
                name=session.names[self.me],
                level=session.seats.level,
                auto_play_one=session.auto_play_one,
            )
        else:
            game, info = loads_session(dumps_session(session.game, session.info()))
            resumed = Session.resume(game, info)
        assert resumed.seats.problem is None
        assert resumed.info() == session.info()
        assert resumed.human == session.human
        assert resumed.auto_play_one == session.auto_play_one
        assert resumed.seats.level == session.seats.level
        assert snapshot(game) == snapshot(session.game)
        assert resumed.view() == session.view()
        self.session = resumed
        self.let_the_computer_act()

    # What always holds ------------------------------------------------------------

    @invariant()
    def someone_can_act(self) -> None:
        if not self.game.is_over:
            assert self.session.human_to_act(), "nobody can act"
            assert self.session.bot_to_act() is None
        else:
            assert self.session.outcome is not None

    @invariant()
    def the_view_keeps_the_others_cards_hidden(self) -> None:
        view = check_view_secrecy(self.game, self.me)
        assert self.session.view() == view
        assert is_sentence(self.session.not_now())

    @invariant()
    def the_memory_aids_and_the_review_are_true(self) -> None:
        """What the memory aids say of the hidden cards holds, and the review has every
        trick played."""
        game, me = self.game, self.me
        aids = self.session.memory()
        deal = game.deal
        if game.is_over:
            return
        # Cards set aside to pass are still their seat's until the exchange.
        passing = game.phase == Phase.PASSING
        others = 0
        for seat in range(game.rules.players):
            if seat != me:
                others |= deal.hands[seat] | ((deal.passes[seat] or 0) if passing else 0)
        assert aids.unseen.mask == others, "the unseen cards are not the others' cards"
        for void in aids.voids:
            assert not deal.hands[void.seat] & SUIT_MASKS[void.suit], f"{void} is no void"
        if aids.pass_target is not None:
            assert aids.still_out_from_pass.mask & ~deal.hands[aids.pass_target] == 0
        reviews = deal_reviews(game)
        assert [review.number for review in reviews] == [
            *(result.number for result in game.results),
            game.deal_number,
        ]
        for review in reviews:
            size = game.rules.hand_size if review.finished else len(deal.tricks)
            assert len(review.tricks) == size

    @invariant()
    def no_deal_is_dealt_again(self) -> None:
        for state in self.game.deal_states():
            dealt = tuple(CardSet(hand) for hand in state.dealt)
            assert self.dealt.setdefault(state.deal_number, dealt) == dealt

    @invariant()
    def totals_are_the_deals_points(self) -> None:
        game = self.game
        totals = list(game.initial_scores)
        for result in game.results:
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert totals == game.scores


def test_a_session_holds_up_under_anything_a_person_does() -> None:
    run_state_machine_as_test(  # type: ignore[no-untyped-call]
        SessionMachine, settings=settings(max_examples=50, stateful_step_count=25)
    )


@pytest.mark.slow
def test_a_session_holds_up_under_anything_a_person_does_at_length() -> None:
    run_state_machine_as_test(  # type: ignore[no-untyped-call]
        SessionMachine, settings=settings(max_examples=300, stateful_step_count=60)
    )


# Explicit examples: the moments the brief names, each reached for sure ---------------


def started(**changes: Any) -> SessionMachine:
    """The machine started by hand: standard rules, four players, random opponents."""
    start: dict[str, Any] = dict(
        config=("standard", 4),
        seed=0,
        level="random",
        auto_play_one=True,
        end_score=100,
        top_cards=False,
        seat_pick=0,
        hints=0,
        options=None,
    )
    machine = SessionMachine()
    machine.start(**start | changes)
    return machine


def checked(machine: SessionMachine) -> None:
    machine.someone_can_act()
    machine.the_view_keeps_the_others_cards_hidden()
    machine.no_deal_is_dealt_again()
    machine.totals_are_the_deals_points()


def test_undo_right_after_a_pass_then_the_same_pass() -> None:
    machine = started()
    machine.play_on([0])
    assert machine.game.phase == Phase.PLAYING
    machine.undo_and_choose_again()
    assert machine.last_undone is not None
    assert isinstance(machine.last_undone.own[0], Pass)
    checked(machine)


def test_undo_back_over_a_deals_end_and_its_auto_finish_deals_nothing_again() -> None:
    machine = started()
    while machine.game.deal_number == 0:
        machine.play_on([0])
    machine.undo()
    undone = machine.last_undone
    assert undone is not None and undone.back_to_deal == 0
    # The A♠ was played for the person (the points were settled): taken back too.
    assert [str(card) for card in undone.own_cards] == ["AD", "AS"]
    checked(machine)
    while machine.game.deal_number == 0:
        machine.play_on([1])
    checked(machine)
    machine.undo_and_choose_again()
    checked(machine)


def test_the_persons_moon_choice_undone_and_made_again() -> None:
    machine = started(top_cards=True)
    while not machine.to_choose_moon():
        machine.play_on([0])
    machine.try_anything("moon", [], others_add=False)
    assert machine.game.results[-1].shot == "moon"
    machine.undo()
    assert machine.to_choose_moon()
    machine.undo_and_choose_again()
    checked(machine)


def test_nothing_to_undo_at_the_start_nor_once_the_game_is_over() -> None:
    machine = started(end_score=1)
    machine.undo()
    assert machine.last_undone is None
    while not machine.game.is_over:
        machine.play_on([0, 1, 2])
    machine.undo()
    machine.save_and_resume(record_only=False)
    checked(machine)


@pytest.mark.parametrize("record_only", [False, True])
def test_saved_and_resumed_while_the_computer_plays(record_only: bool) -> None:
    machine = started(level="easy")
    machine.play_on([0])
    machine.interrupt_the_computer(pick=0, steps=1, then="save", card=0)
    machine.save_and_resume(record_only=record_only)
    machine.play_on([0] * 20)
    checked(machine)


def test_a_hint_and_play_for_me_with_one_legal_card() -> None:
    machine = started(auto_play_one=False, hints=2)
    while not (machine.to_play() and len(machine.game.legal_plays()) == 1):
        machine.play_on([0])
    machine.hint()
    machine.play_for_me()
    checked(machine)


def test_a_hint_is_followed_later_only_at_the_position_it_was_worked_out_for() -> None:
    """Taken back twice and played otherwise, the deal comes back to as many cards
    played with another hand: the hint worked out before is refused there."""
    machine = started(
        options=Rules.preset("standard", pass_cycle=("hold",)),
        level="easy",
        auto_play_one=False,
        hints=1,
    )
    machine.play_on([0])
    machine.hint()
    machine.follow_an_earlier_hint()
    machine.undo()
    machine.undo()
    machine.play_on([12])
    assert machine.hint_kept is not None
    hint, seen = machine.hint_kept
    now = machine.session.view()
    assert len(now.plays) == len(seen.plays) and now.hand != seen.hand
    assert hint.best.card in now.legal
    machine.follow_an_earlier_hint()
    checked(machine)
