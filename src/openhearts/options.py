"""Command-line options shared by every face that starts a game: preset, players, options.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_rules_arguments(parser)
>>> args = parser.parse_args(
...     ["--preset", "source-003", "--players", "5", "-o", "jack_of_diamonds=true"])
>>> rules = rules_from_args(args)
>>> rules.players, rules.jack_of_diamonds, rules.sun
(5, True, True)
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import Any

from .rules import PRESETS, Rules, RulesError
from .session.saving import AskedFor

__all__ = [
    "add_rules_arguments",
    "rules_from_args",
    "parse_option",
    "Given",
    "given",
    "rules_given",
    "asked_for",
    "whole_number",
    "file_name",
    "file_name_problem",
]


def file_name(text: str) -> str:
    """An argparse ``type``: a file name, not nothing (``--save ''`` was taken for no
    option at all, and the game saved to the default file).

    >>> file_name("game.json")
    'game.json'
    """
    problem = file_name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def file_name_problem(text: str) -> str | None:
    """Why ``text`` is no file name to save to or read from, or None: nothing, or a
    control character (a line break in one split every message that named the file, and
    the "resume it with" command printed could not be pasted back).

    >>> file_name_problem("game.json") is None, file_name_problem("a\\nb.json")
    (True, 'a file name without control characters (line breaks, escapes)')
    """
    if not text.strip():
        return "a file name, not nothing"
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in text):
        return "a file name without control characters (line breaks, escapes)"
    if text.endswith(("/", os.sep)):
        return "a file name, not a folder's (it ends in a slash)"
    if text.endswith(".lock"):
        # The file that keeps a second game off a save file: saving into it (moved
        # aside first) let a second game in.
        return "a file name not ending in .lock (those keep two games off one file)"
    return None


def whole_number(low: int = 1, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``, or a sentence
    saying what is wanted (a number past a machine's range raised an OverflowError, and
    a number of thousands of digits a ValueError, both as tracebacks).

    >>> whole_number(1, 64)("8")
    8
    >>> whole_number(1, 64)("100")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number from 1 to 64, not 100
    """

    # Thousands separated past five digits: ports read 65535, counts 10,000,000.
    def shown(value: int) -> str:
        return f"{value:,}" if value > 99_999 else str(value)

    wanted = (
        f"a whole number from {shown(low)} to {shown(high)}"
        if high
        else f"a whole number, {shown(low)} or more"
    )

    def read(text: str) -> int:
        typed = _typed(text)
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{wanted}, not {typed!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{wanted}, not {typed}")
        return value

    return read


def _typed(text: str) -> str:
    return text if len(text) <= 20 else f"{text[:20]}…"


def integer(text: str) -> int:
    """An argparse ``type``: any whole number, the range left to the option's own check
    (argparse's "invalid int value" stood out among the other options' sentences).

    >>> integer("-3")
    -3
    >>> integer("five")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number, not 'five'
    """
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {_typed(text)!r}") from None


def number(text: str) -> float:
    """An argparse ``type``: any number (seconds, days, a rate), the range left to the
    option's own check, which says what it wants.

    >>> number("0.5")
    0.5
    >>> number("soon")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a number, not 'soon'
    """
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number, not {_typed(text)!r}") from None


class Given(argparse.Action):
    """Stores an option's value and notes that it was given (:func:`given`), so that a
    value typed on the command line can win over saved settings even when it is the
    default."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.given_options = given(namespace) | {self.dest}


def given(args: argparse.Namespace) -> frozenset[str]:
    """The options of ``args`` typed on the command line (those with :class:`Given`)."""
    return frozenset(getattr(args, "given_options", ()))


def rules_given(args: argparse.Namespace) -> bool:
    """Whether any rules option was typed (a typed ``--preset standard`` counts)."""
    return (
        "preset" in given(args)
        or getattr(args, "players", None) is not None
        or getattr(args, "end_score", None) is not None
        or bool(getattr(args, "option", None))
    )


def asked_for(args: argparse.Namespace) -> AskedFor:
    """What ``hearts play`` was asked for that a resumed game keeps from its save."""
    level = getattr(args, "level", None)
    return AskedFor(
        rules=rules_given(args),
        level=level if "level" in given(args) else None,
        seed=getattr(args, "seed", None) is not None,
        name=getattr(args, "name", None) is not None,
        opponents=getattr(args, "opponents", None) is not None,
        no_auto_play_one=getattr(args, "auto_play_one", True) is False,
    )


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules")
    group.add_argument(
        "--preset",
        action=Given,
        default="standard",
        choices=list(PRESETS),
        help="rules preset (see `hearts rules`); default: standard",
    )
    group.add_argument("--players", type=integer, default=None, help="number of players, 3 to 6")
    group.add_argument(
        "--end-score", type=integer, default=None, help="the game ends at this total"
    )
    group.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rules option, e.g. -o moon=shooter_subtracts -o sun=true "
        "(repeatable; see `hearts rules`)",
    )


def parse_option(text: str) -> tuple[str, Any]:
    """Read ``name=value``; the value is JSON when it parses as JSON, else a string.

    >>> parse_option("sun=true"), parse_option("removed=2D 2S"), parse_option("end_score=50")
    (('sun', True), ('removed', '2D 2S'), ('end_score', 50))
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise RulesError(f"option: expected NAME=VALUE, not {text!r}")
    raw = raw.strip()
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    except ValueError:
        raise RulesError(f"{name}: a number of {len(raw)} digits is too long to read") from None
    return name, value


def check_typed_cards(options: dict[str, Any]) -> None:
    """Refuse the cards typed for the rules options that name cards (``first_lead``,
    ``removed``) as cards typed in play are refused (a lone ``1``).

    :raises RulesError: saying which option and why.
    """
    from .session.checks import lone_one_problem

    for name in ("first_lead", "removed"):
        value = options.get(name)
        problem = lone_one_problem(value) if isinstance(value, str) else None
        if problem is not None:
            raise RulesError(f"{name}: {problem}")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Rules from the parsed arguments; raises :class:`RulesError` with a clear message."""
    changes: dict[str, Any] = dict(parse_option(text) for text in args.option)
    if args.end_score is not None:
        changes["end_score"] = args.end_score
    if "pass_cycle" in changes and isinstance(changes["pass_cycle"], list):
        changes["pass_cycle"] = tuple(changes["pass_cycle"])
    base = Rules.preset(args.preset, players=args.players)
    known = set(base.to_dict())
    for name in changes:
        if name not in known:
            raise RulesError(f"{name}: not an option (options: {', '.join(sorted(known))})")
    if "players" in changes:
        raise RulesError("players: use --players")
    check_typed_cards(changes)
    try:
        return Rules.preset(args.preset, players=args.players, **changes)
    except TypeError as error:
        raise RulesError(f"option: {error}") from None
