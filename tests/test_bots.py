"""Bots: they see only a player's view, play only legal cards, and play sensibly."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import CONFIGS, config_id, hold_rules
from openhearts import Card, CardSet, Game, PlayerView, Rules
from openhearts.bots import Bot, BotError, act, load_bot, make_bot
from openhearts.bots.easy import EasyBot, _careful_lead, _keep_stoppers
from openhearts.bots.hard import HardBot, points_settled_in_view
from openhearts.bots.policy import QS, pass_policy, play_policy
from openhearts.game import TrickRecord
from openhearts.phases import Phase
from openhearts.record import dumps, loads

# The view -------------------------------------------------------------------------


def _cards_in(value: object) -> int:
    """Every card mentioned anywhere in a value (views, tuples, sets, records), as a mask."""
    if isinstance(value, CardSet):
        return value.mask
    if isinstance(value, Card):
        return 1 << value
    if isinstance(value, TrickRecord):
        return _cards_in(value.cards)
    if isinstance(value, tuple | list | frozenset | set):
        mask = 0
        for item in value:
            mask |= _cards_in(item)
        return mask
    return 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_view_holds_no_other_hidden_cards(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1])
    rng = random.Random(1)
    game = Game(rules, seed=4)
    bots = [make_bot("random", seed=s) for s in range(rules.players)]
    checked = 0
    while not game.is_over and checked < 300:
        for seat in range(rules.players):
            view = game.view(seat)
            mentioned = 0
            for item in dataclasses.fields(view):
                if item.name != "rules":
                    mentioned |= _cards_in(getattr(view, item.name))
            others = 0
            for other in range(rules.players):
                if other != seat:
                    others |= game.hand(other).mask
            # Only the cards this seat passed may be known in another hand.
            leaked = mentioned & others & ~(view.passed.mask if view.passed else 0)
            assert not leaked, f"seat {seat} sees {CardSet(leaked)}"
            checked += 1
        mover = rng.choice(game.to_act())
        act(game, mover, bots[mover])


class _Cheat:
    """A bot that tries to look at the other hands."""

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(list(view.hand)[: view.rules.cards_passed])

    def choose_play(self, view: PlayerView) -> Card:
        game = view.game  # type: ignore[attr-defined]
        return Card(next(iter(game.hand((view.seat + 1) % view.rules.players))))

    def choose_moon(self, view: PlayerView) -> bool:
        return True


def test_a_bot_gets_only_a_view_and_cannot_reach_the_game() -> None:
    game = Game(hold_rules(), seed=2)
    seen: list[object] = []

    class Spy(_Cheat):
        def choose_play(self, view: PlayerView) -> Card:
            seen.append(view)
            return super().choose_play(view)

    seat = game.to_act()[0]
    with pytest.raises(AttributeError):
        act(game, seat, Spy())
    assert len(seen) == 1 and type(seen[0]) is PlayerView
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert not names & {"game", "hands", "deal", "dealt"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen[0].hand = CardSet()  # type: ignore[attr-defined,misc]


# Legal play everywhere ----------------------------------------------------------------


class _Checked:
    """Wraps a bot and checks each of its choices against the view."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.plays = 0

    def choose_pass(self, view: PlayerView) -> CardSet:
        cards = self.bot.choose_pass(view)
        assert isinstance(cards, CardSet)
        assert len(cards) == view.rules.cards_passed and cards <= view.hand
        return cards

    def choose_play(self, view: PlayerView) -> Card:
        card = self.bot.choose_play(view)
        assert card in view.legal, f"{self.bot!r} played {card} not in {view.legal}"
        self.plays += 1
        return card

    def choose_moon(self, view: PlayerView) -> bool:
        return bool(self.bot.choose_moon(view))


def _play_deals(rules: Rules, levels: list[str], deals: int, seed: str, **hard: Any) -> int:
    """Play single deals of every pass direction; returns the number of checked plays."""
    plays = 0
    cycle = len(rules.pass_cycle or ())
    for number in range(deals):
        bots: list[_Checked] = []
        for seat in range(rules.players):
            level = levels[(seat + number) % len(levels)]
            bot = (
                HardBot(f"{seed}{number}:{seat}", **hard)
                if level == "hard"
                else make_bot(level, f"{seed}{number}:{seat}")
            )
            bots.append(_Checked(bot))
        game = Game(rules, seed=f"{seed}:{number}", first_deal=number % cycle)
        first = game.deal_number
        while not game.is_over and game.deal_number == first:
            seat = game.to_act()[0]
            act(game, seat, bots[seat])
        assert game.results[-1].number == first
        plays += sum(b.plays for b in bots)
    return plays


@pytest.mark.parametrize("jack", [False, True], ids=["plain", "jack"])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_and_easy_play_legally(config: tuple[str, int], jack: bool) -> None:
    rules = Rules.preset(config[0], players=config[1], jack_of_diamonds=jack)
    assert _play_deals(rules, ["easy", "random", "easy"], 40, "legal") > 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_hard_plays_legally(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1], jack_of_diamonds=config[1] == 5)
    assert _play_deals(rules, ["hard", "easy", "random"], 3, "hard", budget=2) > 0


@pytest.mark.slow
@pytest.mark.parametrize("jack", [False, True], ids=["plain", "jack"])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_thousands_of_deals_play_legally(config: tuple[str, int], jack: bool) -> None:
    rules = Rules.preset(config[0], players=config[1], jack_of_diamonds=jack)
    _play_deals(rules, ["easy", "random"], 1000, "many")
    _play_deals(rules, ["hard", "easy", "random"], 60, "manyhard", budget=3)


def test_whole_games_with_bots_replay_from_their_record() -> None:
    rules = Rules.preset("source-000", end_score=40)
    game = Game(rules, seed=11)
    bots = [make_bot(level, seed=s) for s, level in enumerate(["hard", "easy", "random", "easy"])]
    bots[0] = HardBot(0, budget=4)
    while not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    assert loads(dumps(game)).scores == game.scores


# Easy -----------------------------------------------------------------------------


def _view(rules: Rules, hands: list[str], plays: str = "", seat: int | None = None) -> PlayerView:
    game = Game(rules, hands=[[CardSet.parse(h) for h in hands]])
    for name in plays.split():
        game.play(Card.parse(name))
    viewer = game.current_player if seat is None else seat
    assert viewer is not None
    return game.view(viewer)


def test_easy_passes_the_queen_high_spades_and_high_hearts() -> None:
    hand = CardSet.parse("2C 5C 9D TD QS KS 3S AH KH 4H 7D 8D 2D")
    assert CardSet(pass_policy(hand.mask, 3, False)) == CardSet.parse("QS KS AH")
    long_spades = CardSet.parse("2S 3S 4S QS AS 5D 6D 7D 8D 9C TC JC AH")
    passed = CardSet(pass_policy(long_spades.mask, 3, False))
    assert CardSet.parse("QS") & passed == CardSet() and CardSet.parse("AH") <= passed
    short_clubs = CardSet.parse("3C 8C 2D 3D 4D 5D 6D 2S 3S 4S 2H 3H 4H")
    assert CardSet.parse("3C 8C") <= CardSet(pass_policy(short_clubs.mask, 3, False))


def _policy(hand: str, trick: str = "", gone: str = "", leader: int = 1) -> Card:
    """The easy rule for seat 0 of four, with ``trick`` led by ``leader`` and no moon."""
    trick_cards = [int(Card.parse(c)) for c in trick.split()]
    hand_mask = CardSet.parse(hand).mask
    gone_mask = CardSet.parse(gone).mask | CardSet(trick_cards).mask
    legal = hand_mask
    if trick_cards:
        led = CardSet(hand_mask).of_suit(trick_cards[0] // 13).mask
        legal = led or hand_mask
    return Card(play_policy(0, hand_mask, legal, trick_cards, leader, 4, gone_mask, -1, False))


def test_easy_ducks_under_the_winning_card() -> None:
    assert _policy("5C 7C TC 2D", "9C", leader=3) == Card.parse("7C")
    # Last to play on a trick with a heart: duck if it can...
    assert _policy("7C TC 2D", "9C 2H 3C") == Card.parse("7C")
    # ...and when it cannot, win with the highest card, getting rid of it.
    assert _policy("TC KC 2D", "9C 2H 3C") == Card.parse("KC")
    # Not last and forced over a heart: the lowest card, someone may still go higher.
    assert _policy("TC KC 2D", "9C 2H", leader=2) == Card.parse("TC")
    # The Q♠ goes under a king or ace of spades.
    assert _policy("3S QS 2D", "KS", leader=3) == Card.parse("QS")


def test_easy_dumps_the_queen_then_high_hearts_when_void() -> None:
    assert _policy("QS AH 3C", "4D", leader=3) == Card.parse("QS")
    assert _policy("3C AH 5H", "4D", leader=3) == Card.parse("AH")
    # With the queen still out, the A♠ and K♠ go before hearts.
    assert _policy("3C AS 5H", "4D", leader=3) == Card.parse("AS")


def test_easy_discards_the_queen_in_a_real_game() -> None:
    rules = hold_rules()
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD QS",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS AD KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    # The first trick bars the Q♠; on the second, the void seat 1 throws it.
    view = _view(rules, hands, "2C KD AS 2H 3C")
    assert view.seat == 1
    assert EasyBot(0).choose_play(view) == Card.parse("QS")


def test_easy_leads_low_where_someone_must_go_over() -> None:
    assert _policy("2D 7D 9C KC", gone="2C 3C 4C 5C") == Card.parse("2D")
    # A low spade flushes the queen out when it holds no high spade itself.
    assert _policy("3S 9C KC 8D", gone="2C 3C 4C 5C 2S") == Card.parse("3S")
    # A suit nobody else holds is not led while a safe one exists.
    assert _policy("AD 3C", gone=" ".join(f"{r}D" for r in "23456789TJQK")) == Card.parse("3C")


def _easy(rules: Rules, hands: list[str], plays: str) -> Card:
    return EasyBot(0).choose_play(_view(rules, hands, plays))


def test_easy_drops_the_queen_under_a_higher_spade() -> None:
    """The rules of thumb duck with the highest card below the winner, the K♠ before the
    Q♠; a careful player drops the queen under the A♠ (second to play and last)."""
    hands = [
        "2C 3C KS QS 3S 5D 6D 7D 8D 9D 4H 5H 6H",
        "4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D 4D",
        "2S 4S 5S 6S 7S 8S 9S TS JS TD JD QD KD",
        "AC AS AD 2H 3H 7H 8H 9H TH JH QH KH AH",
    ]
    assert _easy(hold_rules(), hands, "2C 4C 2S AC AS") == Card.parse("QS")
    last = [
        "2C 3C 3S QS 4D 5D 6D 7D 8D 9D 4H 5H 6H",
        "AC AS AD 2H 3H 7H 8H 9H TH JH QH KH AH",
        "4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D TD",
        "2S 4S 5S 6S 7S 8S 9S TS JS KS JD QD KD",
    ]
    # Last on the A♠ with no points on it: "nothing to lose" plays the 3♠.
    assert _easy(hold_rules(), last, "2C AC 4C 2S AS TD 4S") == Card.parse("QS")


def test_easy_keeps_the_jack_of_diamonds_unless_winning_it_pays() -> None:
    rules = hold_rules("source-003", jack_of_diamonds=True)
    hands = [
        "5C 6C 7C 8C 9C 3D JD 2H 3H 4H 5H 6H 2C",
        "TC JC QC KC AC QD 4D 7D 8D 9D TD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS 5D 6D 2D",
        "3C 4C QS KS AS 7H 8H 9H TH JH QH KH AH",
    ]
    # Seat 1 takes the first trick and leads the Q♦: the J♦ under it would hand the
    # Q♦'s player 10.
    assert _easy(rules, hands, "2C AC 2S 3C QD 5D 4C") == Card.parse("3D")
    # Last on a trick holding the Q♠: winning it with the J♦ scores +3, ducking 0.
    assert _easy(rules, hands, "2C AC 2S 3C 4D 2D QS") == Card.parse("3D")
    # On a trick without points, winning with the J♦ pays 10.
    assert _easy(rules, hands, "2C AC 2S 3C 4D 2D 4C") == Card.parse("JD")


def test_easy_never_throws_the_jack_of_diamonds_under_a_higher_diamond() -> None:
    """Found by a tester: once a seat held every point taken (the Q♠ alone), easy took it
    for a moon and skipped its checks: its rule of thumb threw the J♦ under the K♦."""
    rules = hold_rules("source-003", jack_of_diamonds=True)
    hands = [
        "2C 3C 5C 5D TD JD 8S 9S 4H 6H 3H QC TC",
        "AC KC KD 2D 3D 6D 8D 9D QD AD 2S 3S 4S",
        "QS 5S 7D 2H 5H 7H 8H 9H TH JH QH KH AH",
        "4C 6C 7C 8C 9C JC 4D 6S 7S TS JS KS AS",
    ]
    # Seat 1 takes the Q♠ on the second trick, then leads the K♦.
    assert _easy(rules, hands, "2C AC 5S 4C KC QS 6C 3C KD 7D 4D") != Card.parse("JD")


def test_easy_goes_over_low_when_a_later_player_has_shown_a_void() -> None:
    hands = [
        "2C 5C KC 4D 5D 6D 7D 8D 2S 3S 4S 2H 3H",
        "2D 3D 9D TD JD QD KD AD QS 5S 6S 9H TH",
        "4C 6C 7C 8C 9C TC 7S 8S 9S TS 4H 5H 6H",
        "AC 3C JC QC JS KS AS 7H 8H JH QH KH AH",
    ]
    # Seat 1 showed a void in clubs on the first trick: it may throw the Q♠ on the K♣.
    assert _easy(hold_rules(), hands, "2C 2D 4C AC 3C") == Card.parse("5C")


def test_easy_leads_neither_its_queen_nor_from_a_short_high_spade() -> None:
    rules = hold_rules()
    short_king = [
        "AC QC KC 9D TD JD QD KD 4S KS 9H TH JH",
        "3C 4C 5C 6C 2D 3D 4D 5D 2S 3S QS 2H 3H",
        "7C 8C 9C TC JC 6D 7D 8D 5S 6S 7S 4H 5H",
        "2C AD 8S 9S TS JS AS 6H 7H 8H QH KH AH",
    ]
    assert _easy(rules, short_king, "2C AC 3C 7C").suit != 2
    bare_queen = [
        "3C 4C 9C 3D 5D 6D 7D 8D KD 5S 2H TH AH",
        "5C QC TD AD 3S 8S QS 5H 6H 7H 8H 9H KH",
        "7C TC KC 2D JD 2S 4S 6S 7S 9S AS 4H QH",
        "2C 6C 8C JC AC 4D 9D QD TS JS KS 3H JH",
    ]
    plays = "2C 9C 5C KC 2S TS 5S 8S 4D 3D AD JD 3S 4S JS AH 6C 4C QC TC"
    view = _view(rules, bare_queen, plays)
    assert view.seat == 1 and view.hand & CardSet.parse("QS")
    assert EasyBot(0).choose_play(view) != Card.parse("QS")


def test_easy_keeps_its_stoppers_when_a_shooter_takes_the_trick() -> None:
    """Seat 0 has every point and runs its spades; seat 3, void in spades, keeps the A♦,
    which can beat the shooter's last diamonds, and its hearts, which may yet go onto
    someone else's trick: it throws the 10♦."""
    hands = [
        "KC AC 2D 5D 8D JD KD 2S 4S 5S 9S AS TH",
        "3C 6C 7C TC JC QC 6D 3S 6S 8S 6H 7H 9H",
        "4C 5C 8C 9C 3D QD TS QS KS 3H 8H KH AH",
        "2C 4D 7D 9D TD AD 7S JS 2H 4H 5H JH QH",
    ]
    plays = (
        "2C KC 6C 8C AC TC 9C 4H 2S 8S KS JS QD 9D JD 6D 3D 7D 8D 3S KD 6S QS 4D "
        "TH 6H 3H 2H AS 3C TS 7S 4S 7C KH"
    )
    view = _view(hold_rules(), hands, plays)
    assert view.seat == 3 and view.points_taken == (18, 0, 0, 0)
    assert view.hand == CardSet.parse("TD AD 5H JH QH")
    assert EasyBot(0).choose_play(view) == Card.parse("TD")


def test_easy_never_leads_its_queen_by_choice() -> None:
    """The A♠ and K♠ gone, a led queen is its own player's 13 points: the rules of thumb
    led it from Q♠ 6♦ at the twelfth trick."""
    hand = CardSet.parse("6D QS").mask
    unseen = CardSet.parse("7D 8D 2D 3D 5D 6S").mask

    def lowest(cards: int) -> int:
        return (cards & -cards).bit_length() - 1

    assert _careful_lead(QS, hand, hand, unseen, lowest) == Card.parse("6D")
    # The queen alone is led: it is the only card.
    only = CardSet.parse("QS").mask
    assert _careful_lead(QS, only, only, unseen, lowest) == QS


def test_easy_throws_a_shooter_a_card_that_can_win_nothing() -> None:
    """Void on a would-be shooter's trick: it threw the 2♥ (its lowest card) and the
    shooter went on to take every heart. A card below every card of its suit still out
    goes first, then the lowest other card; a heart only when nothing else is spare."""
    hand = CardSet.parse("7C 9C KC 6S 7S AS 2H 6H").mask

    def thrown(unseen: str, held: int = hand) -> Card:
        return Card(_keep_stoppers(held, held, CardSet.parse(unseen).mask))

    assert thrown("8C TC QC 2S 8S 3H 4H") == Card.parse("7C")
    assert thrown("3C 8C 2S 8S 3H 4H") == Card.parse("6S")
    assert thrown("3C 2S 3H", CardSet.parse("KC AS 2H 6H QS").mask) == Card.parse("2H")


def test_easy_plays_no_moon_where_the_rules_have_none() -> None:
    hands = [
        "2C 2D KD 3S 4S 6C 7C 8C 9C TC 2H 3H 4H",
        "AC AS 9D 5S 6S 7S 8S 9S TS JS KS AD QD",
        "3C QS 3D 4D 5D 6D 7D 8D TD JD 5C JC QC",
        "4C 2S 5H 6H 7H 8H 9H TH JH QH KH AH KC",
    ]
    plays = "2C AC 3C 4C AS QS 2S 3S 9D 3D 5H"
    # Seat 1 holds every point so far: where a moon scores, easy takes the heart away.
    assert _easy(hold_rules(), hands, plays) == Card.parse("KD")
    assert _easy(hold_rules(moon="none"), hands, plays) == Card.parse("2D")


# Hard -----------------------------------------------------------------------------


def test_hard_is_repeatable_and_the_same_with_two_workers() -> None:
    rules = Rules()
    game = Game(rules, seed=21)
    for seat in range(4):
        game.pass_cards(seat, EasyBot(0).choose_pass(game.view(seat)))
    one = HardBot(5, budget=12)
    again = HardBot(5, budget=12)
    two = HardBot(5, budget=12, workers=2)
    # More workers than cores: no more processes than cores, and the same choices.
    many = HardBot(5, budget=12, workers=10_000)
    easy = EasyBot(1)
    compared = 0
    try:
        for _ in range(10):
            mover = game.current_player
            assert mover is not None
            seat = mover
            view = game.view(seat)
            if len(view.legal) > 1:
                first = one.analyse(view)
                assert first == again.analyse(view) == two.analyse(view) == many.analyse(view)
                compared += 1
                assert len(multiprocessing.active_children()) <= 2 + (os.cpu_count() or 1)
            game.play(easy.choose_play(view))
    finally:
        two.close()
        many.close()
    assert compared >= 3


def test_hard_analyse_ranks_every_legal_card() -> None:
    game = Game(Rules(), seed=8)
    for seat in range(4):
        game.pass_cards(seat, EasyBot(0).choose_pass(game.view(seat)))
    easy = EasyBot(0)
    for _ in range(5):
        mover = game.current_player
        assert mover is not None
        seat = mover
        game.play(easy.choose_play(game.view(seat)))
    view = game.view(game.current_player or 0)
    ranked = HardBot(1, budget=10).analyse(view)
    assert CardSet(card for card, _ in ranked) == view.legal
    assert len(ranked) == len(view.legal)
    assert HardBot(1, budget=10).choose_play(view) == ranked[0][0]
    assert all(isinstance(points, float) for _, points in ranked)


def test_hard_shoots_the_moon_with_a_commanding_hand() -> None:
    rules = hold_rules()
    hands = [
        "AC KC QC JC AS KS QS AH KH QH JH TH 9H",
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 2S 3S 2H 3H",
        "7C 8C 9C 6D 7D 8D 9D 4S 5S 6S 4H 5H 6H",
        "TC TD JD QD KD AD 7S 8S 9S TS JS 7H 8H",
    ]
    game = Game(rules, hands=[[CardSet.parse(h) for h in hands]])
    bots: list[Bot] = [HardBot(3, budget=30), EasyBot(1), EasyBot(2), EasyBot(3)]
    while not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
    result = game.results[0]
    assert result.shooter == 0 and result.points[0] == 0


def _blocking_view() -> PlayerView:
    """Two tricks left: seat 1 has taken every point (24) and leads the K♦; seat 2 threw
    the 2♥ on it.  Seat 0 can take the trick with the A♦ and stop the moon."""
    rules = Rules(pass_cycle=("hold",))
    left = CardSet.parse("AD 4D KD 3H 2H 5C 3D 6C")
    rest = [c for c in CardSet(rules.deck_mask & ~left.mask)]
    tricks = tuple(
        TrickRecord(1, tuple(Card(c) for c in sorted(rest[i::11], key=lambda c: c)), 1)
        for i in range(11)
    )
    won = CardSet(rest)
    trick = ((1, Card.parse("KD")), (2, Card.parse("2H")), (3, Card.parse("3D")))
    return PlayerView(
        rules=rules, seat=0, names=("S", "W", "N", "E"), phase=Phase.PLAYING, deal_number=0,
        dealer=0, pass_direction="hold", pass_target=None, pass_source=None,
        hand=CardSet.parse("AD 4D"), passed=None, received=None, to_move=0,
        legal=CardSet.parse("AD 4D"), leader=1, trick=trick, tricks=tricks,
        hand_sizes=(2, 1, 1, 1), won=(CardSet(), won, CardSet(), CardSet()),
        points_taken=(0, 24, 0, 0), hearts_broken=True,
        voids=(frozenset(), frozenset(), frozenset({1}), frozenset()),  # type: ignore[arg-type]
        scores=(0, 0, 0, 0), deal_points=(), passing_done=True,
    )  # fmt: skip


def test_hard_and_easy_stop_a_moon() -> None:
    view = _blocking_view()
    ranked = HardBot(0, budget=30).analyse(view)
    assert ranked[0][0] == Card.parse("AD")
    assert dict(ranked)[Card.parse("AD")] < dict(ranked)[Card.parse("4D")]
    assert EasyBot(0).choose_play(view) == Card.parse("AD")


def test_hard_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        HardBot(0, budget=0)
    assert make_bot("hard", 1).budget == HardBot().budget  # type: ignore[attr-defined]


# Bad bot specs and options -------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (":", "'' is not a module name"),
        (":Cls", "'' is not a module name"),
        (".x:Y", "'.x' is not a module name"),
        ("pkg..mod:Y", "'pkg..mod' is not a module name"),
        ("os:", "'' is not a class name"),
        ("nosuch.mod:X", "No module named 'nosuch'"),
    ],
)
def test_an_import_path_naming_no_module_gets_a_message(spec: str, message: str) -> None:
    """Names importlib cannot use (empty, relative) are refused as a missing module is,
    not with importlib's own exceptions."""
    with pytest.raises(BotError, match=rf"cannot load bot '{spec}': {message}"):
        load_bot(spec)
    with pytest.raises(BotError, match="cannot load bot"):
        make_bot(spec)


def test_the_arena_and_the_plain_game_refuse_an_empty_module_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from openhearts.cli import main

    assert main(["arena", "--bot", ":Cls", "--bot", "random", "--deals", "1"]) == 2
    assert "cannot load bot ':Cls'" in capsys.readouterr().err
    save = str(tmp_path / "game.json")
    assert main(["play", "--plain", "--level", ".x:Y", "--save", save]) == 2
    assert "cannot load bot '.x:Y'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("level", "options", "message"),
    [
        ("hard", {"budget": 1.5}, "budget=1.5: a whole number"),
        ("hard:budget=1.5", {}, "budget=1.5: a whole number"),
        ("hard", {"budget": True}, "budget=True: a number"),
        ("hard", {"workers": "2"}, "workers=2: a number"),
        ("expert", {"pool": 240.0}, "pool=240.0: a whole number"),
        ("expert", {"moon_fear": None}, "moon_fear=None: a number"),
        ("expert", {"moon_fear": "1"}, "moon_fear=1: a number"),
        ("expert", {"learned": 2}, r"learned=2: 1 \(on\) or 0 \(off\)"),
        ("expert:learned=2", {}, r"learned=2: 1 \(on\) or 0 \(off\)"),
        ("hard", {"compiled": 0.5}, r"compiled=0.5: 1 \(on\) or 0 \(off\)"),
        ("hard", {"time_limit": -1}, "time_limit: seconds per decision, above 0"),
        ("hard:time_limit=0", {}, "time_limit: seconds per decision, above 0"),
        ("expert", {"time_limit": 0.0}, "time_limit: seconds per decision, above 0"),
        ("openspiel-random", {"sims": 3}, "no option 'sims'; it takes no options"),
        ("openspiel-random:seconds=1", {}, "no option 'seconds'; it takes no options"),
    ],
)
def test_every_option_value_is_checked_when_the_bot_is_built(
    level: str, options: dict[str, object], message: str
) -> None:
    """A value of the wrong kind or out of range is refused by name when the bot is
    built, whether typed on a command line or given from Python, not at its first
    decision; an option a bot would ignore is refused as one it does not have."""
    with pytest.raises(BotError, match=message):
        make_bot(level, 1, **options)


def test_the_arena_refuses_a_bad_option_value_before_writing_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from openhearts.cli import main

    out = tmp_path / "match"
    argv = ["arena", "--bot", "hard:budget=1.5", "--bot", "random", "--deals", "1"]
    assert main([*argv, "--out", str(out)]) == 2
    assert "budget=1.5: a whole number" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    save = str(tmp_path / "game.json")
    assert main(["play", "--plain", "--level", "expert:learned=2", "--save", save]) == 2
    assert "learned=2: 1 (on) or 0 (off)" in capsys.readouterr().err


def test_option_values_of_the_right_kind_are_taken() -> None:
    hard = make_bot("hard", 1, time_limit=0.5, moon_eager=1, compiled=True)
    assert hard.time_limit == 0.5 and hard.moon_eager  # type: ignore[attr-defined]
    assert make_bot("hard", 1, time_limit=None).time_limit is None  # type: ignore[attr-defined]
    expert = make_bot("expert:learned=0,moon_fear=2,early_fear=0.5", 1)
    assert expert.moon_fear == 2 and not expert._net  # type: ignore[attr-defined]


def test_a_negative_exploration_constant_is_refused() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel (open-spiel) is not installed")
    with pytest.raises(BotError, match="uct_c: not negative"):
        make_bot("openspiel-ismcts:uct_c=-1", 1)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_deal_whose_points_are_settled_is_played_without_a_search(level: str) -> None:
    """Found by a tester: expert searched a tenth of a second for cards that all score
    alike. Once every point card (and a J♦ that counts) is in a finished trick and no sun
    is left, the lowest card is played: the card the search would have ranked first."""
    checked = 0
    for seed in range(40):
        rules = Rules.preset("source-003", 4, jack_of_diamonds=seed % 2 == 1)
        game = Game(rules, seed=seed, first_deal=3)  # no pass
        picker = random.Random(seed)
        bot = make_bot(level, seed=seed)
        assert isinstance(bot, HardBot)
        while not game.is_over and game.deal_number == 3 and checked < 6:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            legal = view.legal.cards()
            if len(legal) > 1 and points_settled_in_view(view):
                searched = bot._search(view)[0][0]
                assert bot.choose_play(view) == searched == min(legal)
                checked += 1
            if game.phase is Phase.MOON_CHOICE:
                game.choose_moon(seat, True)
            else:
                game.play(picker.choice(legal))
    assert checked >= 6


def test_points_are_not_settled_while_a_point_card_or_a_sun_is_left() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "8D 9D TD JD QD KD AD 8S 9S TS JS KS AS",
        "QS 2H 3H 4H 5H 6H 7H 2S 3S 4S 5S 6S 7S",
        "8H 9H TH JH QH KH AH 2D 3D 4D 5D 6D 7D",
    ]
    # Seat 0 wins every club trick; seats 2 and 3 throw their point cards on them.
    plays = (
        "2C 8D 2S 2D  3C 9D QS 8H  4C TD 2H 9H  5C JD 3H TH  6C QD 4H JH  7C KD 5H QH"
        "  8C AD 6H KH  9C 8S 7H AH"
    )
    for sun in (False, True):
        game = Game(hold_rules(sun=sun), hands=[[CardSet.parse(h) for h in hands]])
        assert not points_settled_in_view(game.view(0))  # every point card still to play
        for card in plays.split():
            game.play(card)
        view = game.view(0)
        assert len(view.tricks) == 8 and len(view.legal) == 5
        # Every point is taken, by seat 0 alone: only a sun is still open.
        assert points_settled_in_view(view) is not sun


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_a_bot_asked_to_act_out_of_turn_is_refused_in_words(level: str) -> None:
    """``act(game, 2, bot)`` with West to play said "a card number is 0 to 51, not -1"
    (``easy``), or failed elsewhere inside the bot, and left nothing clear."""
    from openhearts import IllegalActionError

    game = Game(hold_rules(), seed=1)
    before = game.view(1)
    with pytest.raises(IllegalActionError, match=r"^it is West's turn, not North's$"):
        act(game, 2, make_bot(level, 1))
    assert game.view(1) == before


@pytest.mark.parametrize("level", [3, None, ["easy"]])
def test_a_level_that_is_no_name_is_refused_in_words(level: object) -> None:
    """``make_bot(3)`` said "'int' object has no attribute 'startswith'"."""
    with pytest.raises(BotError, match=r"^a bot level is a name such as 'easy', not "):
        make_bot(level)  # type: ignore[arg-type]


def test_the_note_on_a_program_or_a_class_names_no_options() -> None:
    """Found by a tester: the terminal game's options said "a computer player; options:
    python3 mybot.py" under a ``cmd:`` level, taking the program for a bot's options."""
    from openhearts.bots import level_note

    assert "options" not in level_note("cmd:python3 mybot.py --depth 3")
    assert "engine protocol" in level_note("cmd:python3 mybot.py --depth 3")
    assert "options" not in level_note("mybots.smart:Bot")
    assert level_note("hard:budget=30").endswith("; options: budget=30")
