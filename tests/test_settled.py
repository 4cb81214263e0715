"""``points_settled``: when the rest of a deal can no longer change the points, the
faces finish it automatically; these tests check the engine never says so too early."""

from __future__ import annotations

import random

import pytest

from conftest import CONFIGS, config_id, hold_rules, scripted_game
from openhearts import Card, CardSet, Game, Rules
from openhearts.cards import cards_of


def _random_play_until_settled(game: Game, rng: random.Random) -> bool:
    """Play random cards in the current deal until its points are settled (True) or
    the deal ends first (False)."""
    number = game.deal_number
    while game.phase == "playing" and game.deal_number == number and not game.is_over:
        if game.points_settled():
            return True
        game.play(rng.choice(cards_of(game.legal_mask())))
    return False


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_once_settled_every_way_of_playing_on_scores_the_same(config: tuple[str, int]) -> None:
    preset, players = config
    rules = hold_rules(preset, players)
    settled_seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rules, seed=seed)
        if not _random_play_until_settled(game, rng):
            continue
        settled_seen += 1
        outcomes = set()
        for branch in range(6):
            trial = Game(rules, seed=seed)
            for action in game.actions:
                trial.apply(action)
            branch_rng = random.Random(f"{seed}:{branch}")
            while trial.phase == "playing" and trial.deal_number == game.deal_number:
                trial.play(branch_rng.choice(cards_of(trial.legal_mask())))
            outcomes.add(trial.results[0].points)
        assert len(outcomes) == 1, f"seed {seed}: points still changed after settling"
    assert settled_seen > 0


def test_not_settled_while_a_point_card_is_out() -> None:
    rules = hold_rules()
    game = scripted_game(rules, {0: "2C", 1: "AH"})
    assert not game.points_settled()


def test_settled_exactly_when_no_point_card_is_left_to_play() -> None:
    rules = hold_rules()
    seen = {True: 0, False: 0}
    for seed in range(30):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while game.phase == "playing" and not game.results:
            deal = game.deal
            in_trick = sum(1 << c for c in deal.trick)
            left = (rules.deck_mask & ~deal.played) | in_trick
            expected = not left & rules.point_mask
            assert game.points_settled() == expected
            seen[expected] += 1
            game.play(rng.choice(cards_of(game.legal_mask())))
    assert seen[True] and seen[False]


ALL_CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
JACK = Card.parse("JD")
#: Seat 0 holds every club; the point cards are spread over the other seats, so that
#: each trick takes up to three of them and they are gone long before the deal ends.
CLUBS_AND_SPREAD_POINTS = {
    0: ALL_CLUBS,
    1: "2H 3H 4H 5H 6H JD",
    2: "7H 8H 9H TH QS",
    3: "JH QH KH AH",
}


def _points_first_jack_last(game: Game) -> Card:
    """Seat 0 holds every club and leads them, winning every trick; the others throw
    their hearts and the Q♠ first and the J♦ last, so the hearts and the Q♠ are all
    gone while the J♦ is still out."""
    legal = game.legal_plays()
    scoring = [card for card in legal if int(game.rules.point_mask) >> card & 1]
    rest = [card for card in legal if card != JACK]
    return (scoring or rest or [JACK])[0]


def _moments_only_the_jack_is_out(rules: Rules) -> list[Game]:
    """Every position of the scripted deal where hearts and the Q♠ are all played but
    the J♦ is not (each position as its own game, rebuilt from the actions)."""
    game = scripted_game(rules, CLUBS_AND_SPREAD_POINTS)
    moments = []
    while game.phase == "playing" and not game.results:
        unplayed = rules.deck_mask & ~game.deal.played
        in_trick = sum(1 << card for card in game.deal.trick)
        if not (unplayed | in_trick) & rules.point_mask and unplayed >> JACK & 1:
            moments.append(_replayed(rules, game))
        game.play(_points_first_jack_last(game))
    return moments


def _replayed(rules: Rules, game: Game) -> Game:
    copy = Game(rules, hands=[[CardSet(hand) for hand in game.deal.dealt]])
    for action in game.actions:
        copy.apply(action)
    return copy


def test_the_jack_of_diamonds_keeps_the_deal_open_where_the_bonus_is_in_force() -> None:
    with_bonus = _moments_only_the_jack_is_out(hold_rules(jack_of_diamonds=True))
    assert with_bonus, "the script never reached a deal where only the J♦ is out"
    for game in with_bonus:
        assert not game.points_settled()
        assert game.auto_play_card() is None or len(game.legal_plays()) == 1
    # The very same positions without the bonus: nothing that scores is left.
    without = _moments_only_the_jack_is_out(hold_rules(jack_of_diamonds=False))
    assert [g.actions for g in without] == [g.actions for g in with_bonus]
    assert all(game.points_settled() for game in without)


def test_a_possible_sun_keeps_the_deal_open() -> None:
    rules = Rules.preset("source-003", pass_cycle=("hold",))
    assert rules.sun and not rules.jack_of_diamonds
    no_sun = Rules.preset("source-003", pass_cycle=("hold",), sun=False)
    game = scripted_game(rules, CLUBS_AND_SPREAD_POINTS)
    # Seat 0 leads clubs and wins every trick; the others throw their point cards
    # first.  Once they are all gone only the sun can still change the points, and it
    # can: seat 0 may yet take every trick.
    open_by_the_sun = 0
    while game.phase == "playing" and not game.results:
        assert not game.points_settled()
        unplayed = rules.deck_mask & ~game.deal.played
        in_trick = sum(1 << card for card in game.deal.trick)
        if not (unplayed | in_trick) & rules.point_mask:
            open_by_the_sun += 1
            assert _replayed(no_sun, game).points_settled(), "without the sun it is settled"
        game.play(_points_first_jack_last(game))
    assert open_by_the_sun >= 4 * 4, "the point cards were not gone before the last tricks"
    assert game.results[0].shot == "sun"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_auto_play_card_is_the_sole_card_or_the_lowest_once_settled(
    config: tuple[str, int],
) -> None:
    preset, players = config
    rules = hold_rules(preset, players)
    seen = {"sole": 0, "settled": 0, "choice": 0}
    for seed in range(80):
        rng = random.Random(seed)
        game = Game(rules, seed=seed)
        while game.phase == "playing" and not game.results:
            legal = cards_of(game.legal_mask())
            card = game.auto_play_card()
            if len(legal) == 1:
                assert card == legal[0]
                seen["sole"] += 1
            elif game.points_settled():
                assert card == min(legal)
                seen["settled"] += 1
            else:
                assert card is None
                seen["choice"] += 1
            game.play(rng.choice(legal))
    assert all(seen.values()), seen
    passing = Game(Rules.preset(preset, players=players), seed=0)
    assert passing.phase == "passing" and passing.auto_play_card() is None
