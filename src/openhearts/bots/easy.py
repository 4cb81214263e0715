"""``easy``: quick rule-based play, the way a careful casual player plays.

It passes the Q♠, A♠ and K♠ (unless its spades are long enough to guard them), high
hearts and short side suits; ducks under the winning card when it can; dumps the
queen and high hearts when void; leads low in suits where someone must go over it;
and, when one player has taken every point so far (at least half of them), it takes
a point trick away from that player or passes a heart to someone else.

It plays by the rules of thumb of :mod:`openhearts.bots.policy`, which ``hard``'s
simulations also follow, and checks each card as a careful player would
(:func:`careful_card`): it drops the Q♠ under a higher spade, keeps the J♦ unless
winning it pays, goes over low when a player after it has shown a void, never leads
the Q♠ by choice nor a spade that leaves its A♠ or K♠ bare while the queen is out,
keeps its best cards and its hearts when a shooter takes the trick, and plays no moon
where the rules have none.  The simulations keep the plain rules of thumb: they are
what ``hard`` and ``expert`` were measured with (docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import HEARTS_MASK, Card, CardSet, Suit
from ..game import PlayerView
from ..rules import MoonScoring
from .base import BaseBot
from .policy import (
    BELOW,
    HIGH_SPADES,
    JD,
    JD_BIT,
    NOT_POINTS,
    QS,
    QS_BIT,
    SPADES,
    SUITS,
    _low,
    moon_threat,
    pass_policy,
    play_policy,
)

__all__ = ["EasyBot", "view_masks", "careful_card"]

#: Spades below the queen that guard the Q♠, A♠ or K♠ (as in passing: three).
GUARDS = 3


def view_masks(view: PlayerView) -> tuple[list[int], int, list[int]]:
    """From a view: the trick so far (card numbers), every card played, and each
    seat's won cards as masks."""
    trick = [int(card) for _, card in view.trick]
    gone = view.played.mask
    taken = [won.mask for won in view.won]
    return trick, gone, taken


class EasyBot(BaseBot):
    """The rules of thumb of :mod:`openhearts.bots.policy`; deterministic for a seed.

    >>> from openhearts import Game
    >>> game = Game(seed=3)
    >>> len(EasyBot(seed=1).choose_pass(game.view(0)))
    3
    """

    name = "easy"

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(
            pass_policy(view.hand.mask, view.rules.cards_passed, view.rules.jack_of_diamonds)
        )

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal.mask
        if legal & (legal - 1) == 0:
            return Card(legal.bit_length() - 1)
        return Card(careful_card(view))


def careful_card(view: PlayerView) -> int:
    """The card (number) ``easy`` plays in ``view``: the rules of thumb' card unless a
    careful player would see that it gives away what it need not.

    ``view`` has at least two legal cards.
    """
    rules = view.rules
    seat = view.seat
    hand = view.hand.mask
    legal = view.legal.mask
    trick, gone, taken = view_masks(view)
    leader = view.leader if view.leader is not None else seat
    players = rules.players
    jack = rules.jack_of_diamonds
    moon = rules.moon is not MoonScoring.NONE
    threat = moon_threat(taken, rules.point_mask) if moon else -1

    def thumb(cards: int) -> int:
        if cards & (cards - 1) == 0:
            return cards.bit_length() - 1
        return play_policy(seat, hand, cards, trick, leader, players, gone, threat, jack)

    card = thumb(legal)
    if threat == seat:
        return card
    unseen = ~(gone | hand) & rules.deck_mask
    if not trick:
        return _careful_lead(card, hand, legal, unseen, thumb)
    led = trick[0] // 13
    follow = legal & SUITS[led]
    high = max((c for c in trick if c // 13 == led), default=trick[0])
    winner = (leader + trick.index(high)) % players
    if not follow:
        if threat >= 0 and winner == threat:
            return _keep_stoppers(hand, legal, unseen)
        return card
    if jack and card == JD and high > JD and legal & ~JD_BIT:
        # Under a higher diamond the J♦ wins nothing: it only hands -10 to the trick's
        # winner (a shooter too, whose moon it does not stop).
        return thumb(legal & ~JD_BIT)
    if threat >= 0:
        return card
    if follow & QS_BIT and high > QS and led == 2:
        # A higher spade takes the trick: the queen goes to its player.
        return QS
    if jack and card == JD:
        last = len(trick) == players - 1
        points = sum(1 for c in trick if HEARTS_MASK >> c & 1) + (13 if QS in trick else 0)
        if not (last and high < JD and points < 10):
            # The J♦ is worth 10 only to whoever takes it: kept unless it surely wins
            # a trick worth less than that.
            return thumb(legal & ~JD_BIT)
    if not follow & BELOW[high] and card != _low(follow) and len(trick) < players - 1:
        later = [(leader + i) % players for i in range(len(trick) + 1, players)]
        if any(Suit(led) in view.voids[other] for other in later):
            # Forced over with a void player still to come, who may throw points on
            # it: the lowest card leaves the others room to go higher.
            return _low(follow & ~QS_BIT or follow)
    return card


def _careful_lead(
    card: int, hand: int, legal: int, unseen: int, thumb: Callable[[int], int]
) -> int:
    if card == QS and legal & ~QS_BIT:
        # Led, the queen goes to whoever holds the A♠ or K♠, or with both gone to its
        # own player: never led by choice.
        card = thumb(legal & ~QS_BIT)
    if card // 13 != 2 or not legal & ~SPADES:
        return card
    guards = (hand & SPADES & ~(QS_BIT | HIGH_SPADES)).bit_count()
    if hand & QS_BIT and unseen & HIGH_SPADES and (card == QS or guards < GUARDS):
        # Leading the queen, or a spade from a short holding of it, while the A♠ or
        # K♠ is out, hands it to whoever holds them.
        return thumb(legal & ~SPADES)
    if hand & HIGH_SPADES and unseen & QS_BIT and guards < GUARDS:
        # A spade lead from a short A♠ or K♠ leaves it bare for the queen.
        return thumb(legal & ~SPADES)
    return card


def _keep_stoppers(hand: int, legal: int, unseen: int) -> int:
    """A discard onto a would-be shooter's trick: never the Q♠ nor the best card of a
    suit in hand (those may yet win a trick from the shooter), and no heart while it
    has another card (a heart kept may yet go onto someone else's trick, which stops the
    moon); first a card that can win nothing, else the lowest."""
    cards = legal & ~QS_BIT or legal
    best = 0
    for suit in SUITS:
        held = hand & suit
        if held:
            best |= 1 << (held.bit_length() - 1)
    spare = cards & ~best or cards
    # Below every card of its suit still out: it cannot take a trick from anyone.
    idle = [int(c) for c in CardSet(spare & NOT_POINTS) if not unseen & BELOW[c]]
    if idle:
        return min(idle, key=lambda c: c % 13)
    spare = spare & NOT_POINTS or spare
    # Lowest rank first, non-point cards on ties.
    return min(map(int, CardSet(spare)), key=lambda c: (c % 13, not NOT_POINTS >> c & 1))
