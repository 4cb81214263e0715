"""OpenHearts: the card game Hearts, every common variant, as a Python library.

>>> from openhearts import Game, Rules
>>> game = Game(Rules.preset("standard"), seed=1)
>>> game.rules.players, len(game.hand(0))
(4, 13)
"""

# _engine first: on import it decides where deal and game are loaded from.
from . import _engine
from . import deal as _deal_module
from . import game as _game_module
from .cards import Card, CardParseError, CardSet, Rank, Suit, parse_cards
from .deal import DealState
from .game import (
    Action,
    DealResult,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
    TrickRecord,
    conventional_moon_choice,
)
from .phases import MoonScore, Phase, Shot
from .rules import PRESETS, FirstTrick, HeartsBreak, MoonScoring, Rules, RulesError, Seating

__version__ = "0.1.0"

#: Whether the engine (:mod:`openhearts.deal` and :mod:`openhearts.game`) runs compiled.
ENGINE_COMPILED = _engine.notice([_deal_module, _game_module])

__all__ = [
    "Action",
    "Card",
    "CardParseError",
    "CardSet",
    "DealResult",
    "DealState",
    "FirstTrick",
    "Game",
    "HeartsBreak",
    "IllegalActionError",
    "MoonChoice",
    "MoonScore",
    "MoonScoring",
    "PRESETS",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "Rules",
    "RulesError",
    "Seating",
    "Shot",
    "Suit",
    "TrickRecord",
    "conventional_moon_choice",
    "parse_cards",
]
