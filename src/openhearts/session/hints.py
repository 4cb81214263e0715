"""Hints: what the strongest computer player would do in a person's place.

A hint lists the choices in the order they are ranked, each with the numbers it is
ranked by, so the recommendation (the first) is always the best by its own numbers:

* playing: every legal card with the points you can expect to take in the rest of
  the deal and the margin over the others' average that the ``expert`` player ranks
  cards by (lower is better: a moon shot counts for what it is worth, and another
  player's moon once more, the ``expert``'s fear of moons);
* passing: every pass the ``expert`` player considers, each with the points you can
  expect to take in the deal after it and the margin over the others' average it is
  ranked by (found by playing each out on many deals of the hidden cards);
* a moon choice: both ways, with the totals each would give, the conventional one
  first (others add unless that would not leave you alone with the lowest total).

>>> from openhearts import Game, Rules
>>> game = Game(Rules(), seed=1)
>>> hint = make_hint(game.view(0))
>>> hint.kind == "pass", len(hint.best.cards), hint.best.points is not None
(True, 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from ..cards import Card, CardSet
from ..game import PlayerView
from ..phases import Phase
from .checks import no_hint_now

__all__ = ["Hint", "HintKind", "HintOption", "make_hint", "NoHint", "Turn", "turn_of"]


class HintKind(StrEnum):
    PASS = "pass"
    PLAY = "play"
    MOON = "moon"


class NoHint(ValueError):
    """No hint can be given now; the message says why."""


@dataclass(frozen=True)
class HintOption:
    """One choice: cards to pass or play, or a moon choice (``others_add``)."""

    cards: CardSet = field(default_factory=CardSet)
    others_add: bool | None = None
    #: Points you can expect to take in the rest of the deal (pass and play hints).
    points: float | None = None
    #: What pass and play options are ranked by, lower first: the expected points
    #: minus the other seats' average.
    rank_value: float | None = None
    #: Totals after the choice (moon hints).
    totals: tuple[int, ...] | None = None

    @property
    def card(self) -> Card:
        return self.cards.cards()[0]


#: A turn and the position at it, as its seat sees them (:func:`turn_of`): the deal, the
#: phase, the cards played in the deal in order, the seat's hand, and the totals.
Turn = tuple[int, str, tuple[int, ...], int, tuple[int, ...]]


@dataclass(frozen=True)
class Hint:
    kind: HintKind
    #: Best first.
    options: tuple[HintOption, ...]
    #: The seat the hint is for.
    seat: int
    #: The turn it was worked out for (:func:`turn_of`); None: not known.
    turn: Turn | None = None

    @property
    def best(self) -> HintOption:
        return self.options[0]


def turn_of(view: PlayerView) -> Turn:
    """Which turn of the game the view shows, and the position at it: the deal, the
    phase, the cards played in the deal, the seat's hand and the totals, so that a hint
    worked out for one turn is never taken for another's.  The number of cards played
    is not enough: an undo and another card come back to as many with another hand.

    >>> from openhearts import Game
    >>> game = Game(seed=1)
    >>> turn_of(game.view(0))[:3]
    (0, 'passing', ())
    """
    plays = tuple(int(card) for _, card in view.plays)
    return view.deal_number, str(view.phase), plays, view.hand.mask, view.scores


def make_hint(view: PlayerView, seed: object = "hint", budget: int | None = None) -> Hint:
    """The hint for the view's seat now (raises :class:`NoHint`); ``budget``: the expert
    player's worlds searched per decision (None: its default)."""
    if view.phase == Phase.PASSING and view.passed is None and view.pass_target is not None:
        hint = _pass_hint(view, seed)
    elif view.phase == Phase.PLAYING and view.is_my_turn and view.legal:
        hint = _play_hint(view, seed, budget)
    elif view.phase == Phase.MOON_CHOICE and view.is_my_turn:
        hint = _moon_hint(view)
    else:
        raise NoHint(no_hint_now(view))
    return replace(hint, turn=turn_of(view))


def _pass_hint(view: PlayerView, seed: object) -> Hint:
    from ..bots.expert import ExpertBot

    options = tuple(
        HintOption(cards=CardSet(value.mask), points=value.points, rank_value=value.margin)
        for value in ExpertBot(f"{seed}").rank_passes(view)
    )
    return Hint(HintKind.PASS, options, view.seat)


def _play_hint(view: PlayerView, seed: object, budget: int | None) -> Hint:
    from ..bots.expert import EXPERT_POOL, ExpertBot

    bot_seed = f"{seed}:{view.deal_number}:{len(view.tricks)}:{len(view.trick)}"
    bot = (
        ExpertBot(bot_seed)
        if budget is None
        else ExpertBot(bot_seed, budget=budget, pool=max(budget, EXPERT_POOL))
    )
    try:
        values = bot.evaluate(view)
    finally:
        bot.close()
    options = tuple(
        HintOption(cards=CardSet([value.card]), points=value.points, rank_value=value.margin)
        for value in sorted(values, key=lambda v: (v.margin, v.card))
    )
    return Hint(HintKind.PLAY, options, view.seat)


def _moon_hint(view: PlayerView) -> Hint:
    """Both ways, the conventional one first: others add unless that would not leave
    you alone with the lowest total (both ways move you 26 against the others, so
    what decides is who is lowest if the game ends)."""
    options = [
        HintOption(others_add=others_add, totals=view.moon_totals(others_add))
        for others_add in (True, False)
    ]
    suggested = view.suggested_moon_choice()
    options.sort(key=lambda option: option.others_add != suggested)
    return Hint(HintKind.MOON, tuple(options), view.seat)
