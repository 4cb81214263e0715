"""What one seat may know: :class:`PlayerView`, all that bots and interfaces see.

``Game.view(seat)`` makes one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardSet, Suit
from .phases import Phase
from .results import TrickRecord, conventional_moon_choice, moon_totals
from .rules import Rules

__all__ = ["PlayerView"]


@dataclass(frozen=True)
class PlayerView:
    """Exactly what one seat may know.  Bots and interfaces see only this.

    It holds no reference to the game and no other seat's hidden cards: its own hand,
    what it passed and received, every card played so far (and so the voids shown by
    failing to follow suit), the cards each seat has won, and the scores.
    """

    rules: Rules
    seat: int
    names: tuple[str, ...]
    phase: Phase
    deal_number: int
    dealer: int
    pass_direction: str
    #: Seat this seat passes to (None on a hold hand).
    pass_target: int | None
    #: Seat this seat receives from (None on a hold hand).
    pass_source: int | None
    hand: CardSet
    #: Cards this seat set aside to pass (None until it has passed).
    passed: CardSet | None
    #: Cards received (None until every seat has passed).
    received: CardSet | None
    #: Seat to move in the play phase (or moon choice), else None.
    to_move: int | None
    #: Legal cards when this seat is to move in the play phase, else empty.
    legal: CardSet
    leader: int | None
    #: The trick in progress as (seat, card) in play order.
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickRecord, ...]
    hand_sizes: tuple[int, ...]
    #: Cards won by each seat this deal (face up in most programs).
    won: tuple[CardSet, ...]
    #: Points taken by each seat this deal so far.
    points_taken: tuple[int, ...]
    hearts_broken: bool
    #: Suits each seat is known to lack (it failed to follow them).
    voids: tuple[frozenset[Suit], ...]
    #: Totals of finished deals (the deal in progress is added when it ends).
    scores: tuple[int, ...]
    #: Points of every finished deal, one tuple per deal.
    deal_points: tuple[tuple[int, ...], ...]
    #: Whether all seats have finished passing (or it is a hold hand).
    passing_done: bool

    @property
    def played(self) -> CardSet:
        """Every card played this deal, the trick in progress included."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for _, card in self.trick:
            mask |= 1 << card
        return CardSet(mask)

    @property
    def plays(self) -> list[tuple[int, Card]]:
        """Every card played this deal as (seat, card) in the order played, the trick in
        progress last."""
        players = self.rules.players
        return [pair for trick in self.tricks for pair in trick.plays(players)] + list(self.trick)

    @property
    def unseen(self) -> CardSet:
        """Cards in play this seat has not seen: the other hands together."""
        return CardSet(self.rules.deck_mask & ~self.played.mask & ~self.hand.mask)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def jack_taker(self) -> int | None:
        """The seat that took the J♦ this deal, where it counts; else None."""
        if not self.rules.jack_of_diamonds:
            return None
        jack = Card.parse("JD")
        return next((seat for seat, won in enumerate(self.won) if jack in won), None)

    def moon_totals(self, others_add: bool) -> tuple[int, ...]:
        """The totals once this seat's moon is scored one way or the other, the J♦
        included (:func:`~openhearts.results.moon_totals`)."""
        return moon_totals(
            self.scores, self.seat, self.rules.points_in_play, others_add, self.jack_taker
        )

    def suggested_moon_choice(self) -> bool:
        """The conventional choice for this seat's moon, the J♦ included: add to the
        others unless that would not leave it alone with the lowest total."""
        return conventional_moon_choice(
            self.scores, self.seat, self.rules.points_in_play, self.jack_taker
        )

    @property
    def is_my_turn(self) -> bool:
        return self.to_move == self.seat
