"""``hearts export`` and ``hearts import``: a JSON game record to the PBN-style text
record and back (``docs/records.md``).  Either way the game is replayed and checked
first, so a broken file is refused with its line and the reason.

:func:`load_any` reads a record in either form (``hearts replay`` uses it).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import pbn, record
from .game import Game
from .options import file_name
from .paths import read_text
from .record import RecordError
from .session.saving import write_atomic

__all__ = ["add_arguments", "run", "load_any"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_name, metavar="FILE", help="the record to convert")
    parser.add_argument(
        "--out",
        "-o",
        type=file_name,
        default=None,
        metavar="FILE",
        help="where to write the converted record (default, or -: standard output)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the --out file if there is one (else it is refused)",
    )


def _read(path: str) -> str:
    try:
        return read_text(os.path.expanduser(path))
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text (records are UTF-8)") from None


def _same_file(first: str, second: str) -> bool:
    one, other = os.path.expanduser(first), os.path.expanduser(second)
    try:
        return os.path.samefile(one, other)
    except OSError:
        return os.path.abspath(one) == os.path.abspath(other)


def load_any(path: str) -> Game:
    """A game from a JSON record or a PBN-style text record, whichever the file holds."""
    text = _read(path)
    return pbn.loads(text) if record.is_text_record(text) else record.loads(text)


def _other_form(text: str, exporting: bool) -> str | None:
    """What to say when the file holds the record form the other command reads."""
    if exporting and record.is_text_record(text):
        return "it is a text record: hearts import reads it, and hearts replay"
    if not exporting and text.lstrip("\ufeff \t\r\n").startswith("{"):
        return "it is a JSON record: hearts export reads it, and hearts replay"
    return None


def run(args: argparse.Namespace) -> int:
    exporting = args.command == "export"
    text = ""
    try:
        text = _read(args.file)
        game = record.loads(text) if exporting else pbn.loads(text)
    except RecordError as error:
        # The library's words name its other reader; the command names the other command.
        said = _other_form(text, exporting) or error
        print(f"hearts {args.command}: {args.file}: {said}", file=sys.stderr)
        return 2
    converted = pbn.dumps(game) if exporting else record.dumps(game)
    if args.out in (None, "-"):
        # A record is UTF-8 whatever the terminal's encoding (an ASCII-only output met
        # a name such as Zoë with a UnicodeEncodeError).
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            sys.stdout.write(converted)
        else:
            sys.stdout.flush()
            buffer.write(converted.encode("utf-8"))
            buffer.flush()
        return 0
    if _same_file(args.file, args.out):
        print(
            f"hearts {args.command}: --out {args.out} is the record being read: "
            "choose another file, or leave --out out to print it",
            file=sys.stderr,
        )
        return 2
    target = os.path.expanduser(args.out)
    # A file there is refused, or replaced with --force, as converters do: it was moved
    # aside as a save would be ("resume it with hearts play" of an exported deal).
    if os.path.lexists(target) and not os.path.isfile(target):
        print(f"hearts {args.command}: --out {args.out}: not a regular file", file=sys.stderr)
        return 2
    if os.path.lexists(target) and not args.force:
        print(
            f"hearts {args.command}: --out {args.out} exists: choose another file, or give "
            "--force to replace it",
            file=sys.stderr,
        )
        return 2
    try:
        write_atomic(Path(target), converted, shared=True)
    except OSError as error:
        print(
            f"hearts {args.command}: cannot write {args.out}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 2
    return 0
