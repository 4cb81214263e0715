"""``hearts prune``: forget the web server's finished and abandoned tables older than
the retention (their games and actions go; players' statistics stay).  The server
itself prunes hourly with ``--retention-days`` and ``--abandoned-days``; this is for a
stopped server, or cron."""

from __future__ import annotations

import argparse
import math
import os
import sys
from datetime import UTC, datetime

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from ..options import number
from .storage import Storage, StorageError, default_database_url, retention_cutoff

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", default=None, metavar="URL", help="as for hearts serve")
    parser.add_argument(
        "--days",
        type=number,
        default=30.0,
        metavar="N",
        help="forget tables finished or left waiting more than N days ago (default: 30; "
        "0: keep them all, as for hearts serve)",
    )
    parser.add_argument(
        "--abandoned-days",
        type=number,
        default=None,
        metavar="N",
        help="forget games in progress nobody has moved in for more than N days "
        "(default: as --days; 0: keep them all)",
    )


def _no_database(url: str) -> str | None:
    """Why an SQLite URL names no database to prune, if it does not.  Opening a file
    that does not exist would create it (and its folder), and a new database is never
    worth pruning: a mistyped path must be said, not pass for an empty database."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None  # not a URL: opening it says so
    if not parsed.drivername.startswith("sqlite") or parsed.query.get("uri"):
        return None
    database = parsed.database
    if not database or database == ":memory:":
        return f"{url} is a database in memory, empty when opened"
    if not os.path.exists(database):
        return f"there is no database {database}"
    return None


def _one_line(error: Exception, url: str) -> str:
    """The database's own complaint, without SQLAlchemy's link to its documentation
    on a line of its own."""
    if isinstance(error, SQLAlchemyError):
        error = getattr(error, "orig", None) or error
        return f"{url}: {(str(error).splitlines() or [type(error).__name__])[0]}"
    return (str(error).splitlines() or [type(error).__name__])[0]


def run(args: argparse.Namespace) -> int:
    abandoned = args.days if args.abandoned_days is None else args.abandoned_days
    for option, days in (("--days", args.days), ("--abandoned-days", abandoned)):
        # nan fails every comparison, the one with 0 below included.
        if math.isnan(days):
            print(f"hearts prune: {option}: a number of days, not nan", file=sys.stderr)
            return 2
        if days < 0:
            print(f"hearts prune: {option}: not negative", file=sys.stderr)
            return 2
    url = args.database or default_database_url()
    missing = _no_database(url)
    if missing is not None:
        print(f"hearts prune: {missing}: nothing to prune", file=sys.stderr)
        return 1
    now = datetime.now(UTC)
    storage: Storage | None = None
    try:
        storage = Storage(url)
        if storage.schema_version() == 0:
            # Someone else's database, or an empty file: not one to add tables to.
            print(
                f"hearts prune: {storage.safe_url} holds no OpenHearts tables: nothing to prune",
                file=sys.stderr,
            )
            return 1
        storage.migrate()
        gone = storage.prune(
            retention_cutoff(now, args.days), abandoned_before=retention_cutoff(now, abandoned)
        )
    except (StorageError, SQLAlchemyError) as error:
        where = storage.safe_url if storage is not None else "the database"
        print(f"hearts prune: {_one_line(error, where)}", file=sys.stderr)
        return 1
    finally:
        if storage is not None:
            storage.close()
    if not (args.days or abandoned):
        print(f"Kept every table in {storage.safe_url}: 0 days keeps them all.")
    else:
        print(f"Forgot {gone} table(s) {_which(args.days, abandoned)}, in {storage.safe_url}.")
    return 0


def _which(days: float, abandoned: float) -> str:
    """The tables forgotten, in words; a 0 keeps its kind (it read "more than 0 days").

    >>> _which(30, 0)
    'finished or waiting for more than 30 days (games in progress are all kept)'
    """

    def more_than(count: float) -> str:
        return f"more than {count:g} day{'' if count == 1 else 's'}"

    if not abandoned:
        return f"finished or waiting for {more_than(days)} (games in progress are all kept)"
    if not days:
        return (
            f"abandoned in play for {more_than(abandoned)} (finished and waiting ones are all kept)"
        )
    return f"finished or waiting for {more_than(days)}, or abandoned for {more_than(abandoned)}"
