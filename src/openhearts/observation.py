"""What one seat knows, as a fixed-size numeric array for learning agents (needs numpy).

The same encoding serves the PettingZoo environment (:mod:`openhearts.env`) and the
OpenSpiel game (:mod:`openhearts.openspiel_game`).  It is built from a
:class:`~openhearts.PlayerView` only, so it never holds another seat's hidden cards.
Seats are *relative*: index 0 is the observing seat, 1 the next in the order of play,
and so on; pieces for seats are sized for 6 players and padded with zeros, so every
rule set and player count shares one shape (:data:`SIZE` values of ``float32``).

Cards are indexed by our card number (``suit * 13 + rank``, suits C, D, S, H).

==================  ========  ===================================================
piece               shape     meaning
==================  ========  ===================================================
``hand``            52        cards held (cards chosen to pass are not)
``passing``         52        cards chosen to pass or passed this deal
``received``        52        cards received in the pass
``in_play``         52        the deck of these rules (removed cards are 0)
``trick``           6 x 52    the trick in progress, by the seat that played each card
``played``          6 x 52    every card each seat has played this deal
``points_taken``    6         points taken this deal, over the points in play (>= -1)
``scores``          6         game totals, over the end score (kept within -4..4)
``voids``           6 x 4     suits a seat has shown it lacks (C, D, S, H)
``leader``          6         who led the trick in progress
``pass_offset``     6         how many seats on the cards go (0: a hold hand)
``phase``           4         passing, playing, moon choice, over
``hearts_broken``   1         hearts may be led
==================  ========  ===================================================

>>> from openhearts import Game, Rules
>>> observation = encode(Game(Rules(), seed=1).view(2))
>>> observation.shape, observation.dtype.name, int(observation[:52].sum())
((885,), 'float32', 13)
>>> int(piece(observation, "phase")[0]), piece(observation, "trick").shape
(1, (6, 52))
"""

from __future__ import annotations

import math
from typing import Final

from .extras import explained

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as error:  # pragma: no cover - needs the extra uninstalled
    raise explained(error) from None

from .cards import CardSet
from .game import GAME_OVER, MOON_CHOICE, PASSING, PLAYING, PlayerView

__all__ = ["MAX_PLAYERS", "PIECES", "SIZE", "encode", "piece", "bounds"]

#: Seat pieces are sized for this many players.
MAX_PLAYERS: Final = 6

#: The pieces of the array in order, with their shapes.
PIECES: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("hand", (52,)),
    ("passing", (52,)),
    ("received", (52,)),
    ("in_play", (52,)),
    ("trick", (MAX_PLAYERS, 52)),
    ("played", (MAX_PLAYERS, 52)),
    ("points_taken", (MAX_PLAYERS,)),
    ("scores", (MAX_PLAYERS,)),
    ("voids", (MAX_PLAYERS, 4)),
    ("leader", (MAX_PLAYERS,)),
    ("pass_offset", (MAX_PLAYERS,)),
    ("phase", (4,)),
    ("hearts_broken", (1,)),
)

_OFFSETS: Final = {}
_start = 0
for _name, _shape in PIECES:
    _OFFSETS[_name] = (_start, _shape)
    _start += math.prod(_shape)

#: How many numbers the array holds.
SIZE: Final = _start

# Totals beyond 4 end scores say nothing more (a game ends at one).
_SCORE_LIMIT: Final = 4.0

_PHASES: Final = {PASSING: 0, PLAYING: 1, MOON_CHOICE: 2, GAME_OVER: 3}

Array = npt.NDArray[np.float32]


def piece(observation: Array, name: str) -> Array:
    """The named piece of an encoded observation, reshaped (a view, not a copy)."""
    if name not in _OFFSETS:
        # Was "KeyError: 'points'", naming none of the pieces there are.
        raise ValueError(f"piece: one of {', '.join(_OFFSETS)}, not {name!r}")
    start, shape = _OFFSETS[name]
    return observation[start : start + math.prod(shape)].reshape(shape)


# The card pieces come first: 4 + 2 * MAX_PLAYERS rows of 52, filled from int masks in
# one numpy call; the few numbers after them are written as one list.
_CARD_ROWS: Final = 4 + 2 * MAX_PLAYERS
_CARD_VALUES: Final = _CARD_ROWS * 52
assert _OFFSETS["points_taken"][0] == _CARD_VALUES, "PIECES: card pieces come first"


def _card_rows(masks: list[int]) -> npt.NDArray[np.uint8]:
    packed = np.frombuffer(b"".join(m.to_bytes(7, "little") for m in masks), dtype=np.uint8)
    bits = np.unpackbits(packed.reshape(len(masks), 7), axis=1, bitorder="little")
    return bits[:, :52]


def encode(view: PlayerView, selected: int | CardSet = 0, out: Array | None = None) -> Array:
    """Encode ``view`` (``selected``: cards chosen to pass so far, not yet passed: a mask
    or a :class:`~openhearts.CardSet`, as :meth:`TurnGame.selected
    <openhearts.turns.TurnGame.selected>` gives them).

    Writes into ``out`` when given and returns it.
    """
    # TurnGame.selected() is a CardSet, which failed at "~selected" below.
    selected = CardSet(selected).mask
    if out is None:
        out = np.empty(SIZE, dtype=np.float32)
    players = view.players
    me = view.seat
    trick = [0] * MAX_PLAYERS
    played = [0] * MAX_PLAYERS
    for seat, card in view.trick:
        trick[(seat - me) % players] |= 1 << card
    for finished in view.tricks:
        for seat, card in finished.plays(players):
            played[(seat - me) % players] |= 1 << card
    played = [a | b for a, b in zip(played, trick, strict=True)]
    masks = [
        int(view.hand) & ~selected,
        selected | int(view.passed or CardSet()),
        int(view.received or CardSet()),
        view.rules.deck_mask,
        *trick,
        *played,
    ]
    out[:_CARD_VALUES] = _card_rows(masks).ravel()

    points = [0.0] * MAX_PLAYERS
    scores = [0.0] * MAX_PLAYERS
    voids = [0.0] * (MAX_PLAYERS * 4)
    in_play = max(view.rules.points_in_play, 1)
    end = view.rules.end_score
    for seat in range(players):
        here = (seat - me) % players
        points[here] = max(-1.0, view.points_taken[seat] / in_play)
        scores[here] = min(_SCORE_LIMIT, max(-_SCORE_LIMIT, view.scores[seat] / end))
        for suit in view.voids[seat]:
            voids[here * 4 + suit] = 1.0
    leader = [0.0] * MAX_PLAYERS
    if view.leader is not None and view.phase == PLAYING:
        leader[(view.leader - me) % players] = 1.0
    offset = [0.0] * MAX_PLAYERS
    offset[0 if view.pass_target is None else (view.pass_target - me) % players] = 1.0
    phase = [0.0] * 4
    phase[_PHASES.get(view.phase, 3)] = 1.0
    out[_CARD_VALUES:] = [
        *points, *scores, *voids, *leader, *offset, *phase, float(view.hearts_broken)
    ]  # fmt: skip
    return out


def bounds() -> tuple[Array, Array]:
    """The lowest and highest value of every number of the array (for a Box space)."""
    low = np.zeros(SIZE, dtype=np.float32)
    high = np.ones(SIZE, dtype=np.float32)
    # The J♦'s -10 can make points taken negative.
    piece(low, "points_taken")[:] = -1.0
    piece(low, "scores")[:] = -_SCORE_LIMIT
    piece(high, "scores")[:] = _SCORE_LIMIT
    return low, high
