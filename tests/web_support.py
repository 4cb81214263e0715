"""Helpers for the web server tests: a real uvicorn server in a thread, scripted players
over real WebSockets, and the check that no client ever hears of a card it could not know.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import sqlalchemy as sa
import uvicorn
from websockets.sync.client import ClientConnection, connect

from openhearts import Game, Rules, record
from openhearts.bots import act, make_bot
from openhearts.cards import CardSet
from openhearts.session.points import card_points
from openhearts.web.hub import Hub
from openhearts.web.server import WS_MAX_BYTES, create_app
from openhearts.web.settings import Settings
from openhearts.web.storage import ActionRow, GameRow, SeatRow, Storage, TableRow, token_hash

#: Cards as the protocol writes them, and as plain words write them ("K♣").
CARD_RE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDSH])(?![A-Za-z0-9])")
PRETTY_RE = re.compile(r"(?:10|[2-9TJQKA])[♣♦♠♥]")

#: Messages that name the action count they answer.
ACTIONS = frozenset({"pass", "play", "moon", "undo"})

POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"


def fast_settings(**changes: Any) -> Settings:
    values: dict[str, Any] = dict(
        bot_delay=0.0,
        auto_delay=0.0,
        takeover_delay=0.0,
        default_level="random",
        create_rate=0,
        # Scripted players answer at machine speed.
        message_rate=1000.0,
        message_burst=1000.0,
    )
    values.update(changes)
    return Settings(**values)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def postgres_available() -> str | None:
    """None when PostgreSQL answers, else the reason it does not."""
    try:
        import psycopg

        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=2
        ):
            return None
    except Exception as error:
        return f"PostgreSQL at 127.0.0.1:5432 is not reachable: {error}"


def postgres_storage() -> Storage:
    """A storage in a schema of its own, so that parallel runs do not collide."""
    return Storage(POSTGRES_URL, schema=f"t_{uuid.uuid4().hex[:12]}")


class Outage:
    """The database refusing every write while ``down``, as a SQLite file another
    program holds locked does (reads still work); stands for the storage's engine."""

    def __init__(self, engine: sa.engine.Engine) -> None:
        self.engine = engine
        self.down = False
        self.refused = 0

    def begin(self) -> Any:
        if self.down:
            self.refused += 1
            raise sa.exc.OperationalError("INSERT", {}, Exception("database is locked"))
        return self.engine.begin()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


class ServerThread:
    """``hearts serve`` in a background thread, on a free loopback port."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.app = create_app(storage, settings or fast_settings())
        self.port = free_port()
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            ws_max_size=WS_MAX_BYTES,
            # As hearts serve: X-Forwarded-For is the application's to judge.
            proxy_headers=False,
            log_level="warning",
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table_id}"

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return httpx.post(self.base + path, json=body or {}, timeout=20)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.base + path, timeout=20, **kwargs)


@contextlib.contextmanager
def running(storage: Storage, settings: Settings | None = None) -> Iterator[ServerThread]:
    server = ServerThread(storage, settings).start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Player:
    """A scripted client: says hello, keeps every message it gets, plays at random."""

    url: str
    token: str | None = None
    seed: int = 0
    auto_play_one: bool = False
    #: Every text received, in order.
    texts: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    #: How many of its actions the server refused unread for coming too fast.
    rate_limited: int = 0
    latest: dict[str, Any] | None = None
    welcome: dict[str, Any] | None = None
    ws: ClientConnection | None = None
    next_id: int = 0

    def open(self) -> Player:
        # Unbounded queue and no keepalive: a test may leave a client unread for a while.
        self.ws = connect(
            self.url, open_timeout=10, max_size=None, max_queue=None, ping_interval=None
        ).__enter__()
        hello: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            hello["token"] = self.token
        self.send(hello)
        self.welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        if self.welcome["type"] == "welcome" and not self.auto_play_one and self.token:
            self.request({"type": "auto", "play_one": False})
        return self

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        assert self.ws is not None
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.latest = message
        elif message["type"] == "welcome":
            self.welcome = message
        return message

    def until(self, wanted: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message

    def request(self, message: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        """Send with an id and wait for its ``ack`` or ``error``."""
        self.next_id += 1
        request_id = self.next_id
        if message["type"] in ACTIONS and "seq" not in message:
            # The action answers the latest state seen, as the page's do.
            message = {**message, "seq": self.latest["seq"] if self.latest else 0}
        self.send({**message, "id": request_id})
        return self.until(
            lambda m: m["type"] in ("ack", "error", "hint") and m.get("id") == request_id,
            timeout,
        )

    @property
    def state(self) -> dict[str, Any]:
        assert self.latest is not None
        state: dict[str, Any] = self.latest["state"]
        return state

    def choose(self, state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        seat = state["seat"]
        if seat is None or seat not in state["waiting_for"]:
            return None
        phase = state["phase"]
        if phase == "passing" and state["passed"] is None:
            assert self.welcome is not None
            count = self.welcome["table"]["rules"]["cards_passed"]
            return {"type": "pass", "cards": rng.sample(state["hand"], count)}
        if phase == "playing" and state["to_move"] == seat and state["legal"]:
            if auto_plays(state):
                return None  # the server plays it: a card sent now could cross its own
            return {"type": "play", "card": rng.choice(state["legal"])}
        if phase == "moon_choice" and state["to_move"] == seat:
            return {"type": "moon", "others_add": rng.random() < 0.5}
        return None

    def play(self, *, stop_after: int | None = None, timeout: float = 60) -> dict[str, Any] | None:
        """Play at random until the game is over (or ``stop_after`` own actions)."""
        rng = random.Random(self.seed)
        pending: int | None = None
        acted = -1
        done = 0
        deadline = time.monotonic() + timeout
        while True:
            if self.latest is not None and self.state["phase"] == "game_over" and pending is None:
                return self.latest
            if pending is None and self.latest is not None and self.latest["seq"] > acted:
                action = self.choose(self.state, rng)
                if action is not None:
                    if stop_after is not None and done >= stop_after:
                        return self.latest
                    self.next_id += 1
                    pending = self.next_id
                    acted = self.latest["seq"]
                    self.send({**action, "id": pending, "seq": self.latest["seq"]})
                    done += 1
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] in ("ack", "error") and message.get("id") == pending:
                pending = None
                if message.get("code") == "rate_limited":
                    # Refused unread, as a fast client may be: wait, then act again.
                    self.rate_limited += 1
                    time.sleep(0.2)
                    acted = -1
                    done -= 1
                    continue
                if message["type"] == "error":
                    # Scripted play never errs unless something is wrong: fail fast
                    # rather than wait for a state that will not come.
                    self.errors.append(message)
                    raise AssertionError(f"seat {self.state['seat']}: {message}")
                else:
                    # Every state before the ack predates this action.
                    acted = max(acted, self.latest["seq"] if self.latest else -1)


def new_table(server: ServerThread, **body: Any) -> dict[str, Any]:
    answer = server.post("/api/tables", body)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def host_and_guest(
    server: ServerThread, host_name: str = "Ann", **body: Any
) -> tuple[str, Player, Player]:
    """A table of the host's (made with ``body``) with Bob joined, both connected: its
    id, the host's and Bob's connections."""
    host = new_table(server, name=host_name, **body)
    table_id = host["table_id"]
    guest = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
    ann = Player(server.ws_url(table_id), token=host["token"]).open()
    bob = Player(server.ws_url(table_id), token=guest["token"]).open()
    return table_id, ann, bob


def auto_plays(state: dict[str, Any]) -> bool:
    """Whether the server plays the receiver's card now ("Auto play one"), as the
    protocol says a client must work it out."""
    return bool(
        state["phase"] == "playing"
        and state["seat"] is not None
        and state["to_move"] == state["seat"]
        and state["auto_play_one"]
        and not state["bot_playing"]
        and (len(state["legal"]) == 1 or state["settled"])
    )


def play_all(players: list[Player], timeout: float = 120) -> None:
    """Run every player in its own thread until the game is over."""
    failures: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            player.play(timeout=timeout)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 10)
    if failures:
        raise failures[0]
    assert not any(t.is_alive() for t in threads), "a player never saw the end of the game"


def watch(player: Player, timeout: float = 120) -> None:
    """A spectator reads until the game is over."""
    deadline = time.monotonic() + timeout
    while player.latest is None or player.state["phase"] != "game_over":
        player.recv(max(0.01, deadline - time.monotonic()))


# What a seat may know -----------------------------------------------------------------


@dataclass
class Moment:
    """After ``seq`` actions: the deal, and the cards each seat (and a spectator) may know."""

    deal: int
    known: list[frozenset[str]]
    public: frozenset[str]
    hands: list[list[str]]
    #: The tricks of the deal that the last action finished, if it finished one.
    finished_tricks: list[dict[str, Any]] | None = None
    #: Every card in play this deal (the deck less the rules' removed cards).
    in_play: frozenset[str] = frozenset()


def timeline(record_text: str) -> list[Moment]:
    """Replay a finished game's record and note, after each action, who may know what."""
    final = record.loads(record_text)
    game = Game(final.rules, seed=final.seed, names=final.names)
    players = final.rules.players

    def moment(finished: list[dict[str, Any]] | None) -> Moment:
        played = {str(c) for c in game.view(0).played}
        known = []
        hands = []
        for seat in range(players):
            view = game.view(seat)
            cards = {str(c) for c in view.hand} | played
            if view.passed is not None:
                cards |= {str(c) for c in view.passed}
            if view.received is not None:
                cards |= {str(c) for c in view.received}
            known.append(frozenset(cards))
            hands.append([str(c) for c in view.hand])
        in_play = frozenset(str(c) for c in CardSet(game.rules.deck_mask))
        return Moment(game.deal_number, known, frozenset(played), hands, finished, in_play)

    moments = [moment(None)]
    for action in final.actions:
        results = len(game.results)
        game.apply(action)
        finished = None
        if len(game.results) > results:
            finished = [
                {
                    "leader": t.leader,
                    "cards": [str(c) for c in t.cards],
                    "winner": t.winner,
                    "points": card_points(game.rules, t.cards),
                }
                for t in game.results[-1].tricks
            ]
        moments.append(moment(finished))
    assert game.scores == final.scores
    return moments


def _cards_in(data: Any) -> set[str]:
    text = json.dumps(data, ensure_ascii=False)
    return set(CARD_RE.findall(text)) | set(PRETTY_RE.findall(text))


def check_knowledge(
    texts: list[str], seat: int | None, moments: list[Moment], table_id: str
) -> int:
    """Assert that no message in ``texts`` names a card ``seat`` could not know when it
    was sent.  Returns the number of cards checked."""
    checked = 0
    for text in texts:
        message = json.loads(text.replace(table_id, "<table>"))
        kind = message["type"]
        if kind in ("welcome", "table"):
            summary = dict(message["table"])
            # The rules are public (they may name the first lead or removed cards).
            summary.pop("rules")
            summary.pop("describe")
            assert not _cards_in(summary), f"cards in a {kind} message: {text[:200]}"
            continue
        if kind not in ("state", "hint"):
            assert not _cards_in(message), f"cards in a {kind} message: {text[:200]}"
            continue
        moment = moments[message["seq"]]
        allowed = moment.public if seat is None else moment.known[seat]
        if kind == "hint":
            found = _cards_in(message)
            assert found <= allowed, f"hint names unknown cards {found - allowed}"
            checked += len(found)
            continue
        state = dict(message["state"])
        assert state["deal"] == moment.deal
        assert state["seat"] == seat
        if seat is not None:
            assert state["hand"] == moment.hands[seat], "the hand sent is not the seat's hand"
        else:
            assert state["hand"] == [] and state["legal"] == []
        state.pop("names")
        memory = dict(state.pop("memory"))
        # The memory aids' unseen cards are exactly the cards in play less those played
        # and those in the seat's own hand: a list of them says nothing more.
        unseen = set(memory.pop("unseen"))
        assert unseen == moment.in_play - set(memory["played"]) - set(state["hand"]), (
            f"seat {seat} was sent unseen cards that are not the complement of what it knows"
        )
        state["memory"] = memory
        events = []
        for event in message["events"]:
            if moment.finished_tricks is not None and event["event"] in (
                "played",
                "trick",
                "deal_over",
            ):
                # These describe the deal just finished, every card of which was played
                # in front of everyone: they must match what was played, exactly.
                last = moment.finished_tricks[-1]
                if event["event"] == "played":
                    assert event["card"] == last["cards"][-1]
                elif event["event"] == "trick":
                    assert event["cards"] == last["cards"], (event, last)
                else:
                    assert event["tricks"] == moment.finished_tricks
                checked += 1
                continue
            events.append(event)
        found = _cards_in(state) | _cards_in(events)
        assert found <= allowed, (
            f"seat {seat} was sent {sorted(found - allowed)} at action {message['seq']}"
        )
        checked += len(found)
    return checked


# Positions stored as a server would have them ------------------------------------------


def store_game(
    storage: Storage,
    table_id: str,
    preset: str,
    game: Game,
    human: int,
    token: str,
    *,
    auto_play_one: bool = True,
    guests: dict[int, str] | None = None,
) -> list[ActionRow]:
    """Store ``game`` as the server would have, seat ``human`` a person's (the host's),
    and each seat of ``guests`` (seat: token) another person's."""
    storage.migrate()
    seats = [SeatRow(s, "bot", f"Bot {s}", level="random") for s in range(game.rules.players)]
    seats[human] = SeatRow(
        human, "human", "Ann", token_hash(token), host=True, auto_play_one=auto_play_one
    )
    for seat, guest_token in (guests or {}).items():
        seats[seat] = SeatRow(
            seat, "human", f"Guest {seat}", token_hash(guest_token), auto_play_one=auto_play_one
        )
    storage.create_table(
        TableRow(
            id=table_id,
            status="waiting",
            preset=preset,
            rules=game.rules.to_dict(),
            level="random",
            seats=seats,
        )
    )
    storage.start_game(
        table_id,
        GameRow(1, str(game.seed), game.rules.to_dict(), list(game.names), "playing"),
        seats,
    )
    rows = []
    for seq, action in enumerate(game.actions):
        data = str(getattr(action, "cards", getattr(action, "card", "")))
        kind = "pass" if hasattr(action, "cards") else "play"
        rows.append(ActionRow(seq, kind, action.seat, data))
        storage.append_action(table_id, 1, rows[-1])
    return rows


def settled_game(min_cards: int = 4) -> Game:
    """A first deal of standard rules stopped at a turn whose points are settled: no
    point card is left to play, the seat to move holds ``min_cards`` cards or more and
    may play more than one of them.  Point cards are thrown away as soon as the rules
    allow, so that such turns come early; the search is deterministic."""
    rules = Rules.preset("standard")
    for attempt in range(500):
        game = Game(rules, seed=f"settled{attempt}")
        rng = random.Random(attempt)
        bots = [make_bot("random", seed=seat) for seat in range(rules.players)]
        while game.deal_number == 0 and game.phase in ("passing", "playing"):
            if game.phase == "passing":
                seat = game.to_act()[0]
                act(game, seat, bots[seat])
                continue
            legal = game.legal_plays().cards()
            mover = game.current_player
            assert mover is not None
            if game.points_settled() and len(legal) > 1 and len(game.hand(mover)) >= min_cards:
                return game
            points = [card for card in legal if str(card) == "QS" or str(card)[1] == "H"]
            game.play(points[-1] if points else rng.choice(legal))
    raise AssertionError("no settled turn in 500 deals")


#: Events a client may hear of; an unknown one could be a new leak.
PUBLIC_EVENTS = frozenset(
    {
        "passed",
        "exchanged",
        "played",
        "trick",
        "moon_pending",
        "moon_chosen",
        "deal_over",
        "game_over",
        "dealt",
        "undone",
        "started",
    }
)


def _shown_voids(state: dict[str, Any]) -> list[set[str]]:
    """The suits each seat has shown it lacks, by not following in front of everyone."""
    players = len(state["voids"])
    voids: list[set[str]] = [set() for _ in range(players)]
    plays = [
        [((t["leader"] + i) % players, card) for i, card in enumerate(t["cards"])]
        for t in state["tricks"]
    ]
    plays.append([(seat, card) for seat, card in state["trick"]])
    for trick in plays:
        if trick:
            led = trick[0][1][-1]
            for seat, card in trick[1:]:
                if card[-1] != led:
                    voids[seat].add(led)
    return voids


def check_no_inference(texts: list[str], seat: int | None) -> int:
    """Nothing ``seat``'s client (None: a spectator) got says more about another seat
    than its cards played in front of everyone: no marker on another seat's move (a
    forced card, hence a void or a hand of hearts, must look like a chosen one), no
    void that play has not shown.  Returns how many states were checked."""
    checked = 0
    for text in texts:
        message = json.loads(text)
        if message["type"] != "state":
            continue
        for event in message["events"]:
            assert event["event"] in PUBLIC_EVENTS, event
            mine = event.get("seat") == seat and seat is not None
            if event["event"] == "played" and not mine:
                assert set(event) == {"event", "seat", "card"}, event
            if event["event"] == "passed" and not mine:
                assert set(event) == {"event", "seat"}, event
        state = message["state"]
        shown = _shown_voids(state)
        for other, voids in enumerate(state["voids"]):
            if other != seat:
                assert set(voids) <= shown[other], (other, voids, shown[other])
        checked += 1
    return checked


def wait_for(condition: Any, timeout: float = 20, what: str = "condition") -> None:
    """Wait until ``condition()`` is true, failing with ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
