"""What a finished deal came to (:class:`DealResult`), its tricks, and the usual way a
shooter who may choose scores a moon.

>>> from openhearts import Game
>>> game = Game(seed=1)
>>> game.results
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain

from .cards import CARDS, Card, CardSet
from .phases import MoonScore, Shot

__all__ = ["DealResult", "TrickRecord", "conventional_moon_choice", "moon_totals", "pack_tricks"]


@dataclass(frozen=True)
class TrickRecord:
    """A finished trick: who led, the cards in play order from the leader, who won."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players

    def plays(self, players: int) -> list[tuple[int, Card]]:
        """``(seat, card)`` pairs in the order played."""
        return [((self.leader + i) % players, card) for i, card in enumerate(self.cards)]


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one finished deal came to.

    A game keeps one per deal, so it is kept small: the tricks are stored as bytes
    (:attr:`trick_plays` and :attr:`tricks` unpack them when asked).
    """

    number: int
    dealer: int
    pass_direction: str
    dealt: tuple[CardSet, ...]
    passes: tuple[CardSet, ...]
    #: Points each seat took in tricks before any moon or sun (J♦ included when in force).
    taken_points: tuple[int, ...]
    #: Points added to each total for this deal.
    points: tuple[int, ...]
    shooter: int | None
    #: ``"moon"``, ``"sun"`` (a :class:`~openhearts.phases.Shot`) or ``None``.
    shot: Shot | None
    #: ``"add"``/``"subtract"`` where the shooter chose, else ``None``.
    moon_choice: MoonScore | None
    #: The tricks, each as its leader, its winner and its cards in play order, one byte
    #: each (see :func:`pack_tricks`).
    packed_tricks: bytes = field(default=b"", repr=False)

    @property
    def trick_plays(self) -> tuple[tuple[int, tuple[int, ...], int], ...]:
        """The tricks as plain ``(leader, card numbers, winner)`` tuples."""
        data = self.packed_tricks
        width = len(self.points) + 2
        return tuple(
            (data[at], tuple(data[at + 2 : at + width]), data[at + 1])
            for at in range(0, len(data), width)
        )

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        """The tricks as :class:`TrickRecord` objects."""
        return tuple(
            TrickRecord(leader, tuple(map(CARDS.__getitem__, cards)), winner)
            for leader, cards, winner in self.trick_plays
        )


def pack_tricks(tricks: Iterable[tuple[int, Sequence[int], int]]) -> bytes:
    """Tricks as bytes: leader, winner, then the cards, for each trick.

    >>> pack_tricks([(1, (0, 5, 9), 2)])
    b'\\x01\\x02\\x00\\x05\\t'
    """
    return bytes(chain.from_iterable([(lead, win, *cards) for lead, cards, win in tricks]))


def moon_totals(
    scores: Sequence[int], shooter: int, points: int, others_add: bool, jack: int | None = None
) -> tuple[int, ...]:
    """The totals once a moon is scored: everyone else adds ``points``, or the shooter
    subtracts them; ``jack``, the seat that took the J♦ where it counts, has 10 off on
    top (whoever it is).

    >>> moon_totals([40, 20, 60, 60], 0, 26, True), moon_totals([40, 20, 60, 60], 0, 26, True, 1)
    ((40, 46, 86, 86), (40, 36, 86, 86))
    >>> moon_totals([50, 24, 60, 60], 0, 26, False, jack=0)
    (14, 24, 60, 60)
    """
    if others_add:
        totals = [s + (0 if i == shooter else points) for i, s in enumerate(scores)]
    else:
        totals = [s - (points if i == shooter else 0) for i, s in enumerate(scores)]
    if jack is not None:
        totals[jack] -= 10
    return tuple(totals)


def conventional_moon_choice(
    scores: Sequence[int], shooter: int, points: int, jack: int | None = None
) -> bool:
    """The convention of source 000: add to the others unless that would not leave the
    shooter alone with the lowest total, in which case subtract.  Returns ``others_add``.
    ``jack`` is the seat that took the J♦ where it counts (:func:`moon_totals`).

    >>> conventional_moon_choice([10, 90, 90, 90], shooter=0, points=26)
    True
    >>> conventional_moon_choice([80, 10, 20, 30], shooter=0, points=26)
    False
    >>> conventional_moon_choice([50, 24, 60, 60], 0, 26), conventional_moon_choice(
    ...     [50, 24, 60, 60], 0, 26, jack=0)
    (False, True)
    """
    added = moon_totals(scores, shooter, points, True, jack)
    return all(added[shooter] < s for i, s in enumerate(added) if i != shooter)
