"""The hub: every table of one server in memory, the storage behind them, the worker
threads, creating and joining tables, and the entry point of every client message."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from ..game import (
    IllegalActionError,
)
from ..rules import PRESETS, Rules, RulesError
from .botwork import available_levels, close_bot
from .connection import Connection, RateLimiter
from .handlers import COMING_BACK, HANDLERS
from .protocol import MAX_END_SCORE, TABLE_ID_RE, TABLE_OPTIONS, TOKEN_RE, WebError, new_token
from .seat import Seat
from .settings import Settings
from .storage import (
    SeatRow,
    Storage,
    TableRow,
    token_hash,
)
from .table import Table
from .views import clean_name

__all__ = ["Hub"]

log = logging.getLogger("openhearts.web")


T = TypeVar("T")


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
        self.bot_pool: Executor = ThreadPoolExecutor(
            max_workers=max(1, self.settings.bot_threads), thread_name_prefix="openhearts-bot"
        )
        self.closing = False
        self._loading = asyncio.Lock()
        self._creators: dict[str, RateLimiter] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task kept alive until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def store(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.store_pool, function, *args)

    # Life cycle ------------------------------------------------------------------

    async def startup(self) -> None:
        """Migrate the database and resume every table waiting or in play."""
        self.loop = asyncio.get_running_loop()
        await self.store(self.storage.migrate)
        self.levels = available_levels()
        if self.settings.default_level not in self.levels:
            self.settings.default_level = "easy" if "easy" in self.levels else self.levels[0]
        for table_id in await self.store(self.storage.active_table_ids):
            table = await self.get(table_id)
            if table is None:
                continue
            for seat in table.seats:
                if seat.kind == "human":
                    table.schedule_takeover(seat)
            table.kick()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def shutdown(self) -> None:
        self.closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
            for seat in table.seats:
                if seat.takeover is not None:
                    seat.takeover.cancel()
                close_bot(seat.bot)
            for connection in table.connections():
                connection.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.store_pool.shutdown(wait=True)
        self.storage.close()

    async def get(self, table_id: str) -> Table | None:
        """A table by id, loaded from storage when it is not in memory."""
        if not TABLE_ID_RE.match(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self.store(self.storage.load_table, table_id)
            if row is None:
                return None
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
            self.tables[table_id] = table
            return table

    def maybe_evict(self, table: Table, *, idle: bool = False) -> None:
        """Forget a table nobody uses that is waiting or finished (it is reloaded from
        storage when someone comes back); a game in progress stays while bots play."""
        if (
            table.status != "playing"
            and table.users == 0
            and not table.connections()
            and (idle or table.driver is None or table.driver.done())
        ):
            for seat in table.seats:
                if seat.takeover is not None:
                    seat.takeover.cancel()
                    seat.takeover = None
                close_bot(seat.bot)
            if self.tables.get(table.id) is table:
                del self.tables[table.id]

    async def _sweep(self) -> None:
        """Now and then, forget tables left waiting with nobody connected."""
        while not self.closing:
            await asyncio.sleep(60)
            for table in list(self.tables.values()):
                if time.monotonic() - table.last_active > 300:
                    self.maybe_evict(table)

    # Creating and joining --------------------------------------------------------

    def check_create_rate(self, address: str) -> None:
        rate = self.settings.create_rate
        if rate <= 0:
            return
        limiter = self._creators.get(address)
        if limiter is None:
            if len(self._creators) > 10000:
                self._creators.clear()
            limiter = self._creators[address] = RateLimiter(rate / 60, rate)
        if not limiter.allow():
            raise WebError("rate_limited", "too many new tables; wait a minute", 429)

    def rules_of(self, body: dict[str, Any]) -> tuple[str, Rules]:
        preset = body.get("preset", self.settings.default_preset)
        if not isinstance(preset, str) or preset not in PRESETS:
            raise WebError("bad_request", f"preset: choose one of {', '.join(PRESETS)}")
        players = body.get("players", self.settings.default_players)
        if players is not None and (
            isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6
        ):
            raise WebError("bad_request", "players: a number from 3 to 6")
        options = body.get("options")
        if options is None:
            options = dict(self.settings.default_options) if "preset" not in body else {}
        if not isinstance(options, dict):
            raise WebError("bad_request", "options: an object of rules options")
        changes: dict[str, Any] = {}
        for name, value in options.items():
            if name not in TABLE_OPTIONS:
                raise WebError(
                    "bad_request", f"{str(name)[:40]}: not an option ({', '.join(TABLE_OPTIONS)})"
                )
            if isinstance(value, list):
                if len(value) > 52 or not all(isinstance(v, str | int) for v in value):
                    raise WebError("bad_request", f"{name}: a short list")
                value = tuple(value)
            elif not isinstance(value, str | int | bool) and value is not None:
                raise WebError("bad_request", f"{name}: not a valid value")
            changes[name] = value
        end_score = changes.get("end_score")
        if isinstance(end_score, int) and end_score > MAX_END_SCORE:
            raise WebError("bad_request", f"end_score: at most {MAX_END_SCORE}")
        try:
            rules = Rules.preset(preset, players=players, **changes)
        except (RulesError, TypeError, ValueError) as error:
            raise WebError("bad_request", str(error)) from None
        return preset, rules

    def level_of(self, body: dict[str, Any]) -> str:
        level = body.get("level", self.settings.default_level)
        if level is None:
            level = self.settings.default_level
        # Only the named levels: a web client must never make the server import a module.
        if not isinstance(level, str) or level not in self.levels:
            raise WebError("bad_request", f"level: choose one of {', '.join(self.levels)}")
        return level

    @staticmethod
    def player_of(body: dict[str, Any]) -> str:
        given = body.get("player_token")
        if isinstance(given, str) and TOKEN_RE.match(given):
            return given
        return new_token()

    async def create_table(
        self, body: dict[str, Any], *, play_now: bool
    ) -> tuple[Table, Seat, str, str]:
        """A new table with the creator in seat 0; ``play_now`` fills it and starts."""
        preset, rules = self.rules_of(body)
        level = self.level_of(body)
        name = clean_name(body.get("name"), "Player 1")
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
        )
        await self.store(self.storage.create_table, row)
        table = Table(self, row)
        self.tables[table_id] = table
        seat = table.seats[0]
        if play_now:
            async with table.lock:
                await table.start()
                table.announce_start(waiting_for=seat)
        return table, seat, token, player_token

    async def join(self, table_id: str, body: dict[str, Any]) -> tuple[Table, Seat, str, str]:
        table = await self.get(table_id)
        if table is None:
            raise WebError("no_table", "there is no such table", 404)
        player_token = self.player_of(body)
        table.users += 1
        try:
            return await self._join(table, body, player_token)
        finally:
            table.users -= 1

    async def _join(
        self, table: Table, body: dict[str, Any], player_token: str
    ) -> tuple[Table, Seat, str, str]:
        async with table.lock:
            if table.status != "waiting":
                raise WebError("full", "the game has started: you can watch", 409)
            free = [s for s in table.seats if s.kind == "empty"]
            if not free:
                raise WebError("full", "every seat is taken: you can watch", 409)
            seat = free[0]
            token = new_token()
            row = SeatRow(
                seat=seat.index,
                kind="human",
                name=clean_name(body.get("name"), f"Player {seat.index + 1}"),
                token_hash=token_hash(token),
                player_hash=token_hash(player_token),
            )
            await self.store(self.storage.update_seats, table.id, [row])
            seat.kind, seat.name = row.kind, row.name
            seat.token_hash, seat.player_hash = row.token_hash, row.player_hash
            table.broadcast_table()
        return table, seat, token, player_token

    # Messages --------------------------------------------------------------------

    async def handle(self, connection: Connection, table: Table, text: str) -> None:
        """One message from a client; any refusal is an ``error`` reply."""
        try:
            message = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            connection.error("bad_message", "not valid JSON")
            return
        if not isinstance(message, dict):
            connection.error("bad_message", "a message is a JSON object")
            return
        request_id = message.get("id")
        if request_id is not None and not (
            (isinstance(request_id, int) and not isinstance(request_id, bool))
            or (isinstance(request_id, str) and len(request_id) <= 32)
        ):
            connection.error("bad_message", "id: an integer or a short string")
            return
        if not connection.limiter.allow():
            connection.refused += 1
            connection.error("rate_limited", "too many messages; slow down", request_id)
            return
        kind = message.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            connection.error("bad_message", f"unknown message type {str(kind)[:32]!r}", request_id)
            return
        if kind not in ("hello", "ping") and not connection.greeted:
            connection.error("no_hello", "say hello first", request_id)
            return
        seat = connection.seat
        if seat is not None and seat.away and kind in COMING_BACK:
            # A player who left and acts again is back: the bot stops playing for them.
            seat.away = False
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
