"""The playout kernel: what search runs millions of times, compiled, with a Python reference.

A :class:`Position` is a deal's play phase as plain ints, the same masks as
:class:`~openhearts.deal.DealState` (:meth:`Position.of` reads one from a state).  The
functions here take the :class:`~openhearts.rules.Rules` and a position and answer in one
call, however many cards that takes:

* :func:`legal_mask`: the cards the seat to move may play;
* :func:`play`: play cards in order (finishing tricks, scoring the deal) and see the result;
* :func:`playout`: play the position to the end, ``count`` times, under the ``random``
  policy (uniformly random legal cards from a :class:`~openhearts.prng.SplitMix64`
  stream) or the ``easy`` policy (:mod:`openhearts.bots.policy`, as ``hard`` simulates it);
* :func:`evaluate`: ``hard``'s search step, every candidate card played out under ``easy``.

They run in the compiled module ``openhearts._kernel`` (C, ``src/openhearts/_kernel.c``)
when it was built at install time, else in the pure-Python engine, which is the reference
the kernel must equal bit for bit (``reference_*`` below; ``tests/test_kernel.py``).  A
missing kernel is announced once, with a :class:`RuntimeWarning`; setting
``OPENHEARTS_KERNEL=python`` chooses the reference quietly.

>>> from openhearts import Rules
>>> from openhearts.cards import CardSet
>>> rules = Rules()
>>> hands = [int(CardSet.parse(h)) for h in (
...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
...     "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
...     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")]
>>> start = Position(tuple(hands), 0, (), (0, 0, 0, 0), (0, 0, 0, 0), 0, False)
>>> str(CardSet(legal_mask(rules, start)))
'2C'
>>> playout(rules, start, "easy")  # clubs take every trick, and every heart: a moon
[(0, 26, 26, 26)]
>>> len(playout(rules, start, "random", seed=7, count=3))
3
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Final, NamedTuple

from . import _engine
from .cards import cards_of
from .deal import MOON_CHOICE, PLAYING, DealState
from .prng import SplitMix64
from .rules import HeartsBreak, MoonScoring, Rules

__all__ = [
    "COMPILED",
    "POLICIES",
    "Points",
    "Position",
    "Played",
    "legal_mask",
    "play",
    "playout",
    "evaluate",
    "reference_legal_mask",
    "reference_play",
    "reference_playout",
    "reference_evaluate",
]

#: Points of one deal, one entry per seat.
Points = tuple[int, ...]

#: The policies :func:`playout` knows.
POLICIES: Final = ("random", "easy")
_SEED_MASK: Final = (1 << 64) - 1


def _load() -> ModuleType | None:
    if _engine.reference_requested():
        return None
    try:
        from . import _kernel
    except ImportError as error:
        warnings.warn(
            f"openhearts: the compiled kernel is missing ({error}); search runs on the "
            "slower pure-Python engine (reinstall with a C compiler to build it)",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return _kernel


_compiled = _load()
#: Whether the compiled kernel is in use.
COMPILED: Final = _compiled is not None


class Position(NamedTuple):
    """A position in the play phase: what each seat holds now, the trick in progress
    (card numbers from the leader's), the cards each seat has won, tricks won, every card
    played (the trick included) and whether hearts are broken."""

    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    played: int
    hearts_broken: bool

    @classmethod
    def of(cls, state: DealState) -> Position:
        """The position of a deal in its play phase."""
        if state.phase != PLAYING:
            raise ValueError(f"a position is in the play phase, not {state.phase}")
        return cls(
            tuple(state.hands),
            state.leader,
            tuple(state.trick),
            tuple(state.taken),
            tuple(state.tricks_won),
            state.played,
            state.hearts_broken,
        )


class Played(NamedTuple):
    """The result of :func:`play`: the position reached (its trick empty once the deal
    is over), who moves, the phase (``playing``, ``moon_choice``, ``done``), and once
    the deal is scored its points, shooter and shot (``moon``/``sun``)."""

    position: Position
    to_move: int
    phase: str
    points: Points | None
    shooter: int | None
    shot: str | None


_MOON_CODES: Final = {
    MoonScoring.OTHERS_ADD: 0,
    MoonScoring.SHOOTER_SUBTRACTS: 1,
    MoonScoring.SHOOTER_CHOOSES: 2,
    MoonScoring.NONE: 3,
}


#: The rules as the kernel reads them (see ``parse_rules`` in ``_kernel.c``).
_PackedRules = tuple[int, int, int, bool, int, bool, int, bool, int, int, int, int]


#: Packed rules by the id of their Rules object (kept alive in the entry, so the id
#: cannot be reused): hashing a Rules on every call would cost more than a playout.
_packed: dict[int, tuple[Rules, _PackedRules]] = {}


def _packed_rules(rules: Rules) -> _PackedRules:
    entry = _packed.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_packed) >= 64:
        _packed.clear()
    packed = _pack_rules(rules)
    _packed[id(rules)] = (rules, packed)
    return packed


def _pack_rules(rules: Rules) -> _PackedRules:
    """The rules as the kernel reads them: the same derived masks as DealState._setup."""
    probe = DealState.from_position(
        rules, [0] * rules.players, leader=0, trick=[], taken=[0] * rules.players,
        tricks_won=[0] * rules.players, played=0, hearts_broken=False,
    )  # fmt: skip
    deck = (1 << 52) - 1
    return (
        rules.players,
        rules.hand_size,
        int(rules.first_lead_card),
        rules.hearts_break is not HeartsBreak.NEVER_RESTRICTED,
        rules.points_in_play,
        rules.sun,
        _MOON_CODES[rules.moon],
        rules.jack_of_diamonds,
        probe._first_trick_bar,
        probe._first_trick_fallback & deck,
        probe._break_mask,
        rules.point_mask,
    )


def _check_rival(rules: Rules, root: int, rival: int, alarm: int) -> None:
    if rival != -1 and (not 0 <= rival < rules.players or rival == root):
        raise ValueError(f"rival: another seat than the root, or -1, not {rival!r}")
    if alarm < 0:
        raise ValueError(f"alarm: points, not negative, not {alarm!r}")


def _check_lookahead(lookahead: int, depth: int) -> None:
    if lookahead not in (0, 1, 2):
        raise ValueError(f"lookahead: 0 (none), 1 (root) or 2 (every seat), not {lookahead!r}")
    if not 1 <= depth <= 3:
        raise ValueError(f"lookahead depth: 1 to 3, not {depth!r}")


def _check_policy(policy: str) -> int:
    try:
        return POLICIES.index(policy)
    except ValueError:
        raise ValueError(f"policy: one of {', '.join(POLICIES)}, not {policy!r}") from None


# The reference: the pure-Python engine -------------------------------------------------


def _state(rules: Rules, position: Position) -> DealState:
    return DealState.from_position(
        rules,
        list(position.hands),
        leader=position.leader,
        trick=list(position.trick),
        taken=list(position.taken),
        tricks_won=list(position.tricks_won),
        played=position.played,
        hearts_broken=position.hearts_broken,
    )


def _moon_choices(rules: Rules, add_for: Sequence[bool] | None) -> Sequence[bool]:
    return (True,) * rules.players if add_for is None else add_for


def reference_legal_mask(rules: Rules, position: Position) -> int:
    """:func:`legal_mask` on the pure-Python engine."""
    return _state(rules, position).legal_mask()


def reference_play(rules: Rules, position: Position, cards: Sequence[int]) -> Played:
    """:func:`play` on the pure-Python engine."""
    state = _state(rules, position)
    for card in cards:
        if state.phase != PLAYING or not 0 <= card < 52 or not state.legal_mask() >> card & 1:
            raise ValueError(f"card {card} may not be played now")
        state.play_card(card)
    return Played(
        Position(
            tuple(state.hands),
            state.leader,
            tuple(state.trick),
            tuple(state.taken),
            tuple(state.tricks_won),
            state.played,
            state.hearts_broken,
        ),
        state.to_move,
        state.phase,
        None if state.points is None else tuple(state.points),
        state.shooter,
        state.shot,
    )


def _random_playout(state: DealState, stream: SplitMix64, add_for: Sequence[bool]) -> Points:
    while state.phase == PLAYING:
        legal = state.legal_mask()
        if legal & (legal - 1):
            state.play_card(cards_of(legal)[stream.below(legal.bit_count())])
        else:
            state.play_card(legal.bit_length() - 1)
    if state.phase == MOON_CHOICE:
        assert state.shooter is not None
        state.choose_moon(add_for[state.shooter])
    assert state.points is not None
    return tuple(state.points)


def reference_playout(
    rules: Rules,
    position: Position,
    policy: str = "random",
    seed: int = 0,
    count: int = 1,
    add_for: Sequence[bool] | None = None,
) -> list[Points]:
    """:func:`playout` on the pure-Python engine."""
    from .bots.hard import Plan
    from .bots.hard import playout as search_playout

    code = _check_policy(policy)
    if count < 0:
        raise ValueError("count: not negative")
    base = _state(rules, position)
    choices = _moon_choices(rules, add_for)
    easy = Plan(-1, choices, rules.jack_of_diamonds)
    stream = SplitMix64(seed)
    results: list[Points] = []
    for _ in range(count):
        state = base.clone()
        if code == 0:
            results.append(_random_playout(state, stream, choices))
        else:
            results.append(tuple(search_playout(state, easy)))
    return results


def reference_evaluate(
    rules: Rules,
    position: Position,
    candidates: Sequence[int],
    root: int,
    modes: Sequence[bool] = (False,),
    add_for: Sequence[bool] | None = None,
    lookahead: int = 0,
    depth: int = 1,
    rival: int = -1,
    alarm: int = 0,
) -> list[Points]:
    """:func:`evaluate` on the pure-Python engine."""
    from .bots.hard import Plan
    from .bots.hard import playout as search_playout

    _check_lookahead(lookahead, depth)
    _check_rival(rules, root, rival, alarm)
    base = _state(rules, position)
    legal = base.legal_mask()
    choices = _moon_choices(rules, add_for)
    results: list[Points] = []
    jack = rules.jack_of_diamonds
    plans = [Plan(root, choices, jack, shoot, lookahead, depth, rival, alarm) for shoot in modes]
    for card in candidates:
        if not 0 <= card < 52 or not legal >> card & 1:
            raise ValueError(f"candidate {card} may not be played now")
        for plan in plans:
            state = base.clone()
            state.play_card(card)
            results.append(tuple(search_playout(state, plan)))
    return results


# The public functions: compiled when built -------------------------------------------------


def legal_mask(rules: Rules, position: Position) -> int:
    """The cards the seat to move may play, as a mask."""
    if _compiled is None:
        return reference_legal_mask(rules, position)
    return _compiled.legal_mask(_packed_rules(rules), position)  # type: ignore[no-any-return]


def play(rules: Rules, position: Position, cards: Sequence[int]) -> Played:
    """Play ``cards`` in order from ``position``; a card that is not legal when its turn
    comes raises :class:`ValueError`.  The kernel keeps no trick history."""
    if _compiled is None:
        return reference_play(rules, position, cards)
    (hands, leader, to_move, trick, taken, won, played, broken, phase, points, shooter, shot) = (
        _compiled.play(_packed_rules(rules), position, cards)
    )
    return Played(
        Position(hands, leader, trick, taken, won, played, bool(broken)),
        to_move,
        phase,
        points,
        shooter,
        shot,
    )


def playout(
    rules: Rules,
    position: Position,
    policy: str = "random",
    seed: int = 0,
    count: int = 1,
    add_for: Sequence[bool] | None = None,
) -> list[Points]:
    """Play ``position`` to the end of the deal ``count`` times; the points of each.

    :param policy: ``random`` (each card uniformly among the legal ones) or ``easy``
        (deterministic: every playout is the same).
    :param seed: seeds one :class:`~openhearts.prng.SplitMix64` stream that the
        playouts draw from in turn; a draw is made only where there is a choice, and
        picks the ``draw % n``-th lowest of the ``n`` legal cards.
    :param add_for: the moon choice of each seat where the shooter chooses (True:
        everyone else adds); by default everyone else adds.
    """
    if _compiled is None:
        return reference_playout(rules, position, policy, seed, count, add_for)
    code = 0 if policy == "random" else _check_policy(policy)
    return _compiled.playout(  # type: ignore[no-any-return]
        _packed_rules(rules), position, code, seed & _SEED_MASK, count, add_for, -1, False
    )


def evaluate(
    rules: Rules,
    position: Position,
    candidates: Sequence[int],
    root: int,
    modes: Sequence[bool] = (False,),
    add_for: Sequence[bool] | None = None,
    lookahead: int = 0,
    depth: int = 1,
    rival: int = -1,
    alarm: int = 0,
) -> list[Points]:
    """``hard``'s search step: for each candidate card of the seat to move and each mode,
    the deal's points when that card is played and every seat then follows the easy
    policy; with mode True, seat ``root`` plays for every point while no other seat has
    taken any (see :func:`openhearts.bots.hard.playout`).  Candidate-major order.

    ``lookahead``: 1 has seat ``root``, 2 every seat, look one card ahead in the
    playouts: try each legal card, play each out by the easy policy, and play the one
    that leaves the seat the best margin (:func:`openhearts.bots.hard.lookahead_card`);
    0 (the default) is ``hard``'s playout.  ``depth`` (1 to 3): how many levels of such
    looks are nested; at 1 the playouts behind a look follow the easy policy.

    ``rival``: another seat that goes for the moon in every playout, playing for every
    point while no other seat has taken any (as ``root`` in mode True); -1 (the
    default) for none.  ``alarm``: above 0, a seat that holds every point taken and at
    least ``alarm`` points is taken for a shooter, by itself and by the others, instead of
    from half of the points in play (:func:`openhearts.bots.policy.moon_threat`).
    """
    if _compiled is None:
        return reference_evaluate(
            rules, position, candidates, root, modes, add_for, lookahead, depth, rival, alarm
        )
    _check_lookahead(lookahead, depth)
    _check_rival(rules, root, rival, alarm)
    return _compiled.evaluate(  # type: ignore[no-any-return]
        _packed_rules(rules), position, candidates, modes, root, add_for, lookahead, depth,
        rival, alarm,
    )  # fmt: skip
