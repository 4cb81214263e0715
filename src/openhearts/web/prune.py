"""``hearts prune``: forget the web server's finished and abandoned tables older than
the retention (their games and actions go; players' statistics stay).  The server
itself prunes hourly with ``--retention-days`` and ``--abandoned-days``; this is for a
stopped server, or cron."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta

from sqlalchemy.exc import SQLAlchemyError

from .storage import Storage, StorageError, default_database_url

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", default=None, metavar="URL", help="as for hearts serve")
    parser.add_argument(
        "--days",
        type=float,
        default=30.0,
        metavar="N",
        help="forget tables finished or left waiting more than N days ago (default: 30)",
    )
    parser.add_argument(
        "--abandoned-days",
        type=float,
        default=None,
        metavar="N",
        help="forget games in progress nobody has moved in for more than N days "
        "(default: as --days)",
    )


def run(args: argparse.Namespace) -> int:
    abandoned = args.days if args.abandoned_days is None else args.abandoned_days
    for option, days in (("--days", args.days), ("--abandoned-days", abandoned)):
        if days < 0:
            print(f"hearts prune: {option}: not negative", file=sys.stderr)
            return 2
    now = datetime.now(UTC)
    try:
        storage = Storage(args.database or default_database_url())
        storage.migrate()
        gone = storage.prune(
            now - timedelta(days=args.days), abandoned_before=now - timedelta(days=abandoned)
        )
    except (StorageError, SQLAlchemyError) as error:
        print(f"hearts prune: {error}", file=sys.stderr)
        return 1
    storage.close()
    print(
        f"Forgot {gone} table(s) finished or waiting for more than {args.days:g} day(s), "
        f"or abandoned for more than {abandoned:g}, in {storage.safe_url}."
    )
    return 0
