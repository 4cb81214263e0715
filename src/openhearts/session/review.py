"""The tricks of a game, deal by deal, as everyone at the table saw them: what the
review of past tricks shows in every face (``L`` in the terminal and on the web,
``tricks`` in the plain game), a replay of each finished deal.

A review holds only what every seat saw: each trick's cards in play order, who took
it and its points, and each finished deal's points; faces never show a dealt hand or
a pass from it.

>>> from openhearts import Game, Rules
>>> ranks = "23456789TJQKA"
>>> hands = [" ".join(rank + suit for rank in ranks) for suit in "CDSH"]
>>> game = Game(Rules(pass_cycle=("hold",)), seed=3, hands=[hands])
>>> while not game.results:
...     game.play(game.legal_plays().cards()[0])
>>> [(deal.number, len(deal.tricks), deal.finished) for deal in deal_reviews(game)]
[(0, 13, True), (1, 0, False)]
>>> first = deal_reviews(game)[0].tricks[0]
>>> first.number, [str(card) for _, card in first.plays], first.winner, first.points
(1, ['2C', '2D', '2S', '2H'], 0, 1)
>>> opening_deal(deal_reviews(game))
0
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..game import DealResult, Game, TrickRecord
from ..rules import Rules
from .points import card_points

__all__ = ["DealReview", "TrickReview", "deal_reviews", "opening_deal"]


@dataclass(frozen=True)
class TrickReview:
    """One finished trick."""

    #: 1 for the first trick of its deal.
    number: int
    #: ``(seat, card)`` in the order played, the leader first.
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: int

    @classmethod
    def of(cls, rules: Rules, number: int, trick: TrickRecord) -> TrickReview:
        plays = tuple(trick.plays(rules.players))
        return cls(number, plays, trick.winner, card_points(rules, trick.cards))


@dataclass(frozen=True)
class DealReview:
    """One deal's finished tricks, and its result once it is over."""

    #: 0 for the game's first deal.
    number: int
    tricks: tuple[TrickReview, ...]
    #: None while the deal is in progress.
    result: DealResult | None

    @property
    def finished(self) -> bool:
        return self.result is not None


def _tricks(rules: Rules, tricks: tuple[TrickRecord, ...]) -> tuple[TrickReview, ...]:
    return tuple(TrickReview.of(rules, number, trick) for number, trick in enumerate(tricks, 1))


def deal_reviews(game: Game) -> list[DealReview]:
    """Every finished deal of the game, then the deal in progress (its finished tricks)
    unless the game is over."""
    rules = game.rules
    reviews = [
        DealReview(result.number, _tricks(rules, result.tricks), result) for result in game.results
    ]
    if not game.is_over:
        # Seat 0's view: the finished tricks of a deal are the same in every seat's view.
        reviews.append(DealReview(game.deal_number, _tricks(rules, game.view(0).tricks), None))
    return reviews


def opening_deal(reviews: list[DealReview]) -> int:
    """Which deal a review opens at: the deal in progress, or the deal just finished
    while no trick of the next one is (its last trick is the last one played).

    >>> opening_deal([DealReview(0, (), None)])
    0
    """
    last = len(reviews) - 1
    if last > 0 and not reviews[last].finished and not reviews[last].tricks:
        return last - 1
    return last
