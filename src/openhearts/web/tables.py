"""Tables, seats and the bots that fill them: the web game's live state.

A :class:`Hub` holds the tables in memory and the storage behind them.  Each
:class:`Table` owns one :class:`~openhearts.game.Game` at a time, its seats, and the
connections watching it.  Every change to a table happens under the table's lock and
is committed to storage before anyone is told of it; bots think in a thread pool so
the event loop never waits for them.

This module knows nothing of HTTP: a :class:`Connection` is anything with an outbox
of JSON texts (the server's WebSocket endpoint drains it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from .. import record
from ..bots import LEVELS, Bot, decide, make_bot
from ..cards import Card, CardParseError, CardSet
from ..game import (
    MOON_CHOICE,
    PASSING,
    PLAYING,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
    conventional_moon_choice,
)
from ..rules import PRESETS, Rules, RulesError
from .storage import (
    ActionRow,
    GameRow,
    SeatRow,
    StatsDelta,
    Storage,
    TableRow,
    token_hash,
)
from .views import Event, apply_with_events, clean_name, view_json

__all__ = [
    "Connection",
    "Hub",
    "Settings",
    "Table",
    "WebError",
    "PROTOCOL",
    "MESSAGE_BYTES",
    "available_levels",
]

log = logging.getLogger("openhearts.web")

PROTOCOL: Final = 1
#: Largest client message accepted, in bytes.
MESSAGE_BYTES: Final = 4096
CHAT_CHARS: Final = 200
#: Spectators per table.
MAX_SPECTATORS: Final = 100
#: Messages queued for one client before it is considered gone.
OUTBOX_LIMIT: Final = 2000
#: Friendly names for bots, by seat.
BOT_NAMES: Final = ("Ada", "Blaise", "Carmen", "Dmitri", "Emmy", "Farid")
TABLE_ID_RE: Final = re.compile(r"^[A-Za-z0-9_-]{6,32}$")
TOKEN_RE: Final = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: Rules options a table may set (``players`` is its own field).
TABLE_OPTIONS: Final = (
    "end_score",
    "moon",
    "first_trick",
    "hearts_break",
    "sun",
    "jack_of_diamonds",
    "seating",
    "direction",
    "cards_passed",
    "pass_cycle",
    "removed",
    "first_lead",
    "first_dealer",
)
MAX_END_SCORE: Final = 1000

T = TypeVar("T")


class WebError(Exception):
    """A refused request: ``code`` for programs, ``message`` in plain words."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def available_levels() -> list[str]:
    """Bot levels that can be built here (a level whose module is missing is left out)."""
    levels = []
    for level in LEVELS:
        try:
            bot = make_bot(level, seed=0)
        except Exception:
            continue
        _close_bot(bot)
        levels.append(level)
    return levels


def _close_bot(bot: object) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


def _new_token() -> str:
    return secrets.token_urlsafe(24)


def _now_text() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class Settings:
    """How the server runs its tables."""

    #: Seconds a bot waits before acting, so that people can follow (0 in tests).
    bot_delay: float = 0.6
    #: Seconds before an "Auto play one" card is played for a person.
    auto_delay: float = 0.3
    #: Seconds after a player's last connection closes before a bot plays for them.
    takeover_delay: float = 5.0
    default_level: str = "easy"
    default_preset: str = "standard"
    default_players: int | None = None
    default_options: dict[str, Any] = field(default_factory=dict)
    #: Tables one address may create per minute (0: no limit).
    create_rate: int = 30
    #: Threads for bot moves and hints.
    bot_threads: int = 4
    #: Worlds per decision for the hard bot's hints (None: its default).
    hint_budget: int | None = None
    #: Messages per second one connection may send, and the burst allowed.
    message_rate: float = 20.0
    message_burst: float = 40.0


class RateLimiter:
    """A token bucket: ``rate`` per second with bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One client (a WebSocket): its seat once it has said hello, and its outbox."""

    def __init__(self, rate: float = 20, burst: float = 40) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: Seat | None = None
        self.greeted = False
        self.closed = False
        self.limiter = RateLimiter(rate=rate, burst=burst)
        self.hinting = False
        self.refused = 0

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # A client that does not read is dropped rather than buffered forever.
            self.close()
            return
        self.outbox.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def error(self, code: str, message: str, request_id: object = None) -> None:
        self.send({"type": "error", "id": request_id, "code": code, "message": message})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


@dataclass(eq=False)
class Seat:
    index: int
    kind: str = "empty"
    name: str | None = None
    token_hash: str | None = None
    player_hash: str | None = None
    level: str | None = None
    host: bool = False
    auto_play_one: bool = True
    #: A person who left or dropped: a bot plays for them until they come back.
    away: bool = False
    connections: set[Connection] = field(default_factory=set)
    bot: Bot | None = None
    takeover: asyncio.TimerHandle | None = None

    @property
    def bot_playing(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.away)

    def row(self) -> SeatRow:
        return SeatRow(
            seat=self.index,
            kind=self.kind,
            name=self.name,
            token_hash=self.token_hash,
            player_hash=self.player_hash,
            level=self.level,
            host=self.host,
            auto_play_one=self.auto_play_one,
        )

    @classmethod
    def of_row(cls, row: SeatRow) -> Seat:
        return cls(
            index=row.seat,
            kind=row.kind,
            name=row.name,
            token_hash=row.token_hash,
            player_hash=row.player_hash,
            level=row.level,
            host=row.host,
            auto_play_one=row.auto_play_one,
        )

    def summary(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "host": self.host,
            "connected": bool(self.connections),
            "bot_playing": self.bot_playing,
        }
        if self.kind == "bot":
            data["level"] = self.level
        return data


def _forced(game: Game, *, auto: bool) -> bool:
    """Whether the card to play now is "Auto play one"'s to play: the only legal card,
    or (with ``auto``, the setting on) the lowest once nothing left to play can change
    the deal's points.  The page does not offer a card then, so none can cross the one
    the server plays."""
    card = game.auto_play_card()
    return card is not None and (auto or len(game.legal_plays()) == 1)


def _action_row(action: Action, seq: int) -> ActionRow:
    if isinstance(action, Pass):
        return ActionRow(seq, "pass", action.seat, str(action.cards))
    if isinstance(action, Play):
        return ActionRow(seq, "play", action.seat, str(action.card))
    return ActionRow(seq, "moon", action.seat, "add" if action.others_add else "subtract")


def _action_of_row(row: ActionRow) -> Action:
    if row.kind == "pass":
        return Pass(row.seat, CardSet.parse(row.data))
    if row.kind == "play":
        return Play(row.seat, Card.parse(row.data))
    if row.kind == "moon":
        return MoonChoice(row.seat, row.data == "add")
    raise ValueError(f"unknown action kind {row.kind!r}")


class Table:
    """One table: seats, the current game, the connections, the bot driver."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.status = row.status
        self.preset = row.preset
        self.rules = Rules.from_dict(row.rules)
        self.level = row.level
        self.created = row.created_at
        self.game_number = row.game_number
        self.seats = [Seat.of_row(s) for s in row.seats]
        self.spectators: set[Connection] = set()
        self.game: Game | None = None
        self.seed: str | None = None
        self.lock = asyncio.Lock()
        #: How many actions each seat made in the current game (``Game.actions`` builds
        #: a new list on every call, too slow for every message).
        self.acted: list[int] = [0] * len(self.seats)
        #: Bumped on every change to the game, so a bot's late answer can tell it is stale.
        self.version = 0
        self.driver: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()
        #: Sockets and requests holding this object: it is not forgotten while any do.
        self.users = 0

    # Summaries -------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"/t/{self.id}"

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "url": self.url,
            "status": self.status,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "describe": self.rules.describe(),
            "level": self.level,
            "game": self.game_number,
            "seats": [s.summary() for s in self.seats],
            "spectators": len(self.spectators),
            "created": self.created.isoformat().replace("+00:00", "Z"),
        }

    def connections(self) -> list[Connection]:
        result = list(self.spectators)
        for seat in self.seats:
            result.extend(seat.connections)
        return result

    def broadcast_table(self) -> None:
        message = {"type": "table", "table": self.summary()}
        for connection in self.connections():
            connection.send(message)

    def is_solo(self, seat: Seat) -> bool:
        """Whether every other seat is a bot's (undo and hints are for games against bots)."""
        return all(s.kind == "bot" for s in self.seats if s is not seat)

    def state_message(self, seat: Seat | None, events: list[Event]) -> dict[str, Any]:
        game = self.game
        assert game is not None
        index = None if seat is None else seat.index
        view = game.view(0 if index is None else index)
        state = view_json(view, index)
        state["game"] = self.game_number
        state["seq"] = self.seq
        state["waiting_for"] = game.to_act()
        state["winners"] = game.winners
        if game.phase == MOON_CHOICE and game.current_player is not None:
            moon: dict[str, Any] = {
                "shooter": game.current_player,
                "points": game.rules.points_in_play,
            }
            if index == game.current_player:
                moon["suggested_others_add"] = game.suggested_moon_choice()
            state["moon"] = moon
        solo = seat is not None and self.is_solo(seat) and not game.is_over
        state["auto_play_one"] = seat.auto_play_one if seat is not None else False
        state["can_undo"] = bool(solo and index is not None and self.acted[index])
        state["can_hint"] = bool(solo)
        state["bot_playing"] = seat.bot_playing if seat is not None else False
        # Public (it follows from the cards played and the rules), so everyone gets it:
        # a client whose "Auto play one" is on must not send a card while it holds.
        state["settled"] = game.points_settled()
        return {
            "type": "state",
            "seq": self.seq,
            "events": [e.for_seat(index) for e in events],
            "state": state,
        }

    def broadcast_state(self, events: list[Event]) -> None:
        if self.game is None:
            return
        for seat in self.seats:
            if seat.connections:
                message = self.state_message(seat, events)
                for connection in seat.connections:
                    connection.send(message)
        if self.spectators:
            message = self.state_message(None, events)
            for connection in self.spectators:
                connection.send(message)

    # Game setup ------------------------------------------------------------------

    def resume(self, row: GameRow) -> None:
        """Rebuild the game in progress by replaying its stored actions."""
        self.seed = row.seed
        game = Game(Rules.from_dict(row.rules), seed=row.seed, names=row.names)
        for action_row in row.actions:
            try:
                game.apply(_action_of_row(action_row))
            except (IllegalActionError, CardParseError, ValueError) as error:
                # Only the kind of error: its text may name a card of a hidden hand.
                log.error(
                    "table %s game %s: stored action %s does not replay (%s); resuming before it",
                    self.id,
                    row.number,
                    action_row.seq,
                    type(error).__name__,
                )
                break
        self.game = game
        self.rules = game.rules
        self._count_actions()

    @property
    def seq(self) -> int:
        """Actions taken in the current game; a stored action's number is its index."""
        return 0 if self.game is None else self.game.action_count

    def _count_actions(self) -> None:
        assert self.game is not None
        self.acted = [0] * self.rules.players
        for action in self.game.actions:
            self.acted[action.seat] += 1

    def finished_game(self, row: GameRow) -> None:
        """Show a finished game from its record (for people opening the link later)."""
        if row.record:
            try:
                self.game = record.loads(row.record)
                self.seed = row.seed
                self._count_actions()
            except record.RecordError:
                log.error("table %s game %s: the record does not replay", self.id, row.number)

    def _bot_for(self, seat: Seat) -> Bot:
        if seat.bot is None:
            level = seat.level if seat.kind == "bot" and seat.level else self.level
            try:
                seat.bot = make_bot(level, seed=f"{self.seed}:{seat.index}:{level}")
            except Exception as error:
                log.warning(
                    "table %s: cannot build a %s bot (%s); using random", self.id, level, error
                )
                seat.bot = make_bot("random", seed=f"{self.seed}:{seat.index}")
        return seat.bot

    def _fill_seat(self, seat: Seat, level: str) -> None:
        seat.kind = "bot"
        seat.level = level
        seat.name = BOT_NAMES[seat.index % len(BOT_NAMES)]
        seat.token_hash = None
        seat.player_hash = None
        seat.host = False
        seat.bot = None

    async def start(self) -> None:
        """Fill empty seats with bots and start a game (caller holds the lock, then
        calls :meth:`announce_start`)."""
        if self.status == "playing":
            raise WebError("started", "the game has already started", 409)
        for seat in self.seats:
            if seat.kind == "empty":
                self._fill_seat(seat, self.level)
        seed = secrets.token_hex(16)
        names = [s.name or f"Player {s.index + 1}" for s in self.seats]
        game = Game(self.rules, seed=seed, names=names)
        if list(game.names) != names:
            # Shuffled seating: move each seat (token and all) to where the game put it.
            probe = Game(self.rules, seed=seed, names=[str(i) for i in range(len(names))])
            order = [int(n) for n in probe.names]
            moved = [self.seats[old] for old in order]
            for index, seat in enumerate(moved):
                seat.index = index
            self.seats = moved
        for seat in self.seats:
            _close_bot(seat.bot)
            seat.bot = None
        number = self.game_number + 1
        await self.hub.store(
            self.hub.storage.start_game,
            self.id,
            GameRow(number, seed, self.rules.to_dict(), list(game.names), "playing"),
            [s.row() for s in self.seats],
        )
        self.game = game
        self.seed = seed
        self.acted = [0] * self.rules.players
        self.game_number = number
        self.status = "playing"
        self.version += 1

    def announce_start(self, waiting_for: Seat | None = None) -> None:
        """Tell everyone the game has started (seats may have moved), and get going."""
        for connection in self.connections():
            connection.send(self._welcome(connection))
        self.broadcast_state([Event({"event": "started", "game": self.game_number})])
        for seat in self.seats:
            # People who hold a seat but are not here get a bot after the takeover
            # delay, except ``waiting_for`` (a "Play now" creator, about to connect).
            if (
                seat.kind == "human"
                and not seat.connections
                and seat.takeover is None
                and not seat.away
                and seat is not waiting_for
            ):
                self.schedule_takeover(seat)
        self.kick()

    def _welcome(self, connection: Connection) -> dict[str, Any]:
        seat = connection.seat
        return {
            "type": "welcome",
            "protocol": PROTOCOL,
            "seat": None if seat is None else seat.index,
            "role": "spectator" if seat is None else "player",
            "host": bool(seat and seat.host),
            "table": self.summary(),
        }

    # Committing actions ----------------------------------------------------------

    async def commit(self, action: Action, *, extra: list[Event] | None = None) -> list[Event]:
        """Apply, store, then tell everyone (caller holds the lock).  Raises
        :class:`IllegalActionError` (nothing changed) or :class:`WebError`."""
        game = self.game
        assert game is not None
        events = apply_with_events(game, action)
        self.version += 1
        try:
            await self.hub.store(
                self.hub.storage.append_action,
                self.id,
                self.game_number,
                _action_row(action, self.seq - 1),
            )
        except Exception:
            log.exception("table %s: storing an action failed; taking it back", self.id)
            game.undo()
            self.version += 1
            raise WebError("internal", "the server could not store that; try again", 500) from None
        self.acted[action.seat] += 1
        events = (extra or []) + events
        self.last_active = time.monotonic()
        if game.is_over:
            await self._finish()
        return events

    async def _finish(self) -> None:
        game = self.game
        assert game is not None
        self.status = "finished"
        stats = [
            StatsDelta(
                player_hash=seat.player_hash,
                name=seat.name or "",
                won=seat.index in game.winners,
                deals=len(game.results),
                points=game.scores[seat.index],
                moons=sum(1 for r in game.results if r.shooter == seat.index),
            )
            for seat in self.seats
            if seat.kind == "human" and seat.player_hash
        ]
        try:
            await self.hub.store(
                self.hub.storage.finish_game,
                self.id,
                self.game_number,
                record.dumps(game),
                list(game.scores),
                stats,
            )
        except Exception:
            # The last action is stored; a restart finishes the game from it.
            log.exception("table %s: storing the finished game failed", self.id)

    def after_commit(self, events: list[Event]) -> None:
        self.broadcast_state(events)
        if self.status == "finished":
            self.broadcast_table()
        self.kick()

    # The bot driver --------------------------------------------------------------

    def kick(self) -> None:
        """Make sure the driver runs if a bot (or "Auto play one") has something to do."""
        if self.game is None or self.game.is_over or self.hub.closing:
            return
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def _automatic(self) -> tuple[Seat, str] | None:
        """The next seat to be moved for, and how: ``bot`` or ``auto`` ("Auto play one")."""
        game = self.game
        if game is None or game.is_over:
            return None
        for index in game.to_act():
            seat = self.seats[index]
            if seat.bot_playing:
                return seat, "bot"
            if seat.kind == "human" and seat.auto_play_one and _forced(game, auto=True):
                return seat, "auto"
        return None

    async def _drive(self) -> None:
        try:
            await self._drive_steps()
        finally:
            self.hub.maybe_evict(self, idle=True)

    async def _drive_steps(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.hub.closing:
            step = self._automatic()
            if step is None:
                return
            seat, how = step
            version = self.version
            delay = self.hub.settings.bot_delay if how == "bot" else self.hub.settings.auto_delay
            if delay > 0:
                await asyncio.sleep(delay)
                if self.version != version:
                    continue
            game = self.game
            assert game is not None
            if how == "auto":
                card = game.auto_play_card()
                assert card is not None  # the game has not moved since _automatic said so
                action: Action = Play(seat.index, card)
            else:
                view = game.view(seat.index)
                bot = self._bot_for(seat)
                try:
                    action = await loop.run_in_executor(self.hub.bot_pool, decide, bot, view)
                except Exception as error:
                    # The error's text may name the bot's cards: the log keeps only its kind.
                    log.warning(
                        "table %s: the bot failed (%s); playing at random",
                        self.id,
                        type(error).__name__,
                    )
                    action = decide(make_bot("random", seed=self.version), view)
            async with self.lock:
                if self.version != version or self._automatic() != step:
                    continue  # the game moved on while the bot was thinking
                extra = [Event({"event": "auto", "seat": seat.index})] if how == "auto" else []
                try:
                    events = await self.commit(action, extra=extra)
                except IllegalActionError:
                    log.warning("table %s: the bot chose an illegal action", self.id)
                    fallback = decide(make_bot("random", seed=self.version), view)
                    events = await self.commit(fallback, extra=extra)
                except WebError:
                    await asyncio.sleep(0.5)
                    continue
                self.broadcast_state(events)
                if self.status == "finished":
                    self.broadcast_table()

    # Seats coming and going ------------------------------------------------------

    def attach(self, connection: Connection, seat: Seat | None) -> None:
        connection.table = self
        connection.seat = seat
        connection.greeted = True
        if seat is None:
            self.spectators.add(connection)
            return
        seat.connections.add(connection)
        if seat.takeover is not None:
            seat.takeover.cancel()
            seat.takeover = None
        seat.away = False
        self.version += 1

    def detach(self, connection: Connection) -> None:
        seat = connection.seat
        if seat is None:
            self.spectators.discard(connection)
        else:
            seat.connections.discard(connection)
            if not seat.connections and seat.kind == "human":
                self.schedule_takeover(seat)
        self.broadcast_table()
        self.hub.maybe_evict(self)

    def schedule_takeover(self, seat: Seat, delay: float | None = None) -> None:
        if seat.takeover is not None:
            seat.takeover.cancel()
        wait = self.hub.settings.takeover_delay if delay is None else delay
        seat.takeover = asyncio.get_running_loop().call_later(wait, self._take_over, seat)

    def _take_over(self, seat: Seat) -> None:
        seat.takeover = None
        if seat.connections and not seat.away:
            return
        seat.away = True
        self.version += 1
        self.broadcast_table()
        if self.game is not None and not self.game.is_over:
            self.broadcast_state([])
        self.kick()

    def leave(self, seat: Seat) -> None:
        if seat.takeover is not None:
            seat.takeover.cancel()
            seat.takeover = None
        seat.away = True
        self.version += 1
        self.broadcast_table()
        if self.game is not None and not self.game.is_over:
            self.broadcast_state([])
        self.kick()


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
                _close_bot(seat.bot)
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
                _close_bot(seat.bot)
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
        return _new_token()

    async def create_table(
        self, body: dict[str, Any], *, play_now: bool
    ) -> tuple[Table, Seat, str, str]:
        """A new table with the creator in seat 0; ``play_now`` fills it and starts."""
        preset, rules = self.rules_of(body)
        level = self.level_of(body)
        name = clean_name(body.get("name"), "Player 1")
        player_token = self.player_of(body)
        token = _new_token()
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
            token = _new_token()
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
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            connection.error("bad_message", f"unknown message type {str(kind)[:32]!r}", request_id)
            return
        if kind not in ("hello", "ping") and not connection.greeted:
            connection.error("no_hello", "say hello first", request_id)
            return
        seat = connection.seat
        if seat is not None and seat.away and kind in _COMING_BACK:
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


# Message handlers -----------------------------------------------------------------------

Handler = Callable[[Hub, Connection, Table, dict[str, Any]], Awaitable[None]]


def _ack(connection: Connection, message: dict[str, Any]) -> None:
    connection.send({"type": "ack", "id": message.get("id"), "for": message["type"]})


def _seated(connection: Connection) -> Seat:
    if connection.seat is None:
        raise WebError("not_seated", "spectators cannot act")
    return connection.seat


def _game(table: Table) -> Game:
    if table.game is None or table.status == "waiting":
        raise WebError("no_game", "the game has not started")
    if table.game.is_over or table.status == "finished":
        raise WebError("game_over", "the game is over")
    return table.game


def _my_turn(table: Table, seat: Seat) -> Game:
    game = _game(table)
    if seat.index not in game.to_act():
        if game.phase == PASSING:
            raise WebError("not_your_turn", "you have already passed")
        mover = game.current_player
        who = game.names[mover] if mover is not None else "nobody"
        raise WebError("not_your_turn", f"it is {who}'s turn")
    return game


def _card(value: object) -> Card:
    if not isinstance(value, str) or len(value) > 3:
        raise WebError("bad_message", 'card: a card such as "QS"')
    try:
        return Card.parse(value)
    except CardParseError as error:
        raise WebError("bad_message", f"card: {error}") from None


async def _hello(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    if connection.greeted:
        raise WebError("bad_message", "you have already said hello")
    token = message.get("token")
    seat: Seat | None = None
    async with table.lock:
        if token is not None:
            if not isinstance(token, str) or not TOKEN_RE.match(token):
                raise WebError("bad_token", "that is not a seat token")
            wanted = token_hash(token)
            for candidate in table.seats:
                if candidate.token_hash and hmac.compare_digest(candidate.token_hash, wanted):
                    seat = candidate
                    break
            if seat is None:
                raise WebError("bad_token", "that token holds no seat at this table")
        elif len(table.spectators) >= MAX_SPECTATORS:
            raise WebError("full", "too many people are watching this table")
        table.attach(connection, seat)
        connection.send(table._welcome(connection))
        if table.game is not None:
            connection.send(table.state_message(seat, []))
        table.broadcast_table()
    table.kick()


async def _ping(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    connection.send({"type": "pong", "id": message.get("id")})


async def _pass(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    cards = message.get("cards")
    if not isinstance(cards, list) or len(cards) > 13:
        raise WebError("bad_message", "cards: a list of cards")
    chosen = [_card(c) for c in cards]
    if len(set(chosen)) != len(chosen):
        raise WebError("bad_message", "cards: a card is named twice")
    async with table.lock:
        _my_turn(table, seat)
        events = await table.commit(Pass(seat.index, CardSet(chosen)))
        _ack(connection, message)
        table.after_commit(events)


async def _play(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    card = _card(message.get("card"))
    async with table.lock:
        game = _my_turn(table, seat)
        if game.phase != PLAYING:
            raise IllegalActionError(
                "cards are being passed: play starts when every player has passed"
                if game.phase == PASSING
                else "choose how to score the moon first"
            )
        events = await table.commit(Play(seat.index, card))
        _ack(connection, message)
        table.after_commit(events)


async def _moon(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    others_add = message.get("others_add")
    if not isinstance(others_add, bool):
        raise WebError("bad_message", "others_add: true or false")
    async with table.lock:
        _my_turn(table, seat)
        events = await table.commit(MoonChoice(seat.index, others_add))
        _ack(connection, message)
        table.after_commit(events)


async def _undo(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    async with table.lock:
        game = _game(table)
        if not table.is_solo(seat):
            raise WebError("not_allowed", "undo is only for games against bots")
        popped: list[Action] = []
        found = False
        while table.seq:
            action = game.undo()
            popped.append(action)
            # A card "Auto play one" played was no decision, and going back to it would
            # only have the server play it again.
            if action.seat == seat.index and not _forced(game, auto=seat.auto_play_one):
                found = True
                break
        if not found:
            for action in reversed(popped):
                game.apply(action)
            raise WebError("nothing_to_undo", "there is nothing of yours to take back")
        table.version += 1
        try:
            await hub.store(hub.storage.truncate_actions, table.id, table.game_number, table.seq)
        except Exception:
            for action in reversed(popped):
                game.apply(action)
            table.version += 1
            raise
        for action in popped:
            table.acted[action.seat] -= 1
        _ack(connection, message)
        table.broadcast_state(
            [Event({"event": "undone", "seat": seat.index, "count": len(popped)})]
        )


async def _hint(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    async with table.lock:
        game = _game(table)
        if not table.is_solo(seat):
            raise WebError("not_allowed", "hints are only for games against bots")
        if seat.index not in game.to_act():
            raise WebError("not_your_turn", "hints are for your own turn")
        view = game.view(seat.index)
        seq = table.seq
    request_id = message.get("id")
    if connection.hinting:
        raise WebError("busy", "a hint is already being worked out")
    connection.hinting = True

    async def work() -> None:
        # Thought about aside, so the player may go on sending messages meanwhile.
        loop = asyncio.get_running_loop()
        try:
            answer = await loop.run_in_executor(
                hub.bot_pool, _hint_of, view, hub.settings.hint_budget
            )
        except WebError as error:
            connection.error(error.code, error.message, request_id)
        except Exception:
            log.exception("table %s: a hint failed", table.id)
            connection.error("internal", "the hint could not be worked out", request_id)
        else:
            connection.send({"type": "hint", "id": request_id, "seq": seq, **answer})
        finally:
            connection.hinting = False

    hub.background(work())


def _hint_of(view: PlayerView, budget: int | None) -> dict[str, Any]:
    """What the strongest bot here would do (runs in a worker thread)."""
    if view.phase == MOON_CHOICE:
        others_add = conventional_moon_choice(view.scores, view.seat, view.rules.points_in_play)
        return {"phase": view.phase, "others_add": others_add}
    if view.phase == PASSING:
        for level in ("hard", "easy", "random"):
            try:
                bot = make_bot(level, seed=0)
            except Exception:
                continue
            try:
                return {"phase": view.phase, "pass": [str(c) for c in bot.choose_pass(view)]}
            finally:
                _close_bot(bot)
        raise WebError("hint_unavailable", "no bot can suggest a pass here")
    try:
        from ..bots.hard import HardBot

        hard = HardBot(seed=0) if budget is None else HardBot(seed=0, budget=budget)
        try:
            ranking = hard.analyse(view)
        finally:
            hard.close()
    except (ImportError, AttributeError, TypeError) as error:
        raise WebError("hint_unavailable", f"hints need the hard bot ({error})") from None
    return {
        "phase": view.phase,
        "ranking": [{"card": str(card), "points": round(float(p), 2)} for card, p in ranking],
    }


async def _auto(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    value = message.get("play_one")
    if not isinstance(value, bool):
        raise WebError("bad_message", "play_one: true or false")
    async with table.lock:
        if seat.auto_play_one != value:
            seat.auto_play_one = value
            await hub.store(hub.storage.update_seats, table.id, [seat.row()])
            table.version += 1
        _ack(connection, message)
        if table.game is not None:
            for other in seat.connections:
                other.send(table.state_message(seat, []))
    table.kick()


def _host(connection: Connection) -> Seat:
    seat = _seated(connection)
    if not seat.host:
        raise WebError("not_host", "only the table's host may do that")
    return seat


async def _fill(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    _host(connection)
    wanted = message.get("seat")
    level = message.get("level", table.level)
    if not isinstance(level, str) or level not in hub.levels:
        raise WebError("bad_message", f"level: choose one of {', '.join(hub.levels)}")
    async with table.lock:
        if table.status == "playing":
            raise WebError("started", "the game has started")
        if wanted is None:
            targets = [s for s in table.seats if s.kind == "empty"]
        else:
            if not isinstance(wanted, int) or not 0 <= wanted < len(table.seats):
                raise WebError("bad_message", f"seat: 0 to {len(table.seats) - 1}")
            if table.seats[wanted].kind != "empty":
                raise WebError("bad_message", "that seat is not free")
            targets = [table.seats[wanted]]
        for seat in targets:
            table._fill_seat(seat, level)
        try:
            await hub.store(hub.storage.update_seats, table.id, [s.row() for s in targets])
        except Exception:
            for seat in targets:
                seat.kind, seat.name, seat.level = "empty", None, None
            raise
        _ack(connection, message)
        table.broadcast_table()


async def _clear(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    _host(connection)
    wanted = message.get("seat")
    if not isinstance(wanted, int) or isinstance(wanted, bool):
        raise WebError("bad_message", "seat: a seat number")
    async with table.lock:
        if table.status == "playing":
            raise WebError("started", "the game has started")
        if not 0 <= wanted < len(table.seats) or table.seats[wanted].kind != "bot":
            raise WebError("bad_message", "there is no bot in that seat")
        seat = table.seats[wanted]
        seat.kind, seat.name, seat.level, seat.bot = "empty", None, None, None
        await hub.store(hub.storage.update_seats, table.id, [seat.row()])
        _ack(connection, message)
        table.broadcast_table()


async def _start(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    _host(connection)
    async with table.lock:
        await table.start()
        _ack(connection, message)
        table.announce_start()
        table.broadcast_table()


async def _leave(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    async with table.lock:
        _ack(connection, message)
        table.leave(seat)


async def _chat(hub: Hub, connection: Connection, table: Table, message: dict[str, Any]) -> None:
    seat = _seated(connection)
    text = message.get("text")
    if not isinstance(text, str):
        raise WebError("bad_message", "text: a string")
    cleaned = " ".join(
        "".join(ch if ch.isprintable() else " " for ch in text[: CHAT_CHARS * 4]).split()
    )[:CHAT_CHARS]
    if not cleaned:
        raise WebError("bad_message", "text: say something")
    # Acknowledged like an action, so that a client can tell its line from a refused one.
    _ack(connection, message)
    line = {
        "type": "chat",
        "seat": seat.index,
        "name": seat.name,
        "text": cleaned,
        "time": _now_text(),
    }
    for other in table.connections():
        other.send(line)


#: Messages by which a player who left comes back.
_COMING_BACK: Final = frozenset({"pass", "play", "moon", "undo", "auto", "start", "fill", "clear"})

_HANDLERS: dict[str, Handler] = {
    "hello": _hello,
    "ping": _ping,
    "pass": _pass,
    "play": _play,
    "moon": _moon,
    "undo": _undo,
    "hint": _hint,
    "auto": _auto,
    "fill": _fill,
    "clear": _clear,
    "start": _start,
    "leave": _leave,
    "chat": _chat,
}
