"""The handlers of the messages a client sends over its WebSocket, one per ``type``."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, NoReturn

from ..cards import Card, CardSet
from ..game import (
    MOON_CHOICE,
    PASSING,
    Game,
    MoonChoice,
    Pass,
    Play,
)
from ..session.checks import (
    moon_problem,
    no_hint_now,
    not_now,
    pass_problem,
    picks_problem,
    play_problem,
)
from ..session.names import JOINERS
from ..session.undo import UndoError, undo_last_choice
from .connection import Connection
from .hints import hint_json
from .protocol import CHAT_CHARS, WebError, now_text
from .seat import Seat
from .storage import (
    token_hash,
)
from .table import Table
from .views import undone_event

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["COMING_BACK", "HANDLERS", "Handler"]

log = logging.getLogger("openhearts.web")


Handler = Callable[["Hub", Connection, Table, Any], Awaitable[None]]


def _ack(connection: Connection, message: Any) -> None:
    connection.send({"type": "ack", "id": message.id, "for": message.type})


def _seated(connection: Connection) -> Seat:
    if connection.seat is None:
        raise WebError("not_seated", "spectators cannot act")
    return connection.seat


def _game(table: Table, over: str = "The game is over.") -> Game:
    if table.game is None or table.status == "waiting":
        raise WebError("no_game", "The game has not started.")
    if table.game.is_over or table.status == "finished":
        raise WebError("game_over", over)
    return table.game


def _my_turn(table: Table, seat: Seat) -> Game:
    """The game, when ``seat`` is to act; else refused in the words of every face
    (:mod:`openhearts.session.checks`)."""
    game = _game(table)
    if seat.index not in game.to_act():
        raise WebError("not_your_turn", not_now(game.view(seat.index)))
    return game


def _fresh(table: Table, game: Game, seen: int) -> None:
    """Refuse an action that answers an older position than the game's (a second tab,
    a repeated click): ``seen`` is the action count the client was shown.  Passes are
    made at the same time, so another seat's pass does not make one stale."""
    first = table.seq
    if game.phase == PASSING:
        first -= game.rules.players - len(game.to_act())
    if not first <= seen <= table.seq:
        _stale(seen, table.seq)


def _fresh_turn(table: Table, seat: Seat, seen: int) -> Game:
    """The game, when it is ``seat``'s turn in the position the client was shown: an
    action answering an older position is stale before it is out of turn (a second
    tab that missed the first tab's move is told to look again)."""
    _fresh(table, _game(table), seen)
    return _my_turn(table, seat)


def _stale(seen: int, now: int) -> NoReturn:
    raise WebError("stale", f"that answers move {seen}, but the game is at move {now}: look again")


async def _hello(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    if connection.greeted:
        raise WebError("bad_message", "you have already said hello")
    hub.limits.check("hello", connection.address)
    token = message.token
    seat: Seat | None = None
    async with table.lock:
        if token is not None:
            wanted = token_hash(token)
            for candidate in table.seats:
                if candidate.token_hash and hmac.compare_digest(candidate.token_hash, wanted):
                    seat = candidate
                    break
            if seat is None:
                raise WebError("bad_token", "that token holds no seat at this table")
        elif len(table.spectators) >= hub.settings.max_spectators:
            raise WebError("full", "too many people are watching this table")
        elif (
            sum(1 for c in table.spectators if c.address == connection.address)
            >= hub.settings.spectators_per_address
        ):
            # One address may not take every place in the audience.
            raise WebError(
                "full",
                "too many pages are watching this table from your network "
                f"({hub.settings.spectators_per_address} at most): close one, then load "
                "this page again",
            )
        table.attach(connection, seat)
        # A person back starts the clock, for their own turn or for the person to act who
        # has someone to wait for again: the states say so (the pages showed no clock).
        clock_changed = table.arm_clock()
        connection.send(table.welcome(connection))
        if table.game is not None:
            if clock_changed:
                table.broadcast_state([])
            else:
                connection.send(table.state_message(seat, []))
        table.broadcast_table()
    table.kick()


async def _ping(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    connection.send({"type": "pong", "id": message.id})


async def _pass(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    chosen = [Card.parse(c) for c in message.cards]
    async with table.lock:
        game = _game(table)
        _fresh(table, game, message.seq)
        # The pass's own refusals ("You have already passed.") before the turn's.
        problem = pass_problem(game.view(seat.index), chosen)
        if problem is not None:
            code = "illegal" if seat.index in game.to_act() else "not_your_turn"
            raise WebError(code, problem)
        events = await table.commit(Pass(seat.index, CardSet(chosen)))
        changed = table.moved_in_person(seat)
        _ack(connection, message)
        table.after_commit(events, seats_changed=changed)


async def _picks(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    chosen = [Card.parse(c) for c in message.cards]
    async with table.lock:
        game = _game(table)
        problem = picks_problem(game.view(seat.index), chosen)
        if problem is not None:
            raise WebError("illegal", problem)
        seat.picks = ((table.game_number, game.deal_number), CardSet(chosen))
        _ack(connection, message)


async def _play(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    card = Card.parse(message.card)
    async with table.lock:
        game = _fresh_turn(table, seat, message.seq)
        if game.phase == MOON_CHOICE:
            raise WebError("illegal", "Choose how to score the moon first.")
        problem = play_problem(game.view(seat.index), card, game.why_illegal(card))
        if problem is not None:
            raise WebError("illegal", problem)
        events = await table.commit(Play(seat.index, card))
        changed = table.moved_in_person(seat)
        _ack(connection, message)
        table.after_commit(events, seats_changed=changed)


async def _moon(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    async with table.lock:
        game = _fresh_turn(table, seat, message.seq)
        problem = moon_problem(game.view(seat.index))
        if problem is not None:
            raise WebError("illegal", problem)
        events = await table.commit(MoonChoice(seat.index, message.others_add))
        changed = table.moved_in_person(seat)
        _ack(connection, message)
        table.after_commit(events, seats_changed=changed)


async def _undo(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    async with table.lock:
        game = _game(table, "The game is over: there is nothing to undo.")
        if not table.is_solo(seat):
            raise WebError("not_allowed", "Undo is only for games against computer players.")
        if message.seq > table.seq:
            _stale(message.seq, table.seq)
        # The session core's undo: back to the person's last real choice (a card "Auto
        # play one" played was none), with everything the bots did after it.
        try:
            undone = undo_last_choice(game, seat.index, seat.auto_play_one)
        except UndoError as error:
            raise WebError("nothing_to_undo", str(error)) from None
        # Bots that moved after the page's last state do not make the undo stale: it
        # still takes back the same choice.  A choice the page had not yet been shown
        # (a second tab's) does, and so does a repeated click, whose action count lies
        # beyond the game's once the first undo is done.
        popped = list(undone.actions)
        if game.action_count >= message.seq:
            for action in reversed(popped):
                game.apply(action)
            _stale(message.seq, table.seq)
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
        table.undos += 1
        table.unrate()
        _ack(connection, message)
        table.broadcast_state([undone_event(undone)])
        # What follows an undo may be the bots' or "Auto play one"'s to play (a card
        # the person could only play again): the driver must look.
        table.kick()


async def _hint(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    async with table.lock:
        game = _game(table)
        if not table.is_solo(seat):
            raise WebError("not_allowed", "Hints are only for games against computer players.")
        if seat.index not in game.to_act():
            raise WebError("not_your_turn", no_hint_now(game.view(seat.index)))
        view = game.view(seat.index)
        seed = game.seed
        seq = table.seq
    request_id = message.id
    if connection.hinting:
        raise WebError("busy", "a hint is already being worked out")
    hub.limits.check("hint", connection.address)
    table.unrate()
    connection.hinting = True

    async def work() -> None:
        # Thought about aside, so the player may go on sending messages meanwhile.
        try:
            answer = await hub.bot_work.run(
                connection.address, table.id, hint_json, view, seed, hub.settings.hint_budget
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


async def _auto(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    value = message.play_one
    async with table.lock:
        if seat.auto_play_one != value:
            # Stored first: a setting the database refused is not changed.
            await hub.store(
                hub.storage.update_seats, table.id, [replace(seat.row(), auto_play_one=value)]
            )
            seat.auto_play_one = value
            table.version += 1
        _ack(connection, message)
        if table.game is not None:
            # Taking the seat back from a bot starts the clock (at one's turn, or for the
            # person to act, who has someone to wait for again): the states say so.
            if table.arm_clock():
                table.broadcast_state([])
            else:
                for other in seat.connections:
                    other.send(table.state_message(seat, []))
    table.kick()


def _host(connection: Connection) -> Seat:
    seat = _seated(connection)
    if not seat.host:
        raise WebError("not_host", "only the table's host may do that")
    return seat


async def _fill(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    _host(connection)
    wanted = message.seat
    level = table.level if message.level is None else message.level
    if level not in hub.levels:
        raise WebError("bad_message", f"level: choose one of {', '.join(hub.levels)}")
    async with table.lock:
        if table.status == "playing":
            raise WebError("started", "the game has started")
        if wanted is None:
            targets = [s for s in table.seats if s.kind == "empty"]
        else:
            if not wanted < len(table.seats):
                raise WebError("bad_message", f"seat: 0 to {len(table.seats) - 1}")
            if table.seats[wanted].kind != "empty":
                raise WebError("bad_message", "that seat is not free")
            targets = [table.seats[wanted]]
        for seat in targets:
            table.fill_seat(seat, level)
        try:
            await hub.store(hub.storage.update_seats, table.id, [s.row() for s in targets])
        except Exception:
            for seat in targets:
                seat.kind, seat.name, seat.level = "empty", None, None
            raise
        _ack(connection, message)
        table.broadcast_table()


async def _clear(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    _host(connection)
    wanted = message.seat
    async with table.lock:
        if table.status == "playing":
            raise WebError("started", "the game has started")
        if not wanted < len(table.seats) or table.seats[wanted].kind != "bot":
            raise WebError("bad_message", "there is no bot in that seat")
        seat = table.seats[wanted]
        # Stored first: a seat the database did not free keeps its bot.
        await hub.store(hub.storage.update_seats, table.id, [seat.emptied()])
        seat.empty()
        _ack(connection, message)
        table.broadcast_table()


async def _remove(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    """The host frees a seat a person took, before the game starts (a stranger who
    took a friend's place, say); that person's seat token no longer holds it."""
    host = _host(connection)
    async with table.lock:
        if table.status == "playing":
            raise WebError("started", "the game has started")
        if not message.seat < len(table.seats) or table.seats[message.seat].kind != "human":
            raise WebError("bad_message", "there is no person in that seat")
        seat = table.seats[message.seat]
        if seat is host:
            raise WebError("bad_message", "the host cannot remove themself: leave instead")
        if seat.player_hash is not None:
            table.bar_player(seat.player_hash)
        for other in await _free(hub, table, seat):
            # No longer the seat's: a message of theirs read before the close takes
            # effect must not act for whoever sits down next.
            other.seat = None
            other.error("removed", "the host removed you from this table: you can watch it")
            other.close()
        _ack(connection, message)
        table.broadcast_table()


async def _free(hub: Hub, table: Table, seat: Seat) -> list[Connection]:
    """Empty a person's seat before the start; the connections it had, for the caller
    to close or keep as spectators."""
    # Stored first: a seat the database did not free stays its person's.
    await hub.store(hub.storage.update_seats, table.id, [seat.emptied()])
    if seat.takeover is not None:
        seat.takeover.cancel()
        seat.takeover = None
    seat.empty()
    gone = list(seat.connections)
    seat.connections.clear()
    return gone


async def _list(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    """The host shows the table in the public list (or hides it again)."""
    _host(connection)
    async with table.lock:
        if table.listed != message.listed:
            await hub.store(hub.storage.set_listed, table.id, message.listed)
            table.listed = message.listed
        _ack(connection, message)
        table.broadcast_table()


async def _start(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _host(connection)
    async with table.lock:
        await table.start(abandoning_for=seat if message.abandon else None)
        _ack(connection, message)
        table.announce_start()
        table.broadcast_table()


async def _leave(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    async with table.lock:
        if message.seat_only and table.status != "waiting":
            # The give-up crossed the host's start: the seat stays the player's, played.
            raise WebError("started", "the game has started: your seat is kept")
        if message.seat_only and seat.host:
            # The give-up crossed the table passing to them (the host left): it had not
            # started, whatever the refusal said.
            raise WebError(
                "started",
                "you are the host now: your seat is kept (the host starts the game, "
                "or leaves the table)",
            )
        if table.status == "waiting" and not seat.host:
            # Before the start a guest gives the seat up (only the host's "remove" freed
            # it, and barred them): free for anyone, them included, and they watch.
            for other in await _free(hub, table, seat):
                other.seat = None
                table.spectators.add(other)
            _ack(connection, message)
            table.broadcast_table()
            return
        _ack(connection, message)
        table.leave(seat)


async def _chat(hub: Hub, connection: Connection, table: Table, message: Any) -> None:
    seat = _seated(connection)
    kept = "".join(ch if ch.isprintable() or ch in JOINERS else " " for ch in message.text)
    cleaned = " ".join(kept.split())[:CHAT_CHARS]
    if not cleaned:
        raise WebError("bad_message", "text: say something")
    # Acknowledged like an action, so that a client can tell its line from a refused one.
    _ack(connection, message)
    line = {
        "type": "chat",
        "seat": seat.index,
        "name": seat.name,
        "text": cleaned,
        "time": now_text(),
    }
    for other in table.connections():
        other.send(line)


#: Messages by which a player who left comes back.
COMING_BACK: Final = frozenset({"pass", "play", "moon", "undo", "auto", "start", "fill", "clear"})

HANDLERS: dict[str, Handler] = {
    "hello": _hello,
    "ping": _ping,
    "pass": _pass,
    "picks": _picks,
    "play": _play,
    "moon": _moon,
    "undo": _undo,
    "hint": _hint,
    "auto": _auto,
    "fill": _fill,
    "clear": _clear,
    "remove": _remove,
    "list": _list,
    "start": _start,
    "leave": _leave,
    "chat": _chat,
}
