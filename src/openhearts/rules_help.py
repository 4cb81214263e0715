"""``hearts rules``: the presets, what each reproduces, and every option."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import TextIO

from .options import add_rules_arguments, rules_from_args
from .rules import PRESET_SOURCES, PRESETS, RulesError
from .sentences import Style, supports_symbols


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)


def say(text: str, stream: TextIO | None = None) -> None:
    """A line as the output can show it: an ASCII-only one has the suits in letters
    (printing the symbols raised UnicodeEncodeError)."""
    stream = stream or sys.stdout
    print(Style(supports_symbols(stream)).for_stream(text, stream), file=stream)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except RulesError as error:
        say(f"hearts rules: {error}", sys.stderr)
        return 2
    say("Presets:")
    for name in PRESETS:
        say(f"  {name:<11} {PRESET_SOURCES[name]}")
    given = [f"--preset {args.preset}"]
    if args.players:
        given.append(f"--players {args.players}")
    if args.end_score is not None:
        given.append(f"--end-score {args.end_score}")
    given += [f"-o {shlex.quote(option)}" for option in args.option or ()]
    say(f"\nThe rules of {' '.join(given)}:")
    for line in rules.describe():
        say(f"  {line}")
    say("\nOptions (change with -o NAME=VALUE):")
    for name, value in rules.to_dict().items():
        # As -o takes it back: JSON (true, null, ["2D", "2S"]), a word as it is.
        shown = value if isinstance(value, str) else json.dumps(value)
        say(f"  {name} = {shown}")
    return 0
