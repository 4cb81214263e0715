"""A game of Hearts as a sequence of single integer actions by one seat at a time.

Learning environments and game-playing frameworks expect exactly one player to act at
each step and every action to be one number.  :class:`TurnGame` presents a
:class:`~openhearts.Game` that way: passing becomes one card per action, the seats
passing in seat order (no seat sees another's choice, as at a real table where the
cards go face down); a moon choice is one of two actions after the cards.  It is
pure and deterministic like the rest of the engine.

Actions: ``0``-``51`` a card (our :class:`~openhearts.Card` number) to pass or play,
:data:`MOON_OTHERS_ADD` and :data:`MOON_SHOOTER_SUBTRACTS` the shooter's choice.

>>> from openhearts import Rules
>>> turns = TurnGame(Rules(), seed=1)
>>> turns.seat, turns.phase, len(turns.legal_actions())
(0, 'passing', 13)
>>> turns.apply(turns.legal_actions()[-1]); turns.apply(turns.legal_actions()[-1])
>>> turns.seat, len(turns.selected(0))
(0, 2)
>>> turns.apply(turns.legal_actions()[-1])
>>> turns.seat, len(turns.view(0).passed or ())
(1, 3)
>>> turns.apply(99)
Traceback (most recent call last):
...
openhearts.actions.IllegalActionError: 99 is not an action: actions are cards 0-51, 52 and 53
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Iterable, Sequence
from typing import Final

from .cards import CARDS, CardSet, cards_of
from .deal import DONE
from .game import (
    GAME_OVER,
    MOON_CHOICE,
    PASSING,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
)
from .rules import Rules

__all__ = [
    "TurnGame",
    "action_number",
    "MOON_OTHERS_ADD",
    "MOON_SHOOTER_SUBTRACTS",
    "ACTION_COUNT",
    "action_name",
]

#: The shooter adds the points in play to every other seat.
MOON_OTHERS_ADD: Final = 52
#: The shooter subtracts the points in play from its own score.
MOON_SHOOTER_SUBTRACTS: Final = 53
#: How many distinct actions there are (52 cards and two moon choices).
ACTION_COUNT: Final = 54


def action_name(action: int) -> str:
    """A short readable name: the card (``QS``) or the moon choice; any integer type
    (numpy's, as ``np.flatnonzero(mask)`` gives) is an action number.

    >>> action_name(36), action_name(MOON_OTHERS_ADD)
    ('QS', 'moon: others add')
    """
    number = action_number(action)
    if number is None:
        raise ValueError(_not_an_action(action))
    if number == MOON_OTHERS_ADD:
        return "moon: others add"
    if number == MOON_SHOOTER_SUBTRACTS:
        return "moon: shooter subtracts"
    return str(CARDS[number])


def action_number(action: object) -> int | None:
    """``action`` as a plain int if it is an action number (any integer: numpy's, a 0-d
    array...), else None; True and False are no actions.

    >>> action_number(5), action_number(52), action_number(False)
    (5, 52, None)
    >>> action_number(54), action_number(2.0), action_number("5")
    (None, None, None)
    """
    if isinstance(action, bool):
        return None
    try:
        number = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return number if 0 <= number < ACTION_COUNT else None


def _not_an_action(action: object) -> str:
    return (
        f"{action!r} is not an action: actions are cards 0-51, "
        f"{MOON_OTHERS_ADD} and {MOON_SHOOTER_SUBTRACTS}"
    )


class TurnGame:
    """One :class:`~openhearts.Game` (or only its first deal) one action at a time.

    :param rules: the options in force: a :class:`Rules`, or a preset's name, as
        :class:`~openhearts.Game` takes them.
    :param seed: decides the shuffles of deals whose hands are not given.
    :param hands: the dealt hands of the first deal (else shuffled from the seed).
    :param first_deal: the number of the first deal (decides the pass direction).
    :param whole_game: play deal after deal until the game's end score; otherwise the
        game is over when the first deal is.
    """

    def __init__(
        self,
        rules: Rules | str,
        seed: object = 0,
        *,
        hands: Sequence[CardSet | int | Iterable[int] | str] | None = None,
        first_deal: int = 0,
        whole_game: bool = False,
    ) -> None:
        self.game = Game(
            rules,
            seed,
            hands=None if hands is None else [hands],
            first_deal=first_deal,
        )
        self.whole_game = whole_game
        # Cards each seat has chosen to pass so far, before its pass is complete.  The
        # game's rules, not the argument: a preset's name failed on its .players.
        self._selected = [0] * self.game.rules.players

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def is_over(self) -> bool:
        """Whether nothing is left to play (the game, or the first deal when not whole)."""
        return self.game.is_over or (not self.whole_game and bool(self.game.results))

    @property
    def phase(self) -> str:
        """``passing``, ``playing``, ``moon_choice`` or ``game_over``."""
        return GAME_OVER if self.is_over else self.game.phase

    @property
    def seat(self) -> int | None:
        """The one seat to act now (the lowest seat yet to pass, when passing)."""
        if self.is_over:
            return None
        if self.game.phase == PASSING:
            return self.game.to_act()[0]
        return self.game.current_player

    def selected(self, seat: int) -> CardSet:
        """The cards ``seat`` has chosen to pass so far (until its pass is complete)."""
        # Checked as the game checks seats: seat -1 read the last seat's choice.
        return CardSet(self._selected[self.game._check_seat(seat)])

    def __copy__(self) -> TurnGame:
        # A shallow copy shared the game underneath (see Game.__copy__).
        return copy.deepcopy(self)

    def legal_mask(self) -> int:
        """The legal actions as a bit mask (bit ``a`` for action ``a``)."""
        seat = self.seat
        if seat is None:
            return 0
        phase = self.game.phase
        if phase == PASSING:
            return int(self.game.hand(seat)) & ~self._selected[seat]
        if phase == MOON_CHOICE:
            return 1 << MOON_OTHERS_ADD | 1 << MOON_SHOOTER_SUBTRACTS
        return self.game.legal_mask()

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending."""
        mask = self.legal_mask()
        moon = [a for a in (MOON_OTHERS_ADD, MOON_SHOOTER_SUBTRACTS) if mask >> a & 1]
        return cards_of(mask & ((1 << 52) - 1)) + moon

    def apply(self, action: object) -> None:
        """Take ``action`` for :attr:`seat`; an illegal one (or anything that is no
        action number) raises :class:`~openhearts.IllegalActionError` and changes nothing."""
        number = action_number(action)
        if number is None:
            raise IllegalActionError(_not_an_action(action))
        seat = self.seat
        if seat is None:
            raise IllegalActionError("the game is over")
        if not self.legal_mask() >> number & 1:
            raise IllegalActionError(self._why_illegal(seat, number))
        game = self.game
        if game.phase == PASSING:
            self._selected[seat] |= 1 << number
            if self._selected[seat].bit_count() == self.rules.cards_passed:
                chosen, self._selected[seat] = self._selected[seat], 0
                game.pass_cards(seat, CardSet(chosen))
        elif game.phase == MOON_CHOICE:
            game.choose_moon(seat, others_add=number == MOON_OTHERS_ADD)
        else:
            game.play(number, seat=seat)

    def apply_action(self, action: Action) -> None:
        """Apply a whole :class:`~openhearts.actions.Action` (e.g. a bot's decision) for
        :attr:`seat`: a pass becomes its cards one at a time."""
        if isinstance(action, Pass | Play | MoonChoice) and action.seat != self.seat:
            raise IllegalActionError(f"it is seat {self.seat}'s turn, not seat {action.seat}'s")
        if isinstance(action, Pass):
            # Check the whole pass first, so a bad one leaves no card half chosen.
            if self.game.phase != PASSING or self._selected[action.seat]:
                raise IllegalActionError("a whole pass is only possible before any card is chosen")
            if len(action.cards) != self.rules.cards_passed:
                raise IllegalActionError(
                    f"pass exactly {self.rules.cards_passed} cards, not {len(action.cards)}"
                )
            if action.cards.mask & ~self.legal_mask():
                raise IllegalActionError(
                    f"you do not hold {CardSet(action.cards.mask & ~self.legal_mask())}"
                )
            for card in action.cards:
                self.apply(int(card))
        elif isinstance(action, Play):
            if self.game.phase == PASSING:
                # apply() takes a card number as a card to pass while passing.
                raise IllegalActionError(
                    "cards are being passed: play starts when every player has passed"
                )
            self.apply(int(action.card))
        elif isinstance(action, MoonChoice):
            self.apply(MOON_OTHERS_ADD if action.others_add else MOON_SHOOTER_SUBTRACTS)
        else:
            raise IllegalActionError(f"not an action: {action!r}")

    def _why_illegal(self, seat: int, action: int) -> str:
        phase = self.game.phase
        if phase == MOON_CHOICE:
            return f"{self.game.names[seat]} must choose how to score the moon (52 or 53)"
        if action >= 52:
            return "there is no moon to choose for now"
        if phase == PASSING:
            if self._selected[seat] >> action & 1:
                return f"{action_name(action)} is already chosen to pass"
            return f"you do not hold {action_name(action)}"
        return self.game.why_illegal(action)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (its chosen pass cards are in :meth:`selected`).

        Once a single deal is over it is the view of that finished deal, although the
        game underneath has dealt the next one.
        """
        game = self.game
        if not self.is_over or game.is_over:
            return game.view(seat)
        finished = game.deal_states()[-2]
        current, game.deal = game.deal, finished
        try:
            return game.view(seat)
        finally:
            game.deal = current

    def scored_points(self) -> list[int]:
        """Each seat's points from the deals finished so far (what the score sheet adds)."""
        game = self.game
        start = game.initial_scores
        return [total - first for total, first in zip(game.scores, start, strict=True)]

    def points_so_far(self) -> list[int]:
        """:meth:`scored_points` plus the points taken in the deal in progress (before
        any moon or sun is scored): what per-trick rewards follow."""
        points = self.scored_points()
        deal = self.game.deal
        if deal.phase != DONE:
            points = [a + b for a, b in zip(points, deal.raw_points(), strict=True)]
        return points
