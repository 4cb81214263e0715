"""``hearts serve``: the web game server (Starlette on uvicorn, WebSockets).

Routes and messages are described in ``docs/web-protocol.md``.  The page and its
files ship inside the package (``openhearts/web/static``), so serving needs no build
step and no network access.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import logging
import math
import os
import socket
import sys
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..bots import add_level, level_note
from ..extras import missing_extra_message
from ..options import (
    add_rules_arguments,
    integer,
    number,
    parse_option,
    rules_from_args,
    whole_number,
)
from ..rules import (
    PRESET_SOURCES,
    PRESETS,
    FirstTrick,
    HeartsBreak,
    MoonScoring,
    Rules,
    RulesError,
    Seating,
)
from . import keys, review
from .botwork import close_bot
from .connection import Connection
from .exposure import LOOPBACK_NAMES, add_exposure_arguments, exposure_settings
from .guard import ADDRESS_KEY, Guard
from .hub import Hub
from .protocol import (
    CHAT_CHARS,
    MAX_CARDS_PASSED,
    MAX_END_SCORE,
    MAX_REFUSALS,
    MESSAGE_BYTES,
    PROTOCOL,
    TOKEN_RE,
    WebError,
    error_response,
)
from .schema import CreateTable, JoinTable, parse_body, rules_of_stored
from .settings import Settings
from .storage import Storage, StorageError, default_database_url, token_hash
from .table import Table
from .views import NAME_CHARS

__all__ = ["add_arguments", "run", "create_app", "static_dir"]

log = logging.getLogger("openhearts.web")

#: Largest WebSocket frame uvicorn reads at all; between this and MESSAGE_BYTES a
#: message gets a ``too_large`` reply.
WS_MAX_BYTES = 65536
#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 30.0

FALLBACK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OpenHearts</title></head>
<body><h1>OpenHearts</h1><p>The server is running, but the page's files are missing from
this installation (openhearts/web/static/index.html).</p></body></html>
"""

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such page · OpenHearts</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="panel"><h1>No such page</h1>
<p>This address leads nowhere on this server. <a href="/">Go to the lobby</a> to play.</p>
</main></body></html>
"""


def _wants_page(request: Request) -> bool:
    """A browser opening an address (not the API, not a file of the page's)."""
    path = request.url.path
    if path.startswith(("/api/", "/static/")):
        return False
    return "text/html" in request.headers.get("accept", "")


def static_dir() -> Path:
    """The directory of the page's files inside the installed package."""
    return Path(str(resources.files("openhearts.web") / "static"))


# HTTP ---------------------------------------------------------------------------------


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _quiet_sockets(record: logging.LogRecord) -> bool:
    """Leave out the routine lines of every WebSocket (``--log-level debug`` keeps them)."""
    if record.levelno > logging.INFO:
        return True
    text = str(record.msg)
    return not ('"WebSocket ' in text or text in ("connection open", "connection closed"))


#: The error codes of the HTTP errors Starlette raises itself (no route, wrong method).
_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, error: Exception) -> Response:
    """Starlette's own errors in the API's form: ``{"error": ..., "message": ...}`` (a
    browser asking for a page that is not there gets a page saying so)."""
    assert isinstance(error, HTTPException)
    # A mistyped address in a browser got a line of JSON: a page, with the way back.
    if error.status_code == 404 and _wants_page(request):
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
    code = _HTTP_CODES.get(error.status_code, "http_error")
    message = {404: "there is no such page", 405: f"{request.method} is not allowed here"}.get(
        error.status_code, str(error.detail)
    )
    return JSONResponse(
        {"error": code, "message": message},
        status_code=error.status_code,
        headers=dict(error.headers or {}),
    )


async def _body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MESSAGE_BYTES):
        raise WebError("too_large", f"a request body is at most {MESSAGE_BYTES} bytes", 413)
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MESSAGE_BYTES:
            raise WebError("too_large", f"a request body is at most {MESSAGE_BYTES} bytes", 413)
    return data


async def page(request: Request) -> Response:
    index = static_dir() / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})
    return HTMLResponse(FALLBACK_PAGE)


async def table_page(request: Request) -> Response:
    return await page(request)


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


def _options_schema() -> dict[str, Any]:
    def choice(kind: Any) -> dict[str, Any]:
        return {"type": "choice", "choices": [member.value for member in kind]}

    return {
        "end_score": {"type": "int", "min": 1, "max": MAX_END_SCORE},
        "moon": choice(MoonScoring),
        "first_trick": choice(FirstTrick),
        "hearts_break": choice(HeartsBreak),
        "sun": {"type": "bool"},
        "jack_of_diamonds": {"type": "bool"},
        "seating": choice(Seating),
        "direction": {"type": "choice", "choices": ["clockwise", "counterclockwise"]},
        "cards_passed": {"type": "int", "min": 0, "max": MAX_CARDS_PASSED},
    }


async def config(request: Request) -> Response:
    hub = _hub(request)
    presets = []
    # The server's own preset is described with its operator's options (`-o`), as the
    # form starts with them: it said "reaches 100" of tables that end at 30.
    served = hub.served_options()

    def described(name: str, players: int) -> list[str]:
        if name == hub.settings.default_preset:
            with contextlib.suppress(RulesError, TypeError, ValueError):
                return Rules.preset(name, players=players, **served).describe()
        return Rules.preset(name, players=players).describe()

    for name in PRESETS:
        try:
            rules = Rules.preset(name)
        except RulesError:
            continue
        by_players: dict[str, list[str]] = {}
        for players in range(3, 7):
            with contextlib.suppress(RulesError):
                by_players[str(players)] = described(name, players)
        presets.append(
            {
                "name": name,
                "description": PRESET_SOURCES.get(name, ""),
                "rules": rules.to_dict(),
                "players": [int(players) for players in by_players],
                "describe": described(name, rules.players),
                # The lobby shows the rules for the number of players chosen.
                "describe_by_players": by_players,
            }
        )
    settings = hub.settings
    return JSONResponse(
        {
            "protocol": PROTOCOL,
            "presets": presets,
            "options": _options_schema(),
            "levels": hub.levels,
            "level_notes": {level: level_note(level) for level in hub.levels},
            "default_level": settings.default_level,
            "default_preset": settings.default_preset,
            "default_players": settings.default_players,
            "default_options": settings.default_options,
            "limits": {
                "message_bytes": MESSAGE_BYTES,
                "name_chars": NAME_CHARS,
                "chat_chars": CHAT_CHARS,
            },
        }
    )


def _seat_answer(table: Table, seat_index: int, token: str, player_token: str) -> dict[str, Any]:
    return {
        "table_id": table.id,
        "seat": seat_index,
        "token": token,
        "player_token": player_token,
        "url": table.url,
        "table": table.summary(),
    }


def _address(request: Request | WebSocket) -> str:
    address: str = request.scope.get(ADDRESS_KEY, "unknown")
    return address


async def play_now(request: Request) -> Response:
    return await _create(request, play_now=True)


async def create_table(request: Request) -> Response:
    return await _create(request, play_now=False)


async def _create(request: Request, *, play_now: bool) -> Response:
    hub = _hub(request)
    try:
        body = parse_body(CreateTable, await _body(request))
        address = _address(request)
        hub.limits.check("create", address)
        table, seat, token, player_token = await hub.create_table(
            body, play_now=play_now, address=address
        )
    except WebError as error:
        return error_response(error)
    return JSONResponse(_seat_answer(table, seat.index, token, player_token), status_code=201)


async def list_tables(request: Request) -> Response:
    hub = _hub(request)
    # Only the host can start a table, so one whose host has gone could never start: the
    # tables listed are those in memory whose host is here, with a free seat, newest
    # first (taken from the database's newest, old open tables were crowded out by new
    # abandoned ones).
    open_tables = [
        table
        for table in hub.tables.values()
        if table.listed
        and table.status == "waiting"
        and table.host_is_here()
        and any(seat.kind == "empty" for seat in table.seats)
    ]
    open_tables.sort(key=lambda table: table.created, reverse=True)
    return JSONResponse({"tables": [table.summary() for table in open_tables[:50]]})


async def get_table(request: Request) -> Response:
    try:
        table = await _hub(request).existing(request.path_params["table_id"])
    except WebError as error:
        return error_response(error)
    return JSONResponse(table.summary())


async def join_table(request: Request) -> Response:
    hub = _hub(request)
    try:
        body = parse_body(JoinTable, await _body(request))
        hub.limits.check("join", _address(request))
        table, seat, token, player_token = await hub.join(request.path_params["table_id"], body)
    except WebError as error:
        return error_response(error)
    return JSONResponse(_seat_answer(table, seat.index, token, player_token))


async def game_record(request: Request) -> Response:
    hub = _hub(request)
    table_id = request.path_params["table_id"]
    try:
        await hub.existing(table_id)
    except WebError as error:
        return error_response(error)
    number = request.path_params["number"]
    if not (number.isascii() and number.isdigit() and len(number) <= 9):
        return error_response(WebError("no_game", "there is no such game", 404))
    found = await hub.read(hub.storage.game_record, table_id, int(number))
    if found is None:
        return error_response(WebError("no_game", "there is no such game", 404))
    status, text = found
    if status != "finished" or not text:
        # A record holds every hand: never while the game is being played, nor of a
        # game given up (its hands were never all shown).
        if status == "abandoned":
            return error_response(
                WebError("abandoned", "the game was given up: it has no record", 404)
            )
        return error_response(WebError("in_progress", "the game is not over yet", 404))
    return Response(text, media_type="application/json")


async def stats(request: Request) -> Response:
    hub = _hub(request)
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN_RE.match(token):
        return error_response(
            WebError("bad_token", "send Authorization: Bearer <player token>", 401)
        )
    found = await hub.read(hub.storage.stats, token_hash(token))
    empty = {
        "name": None,
        "games": 0,
        "wins": 0,
        "deals": 0,
        "points": 0,
        "moons": 0,
        "suns": 0,
        "best": None,
        "average": None,
    }
    return JSONResponse(found or empty)


# WebSocket ----------------------------------------------------------------------------


async def _writer(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's outbox in order; stop at ``None`` (close)."""
    try:
        while True:
            text = await connection.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        pass
    finally:
        connection.closed = True
        # A client that stopped reading would never take the close frame either.
        if websocket.application_state == WebSocketState.CONNECTED and not (
            connection.dropped.is_set()
        ):
            with contextlib.suppress(Exception):
                await websocket.close(code=connection.close_code)


async def _receive(
    websocket: WebSocket, connection: Connection, timeout: float | None
) -> Message | None:
    """The client's next message; None when ``timeout`` ran out first or the client was
    dropped for not reading (it may never send anything again: waiting only on its
    messages would keep it at the table for ever)."""
    receiving = asyncio.ensure_future(websocket.receive())
    dropped = asyncio.ensure_future(connection.dropped.wait())
    try:
        await asyncio.wait(
            (receiving, dropped), timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
    except BaseException:
        receiving.cancel()
        raise
    finally:
        dropped.cancel()
    if not receiving.done() or connection.dropped.is_set():
        receiving.cancel()
        return None
    return receiving.result()


async def live_table(websocket: WebSocket) -> None:
    hub = _hub(websocket)
    address = _address(websocket)
    if not hub.limits.allow("connect", address) or not hub.limits.open_socket(address):
        # Refused before the handshake: the browser sees the connection fail.
        await websocket.close(code=1008, reason="rate_limited")
        return
    try:
        await _live_table(websocket, hub, address)
    finally:
        hub.limits.close_socket(address)


async def _live_table(websocket: WebSocket, hub: Hub, address: str) -> None:
    await websocket.accept()
    try:
        table = await hub.get(websocket.path_params["table_id"])
    except WebError as error:
        # Not "no_table": the page would forget its seat.  Closed as "try again later";
        # the page reconnects.
        await websocket.send_text(
            json.dumps({"type": "error", "id": None, "code": error.code, "message": error.message})
        )
        await websocket.close(code=1013)
        return
    if table is None:
        await websocket.send_text(
            json.dumps(
                {"type": "error", "id": None, "code": "no_table", "message": "no such table"}
            )
        )
        await websocket.close(code=1008)
        return
    # No await between getting the table and holding it: it cannot be forgotten meanwhile.
    table.users += 1
    connection = Connection(hub.settings.message_rate, hub.settings.message_burst)
    connection.address = address
    writer = asyncio.create_task(_writer(websocket, connection))
    loop = asyncio.get_running_loop()
    opened = loop.time()
    try:
        while not connection.closed:
            timeout = None
            if not connection.greeted:
                timeout = max(0.1, HELLO_TIMEOUT - (loop.time() - opened))
            message = await _receive(websocket, connection, timeout)
            if message is None:
                if not connection.dropped.is_set():
                    connection.error("no_hello", "say hello first")
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                if len(raw) > MESSAGE_BYTES:
                    hub.refuse(
                        connection, "too_large", f"a message is at most {MESSAGE_BYTES} bytes"
                    )
                else:
                    try:
                        text = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        hub.refuse(connection, "bad_message", "a message is UTF-8 JSON text")
            if text is None:
                pass
            elif len(text) > MESSAGE_BYTES or len(text.encode("utf-8")) > MESSAGE_BYTES:
                hub.refuse(connection, "too_large", f"a message is at most {MESSAGE_BYTES} bytes")
            else:
                await hub.handle(connection, table, text)
            if connection.refused > MAX_REFUSALS:
                # Still flooding after many refusals: hang up, once the answers already
                # due (and the refusals that say why) have been sent.
                connection.close(code=1008)
                break
    except WebSocketDisconnect:
        pass
    finally:
        connection.close()
        table.users -= 1
        if connection.greeted:
            table.detach(connection)
        else:
            hub.maybe_evict(table)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 2)


# The application ----------------------------------------------------------------------


def create_app(storage: Storage, settings: Settings | None = None) -> Starlette:
    """The ASGI application; tests build one around their own storage."""
    hub = Hub(storage, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.startup()
        try:
            yield
        finally:
            await hub.shutdown()

    routes = [
        Route("/", page),
        Route("/t/{table_id}", table_page),
        # Any other address under /t/ is a broken table link: the page says so.
        Route("/t/{rest:path}", table_page),
        Route("/healthz", health),
        Route("/api/config", config),
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/games/{number}/record", game_record),
        Route("/api/tables/{table_id}/deals", review.deals),
        Route("/api/keys", keys.keys),
        Route("/api/stats", stats),
        WebSocketRoute("/ws/{table_id}", live_table),
        Mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static"),
    ]
    settings = hub.settings
    guard = Middleware(
        Guard,
        hosts=settings.allowed_hosts,
        origins=settings.allowed_origins,
        proxies=settings.trusted_proxies,
    )
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[guard],
        exception_handlers={HTTPException: _http_error},
    )
    app.state.hub = hub
    return app


# The command --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=whole_number(1, 65535),
        default=8000,
        help="port to listen on (default: 8000)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="database URL: sqlite:///FILE or postgresql://USER@HOST/DB "
        "(default: a SQLite file in your data directory; OPENHEARTS_HOME overrides it)",
    )
    parser.add_argument(
        "--level",
        default="easy",
        help="default level of the bots: random, easy, hard or expert (default: easy)",
    )
    parser.add_argument(
        "--bot-level",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer another bot as a level, e.g. mine='cmd:./mybot --flag' for a program "
        "speaking the engine protocol (docs/engine-protocol.md); repeatable",
    )
    parser.add_argument(
        "--bot-delay",
        type=number,
        default=0.6,
        metavar="SECONDS",
        help="how long a bot waits before it moves, so people can follow (default: 0.6)",
    )
    parser.add_argument(
        "--auto-delay",
        type=number,
        default=1.5,
        metavar="SECONDS",
        help='longest random wait before "Auto play one" plays a card (default: 1.5)',
    )
    parser.add_argument(
        "--takeover-delay",
        type=number,
        default=5.0,
        metavar="SECONDS",
        help="how long after a player drops a bot takes over their seat (default: 5)",
    )
    parser.add_argument(
        "--create-rate",
        type=integer,
        default=30,
        metavar="N",
        help="new tables one address may open per minute; 0 for no limit (default: 30)",
    )
    parser.add_argument(
        "--message-rate",
        type=number,
        default=20.0,
        metavar="N",
        help="messages per second one connection may send, bursts of twice that (default: 20)",
    )
    add_exposure_arguments(parser)
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="how much the server logs (default: info)",
    )
    add_rules_arguments(parser)


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Server settings from ``hearts serve`` arguments; raises RulesError on bad rules."""
    options = dict(parse_option(text) for text in args.option)
    if args.end_score is not None:
        options["end_score"] = args.end_score
    # Check the defaults now rather than on the first new table, as the other faces read
    # them (`-o players=5` was a Python TypeError), and as a table stores them: an end
    # score past a table's limit started the server, then refused every "Play now".
    rules_of_stored(rules_from_args(args).to_dict())
    for name, value in (
        ("bot-delay", args.bot_delay),
        ("auto-delay", args.auto_delay),
        ("takeover-delay", args.takeover_delay),
    ):
        if not 0 <= value < math.inf:  # nan too
            raise ValueError(f"--{name}: seconds, at least 0, not {value}")
    if not 0 < args.message_rate < math.inf:
        raise ValueError(f"--message-rate: more than 0, not {args.message_rate}")
    if args.create_rate < 0:
        raise ValueError(f"--create-rate: at least 0, not {args.create_rate}")
    return Settings(
        bot_delay=args.bot_delay,
        auto_delay=args.auto_delay,
        takeover_delay=args.takeover_delay,
        default_level=args.level,
        default_preset=args.preset,
        default_players=args.players,
        default_options=options,
        create_rate=args.create_rate,
        message_rate=args.message_rate,
        message_burst=2 * args.message_rate,
        **exposure_settings(args),
    )


def add_bot_levels(texts: list[str]) -> None:
    """Register each ``NAME=SPEC`` of ``--bot-level`` (raises ValueError if malformed)."""
    for text in texts:
        name, equals, spec = text.partition("=")
        if not equals or not name.strip() or not spec.strip():
            raise ValueError(f"--bot-level {text!r}: write NAME=SPEC, e.g. mine=cmd:./mybot")
        add_level(name.strip(), spec.strip())


def check_levels(args: argparse.Namespace) -> None:
    """Build the default level and every level added, once: a level that does not exist
    or a program that cannot start was only left out of the lobby's list (raises
    ValueError saying which and why)."""
    from ..bots import LEVELS, make_bot
    from ..bots.engine import program_problem

    if args.level not in LEVELS:
        raise ValueError(f"--level {args.level!r}: no such level (levels: {', '.join(LEVELS)})")
    added = [text.partition("=")[0].strip() for text in args.bot_level]
    for name in dict.fromkeys([*added, args.level]):
        option = "--level" if name == args.level else "--bot-level"
        try:
            bot = make_bot(name, 0)
        except ValueError as error:
            raise ValueError(f"{option} {name}: {error}") from None
        problem = program_problem(bot)
        close_bot(bot)
        if problem is not None:
            raise ValueError(f"{option} {name}: {problem}")


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound before the address is announced: uvicorn said a
    wrong address only after announcing it, in its own words, and exited with 3.

    :raises OSError: with a sentence saying which address and why.
    """
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as error:
        raise OSError(f"--host {host}: no such address ({error.strerror})") from None
    family, _, _, _, address = found[0]
    try:
        return socket.create_server(address, family=family)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise OSError(
            f"cannot listen on {host}:{port}: {reason}"
            + (" (another program is using the port?)" if error.errno == errno.EADDRINUSE else "")
        ) from None


def run(args: argparse.Namespace) -> int:
    try:
        add_bot_levels(args.bot_level)
        check_levels(args)
        settings = settings_from_args(args)
    except (RulesError, TypeError, ValueError) as error:
        print(f"hearts serve: {error}", file=sys.stderr)
        return 2
    url = args.database or default_database_url()
    try:
        storage = Storage(url)
        version = storage.migrate()
    except StorageError as error:
        # A missing database driver is a missing extra: say which one to install.
        cause = error.__context__
        extra = missing_extra_message(cause) if isinstance(cause, ImportError) else None
        print(f"hearts serve: {extra or error}", file=sys.stderr)
        return 1
    import uvicorn

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(message)s")
    try:
        listening = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"hearts serve: {error}", file=sys.stderr)
        return 1
    app = create_app(storage, settings)
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"OpenHearts is served at http://{shown}:{args.port}/", flush=True)
    print(f"Database: {storage.safe_url} (schema version {version})", flush=True)
    if host not in LOOPBACK_NAMES:
        print("Listening beyond this computer: anyone who can reach it can play.", flush=True)
        if not settings.allowed_hosts:
            print(
                "Any Host name is answered: name yours with --allowed-host "
                "(it stops DNS rebinding).",
                flush=True,
            )
    config = uvicorn.Config(
        app,
        host=host,
        port=args.port,
        ws_max_size=WS_MAX_BYTES,
        # Compressing every small state costs more server time than it saves: a state
        # is a few kilobytes.
        ws_per_message_deflate=False,
        # X-Forwarded-For is believed only from --trusted-proxy addresses (the Guard
        # middleware); uvicorn's own handling would believe any loopback peer.
        proxy_headers=False,
        log_level=args.log_level,
        access_log=args.log_level == "debug",
        lifespan="on",
    )
    if args.log_level != "debug":
        # Three lines per page opened (accepted, open, closed) would bury what matters.
        logging.getLogger("uvicorn.error").addFilter(_quiet_sockets)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:
        return 130
    finally:
        listening.close()
    return 0 if server.started else 1
