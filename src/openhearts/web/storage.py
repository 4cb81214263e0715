"""Storage for the web game: tables, seats, games, their actions, records and statistics.

SQLite by default (one file in the user's data directory), PostgreSQL when given a
``postgresql://`` URL (through psycopg 3).  Everything is SQLAlchemy Core; the schema is
versioned in ``schema_migrations`` and brought up to date by :meth:`Storage.migrate`.

A game in progress is its header (rules, seed, names) plus an append-only list of
actions; each accepted action is one committed row before anyone hears of it, so a
killed server replays the list on restart and continues where it was.  A finished game
also keeps its whole engine record (:mod:`openhearts.record`).

>>> store = Storage("sqlite://")
>>> store.migrate() == store.schema_version() == SCHEMA_VERSION
True
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "Storage",
    "StorageError",
    "TableRow",
    "SeatRow",
    "GameRow",
    "ActionRow",
    "StatsDelta",
    "default_database_url",
    "normalize_url",
    "retention_cutoff",
    "token_hash",
    "SCHEMA_VERSION",
]


class StorageError(RuntimeError):
    """The database could not be opened, migrated or written."""


def database_complaint(error: BaseException) -> str:
    """The database's own complaint in one line: the driver's first line, without
    SQLAlchemy's "(sqlite3.DatabaseError)" before it nor its link to its documentation
    on a line of its own.

    >>> database_complaint(ValueError("first\\nsecond"))
    'first'
    """
    orig = getattr(error, "orig", None)
    if isinstance(orig, BaseException):
        error = orig
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def token_hash(token: str) -> str:
    """The stored form of a secret token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_database_url() -> str:
    """``sqlite:///<data dir>/openhearts.sqlite3``; ``OPENHEARTS_HOME`` overrides the dir."""
    from ..paths import data_dir

    return "sqlite:///" + str(data_dir().absolute() / "openhearts.sqlite3")


def normalize_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL URLs that name no driver.

    >>> normalize_url("postgresql://u@h/db"), normalize_url("postgres://h/db")
    ('postgresql+psycopg://u@h/db', 'postgresql+psycopg://h/db')
    >>> normalize_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def retention_cutoff(now: datetime, days: float) -> datetime | None:
    """``days`` before ``now``; None when that is before the calendar starts (nothing
    can be that old, so nothing is forgotten), or for 0 days, which keeps everything
    (``--retention-days 0``).  ``hearts prune`` and the server's hourly prune both
    take it: the server computed its own, and a retention longer than the calendar
    (``--retention-days 1e8``) made every prune fail with an OverflowError.

    >>> import math
    >>> now = datetime(2025, 1, 1, tzinfo=UTC)
    >>> [retention_cutoff(now, days) for days in (1.5, 1e9, 1e8, math.inf, 0)]
    [datetime.datetime(2024, 12, 30, 12, 0, tzinfo=datetime.timezone.utc), None, None, None, None]
    """
    if days == 0:
        return None
    try:
        return now - timedelta(days=days)
    except OverflowError:
        return None


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _aware(value: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every time stored here is UTC.
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


metadata = sa.MetaData()

migrations_table = sa.Table(
    "schema_migrations",
    metadata,
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("description", sa.String(200), nullable=False),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # waiting | playing | finished
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("level", sa.String(64), nullable=False),
    sa.Column("game_number", sa.Integer, nullable=False, default=0),
    # Version 2: shown in the public list; the table's own turn clock (seconds).
    sa.Column("listed", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
    sa.Column("turn_clock", sa.Float),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    # empty | human | bot
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("player_hash", sa.String(64)),
    sa.Column("level", sa.String(64)),
    sa.Column("host", sa.Boolean, nullable=False, default=False),
    sa.Column("auto_play_one", sa.Boolean, nullable=False, default=True),
    # A bot moved for this person in the game in progress: it counts in no statistics.
    sa.Column("helped", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
)

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("names", sa.Text, nullable=False),
    # playing | finished | abandoned (given up for a new game at the same table)
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
    sa.Column("scores", sa.Text),
    # The engine record (openhearts.record) once the game is over.
    sa.Column("record", sa.Text),
    # Version 2: false once someone took back a move or asked for a hint.
    sa.Column("rated", sa.Boolean, nullable=False, default=True, server_default=sa.true()),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    # pass | play | moon
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    # Cards as text ("2C QS AH") or "add"/"subtract" for a moon choice.
    sa.Column("data", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(["table_id", "game"], ["games.table_id", "games.number"]),
)

stats_table = sa.Table(
    "player_stats",
    metadata,
    sa.Column("player_hash", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64)),
    sa.Column("games", sa.Integer, nullable=False, default=0),
    sa.Column("wins", sa.Integer, nullable=False, default=0),
    sa.Column("deals", sa.Integer, nullable=False, default=0),
    sa.Column("points", sa.Integer, nullable=False, default=0),
    sa.Column("moons", sa.Integer, nullable=False, default=0),
    sa.Column("suns", sa.Integer, nullable=False, default=0, server_default="0"),
    sa.Column("best", sa.Integer),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)


keys_table = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)


def _migration_1(connection: Connection) -> None:
    for table in (tables_table, seats_table, games_table, actions_table, stats_table):
        table.create(connection, checkfirst=True)


def _migration_2(connection: Connection) -> None:
    # Version 1 creates its tables from the current definitions, so on a new database
    # these columns exist already: add only what is missing.
    inspector = sa.inspect(connection)
    added = (
        ("tables", "listed", "BOOLEAN NOT NULL DEFAULT FALSE"),
        ("tables", "turn_clock", "FLOAT"),
        ("games", "rated", "BOOLEAN NOT NULL DEFAULT TRUE"),
    )
    for table, column, kind in added:
        if column not in {c["name"] for c in inspector.get_columns(table)}:
            connection.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))
    keys_table.create(connection, checkfirst=True)


def _migration_3(connection: Connection) -> None:
    inspector = sa.inspect(connection)
    if "helped" not in {c["name"] for c in inspector.get_columns("seats")}:
        connection.execute(
            sa.text("ALTER TABLE seats ADD COLUMN helped BOOLEAN NOT NULL DEFAULT FALSE")
        )


def _migration_4(connection: Connection) -> None:
    # Suns were counted as moons before: they stay so in the counts kept until now.
    inspector = sa.inspect(connection)
    if "suns" not in {c["name"] for c in inspector.get_columns("player_stats")}:
        connection.execute(
            sa.text("ALTER TABLE player_stats ADD COLUMN suns INTEGER NOT NULL DEFAULT 0")
        )


#: version -> (description, function).  Append new versions; never edit an old one.
MIGRATIONS: Final[dict[int, tuple[str, Callable[[Connection], None]]]] = {
    1: ("tables, seats, games, actions, player statistics", _migration_1),
    2: ("listed tables, turn clocks, unrated games, server keys", _migration_2),
    3: ("seats a bot moved for", _migration_3),
    4: ("suns in the player statistics", _migration_4),
}

SCHEMA_VERSION: Final = max(MIGRATIONS)


@dataclass
class SeatRow:
    seat: int
    kind: str = "empty"
    name: str | None = None
    token_hash: str | None = None
    player_hash: str | None = None
    level: str | None = None
    host: bool = False
    auto_play_one: bool = True
    helped: bool = False


@dataclass
class ActionRow:
    seq: int
    kind: str
    seat: int
    data: str


@dataclass
class GameRow:
    number: int
    seed: str
    rules: dict[str, Any]
    names: list[str]
    status: str
    record: str | None = None
    actions: list[ActionRow] = field(default_factory=list)
    rated: bool = True


@dataclass
class TableRow:
    id: str
    status: str
    preset: str
    rules: dict[str, Any]
    level: str
    game_number: int = 0
    created_at: datetime = field(default_factory=_now)
    seats: list[SeatRow] = field(default_factory=list)
    #: The current (or last) game, with its actions when it is in progress.
    game: GameRow | None = None
    listed: bool = False
    turn_clock: float | None = None


@dataclass
class StatsDelta:
    """What one finished game adds to one player's statistics."""

    player_hash: str
    name: str
    won: bool
    deals: int
    points: int
    moons: int
    suns: int = 0


class Storage:
    """Synchronous storage; the server calls it from one worker thread per database.

    :param url: an SQLAlchemy URL (``sqlite:///path``, ``postgresql://...``).
    :param schema: PostgreSQL only: keep every table in this schema (created if
        missing).  Lets test runs share one database without colliding.
    """

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = normalize_url(url)
        self.schema = schema
        self.is_sqlite = self.url.startswith("sqlite")
        try:
            sa.engine.make_url(self.url)
        except Exception:
            # A file name where a URL belongs (--database /etc/passwd) was said as
            # "cannot open the database <database>": the name, unless it may hold a
            # password.
            shown = repr(self.url) if "@" not in self.url else "the URL given"
            raise StorageError(
                f"{shown} is not a database URL: write sqlite:///FILE or postgresql://USER@HOST/DB"
            ) from None
        try:
            self.engine: Engine = self._make_engine()
        except Exception as error:  # driver missing, bad URL, unreachable server
            raise StorageError(
                f"cannot open the database {self.safe_url}: {database_complaint(error)}"
            ) from None

    @property
    def safe_url(self) -> str:
        """The URL with any password hidden, for messages."""
        try:
            return sa.engine.make_url(self.url).render_as_string(hide_password=True)
        except Exception:
            return "<database>"

    def _make_engine(self) -> Engine:
        if self.is_sqlite:
            database = sa.engine.make_url(self.url).database
            if database and database != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(database)) or ".", exist_ok=True)
                engine = sa.create_engine(
                    self.url, connect_args={"check_same_thread": False, "timeout": 30}
                )
            else:
                # One shared in-memory database for every thread.
                engine = sa.create_engine(
                    "sqlite://",
                    connect_args={"check_same_thread": False},
                    poolclass=sa.pool.StaticPool,
                )

            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                # WAL with synchronous=NORMAL: a committed action survives the process
                # being killed, and commits do not wait for the disk.
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

            return engine
        engine = sa.create_engine(self.url, pool_pre_ping=True, pool_size=5, max_overflow=5)
        if self.schema:
            schema = self.schema
            if not schema.replace("_", "").isalnum():
                raise StorageError(f"schema: letters, digits and _ only, not {schema!r}")

            @sa.event.listens_for(engine, "connect")
            def _search_path(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
                cursor.execute(f'SET search_path TO "{schema}"')
                cursor.close()
                dbapi_connection.commit()

        return engine

    def close(self) -> None:
        self.engine.dispose()

    def drop_schema(self) -> None:
        """PostgreSQL: drop this storage's schema and everything in it (tests)."""
        if self.schema and not self.is_sqlite:
            with self.engine.begin() as connection:
                connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
        self.engine.dispose()

    # Schema ----------------------------------------------------------------------

    def schema_version(self) -> int:
        with self.engine.connect() as connection:
            if not sa.inspect(connection).has_table("schema_migrations"):
                return 0
            value = connection.execute(sa.select(sa.func.max(migrations_table.c.version)))
            return int(value.scalar() or 0)

    def migrate(self) -> int:
        """Apply every migration not yet applied, each in its own transaction."""
        try:
            with self.engine.begin() as connection:
                migrations_table.create(connection, checkfirst=True)
            current = self.schema_version()
            if current > SCHEMA_VERSION:
                raise StorageError(
                    f"the database is at schema version {current}, newer than this "
                    f"program's {SCHEMA_VERSION}: upgrade OpenHearts"
                )
            for version in sorted(MIGRATIONS):
                if version <= current:
                    continue
                description, apply = MIGRATIONS[version]
                with self.engine.begin() as connection:
                    apply(connection)
                    connection.execute(
                        migrations_table.insert().values(
                            version=version, description=description, applied_at=_now()
                        )
                    )
            return self.schema_version()
        except sa.exc.SQLAlchemyError as error:
            raise StorageError(
                f"cannot prepare the database {self.safe_url}: {database_complaint(error)}"
            ) from None

    # Tables and seats ------------------------------------------------------------

    def create_table(self, table: TableRow) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                tables_table.insert().values(
                    id=table.id,
                    created_at=table.created_at,
                    updated_at=_now(),
                    status=table.status,
                    preset=table.preset,
                    rules=json.dumps(table.rules),
                    level=table.level,
                    game_number=table.game_number,
                    listed=table.listed,
                    turn_clock=table.turn_clock,
                )
            )
            self._write_seats(connection, table.id, table.seats, insert=True)

    def _write_seats(
        self, connection: Connection, table_id: str, seats: Iterable[SeatRow], *, insert: bool
    ) -> None:
        for seat in seats:
            values = {
                "kind": seat.kind,
                "name": seat.name,
                "token_hash": seat.token_hash,
                "player_hash": seat.player_hash,
                "level": seat.level,
                "host": seat.host,
                "auto_play_one": seat.auto_play_one,
                "helped": seat.helped,
            }
            if insert:
                connection.execute(
                    seats_table.insert().values(table_id=table_id, seat=seat.seat, **values)
                )
            else:
                connection.execute(
                    seats_table.update()
                    .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat.seat)
                    .values(**values)
                )

    def update_seats(self, table_id: str, seats: Sequence[SeatRow]) -> None:
        with self.engine.begin() as connection:
            self._write_seats(connection, table_id, seats, insert=False)
            self._touch(connection, table_id)

    def _touch(self, connection: Connection, table_id: str, **values: Any) -> None:
        connection.execute(
            tables_table.update()
            .where(tables_table.c.id == table_id)
            .values(updated_at=_now(), **values)
        )

    # Games and actions -----------------------------------------------------------

    def start_game(
        self,
        table_id: str,
        game: GameRow,
        seats: Sequence[SeatRow],
        abandoned: int | None = None,
    ) -> None:
        """Store a new game, the seats as they are at its start, and the table's status;
        the game numbered ``abandoned``, given up unfinished, is marked so at once."""
        with self.engine.begin() as connection:
            if abandoned is not None:
                connection.execute(
                    games_table.update()
                    .where(games_table.c.table_id == table_id, games_table.c.number == abandoned)
                    .values(status="abandoned", finished_at=_now())
                )
            connection.execute(
                games_table.insert().values(
                    table_id=table_id,
                    number=game.number,
                    seed=game.seed,
                    rules=json.dumps(game.rules),
                    names=json.dumps(game.names, ensure_ascii=False),
                    status="playing",
                    started_at=_now(),
                )
            )
            self._write_seats(connection, table_id, seats, insert=False)
            self._touch(connection, table_id, status="playing", game_number=game.number)

    def append_action(self, table_id: str, game: int, action: ActionRow) -> None:
        """Store the game's action number ``action.seq``, in place of any stored from
        that number on: those are actions the server took back, having been told that
        storing them failed (a connection lost while committing may yet have committed),
        so that nobody heard of them."""
        row = actions_table.insert().values(
            table_id=table_id,
            game=game,
            seq=action.seq,
            kind=action.kind,
            seat=action.seat,
            data=action.data,
            created_at=_now(),
        )
        try:
            with self.engine.begin() as connection:
                connection.execute(row)
        except sa.exc.IntegrityError:
            # Rare, so the common case costs one statement: the number was taken.
            with self.engine.begin() as connection:
                connection.execute(
                    actions_table.delete().where(
                        actions_table.c.table_id == table_id,
                        actions_table.c.game == game,
                        actions_table.c.seq >= action.seq,
                    )
                )
                connection.execute(row)

    def check_writable(self) -> None:
        """Raise unless the database can store now (a write that changes nothing)."""
        with self.engine.begin() as connection:
            connection.execute(
                keys_table.update()
                .where(keys_table.c.name == "player-tokens")
                .values(value=keys_table.c.value)
            )

    def mark_unrated(self, table_id: str, game: int) -> None:
        """The game will not count in anyone's statistics (a move taken back, a hint)."""
        with self.engine.begin() as connection:
            connection.execute(
                games_table.update()
                .where(games_table.c.table_id == table_id, games_table.c.number == game)
                .values(rated=False)
            )

    def set_listed(self, table_id: str, listed: bool) -> None:
        with self.engine.begin() as connection:
            self._touch(connection, table_id, listed=listed)

    def server_key(self, name: str) -> str:
        """A secret of this server's, made on first use and kept in the database."""
        with self.engine.begin() as connection:
            found = connection.execute(
                sa.select(keys_table.c.value).where(keys_table.c.name == name)
            ).scalar()
            if found is not None:
                return str(found)
            value = secrets.token_hex(32)
            connection.execute(keys_table.insert().values(name=name, value=value))
            return value

    def prune(
        self,
        before: datetime | None,
        keep: Iterable[str] = (),
        abandoned_before: datetime | None = None,
    ) -> int:
        """Forget tables finished, or left waiting, before ``before``, and games in
        progress nobody has moved in since ``abandoned_before`` (None: keep those), with
        their games, actions and seats (statistics stay), except the tables in ``keep``.
        Returns how many tables went."""
        kept = set(keep)
        old: sa.ColumnElement[bool] = sa.false()
        if before is not None:
            old = sa.and_(
                tables_table.c.status.in_(("finished", "waiting")),
                tables_table.c.updated_at < before,
            )
        if abandoned_before is not None:
            # A game's moves do not touch its table's row: its last action says when
            # it was last played.
            recent_action = sa.exists().where(
                actions_table.c.table_id == tables_table.c.id,
                actions_table.c.created_at >= abandoned_before,
            )
            abandoned = sa.and_(
                tables_table.c.status == "playing",
                tables_table.c.updated_at < abandoned_before,
                ~recent_action,
            )
            old = sa.or_(old, abandoned)
        with self.engine.begin() as connection:
            ids = [
                r.id
                for r in connection.execute(sa.select(tables_table.c.id).where(old))
                if r.id not in kept
            ]
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for table in (actions_table, games_table, seats_table):
                    connection.execute(table.delete().where(table.c.table_id.in_(chunk)))
                connection.execute(tables_table.delete().where(tables_table.c.id.in_(chunk)))
            return len(ids)

    def truncate_actions(self, table_id: str, game: int, keep: int) -> None:
        """Undo: forget every action from number ``keep`` on."""
        with self.engine.begin() as connection:
            connection.execute(
                actions_table.delete().where(
                    actions_table.c.table_id == table_id,
                    actions_table.c.game == game,
                    actions_table.c.seq >= keep,
                )
            )

    def finish_game(
        self,
        table_id: str,
        game: int,
        record: str,
        scores: Sequence[int],
        stats: Sequence[StatsDelta],
    ) -> None:
        """Keep the finished game's record and add it to the players' statistics."""
        now = _now()
        with self.engine.begin() as connection:
            updated = connection.execute(
                games_table.update()
                .where(
                    games_table.c.table_id == table_id,
                    games_table.c.number == game,
                    games_table.c.status == "playing",
                )
                .values(
                    status="finished",
                    finished_at=now,
                    record=record,
                    scores=json.dumps(list(scores)),
                )
            )
            self._touch(connection, table_id, status="finished")
            if updated.rowcount == 0:
                return  # already finished: statistics were counted then
            for delta in stats:
                self._add_stats(connection, delta, now)

    def _add_stats(self, connection: Connection, delta: StatsDelta, now: datetime) -> None:
        row = connection.execute(
            sa.select(stats_table).where(stats_table.c.player_hash == delta.player_hash)
        ).first()
        if row is None:
            connection.execute(
                stats_table.insert().values(
                    player_hash=delta.player_hash,
                    name=delta.name,
                    games=1,
                    wins=int(delta.won),
                    deals=delta.deals,
                    points=delta.points,
                    moons=delta.moons,
                    suns=delta.suns,
                    best=delta.points,
                    updated_at=now,
                )
            )
            return
        best = delta.points if row.best is None else min(row.best, delta.points)
        connection.execute(
            stats_table.update()
            .where(stats_table.c.player_hash == delta.player_hash)
            .values(
                name=delta.name,
                games=stats_table.c.games + 1,
                wins=stats_table.c.wins + int(delta.won),
                deals=stats_table.c.deals + delta.deals,
                points=stats_table.c.points + delta.points,
                moons=stats_table.c.moons + delta.moons,
                suns=stats_table.c.suns + delta.suns,
                best=best,
                updated_at=now,
            )
        )

    # Reading ---------------------------------------------------------------------

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats and its current game (and that game's actions)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(tables_table).where(tables_table.c.id == table_id)
            ).first()
            if row is None:
                return None
            return self._table_of(connection, row)

    def open_table_ids(self, table_ids: Sequence[str]) -> set[str]:
        """Those of ``table_ids`` still stored and not finished."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(tables_table.c.id).where(
                    tables_table.c.id.in_(list(table_ids)), tables_table.c.status != "finished"
                )
            )
            return {r.id for r in rows}

    def active_table_ids(self) -> list[str]:
        """Tables waiting for players or with a game in progress."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(tables_table.c.id)
                .where(tables_table.c.status.in_(("waiting", "playing")))
                .order_by(tables_table.c.created_at)
            )
            return [r.id for r in rows]

    def _table_of(self, connection: Connection, row: Any) -> TableRow:
        seats = [
            SeatRow(
                seat=s.seat,
                kind=s.kind,
                name=s.name,
                token_hash=s.token_hash,
                player_hash=s.player_hash,
                level=s.level,
                host=bool(s.host),
                auto_play_one=bool(s.auto_play_one),
                helped=bool(s.helped),
            )
            for s in connection.execute(
                sa.select(seats_table)
                .where(seats_table.c.table_id == row.id)
                .order_by(seats_table.c.seat)
            )
        ]
        table = TableRow(
            id=row.id,
            status=row.status,
            preset=row.preset,
            rules=json.loads(row.rules),
            level=row.level,
            game_number=row.game_number,
            created_at=_aware(row.created_at) or _now(),
            seats=seats,
            listed=bool(row.listed),
            turn_clock=row.turn_clock,
        )
        if row.game_number:
            table.game = self._game_of(connection, row.id, row.game_number)
        return table

    def _game_of(self, connection: Connection, table_id: str, number: int) -> GameRow | None:
        row = connection.execute(
            sa.select(games_table).where(
                games_table.c.table_id == table_id, games_table.c.number == number
            )
        ).first()
        if row is None:
            return None
        game = GameRow(
            number=row.number,
            seed=row.seed,
            rules=json.loads(row.rules),
            names=json.loads(row.names),
            status=row.status,
            record=row.record,
            rated=bool(row.rated),
        )
        if row.status == "playing":
            game.actions = [
                ActionRow(seq=a.seq, kind=a.kind, seat=a.seat, data=a.data)
                for a in connection.execute(
                    sa.select(actions_table)
                    .where(actions_table.c.table_id == table_id, actions_table.c.game == number)
                    .order_by(actions_table.c.seq)
                )
            ]
        return game

    def game_record(self, table_id: str, number: int) -> tuple[str, str | None] | None:
        """``(status, record)`` of one game, or None when there is no such game."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(games_table.c.status, games_table.c.record).where(
                    games_table.c.table_id == table_id, games_table.c.number == number
                )
            ).first()
            return None if row is None else (row.status, row.record)

    def stats(self, player_hash: str) -> dict[str, Any] | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(stats_table).where(stats_table.c.player_hash == player_hash)
            ).first()
            if row is None:
                return None
            return {
                "name": row.name,
                "games": row.games,
                "wins": row.wins,
                "deals": row.deals,
                "points": row.points,
                "moons": row.moons,
                "suns": row.suns,
                "best": row.best,
                "average": round(row.points / row.games, 1) if row.games else None,
            }
