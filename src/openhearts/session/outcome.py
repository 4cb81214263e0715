"""How a game and a session end, as data (python-chess's ``Outcome`` is the model).

>>> from openhearts import Game, Rules
>>> game = Game(Rules(end_score=1), seed=2)
>>> game_outcome(game) is None
True
>>> Ending.HANGUP == "hangup"
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..game import Game

__all__ = ["Ending", "Outcome", "game_outcome"]


class Ending(StrEnum):
    """Why a session stopped."""

    #: Someone reached the end score and the game was scored.
    GAME_OVER = "game_over"
    #: The player asked to stop; the game is saved.
    QUIT = "quit"
    #: The input ended (Ctrl-D, a closed pipe); the game is saved.
    END_OF_INPUT = "end_of_input"
    #: Ctrl-C; the game is saved.
    INTERRUPTED = "interrupted"
    #: The terminal closed (SIGHUP); the game is saved.
    HANGUP = "hangup"
    #: The process was asked to stop (SIGTERM); the game is saved.
    TERMINATED = "terminated"

    @property
    def exit_status(self) -> int:
        """The program's exit status: 128 + the signal's number for a signal, as a
        shell reports it (a script can tell a stop by Ctrl-C from a game saved on
        ``quit``), else 0.

        >>> Ending.INTERRUPTED.exit_status, Ending.QUIT.exit_status
        (130, 0)
        """
        return _SIGNALLED.get(self, 0)


_SIGNALLED: dict[Ending, int] = {
    Ending.INTERRUPTED: 128 + 2,
    Ending.HANGUP: 128 + 1,
    Ending.TERMINATED: 128 + 15,
}


@dataclass(frozen=True)
class Outcome:
    """A finished game: who won (ties share the win) and the final totals."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    deals: int

    def won_by(self, seat: int) -> bool:
        return seat in self.winners


def game_outcome(game: Game) -> Outcome | None:
    """The outcome of a finished game, None while it goes on."""
    if not game.is_over:
        return None
    return Outcome(tuple(game.winners), tuple(game.scores), len(game.results))
