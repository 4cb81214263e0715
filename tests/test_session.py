"""The face-neutral session core: seats, driver, events, undo, hints, memory aids,
names, seeds, saving and the key map."""

from __future__ import annotations

import io
import os
import re
import tempfile
import time
import types
from dataclasses import replace
from pathlib import Path

import pytest

from openhearts import Card, CardSet, Game, Rules
from openhearts.bots import RandomBot, make_bot
from openhearts.game import Pass, Play, PlayerView
from openhearts.phases import Phase
from openhearts.record import dumps, loads
from openhearts.record_schema import schema
from openhearts.sentences import Style
from openhearts.sentences import spoken as words
from openhearts.sentences.advice import hint_line
from openhearts.sentences.events import Narrator
from openhearts.sentences.records import deal_summary, review_trick_line
from openhearts.session import Session, SessionError, SessionInfo
from openhearts.session.events import (
    BotReplaced,
    CardPlayed,
    CardsPassed,
    DealScored,
    DealStarted,
    GameOver,
    HeartsBroken,
    MoonPending,
    TrickTaken,
    Undone,
)
from openhearts.session.hints import HintKind, NoHint, make_hint
from openhearts.session.keys import KEYS, Command, command_for_key, command_for_word, markdown
from openhearts.session.memory import just_received, memory_aids
from openhearts.session.names import table_names
from openhearts.session.review import DealReview, deal_reviews, opening_deal
from openhearts.session.saving import dumps_session, load_session, loads_session, save_session
from openhearts.session.seeds import game_seed
from openhearts.session.undo import can_undo

ROOT = Path(__file__).resolve().parent.parent


def to_human(session: Session) -> None:
    """Let the computer players (and auto play one) act until a person must."""
    while session.step():
        pass


def test_the_same_seed_deals_the_same_game_however_it_is_written() -> None:
    as_text = Session.new(Rules(), "1", ["You"], level="random")
    as_int = Session.new(Rules(), 1, ["You"], level="random")
    assert as_text.game.seed == as_int.game.seed == 1
    assert as_text.view().hand == as_int.view().hand
    assert game_seed(" 42 ") == 42 and game_seed("x1") == "x1"


def test_names_one_rule() -> None:
    assert table_names(4, "  Ann\t ", ["Bob", "bob", ""]) == ["Ann", "Bob", "bob 2", "East"]
    assert table_names(3, "", []) == ["You", "West", "East"]
    assert len(table_names(4, "x" * 80)[0]) == 24


def test_typed_names_keep_the_joiners_words_and_emoji_need() -> None:
    """A typed name lost its zero-width joiners ("👩‍💻" became "👩💻", a Persian name
    changed its letters' shapes); a name of joiners alone is no name."""
    coder, persian = "\U0001f469\u200d\U0001f4bb", "\u0645\u06cc\u200c\u0631\u0627"
    assert table_names(4, coder, [persian, "\u200d\u200c", "\u200b"]) == [
        coder,
        persian,
        "North",
        "East",
    ]
    game = Game(Rules(), seed=1, names=table_names(4, coder, [persian]))
    assert loads(dumps(game)).names[:2] == (coder, persian)  # a save keeps them too


class Broken(RandomBot):
    def choose_play(self, view: PlayerView) -> Card:
        raise RuntimeError("cable unplugged")


class Cheat(RandomBot):
    def choose_play(self, view: PlayerView) -> Card:
        return (
            next(card for card in view.hand if card not in view.legal)
            if (view.legal != view.hand)
            else view.legal.cards()[0]
        )


@pytest.mark.parametrize("bot", [Broken, Cheat])
def test_a_faulty_bot_is_replaced_and_the_game_goes_on(bot: type[RandomBot]) -> None:
    session = Session.new(Rules(), 3, ["You"], level="random")
    session.seats.bots[2] = bot(0)
    replaced: list[BotReplaced] = []
    while not session.game.is_over and len(session.game.results) < 1:
        events = session.step()
        if not events:
            view = session.view()
            if view.phase == Phase.PASSING:
                events = session.pass_cards(0, view.hand.cards()[:3])
            else:
                events = session.play(0, view.legal.cards()[0])
        replaced += [e for e in events if isinstance(e, BotReplaced)]
    assert [e.seat for e in replaced][:1] == [2]
    assert isinstance(session.seats.bots[2], RandomBot) and type(session.seats.bots[2]) is RandomBot


def play_deal(session: Session) -> list[object]:
    """Play the deal in progress to its end with the person playing their lowest card."""
    seen: list[object] = []
    deal = session.game.deal_number
    while session.game.deal_number == deal and not session.game.is_over:
        events = session.step()
        if not events:
            view = session.view()
            if view.phase == Phase.PASSING:
                events = session.pass_cards(0, view.hand.cards()[-3:])
            elif view.phase == Phase.MOON_CHOICE:
                events = session.choose_moon(0, True)
            else:
                events = session.play(0, view.legal.cards()[0])
        seen += events
    return seen


def test_events_of_a_whole_deal() -> None:
    session = Session.new(Rules(), 8, ["You"], level="easy")
    events = play_deal(session)
    tricks = [e for e in events if isinstance(e, TrickTaken)]
    assert [t.number for t in tricks] == list(range(1, 14))
    assert sum(t.points for t in tricks) == 26
    assert len([e for e in events if isinstance(e, CardPlayed)]) == 52
    assert len([e for e in events if isinstance(e, HeartsBroken)]) <= 1
    scored = [e for e in events if isinstance(e, DealScored)]
    assert len(scored) == 1 and scored[0].totals == tuple(session.game.scores)
    assert isinstance(events[-1], DealStarted) and events[-1].deal == 1


def test_game_over_event() -> None:
    session = Session.new(Rules(end_score=20), 8, ["You"], level="random")
    events: list[object] = []
    while not session.game.is_over:
        events += play_deal(session)
    over = events[-1]
    assert isinstance(over, GameOver)
    assert list(over.outcome.winners) == session.game.winners


def moon_game() -> Game:
    """A hold deal under source 000 where seat 0 holds every club and so takes every
    trick: the moon is shot and the shooter chooses."""
    ranks = "23456789TJQKA"
    hands = [" ".join(rank + suit for rank in ranks) for suit in "CDSH"]
    game = Game(Rules.preset("source-000"), seed=1, hands=[hands], first_deal=3,
                scores=[10, 90, 40, 50])  # fmt: skip
    while game.phase == Phase.PLAYING:
        game.play(game.legal_plays().cards()[0])
    return game


def test_moon_pending_event_and_moon_hint() -> None:
    game = moon_game()
    assert game.phase == Phase.MOON_CHOICE and game.current_player == 0
    game.undo()
    session = Session(game, Session.new(Rules(), 0, ["x"], level="random").seats)
    events = session.apply(Play(3, game.legal_plays().cards()[0]))
    assert isinstance(events[-1], MoonPending) and events[-1].seat == 0
    hint = make_hint(game.view(0))
    assert hint.kind == HintKind.MOON
    # Adding would give 10 against 116, 66, 76: the shooter stays alone lowest.
    assert hint.best.others_add is True
    assert hint.best.totals == (10, 116, 66, 76)
    assert hint.options[1].totals == (-16, 90, 40, 50)
    said = hint_line(hint, Style(), ["You", "West", "North", "East"])
    assert said == (
        "Hint: let everyone else add 26 (totals then: You 10, West 116, North 66, East 76): "
        "it leaves you alone with the lowest total."
    )


@pytest.mark.parametrize("scores", [(10, 90, 40, 50), (50, 24, 60, 60), (40, 20, 60, 60)])
def test_the_moon_choice_counts_the_jack_of_diamonds(scores: tuple[int, int, int, int]) -> None:
    """Where the J♦ counts, the totals each way (the hint's, the terminal dialog's) are
    the totals the choice really gives, and the suggestion, the hint and the computer
    players follow them (they added as if the J♦ did not count)."""
    ranks = "23456789TJQKA"
    hands = [" ".join(rank + suit for rank in ranks) for suit in "CDSH"]
    rules = Rules.preset("source-000", jack_of_diamonds=True)
    game = Game(rules, seed=1, hands=[hands], first_deal=3, scores=list(scores))
    while game.phase == Phase.PLAYING:
        game.play(game.legal_plays().cards()[0])
    assert game.phase == Phase.MOON_CHOICE and game.current_player == 0
    view = game.view(0)
    assert view.jack_taker == 0
    for others_add in (True, False):
        expected = game.moon_totals(others_add)
        assert view.moon_totals(others_add) == expected
        game.choose_moon(0, others_add)
        assert tuple(game.scores) == expected
        game.undo()
    suggested = game.suggested_moon_choice()
    added = game.moon_totals(True)
    assert suggested == all(added[0] < total for total in added[1:])
    hint = make_hint(view)
    assert hint.best.others_add is suggested and hint.best.totals == game.moon_totals(suggested)
    assert make_bot("hard", 0).choose_moon(view) is suggested
    assert make_bot("easy", 0).choose_moon(view) is suggested


def test_play_hint_lists_cards_in_the_order_of_its_own_numbers() -> None:
    session = Session.new(Rules(), 5, ["You"], level="easy")
    while session.game.phase != Phase.PLAYING or len(session.view().legal) < 3:
        if not session.step():
            view = session.view()
            if view.phase == Phase.PASSING:
                session.pass_cards(0, view.hand.cards()[-3:])
            else:
                session.play(0, view.legal.cards()[0])
    hint = session.hint()
    assert hint.kind == HintKind.PLAY
    ranks = [option.rank_value for option in hint.options]
    assert ranks == sorted(ranks)  # type: ignore[type-var]
    assert {o.card for o in hint.options} == set(session.view().legal)
    assert all(option.points is not None for option in hint.options)


def test_pass_hint_and_no_hint_out_of_turn() -> None:
    session = Session.new(Rules(), 5, ["You"], level="easy")
    hint = session.hint()
    assert hint.kind == HintKind.PASS and hint.best.cards <= session.view().hand
    session.pass_cards(0, hint.best.cards)
    with pytest.raises(NoHint):
        session.hint()


def test_play_for_me_passes_and_plays_what_the_hint_suggests() -> None:
    session = Session.new(Rules(), 5, ["You"], level="easy", auto_play_one=False)
    hint = session.hint()
    events = session.play_for_me()
    assert isinstance(events[0], CardsPassed) and events[0].cards == hint.best.cards
    to_human(session)
    hint = session.hint()
    assert hint.kind == HintKind.PLAY
    events = session.play_for_me()
    assert isinstance(events[0], CardPlayed)
    assert (events[0].seat, events[0].card) == (0, hint.best.card)


def test_play_for_me_with_a_single_legal_card() -> None:
    """The first lead, from a hand of clubs with auto play one off: only the 2♣."""
    ranks = "23456789TJQKA"
    hands = [" ".join(rank + suit for rank in ranks) for suit in "CDSH"]
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=1, hands=[hands])
    session = Session(game, Session.new(Rules(), 0, ["x"], level="random").seats,
                      auto_play_one=False)  # fmt: skip
    assert session.view().legal == CardSet.parse("2C")
    events = session.play_for_me()
    assert isinstance(events[0], CardPlayed) and events[0].card == Card.parse("2C")


def test_play_for_me_makes_the_moon_choice_the_hint_suggests() -> None:
    game = moon_game()
    session = Session(game, Session.new(Rules(), 0, ["x"], level="random").seats)
    assert session.hint().best.others_add is True
    session.play_for_me()
    assert game.scores == [10, 116, 66, 76]


def test_a_choice_worked_out_for_another_turn_is_not_followed() -> None:
    session = Session.new(Rules(), 5, ["You"], level="easy", auto_play_one=False)
    stale = session.hint()
    session.pass_cards(0, session.view().hand.cards()[:3])
    with pytest.raises(SessionError, match=r"^Wait for the others to pass\."):
        session.follow(stale)
    to_human(session)
    first = session.hint()
    session.play(0, session.view().legal.cards()[0])
    to_human(session)
    with pytest.raises(SessionError, match="earlier turn"):
        session.follow(first)
    # Undone back to the same turn, the same choice holds again.
    session.undo()
    played = session.follow(first)[0]
    assert isinstance(played, CardPlayed) and (played.seat, played.card) == (0, first.best.card)
    with pytest.raises(SessionError, match="played by the computer"):
        session.follow(replace(first, seat=1))


def test_a_choice_worked_out_for_another_position_on_the_same_turn_is_not_followed() -> None:
    """Taken back and played otherwise, a deal comes back to as many cards played with
    another hand: the choice worked out before is not for it (the 5♦ was followed,
    chosen for a hand without the 4♣)."""
    rules = Rules.preset("standard", pass_cycle=("hold",))
    session = Session.new(rules, 0, ["You"], level="easy", auto_play_one=False)
    to_human(session)
    session.play(0, session.view().legal.cards()[0])
    to_human(session)
    stale, seen = session.hint(), session.view()
    session.play(0, seen.legal.cards()[-1])
    to_human(session)
    session.undo()
    session.undo()
    session.play(0, session.view().legal.cards()[-1])
    to_human(session)
    now = session.view()
    assert len(now.plays) == len(seen.plays) and now.hand != seen.hand
    assert stale.best.card in now.legal
    with pytest.raises(SessionError, match="earlier turn"):
        session.follow(stale)
    assert session.view() == now


def test_play_for_me_out_of_turn_says_why() -> None:
    session = Session.new(Rules(), 5, ["You"], level="easy")
    session.play_for_me()
    with pytest.raises(NoHint, match="your turn"):
        session.play_for_me()


def pass_lowest(game: Game) -> None:
    """Every seat passes its lowest cards (nothing happens outside passing)."""
    for seat in game.to_act() if game.phase == Phase.PASSING else []:
        game.pass_cards(seat, game.view(seat).hand.cards()[: game.rules.cards_passed])


def test_the_review_holds_every_trick_deal_by_deal_and_opens_at_the_last_one_played() -> None:
    rules = Rules.preset("source-003", jack_of_diamonds=True, end_score=60)
    game = Game(rules, seed=4)
    pass_lowest(game)
    assert opening_deal(deal_reviews(game)) == 0
    while not game.results:
        game.play(game.legal_plays().cards()[-1])
    finished, current = deal_reviews(game)
    result = game.results[0]
    assert finished.result is result and finished.number == 0 and finished.finished
    assert [t.number for t in finished.tricks] == list(range(1, 14))
    assert [t.winner for t in finished.tricks] == [t.winner for t in result.tricks]
    taken = [0] * 4
    for trick in finished.tricks:
        taken[trick.winner] += trick.points
    assert tuple(taken) == result.taken_points  # the J♦'s -10 included
    assert current == DealReview(1, (), None) and not current.finished
    # No trick of deal 2 yet: a review opens at deal 1, whose last trick is the last.
    assert opening_deal([finished, current]) == 0
    pass_lowest(game)
    for _ in range(4):
        game.play(game.legal_plays().cards()[0])
    assert opening_deal(deal_reviews(game)) == 1
    while not game.is_over:
        pass_lowest(game)
        game.play(game.legal_plays().cards()[0])
    over = deal_reviews(game)
    assert len(over) == len(game.results) and all(deal.finished for deal in over)
    assert opening_deal(over) == len(over) - 1


def test_a_deal_of_the_review_in_sentences() -> None:
    game = moon_game()
    game.choose_moon(0, others_add=True)
    deal = deal_reviews(game)[0]
    names = ["You", "West", "North", "East"]
    assert deal_summary(names, game.rules, deal) == (
        "Deal 4: points taken: You 26, West 0, North 0, East 0. You shot the moon (took "
        "every point card) and chose that everyone else adds 26."
    )
    assert review_trick_line(Style(), names, deal.tricks[0]) == (
        "Trick 1: You 2♣, West 2♦, North 2♠, East 2♥. You take it (1 point)."
    )
    assert review_trick_line(Style(), ["Ann", *names[1:]], deal.tricks[1]).endswith(
        "Ann takes it (1 point)."
    )


def test_typed_passes_are_checked_in_sentences() -> None:
    session = Session.new(Rules(), 5, ["You"], level="random")
    held = session.view().hand.cards()
    stranger = session.view(1).hand.cards()[0]
    with pytest.raises(SessionError, match=f"^You do not hold the {stranger.pretty}"):
        session.pass_cards(0, [*held[:2], stranger])
    with pytest.raises(SessionError, match=r"named the .* twice"):
        session.pass_cards(0, [held[0], held[0], held[1]])
    with pytest.raises(SessionError, match=r"^Pass exactly three cards; you named two"):
        session.pass_cards(0, held[:2])
    assert session.game.to_act() == [0, 1, 2, 3]


def test_play_checks_in_sentences() -> None:
    session = Session.new(Rules(), 5, ["You"], level="random")
    with pytest.raises(SessionError, match=r"^Cards are being passed"):
        session.play(0, session.view().hand.cards()[0])
    with pytest.raises(SessionError, match="computer"):
        session.play(1, session.view(1).hand.cards()[0])


def test_undo_takes_back_a_pass() -> None:
    session = Session.new(Rules(), 5, ["You"], level="random")
    to_human(session)
    hand = session.view().hand
    session.pass_cards(0, hand.cards()[:3])
    to_human(session)
    assert session.game.phase == Phase.PLAYING
    undo_events = session.undo()
    while True:  # back through any cards, to the pass
        undone = undo_events[0]
        assert isinstance(undone, Undone)
        if isinstance(undone.own[0], Pass):
            break
        undo_events = session.undo()
    assert session.view().phase == Phase.PASSING and session.view().hand == hand
    assert 0 in session.game.to_act()


def test_undo_after_a_forced_first_lead_goes_back_to_the_pass() -> None:
    """The 2♣ led for the person by auto play one was no choice: one undo takes back
    the pass too (stopping at the 2♣, auto play one played it again at once, and the
    terminal and web games could never reach the pass)."""
    for seed in range(40):
        session = Session.new(Rules(), seed, ["You"], level="random")
        to_human(session)
        session.pass_cards(0, session.view().hand.cards()[-3:])
        to_human(session)
        first = [a for a in session.game.actions if isinstance(a, Play)][:1]
        if first and first[0].seat == 0:
            break
    else:
        pytest.fail("no seed of 40 had the person lead the 2♣")
    undone = session.undo()[0]
    assert isinstance(undone, Undone)
    assert [type(a) for a in undone.own] == [Pass, Play]
    assert session.game.phase == Phase.PASSING and 0 in session.game.to_act()


def test_undo_goes_back_to_a_real_choice() -> None:
    """At every turn of a few deals, undo lands on a choice the person made: a card
    auto play one would not play again, the pass, or the moon choice; on a forced card
    only when the person had made no choice before it."""
    session = Session.new(Rules(), 11, ["You"], level="random")
    checked = 0
    while len(session.game.results) < 3:
        to_human(session)
        game = session.game
        if game.phase == Phase.PLAYING and session.can_undo():
            copy = Session(loads(dumps(game)), session.seats)
            undone = copy.undo()[0]
            assert isinstance(undone, Undone) and undone.own
            back = copy.game
            assert 0 in back.to_act()
            if back.phase == Phase.PLAYING:
                assert back.auto_play_card() is None or not can_undo(back, 0)
            checked += 1
        view = session.view()
        if view.phase == Phase.PASSING:
            session.pass_cards(0, view.hand.cards()[:3])
        elif view.phase == Phase.MOON_CHOICE:
            session.choose_moon(0, True)
        elif not session.game.is_over:
            session.play(0, view.legal.cards()[-1])
    assert checked > 10


def shot_then_forced(preset: str) -> Game:
    """Seat 0 takes every trick of a hold deal (all the clubs), then, in the next one,
    plays its only club, the 3♣, on the 2♣ led: a forced card, and seat 0 to lead."""
    ranks = "23456789TJQKA"
    shoot = [" ".join(rank + suit for rank in ranks) for suit in "CDSH"]
    then = [
        "3C " + " ".join(rank + "S" for rank in ranks[:-1]),
        "2C " + " ".join(rank + "C" for rank in ranks[2:]) + " AS",
        " ".join(rank + "D" for rank in ranks),
        " ".join(rank + "H" for rank in ranks),
    ]
    game = Game(Rules.preset(preset, pass_cycle=("hold",)), seed=1, hands=[shoot, then])
    while game.phase == Phase.PLAYING and not game.results:
        game.play(game.legal_plays().cards()[0])
    if game.phase == Phase.MOON_CHOICE:
        game.choose_moon(0, True)
    while game.to_act() != [0] or len(game.hand(0).cards()) == 13:
        game.play(game.legal_plays().cards()[0])
    return game


@pytest.mark.parametrize(
    ("preset", "taken_back"),
    [
        ("source-000", "Taken back: your moon choice and your 3♣, and 3 cards played after it."),
        ("standard", "Taken back: your K♣, A♣ and 3♣, and 9 cards played after them."),
    ],
)
def test_an_undo_back_into_the_deal_before_says_so(preset: str, taken_back: str) -> None:
    """An undo back over a deal's end, or back to its moon choice, said only the cards
    taken back (found by a tester): the moon question came again unannounced, and the
    deal number and the points changed without a word."""
    game = shot_then_forced(preset)
    assert game.deal_number == 1
    undone = Session(game, Session.new(Rules(), 0, ["x"], level="random").seats).undo()[0]
    assert isinstance(undone, Undone) and undone.back_to_deal == 0
    assert game.deal_number == 0 and not game.results
    said = Narrator(game.view(0), Style()).lines(undone)
    assert said == [f"{taken_back} Back to deal 1: its points are taken back."]


def test_undo_refused_with_reasons() -> None:
    session = Session.new(Rules(), 5, ["You"], level="random")
    with pytest.raises(SessionError, match="nothing of yours"):
        session.undo()


def test_memory_aids() -> None:
    session = Session.new(Rules(), 8, ["You"], level="easy")
    to_human(session)
    session.pass_cards(0, session.view().hand.cards()[-3:])
    to_human(session)
    aids = memory_aids(session.view())
    assert aids.played | aids.unseen | session.view().hand == CardSet(Rules().deck_mask)
    passed = session.view().passed
    assert passed is not None and aids.still_out_from_pass == passed & aids.unseen


def test_session_file_is_a_record_with_the_session_in_it(tmp_path: Path) -> None:
    session = Session.new(Rules(), 7, ["Ann"], level="hard", auto_play_one=False)
    to_human(session)
    session.pass_cards(0, session.view().hand.cards()[:3])
    path = tmp_path / "game.json"
    save_session(path, session.game, session.info())
    game, info = load_session(path)
    assert info == SessionInfo((0,), "hard", False)
    assert game.actions == session.game.actions
    assert loads(path.read_text()).actions == game.actions  # a record all the same
    assert list(tmp_path.iterdir()) == [path]  # no second file
    resumed = Session.resume(game, info)
    assert resumed.seats.level == "hard" and resumed.auto_play_one is False


def test_the_record_schema_describes_the_session_data() -> None:
    described = schema()["properties"]["session"]
    assert set(described["required"]) == set(SessionInfo().to_dict())


def test_a_plain_record_resumes_with_the_named_seat() -> None:
    game = Game(Rules(), 3, ["West", "Ann", "North", "East"])
    text = dumps_session(game, SessionInfo((1,), "random"))
    assert loads_session(text)[1] == SessionInfo((1,), "random", True)
    resumed = Session.resume(loads(text), None, name="Ann", level="random")
    assert resumed.human == 1


def test_undo_is_offered_only_where_it_takes_a_choice_back() -> None:
    """Found by a tester: the web page offered *Undo* when the person's cards so far
    were all forced (a hold deal's 2♣ led), and the undo was refused."""
    from openhearts.cards import Card
    from openhearts.session.undo import has_choice_to_undo

    rules = Rules(pass_cycle=("hold",))
    seed = next(s for s in range(100) if Card.parse("2C") in Game(rules, seed=s).hand(0))
    game = Game(rules, seed=seed)
    assert not has_choice_to_undo(game, 0, auto_play_one=True)  # nothing played yet
    game.apply(Play(0, Card.parse("2C")))
    before = list(game.actions)
    assert not has_choice_to_undo(game, 0, auto_play_one=True)
    # Without auto play one the 2♣ was the person's to play, and undo takes it back.
    assert has_choice_to_undo(game, 0, auto_play_one=False)
    assert game.actions == before  # asked on a copy
    passing = Game(Rules(), seed=seed)
    passing.apply(Pass(0, CardSet(passing.hand(0).cards()[:3])))
    assert has_choice_to_undo(passing, 0, auto_play_one=True)


def test_a_name_that_chooses_no_seat_is_said() -> None:
    """A name matching no seat of a record made elsewhere took seat 0 without a word, and
    a name given for a saved game (whose seat stays) was ignored without one."""
    game = Game(Rules(), 3, ["West", "Ann", "North", "East"])
    assert Session.resume(loads(dumps(game)), None, name="ann").human == 1
    assert Session.resume(loads(dumps(game)), None, name="Ann").seats.problem is None
    stranger = Session.resume(loads(dumps(game)), None, name="Zed")
    assert stranger.human == 0
    assert stranger.seats.problem == "no player in this game is called Zed: you play West's seat"
    saved = Session.resume(loads(dumps(game)), SessionInfo((1,)), name="North")
    assert saved.human == 1
    assert saved.seats.problem is not None and "saved with you as Ann" in saved.seats.problem
    assert Session.resume(loads(dumps(game)), SessionInfo((1,)), name="Ann").seats.problem is None
    # A name from the terminal game's settings, not typed: it still chooses a seat, but
    # there is nothing to say when it does not (it warned at every resume).
    quiet = Session.resume(loads(dumps(game)), None, name="Zed", name_typed=False)
    assert quiet.human == 0 and quiet.seats.problem is None
    assert Session.resume(loads(dumps(game)), None, name="Ann", name_typed=False).human == 1
    settled = Session.resume(loads(dumps(game)), SessionInfo((1,)), name="Zed", name_typed=False)
    assert settled.seats.problem is None


def test_a_computer_player_in_a_seat_called_you_gets_its_compass_name() -> None:
    """A record made from seat 0 ("You"), resumed at North: the computer player now at
    seat 0 was announced as "You plays ..."."""
    game = Game(Rules(), 3, ["You", "West", "North", "East"])
    resumed = Session.resume(loads(dumps_session(game, SessionInfo())), None, name="North")
    assert resumed.human == 2
    assert resumed.names == ("South", "West", "North", "East")
    also = Game(Rules(), 3, ["you", "South", "Ann", "East"])
    again = Session.resume(also, SessionInfo((2,), "random"))
    assert again.names == ("South 2", "South", "Ann", "East")
    mine = Session.resume(Game(Rules(), 3, ["You", "W", "N", "E"]), SessionInfo((0,), "random"))
    assert mine.names == ("You", "W", "N", "E")


def test_keys_are_case_insensitive_and_documented() -> None:
    for letter in "CSTRHULWMD":
        assert command_for_key(letter) == command_for_key(letter.lower()) is not None
    assert command_for_key("C") == (Command.READ_TABLE, None)
    assert [command_for_key(str(n)) for n in range(1, 7)] == [
        (Command.READ_CARD, n) for n in range(1, 7)
    ]
    assert command_for_word("HINT") == (Command.HINT, None)
    assert command_for_word("qs") is None
    assert len({key for entry in KEYS for key in entry.keys}) == sum(len(e.keys) for e in KEYS)
    assert (ROOT / "docs" / "keys.md").read_text(encoding="utf-8") == markdown(), (
        "docs/keys.md is out of date: run python scripts/keys_doc.py"
    )


@pytest.mark.parametrize("seed", range(6))
def test_compass_names_say_where_players_sit(seed: int) -> None:
    """With play going counterclockwise the next player sits on the right (East), and
    with a shuffled seating the compass names follow the seats, not the bots: "West"
    is always on the person's left, where a pass to the left goes."""
    backwards = Rules.preset("standard", direction="counterclockwise")
    session = Session.new(backwards, seed, table_names(4, "Ann", [], backwards.direction))
    assert session.game.names == ("Ann", "East", "North", "West")
    view = session.view()
    assert view.pass_direction == "left" and view.pass_target is not None
    assert view.names[view.pass_target] == "West"
    shuffled = Rules.preset("source-002", players=5)
    names = table_names(5, "Ann", ["Bob"], shuffled.direction)
    session = Session.new(shuffled, seed, names)
    compass = ("West", "Northwest", "Northeast", "East")
    seats = {name: seat for seat, name in enumerate(session.game.names)}
    assert session.game.names[0] == "Ann" and "Bob" in seats
    for position, name in enumerate(compass, start=1):
        assert name == "Bob" or seats.get(name, position) == position, session.game.names


def test_received_cards_are_marked_until_the_first_card_of_the_deal() -> None:
    """One rule for every face: the cards received stay marked until the person's first
    card of the deal (played by them, by auto play one, or by a bot for them)."""
    game = Game(seed=8)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[-3:])
    view = game.view(0)
    assert view.received is not None and just_received(view) == view.received
    while game.current_player != 0:
        game.play(game.legal_plays().cards()[0])
        assert just_received(game.view(0)) == view.received
    game.play(game.legal_plays().cards()[0])
    assert just_received(game.view(0)) == CardSet()
    assert just_received(Game(seed=8).view(0)) == CardSet()  # nothing received yet


def test_the_opening_lead_does_not_end_the_marks() -> None:
    """Found by a tester: the 2♣ is led at once for its holder (no choice), and the cards
    received were unmarked before they could be seen; the holder's next card ends them."""
    game = Game(seed=8)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[-3:])
    opener = game.current_player
    received = game.view(opener).received
    assert received is not None and game.legal_plays().cards() == [game.rules.first_lead_card]
    game.play(game.rules.first_lead_card)
    assert just_received(game.view(opener)) == received
    while game.current_player != opener:
        game.play(game.legal_plays().cards()[0])
    assert just_received(game.view(opener)) == received
    game.play(game.legal_plays().cards()[0])
    assert just_received(game.view(opener)) == CardSet()


def test_hearts_are_never_said_broken_where_they_may_be_led_at_any_time() -> None:
    """Under source 002 the engine counts hearts as broken from the start (for the rule);
    every face said "Hearts are broken." from the first card. One rule now says what a
    player would: they may be led at any time."""
    from openhearts.session.memory import hearts_broken, hearts_sentence
    from openhearts.web.memory import memory_json
    from openhearts.web.views import view_json

    game = Game(Rules.preset("source-002"), seed=5)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[:3])
    game.play(game.legal_plays().cards()[0])
    view = game.view(game.current_player or 0)
    assert view.hearts_broken  # the engine's flag, for the rule
    assert not hearts_broken(view) and not memory_aids(view).hearts_broken
    assert hearts_sentence(view) == "Hearts may be led at any time."
    assert "Hearts may be led at any time." in words.memory(view)
    assert "broken" not in words.status(view)
    state = view_json(view, view.seat)
    assert state["hearts_broken"] is False and state["hearts_free"] is True
    assert memory_json(view, view.seat)["hearts_sentence"] == "Hearts may be led at any time."
    standard = Game(Rules(), seed=5).view(0)
    assert hearts_sentence(standard) == "Hearts are not broken yet."


def test_hearts_broken_is_said_with_its_card_before_the_trick_it_ends_is_taken() -> None:
    from conftest import SUIT_HANDS, hold_rules, scripted_game
    from openhearts.session.events import (
        CardPlayed,
        HeartsBroken,
        TrickTaken,
        apply_with_events,
    )

    game = scripted_game(hold_rules(), SUIT_HANDS)
    for card in ("2C", "2D", "2S"):
        apply_with_events(game, Play(game.current_player or 0, Card.parse(card)))
    # Seat 3 holds only hearts: its heart ends the first trick and breaks hearts.
    events = apply_with_events(game, Play(3, Card.parse("2H")))
    kinds = [type(event) for event in events]
    assert kinds[:3] == [CardPlayed, HeartsBroken, TrickTaken], kinds


@pytest.mark.parametrize("name", ["West", "North", "East"])
def test_a_compass_name_of_ones_own_stays_unique_after_a_seating_shuffle(name: str) -> None:
    """With 002's shuffled seating a computer player was renamed to the person's own
    compass name: "you (West) against West, West 2 and East"."""
    rules = Rules.preset("source-002")
    for seed in range(12):
        session = Session.new(rules, seed=seed, names=[name], level="random")
        names = list(session.game.names)
        assert len(set(names)) == len(names), (seed, names)
        assert session.human == 0 and names[0] == name


def test_a_record_made_elsewhere_resumes_with_the_persons_auto_play_one() -> None:
    """A record without session data resumed in the plain game with auto play one on,
    whatever --no-auto-play-one said (the terminal game took the person's setting)."""
    game = Game(Rules(), seed=3)
    assert Session.resume(game, None, auto_play_one=False).auto_play_one is False
    saved = SessionInfo((0,), "easy", auto_play_one=True)
    assert Session.resume(game, saved, auto_play_one=False).auto_play_one is True
    # --no-auto-play-one given turns it off in a saved game too, in every face.
    given = Session.resume(game, saved, auto_play_one=False, no_auto_play_one=True)
    assert given.auto_play_one is False


def test_saving_on_the_way_out_never_moves_the_games_own_file_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save file named by a relative path and the default by an absolute one are
    the same file: when saving failed there, the fallback took the game's own file for
    another unfinished game and moved it aside, and --resume no longer found it."""
    import errno

    from openhearts.session import saving

    game = Game(seed=3)
    game.pass_cards(0, game.hand(0).cards()[:3])
    own = tmp_path / "saved-game.json"
    save_session(own, game, SessionInfo())
    monkeypatch.chdir(tmp_path)

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saving, "save_session", full)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    saved, problems = saving.save_somewhere(game, SessionInfo(), "saved-game.json", str(own))
    assert saved is None
    assert own.exists() and not list(tmp_path.glob("saved-game-unfinished-*")), problems
    assert problems[0] == "Could not save the game to saved-game.json: No space left on device."


def test_a_free_file_is_the_first_one_no_other_program_holds(tmp_path: Path) -> None:
    from openhearts.session.saving import SaveFileInUse, free_file

    taken = {str(tmp_path / "g.json"), str(tmp_path / "g-2.json")}
    held: list[str] = []

    def hold(path: str) -> None:
        if path in taken:
            raise SaveFileInUse(path)
        held.append(path)

    assert free_file(str(tmp_path / "g.json"), hold) == str(tmp_path / "g-3.json")
    assert held == [str(tmp_path / "g-3.json")]

    def none_free(path: str) -> None:
        raise SaveFileInUse(path)

    assert free_file(str(tmp_path / "g.json"), none_free) is None


def test_the_lock_file_goes_with_the_game_and_a_removed_one_is_not_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FILE.lock stayed beside every save file.  Now each game removes it as it leaves,
    so a game that won its lock on the file just removed (opened before the removal)
    must take the new one, or two games would both hold "the" lock."""
    import fcntl

    from openhearts.session.saving import SaveFileInUse, only_this_game_on

    path = tmp_path / "g.json"
    lock = tmp_path / "g.json.lock"
    with only_this_game_on(path):
        assert lock.exists()
    assert not lock.exists()
    real_flock = fcntl.flock
    removed: list[bool] = []

    def flock_then_the_last_holder_leaves(fd: int, operation: int) -> None:
        real_flock(fd, operation)
        if not removed:
            removed.append(True)
            lock.unlink()

    monkeypatch.setattr(fcntl, "flock", flock_then_the_last_holder_leaves)
    with only_this_game_on(path):
        monkeypatch.setattr(fcntl, "flock", real_flock)
        assert removed and lock.exists()
        with pytest.raises(SaveFileInUse), only_this_game_on(path):
            pass
    assert not lock.exists()


def test_one_save_file_holds_one_game_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two games on one file (two terminals on one home) each wrote over the other, and
    both said their game was saved there: the second is refused, saying what to do, with
    status 2 as for the other refusals before a game (1 said it could not be saved)."""
    from openhearts.cli import main
    from openhearts.session.saving import only_this_game_on
    from openhearts.tui.app import HeartsApp

    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path))
    path = tmp_path / "saved-game.json"

    def never(self: object) -> None:
        raise AssertionError("the terminal game started on a file in use")

    monkeypatch.setattr(HeartsApp, "run", never)
    terminal = types.SimpleNamespace(isatty=lambda: True)
    with only_this_game_on(path):
        assert main(["play", "--plain", "--seed", "1"]) == 2
        # The terminal game, as from a terminal.
        with monkeypatch.context() as patch:
            patch.setattr(
                "openhearts.play.sys", types.SimpleNamespace(stdin=terminal, stdout=terminal)
            )
            assert main(["play", "--seed", "1"]) == 2
    said = capsys.readouterr().err.splitlines()
    assert (
        said
        == [
            f"hearts play: another game is open on {path} (in another window or terminal): "
            "quit it first, or play this one with --save FILE"
        ]
        * 2
    )
    assert not path.exists()
    # Once it is free, a game may be played on it.
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--plain", "--seed", "1"]) == 0
    assert path.exists()


def test_a_write_removes_what_a_killed_write_left(tmp_path: Path) -> None:
    """Each kill mid-write left a hidden temporary file holding the game, for ever."""
    from openhearts.session.saving import STALE_SECONDS, write_atomic

    target = tmp_path / "saved-game.json"
    old = tmp_path / ".saved-game.json.abc123.tmp"
    fresh = tmp_path / ".saved-game.json.def456.tmp"  # perhaps being written right now
    other = tmp_path / ".statistics.json.abc123.tmp"
    for left in (old, fresh, other):
        left.write_text("{", encoding="utf-8")
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    write_atomic(target, "{}")
    assert target.read_text(encoding="utf-8") == "{}"
    assert not old.exists() and fresh.exists() and other.exists()


@pytest.mark.parametrize("level", ["cmd:touch pwned", "os:system", "hard:budget=7"])
def test_a_saved_level_runs_no_program_and_imports_nothing(level: str) -> None:
    """A save file's level of cmd:PROGRAM or module:Class ran or imported it when the
    game was resumed: a shared file must not. A level by name keeps its options."""
    info = SessionInfo.from_dict({"humans": [0], "level": level}, 4)
    assert info is not None
    assert info.level == (level if level.startswith("hard") else SessionInfo.level)


def test_a_file_larger_than_any_of_ours_is_not_read(tmp_path: Path) -> None:
    """The size is checked, and the read bounded: a file of /proc says it holds 0 bytes."""
    from openhearts.paths import read_text

    big = tmp_path / "big.json"
    big.write_text("{}" * 6)
    assert read_text(big, limit=12) == "{}" * 6
    for path in (big, Path("/proc/self/status")):
        if not path.exists():
            continue
        with pytest.raises(OSError, match="larger than any file OpenHearts writes"):
            read_text(path, limit=11)


def test_a_file_naming_several_people_resumes_with_one() -> None:
    """No face asks two people in turn: a file edited to name seats 1 and 2 asked seat 1
    and then found no computer player for seat 2 (KeyError)."""
    game = Game(seed=3)
    session = Session.resume(game, SessionInfo(humans=(2, 1), level="random"))
    assert session.human == 1 and session.info().humans == (1,)
    while not session.game.is_over and session.game.deal_number == 0:
        if not session.step():
            session.play_for_me()
    assert session.game.deal_number == 1 or session.game.is_over


def test_a_seed_too_long_for_a_number_is_a_word() -> None:
    digits = "9" * 5000
    assert game_seed(digits) == digits


def test_the_plain_games_command_table_names_every_word_it_takes() -> None:
    """The in-game help listed ``sheet`` and ``exit``; docs/playing.md did not."""
    text = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    table = text.split("| command | what it does |", 1)[1].split("\n\n", 1)[0]
    documented = set(re.findall(r"`([a-z?]+)(?: [A-Z\[\]]+)*`", table))
    words = {word for key in KEYS if key.plain for word in key.words}
    assert words <= documented, sorted(words - documented)


def test_files_set_aside_never_replace_one_set_aside_before(tmp_path: Path) -> None:
    """Found by a tester: a second damaged file replaced the first one kept as .bad."""
    from openhearts.session.saving import keep_aside

    target = tmp_path / "notes.txt"
    (tmp_path / "notes.txt.bad").write_text("OLD", encoding="utf-8")
    target.write_text("NEW", encoding="utf-8")
    said = keep_aside(target)
    assert said is not None and "notes.txt.bad-2" in said
    assert (tmp_path / "notes.txt.bad").read_text(encoding="utf-8") == "OLD"
    assert (tmp_path / "notes.txt.bad-2").read_text(encoding="utf-8") == "NEW"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_no_lock_file_is_made_beside_a_pipe_or_a_device(tmp_path: Path) -> None:
    """``--save /dev/null`` made /dev/null.lock."""
    from openhearts.session.saving import only_this_game_on

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with only_this_game_on(pipe):
        pass
    assert not (tmp_path / "pipe.lock").exists()


def test_a_saved_game_with_a_byte_order_mark_resumes_and_a_refused_level_is_said() -> None:
    """Found by a tester: a BOM (replay read past it) stopped --resume with a traceback;
    a level the file named that is no level was replaced by easy without a word."""
    text = dumps_session(Game(seed=4), SessionInfo(humans=(0,), level="hard"))
    game, info = loads_session("\ufeff" + text)
    assert game.seed == 4 and info is not None and info.level == "hard"
    edited = text.replace('"level": "hard"', '"level": "cmd:/bin/false"')
    game, info = loads_session(edited)
    assert info is not None and info.level == "easy"
    session = Session.resume(game, info)
    assert session.seats.problem is not None
    assert "'cmd:/bin/false', are no level by name" in session.seats.problem


def test_names_an_ascii_output_cannot_show_stay_apart() -> None:
    """As "?", Ω and 😀 read the same: "? plays 7♣" could be either."""
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    shown = Style(False).for_stream("Ω and 😀 play Q♠", stream)
    assert shown == "\\u03a9 and \\U0001f600 play QS"
