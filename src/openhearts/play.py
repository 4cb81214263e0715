"""``hearts play``: a game against the computer, in the terminal app or in plain lines.

The plain line mode (``--plain``) is also what runs when the output is not a
terminal; it draws nothing on the screen, so screen readers follow it easily.
"""

from __future__ import annotations

import argparse
import os
import sys

from .bots import LEVEL_NOTES
from .extras import missing_extra_message
from .options import Given, add_rules_arguments, file_name
from .paths import check_writable_target


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--seed", default=None, help="seed for the shuffles (default: random)")
    parser.add_argument("--name", default=None, help="your name")
    parser.add_argument(
        "--opponents",
        default=None,
        metavar="NAMES",
        help="comma-separated names for the computer players",
    )
    parser.add_argument(
        "--level",
        action=Given,
        default="easy",
        type=_level,
        help="computer players' level: "
        + "; ".join(f"{level} ({note})" for level, note in LEVEL_NOTES.items())
        + "; a level with options as in the arena (hard:budget=60); or package.module:Class, "
        "or 'cmd:PROGRAM ARGS' (docs/playing.md); default: easy",
    )
    parser.add_argument(
        "--no-auto-play-one",
        dest="auto_play_one",
        action="store_false",
        help="do not play a sole legal card, or the rest of a deal with no points left, "
        "automatically",
    )
    parser.add_argument(
        "--plain", action="store_true", help="plain line-based play (no screen drawing)"
    )
    parser.add_argument(
        "--save",
        type=file_name,
        default=None,
        metavar="FILE",
        help="where the game is saved, after every move (default: a file in your data directory)",
    )
    parser.add_argument(
        "--resume", type=file_name, default=None, metavar="FILE", help="resume a saved game"
    )


def run(args: argparse.Namespace) -> int:
    if args.save is not None:
        try:
            check_writable_target(os.path.expanduser(args.save))
        except IsADirectoryError:
            example = os.path.join(args.save, "game.json")
            print(
                f"hearts play: --save {args.save}: a folder; name a file, e.g. {example}",
                file=sys.stderr,
            )
            return 2
        except OSError as error:
            print(f"hearts play: --save {args.save}: {error.strerror}", file=sys.stderr)
            return 2
    # A terminal that says it cannot move the cursor (TERM=dumb: an editor's shell, a
    # serial line) showed the full-screen app as a stream of escape sequences.
    drawable = sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
    if not args.plain and drawable:
        try:
            from .tui import run_tui
            from .tui.app import HeartsApp  # noqa: F401  (fails here when textual is missing)
        except ImportError as error:
            message = missing_extra_message(error)
            if message is None:
                raise
            print(f"hearts play: {message}.")
            print("Playing in plain lines instead.")
        else:
            return int(run_tui(args))
    from .plain import run_plain

    return int(run_plain(args))


def _level(text: str) -> str:
    """A level name in any case (``Hard``); import paths and programs as typed."""
    return text.lower() if text.lower() in LEVEL_NOTES else text
