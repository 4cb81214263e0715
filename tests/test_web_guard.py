"""The server made safe to expose: Host and Origin checks, X-Forwarded-For only from
named proxies, per-address limits, caps, the turn clock, listing, fair statistics and
the server's own player tokens."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from openhearts import Game, Rules
from openhearts.bots import act, make_bot
from openhearts.web.storage import Storage
from web_support import (
    Player,
    ServerThread,
    fast_settings,
    host_and_guest,
    running,
    store_game,
    wait_for,
)


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    return Storage(f"sqlite:///{tmp_path / 'hearts.sqlite3'}")


@pytest.fixture
def server(storage: Storage) -> Iterator[ServerThread]:
    with running(storage) as server:
        yield server


def test_host_and_origin_are_checked(storage: Storage) -> None:
    settings = fast_settings(allowed_hosts=("127.0.0.1", "hearts.example"))
    with running(storage, settings) as server:
        assert server.get("/healthz").status_code == 200
        # DNS rebinding: a page of evil.example resolved to this server.
        rebound = server.get("/api/tables", headers={"Host": "evil.example"})
        assert rebound.status_code == 421 and rebound.json()["error"] == "bad_host"
        # Another site's page making a visitor's browser take a seat.
        forged = httpx.post(
            server.base + "/api/tables",
            json={},
            headers={"Origin": "https://evil.example"},
        )
        assert forged.status_code == 403 and forged.json()["error"] == "bad_origin"
        same = httpx.post(server.base + "/api/tables", json={}, headers={"Origin": server.base})
        assert same.status_code == 201
        with pytest.raises(InvalidStatus):
            connect(
                server.ws_url(same.json()["table_id"]),
                additional_headers={"Origin": "https://evil.example"},
            )


def test_forwarded_for_is_believed_only_from_named_proxies(storage: Storage) -> None:
    def creates(settings: Any, forwarded: list[str]) -> list[int]:
        with running(Storage(storage.url), settings) as server:
            return [
                httpx.post(
                    server.base + "/api/tables", json={}, headers={"X-Forwarded-For": f}
                ).status_code
                for f in forwarded
            ]

    spoofed = [f"198.51.100.{i}" for i in range(4)]
    # Loopback is not a named proxy: the header is ignored and the limit holds.
    assert creates(fast_settings(create_rate=2), spoofed) == [201, 201, 429, 429]
    # From a named proxy each forwarded address has its own allowance.
    trusted = fast_settings(create_rate=2, trusted_proxies=("127.0.0.1",))
    assert creates(trusted, spoofed) == [201] * 4


def test_an_ipv6_network_of_one_client_counts_as_one_address(storage: Storage) -> None:
    """Each client of an IPv6 network holds a whole /64: counted address by address, one
    of them made tables (and took sockets, hellos, hints) without end by taking a new
    address for each."""
    settings = fast_settings(create_rate=2, trusted_proxies=("127.0.0.1",))
    with running(storage, settings) as server:

        def create(forwarded: str) -> int:
            return httpx.post(
                server.base + "/api/tables", json={}, headers={"X-Forwarded-For": forwarded}
            ).status_code

        same_network = ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff::3"]
        assert [create(address) for address in same_network] == [201, 201, 429]
        # Another network has its own allowance; an IPv4 address mapped into IPv6 is
        # that IPv4 address.
        assert create("2001:db8:5:7::1") == 201
        assert [create("198.51.100.9"), create("::ffff:198.51.100.9")] == [201, 201]
        assert create("198.51.100.9") == 429


def test_every_odd_request_gets_a_4xx_with_a_message(server: ServerThread) -> None:
    table_id = server.post("/api/tables", {}).json()["table_id"]
    for path in (
        f"/api/tables/{table_id}/games/9223372036854775808/record",
        f"/api/tables/{table_id}/games/-1/record",
        f"/api/tables/{table_id}/games/１/record",
        "/api/tables/%00%ff/join",
        "/api/tables/" + "x" * 5000,
    ):
        answer = server.get(path)
        assert 400 <= answer.status_code < 500, (path, answer.status_code)
    for body in (b"[]", b"{", b'{"name": 5}', b"\xff\xfe", b'{"options": []}'):
        answer = httpx.post(server.base + "/api/tables", content=body)
        assert answer.status_code == 400 and answer.json()["message"], body


def test_joins_connections_and_hellos_are_limited_per_address(storage: Storage) -> None:
    settings = fast_settings(join_rate=2, connect_rate=3, sockets_per_address=2)
    with running(storage, settings) as server:
        table_id = server.post("/api/tables", {"players": 6}).json()["table_id"]
        joins = [server.post(f"/api/tables/{table_id}/join", {}).status_code for _ in range(3)]
        assert joins == [200, 200, 429]
        url = server.ws_url(table_id)
        first, second = Player(url).open(), Player(url).open()
        with pytest.raises(InvalidStatus):
            connect(url)  # a third socket at once
        first.close()
        second.close()
        time.sleep(0.2)
        with pytest.raises(InvalidStatus):
            connect(url)  # the fourth connection in a minute


def test_tables_per_address_are_capped(storage: Storage) -> None:
    with running(storage, fast_settings(tables_per_address=2)) as server:
        answers = [server.post("/api/tables", {}) for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 429]
        assert answers[2].json()["error"] == "too_many_tables"
        # Leaving a table does not free a place (its game waits for the player): the
        # refusal says what does.
        message = answers[2].json()["message"]
        assert "finish one" in message and "leave one" not in message, message


def test_friends_tables_are_unlisted_unless_the_host_says_so(server: ServerThread) -> None:
    hidden = server.post("/api/tables", {}).json()
    shown = server.post("/api/tables", {"listed": True}).json()
    # Both hosts have their tables open (a table whose host has gone is not listed).
    other = Player(server.ws_url(shown["table_id"]), token=shown["token"]).open()
    host = Player(server.ws_url(hidden["table_id"]), token=hidden["token"]).open()
    listed = [t["id"] for t in server.get("/api/tables").json()["tables"]]
    assert shown["table_id"] in listed and hidden["table_id"] not in listed
    assert host.request({"type": "list", "listed": True})["type"] == "ack"
    listed = [t["id"] for t in server.get("/api/tables").json()["tables"]]
    assert hidden["table_id"] in listed
    host.close()
    other.close()


def test_the_turn_clock_moves_for_an_idle_person_then_gives_the_seat_to_a_bot(
    storage: Storage,
) -> None:
    with running(storage, fast_settings(turn_clock=0.3, timeouts_to_bot=2)) as server:
        # Alone against bots nobody waits: no clock runs (it took a slow player's seat).
        solo = server.post("/api/play-now", {}).json()
        alone = Player(server.ws_url(solo["table_id"]), token=solo["token"]).open()
        dealt = alone.until(lambda m: m["type"] == "state")["state"]
        assert dealt["phase"] == "passing" and dealt["clock_left"] is None
        time.sleep(1.0)
        assert not server.hub.tables[solo["table_id"]].seats[solo["seat"]].timeouts
        alone.close()
        # At a table with another person, it moves for the idle one.
        table_id, idle, friend = host_and_guest(server)
        assert idle.request({"type": "start"})["type"] == "ack"
        table = server.hub.tables[table_id]
        first = idle.until(lambda m: m["type"] == "state")["state"]
        assert 0 < first["clock_left"] <= 0.3
        # The friend plays (a clock runs only while another person is there to wait).
        playing = threading.Thread(target=friend.play, kwargs={"stop_after": 8}, daemon=True)
        playing.start()
        # Connected but never moving: the game goes on without them.
        idle.until(lambda m: m["type"] == "state" and m["seq"] >= 10, timeout=30)
        playing.join(timeout=60)
        seat = table.seats[0]
        assert seat.timeouts >= 2 and seat.away
        # The person's page is told each time the clock runs out on them.
        told = [json.loads(text) for text in idle.texts]
        overdue = [m["table"]["seats"][0]["overdue"] for m in told if m["type"] == "table"]
        # ... and told when the move has been made: "overdue" stayed true, so the second
        # time-out, the one that gives the seat to a bot, was never said.
        flips = [now for before, now in itertools.pairwise(overdue) if now != before]
        assert flips[:3] == [True, False, True], overdue
        # Acting again takes the seat back from the bot.
        assert idle.request({"type": "auto", "play_one": True})["type"] == "ack"
        assert (not seat.away and seat.timeouts == 0) or table.status == "finished"
        idle.close()
        friend.close()


def test_a_person_who_moves_once_their_time_is_up_is_no_longer_overdue(
    storage: Storage,
) -> None:
    """Found by a tester: a person who made their move themselves after the clock ran
    out (before the bot did) stayed "overdue" on every page, so the next time-out was
    never said.  The seats' summary is sent again with the move."""
    with running(storage, fast_settings(turn_clock=1.5, bot_delay=4.0)) as server:
        _, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        hand = ann.until(lambda m: m["type"] == "state")["state"]["hand"]
        dealt = bob.until(lambda m: m["type"] == "state")["state"]["hand"]
        assert bob.request({"type": "pass", "cards": dealt[:3]})["type"] == "ack"
        ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["overdue"])
        assert ann.request({"type": "pass", "cards": hand[:3]})["type"] == "ack"
        for player in (ann, bob):
            player.until(
                lambda m: (
                    m["type"] == "state"
                    and any(e["event"] == "passed" and e["seat"] == 0 for e in m["events"])
                )
            )
            after = player.recv()
            assert after["type"] == "table", after
            assert after["table"]["seats"][0]["overdue"] is False
        for player in (ann, bob):
            player.close()


def test_taking_a_seat_back_at_ones_turn_shows_the_clock_that_runs(storage: Storage) -> None:
    """Found by a tester: a person who took their seat back from the bot at their turn
    (the page's button sends ``auto``, or the link is opened again) was sent a state with
    no time left on it, while the clock ran for them: the computer moved for them again,
    unannounced."""
    settings = fast_settings(turn_clock=1.5, bot_delay=4.0, timeouts_to_bot=1)
    with running(storage, settings) as server:
        _, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        dealt = bob.until(lambda m: m["type"] == "state")["state"]["hand"]
        assert bob.request({"type": "pass", "cards": dealt[:3]})["type"] == "ack"
        ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["bot_playing"])
        # The bot has not passed for her yet (it waits bot_delay): she takes the seat back.
        assert ann.request({"type": "auto", "play_one": True})["type"] == "ack"
        back = ann.until(lambda m: m["type"] == "state")["state"]
        assert back["passed"] is None and not back["bot_playing"], back
        assert back["clock_left"] is not None and back["clock_left"] > 0, back["clock_left"]
        # So does coming back by the link after leaving.
        assert ann.request({"type": "leave"})["type"] == "ack"
        ann.until(lambda m: m["type"] == "state" and m["state"]["bot_playing"])
        again = Player(ann.url, token=ann.token, auto_play_one=True).open()
        state = again.until(lambda m: m["type"] == "state")["state"]
        assert state["passed"] is None and not state["bot_playing"], state
        assert state["clock_left"] is not None and state["clock_left"] > 0, state["clock_left"]
        for player in (ann, bob, again):
            player.close()


def test_the_clock_that_starts_when_someone_comes_back_is_shown_to_the_person_to_act(
    storage: Storage,
) -> None:
    """Found by a tester: with the only other person gone no clock ran for Bob; when Ann
    came back by the link, Bob's clock started again, but his page was not told: no time
    left shown or said, until the computer moved for him."""
    with running(storage, fast_settings(turn_clock=5)) as server:
        table_id, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        assert bob.until(lambda m: m["type"] == "state")["state"]["clock_left"] is not None
        assert ann.request({"type": "leave"})["type"] == "ack"
        # The bots pass, one for Ann: Bob, alone with bots, has no clock.
        alone = bob.until(lambda m: m["type"] == "state" and m["state"]["waiting_for"] == [1])
        assert alone["state"]["passed"] is None and alone["state"]["clock_left"] is None
        back = Player(ann.url, token=ann.token, auto_play_one=True).open()
        clocked = bob.until(lambda m: m["type"] == "state", timeout=5)["state"]
        assert clocked["passed"] is None and clocked["clock_left"] is not None, clocked
        assert server.hub.tables[table_id].clock_handle is not None
        for player in (ann, bob, back):
            player.close()


def test_a_pass_the_clock_makes_keeps_the_cards_the_person_picked(storage: Storage) -> None:
    """Found by a tester: the clock's pass ignored the cards the player had picked (the
    picks lived only in the page); the page now tells the server its picks."""
    with running(storage, fast_settings(turn_clock=1.5, timeouts_to_bot=3)) as server:
        _, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        state = ann.until(lambda m: m["type"] == "state")["state"]
        hand = state["hand"]
        # The two lowest cards: what a bot would hardly pass of its own accord.
        lowest = sorted(hand, key=lambda code: "23456789TJQKA".index(code[0]))[:2]
        too_many = ann.request({"type": "picks", "cards": hand[:4]})
        assert too_many["type"] == "error" and "at most three" in too_many["message"]
        stranger = next(c for c in ("AS", "KS", "QS", "JS") if c not in hand)
        not_held = ann.request({"type": "picks", "cards": [stranger]})
        assert not_held["type"] == "error" and "do not hold" in not_held["message"]
        assert ann.request({"type": "picks", "cards": lowest})["type"] == "ack"
        passed = ann.until(lambda m: m["type"] == "state" and m["state"]["passed"], timeout=10)
        made = passed["state"]["passed"]
        assert len(made) == 3 and set(lowest) <= set(made), (lowest, made)
        # The page is told the computer passed for the person.
        assert any(
            e.get("event") == "passed" and e.get("seat") == 0 and e.get("auto_reason")
            for e in passed["events"]
        ), passed["events"]
        # Picks after the pass are refused in the pass's own words.
        late = ann.request({"type": "picks", "cards": []})
        assert late["type"] == "error" and "already passed" in late["message"]
        for player in (ann, bob):
            player.close()


def test_no_clock_runs_once_every_other_person_has_left(storage: Storage) -> None:
    """Found by a tester: alone with bots after the friend left, the clock still moved
    for the one who stayed (and took the game out of their statistics)."""
    with running(storage, fast_settings(turn_clock=5)) as server:
        table_id, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        assert ann.until(lambda m: m["type"] == "state")["state"]["clock_left"] is not None
        assert bob.request({"type": "leave"})["type"] == "ack"
        table = server.hub.tables[table_id]
        wait_for(lambda: table.clock_handle is None, what="the clock to stop")
        stopped = ann.until(lambda m: m["type"] == "state" and m["state"]["clock_left"] is None)
        assert stopped["state"]["phase"] in ("passing", "playing")
        for player in (ann, bob):
            player.close()


def test_a_page_connecting_does_not_start_the_clock_again(storage: Storage) -> None:
    """Each connection started the turn clock afresh: a page opened again gave more
    time than the clock, and more than the page showed."""
    with running(storage, fast_settings(turn_clock=5)) as server:
        table_id, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        first = ann.until(lambda m: m["type"] == "state")["state"]["clock_left"]
        time.sleep(1.0)
        again = Player(server.ws_url(table_id), token=ann.token).open()
        later = again.until(lambda m: m["type"] == "state")["state"]["clock_left"]
        assert later <= first - 0.9, (first, later)
        # Bob passing does not start Ann's clock again either.
        cards = bob.until(lambda m: m["type"] == "state")["state"]["hand"][:3]
        assert bob.request({"type": "pass", "cards": cards})["type"] == "ack"
        after = ann.until(
            lambda m: (
                m["type"] == "state" and {"event": "passed", "seat": 1} in m["events"]
            )  # Bob's
        )
        assert after["state"]["clock_left"] <= later
        for player in (ann, bob, again):
            player.close()


def test_a_per_table_clock_is_bounded_by_the_server(storage: Storage) -> None:
    with running(storage, fast_settings(turn_clock=60, max_turn_clock=120)) as server:
        slow = server.post("/api/tables", {"turn_clock": 3000}).json()
        assert slow["table"]["turn_clock"] == 120
        off = server.post("/api/tables", {"turn_clock": 0}).json()
        assert off["table"]["turn_clock"] == 0


def test_player_tokens_are_the_servers_and_hints_make_a_game_unrated(
    server: ServerThread,
) -> None:
    weak = "a" * 16
    data = server.post("/api/play-now", {"player_token": weak}).json()
    assert data["player_token"] != weak
    again = server.post("/api/tables", {"player_token": data["player_token"]}).json()
    assert again["player_token"] == data["player_token"]
    table = server.hub.tables[data["table_id"]]
    player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
    player.until(lambda m: m["type"] == "state")
    assert table.rated
    hint = player.request({"type": "hint"})
    assert hint["type"] in ("hint", "error")
    assert not table.rated and not server.get(f"/api/tables/{data['table_id']}").json()["rated"]
    # The page is told at once (its statistics say why the game will not count).
    told = [json.loads(text) for text in player.texts]
    assert any(m["type"] == "table" and m["table"]["rated"] is False for m in told)
    player.close()


def test_an_abandoned_table_stops_its_bots_until_someone_comes_back(storage: Storage) -> None:
    settings = fast_settings(abandon_after=0.3, bot_delay=0.02, turn_clock=0)
    with running(storage, settings) as server:
        data = server.post("/api/play-now", {"options": {"end_score": 100}}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        player.close()  # gone: a bot plays for them, for a while
        time.sleep(1.5)
        stored = server.hub.storage.load_table(data["table_id"])
        assert stored is not None and stored.game is not None
        moves = len(stored.game.actions)
        time.sleep(0.5)
        stored = server.hub.storage.load_table(data["table_id"])
        assert stored is not None and stored.game is not None
        assert len(stored.game.actions) == moves, "the bots went on at an abandoned table"
        assert stored.status == "playing"
        back = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        # Back: the game goes on (their own moves, and the bots' after them).
        back.play(stop_after=2, timeout=30)
        back.close()
        stored = server.hub.storage.load_table(data["table_id"])
        assert stored is not None and stored.game is not None
        assert len(stored.game.actions) > moves + 1


def test_one_address_cannot_fill_a_tables_audience(storage: Storage) -> None:
    with running(storage, fast_settings(spectators_per_address=2)) as server:
        table_id = server.post("/api/tables", {}).json()["table_id"]
        url = server.ws_url(table_id)
        watchers = [Player(url).open() for _ in range(3)]
        assert [w.welcome["type"] if w.welcome else None for w in watchers] == [
            "welcome",
            "welcome",
            "error",
        ]
        assert watchers[2].welcome is not None and watchers[2].welcome["code"] == "full"
        for watcher in watchers:
            watcher.close()


def test_every_per_address_limit_is_an_option_of_hearts_serve() -> None:
    from openhearts.cli import build_parser
    from openhearts.web.exposure import exposure_settings

    names = ("create", "join", "connect", "hello", "malformed", "hint")
    given = [f"--{name}-rate={index + 1}" for index, name in enumerate(names)]
    args = build_parser("serve").parse_args(["serve", *given])
    values = exposure_settings(args)
    settings = fast_settings(**values, create_rate=args.create_rate)
    assert settings.address_rates() == {name: index + 1 for index, name in enumerate(names)}


@pytest.mark.parametrize("option", ["--allowed-host", "--allowed-origin", "--trusted-proxy"])
def test_an_empty_name_is_refused(option: str) -> None:
    """``--allowed-host ''`` stopped the warning that any Host name is answered, while
    every Host name still was."""
    from openhearts.cli import build_parser
    from openhearts.web.exposure import exposure_settings

    args = build_parser("serve").parse_args(["serve", "--host", "0.0.0.0", option, " "])
    what = "an address" if option == "--trusted-proxy" else "a name"
    with pytest.raises(ValueError, match=f"^{option}: {what}, not an empty one$"):
        exposure_settings(args)


def test_a_client_that_stops_reading_is_let_go_at_once() -> None:
    """Its outbox overflowed and was closed, but the server went on waiting for its next
    message, which never came: it kept its seat (no bot, no abandonment) for ever."""
    import asyncio

    from openhearts.web.connection import Connection
    from openhearts.web.protocol import OUTBOX_LIMIT
    from openhearts.web.server import _receive

    class Silent:
        async def receive(self) -> dict[str, Any]:
            await asyncio.Event().wait()
            raise AssertionError("a silent client sends nothing")

    async def scenario() -> tuple[object, bool, int]:
        connection = Connection()
        waiting = asyncio.create_task(_receive(Silent(), connection, None))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        assert not waiting.done(), "waits for the client while it reads"
        for number in range(OUTBOX_LIMIT + 1):
            connection.send({"type": "pong", "n": number})
        message = await asyncio.wait_for(waiting, 1)
        return message, connection.closed, connection.close_code

    assert asyncio.run(scenario()) == (None, True, 1008)


def slow_to_store(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, seat: int, seconds: float
) -> None:
    """Storing ``seat``'s actions takes ``seconds``: the clock runs out meanwhile."""
    stored = storage.append_action

    def slowly(table_id: str, number: int, action: Any) -> None:
        if action.seat == seat:
            time.sleep(seconds)
        stored(table_id, number, action)

    monkeypatch.setattr(storage, "append_action", slowly)


def test_a_move_still_being_stored_when_the_clock_runs_out_takes_no_turn_from_the_next(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock ran out while the card a person played in time was still being stored
    (their move already made in memory): the time-out was taken for the next person's,
    whose move a bot then made at once, a turn they never had."""
    rules = Rules.preset("standard")
    game = Game(rules, seed="clock-race")
    bots = [make_bot("random", seed=seat) for seat in range(rules.players)]
    # Ann (seat 0) to play a card that is not the trick's last: Bob (seat 1) plays next.
    while not (
        game.phase == "playing" and game.current_player == 0 and len(game.view(0).trick) < 3
    ):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    ann_token, bob_token = "A" * 32, "B" * 32
    store_game(
        storage, "ClockRace", "standard", game, 0, ann_token, auto_play_one=False,
        guests={1: bob_token},
    )  # fmt: skip
    slow_to_store(storage, monkeypatch, seat=0, seconds=4.0)  # past the 3 s clock
    with running(storage, fast_settings(turn_clock=3.0)) as server:
        url = server.ws_url("ClockRace")
        ann = Player(url, token=ann_token, auto_play_one=True).open()
        bob = Player(url, token=bob_token, auto_play_one=True).open()
        mine = ann.until(lambda m: m["type"] == "state")["state"]
        assert mine["to_move"] == 0 and mine["clock_left"] is not None, mine
        played = ann.request({"type": "play", "card": mine["legal"][0]}, timeout=10)
        assert played["type"] == "ack", played
        turn = bob.until(lambda m: m["type"] == "state" and m["state"]["to_move"] == 1)
        table = server.hub.tables["ClockRace"]
        assert table.seats[1].timeouts == 0 and not table.seats[1].overdue
        assert turn["state"]["clock_left"] is not None, turn["state"]
        for player in (ann, bob):
            player.close()


def test_a_pass_still_being_stored_when_the_clock_runs_out_gives_no_one_more_time(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While passing everyone's clock is one: when it ran out while one person's pass
    was still being stored, the person who had not passed must not get the whole clock
    again once that pass is stored."""
    slow_to_store(storage, monkeypatch, seat=1, seconds=3.0)  # past the 2 s clock
    with running(storage, fast_settings(turn_clock=2.0, timeouts_to_bot=3)) as server:
        table_id, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        hand = bob.until(lambda m: m["type"] == "state")["state"]["hand"]
        assert bob.request({"type": "pass", "cards": hand[:3]}, timeout=10)["type"] == "ack"
        shown = ann.until(
            lambda m: m["type"] == "state" and {"event": "passed", "seat": 1} in m["events"]
        )
        assert shown["state"]["passed"] is None
        assert not shown["state"]["clock_left"], shown["state"]["clock_left"]
        # Her time is up: the computer passes for her.
        ann.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["overdue"])
        assert server.hub.tables[table_id].seats[0].timeouts == 1
        for player in (ann, bob):
            player.close()
