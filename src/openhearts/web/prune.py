"""``hearts prune``: forget the web server's finished and abandoned tables older than
the retention (their games and actions go; players' statistics stay).  The server
itself prunes hourly with ``--retention-days``; this is for a stopped server, or cron."""

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


def run(args: argparse.Namespace) -> int:
    if args.days < 0:
        print("hearts prune: --days: not negative", file=sys.stderr)
        return 2
    try:
        storage = Storage(args.database or default_database_url())
        storage.migrate()
        gone = storage.prune(datetime.now(UTC) - timedelta(days=args.days))
    except (StorageError, SQLAlchemyError) as error:
        print(f"hearts prune: {error}", file=sys.stderr)
        return 1
    storage.close()
    print(f"Forgot {gone} table(s) older than {args.days:g} day(s) in {storage.safe_url}.")
    return 0
