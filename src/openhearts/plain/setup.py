"""``hearts play --plain``: a new or resumed game from the command line."""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from ..options import asked_for, rules_from_args
from ..record import RecordError
from ..rules import RulesError
from ..sentences import Style, supports_symbols
from ..session import Session
from ..session.names import table_names, typed_opponents
from ..session.saving import (
    SaveFileInUse,
    kept_from_save,
    load_session,
    only_this_game_on,
    resumed_save_file,
    same_file,
)
from ..session.seats import check_level
from .game import PlainSession
from .saving import keep_aside

__all__ = ["SetupError", "run_plain"]


class SetupError(Exception):
    """The command line cannot start a game; the message says why."""


def _new_session(args: argparse.Namespace) -> Session:
    try:
        rules = rules_from_args(args)
    except RulesError as error:
        raise SetupError(str(error)) from None
    try:
        opponents = typed_opponents(args.opponents, rules.players)
        check_level(args.level)
    except ValueError as error:
        raise SetupError(str(error)) from None
    names = table_names(rules.players, args.name or "", opponents, rules.direction)
    return Session.new(rules, args.seed, names, level=args.level, auto_play_one=args.auto_play_one)


def _resumed_session(args: argparse.Namespace) -> Session:
    try:
        game, info = load_session(os.path.expanduser(args.resume))
    except RecordError as error:
        raise SetupError(f"cannot resume {args.resume}: {error}") from None
    return Session.resume(
        game,
        info,
        name=args.name,
        level=args.level,
        auto_play_one=args.auto_play_one,
        no_auto_play_one=asked_for(args).no_auto_play_one,
    )


def _keep_an_unfinished_game(plain: PlainSession) -> None:
    """A new game must not write over an unfinished one (or a damaged file) in its save
    file (the terminal game, which shares the default file, offers to resume it)."""
    path = plain.save_path
    try:
        kept = keep_aside(path)
    except OSError as error:
        raise SetupError(
            f"A new game cannot be saved to {path}: {error.strerror}. Resume what is there "
            f"with --resume {shlex.quote(path)}, or choose another file with --save"
        ) from None
    if kept is not None:
        plain.say(kept)


def run_plain(args: argparse.Namespace) -> int:
    """Set up (or resume) a game and play it in plain lines; returns the exit status."""
    out = sys.stdout
    style = Style(supports_symbols(out) and not getattr(args, "ascii", False))
    try:
        session = _resumed_session(args) if args.resume else _new_session(args)
    except SetupError as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2
    moved = None
    # A game already over is shown, not saved again: moving a file aside for it (the
    # FILE.json beside a text record) lost the user's file from under its name.
    over = bool(args.resume) and session.game.is_over
    if over:
        save_path = None
    elif args.save is not None:
        save_path = args.save
    elif args.resume:
        save_path, moved = resumed_save_file(args.resume)
    else:
        save_path = None
    plain = PlainSession(
        session.game,
        session.seats.bots,
        me=session.human,
        save_path=save_path or None,
        auto_play_one=session.auto_play_one,
        out=out,
        style=style,
        level=session.seats.level,
    )
    plain.session.seats.problem = session.seats.problem
    if moved:
        plain.say(moved)
    if over:
        notice = kept_from_save(asked_for(args), session.seats.level)
        if notice:
            plain.say(notice)
        plain.say(f"That game is already over ({args.resume}).")
        plain.finish(save_record=False)
        plain.table.slot.close()
        return 0
    try:
        with only_this_game_on(plain.table.slot.path):
            return _play(plain, session, args)
    except SaveFileInUse as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2  # refused before the game, as a bad command line (1: saved nowhere)
    finally:
        plain.table.slot.close()


def _play(plain: PlainSession, session: Session, args: argparse.Namespace) -> int:
    # The files compared, not their spellings: "--resume ./g.json --save g.json" moved
    # the game being resumed aside as another one.
    elsewhere = not same_file(plain.save_path, args.resume or "")
    if not args.resume or elsewhere:
        # A new game, or a resumed one saved to another file: what that file holds is
        # kept aside, not written over.
        try:
            _keep_an_unfinished_game(plain)
        except SetupError as error:
            print(f"hearts play: {error}", file=sys.stderr)
            return 2
    notice = kept_from_save(asked_for(args), session.seats.level) if args.resume else None
    if notice:
        plain.say(notice)
    return plain.run()
