"""The handlers of the messages a client sends over its WebSocket, one per ``type``."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from ..bots import make_bot
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
from .botwork import close_bot
from .connection import Connection
from .protocol import CHAT_CHARS, MAX_SPECTATORS, TOKEN_RE, WebError, now_text
from .seat import Seat
from .storage import (
    token_hash,
)
from .table import Table, forced
from .views import Event

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["COMING_BACK", "HANDLERS", "Handler", "hint_of"]

log = logging.getLogger("openhearts.web")


Handler = Callable[["Hub", Connection, Table, dict[str, Any]], Awaitable[None]]


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
        connection.send(table.welcome(connection))
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
            if action.seat == seat.index and not forced(game, auto=seat.auto_play_one):
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
                hub.bot_pool, hint_of, view, hub.settings.hint_budget
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


def hint_of(view: PlayerView, budget: int | None) -> dict[str, Any]:
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
                close_bot(bot)
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
            table.fill_seat(seat, level)
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
