"""Undo to a person's last real choice: a card, a pass or a moon choice.

Everything the computer players did after it is taken back too.  With auto play one,
a card played for the person was no choice (it would only be played again at once), so
undo goes on to the choice before it: the card before, or the pass when the forced card
was the deal's first (the 2♣ led), so that an undo is never followed by the same card
played again.  When the person made no choice before it, there is nothing to take back:
the undo is refused (in every face alike) and the game stays as it was.

>>> from openhearts import Game
>>> from openhearts.game import Pass
>>> game = Game(seed=3)
>>> game.apply(Pass(0, game.hand(0).cards()[:3]))
>>> undone = undo_last_choice(game, 0, auto_play_one=True)
>>> [type(a).__name__ for a in undone.actions], game.to_act()
(['Pass'], [0, 1, 2, 3])
"""

from __future__ import annotations

from ..game import Action, Game, Play
from ..record import dumps, loads
from .checks import SessionError
from .events import Undone

__all__ = ["UndoError", "can_undo", "has_choice_to_undo", "undo_last_choice"]


class UndoError(SessionError):
    """Nothing of the person's can be taken back; the message says why."""


def can_undo(game: Game, seat: int) -> bool:
    """Whether ``seat`` has a choice to take back (a finished game has none)."""
    return not game.is_over and any(action.seat == seat for action in game.actions)


def has_choice_to_undo(game: Game, seat: int, auto_play_one: bool) -> bool:
    """Whether :func:`undo_last_choice` would take something back, found on a copy of
    the game (the game itself may be read elsewhere meanwhile): a face offering *Undo*
    when the person's cards so far were all forced had it refused."""
    if not can_undo(game, seat):
        return False
    copy = loads(dumps(game))  # the dealt hands, seating and starting scores too
    try:
        undo_last_choice(copy, seat, auto_play_one)
    except UndoError:
        return False
    return True


def undo_last_choice(game: Game, seat: int, auto_play_one: bool) -> Undone:
    """Take back ``seat``'s last choice and everything after it."""
    if game.is_over:
        raise UndoError("The game is over: there is nothing to undo.")
    if not can_undo(game, seat):
        raise UndoError("There is nothing of yours to undo yet.")
    taken: list[Action] = []
    deals_scored = len(game.results)
    while True:
        action = game.undo()
        taken.append(action)
        if action.seat != seat:
            continue
        if not isinstance(action, Play):
            break
        forced = game.auto_play_card() is not None
        if not (auto_play_one and forced):
            break
        if not can_undo(game, seat):
            # Only cards that were the person's sole legal ones: auto play one would
            # play them again at once, so taking them back changes nothing.
            for done in reversed(taken):
                game.apply(done)
            raise UndoError(
                "There is nothing of yours to take back: your cards so far were your "
                "only legal ones."
            )
    # Said, as the deal's points and the deal number change under the person's eyes.
    back_to_deal = game.deal_number if len(game.results) < deals_scored else None
    return Undone(seat, tuple(taken), back_to_deal)
