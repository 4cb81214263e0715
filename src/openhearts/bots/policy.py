"""The rule-based card play shared by ``easy`` and by ``hard``'s simulations.

Everything here works on int masks (see :mod:`openhearts.cards`) so that the
``hard`` bot can call it hundreds of thousands of times per second of thinking.
The functions take only what the seat to move knows: its own hand, the legal
cards, the trick so far, the cards already played and who has taken points.

Card numbers are ``suit * 13 + rank``: clubs 0-12, diamonds 13-25, spades 26-38,
hearts 39-51, with rank 0 the two and rank 12 the ace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, SUIT_MASKS

__all__ = [
    "play_policy",
    "pass_policy",
    "pass_ranking",
    "moon_threat",
    "holds_every_point",
    "QS",
    "JD",
]

QS: Final = int(QUEEN_OF_SPADES)
JD: Final = int(JACK_OF_DIAMONDS)
QS_BIT: Final = 1 << QS
JD_BIT: Final = 1 << JD
SPADES: Final = SUIT_MASKS[2]
#: A♠ and K♠: the spades that catch the queen.
HIGH_SPADES: Final = (1 << (QS + 1)) | (1 << (QS + 2))
POINTS: Final = HEARTS_MASK | QS_BIT
NOT_POINTS: Final = ~POINTS
SUITS: Final = SUIT_MASKS
#: Cards below card c in its own suit: BELOW[c].
BELOW: Final = tuple(((1 << c) - 1) & SUIT_MASKS[c // 13] for c in range(52))
#: Cards above card c in its own suit: ABOVE[c].
ABOVE: Final = tuple(SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest_rank(mask: int, avoid: int = 0) -> int:
    """The card of highest rank in ``mask`` (any suit), shortest suit on ties."""
    best = -1
    best_key = (-1, 0)
    for suit in range(4):
        cards = mask & SUITS[suit]
        if not cards:
            continue
        preferred = cards & ~avoid or cards
        card = _high(preferred)
        key = (card - suit * 13, -cards.bit_count())
        if key > best_key:
            best_key = key
            best = card
    return best


def holds_every_point(taken: Sequence[int], seat: int, point_mask: int) -> bool:
    """``seat`` has taken a point card and nobody else has."""
    if not taken[seat] & point_mask:
        return False
    return all(not cards & point_mask for other, cards in enumerate(taken) if other != seat)


def moon_threat(taken: list[int], point_mask: int, alarm: int = 0) -> int:
    """The seat that holds every point card taken so far, when that is at least half of
    the points in play (a likely moon), or at least ``alarm`` points when ``alarm`` is
    above 0, else -1."""
    owner = -1
    for seat, cards in enumerate(taken):
        if cards & point_mask:
            if owner >= 0:
                return -1
            owner = seat
    if owner < 0:
        return -1
    mine = taken[owner] & point_mask
    value = (mine & HEARTS_MASK).bit_count() + (13 if mine & QS_BIT else 0)
    total = (point_mask & HEARTS_MASK).bit_count() + (13 if point_mask & QS_BIT else 0)
    if alarm > 0:
        return owner if value >= alarm else -1
    return owner if value * 2 >= total else -1


def play_policy(
    seat: int,
    hand: int,
    legal: int,
    trick: list[int],
    leader: int,
    players: int,
    gone: int,
    threat: int,
    jack: bool,
) -> int:
    """The card a sensible, cautious player picks.

    :param seat: the seat to move.
    :param hand: its hand; ``legal`` the cards it may play (at least two).
    :param trick: cards of the trick in progress, from the leader (seat ``leader``).
    :param gone: every card played so far, the trick included.
    :param threat: a seat that may be shooting the moon (see :func:`moon_threat`), or -1.
    :param jack: whether the J♦ counts -10.
    """
    if threat == seat:
        return _shoot(hand, legal, trick, gone)
    if not trick:
        return _lead(hand, legal, gone, players)
    led = trick[0] // 13
    follow = legal & SUITS[led]
    high = trick[0]
    winner_index = 0
    has_points = False
    for index, card in enumerate(trick):
        if card // 13 == led and card > high:
            high = card
            winner_index = index
        if POINTS >> card & 1:
            has_points = True
    if threat >= 0:
        winner = (leader + winner_index) % players
        if follow:
            # Take a point trick away from a would-be shooter if a card can.
            if winner == threat and has_points:
                over = follow & ABOVE[high]
                if over:
                    return _low(over)
        else:
            if winner == threat:
                # Give the shooter nothing more.
                safe = legal & NOT_POINTS
                if safe:
                    return _highest_rank(safe)
            else:
                # A heart to someone else ends the moon.
                hearts = legal & HEARTS_MASK
                if hearts:
                    return _low(hearts)
    if follow:
        return _follow(follow, trick, high, has_points, players, gone, hand, jack)
    return _discard(legal, hand, gone, jack)


def _follow(
    follow: int,
    trick: list[int],
    high: int,
    has_points: bool,
    players: int,
    gone: int,
    hand: int,
    jack: bool,
) -> int:
    last = len(trick) == players - 1
    below = follow & BELOW[high]
    queen_out = not (gone | hand) & QS_BIT
    if last:
        if jack and follow & JD_BIT and high < JD:
            # Winning with the J♦ is worth it whenever the trick is cheaper than 10.
            return JD
        if not has_points:
            # Nothing to lose: win with the highest card (never the Q♠ itself).
            return _high(follow & ~QS_BIT or follow)
        if below:
            return _high(below)
        return _high(follow & ~QS_BIT or follow)
    if below:
        # Duck as high as possible; this dumps the Q♠ under A♠ or K♠.
        return _high(below)
    spades_risk = trick[0] // 13 == 2 and queen_out
    if has_points or spades_risk:
        # Forced over: the lowest card leaves a later player room to go higher.
        return _low(follow & ~QS_BIT or follow)
    return _high(follow & ~QS_BIT or follow)


def _discard(legal: int, hand: int, gone: int, jack: bool) -> int:
    if legal & QS_BIT:
        return QS
    keep = JD_BIT if jack else 0
    if not (gone | hand) & QS_BIT:
        high_spades = legal & HIGH_SPADES
        if high_spades:
            return _high(high_spades)
    hearts = legal & HEARTS_MASK
    if hearts:
        return _high(hearts)
    return _highest_rank(legal & ~keep or legal)


def _lead(hand: int, legal: int, gone: int, players: int) -> int:
    unseen = ~(gone | hand)
    queen_out = bool(unseen & QS_BIT)
    best = -1
    best_score = 1 << 30
    for suit in range(4):
        cards = legal & SUITS[suit]
        if not cards:
            continue
        others = unseen & SUITS[suit]
        low = _low(cards)
        length = (hand & SUITS[suit]).bit_count()
        if suit == 2 and queen_out:
            safe = cards & ~(QS_BIT | HIGH_SPADES)
            if hand & QS_BIT or not safe:
                # Leading spades while holding the queen (or only A/K) invites trouble.
                low = _low(cards)
                score = 400 + (low % 13)
            else:
                low = _low(safe)
                lower = (others & BELOW[low]).bit_count()
                # Flushing out the queen with a low spade is good.
                score = lower * 10 - 15
        elif not others:
            # Nobody can follow: they discard their points on us.
            score = 300 + length
        else:
            lower = (others & BELOW[low]).bit_count()
            score = lower * 10 + length
            if suit == 3:
                score += 20 + lower * 10
        if score < best_score:
            best_score = score
            best = low
    return best if best >= 0 else _low(legal)


def _shoot(hand: int, legal: int, trick: list[int], gone: int) -> int:
    """Play for every point: win tricks, keep point cards for own tricks."""
    if not trick:
        non_hearts = legal & ~HEARTS_MASK
        unseen = ~(gone | hand)
        # Lead a card nobody can beat when there is one.
        for suit in (0, 1, 2, 3):
            cards = legal & SUITS[suit]
            if cards and not unseen & ABOVE[_high(cards)]:
                return _high(cards)
        return _high(non_hearts or legal)
    led = trick[0] // 13
    follow = legal & SUITS[led]
    if follow:
        return _high(follow)
    safe = legal & NOT_POINTS
    return _low_rank(safe or legal)


def _low_rank(mask: int) -> int:
    best = -1
    best_rank = 99
    for suit in range(4):
        cards = mask & SUITS[suit]
        if cards:
            card = _low(cards)
            if card % 13 < best_rank:
                best_rank = card % 13
                best = card
    return best


def pass_policy(hand: int, count: int, jack: bool) -> int:
    """The cards to pass: the Q♠ and the A♠/K♠ unless spades are long, high hearts,
    a short side suit to make a void, then the highest cards."""
    if count <= 0:
        return 0
    result = 0
    for card in pass_ranking(hand, count, jack)[:count]:
        result |= 1 << card
    return result


def pass_ranking(hand: int, count: int, jack: bool) -> list[int]:
    """The cards of ``hand``, the most worth passing first (the order of
    :func:`pass_policy`)."""
    spades = hand & SPADES
    long_spades = (spades & ~(QS_BIT | HIGH_SPADES)).bit_count() >= 3
    scores: list[tuple[float, int]] = []
    for card in range(52):
        if not hand >> card & 1:
            continue
        suit, rank = divmod(card, 13)
        score: float = rank
        if card == QS:
            score = 5 if long_spades else 100
        elif HIGH_SPADES >> card & 1:
            score = 8 if long_spades else 90 + rank
        elif suit == 2:
            score = rank * 0.3
        elif suit == 3:
            score = rank + (40 if rank >= 8 else 0)
        else:
            length = (hand & SUITS[suit]).bit_count()
            if length <= count:
                score = 30 + rank - length * 3
        if jack and card == JD:
            score = -50
        scores.append((score, card))
    scores.sort(reverse=True)
    return [card for _, card in scores]
