"""Computer players.  ``make_bot("easy", seed=1)`` builds one by level name;
``load_bot("package.module:Class")`` loads one from another package.

>>> from openhearts import Game
>>> game = Game(seed=5)
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> while not game.is_over:
...     act(game, game.to_act()[0], bots[game.to_act()[0]])
>>> len(game.winners) >= 1
True
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
import typing
from collections.abc import Callable, Mapping
from typing import Final

from ..cards import Card, CardSet
from ..game import (
    MOON_CHOICE,
    PASSING,
    PLAYING,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
)
from .base import BaseBot, Bot, close_bot
from .random_bot import RandomBot

__all__ = [
    "Bot",
    "BaseBot",
    "close_bot",
    "RandomBot",
    "LEVELS",
    "BOTS",
    "LEVEL_NOTES",
    "level_note",
    "make_bot",
    "split_options",
    "load_bot",
    "act",
    "BotError",
    "decide",
    "decide_safely",
    "engine_bot",
    "add_level",
    "ENGINE_PREFIX",
]


class BotError(ValueError):
    """A bot could not be built or made an illegal choice."""


def _easy(seed: object) -> Bot:
    from .easy import EasyBot

    bot: Bot = EasyBot(seed)
    return bot


def _hard(seed: object) -> Bot:
    from .hard import HardBot

    bot: Bot = HardBot(seed)
    return bot


def _expert(seed: object) -> Bot:
    return _expert_with(seed)


def _expert_with(seed: object, **options: object) -> Bot:
    from .expert import ExpertBot

    _check_options("expert", ExpertBot.__init__, options)
    bot: Bot = ExpertBot(seed, **options)  # type: ignore[arg-type]
    return bot


def _check_options(
    level: str,
    init: Callable[..., None],
    options: Mapping[str, object],
    reserved: tuple[str, ...] = (),
) -> None:
    """Refuse an option the bot does not have, naming the ones it has, and a value of the
    wrong kind for its option, naming both.  A bad value must be refused here, when the
    bot is built, and not when it first decides: the arena builds every bot once before
    writing anything, and a bot failing mid-match would waste the boards played.
    Command-line options arrive as text unless they read as numbers, Python callers'
    as anything; both are checked alike.  ``nan`` and ``inf`` read as numbers but pass
    every range check, so they are refused here too.  The ranges are the bot's own to
    check.  ``reserved``: parameters the level sets itself, not options.

    >>> from openhearts.bots.hard import HardBot
    >>> def refused(**options: object) -> None:
    ...     try:
    ...         _check_options("hard", HardBot.__init__, options)
    ...     except BotError as error:
    ...         print(error)  # doctest: +ELLIPSIS
    >>> refused(depht=2)  # doctest: +ELLIPSIS
    bot 'hard': no option 'depht'; its options: budget, workers, ..., depth, moon_eager, moon_hope
    >>> refused(budget=1.5)
    bot 'hard': budget=1.5: a whole number, please
    >>> refused(moon_eager=2)
    bot 'hard': moon_eager=2: 1 (on) or 0 (off), please
    """
    known = [
        name
        for name, parameter in inspect.signature(init).parameters.items()
        if name not in ("self", "seed", *reserved)
        and parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    ]
    for name in options:
        if not known:
            raise BotError(f"bot {level!r}: no option {name!r}; it takes no options")
        if name not in known:
            raise BotError(f"bot {level!r}: no option {name!r}; its options: {', '.join(known)}")
    hints = typing.get_type_hints(init)
    for name, value in options.items():
        wanted = _wrong_value(hints.get(name), value)
        if wanted is not None:
            raise BotError(f"bot {level!r}: {name}={value}: {wanted}, please")


def _wrong_value(hint: object, value: object) -> str | None:
    """What an option of type ``hint`` wants instead of ``value``; None if it is fine.

    >>> _wrong_value(int, 3), _wrong_value(int, 2.5), _wrong_value(float | None, None)
    (None, 'a whole number', None)
    >>> _wrong_value(bool, 1), _wrong_value(bool, "yes"), _wrong_value(float, math.nan)
    (None, '1 (on) or 0 (off)', 'a finite number')
    """
    if isinstance(value, float) and not math.isfinite(value):
        return "a finite number"
    if hint is None:
        return None
    kinds = typing.get_args(hint) or (hint,)
    if value is None:
        if type(None) in kinds or not {bool, int, float, str} & set(kinds):
            return None
        return _wanted(kinds)
    if str in kinds and isinstance(value, str):
        return None
    if bool in kinds:
        # The command line says 1 or 0; any other number is more likely a slip than a
        # wish for "on".
        ok = isinstance(value, bool) or (type(value) is int and value in (0, 1))
        return None if ok else _wanted(kinds)
    # A flag is no number, though Python counts True as 1.
    if isinstance(value, bool):
        return _wanted(kinds)
    if int in kinds and float not in kinds:
        if isinstance(value, int):
            return None
        return "a whole number" if isinstance(value, float) else _wanted(kinds)
    if float in kinds:
        return None if isinstance(value, int | float) else _wanted(kinds)
    if str in kinds:
        return _wanted(kinds)
    return None  # a type this check does not know: the bot's to check


def _wanted(kinds: tuple[object, ...]) -> str:
    if bool in kinds:
        return "1 (on) or 0 (off)"
    if int in kinds or float in kinds:
        return "a number"
    return "text"


#: The options of OpenSpiel's ISMCTS, which its random bot does not take.
_SEARCH_OPTIONS: Final = ("sims", "uct_c", "rollouts", "seconds")


def _openspiel(kind: str) -> Callable[..., Bot]:
    def build(seed: object, **options: object) -> Bot:
        from .openspiel_seat import OpenSpielBot

        # OpenSpiel's random bot has no search to tune: its options would be ignored.
        reserved = ("kind",) if kind == "ismcts" else ("kind", *_SEARCH_OPTIONS)
        _check_options(f"openspiel-{kind}", OpenSpielBot.__init__, options, reserved)
        bot: Bot = OpenSpielBot(seed, kind=kind, **options)  # type: ignore[arg-type]
        return bot

    return build


def _no_options(level: str, factory: Callable[[object], Bot]) -> Callable[..., Bot]:
    def build(seed: object, **options: object) -> Bot:
        if options:
            raise BotError(f"the {level} level takes no options")
        return factory(seed)

    return build


#: Level name -> factory taking a seed: the levels a person can play against.
LEVELS: dict[str, Callable[[object], Bot]] = {
    "random": RandomBot,
    "easy": _easy,
    "hard": _hard,
    "expert": _expert,
}

#: A few words on each level, for the faces' level lists.
LEVEL_NOTES: dict[str, str] = {
    "random": "plays any legal card",
    "easy": "rules of thumb of a careful casual player",
    "hard": "searches the cards it cannot see",
    "expert": "the strongest; reads the other players' play and thinks longer, up to a second",
}


def level_note(level: str) -> str:
    """A few words on a level as written in settings, options included, for every face.

    >>> level_note("hard:budget=30")
    'searches the cards it cannot see; options: budget=30'
    >>> level_note("program")
    'a computer player'

    An outside program or a class from a module has no options: what follows its
    colon is the program or the class (the terminal game said "a computer player;
    options: ./mybot --flag").

    >>> level_note("cmd:./mybot --flag"), level_note("mybots.smart:Bot")
    ('a program of your own, speaking the engine protocol', 'a bot class from a Python module')
    """
    if level.startswith(ENGINE_PREFIX):
        return "a program of your own, speaking the engine protocol"
    name, _, options = level.partition(":")
    if options and name not in BOTS:
        return "a bot class from a Python module"
    note = LEVEL_NOTES.get(name, "a computer player")
    return f"{note}; options: {options}" if options else note


#: Every bot that can be seated by name (the levels and outside programs): name ->
#: factory taking a seed and keyword options (``hard``'s budget, OpenSpiel's sims...).
BOTS: dict[str, Callable[..., Bot]] = {
    "random": _no_options("random", RandomBot),
    "easy": _no_options("easy", _easy),
    "hard": lambda seed, **options: _hard_with(seed, **options),
    "expert": lambda seed, **options: _expert_with(seed, **options),
    "openspiel-ismcts": _openspiel("ismcts"),
    "openspiel-random": _openspiel("random"),
}


def _hard_with(seed: object, **options: object) -> Bot:
    from .hard import HardBot

    _check_options("hard", HardBot.__init__, options)
    bot: Bot = HardBot(seed, **options)  # type: ignore[arg-type]
    return bot


def make_bot(level: str, seed: object = 0, **options: object) -> Bot:
    """A bot by name (a level or another registered bot, see :data:`BOTS`) with keyword
    options, or from an import path ``module:Class``."""
    if not isinstance(level, str):
        # 3 said "'int' object has no attribute 'startswith'", a list "unhashable type".
        raise BotError(f"a bot level is a name such as 'easy', not {level!r}")
    if level in BOTS:
        try:
            return BOTS[level](seed, **options)
        except (TypeError, ValueError) as error:
            if isinstance(error, BotError):
                raise
            raise BotError(f"bot {level!r}: {error}") from None
    if level.startswith(ENGINE_PREFIX):
        return engine_bot(level.removeprefix(ENGINE_PREFIX), seed, **options)
    name, given = split_options(level)
    if given:
        return make_bot(name, seed, **{**given, **options})
    if ":" in level:
        return load_bot(level, seed)
    raise BotError(f"no bot level {level!r}: choose {', '.join(BOTS)}, module:Class or cmd:PROGRAM")


def split_options(spec: str) -> tuple[str, dict[str, object]]:
    """A bot named with its options, as the arena and ``hearts play --level`` take it:
    ``hard:budget=20,pool=60`` is ``hard`` with ``budget=20`` and ``pool=60`` (numbers
    read as numbers).  Anything else is returned whole, without options.

    >>> split_options("hard:budget=20,moon_fear=1.5"), split_options("pkg.mod:Cls")
    (('hard', {'budget': 20, 'moon_fear': 1.5}), ('pkg.mod:Cls', {}))
    """
    head, sep, tail = spec.partition(":")
    if not sep or head not in BOTS:
        return spec, {}
    options: dict[str, object] = {}
    for item in tail.split(","):
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise BotError(f"bot {spec!r}: options are NAME=VALUE, comma separated")
        options[name.strip()] = _number(value.strip())
    return head, options


def _number(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def add_level(name: str, spec: str) -> None:
    """Offer another bot as a level by ``name`` (``hearts serve --bot-level NAME=SPEC``):
    ``spec`` is anything :func:`make_bot` builds, such as ``cmd:./mybot --flag``.

    >>> add_level("cautious", "easy")
    >>> type(make_bot("cautious", seed=1)).__name__
    'EasyBot'
    >>> del LEVELS["cautious"], BOTS["cautious"]
    """
    if not name.replace("-", "").replace("_", "").isalnum():
        raise BotError(f"bot level name {name!r}: letters, digits, - and _ only")
    if name in BOTS or spec == name:
        raise BotError(f"there is already a bot called {name!r}")

    def build(seed: object) -> Bot:
        return make_bot(spec, seed)

    LEVELS[name] = build
    BOTS[name] = _no_options(name, build)


#: ``cmd:PROGRAM ARGS`` seats a program speaking the engine protocol (docs/engine-protocol.md).
ENGINE_PREFIX: Final = "cmd:"


def engine_bot(command: str, seed: object = 0, **options: object) -> Bot:
    """A bot played by an outside program (:class:`~openhearts.bots.engine.EngineBot`)."""
    from .engine import EngineBot

    if not command.strip():
        raise BotError("cmd: give the program to run, e.g. cmd:./mybot --flag")
    bot: Bot = EngineBot(command, seed, **options)  # type: ignore[arg-type]
    return bot


def load_bot(spec: str, seed: object = 0) -> Bot:
    """Import ``package.module:Class`` and build it with ``seed`` (if it takes one)."""
    module_name, _, attribute = spec.partition(":")
    # importlib takes a leading dot for a relative import and has its own complaints
    # about names it cannot use: only an absolute dotted name is a bot's module here.
    if not all(part.isidentifier() for part in module_name.split(".")):
        raise BotError(
            f"cannot load bot {spec!r}: {module_name!r} is not a module name "
            "(give package.module:Class)"
        )
    if not attribute.isidentifier():
        raise BotError(
            f"cannot load bot {spec!r}: {attribute!r} is not a class name "
            "(give package.module:Class)"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except Exception as error:  # someone else's module: any failure is the spec's
        raise BotError(f"cannot load bot {spec!r}: {error}") from None
    try:
        try:
            bot = factory(seed)
        except TypeError:
            bot = factory()
    except Exception as error:  # someone else's code: any failure is the spec's
        raise BotError(f"cannot build bot {spec!r}: {error}") from None
    if not isinstance(bot, Bot):
        raise BotError(f"{spec} has no choose_pass, choose_play and choose_moon methods")
    return bot


def decide(bot: Bot, view: PlayerView) -> Action:
    """The bot's next action for ``view.seat``, built from the view alone.

    Safe to call in a worker thread: it reads only the immutable view.  Whether the
    action is legal is for the game to check when it is applied.
    """
    if view.phase in (PLAYING, MOON_CHOICE) and view.to_move != view.seat:
        # A bot asked out of turn has no legal card: easy's choice came back as -1 and
        # act() said "a card number is 0 to 51, not -1".
        names = view.names
        raise IllegalActionError(
            f"it is {names[view.to_move] if view.to_move is not None else 'no one'}'s "
            f"turn, not {names[view.seat]}'s"
        )
    if view.phase == PASSING:
        return Pass(view.seat, CardSet(bot.choose_pass(view)))
    if view.phase == PLAYING:
        return Play(view.seat, Card(int(bot.choose_play(view))))
    if view.phase == MOON_CHOICE:
        return MoonChoice(view.seat, bool(bot.choose_moon(view)))
    raise BotError("the game is over")


def decide_safely(bot: Bot, view: PlayerView) -> Action:
    """Like :func:`decide`, but a bot that fails or answers something illegal is replaced
    by a random legal action, so a faulty plug-in bot cannot stop a person's game."""
    try:
        action = decide(bot, view)
        if isinstance(action, Pass):
            if len(action.cards) == view.rules.cards_passed and action.cards <= view.hand:
                return action
        elif isinstance(action, Play):
            if action.card in view.legal:
                return action
        else:
            return action
    except Exception:  # any failure of someone else's code
        pass
    rng = random.Random(f"{view.hand!r}:{len(view.tricks)}:{len(view.trick)}")
    if view.phase == PASSING:
        return Pass(view.seat, CardSet(rng.sample(view.hand.cards(), view.rules.cards_passed)))
    if view.phase == PLAYING:
        return Play(view.seat, rng.choice(view.legal.cards()))
    return MoonChoice(view.seat, True)


def act(game: Game, seat: int, bot: Bot) -> None:
    """Ask ``bot`` for ``seat``'s next action and apply it to ``game``.

    The bot gets only ``game.view(seat)``.  An illegal choice raises
    :class:`~openhearts.actions.IllegalActionError` and leaves the game unchanged.
    """
    game.apply(decide(bot, game.view(seat)))
