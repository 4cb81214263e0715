"""One game session under every face: the plain, the terminal and the web game.

Where each concern lives (one module each):

* :mod:`.core` -- :class:`Session`: a game and its seats, the people's checked actions,
  the bot driver's step, auto play one, undo, hints and memory aids;
* :mod:`.seats` -- people and computer players; :mod:`.driver` -- a bot's decision and
  the faulty-bot policy;
* :mod:`.events` -- typed events for what each action caused;
* :mod:`.undo`, :mod:`.hints`, :mod:`.memory` -- undo to the last choice, hints with
  expected points in ranked order, memory aids; :mod:`.review` -- the tricks of every
  deal of the game;
* :mod:`.checks` -- what a person may do now, the reason in a sentence when not;
* :mod:`.names`, :mod:`.seeds`, :mod:`.points` -- the rule for player names, the
  seed read the same in every face, card points;
* :mod:`.outcome` -- how a game and a session end; :mod:`.statistics` -- results
  across games; :mod:`.saving` -- save and resume in one file;
* :mod:`.keys` -- the one key map of every face.
"""

from __future__ import annotations

from .checks import SessionError
from .core import Session
from .driver import Decision
from .events import Event
from .hints import Hint, HintKind, HintOption, NoHint
from .keys import Command
from .memory import MemoryAids
from .outcome import Ending, Outcome
from .saving import SessionInfo
from .seats import Seats
from .seeds import game_seed
from .statistics import Stats

__all__ = [
    "Session",
    "SessionError",
    "Seats",
    "Decision",
    "Event",
    "Hint",
    "HintKind",
    "HintOption",
    "NoHint",
    "Command",
    "MemoryAids",
    "Ending",
    "Outcome",
    "SessionInfo",
    "Stats",
    "game_seed",
]
