"""One table: its seats, the current game, the connections and the bot driver.

Every change to a table happens under the table's lock and is committed to storage
before anyone is told of it; bots think in a thread pool so the event loop never waits
for them."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from .. import record
from ..bots import Bot, make_bot
from ..cards import Card, CardParseError, CardSet
from ..game import (
    MOON_CHOICE,
    PASSING,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
)
from ..rules import Rules
from ..session.driver import decide, fallback_action
from ..session.events import AutoPlay
from ..session.names import unique_name
from ..session.seats import bot_seed
from ..session.seeds import game_seed
from ..session.statistics import Stats
from ..session.undo import has_choice_to_undo
from .botwork import close_bot
from .connection import Connection
from .memory import memory_json
from .protocol import NOT_SAVED, PROTOCOL, WebError
from .seat import BOT_NAMES, Seat
from .storage import (
    ActionRow,
    GameRow,
    SeatRow,
    StatsDelta,
    TableRow,
)
from .views import Event, apply_with_events, view_json

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Table", "forced"]

log = logging.getLogger("openhearts.web")


def forced(game: Game, *, auto: bool) -> bool:
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


#: A person's move that could not be stored (the database fails now): not made.
MOVE_NOT_SAVED: Final = (
    "The game cannot be saved right now, so your move was not made: make it again when "
    "the game goes on."
)

#: Why a person's move was made by the computer, beside "Auto play one"'s reasons: the
#: turn clock ran out, or a bot keeps the seat of someone gone.
FOR_YOU: Final = "for_you"


@dataclass
class _Move:
    """A move the bot driver makes for a seat, and what it was decided from."""

    #: The seat and how it is moved for (``bot`` or ``auto``), as ``Table._automatic``.
    step: tuple[Seat, str]
    #: The seat's situation it answers (``Table._situation``).
    asked: tuple[object, ...]
    action: Action
    #: Why the person's move was made for them (their own message says so), if it was.
    reason: str | None
    view: PlayerView | None = None
    bot: Bot | None = None
    #: What went wrong with the bot (its move is then a stand-in's).
    problem: str | None = None
    #: The bot was replaced for it; the table is told with the move.
    replaced: bool = False


def _mark_auto(events: list[Event], seat: int, reason: str) -> None:
    """Tell only the seat itself that its card (or pass) was not its own choice, and
    why: to anyone else it must look like one the person chose (it may have been their
    only card, or the clock may have run out)."""
    kinds = ("played", "passed") if reason == FOR_YOU else ("played",)
    for event in events:
        if event.data.get("event") in kinds and event.data.get("seat") == seat:
            event.owner = seat
            event.private = {**event.private, "auto": True, "auto_reason": str(reason)}


def _stats_delta(game: Game, seat: Seat, player_hash: str) -> StatsDelta:
    """What a finished game adds to a person's statistics, counted by the session core's
    statistics (the terminal game's too)."""
    counted = Stats()
    counted.add_game(game, seat.index)
    return StatsDelta(
        player_hash=player_hash,
        name=seat.name or "",
        won=counted.games_won == 1,
        deals=counted.deals_played,
        points=counted.points_taken,
        moons=counted.moons_shot,
        suns=counted.suns_shot,
    )


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
        self.listed = row.listed
        #: Seconds a person has for a move (None: the server's clock).
        self.turn_clock = row.turn_clock
        #: Whether the current game counts in statistics (no undo, no hint so far).
        self.rated = row.game.rated if row.game is not None else True
        self.game_number = row.game_number
        self.seats = [Seat.of_row(s) for s in row.seats]
        self.spectators: set[Connection] = set()
        self.game: Game | None = None
        self.seed: str | None = None
        self.lock = asyncio.Lock()
        #: How many actions each seat made in the current game (``Game.actions`` builds
        #: a new list on every call, too slow for every message).
        self.acted: list[int] = [0] * len(self.seats)
        #: Undos taken at this table, and per seat whether an undo would take a choice
        #: back, with what it depends on: the seat's own actions, not the bots' after
        #: them (finding it replays the game, too slow for every state sent).
        self.undos = 0
        self._undo_offers: dict[int, tuple[tuple[object, ...], bool]] = {}
        #: Bumped on every change to the game, so a bot's late answer can tell it is stale.
        self.version = 0
        #: The last answer of ``GET .../deals`` (its JSON), with what it was made from.
        self.review_cache: tuple[tuple[object, ...], bytes] | None = None
        self.driver: asyncio.Task[None] | None = None
        self.clock_handle: asyncio.TimerHandle | None = None
        #: When the clock running now runs out (the event loop's time), and for whom.
        self.clock_due = 0.0
        self.clock_key: tuple[object, ...] | None = None
        #: When a person was last connected (the table is abandoned some time after).
        self.last_seen = time.monotonic()
        self.last_active = time.monotonic()
        #: Whose share of the bot threads this table's bots use: the address that made
        #: it (the table itself once reloaded).
        self.owner = row.id
        #: Sockets and requests holding this object: it is not forgotten while any do.
        self.users = 0
        #: What was told but could not be stored (the database failed), stored once it
        #: works again: the seats, that the game is unrated, the finished game.
        self.unstored_seats = False
        self.unstored_unrated = False
        self.unstored_finish: tuple[int, Game, list[StatsDelta]] | None = None

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
            "listed": self.listed,
            "turn_clock": self.clock,
            "rated": self.rated,
            "paused": self.paused(),
            "cannot_save": self.hub.store_failing,
        }

    @property
    def clock(self) -> float:
        """Seconds a person has for a move (0: no clock)."""
        settings = self.hub.settings
        wanted = settings.turn_clock if self.turn_clock is None else self.turn_clock
        return min(wanted, settings.max_turn_clock)

    def unrate(self) -> None:
        """The current game no longer counts in statistics (a move taken back, a hint):
        the statistics are of games played unaided."""
        if self.rated and self.game is not None and not self.game.is_over:
            self.rated = False
            # The pages learn it at once (the statistics dialog says why a game did not count).
            self.broadcast_table()
            self.hub.background(self._store_unrated())

    async def _store_unrated(self) -> None:
        try:
            await self.hub.store(self.hub.storage.mark_unrated, self.id, self.game_number)
        except WebError:
            self.unstored_unrated = True  # stored once the database works again

    def connections(self) -> list[Connection]:
        result = list(self.spectators)
        for seat in self.seats:
            result.extend(seat.connections)
        return result

    def broadcast_table(self) -> None:
        message = {"type": "table", "table": self.summary()}
        for connection in self.connections():
            connection.send(message)

    def _undo_offered(self, seat: Seat) -> bool:
        """Whether an undo would take one of ``seat``'s choices back (worked out again
        only when the seat has acted, an undo was taken or auto play one changed)."""
        assert self.game is not None
        index = seat.index
        key = (self.game_number, self.acted[index], self.undos, seat.auto_play_one)
        known = self._undo_offers.get(index)
        if known is None or known[0] != key:
            known = (key, has_choice_to_undo(self.game, index, seat.auto_play_one))
            self._undo_offers[index] = known
        return known[1]

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
                # What each choice makes of the totals, the J♦ included (public: the
                # scores and the deal's points are everyone's to see).
                "totals": {
                    "others_add": list(game.moon_totals(True)),
                    "shooter_subtracts": list(game.moon_totals(False)),
                },
            }
            if index == game.current_player:
                moon["suggested_others_add"] = game.suggested_moon_choice()
            state["moon"] = moon
        solo = seat is not None and self.is_solo(seat) and not game.is_over
        state["auto_play_one"] = seat.auto_play_one if seat is not None else False
        state["can_undo"] = bool(
            solo and seat is not None and self.acted[seat.index] and self._undo_offered(seat)
        )
        state["can_hint"] = bool(solo)
        state["bot_playing"] = seat.bot_playing if seat is not None else False
        # So that the page can show and say the time left (it was nowhere to be seen).
        state["clock_left"] = None if seat is None else self.clock_left(seat)
        # Public (it follows from the cards played and the rules), so everyone gets it:
        # a client whose "Auto play one" is on must not send a card while it holds.
        state["settled"] = game.points_settled()
        state["memory"] = memory_json(view, index)
        return {
            "type": "state",
            "seq": self.seq,
            "events": [e.for_seat(index) for e in events],
            "state": state,
        }

    def broadcast_state(self, events: list[Event]) -> None:
        if self.game is None:
            return
        self.arm_clock()  # before the states say the time left
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
        # The seed is read as every face reads one (a whole number is dealt as a number).
        # The stored names are in their seats already: shuffled seating is not redone.
        game = Game(
            Rules.from_dict(row.rules), seed=game_seed(row.seed), names=row.names, seated=True
        )
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

    def host_is_here(self) -> bool:
        """Whether the host has the table open (in a tab, or reconnecting now)."""
        return any(seat.host and seat.connections for seat in self.seats)

    def hand_host_on(self) -> None:
        """Between games, a host who left (or stayed away past the takeover delay) hands
        the table to the first person here, so that the others can still start a game.
        The caller broadcasts the table."""
        if self.status == "playing":
            return
        host = next((seat for seat in self.seats if seat.host), None)
        if host is not None and host.kind == "human" and not host.away:
            return
        heir = next(
            (s for s in self.seats if s.kind == "human" and s.connections and not s.away), None
        )
        if heir is None:
            return
        changed = [heir]
        if host is not None:
            host.host = False
            changed.append(host)
        heir.host = True
        self.version += 1
        self.hub.background(self._store_seats([seat.row() for seat in changed]))

    async def _store_seats(self, rows: list[SeatRow]) -> None:
        """Store seats whose change has been told already: when the database fails,
        every seat is stored once it works again."""
        try:
            await self.hub.store(self.hub.storage.update_seats, self.id, rows)
        except WebError:
            self.unstored_seats = True

    def storing_again(self) -> None:
        """The database stores again: store what waited for it, tell the pages (their
        notice goes), and let the bots go on (a driver waiting for it goes on itself)."""
        self.hub.background(self._store_what_waited())
        self.broadcast_table()
        self.kick()

    async def _store_what_waited(self) -> None:
        async with self.lock:
            if self.unstored_seats:
                self.unstored_seats = False
                await self._store_seats([seat.row() for seat in self.seats])
            if self.unstored_unrated and self.game is not None:
                self.unstored_unrated = False
                await self._store_unrated()
            if self.unstored_finish is not None:
                await self._store_finish(*self.unstored_finish)

    def bar_player(self, player_hash: str) -> None:
        """The host removed this player (by its player token's hash): it may watch, not
        take a seat again.  Kept by the hub while the server runs, not stored."""
        self.hub.removed_players.setdefault(self.id, set()).add(player_hash)

    def is_barred(self, player_hash: str) -> bool:
        return player_hash in self.hub.removed_players.get(self.id, ())

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
            # Seeded as every face seeds its computer players, so that the same seed
            # plays the same game here as in the terminal and the plain game.
            seed = bot_seed(game_seed(self.seed), seat.index)
            try:
                seat.bot = make_bot(level, seed=seed)
            except Exception as error:
                log.warning(
                    "table %s: cannot build a %s bot (%s); using random", self.id, level, error
                )
                seat.bot = make_bot("random", seed=seed)
        return seat.bot

    def fill_seat(self, seat: Seat, level: str) -> None:
        seat.kind = "bot"
        seat.level = level
        seat.name = unique_name(
            BOT_NAMES[seat.index % len(BOT_NAMES)],
            [s.name for s in self.seats if s.name and s is not seat],
        )
        seat.token_hash = None
        seat.player_hash = None
        seat.host = False
        seat.bot = None

    async def start(self, abandoning_for: Seat | None = None) -> None:
        """Fill empty seats with bots and start a game (caller holds the lock, then
        calls :meth:`announce_start`).

        :param abandoning_for: the host who gives the game in progress up for a new one,
            which only a game against bots allows (it then counts in no statistics);
            without it a game in progress is an error.
        """
        abandoned = None
        if self.status == "playing":
            if abandoning_for is None:
                raise WebError("started", "the game has already started", 409)
            if not self.is_solo(abandoning_for):
                raise WebError(
                    "not_allowed",
                    "only a game against bots can be given up for a new one: with other "
                    "people at the table, start a new game from the lobby",
                )
            abandoned = self.game_number
        if self.unstored_finish is not None:
            # The last game's end first: the next game would leave it unfinished.
            await self._store_finish(*self.unstored_finish)
            if self.unstored_finish is not None:
                raise WebError("unavailable", NOT_SAVED, 503)
        # Taken back if the start cannot be stored: bots in the free seats, kept in
        # memory alone, left no seat for the people still to come.
        before = [(seat, seat.row(), seat.replaced) for seat in self.seats]
        for seat in self.seats:
            if seat.kind == "empty":
                self.fill_seat(seat, self.level)
        seed = secrets.token_hex(16)
        names = [s.name or f"Player {s.index + 1}" for s in self.seats]
        game = Game(self.rules, seed=game_seed(seed), names=names)
        if list(game.names) != names:
            # Shuffled seating: move each seat (token and all) to where the game put it.
            probe = Game(
                self.rules, seed=game_seed(seed), names=[str(i) for i in range(len(names))]
            )
            order = [int(n) for n in probe.names]
            moved = [self.seats[old] for old in order]
            for index, seat in enumerate(moved):
                seat.index = index
            self.seats = moved
        rows = [replace(seat.row(), helped=False) for seat in self.seats]
        number = self.game_number + 1
        try:
            await self.hub.store(
                self.hub.storage.start_game,
                self.id,
                GameRow(number, seed, self.rules.to_dict(), list(game.names), "playing"),
                rows,
                abandoned,
            )
        except WebError:
            self.seats = [seat for seat, _, _ in before]
            for seat, row, replaced in before:
                seat.restore(row)
                seat.replaced = replaced
            raise
        for seat in self.seats:
            close_bot(seat.bot)
            seat.bot = None
            seat.helped = False
            seat.replaced = False
        self.game = game
        self.seed = seed
        self.acted = [0] * self.rules.players
        self.game_number = number
        self.status = "playing"
        self.rated = True
        self.version += 1

    def announce_start(self, waiting_for: Seat | None = None) -> None:
        """Tell everyone the game has started (seats may have moved), and get going."""
        for connection in self.connections():
            connection.send(self.welcome(connection))
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

    def welcome(self, connection: Connection) -> dict[str, Any]:
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

    async def commit(self, action: Action) -> list[Event]:
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
        except WebError:
            # Taken back: nobody heard of it (the hub has said in the log why).
            game.undo()
            self.version += 1
            raise WebError("unavailable", MOVE_NOT_SAVED, 503) from None
        self.acted[action.seat] += 1
        self.last_active = time.monotonic()
        if game.is_over:
            await self._finish()
        return events

    async def _finish(self) -> None:
        game = self.game
        assert game is not None
        self.status = "finished"
        # A host who left during the game hands the table on now, so that the others
        # can start the next one.
        self.hand_host_on()
        stats = [
            _stats_delta(game, seat, seat.player_hash)
            for seat in self.seats
            if seat.kind == "human" and seat.player_hash and self.rated and not seat.helped
        ]
        await self._store_finish(self.game_number, game, stats)

    async def _store_finish(self, number: int, game: Game, stats: list[StatsDelta]) -> None:
        try:
            await self.hub.store(
                self.hub.storage.finish_game,
                self.id,
                number,
                record.dumps(game),
                list(game.scores),
                stats,
            )
        except WebError:
            # The last action is stored: the end is stored again once the database
            # works, before any next game (a restart finishes it from the actions).
            self.unstored_finish = (number, game, stats)
        else:
            self.unstored_finish = None

    def moved_in_person(self, seat: Seat) -> bool:
        """The person made a move of their own: the clock's count of time-outs starts
        again.  Whether the seats' summary changed: they were overdue (every page was
        told so, and a bot was about to move for them)."""
        was_overdue = seat.overdue
        seat.timeouts, seat.overdue = 0, False
        return was_overdue

    def after_commit(self, events: list[Event], *, seats_changed: bool = False) -> None:
        self.broadcast_state(events)
        if self.status == "finished" or seats_changed:
            # A person who moved while overdue is not any more: the pages said "overdue"
            # until the next change, so the next time-out was never said.
            self.broadcast_table()
        self.kick()

    # The bot driver --------------------------------------------------------------

    def kick(self) -> None:
        """Make sure the driver runs if a bot (or "Auto play one") has something to do,
        and that the turn clock runs for the people to act."""
        self.arm_clock()
        if self.game is None or self.game.is_over or self.hub.closing:
            return
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def abandoned(self) -> bool:
        """Whether every person has been gone for ``abandon_after``: the bots then wait
        (a table nobody watches must not take the server's time) until someone is back."""
        people = [s for s in self.seats if s.kind == "human"]
        if not people or any(s.connections for s in people):
            return False
        return time.monotonic() - self.last_seen > self.hub.settings.abandon_after

    def paused(self) -> bool:
        """Whether the game in progress waits because everyone at the table has gone
        (:meth:`abandoned`): someone watching sees nothing move, and is told why."""
        game = self.game
        return game is not None and not game.is_over and self.abandoned()

    def arm_clock(self) -> bool:
        """Start the turn clock for the people to act now, unless it runs for them
        already: a page connecting, or another move made while passing, started it
        again (more time than the clock, and more than the page showed).  Whether the
        clock changed (started, stopped or started again): the states say the time left."""
        game = self.game
        key: tuple[object, ...] | None = None
        running = game is not None and not game.is_over and self.clock > 0
        if (
            game is not None
            and running
            and not self.hub.closing
            and any(self._on_the_clock(self.seats[i]) for i in game.to_act())
        ):
            # While passing, everyone's clock starts with the deal.
            moves = None if game.phase == PASSING else game.action_count
            key = (self.game_number, game.deal_number, game.phase, moves)
        if key is not None and key == self.clock_key and self.clock_handle is not None:
            return False
        changed = key is not None or self.clock_handle is not None
        if self.clock_handle is not None:
            self.clock_handle.cancel()
            self.clock_handle = None
        self.clock_key = key
        if key is not None:
            loop = asyncio.get_running_loop()
            self.clock_handle = loop.call_later(self.clock, self._time_out, key)
            self.clock_due = loop.time() + self.clock
        return changed

    def _on_the_clock(self, seat: Seat) -> bool:
        # Against bots alone nobody waits: the clock took the seat of a slow player (one
        # reading the table by ear, say) from them, and the game out of the statistics.
        # Nor once every other person has left the table (a bot plays for each).
        return (
            seat.kind == "human"
            and not seat.bot_playing
            and not seat.overdue
            and any(s is not seat and s.kind == "human" and not s.away for s in self.seats)
        )

    def clock_left(self, seat: Seat) -> float | None:
        """Seconds left on the clock running for ``seat``, or None when none runs."""
        game = self.game
        if (
            self.clock_handle is None
            or game is None
            or seat.index not in game.to_act()
            or not self._on_the_clock(seat)
        ):
            return None
        return max(0.0, round(self.clock_due - asyncio.get_running_loop().time(), 1))

    def _time_out(self, key: tuple[object, ...]) -> None:
        """The clock ran out: what that means is decided once the table's lock is free.
        Its handle stays meanwhile, so that the clock armed again for the same turn (by
        another person's pass stored now) does not start afresh."""
        self.hub.background(self._time_out_locked(key))

    async def _time_out_locked(self, key: tuple[object, ...]) -> None:
        """The clock ran out with nothing done: a bot moves for whoever is to act, and
        after ``timeouts_to_bot`` such moves in a row keeps the seat until they act.

        Under the lock: a move made in time may still be being stored, already made in
        memory, and the next person to act is not the one whose time ran out (they lost
        a turn they never had).  Once it is stored, a clock runs for the turn it made."""
        async with self.lock:
            game = self.game
            if key != self.clock_key or game is None or game.is_over:
                return
            self.clock_handle = None
            self.clock_key = None
            for index in game.to_act():
                seat = self.seats[index]
                if self._on_the_clock(seat):
                    seat.overdue = True
                    seat.timeouts += 1
                    if seat.timeouts >= self.hub.settings.timeouts_to_bot:
                        seat.away = True
            self.broadcast_table()
        self.kick()

    def _automatic(self) -> tuple[Seat, str] | None:
        """The next seat to be moved for, and how: ``bot`` or ``auto`` ("Auto play one")."""
        game = self.game
        if game is None or game.is_over:
            return None
        if self.abandoned():
            return None
        for index in game.to_act():
            seat = self.seats[index]
            if seat.bot_playing or seat.overdue:
                return seat, "bot"
            if seat.kind == "human" and seat.auto_play_one and forced(game, auto=True):
                return seat, "auto"
        return None

    def _situation(self, index: int) -> tuple[object, ...]:
        """What a decision for seat ``index`` depends on: while passing, the seat's hand
        and whether it has still to pass (the others pass at the same time); otherwise
        the whole position."""
        game = self.game
        assert game is not None
        deal = game.deal
        if game.phase == PASSING:
            return (self.game_number, deal.deal_number, deal.hands[index], deal.passes[index])
        return (self.game_number, game.action_count, deal.key())

    def _with_picks(self, seat: Seat, action: Action) -> Action:
        """A pass made for a person keeps the cards they had picked (the clock ran out
        while they chose), and the bot's choice makes up the rest."""
        game = self.game
        if not isinstance(action, Pass) or seat.picks is None or game is None:
            return action
        (number, deal_number), picked = seat.picks
        if (number, deal_number) != (self.game_number, game.deal_number):
            return action
        picked &= game.deal.hands[seat.index]
        # The bot's highest cards first: a set does not keep the bot's order of choice.
        rest = sorted(
            (card for card in action.cards if card not in picked),
            key=lambda card: card.rank,
            reverse=True,
        )
        extra = CardSet(rest[: game.rules.cards_passed - len(picked)])
        return Pass(seat.index, picked | extra)

    async def _drive(self) -> None:
        try:
            await self._drive_steps()
        except Exception:
            # Said at once: a task's exception is otherwise reported only when the task
            # is collected, and a table whose driver died waits for a move nobody makes.
            log.exception("table %s: the bot driver failed", self.id)
        finally:
            self.hub.maybe_evict(self, idle=True)

    async def _drive_steps(self) -> None:
        # A move decided but not stored (the database failed): made again, unchanged,
        # once the database stores, unless the game moved on meanwhile.  The bot is not
        # asked again: its play would depend on when the database came back.
        unstored: _Move | None = None
        while not self.hub.closing:
            step = self._automatic()
            if step is None:
                return
            seat = step[0]
            move: _Move | None
            if (
                unstored is not None
                and unstored.step == step
                and unstored.asked == self._situation(seat.index)
            ):
                move = unstored
            else:
                move = await self._decide(step)
            unstored = None
            if move is None:
                continue
            async with self.lock:
                if self._situation(seat.index) != move.asked or self._automatic() != step:
                    # The game moved on while the bot was thinking.  Only a change to
                    # this seat's own situation counts: another seat's pass or a person
                    # connecting leaves the decision as good as it was, and asking again
                    # would make the bots' play depend on timing.
                    continue
                try:
                    await self._make(move)
                except WebError as error:
                    if error.code != "unavailable":
                        raise
                    unstored = move
            if unstored is not None:
                # Waited for with the lock free: a spectator's hello, a person's move or
                # a chat line at this table are answered meanwhile.
                await self.hub.store_works.wait()

    async def _decide(self, step: tuple[Seat, str]) -> _Move | None:
        """The driver's next move for ``step``'s seat, after the bot's delay (or "Auto
        play one"'s pause); None when the game changed during the delay."""
        seat, how = step
        version = self.version
        if how == "bot":
            delay = self.hub.settings.bot_delay
        else:
            # A forced card must not be told apart from a chosen one by its timing:
            # it waits a random while, as a person would, never a fixed delay.
            delay = random.uniform(0, self.hub.settings.auto_delay)
        if delay > 0:
            await asyncio.sleep(delay)
            if self.version != version:
                return None
        game = self.game
        assert game is not None
        asked = self._situation(seat.index)
        if how == "auto":
            card = game.auto_play_card()
            assert card is not None  # the game has not moved since _automatic said so
            return _Move(step, asked, Play(seat.index, card), AutoPlay.now(game))
        view = game.view(seat.index)
        bot = self._bot_for(seat)
        # The faulty-bot policy of every face (openhearts.session.driver): a bot that
        # fails or answers something illegal is played for at random this once, and a
        # random player takes its seat for the rest of the game (:meth:`_make`).
        decision = await self.hub.bot_work.run(self.owner, self.id, decide, bot, view)
        return _Move(
            step,
            asked,
            self._with_picks(seat, decision.action),
            FOR_YOU if seat.kind == "human" else None,
            view=view,
            bot=bot,
            problem=decision.problem,
        )

    async def _make(self, move: _Move) -> None:
        """Store and tell the driver's move (caller holds the lock).  Raises
        :class:`WebError` ``unavailable`` when it could not be stored: nothing changed
        but the faulty bot's replacement, which ``move`` remembers to tell."""
        seat, how = move.step
        if move.problem is not None and seat.bot is move.bot:
            # Not when the bot was closed meanwhile (a new game began): its own failure
            # then is only its program being stopped.  The problem's text may name the
            # bot's cards: the log leaves it out, and so does what the table is told.
            log.warning(
                "table %s: the bot in seat %d failed; a random player takes over",
                self.id,
                seat.index,
            )
            close_bot(move.bot)
            seat.bot = make_bot("random", seed=bot_seed(game_seed(self.seed), seat.index))
            seat.replaced = True
            move.replaced = True
        newly_helped = how == "bot" and seat.kind == "human" and not seat.helped
        try:
            events = await self.commit(move.action)
        except IllegalActionError:
            log.warning("table %s: the bot chose an illegal action", self.id)
            assert move.view is not None  # only a bot's choice can be illegal
            move.action = fallback_action(move.view)
            events = await self.commit(move.action)
        if newly_helped:
            # The computer moved for the person: their game no longer counts as theirs
            # in the statistics (as a hint or an undo does for everyone), after a
            # restart too.
            seat.helped = True
            await self._store_seats([seat.row()])
        if move.reason is not None:
            _mark_auto(events, seat.index, move.reason)
        if move.replaced:
            # Said before the move the random player made, as every face says it.
            events.insert(0, Event({"event": "bot_replaced", "seat": seat.index}))
        # The seats' summary says "overdue" until the move is made for them: it stayed
        # so (and a second time-out went unsaid) when only the state went.
        was_overdue, seat.overdue = seat.overdue, False
        self.broadcast_state(events)
        if self.status == "finished" or was_overdue or newly_helped or move.replaced:
            self.broadcast_table()
        self.arm_clock()

    # Seats coming and going ------------------------------------------------------

    def attach(self, connection: Connection, seat: Seat | None) -> None:
        # Only people at the table count for abandoning it: someone watching does not
        # set its bots playing again.
        if seat is not None:
            self.last_seen = time.monotonic()
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
        self.hand_host_on()

    def detach(self, connection: Connection) -> None:
        seat = connection.seat
        if seat is not None:
            self.last_seen = time.monotonic()
        if seat is None:
            self.spectators.discard(connection)
        else:
            seat.connections.discard(connection)
            if not seat.connections and seat.kind == "human":
                self.schedule_takeover(seat)
            if not any(s.connections for s in self.seats):
                self.say_when_paused()
        self.broadcast_table()
        self.hub.maybe_evict(self)

    def say_when_paused(self) -> None:
        """Tell anyone watching once the game pauses (``abandon_after`` past
        :attr:`last_seen`, if nobody is back): the bots stop then, and nothing else would
        say why."""
        wait = self.last_seen + self.hub.settings.abandon_after - time.monotonic()
        asyncio.get_running_loop().call_later(max(0.0, wait) + 0.1, self._say_if_paused)

    def _say_if_paused(self) -> None:
        if self.paused() and self.spectators:
            self.broadcast_table()

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
        self.hand_host_on()
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
        self.hand_host_on()
        self.broadcast_table()
        if self.game is not None and not self.game.is_over:
            self.broadcast_state([])
        self.kick()
