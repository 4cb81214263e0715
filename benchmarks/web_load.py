"""Load test of the web server: many tables at once, bots and scripted players.

Starts ``hearts serve`` as a separate process on a free loopback port with a fresh
database, then plays ``--tables`` whole games through it, ``--concurrency`` at a time:

* "solo" tables: ``POST /api/play-now``, one scripted player and three bots;
* "full" tables: ``POST /api/tables`` and three joins, four scripted players, the host
  starts.

Scripted players answer at once, with a random legal card.  Each action is timed from
sending it to its ``ack`` (stored in the database, then acknowledged) and to the
``state`` that shows it.  At the end it prints tables per second, actions per second,
latency percentiles, and the server's memory (resident set now and at its peak).

With ``--adversary`` one address attacks at the same time: 30 "Play now" tables with
``hard`` bots that it abandons at once, and a flood of hints over 8 sockets.  Every
client names its address in ``X-Forwarded-For`` (the server trusts loopback as its
proxy here), so the per-address limits and the fair share of bot threads apply to the
adversary and each scripted table as they would on the internet.

Bounded in count (``--tables``, at most 2000) and time (``--seconds``, at most 600);
loopback only.

    python benchmarks/web_load.py                        # 60 tables, 20 at a time
    python benchmarks/web_load.py --tables 8 --seconds 60  # quick check that it runs
    python benchmarks/web_load.py --database postgresql://postgres@127.0.0.1/test
    python benchmarks/web_load.py --tables 20 --adversary   # the same, under attack
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
from websockets.asyncio.client import ClientConnection, connect

MAX_TABLES = 2000
MAX_SECONDS = 600
#: The attacking address (documentation range), and how hard it attacks.
ADVERSARY = "198.51.100.66"
ABANDONED_TABLES = 30
HINT_SOCKETS = 8


@dataclass
class Figures:
    ack: list[float] = field(default_factory=list)
    state: list[float] = field(default_factory=list)
    actions: int = 0
    #: Every action of every finished game (bots' included).
    game_actions: int = 0
    messages: int = 0
    tables: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def memory_kib(pid: int) -> tuple[int, int]:
    """(resident now, resident at its peak) of a process, in KiB (Linux /proc)."""
    now = peak = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1])
    except OSError:
        pass
    return now, peak


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Scripted:
    """One scripted player on one WebSocket."""

    def __init__(
        self, url: str, token: str, seed: int, figures: Figures, address: str = "203.0.113.1"
    ) -> None:
        self.url = url
        self.address = address
        self.token = token
        self.rng = random.Random(seed)
        self.figures = figures
        self.cards_passed = 3
        self.ws: ClientConnection | None = None

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        text = await self.ws.recv()
        self.figures.messages += 1
        message: dict[str, Any] = json.loads(text)
        return message

    async def play(self, started: asyncio.Event | None = None) -> int:
        """Play to the end of the game; the number of actions it took."""
        async with connect(
            self.url,
            max_size=None,
            ping_interval=None,
            additional_headers={"X-Forwarded-For": self.address},
        ) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            await ws.send(json.dumps({"type": "auto", "play_one": False}))
            if started is not None:
                started.set()
            latest: dict[str, Any] | None = None
            pending: tuple[int, float] | None = None
            acked_at = 0.0
            acted = -1
            serial = 0
            while True:
                if latest is not None and latest["state"]["phase"] == "game_over":
                    seq: int = latest["seq"]
                    return seq
                if pending is None and latest is not None and latest["seq"] > acted:
                    action = self.choose(latest["state"])
                    if action is not None:
                        serial += 1
                        pending = (serial, time.perf_counter())
                        acted = latest["seq"]
                        await ws.send(json.dumps({**action, "id": serial, "seq": acted}))
                message = await self.recv()
                kind = message["type"]
                if kind == "welcome":
                    self.cards_passed = message["table"]["rules"]["cards_passed"]
                elif kind == "state":
                    latest = message
                    if acked_at and message["seq"] > acted:
                        self.figures.state.append(time.perf_counter() - acked_at)
                        acked_at = 0.0
                elif kind in ("ack", "error") and pending and message.get("id") == pending[0]:
                    if kind == "ack":
                        self.figures.ack.append(time.perf_counter() - pending[1])
                        self.figures.actions += 1
                        acked_at = pending[1]
                        acted = max(acted, latest["seq"] if latest else -1)
                    else:
                        self.figures.errors.append(message["code"])
                    pending = None

    def choose(self, state: dict[str, Any]) -> dict[str, Any] | None:
        seat = state["seat"]
        if seat not in state["waiting_for"]:
            return None
        if state["phase"] == "passing" and state["passed"] is None:
            return {"type": "pass", "cards": self.rng.sample(state["hand"], self.cards_passed)}
        if state["phase"] == "playing" and state["legal"]:
            return {"type": "play", "card": self.rng.choice(state["legal"])}
        if state["phase"] == "moon_choice":
            return {"type": "moon", "others_add": True}
        return None


def _address(seed: int) -> str:
    """A scripted table's own address (documentation range)."""
    return f"203.0.113.{seed % 250 + 1}"


async def post(
    http: httpx.AsyncClient, path: str, body: dict[str, Any], address: str = "203.0.113.1"
) -> dict[str, Any]:
    """POST with one retry: a kept-alive connection the server has just closed is not
    the server failing."""
    for attempt in range(2):
        try:
            answer = await http.post(path, json=body, headers={"X-Forwarded-For": address})
            answer.raise_for_status()
            data: dict[str, Any] = answer.json()
            return data
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if attempt:
                raise
    raise AssertionError("unreachable")


async def solo_table(
    http: httpx.AsyncClient, ws_base: str, body: dict[str, Any], seed: int, figures: Figures
) -> None:
    data = await post(http, "/api/play-now", body, _address(seed))
    url = f"{ws_base}/ws/{data['table_id']}"
    actions = await Scripted(url, data["token"], seed, figures, _address(seed)).play()
    figures.game_actions += actions


async def full_table(
    http: httpx.AsyncClient, ws_base: str, body: dict[str, Any], seed: int, figures: Figures
) -> None:
    address = _address(seed)
    host = await post(http, "/api/tables", body, address)
    table_id = host["table_id"]
    tokens = [host["token"]]
    for index in range(3):
        joined = await post(http, f"/api/tables/{table_id}/join", {"name": f"P{index}"}, address)
        tokens.append(joined["token"])
    url = f"{ws_base}/ws/{table_id}"
    players = [
        Scripted(url, token, seed * 4 + i, figures, address) for i, token in enumerate(tokens)
    ]
    ready = [asyncio.Event() for _ in players]
    tasks = [asyncio.create_task(p.play(e)) for p, e in zip(players, ready, strict=True)]
    await asyncio.gather(*(e.wait() for e in ready))
    async with connect(url, additional_headers={"X-Forwarded-For": address}) as starter:
        await starter.send(json.dumps({"type": "hello", "token": tokens[0]}))
        await starter.send(json.dumps({"type": "start", "id": 1}))
        while True:
            message = json.loads(await starter.recv())
            if message["type"] in ("ack", "error") and message.get("id") == 1:
                break
    actions = await asyncio.gather(*tasks)
    figures.game_actions += actions[0]


@dataclass
class Attack:
    """What the adversary got done, and what was refused."""

    tables: int = 0
    refused: int = 0
    hints: int = 0
    hint_refusals: int = 0


async def attack(base: str, stop: asyncio.Event, found: Attack) -> None:
    """One address: a hint flood on a table of its own, and abandoned hard tables."""
    ws_base = base.replace("http://", "ws://")
    headers = {"X-Forwarded-For": ADVERSARY}
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as http:
        flood = await http.post("/api/play-now", json={"level": "hard"})
        flood.raise_for_status()
        data = flood.json()
        for _ in range(ABANDONED_TABLES):
            answer = await http.post("/api/play-now", json={"level": "hard"})
            if answer.status_code == 201:
                found.tables += 1
            else:
                found.refused += 1
    url = f"{ws_base}/ws/{data['table_id']}"

    async def hints() -> None:
        with contextlib.suppress(Exception):
            async with connect(url, additional_headers=headers, ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": data["token"]}))
                while not stop.is_set():
                    await ws.send(json.dumps({"type": "hint", "id": 1}))
                    while True:
                        message = json.loads(await ws.recv())
                        if message["type"] == "hint":
                            found.hints += 1
                            break
                        if message["type"] == "error":
                            found.hint_refusals += 1
                            break

    await asyncio.gather(*(hints() for _ in range(HINT_SOCKETS)))


async def drive(args: argparse.Namespace, base: str, figures: Figures) -> float:
    ws_base = base.replace("http://", "ws://")
    body = {"options": {"end_score": args.end_score}, "level": args.level}
    limit = asyncio.Semaphore(args.concurrency)
    started = time.perf_counter()
    deadline = started + args.seconds

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def one(index: int) -> None:
            async with limit:
                if time.perf_counter() > deadline:
                    return
                kind = full_table if index % 2 else solo_table
                try:
                    await asyncio.wait_for(
                        kind(http, ws_base, body, index, figures),
                        max(1.0, deadline - time.perf_counter()),
                    )
                    figures.tables += 1
                except TimeoutError:
                    figures.errors.append("timeout")
                except Exception as error:
                    figures.errors.append(f"{type(error).__name__}: {error}")
                done = figures.tables
                if done and done % max(1, args.tables // 10) == 0:
                    print(f"  {done} tables done", file=sys.stderr, flush=True)

        stop = asyncio.Event()
        attacker = asyncio.create_task(attack(base, stop, args.attack)) if args.adversary else None
        if attacker is not None:
            await asyncio.sleep(2)  # the abandoned tables' bots are at work first
        await asyncio.gather(*(one(i) for i in range(args.tables)))
        stop.set()
        if attacker is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(attacker, 10)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="games to play (default 60)")
    parser.add_argument("--concurrency", type=int, default=20, help="tables at once (default 20)")
    parser.add_argument("--seconds", type=float, default=180, help="time limit (default 180)")
    parser.add_argument("--end-score", type=int, default=50, help="game length (default 50)")
    parser.add_argument("--level", default="random", help="bot level (default random)")
    parser.add_argument("--database", default=None, help="database URL (default: temp SQLite)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--adversary", action="store_true", help="one address attacks meanwhile (see above)"
    )
    args = parser.parse_args()
    args.attack = Attack()
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables: 1 to {MAX_TABLES}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds: 1 to {MAX_SECONDS}")
    args.concurrency = max(1, min(args.concurrency, args.tables))

    with tempfile.TemporaryDirectory(prefix="openhearts-load-") as home:
        database = args.database or f"sqlite:///{os.path.join(home, 'load.sqlite3')}"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [
                sys.executable, "-m", "openhearts", "serve",
                "--host", "127.0.0.1", "--port", str(port),
                "--database", database,
                "--bot-delay", "0", "--takeover-delay", "30",
                "--message-rate", "1000", "--trusted-proxy", "127.0.0.1",
                "--level", args.level, "--log-level", "warning",
            ],
            env={**os.environ, "OPENHEARTS_HOME": home},
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.05)
            idle_rss, _ = memory_kib(server.pid)
            figures = Figures()
            print(
                f"{args.tables} tables, {args.concurrency} at a time, end score "
                f"{args.end_score}, bots {args.level}, database "
                f"{'SQLite' if database.startswith('sqlite') else database}",
                file=sys.stderr,
            )
            elapsed = asyncio.run(drive(args, base, figures))
            rss, peak = memory_kib(server.pid)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()

    result = {
        "tables": figures.tables,
        "seconds": round(elapsed, 2),
        "tables_per_second": round(figures.tables / elapsed, 2),
        "actions_per_second": round(figures.game_actions / elapsed, 1),
        "scripted_actions_per_second": round(figures.actions / elapsed, 1),
        "scripted_actions": figures.actions,
        "messages_received": figures.messages,
        "ack_ms": {
            "p50": round(percentile(figures.ack, 0.50) * 1000, 2),
            "p95": round(percentile(figures.ack, 0.95) * 1000, 2),
            "p99": round(percentile(figures.ack, 0.99) * 1000, 2),
            "mean": round(statistics.fmean(figures.ack) * 1000, 2) if figures.ack else None,
        },
        "state_ms": {
            "p50": round(percentile(figures.state, 0.50) * 1000, 2),
            "p95": round(percentile(figures.state, 0.95) * 1000, 2),
            "p99": round(percentile(figures.state, 0.99) * 1000, 2),
        },
        "server_rss_mib": {
            "idle": round(idle_rss / 1024, 1),
            "end": round(rss / 1024, 1),
            "peak": round(peak / 1024, 1),
        },
        "adversary": vars(args.attack) if args.adversary else None,
        "errors": len(figures.errors),
        "error_kinds": sorted(set(figures.errors))[:10],
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        ack, state, memory = (
            cast(dict[str, float], result[key]) for key in ("ack_ms", "state_ms", "server_rss_mib")
        )
        print(f"tables played      {result['tables']} in {result['seconds']} s")
        print(f"tables per second  {result['tables_per_second']}")
        print(
            f"actions per second {result['actions_per_second']} (all), "
            f"{result['scripted_actions_per_second']} (scripted players')"
        )
        print(f"messages received  {result['messages_received']}")
        print(f"ack latency ms     p50 {ack['p50']}  p95 {ack['p95']}  p99 {ack['p99']}")
        print(f"state latency ms   p50 {state['p50']}  p95 {state['p95']}  p99 {state['p99']}")
        print(
            f"server RSS MiB     idle {memory['idle']}  end {memory['end']}  peak {memory['peak']}"
        )
        if args.adversary:
            print(f"adversary          {result['adversary']}")
        print(f"errors             {result['errors']} {result['error_kinds']}")
    return 0 if not figures.errors else 1


if __name__ == "__main__":
    sys.exit(main())
