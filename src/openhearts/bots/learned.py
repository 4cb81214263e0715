"""A learned model of how ``hard`` plays its cards, for ``expert``'s inference.

The rules of thumb that :mod:`openhearts.bots.inference` compares the others' plays with
say only which card a player "should" play; a player that searches, like ``hard``,
often plays another, and every such play counts against the world alike.  This model
gives instead, for a hand and the public course of the deal, the probability of each
legal card as ``hard`` would play it: a small network (two hidden layers) trained to
imitate ``hard`` in self-play (:mod:`openhearts.train`, ``hearts train``), run here with
numpy alone.  Its weights ship with the package (:data:`WEIGHTS`); they hold for the
rules they were trained under (:attr:`PolicyNet.rules`, the standard game) and the model
is not used under others.

What the model sees, from the player's seat (other seats by their place after it):
the cards played before the trick under way, the trick's cards, its winning card and
seat, the suit led, how many cards the trick holds, whether a heart and the Q♠ have
been played, the trick number, the hearts and Q♠ each seat has taken, the suits each
seat is known to lack, and the player's hand (:func:`public_rows`, :func:`inputs`).

>>> from openhearts import Rules
>>> rows = public_rows([(0, 0), (1, 3)], players=4, next_actor=2)
>>> rows.shape == (3, PUBLIC)
True
>>> int(rows[2, 52 + 3]), int(rows[2, 160 + 2])  # the 5♣ is in the trick, 2 cards played
(1, 1)
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

if "numpy" not in sys.modules:
    # The model's products are small: BLAS threads double the CPU a play costs (measured
    # in docs/bots.md) and compete with the search's other processes for the cores.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # after the thread count, which is read when numpy loads
import numpy.typing as npt

from ..cards import QUEEN_OF_SPADES, Suit
from ..game import PlayerView
from ..rules import Rules
from .inference import LEARNED_FLOOR, Choice

__all__ = [
    "PolicyNet",
    "PUBLIC",
    "INPUTS",
    "WEIGHTS",
    "public_rows",
    "inputs",
    "card_bits",
    "shipped",
    "play_factors",
]

Array = npt.NDArray[np.float32]

#: Width of the public part of the input (:func:`public_rows`).
PUBLIC: Final = 196
#: Width of the whole input: the public part, then the player's hand.
INPUTS: Final = PUBLIC + 52
#: The shipped weights, next to this module.
WEIGHTS: Final = Path(__file__).with_name("hard_policy.npz")

_PLAYED, _TRICK, _WINNING, _LED, _COUNT, _WINNER = 0, 52, 104, 156, 160, 164
_HEART_PLAYED, _QUEEN_PLAYED, _FIRST_TRICK, _TRICK_NUMBER = 168, 169, 170, 171
_HEARTS_TAKEN, _QUEEN_TAKEN, _VOIDS = 172, 176, 180
_QS: Final = int(QUEEN_OF_SPADES)
_HEARTS: Final = int(Suit.HEARTS)
_SEATS: Final = 4  # the model is for four players


def card_bits(masks: Sequence[int] | npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    """One row of 52 zeros and ones per card mask.

    >>> card_bits([0b101]).tolist()[0][:4]
    [1, 0, 1, 0]
    """
    values = np.asarray(masks, dtype=np.uint64)
    shifts = np.arange(52, dtype=np.uint64)
    return ((values[:, None] >> shifts) & np.uint64(1)).astype(np.uint8)


def public_rows(plays: Sequence[tuple[int, int]], players: int, next_actor: int) -> Array:
    """The public facts before each play of ``plays`` (the deal's plays so far, as
    (seat, card) in order), each seen from the seat making it, and a last row before
    the next play, seen from ``next_actor``: one row of :data:`PUBLIC` numbers each.
    Row ``i`` depends only on ``plays[:i]``, so a deal replayed later gives the rows the
    player saw when it chose."""
    if players != _SEATS:
        raise ValueError("the learned model is for four players")
    rows = np.zeros((len(plays) + 1, PUBLIC), dtype=np.float32)
    played = 0
    trick: list[tuple[int, int]] = []
    heart_played = queen_played = False
    tricks_done = 0
    hearts_taken = [0] * players
    queen_taken = [False] * players
    voids = [[False] * 4 for _ in range(players)]
    for index in range(len(plays) + 1):
        actor = plays[index][0] if index < len(plays) else next_actor
        row = rows[index]
        _fill(row, actor, players, played, trick, tricks_done, hearts_taken, queen_taken, voids)
        row[_HEART_PLAYED] = heart_played
        row[_QUEEN_PLAYED] = queen_played
        if index == len(plays):
            break
        who, card = plays[index]
        if trick and card // 13 != trick[0][1] // 13:
            voids[who][trick[0][1] // 13] = True
        trick.append((who, card))
        heart_played |= card // 13 == _HEARTS
        queen_played |= card == _QS
        if len(trick) == players:
            winner = _winning(trick)[0]
            hearts_taken[winner] += sum(1 for _, c in trick if c // 13 == _HEARTS)
            queen_taken[winner] |= any(c == _QS for _, c in trick)
            for _, c in trick:
                played |= 1 << c
            trick = []
            tricks_done += 1
    return rows


def _winning(trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    led = trick[0][1] // 13
    return max((pair for pair in trick if pair[1] // 13 == led), key=lambda pair: pair[1])


def _fill(
    row: Array,
    actor: int,
    players: int,
    played: int,
    trick: Sequence[tuple[int, int]],
    tricks_done: int,
    hearts_taken: Sequence[int],
    queen_taken: Sequence[bool],
    voids: Sequence[Sequence[bool]],
) -> None:
    for card in range(52):
        if played >> card & 1:
            row[_PLAYED + card] = 1
    for _, card in trick:
        row[_TRICK + card] = 1
    if trick:
        winner, best = _winning(trick)
        row[_WINNING + best] = 1
        row[_LED + trick[0][1] // 13] = 1
        row[_WINNER + (winner - actor) % players] = 1
    row[_COUNT + len(trick)] = 1
    row[_FIRST_TRICK] = tricks_done == 0
    row[_TRICK_NUMBER] = tricks_done / 13
    for seat in range(players):
        place = (seat - actor) % players
        row[_HEARTS_TAKEN + place] = hearts_taken[seat] / 13
        row[_QUEEN_TAKEN + place] = queen_taken[seat]
        for suit in range(4):
            row[_VOIDS + 4 * place + suit] = voids[seat][suit]


def inputs(public: Array, hands: Sequence[int]) -> Array:
    """The network's input: each public row beside the hand of the same index."""
    return np.concatenate([public, card_bits(hands).astype(np.float32)], axis=1)


@dataclass(frozen=True)
class PolicyNet:
    """A network from :func:`inputs` to a score per card, and the rules it learned."""

    layers: tuple[tuple[Array, Array], ...]
    rules: Rules
    #: How the weights were made (command, seeds, data sizes, accuracy).
    about: dict[str, Any]

    def scores(self, x: Array) -> Array:
        """One score per card for each input row (higher: likelier)."""
        for weight, bias in self.layers[:-1]:
            x = np.maximum(x @ weight + bias, 0)
        weight, bias = self.layers[-1]
        out: Array = x @ weight + bias
        return out

    def scores_of(self, public: Array, steps: npt.NDArray[np.intp], hands: Sequence[int]) -> Array:
        """:meth:`scores` of ``inputs(public[steps], hands)``, with the first layer's
        public part worked out once per row of ``public`` rather than once per hand."""
        weight, bias = self.layers[0]
        shared = public @ weight[:PUBLIC] + bias
        x = np.maximum(shared[steps] + card_bits(hands).astype(np.float32) @ weight[PUBLIC:], 0)
        for weight, bias in self.layers[1:-1]:
            x = np.maximum(x @ weight + bias, 0)
        weight, bias = self.layers[-1]
        out: Array = x @ weight + bias
        return out

    def probabilities(self, x: Array, legal: Sequence[int]) -> Array:
        """For each row, the probability of each card, over that row's legal cards."""
        return _softmax(self.scores(x), legal)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {f"w{i}": w for i, (w, _) in enumerate(self.layers)}
        arrays |= {f"b{i}": b for i, (_, b) in enumerate(self.layers)}
        meta = json.dumps({"rules": self.rules.to_dict(), "about": self.about})
        with path.open("wb") as handle:
            np.savez_compressed(handle, meta=np.array(meta), **arrays)

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            count = sum(1 for name in data.files if name.startswith("w"))
            layers = tuple(
                (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                for i in range(count)
            )
        return cls(layers, Rules.from_dict(meta["rules"]), meta["about"])


def _softmax(scores: Array, legal: Sequence[int]) -> Array:
    """Each row's probabilities over its ``legal`` cards (0 for the others)."""
    allowed = card_bits(legal).astype(bool)
    scores = np.where(allowed, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    odds = np.exp(scores)
    out: Array = odds / odds.sum(axis=1, keepdims=True)
    return out


@cache
def shipped() -> PolicyNet:
    """The weights that ship with the package (loaded once per process)."""
    return PolicyNet.load(WEIGHTS)


def play_factors(
    net: PolicyNet,
    view: PlayerView,
    choices: Sequence[Sequence[Choice]],
    floor: float = LEARNED_FLOOR,
) -> list[tuple[list[float], list[float]]]:
    """For each world's ``choices`` (left by :func:`~openhearts.bots.inference.explain`),
    each seat's factor for its plays: the product, over its choices, of
    ``(floor + p) / (1 + floor)`` with ``p`` the model's probability of a card playing
    alike with the one it chose; as a shooter, the same, except for its plays for every
    point (weighed by the rules of thumb already)."""
    players = view.rules.players
    plays = [(seat, int(card)) for seat, card in view.plays]
    normal = np.ones((len(choices), players))
    shooting = np.ones((len(choices), players))
    flat = [(world, *choice) for world, found in enumerate(choices) for choice in found]
    if flat:
        rows = public_rows(plays, players, view.seat)
        steps = np.array([entry[1] for entry in flat])
        scores = net.scores_of(rows, steps, [entry[3] for entry in flat])
        probs = _softmax(scores, [entry[4] for entry in flat])
        alike = card_bits([entry[5] for entry in flat]).astype(bool)
        factor = (floor + np.where(alike, probs, 0).sum(axis=1)) / (1 + floor)
        worlds = np.array([entry[0] for entry in flat])
        seats = np.array([entry[2] for entry in flat])
        np.multiply.at(normal, (worlds, seats), factor)
        shared = np.array([entry[6] for entry in flat])
        np.multiply.at(shooting, (worlds[shared], seats[shared]), factor[shared])
    return [(list(n), list(s)) for n, s in zip(normal.tolist(), shooting.tolist(), strict=True)]
