"""The terminal game (``hearts play``): a Textual app on top of the engine and the bots.

:func:`run_tui` starts it from the ``hearts play`` arguments; :class:`HeartsApp` is the
app itself, which tests drive headlessly.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..options import asked_for, given, rules_from_args, rules_given
from ..session.names import clean_name, typed_opponents
from ..session.saving import SaveFileInUse, resumed_save_file
from ..session.seats import check_level
from .storage import Settings, Storage

__all__ = ["run_tui", "settings_from_args"]


def settings_from_args(settings: Settings, args: argparse.Namespace) -> Settings:
    """Saved settings with whatever the command line gives on top; what cannot be
    played (rules, a level, too many names) raises ValueError saying why."""
    preset = getattr(args, "preset", "standard") or "standard"
    typed = given(args)
    if rules_given(args):
        settings.preset = preset
        settings.rules = rules_from_args(args).to_dict()
    name = getattr(args, "name", None)
    if name:
        settings.name = clean_name(name, settings.name)
    opponents = getattr(args, "opponents", None)
    if opponents:
        settings.opponents = typed_opponents(opponents, settings.make_rules().players)
    level = getattr(args, "level", None)
    if level and ("level" in typed or level != "easy"):
        check_level(level)
        settings.level = level
    if getattr(args, "auto_play_one", True) is False:
        settings.auto_play_one = False
    return settings


def run_tui(args: argparse.Namespace) -> int:
    """Run the terminal game; returns the exit status."""
    from .app import HeartsApp

    # As in the plain line mode, a resumed game is saved back to its own file (unless
    # --save names another); a new game goes to --save or the default file, never over
    # the file opened with --resume.
    storage = Storage(save_path=getattr(args, "save", None))
    try:
        settings = settings_from_args(storage.load_settings(), args)
    except ValueError as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2
    # The seed is read by the session core, the same way as in the plain game.
    app = HeartsApp(
        storage,
        settings,
        seed=getattr(args, "seed", None),
        resume=getattr(args, "resume", None),
        asked=asked_for(args),
        handle_signals=True,
    )
    resume = getattr(args, "resume", None)
    held: str | Path = storage.save_path
    if getattr(args, "save", None):
        held = args.save
    elif resume:
        held = resumed_save_file(resume)[0]
    try:
        storage.hold(held)
    except SaveFileInUse as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2  # refused before the game, as a bad command line (1: saved nowhere)
    try:
        result = app.run()
        farewell = app.farewell()
    finally:
        storage.release()
    if farewell:
        # The terminal may be gone (its window closed): the game is saved, and the exit
        # status says how it ended (129), not a traceback of this line (1).
        with contextlib.suppress(OSError):
            print(farewell)
    return int(result or 0)
