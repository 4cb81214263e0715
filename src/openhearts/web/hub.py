"""The hub: every table of one server in memory, the storage behind them, the worker
threads, creating and joining tables, and the entry point of every client message."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from ..game import (
    IllegalActionError,
)
from ..rules import PRESETS, Rules, RulesError
from ..session.names import unique_name
from .botwork import BotWork, available_levels, close_bot
from .connection import Connection
from .handlers import COMING_BACK, HANDLERS
from .limits import AddressLimits
from .protocol import MAX_REFUSALS, NOT_SAVED, TABLE_ID_RE, WebError, new_token
from .schema import (
    CreateTable,
    JoinTable,
    check_stored,
    parse_message,
    request_id_of,
    rules_of_stored,
)
from .seat import Seat
from .settings import Settings
from .storage import (
    SeatRow,
    Storage,
    TableRow,
    database_complaint,
    retention_cutoff,
    token_hash,
)
from .table import Table
from .views import clean_name

__all__ = ["Hub"]

log = logging.getLogger("openhearts.web")


T = TypeVar("T")

#: Seconds at least that people have after a restart to reconnect before a bot plays.
RECONNECT_GRACE: Final = 10.0


#: Seconds between tries of the database while it cannot store: the first pause, then
#: twice as long each time, up to the last.
STORE_RETRY_FIRST: Final = 0.5
STORE_RETRY_MOST: Final = 30.0
#: A database failing again within this many seconds of working again goes on with the
#: pause it had reached: one that fails on and off must not fill the log.
STORE_STEADY: Final = 60.0


#: Words the page says for its own player or a seat: a player named so is numbered
#: ("You 2"), or "You takes the trick" was someone else's trick to the listener.
PAGE_WORDS: Final = ("You", "Free seat")


class Hub:
    """Every table of one server, the storage behind them and the worker threads."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        self.levels: list[str] = []
        # SQLite takes one writer at a time: one thread keeps writes in order.
        self.store_pool: Executor = ThreadPoolExecutor(
            max_workers=1 if storage.is_sqlite else 4, thread_name_prefix="openhearts-db"
        )
        self.bot_work = BotWork(
            self.settings.max_bot_jobs,
            self.settings.bot_jobs_per_address,
            self.settings.bot_jobs_per_table,
        )
        self.closing = False
        self._loading = asyncio.Lock()
        self.limits = AddressLimits(
            self.settings.address_rates(), self.settings.sockets_per_address
        )
        #: The players (their player tokens' hashes) each table's host removed, kept
        #: while the server runs, whether the table is in memory or not.
        self.removed_players: dict[str, set[str]] = {}
        #: The tables each address created that may still be open, while the server runs
        #: (``tables_per_address``; a table unloaded from memory still counts).
        self.owned: dict[str, set[str]] = {}
        #: Tables whose stored rows cannot be loaded, and why.
        self.set_aside: dict[str, str] = {}
        #: When the last person left each game unloaded from memory (``time.monotonic``),
        #: so that reading it again does not make it look just left: its bots would
        #: play again for ``abandon_after`` with nobody there.
        self.people_gone_since: dict[str, float] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: Whether the database failed to store something and has not stored anything
        #: since: the tables wait (the table summary's ``cannot_save`` says so).
        self.store_failing = False
        #: Set while the database stores; what waits for it to work again waits on it.
        self.store_works = asyncio.Event()
        self.store_works.set()
        self._store_retry = STORE_RETRY_FIRST
        self._store_worked_at = 0.0
        self._store_watch: asyncio.Task[None] | None = None

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task kept alive until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def read(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)``, a read of the storage, in the storage's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.store_pool, function, *args)

    async def store(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)``, a write to the storage, in the storage's thread.

        :raises WebError: ``unavailable`` (503) when it failed: nothing was stored.  The
            log says once that the database cannot store, and once that it can again
            (a traceback for every failed write filled the log every half second)."""
        try:
            result = await self.read(function, *args)
        except Exception as error:
            self._store_failed(error)
            raise WebError("unavailable", NOT_SAVED, 503) from error
        if self.store_failing:
            self._store_back()
        return result

    def _store_failed(self, error: Exception) -> None:
        if self.store_failing:
            return
        self.store_failing = True
        self.store_works.clear()
        if time.monotonic() - self._store_worked_at > STORE_STEADY:
            self._store_retry = STORE_RETRY_FIRST
        # A database's own failure is said in its words; anything else is a fault of the
        # program's, whose traceback matters.
        log.error(
            "the database cannot store anything now (%s): the games wait, and go on once it can",
            database_complaint(error) if isinstance(error, SQLAlchemyError) else repr(error),
            exc_info=None if isinstance(error, SQLAlchemyError) else error,
        )
        for table in list(self.tables.values()):
            table.broadcast_table()
        if not self.closing:
            self._store_watch = asyncio.get_running_loop().create_task(self._try_store_again())

    def _store_back(self) -> None:
        self.store_failing = False
        self._store_worked_at = time.monotonic()
        self.store_works.set()
        # Said at the failure's level: whoever saw that it failed sees that it is over.
        log.warning("the database stores again: the games go on")
        for table in list(self.tables.values()):
            table.storing_again()

    async def _try_store_again(self) -> None:
        """While the database fails, try it now and then (each pause twice the last, up
        to 30 s), so that the tables go on once it works, even with nobody acting."""
        while self.store_failing and not self.closing:
            await asyncio.sleep(self._store_retry)
            self._store_retry = min(2 * self._store_retry, STORE_RETRY_MOST)
            if not self.store_failing or self.closing:
                return
            try:
                await self.read(self.storage.check_writable)
            except Exception:  # still failing: said once already
                continue
            if self.store_failing:
                self._store_back()

    # Life cycle ------------------------------------------------------------------

    async def startup(self) -> None:
        """Migrate the database and resume every table waiting or in play."""
        self.loop = asyncio.get_running_loop()
        await self.read(self.storage.migrate)
        self.key = await self.read(self.storage.server_key, "player-tokens")
        self.levels = available_levels()
        if self.settings.default_level not in self.levels:
            self.settings.default_level = "easy" if "easy" in self.levels else self.levels[0]
        grace = max(self.settings.takeover_delay, RECONNECT_GRACE)
        for table_id in await self.read(self.storage.active_table_ids):
            try:
                table = await self.get(table_id)
            except WebError:
                continue  # loaded when someone comes back to it
            if table is None:
                continue
            # The people connected before the restart get time to reconnect (the page
            # tries again at once, then every few seconds) before a bot plays for them.
            for seat in table.seats:
                if seat.kind == "human" and seat.takeover is not None:
                    table.schedule_takeover(seat, grace)
            table.kick()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def shutdown(self) -> None:
        self.closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        if self._store_watch is not None:
            self._store_watch.cancel()
        for table in list(self.tables.values()):
            if table.clock_handle is not None:
                table.clock_handle.cancel()
            if table.driver is not None:
                table.driver.cancel()
            for seat in table.seats:
                if seat.takeover is not None:
                    seat.takeover.cancel()
                close_bot(seat.bot)
            for connection in table.connections():
                connection.close()
        self.bot_work.shutdown()
        self.store_pool.shutdown(wait=True)
        self.storage.close()

    async def get(self, table_id: str) -> Table | None:
        """A table by id, loaded from storage when it is not in memory; None when there
        is none (or its stored rows cannot be loaded).  Raises :class:`WebError`
        (``unavailable``, 503) when the database cannot be read now."""
        if not TABLE_ID_RE.match(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.set_aside:
                return None
            try:
                table = await self._load(table_id)
            except (SQLAlchemyError, WebError) as error:
                # The database failed (a dropped connection, a restarted server), not the
                # table's rows: it is not set aside (every page would be told it does not
                # exist, and forget its seat), only refused until the database is back.
                # (A write made while loading has said so already.)
                if isinstance(error, SQLAlchemyError):
                    log.error(
                        "table %s cannot be read now: the database failed (%s)",
                        table_id,
                        type(error).__name__,
                    )
                raise WebError(
                    "unavailable", "the server cannot read that table now; try again soon", 503
                ) from None
            except Exception as error:
                # One bad row must not stop the server, nor the list of tables: it is
                # set aside (its text may hold a hidden hand, so only its kind is logged).
                reason = str(error) if isinstance(error, ValueError) else type(error).__name__
                log.error("table %s is set aside: it cannot be loaded (%s)", table_id, reason)
                if len(self.set_aside) >= 10000:
                    self.set_aside.clear()
                self.set_aside[table_id] = reason
                return None
            if table is not None:
                self.tables[table_id] = table
                table.owner = self._owner_of(table_id)
                gone_since = self.people_gone_since.pop(table_id, None)
                if gone_since is not None:
                    table.last_seen = gone_since
                # Nobody is at a table just loaded: it pauses unless someone comes back
                # (a restart, else only the last person leaving set the notice off).
                table.say_when_paused()
                # Nobody is connected to a table just loaded: each person is away after
                # the takeover delay unless they come back (at start-up, or when
                # someone returns): a bot plays for them, and a host away hands the
                # table on between games (whether they are away is not stored).
                for seat in table.seats:
                    if seat.kind == "human":
                        table.schedule_takeover(seat)
            return table

    def _owner_of(self, table_id: str) -> str:
        """The address that created a table, while the server runs (else its id)."""
        for address, ids in self.owned.items():
            if table_id in ids:
                return address
        return table_id

    async def _load(self, table_id: str) -> Table | None:
        row = await self.read(self.storage.load_table, table_id)
        if row is None:
            return None
        check_stored(json.dumps(dataclasses.asdict(row), default=str))
        table = Table(self, row)
        if row.game is not None:
            if row.game.status == "playing":
                table.resume(row.game)
                if table.seq < len(row.game.actions):
                    # Forget what did not replay, so that new actions can follow.
                    await self.store(
                        self.storage.truncate_actions, table.id, row.game.number, table.seq
                    )
                if table.game is not None and table.game.is_over:
                    # Killed between storing the last card and the finished game.
                    await table._finish()
            else:
                table.finished_game(row.game)
        return table

    def maybe_evict(self, table: Table, *, idle: bool = False) -> None:
        """Forget a table nobody uses that is waiting or finished, or abandoned (it is
        reloaded from storage when someone comes back); a game in progress stays while
        bots play."""
        if (
            (table.status != "playing" or table.abandoned())
            and table.users == 0
            and not table.connections()
            and (idle or table.driver is None or table.driver.done())
        ):
            if table.clock_handle is not None:
                table.clock_handle.cancel()
                table.clock_handle = None
            # A clock that has just run out (its time-out waiting for the lock) does
            # nothing now: it would set the bots of a table no longer here playing.
            table.clock_key = None
            for seat in table.seats:
                if seat.takeover is not None:
                    seat.takeover.cancel()
                    seat.takeover = None
                close_bot(seat.bot)
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                if table.status == "playing":
                    if len(self.people_gone_since) >= 10000:
                        self.people_gone_since.clear()
                    self.people_gone_since[table.id] = table.last_seen

    async def _sweep(self) -> None:
        """Now and then, forget tables left waiting with nobody connected; hourly,
        prune the stored tables past the retention."""
        pruned = time.monotonic()
        while not self.closing:
            await asyncio.sleep(60)
            for table in list(self.tables.values()):
                if time.monotonic() - table.last_active > 300:
                    self.maybe_evict(table)
            if time.monotonic() - pruned > 3600:
                pruned = time.monotonic()
                await self.prune()

    async def prune(self) -> None:
        """Forget the stored tables past their retention (not those in memory)."""
        now = datetime.now(UTC)
        done = retention_cutoff(now, self.settings.retention_days)
        abandoned = retention_cutoff(now, self.settings.abandoned_days)
        if done is None and abandoned is None:
            return
        try:
            gone = await self.store(self.storage.prune, done, set(self.tables), abandoned)
        except WebError:
            return  # the database's failure is said once, not by each of its writes
        else:
            log.info("pruned %d old table(s)", gone)

    # Creating and joining --------------------------------------------------------

    def rules_of(self, body: CreateTable) -> tuple[str, Rules]:
        """The rules a new table asks for, refused unless they load back as stored."""
        given = body.model_fields_set
        preset = self.settings.default_preset if body.preset is None else body.preset
        if preset not in PRESETS:
            raise WebError("bad_request", f"preset: choose one of {', '.join(PRESETS)}")
        players = self.settings.default_players if body.players is None else body.players
        if body.options is not None:
            changes = body.options.changes()
        elif "preset" in given:
            changes = {}
        else:
            changes = self.served_options()
        try:
            rules = Rules.preset(preset, players=players, **changes)
            # What is stored is loaded through the same schema: refuse now what could
            # not be loaded later.
            rules_of_stored(rules.to_dict())
        except (RulesError, TypeError, ValueError) as error:
            raise WebError("bad_request", str(error)) from None
        return preset, rules

    def served_options(self) -> dict[str, Any]:
        """The rules options the operator gave the server (``hearts serve -o``), as
        :meth:`Rules.preset` takes them: with its default preset, the rules a table gets
        when it asks for none."""
        return {
            key: tuple(value) if isinstance(value, list) else value
            for key, value in self.settings.default_options.items()
        }

    def level_of(self, body: CreateTable) -> str:
        level = self.settings.default_level if body.level is None else body.level
        # Only the named levels: a web client must never make the server import a module.
        if level not in self.levels:
            raise WebError("bad_request", f"level: choose one of {', '.join(self.levels)}")
        return level

    def player_of(self, body: CreateTable | JoinTable) -> str:
        """The player token given, if this server made it; else a new one.  Tokens are
        the server's (signed with its key), so nobody keys statistics on a weak one."""
        given = body.player_token
        if given is not None and hmac.compare_digest(self._signed(given[:22]), given):
            return given
        return self._signed(secrets.token_urlsafe(16))

    def _signed(self, nonce: str) -> str:
        mac = hmac.new(self.key.encode(), nonce.encode(), hashlib.sha256).digest()
        return nonce + base64.urlsafe_b64encode(mac).decode()[:22]

    async def check_capacity(self, address: str) -> None:
        """Refuse a new table when the server, or this address, holds too many."""
        settings = self.settings
        if len(self.tables) >= settings.max_tables:
            for table in list(self.tables.values()):
                self.maybe_evict(table)
            if len(self.tables) >= settings.max_tables:
                raise WebError("busy", "the server has too many tables open; try later", 429)
        limit = settings.tables_per_address
        mine = self.owned.get(address, set())
        if limit and len(mine) >= limit:
            # Counted from the tables it created, in memory or not (one unloaded from
            # memory is still open); those finished or pruned since are forgotten.
            still = await self.read(self.storage.open_table_ids, sorted(mine))
            mine &= still
        if limit and len(mine) >= limit:
            # Leaving a table does not close it (its game waits for the player), so
            # only finishing a game frees a place: the refusal said "or leave one".
            raise WebError(
                "too_many_tables",
                f"your address has {limit} tables open (not started yet, or with a game "
                "not finished, even one you left): finish one of those games first",
                429,
            )

    async def create_table(
        self, body: CreateTable, *, play_now: bool, address: str = "unknown"
    ) -> tuple[Table, Seat, str, str]:
        """A new table with the creator in seat 0; ``play_now`` fills it and starts."""
        await self.check_capacity(address)
        preset, rules = self.rules_of(body)
        level = self.level_of(body)
        name = unique_name(clean_name(body.name, "Player 1"), PAGE_WORDS)
        player_token = self.player_of(body)
        token = new_token()
        table_id = secrets.token_urlsafe(9)
        seats = [SeatRow(seat=i) for i in range(rules.players)]
        seats[0] = SeatRow(
            seat=0,
            kind="human",
            name=name,
            token_hash=token_hash(token),
            player_hash=token_hash(player_token),
            host=True,
        )
        row = TableRow(
            id=table_id,
            status="waiting",
            preset=preset,
            rules=rules.to_dict(),
            level=level,
            seats=seats,
            listed=body.listed and not play_now,
            turn_clock=body.turn_clock,
        )
        await self.store(self.storage.create_table, row)
        table = Table(self, row)
        table.owner = address
        self.owned.setdefault(address, set()).add(table_id)
        self.tables[table_id] = table
        seat = table.seats[0]
        if play_now:
            async with table.lock:
                await table.start()
                table.announce_start(waiting_for=seat)
        return table, seat, token, player_token

    async def existing(self, table_id: str) -> Table:
        """:meth:`get`, refusing a table there is none of (``no_table``, 404)."""
        table = await self.get(table_id)
        if table is None:
            raise WebError("no_table", "there is no such table", 404)
        return table

    async def join(self, table_id: str, body: JoinTable) -> tuple[Table, Seat, str, str]:
        table = await self.existing(table_id)
        player_token = self.player_of(body)
        table.users += 1
        try:
            return await self._join(table, body, player_token)
        finally:
            table.users -= 1

    async def _join(
        self, table: Table, body: JoinTable, player_token: str
    ) -> tuple[Table, Seat, str, str]:
        async with table.lock:
            if table.is_barred(token_hash(player_token)):
                raise WebError(
                    "removed", "the host removed you from this table: you can watch it", 403
                )
            if table.status != "waiting":
                raise WebError("full", "the game has started: you can watch", 409)
            player_hash = token_hash(player_token)
            for held in table.seats:
                if held.kind == "human" and held.player_hash == player_hash:
                    # One seat per player (a second tab, a double click): a second would
                    # be played by a bot and count the player's game twice.
                    raise WebError(
                        "seated",
                        f"you already hold seat {held.index + 1} at this table "
                        "(in another tab, perhaps)",
                        409,
                    )
            free = [s for s in table.seats if s.kind == "empty"]
            if not free:
                raise WebError("full", "every seat is taken: you can watch", 409)
            seat = free[0]
            token = new_token()
            row = SeatRow(
                seat=seat.index,
                kind="human",
                # One rule for names in every face: a name taken at the table gets a
                # number ("Bob 2").
                name=unique_name(
                    clean_name(body.name, f"Player {seat.index + 1}"),
                    [*PAGE_WORDS, *(s.name for s in table.seats if s.name and s is not seat)],
                ),
                token_hash=token_hash(token),
                player_hash=token_hash(player_token),
            )
            await self.store(self.storage.update_seats, table.id, [row])
            seat.empty()  # nothing of whoever sat here before
            seat.kind, seat.name = row.kind, row.name
            seat.token_hash, seat.player_hash = row.token_hash, row.player_hash
            table.broadcast_table()
        return table, seat, token, player_token

    # Messages --------------------------------------------------------------------

    def refuse(self, connection: Connection, code: str, message: str) -> None:
        """A message refused before it could be read (too large, not UTF-8): counted
        against the sender like any malformed message."""
        connection.refused += 1
        if not self.limits.allow("malformed", connection.address):
            connection.refused = MAX_REFUSALS + 1
        if connection.limiter.allow():
            connection.error(code, message)

    async def handle(self, connection: Connection, table: Table, text: str) -> None:
        """One message from a client; any refusal is an ``error`` reply."""
        if connection.closed:
            # Hung up on (removed by the host, dropped): what it still sends is not read.
            return
        # Every message counts against the rate, well-formed or not.
        if not connection.limiter.allow():
            connection.refused += 1
            # Answered like any refused request, so that a client waiting for its
            # answer learns that it must send again.
            connection.error("rate_limited", "too many messages; slow down", request_id_of(text))
            return
        try:
            message = parse_message(text)
        except WebError as error:
            connection.refused += 1
            if not self.limits.allow("malformed", connection.address):
                connection.refused = MAX_REFUSALS + 1  # hung up on by the server
            connection.error(error.code, error.message, error.request_id)
            return
        kind = message.type
        request_id = message.id
        handler = HANDLERS[kind]
        if kind not in ("hello", "ping") and not connection.greeted:
            connection.error("no_hello", "say hello first", request_id)
            return
        seat = connection.seat
        if seat is not None and seat.away and kind in COMING_BACK:
            # A player who left and acts again is back: the bot stops playing for them.
            seat.away = False
            seat.timeouts, seat.overdue = 0, False
            table.version += 1
            table.broadcast_table()
        try:
            await handler(self, connection, table, message)
        except WebError as error:
            connection.error(error.code, error.message, request_id)
        except IllegalActionError as error:
            connection.error("illegal", str(error), request_id)
        except Exception:
            log.exception("table %s: message %s failed", table.id, kind)
            connection.error("internal", "something went wrong on the server", request_id)
