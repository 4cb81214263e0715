"""Typed events: what one action caused, in the order it happened.

Every face turns the same events into what it shows: sentences for the plain game and
the announcements, animations for the terminal and web tables.  Events carry only what
everyone at the table saw, except :class:`CardsPassed`, which is for its seat alone.

>>> from openhearts import Game
>>> from openhearts.game import Pass
>>> game = Game(seed=1)
>>> for seat in range(4):
...     events = apply_with_events(game, Pass(seat, game.hand(seat).cards()[:3]))
>>> [type(event).__name__ for event in events]
['CardsPassed', 'PassesExchanged']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..cards import QUEEN_OF_SPADES, Card, CardSet, Suit
from ..game import Action, DealResult, Game, MoonChoice, Pass, Play, TrickRecord
from ..phases import Phase
from ..rules import HeartsBreak, Rules
from .outcome import Outcome, game_outcome
from .points import card_points

__all__ = [
    "Event",
    "DealStarted",
    "CardsPassed",
    "PassesExchanged",
    "CardPlayed",
    "TrickTaken",
    "HeartsBroken",
    "MoonPending",
    "MoonChosen",
    "DealScored",
    "GameOver",
    "BotReplaced",
    "Undone",
    "AutoPlay",
    "apply_with_events",
    "deal_started",
]


@dataclass(frozen=True)
class DealStarted:
    deal: int
    dealer: int
    #: ``left``, ``right``, ``across``, ``left2``... or ``hold``.
    direction: str


@dataclass(frozen=True)
class CardsPassed:
    """A seat set aside its cards (the cards are for that seat's eyes only)."""

    seat: int
    cards: CardSet


@dataclass(frozen=True)
class PassesExchanged:
    deal: int
    direction: str


class AutoPlay(StrEnum):
    """Why a card was played without asking (``auto play one``)."""

    ONLY_CARD = "only_card"
    SETTLED = "settled"

    @classmethod
    def now(cls, game: Game) -> AutoPlay:
        """Why the card :meth:`Game.auto_play_card` gives is played: once the points are
        settled that is the reason, for a sole card too (what is said of the rest of
        the deal holds for its last card)."""
        return cls.SETTLED if game.points_settled() else cls.ONLY_CARD


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: Card
    #: The first card of its trick.
    leads: bool
    #: :class:`AutoPlay` reason when it was played for a person, else None.
    auto: AutoPlay | None = None


@dataclass(frozen=True)
class TrickTaken:
    #: From 1.
    number: int
    trick: TrickRecord
    points: int

    @property
    def winner(self) -> int:
        return self.trick.winner

    def winning_card(self, players: int) -> Card:
        return self.trick.cards[(self.trick.winner - self.trick.leader) % players]


@dataclass(frozen=True)
class HeartsBroken:
    seat: int


@dataclass(frozen=True)
class MoonPending:
    """The shooter must choose how the moon scores."""

    seat: int


@dataclass(frozen=True)
class MoonChosen:
    seat: int
    others_add: bool


@dataclass(frozen=True)
class DealScored:
    result: DealResult
    #: Totals after the deal.
    totals: tuple[int, ...]


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome


@dataclass(frozen=True)
class BotReplaced:
    """A computer player failed; a random one took its seat (the game goes on)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class Undone:
    """A person took back their last choice; ``actions`` are every action taken back,
    last first."""

    seat: int
    actions: tuple[Action, ...]
    #: The deal the game is back in when the undo took back a finished deal's scoring
    #: (crossing back over the deal's end, or back to its moon choice); else None.
    back_to_deal: int | None = None

    @property
    def own(self) -> tuple[Action, ...]:
        """The seat's own actions taken back, in the order they were made."""
        return tuple(a for a in reversed(self.actions) if a.seat == self.seat)

    @property
    def own_cards(self) -> tuple[Card, ...]:
        """The cards of the seat's own taken back, in the order played."""
        return tuple(a.card for a in self.own if isinstance(a, Play))

    @property
    def others_played(self) -> int:
        """How many of the other seats' cards went (their passes go back with ours and
        are not counted)."""
        return sum(1 for a in self.actions if isinstance(a, Play) and a.seat != self.seat)


Event = (
    DealStarted
    | CardsPassed
    | PassesExchanged
    | CardPlayed
    | TrickTaken
    | HeartsBroken
    | MoonPending
    | MoonChosen
    | DealScored
    | GameOver
    | BotReplaced
    | Undone
)


def deal_started(game: Game) -> DealStarted:
    return DealStarted(game.deal_number, game.dealer, game.pass_direction)


def apply_with_events(game: Game, action: Action, auto: AutoPlay | None = None) -> list[Event]:
    """Apply ``action`` (an :class:`~openhearts.actions.IllegalActionError` changes
    nothing) and return what it caused, in order."""
    results_before = len(game.results)
    deal = game.deal
    trick_size = len(deal.trick) if game.phase == Phase.PLAYING else 0
    tricks_before = len(deal.tricks)
    broken_before = deal.hearts_broken
    game.apply(action)
    events: list[Event] = []
    if isinstance(action, Pass):
        events.append(CardsPassed(action.seat, CardSet(action.cards)))
        if game.phase != Phase.PASSING and len(game.results) == results_before:
            events.append(PassesExchanged(game.deal_number, game.pass_direction))
    elif isinstance(action, Play):
        events.append(CardPlayed(action.seat, Card(action.card), trick_size == 0, auto))
        # Said with the card that breaks them, before the trick it ends is taken; not
        # on the deal's last trick: a heart first seen there breaks nothing anyone
        # could still lead.
        ended = len(game.results) > results_before
        if not broken_before and not ended and _breaks_hearts(game.rules, Card(action.card)):
            events.append(HeartsBroken(action.seat))
        if trick_size + 1 == game.rules.players:
            if len(game.results) > results_before:
                finished = game.results[-1].tricks[-1]
            else:
                finished = game.view(action.seat).tricks[-1]
            events.append(
                TrickTaken(tricks_before + 1, finished, card_points(game.rules, finished.cards))
            )
        if game.phase == Phase.MOON_CHOICE and game.current_player is not None:
            events.append(MoonPending(game.current_player))
    elif isinstance(action, MoonChoice):
        events.append(MoonChosen(action.seat, action.others_add))
    if len(game.results) > results_before:
        result = game.results[-1]
        events.append(DealScored(result, tuple(game.scores)))
        outcome = game_outcome(game)
        if outcome is not None:
            events.append(GameOver(outcome))
        else:
            events.append(deal_started(game))
    return events


def _breaks_hearts(rules: Rules, card: Card) -> bool:
    if rules.hearts_break is HeartsBreak.NEVER_RESTRICTED:
        return False
    if card.suit is Suit.HEARTS:
        return True
    return rules.hearts_break is HeartsBreak.POINT_CARD and card == QUEEN_OF_SPADES
