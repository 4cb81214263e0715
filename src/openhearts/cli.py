"""The ``hearts`` command: parses arguments and hands off to a face.

Each subcommand lives in its own module, imported only when used, so that
``hearts replay`` does not pay for the web server's imports.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .extras import missing_extra_message

#: subcommand -> (module, one-line help).  Each module has ``add_arguments(parser)``
#: and ``run(args) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("openhearts.play", "play a game against the computer (terminal)"),
    "replay": ("openhearts.replay", "print a saved game trick by trick"),
    "export": ("openhearts.convert", "write a game record as PBN-style text"),
    "import": ("openhearts.convert", "read a PBN-style text record into a game record"),
    "arena": ("openhearts.arena", "play bots against each other and compare them"),
    "train": ("openhearts.train", "make the learned model of hard's play from a seed"),
    "serve": ("openhearts.web.server", "start the web game server"),
    "prune": ("openhearts.web.prune", "forget the web server's old finished and abandoned tables"),
    "rules": ("openhearts.rules_help", "list the rules presets and options"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, that subcommand's module is imported for its options
    (and no other, so that ``hearts --help`` needs none of the extras)."""
    parser = argparse.ArgumentParser(
        prog="hearts", description="OpenHearts: the card game Hearts, every common variant."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        if name == only:
            importlib.import_module(module_name).add_arguments(sub)
        sub.set_defaults(_module=module_name, _parser=sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in arguments if not a.startswith("-")), None)
    try:
        parser = build_parser(chosen if chosen in SUBCOMMANDS else None)
        args, unknown = parser.parse_known_args(arguments)
        if unknown:
            # Said by the command they were given to, with its usage: ``hearts`` for
            # those before the command's name, the command for those after it.
            command_at = arguments.index(args.command) if args.command else len(arguments)
            before = [a for a in unknown if a in arguments[:command_at]]
            command_parser = getattr(args, "_parser", None)
            if before or command_parser is None:
                parser.error(f"unrecognized arguments: {' '.join(before or unknown)}")
            command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        if args.command is None:
            parser.print_help()
            return 0
        module = importlib.import_module(args._module)
        return int(module.run(args) or 0)
    except KeyboardInterrupt as stop:
        print("\nInterrupted.", file=sys.stderr)
        # 143 for SIGTERM (kill), 130 for Ctrl+C, as a shell reports them.
        return getattr(stop, "exit_status", 130)
    except BrokenPipeError:
        # The reader went away (``hearts replay game.json | head``): nothing more to say,
        # and no complaint at exit about the output that could not be flushed.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except ImportError as error:
        # A face or service whose extra is not installed: one line, not a traceback.
        message = missing_extra_message(error)
        if message is None:
            raise
        command = f"hearts {chosen}" if chosen in SUBCOMMANDS else "hearts"
        print(f"{command}: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
