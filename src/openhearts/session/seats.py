"""Who sits where: the people, and a computer player for every other seat.

A level that cannot be built (an unknown name, a plug-in that fails to import) falls
back to ``random`` players, with :attr:`Seats.problem` saying why, so a game can
always start.

>>> seats = Seats.build(4, humans=[0], level="no-such-level", seed=1)
>>> sorted(seats.bots), seats.level, seats.problem is not None
([1, 2, 3], 'random', True)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..bots import Bot, BotError, RandomBot, make_bot
from ..bots.engine import program_problem

__all__ = ["Seats", "BotError", "bot_seed", "check_level", "make_bot"]


def check_level(level: str) -> None:
    """Refuse a level typed on the command line that names no computer player, or an
    outside program that cannot play, as every face does (a saved setting falls back to
    ``random`` instead: see :class:`Seats`).  The program's game began, each of its
    seats taken over by a random player in turn.

    >>> check_level("hard")
    >>> check_level("nosuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    openhearts.bots.BotError: no bot level 'nosuch'...
    >>> check_level("cmd:/no/such/program")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    openhearts.bots.BotError: --level cmd:/no/such/program: the program could not start...
    """
    # A level whose extra is missing is no mistake of the person's: the game falls back
    # and says so.
    with contextlib.suppress(ImportError):
        problem = program_problem(make_bot(level, 0))
        if problem is not None:
            raise BotError(f"--level {level}: {problem}")


def bot_seed(game_seed: object, seat: int) -> str:
    """The seed of one seat's computer player: the same in every face."""
    return f"{game_seed}:bot:{seat}"


@dataclass
class Seats:
    """The human seats, and the bot playing each other seat."""

    humans: frozenset[int]
    bots: dict[int, Bot] = field(default_factory=dict)
    #: The computer players' level actually in use.
    level: str = "easy"
    #: Why the level asked for could not be used, if it could not.
    problem: str | None = None

    @classmethod
    def build(cls, players: int, humans: Iterable[int], level: str, seed: object) -> Seats:
        seats = cls(frozenset(humans), level=level)
        for seat in range(players):
            if seat not in seats.humans:
                seats.bots[seat] = seats._make(level, bot_seed(seed, seat))
        return seats

    def _make(self, level: str, seed: str) -> Bot:
        try:
            return make_bot(self.level, seed)
        except (BotError, ImportError, AttributeError) as error:
            self.problem = (
                f"the {level!r} computer players are not available ({error}); "
                "playing against random ones"
            )
            self.level = "random"
            return RandomBot(seed)

    def is_human(self, seat: int) -> bool:
        return seat in self.humans

    def replace_with_random(self, seat: int, seed: object) -> None:
        """A faulty computer player gives way to a random one (the faulty-bot policy)."""
        self.bots[seat] = RandomBot(bot_seed(seed, seat))
