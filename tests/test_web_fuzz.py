"""Adversarial input: thousands of malformed and hostile messages and requests.  The
server never answers 500, never logs an unhandled exception, every game it stores
still replays by the rules, and it starts again on the same database.

CI runs a sample; ``pytest -m slow tests/test_web_fuzz.py`` sends the full 10,000+."""

from __future__ import annotations

import contextlib
import json
import logging
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from openhearts import Game, Rules, record
from openhearts.web.storage import Storage
from openhearts.web.table import _action_of_row
from web_support import Player, ServerThread, fast_settings, running

TYPES: list[object] = [
    "hello",
    "ping",
    "pass",
    "play",
    "moon",
    "undo",
    "hint",
    "auto",
    "fill",
    "clear",
    "remove",
    "list",
    "start",
    "leave",
    "chat",
    "",
    "PLAY",
    None,
    5,
    "x" * 40,
]
ODD: list[object] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**63,
    -(2**70),
    1.5,
    float("nan"),
    "",
    "QS",
    "2C",
    "ZZ",
    "10H",
    "♠Q",
    "a" * 300,
    [],
    ["QS"] * 14,
    [1, 2],
    {},
    {"a": {"b": []}},
    "\u0000\u202e",
]
PATHS = [
    "/api/tables",
    "/api/play-now",
    "/api/tables/{id}",
    "/api/tables/{id}/join",
    "/api/tables/{id}/games/{n}/record",
    "/api/stats",
    "/api/config",
    "/healthz",
    "/t/{id}",
    "/api/tables/{id}/games",
    "/static/../../etc/passwd",
    "/ws/{id}",
]


def _message(rng: random.Random, seq: int) -> str | bytes:
    roll = rng.random()
    if roll < 0.08:
        junk: list[str | bytes] = ["{", "[]", "null", "1", '"x"', "{" * 500 + "}" * 500]
        return rng.choice([*junk, b"\xed\xa0\x80"])
    if roll < 0.12:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if roll < 0.14:
        return json.dumps({"type": "chat", "text": "x" * 5000})
    message: dict[str, Any] = {"type": rng.choice(TYPES)}
    for field in rng.sample(
        [
            "id",
            "seq",
            "card",
            "cards",
            "others_add",
            "play_one",
            "seat",
            "level",
            "text",
            "token",
            "listed",
            "extra",
        ],
        rng.randrange(4),
    ):
        message[field] = rng.choice(ODD)
    if rng.random() < 0.3:
        message["seq"] = seq + rng.choice([-2, -1, 0, 1, 10**12])
    return json.dumps(message, allow_nan=True)


def _request(rng: random.Random, client: httpx.Client, table_id: str) -> int:
    path = rng.choice(PATHS).replace(
        "{id}", rng.choice([table_id, "nosuchtable", "%00", "x" * 300, "..", "é"])
    )
    path = path.replace("{n}", rng.choice(["1", "0", "-1", "9223372036854775808", "x", "１"]))
    method = rng.choice(["GET", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"])
    headers = {}
    if rng.random() < 0.2:
        headers["X-Forwarded-For"] = rng.choice(["1.2.3.4", "garbage", ", ,", "::1, 10.0.0.1"])
    if rng.random() < 0.1:
        headers["Authorization"] = rng.choice(["Bearer x", "Bearer " + "a" * 40, "Basic ="])
    if rng.random() < 0.1:
        headers["Content-Length"] = rng.choice(["-1", "99999999999999999999", "abc"])
    body = rng.choice(
        [
            b"",
            b"{}",
            b"[]",
            b"{",
            b'{"options": {"sun": "yes"}}',
            b'{"players": 99}',
            b'{"name": ' + b'"a"' * 2 + b"}",
            b"\xff" * 10,
            json.dumps({"options": {"end_score": 2**64}}).encode(),
            b'{"player_token": "short", "listed": "yes"}',
            b"x" * 5000,
        ]
    )
    try:
        answer = client.request(method, path, content=body, headers=headers)
    except Exception:
        # The client refused to send it, or the server hung up on it: not an answer.
        return 0
    return answer.status_code


def _fuzz(server: ServerThread, count: int, seed: int) -> None:
    rng = random.Random(seed)
    data = server.post("/api/play-now", {"options": {"end_score": 30}}).json()
    table_id = data["table_id"]
    # A real player goes on playing while an attacker with the same seat token and a
    # spectator send garbage: stale actions, wrong cards, bad fields, odd bytes.
    player = Player(server.ws_url(table_id), token=data["token"], seed=seed).open()
    sockets: list[ClientConnection | None] = [None, None]
    statuses: list[int] = []
    with httpx.Client(base_url=server.base, timeout=20) as client, contextlib.ExitStack() as stack:
        for sent in range(count):
            if sent % 4 == 3:
                statuses.append(_request(rng, client, table_id))
                continue
            which = sent % 2
            try:
                if sockets[which] is None:
                    sockets[which] = stack.enter_context(
                        connect(server.ws_url(table_id), max_size=None)
                    )
                    hello = (
                        {"type": "hello", "token": data["token"]} if which else {"type": "hello"}
                    )
                    sockets[which].send(json.dumps(hello))  # type: ignore[union-attr]
                seq = player.latest["seq"] if player.latest else 0
                sockets[which].send(_message(rng, seq))  # type: ignore[union-attr]
                with contextlib.suppress(TimeoutError):
                    while True:
                        sockets[which].recv(timeout=0)  # type: ignore[union-attr]
            except (ConnectionClosed, InvalidStatus, OSError):
                sockets[which] = None
            if sent % 50 == 0:
                # The attacker holds the same seat: the player's move may be refused.
                with contextlib.suppress(TimeoutError, AssertionError):
                    player.play(stop_after=1, timeout=0.2)
    for socket in sockets:
        if socket is not None:
            socket.close()
    player.close()
    assert statuses and 500 not in statuses and not [s for s in statuses if s >= 500]


def _replays(storage: Storage) -> int:
    """Check every stored game replays by the rules; returns how many were checked."""
    checked = 0
    with storage.engine.connect() as connection:
        ids = [r[0] for r in connection.exec_driver_sql("SELECT id FROM tables")]
    for table_id in ids:
        row = storage.load_table(table_id)
        assert row is not None
        if row.game is None:
            continue
        if row.game.status == "finished":
            assert row.game.record is not None and record.loads(row.game.record).is_over
        else:
            game = Game(Rules.from_dict(row.game.rules), seed=row.game.seed, names=row.game.names)
            for action in row.game.actions:
                game.apply(_action_of_row(action))
        checked += 1
    return checked


def _run(tmp_path: Path, caplog: pytest.LogCaptureFixture, count: int) -> None:
    url = f"sqlite:///{tmp_path / 'fuzz.sqlite3'}"
    settings = fast_settings(
        malformed_rate=0,
        connect_rate=0,
        sockets_per_address=0,
        join_rate=0,
        hint_rate=0,
        tables_per_address=0,
        hint_budget=2,
    )
    with caplog.at_level(logging.WARNING):
        with running(Storage(url), settings) as server:
            _fuzz(server, count, seed=count)
        with running(Storage(url), settings) as server:
            assert server.get("/api/tables").status_code == 200
            assert server.hub.set_aside == {}
    failures = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures[:5]]
    assert _replays(Storage(url)) >= 1


def test_a_sample_of_adversarial_input_changes_nothing_it_should_not(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _run(tmp_path, caplog, 1200)


@pytest.mark.slow
def test_ten_thousand_adversarial_messages_and_requests(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _run(tmp_path, caplog, 12000)
