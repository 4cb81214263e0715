"""Memory aids, computed once from a seat's view: the cards played and not yet seen,
the known voids, whether hearts are broken, and the points taken this deal.

>>> from openhearts import Game
>>> aids = memory_aids(Game(seed=1).view(0))
>>> len(aids.played), len(aids.unseen), aids.voids, aids.hearts_broken
(0, 39, (), False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..cards import CardSet, Suit
from ..game import PlayerView
from ..rules import HeartsBreak

__all__ = [
    "KnownVoid",
    "MemoryAids",
    "memory_aids",
    "just_received",
    "hearts_free",
    "hearts_broken",
    "hearts_sentence",
]


class KnownVoid(NamedTuple):
    """Another seat has shown it holds no card of a suit."""

    seat: int
    suit: Suit
    #: The trick (from 1) on which it failed to follow, None when known otherwise.
    trick: int | None


@dataclass(frozen=True)
class MemoryAids:
    deal: int
    played: CardSet
    #: Cards in play this seat has not seen (the other hands together).
    unseen: CardSet
    tricks_complete: int
    #: Other seats' known voids, in the order they showed.
    voids: tuple[KnownVoid, ...]
    hearts_broken: bool
    points_taken: tuple[int, ...]
    #: Cards this seat passed that have not been played yet (and so who holds them).
    still_out_from_pass: CardSet
    pass_target: int | None

    def played_of(self, suit: Suit) -> CardSet:
        return self.played.of_suit(suit)

    def unseen_of(self, suit: Suit) -> CardSet:
        return self.unseen.of_suit(suit)


def memory_aids(view: PlayerView) -> MemoryAids:
    still = CardSet()
    if view.passed and view.received is not None:
        still = view.passed & view.unseen
    return MemoryAids(
        deal=view.deal_number,
        played=view.played,
        unseen=view.unseen,
        tricks_complete=len(view.tricks),
        voids=tuple(known_voids(view)),
        hearts_broken=hearts_broken(view),
        points_taken=view.points_taken,
        still_out_from_pass=still,
        pass_target=view.pass_target,
    )


def hearts_free(view: PlayerView) -> bool:
    """Whether the rules let hearts be led at any time (source 002): then hearts are
    never "broken", there is nothing to break."""
    return view.rules.hearts_break is HeartsBreak.NEVER_RESTRICTED


def hearts_broken(view: PlayerView) -> bool:
    """Whether hearts have been broken, as a player says it: never where hearts may be
    led at any time (the engine counts them as broken from the start there, for the
    rule; a face saying so would mislead)."""
    return view.hearts_broken and not hearts_free(view)


def hearts_sentence(view: PlayerView) -> str:
    """``Hearts are broken.``, ``Hearts are not broken yet.`` or, where hearts may be
    led at any time, ``Hearts may be led at any time.``"""
    if hearts_free(view):
        return "Hearts may be led at any time."
    return "Hearts are broken." if view.hearts_broken else "Hearts are not broken yet."


def just_received(view: PlayerView) -> CardSet:
    """The cards received in this deal's pass, until the seat plays its first card (or,
    for the seat that must lead the first trick, its second): the faces mark them in the
    hand so the person sees what came in.

    >>> from openhearts import Game
    >>> game = Game(seed=2)
    >>> for seat in range(4):
    ...     game.pass_cards(seat, game.hand(seat).cards()[:3])
    >>> len(just_received(game.view(0)))
    3
    """
    if view.received is None:
        return CardSet()
    played = view.rules.hand_size - len(view.hand)
    # The opening lead is no choice (its holder must lead it, and "auto play one" leads
    # it at once): the marks stayed for no decision at all.  The next card ends them.
    if played == 0 or (played == 1 and _led_the_opening(view)):
        return view.received
    return CardSet()


def _led_the_opening(view: PlayerView) -> bool:
    """Whether the seat led the deal's first trick with the card the rules make it lead."""
    if view.tricks:
        leader, card = view.tricks[0].leader, view.tricks[0].cards[0]
    elif view.trick:
        leader, card = view.trick[0]
    else:
        return False
    return leader == view.seat and card == view.rules.first_lead_card


def known_voids(view: PlayerView) -> list[KnownVoid]:
    """The other seats' known voids, in the order they showed."""
    found: list[KnownVoid] = []
    seen: set[tuple[int, Suit]] = set()
    tricks = [trick.plays(view.players) for trick in view.tricks] + [list(view.trick)]
    for number, plays in enumerate(tricks, start=1):
        if not plays:
            continue
        led = plays[0][1].suit
        for seat, card in plays[1:]:
            key = (seat, led)
            if card.suit != led and led in view.voids[seat] and key not in seen:
                seen.add(key)
                if seat != view.seat:
                    found.append(KnownVoid(seat, led, number))
    for seat, suits in enumerate(view.voids):
        for suit in sorted(suits):
            if seat != view.seat and (seat, suit) not in seen:
                found.append(KnownVoid(seat, suit, None))
    return found
