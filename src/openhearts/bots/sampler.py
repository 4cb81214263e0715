"""Deal the cards a player cannot see, consistently with everything it knows.

What a seat knows about the other hands, from its :class:`~openhearts.view.PlayerView`:

* how many cards each seat holds now;
* the cards it passed, and to whom: the receiver still holds those not yet played;
* the suits each seat has shown void in, by failing to follow suit;
* that a seat which led a heart before hearts were broken held nothing but hearts
  (where the rules restrict heart leads);
* that a seat which threw a barred point card on the first trick held nothing else.

:func:`constraints` gathers these facts; :func:`sample` deals the unseen cards at
random to fit them.  Cards are placed most-constrained first, each to a seat
chosen in proportion to the room left in the seats that may hold it; a dead end
restarts, and after a few restarts an exact assignment (a small flow problem over
suits and seats) is used, so a consistent deal is always found when one exists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import HEARTS_MASK, SUIT_MASKS
from ..game import PlayerView
from ..rules import FirstTrick, HeartsBreak

__all__ = ["Knowledge", "constraints", "sample", "SamplerError", "WorldSampler"]


class SamplerError(RuntimeError):
    """No deal fits the constraints (the view contradicts itself)."""


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about the hidden hands, as masks.

    ``sizes[s]`` cards must go to seat ``s``; ``fixed[s]`` are cards known to be
    in seat ``s``'s hand; ``allowed[s]`` is every card seat ``s`` may hold.  The
    seat itself has size 0.
    """

    seat: int
    unseen: int
    sizes: tuple[int, ...]
    fixed: tuple[int, ...]
    allowed: tuple[int, ...]


def constraints(view: PlayerView) -> Knowledge:
    """The facts about the other hands that ``view`` establishes."""
    players = view.rules.players
    seat = view.seat
    unseen = view.unseen.mask
    sizes = [0 if s == seat else view.hand_sizes[s] for s in range(players)]
    fixed = [0] * players
    allowed = [0 if s == seat else unseen for s in range(players)]
    for other in range(players):
        if other == seat:
            continue
        for suit in view.voids[other]:
            allowed[other] &= ~SUIT_MASKS[suit]
    if view.rules.hearts_break is not HeartsBreak.NEVER_RESTRICTED:
        _heart_leads(view, allowed)
    _first_trick(view, allowed)
    if view.passed is not None and view.pass_target is not None and view.passing_done:
        target = view.pass_target
        if target != seat:
            kept = view.passed.mask & unseen
            fixed[target] |= kept
            allowed[target] |= kept
            for other in range(players):
                if other != target:
                    allowed[other] &= ~kept
    return Knowledge(seat, unseen, tuple(sizes), tuple(fixed), tuple(allowed))


def _heart_leads(view: PlayerView, allowed: list[int]) -> None:
    """A heart led before hearts were broken means the leader held only hearts."""
    broken = False
    break_mask = HEARTS_MASK
    if view.rules.hearts_break is HeartsBreak.POINT_CARD:
        break_mask |= 1 << 36
    tricks = [list(t.plays(view.rules.players)) for t in view.tricks]
    if view.trick:
        tricks.append(list(view.trick))
    first = True
    for plays in tricks:
        leader, lead = plays[0]
        if not first and not broken and lead.suit == 3 and leader != view.seat:
            allowed[leader] &= HEARTS_MASK
        for _, card in plays:
            if break_mask >> card & 1:
                broken = True
        first = False


def _first_trick(view: PlayerView, allowed: list[int]) -> None:
    """A point card thrown on the first trick, where barred, means the thrower held
    nothing but barred cards."""
    option = view.rules.first_trick
    if option is FirstTrick.ALLOWED:
        return
    bar = HEARTS_MASK if option is FirstTrick.NO_HEARTS else HEARTS_MASK | 1 << 36
    plays = list(view.tricks[0].plays(view.rules.players)) if view.tricks else list(view.trick)
    if not plays:
        return
    led = plays[0][1].suit
    for seat, card in plays[1:]:
        if seat != view.seat and card.suit != led and bar >> card & 1:
            allowed[seat] &= bar


def _still_to_deal(knowledge: Knowledge) -> tuple[list[int], list[int], list[int]]:
    """The cards known to each seat, how many more each seat needs, and the unseen cards
    not known to be anyone's (to be dealt); raises :class:`SamplerError` when the counts
    cannot fit."""
    free = knowledge.unseen
    need = list(knowledge.sizes)
    base = list(knowledge.fixed)
    for s in range(len(need)):
        free &= ~base[s]
        need[s] -= base[s].bit_count()
        if need[s] < 0:
            raise SamplerError(f"seat {s} holds more known cards than it has cards")
    if sum(need) != free.bit_count():
        raise SamplerError("card counts do not add up")
    return base, need, [c for c in range(52) if free >> c & 1]


def sample(knowledge: Knowledge, rng: random.Random, tries: int = 20) -> list[int]:
    """One deal of the unseen cards: a mask per seat (0 for the seat itself).

    Raises :class:`SamplerError` when no deal fits.
    """
    players = len(knowledge.sizes)
    base, need, cards = _still_to_deal(knowledge)
    options = {
        c: [s for s in range(players) if need[s] and knowledge.allowed[s] >> c & 1] for c in cards
    }
    for card, seats in options.items():
        if not seats:
            raise SamplerError(f"no seat can hold card {card}")
    order = sorted(cards, key=lambda c: len(options[c]))
    for _ in range(tries):
        hands = base[:]
        room = need[:]
        ok = True
        # Shuffle within equally constrained cards so no card is favoured.
        rng.shuffle(order)
        order.sort(key=lambda c: len(options[c]))
        for card in order:
            seats = [s for s in options[card] if room[s]]
            if not seats:
                ok = False
                break
            total = sum(room[s] for s in seats)
            pick = rng.randrange(total)
            for s in seats:
                pick -= room[s]
                if pick < 0:
                    break
            hands[s] |= 1 << card
            room[s] -= 1
        if ok:
            return hands
    return _exact(knowledge, base, need, cards, rng)


def _exact(
    knowledge: Knowledge, base: list[int], need: list[int], cards: list[int], rng: random.Random
) -> list[int]:
    """A consistent deal by augmenting paths (cards to seats), in random order."""
    players = len(need)
    held: list[list[int]] = [[] for _ in range(players)]
    order = cards[:]
    rng.shuffle(order)

    def place(card: int, visited: set[int]) -> bool:
        seats = [s for s in range(players) if need[s] and knowledge.allowed[s] >> card & 1]
        rng.shuffle(seats)
        for s in seats:
            if s in visited:
                continue
            visited.add(s)
            if len(held[s]) < need[s]:
                held[s].append(card)
                return True
            for other in list(held[s]):
                if place(other, visited):
                    held[s].remove(other)
                    held[s].append(card)
                    return True
        return False

    for card in order:
        if not place(card, set()):
            raise SamplerError("no deal of the unseen cards fits what is known")
    hands = base[:]
    for s in range(players):
        for card in held[s]:
            hands[s] |= 1 << card
    return hands


class WorldSampler:
    """:func:`sample` for many worlds of one :class:`Knowledge`, several times faster.

    It deals exactly what :func:`sample` deals for the same generator state (it draws the
    same numbers in the same order), with the work that depends only on the knowledge done
    once, and the generator's ``shuffle``/``randrange`` inlined as the ``getrandbits``
    draws CPython's :class:`random.Random` makes for them.  Raises :class:`SamplerError`
    as :func:`sample` does, when built.
    """

    __slots__ = ("knowledge", "_base", "_need", "_cards", "_options", "_start")

    def __init__(self, knowledge: Knowledge) -> None:
        players = len(knowledge.sizes)
        base, need, cards = _still_to_deal(knowledge)
        options: list[tuple[int, ...]] = [()] * 52
        for card in cards:
            seats = tuple(s for s in range(players) if need[s] and knowledge.allowed[s] >> card & 1)
            if not seats:
                raise SamplerError(f"no seat can hold card {card}")
            options[card] = seats
        self.knowledge = knowledge
        self._base = base
        self._need = need
        self._cards = cards
        self._options = options
        self._start = sorted(cards, key=lambda c: len(options[c]))

    def sample(self, rng: random.Random, tries: int = 20) -> list[int]:
        """One deal of the unseen cards, as :func:`sample` would deal it with ``rng``."""
        getrandbits = rng.getrandbits
        options = self._options
        width = [len(seats) for seats in options]
        order = self._start[:]
        last = len(order) - 1
        for _ in range(tries):
            hands = self._base[:]
            room = self._need[:]
            # random.shuffle: for i from the end, swap with randbelow(i + 1).
            for i in range(last, 0, -1):
                bound = i + 1
                size = bound.bit_length()
                j = getrandbits(size)
                while j >= bound:
                    j = getrandbits(size)
                order[i], order[j] = order[j], order[i]
            order.sort(key=width.__getitem__)
            for card in order:
                seats = options[card]
                total = 0
                for s in seats:
                    total += room[s]
                if not total:
                    break
                # rng.randrange(total); seats without room add nothing and are passed over.
                size = total.bit_length()
                pick = getrandbits(size)
                while pick >= total:
                    pick = getrandbits(size)
                for s in seats:
                    pick -= room[s]
                    if pick < 0:
                        break
                hands[s] |= 1 << card
                room[s] -= 1
            else:
                return hands
        return _exact(self.knowledge, self._base, self._need, self._cards, rng)
