"""The web server over real sockets: whole games, reconnects, bot takeover, restarts,
refused messages, and no card ever sent to a client that could not know it."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from openhearts import FirstTrick, Game, HeartsBreak, MoonScoring, Rules, record
from openhearts.bots import act, make_bot
from openhearts.cards import Card
from openhearts.session.checks import moon_problem, not_now, pass_problem
from openhearts.web import hub as hub_module
from openhearts.web.settings import Settings
from openhearts.web.storage import ActionRow, Storage
from openhearts.web.table import Table
from web_support import (
    ACTIONS,
    Outage,
    Player,
    ServerThread,
    check_knowledge,
    check_no_inference,
    fast_settings,
    host_and_guest,
    new_table,
    play_all,
    running,
    settled_game,
    store_game,
    timeline,
    wait_for,
    watch,
)


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    return Storage(f"sqlite:///{tmp_path / 'hearts.sqlite3'}")


@pytest.fixture
def server(storage: Storage) -> Iterator[ServerThread]:
    with running(storage) as started:
        yield started


def four_players(server: ServerThread, **options: Any) -> tuple[str, list[Player]]:
    host = new_table(server, name="Ann", options=options)
    table_id = host["table_id"]
    tokens = [host["token"]]
    for name in ("Bob", "Cy", "Di"):
        joined = server.post(f"/api/tables/{table_id}/join", {"name": name})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    players = [
        Player(server.ws_url(table_id), token=token, seed=index).open()
        for index, token in enumerate(tokens)
    ]
    return table_id, players


def finished_record(server: ServerThread, table_id: str, number: int = 1) -> str:
    answer = server.get(f"/api/tables/{table_id}/games/{number}/record")
    assert answer.status_code == 200, answer.text
    return answer.text


# Whole games --------------------------------------------------------------------------


def test_four_clients_play_a_whole_game_and_nobody_learns_a_hidden_card(
    server: ServerThread,
) -> None:
    table_id, players = four_players(server, end_score=60)
    spectator = Player(server.ws_url(table_id)).open()
    assert spectator.welcome is not None and spectator.welcome["role"] == "spectator"
    assert [p.welcome["seat"] for p in players if p.welcome] == [0, 1, 2, 3]
    assert players[0].request({"type": "start"})["type"] == "ack"
    play_all(players)
    watch(spectator)
    spectator.close()
    for player in players:
        assert player.errors == []
        player.close()

    text = finished_record(server, table_id)
    game = record.loads(text)
    assert game.is_over
    finals = [p.state for p in players]
    assert all(f["scores"] == game.scores for f in finals)
    assert all(f["winners"] == game.winners for f in finals)
    assert spectator.state["scores"] == game.scores

    moments = timeline(text)
    checked = sum(
        check_knowledge(p.texts, seat, moments, table_id) for seat, p in enumerate(players)
    )
    checked += check_knowledge(spectator.texts, None, moments, table_id)
    assert checked > 1000
    assert sum(check_no_inference(p.texts, seat) for seat, p in enumerate(players)) > 100

    summary = server.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "finished"


def test_against_bots_with_a_spectator_no_card_leaks(server: ServerThread) -> None:
    created = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 40}})
    assert created.status_code == 201
    data = created.json()
    table_id = data["table_id"]
    assert data["table"]["status"] == "playing"
    assert [s["kind"] for s in data["table"]["seats"]] == ["human", "bot", "bot", "bot"]
    spectator = Player(server.ws_url(table_id)).open()
    player = Player(server.ws_url(table_id), token=data["token"], seed=5).open()
    player.play()
    watch(spectator)
    player.close()
    spectator.close()
    assert player.errors == []
    text = finished_record(server, table_id)
    moments = timeline(text)
    assert check_knowledge(player.texts, 0, moments, table_id) > 100
    assert check_knowledge(spectator.texts, None, moments, table_id) > 100
    assert check_no_inference(spectator.texts, None) > 100

    stats = server.get(
        "/api/stats", headers={"Authorization": f"Bearer {data['player_token']}"}
    ).json()
    assert stats["games"] == 1
    assert stats["wins"] == int(0 in record.loads(text).winners)


def test_a_game_with_auto_play_one_on_needs_no_forced_moves(server: ServerThread) -> None:
    data = server.post("/api/play-now", {"options": {"end_score": 30}}).json()
    spectator = Player(server.ws_url(data["table_id"])).open()
    player = Player(server.ws_url(data["table_id"]), token=data["token"], auto_play_one=True)
    # The scripted player sends no card the server is to play (a sole legal card, or
    # any once the deal is settled): it would wait for ever if the server did not.
    player.open()
    player.play()
    player.close()
    watch(spectator)
    spectator.close()
    # Only the player hears that a card was played for them: to a spectator the
    # forced cards look like chosen ones.
    assert check_no_inference(spectator.texts, None) > 20
    assert player.errors == []
    autos = [
        e
        for t in player.texts
        for e in json.loads(t).get("events", [])
        if e["event"] == "played" and e["seat"] == 0 and e.get("auto")
    ]
    assert autos, "no card was played by Auto play one"
    assert {e["auto_reason"] for e in autos} <= {"only_card", "settled"}, autos


def _events(texts: list[str]) -> list[dict[str, Any]]:
    return [e for t in texts for e in json.loads(t).get("events", [])]


def test_a_settled_deal_plays_itself_with_auto_play_one_on_and_waits_with_it_off(
    storage: Storage,
) -> None:
    game = settled_game()
    me = game.current_player
    assert me is not None
    token = "S" * 32
    store_game(storage, "settledtable", "standard", game, me, token, auto_play_one=False)
    with running(Storage(storage.url), fast_settings(takeover_delay=60)) as server:
        url = server.ws_url("settledtable")
        table = server.hub.tables["settledtable"]
        watcher = Player(url).open()
        # The setting is off already: the scripted player does not touch it.
        player = Player(url, token=token, auto_play_one=True).open()
        state = player.until(lambda m: m["type"] == "state")["state"]
        assert state["settled"] is True and state["auto_play_one"] is False
        assert state["to_move"] == me and len(state["legal"]) > 1
        # Public: a spectator is told too (and never of a card).
        assert watcher.until(lambda m: m["type"] == "state")["state"]["settled"] is True

        # Off: the game waits for the person, settled or not, and takes their card.
        time.sleep(0.3)
        assert table.seq == state["seq"]
        assert player.request({"type": "play", "card": state["legal"][-1]})["type"] == "ack"
        again = player.until(
            lambda m: m["type"] == "state" and m["state"]["to_move"] == me and m["seq"] > 0
        )["state"]
        assert again["settled"] is True and again["deal"] == 0
        time.sleep(0.3)
        assert table.seq == again["seq"]

        # On: every card left in the hand is played for the person, lowest legal first,
        # while they send nothing.
        left = again["hand"]
        before = len(player.texts)
        assert player.request({"type": "auto", "play_one": True})["type"] == "ack"
        over = player.until(
            lambda m: m["type"] == "state" and any(e["event"] == "deal_over" for e in m["events"]),
            timeout=30,
        )
        events = _events(player.texts[before:])
        mine = [e for e in events if e["event"] == "played" and e["seat"] == me]
        assert sorted(e["card"] for e in mine) == sorted(left)
        assert all(e.get("auto") is True and e["auto_reason"] == "settled" for e in mine)
        lowest = None
        for message in map(json.loads, player.texts[before:]):
            if message["type"] != "state":
                continue
            for event in message["events"]:
                if event["event"] == "played" and event["seat"] == me:
                    assert event["card"] == lowest
            current = message["state"]
            lowest = current["legal"][0] if current["to_move"] == me else None
        assert not [json.loads(t) for t in player.texts if json.loads(t)["type"] == "error"]
        assert over["state"]["deal"] == 1 and over["state"]["settled"] is False

        # Undo goes back past the cards the server would only play again, to the last
        # decision that was the person's to make: nothing is replayed after it.
        assert player.request({"type": "undo"})["type"] == "ack"
        undone = player.until(
            lambda m: m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
        )
        assert undone["state"]["deal"] == 0 and me in undone["state"]["waiting_for"]
        assert not (undone["state"]["settled"] and len(undone["state"]["legal"]) > 1)
        time.sleep(0.3)
        assert table.seq == undone["seq"]
        for client in (player, watcher):
            client.close()


# Seats: reconnect, takeover, shuffled seating ------------------------------------------


def test_reconnect_gives_the_same_seat_and_hand(storage: Storage) -> None:
    with running(storage, fast_settings(takeover_delay=60)) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        player.play(stop_after=6)
        before = player.state
        player.close()
        wait_for(
            lambda: (
                not server.get(f"/api/tables/{data['table_id']}").json()["seats"][0]["connected"]
            ),
            what="the seat to show as disconnected",
        )
        again = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        assert again.welcome is not None
        assert again.welcome["seat"] == 0 and again.welcome["role"] == "player"
        state = again.until(lambda m: m["type"] == "state")["state"]
        assert state["hand"] == before["hand"]
        assert state["seq"] >= before["seq"]
        assert not state["bot_playing"]
        again.play()
        again.close()
        assert again.errors == []


def test_a_bot_plays_for_a_player_who_drops_until_they_return(storage: Storage) -> None:
    with running(storage, fast_settings(takeover_delay=0, bot_delay=0.005)) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}}).json()
        table_id = data["table_id"]
        player = Player(server.ws_url(table_id), token=data["token"]).open()
        player.play(stop_after=2)
        seq = player.latest["seq"] if player.latest else 0
        player.close()
        watcher = Player(server.ws_url(table_id)).open()
        # The game goes on without the player: the bot passes and plays seat 0's cards.
        watcher.until(
            lambda m: (
                m["type"] == "state"
                and any(e.get("seat") == 0 and e["event"] == "played" for e in m["events"])
                and m["seq"] > seq + 4
            ),
            timeout=30,
        )
        summary = server.get(f"/api/tables/{table_id}").json()
        assert summary["seats"][0]["bot_playing"] is True
        assert summary["seats"][0]["connected"] is False

        back = Player(server.ws_url(table_id), token=data["token"]).open()
        summary = server.get(f"/api/tables/{table_id}").json()
        assert summary["seats"][0]["bot_playing"] is False
        assert back.welcome is not None and back.welcome["seat"] == 0
        # From now on the game waits for the person again.
        state = back.until(
            lambda m: (
                m["type"] == "state"
                and (0 in m["state"]["waiting_for"] or m["state"]["phase"] == "game_over")
            ),
            timeout=30,
        )["state"]
        if state["phase"] != "game_over":
            time.sleep(0.3)
            assert 0 in server.hub.tables[table_id].game.to_act()  # type: ignore[union-attr]
        back.play()
        back.close()
        watcher.close()


def test_leave_hands_the_seat_to_a_bot_at_once(storage: Storage) -> None:
    with running(storage, fast_settings(takeover_delay=60)) as server:
        data = server.post("/api/play-now", {"options": {"end_score": 20}}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        assert player.request({"type": "leave"})["type"] == "ack"
        # The page learns at the bot's first move that the game will not count (found by
        # a tester: nothing said so).
        helped = player.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["helped"], timeout=30
        )
        assert helped["table"]["rated"] is True
        player.until(
            lambda m: m["type"] == "state" and m["state"]["phase"] == "game_over", timeout=60
        )
        assert player.state["bot_playing"] is True
        # A game the bots played for the person is not counted as theirs.
        stats = server.get(
            "/api/stats", headers={"Authorization": f"Bearer {data['player_token']}"}
        ).json()
        assert stats["games"] == 0, stats
        stored = server.hub.storage.load_table(data["table_id"])
        assert stored is not None and stored.seats[0].helped  # a restart keeps it so
        # The host starts another game at the same table; acting brings them back.
        assert player.request({"type": "start"})["type"] == "ack"
        state = player.until(lambda m: m["type"] == "state")["state"]
        assert state["game"] == 2 and state["seq"] == 0 and state["phase"] == "passing"
        assert not server.get(f"/api/tables/{data['table_id']}").json()["seats"][0]["helped"]
        assert player.request({"type": "pass", "cards": state["hand"][:3]})["type"] == "ack"
        assert not player.until(lambda m: m["type"] == "state")["state"]["bot_playing"]
        assert server.get(f"/api/tables/{data['table_id']}/games/1/record").status_code == 200
        player.close()


def test_leaving_hands_the_seat_to_a_bot_and_the_link_brings_the_player_back(
    storage: Storage,
) -> None:
    with running(storage, fast_settings(takeover_delay=60)) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        guest = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        bob = Player(server.ws_url(table_id), token=guest["token"]).open()
        assert ann.request({"type": "start"})["type"] == "ack"
        dealt = ann.until(lambda m: m["type"] == "state")["state"]
        assert dealt["phase"] == "passing" and dealt["passed"] is None

        assert ann.request({"type": "leave"})["type"] == "ack"
        # The bot passes for Ann at once, although her connection is still open and
        # the takeover delay is a minute.
        passed = ann.until(lambda m: m["type"] == "state" and m["state"]["passed"] is not None)
        assert passed["state"]["bot_playing"] is True
        seat = server.get(f"/api/tables/{table_id}").json()["seats"][0]
        assert seat["bot_playing"] is True and seat["kind"] == "human"
        ann.close()

        # Opening the link again (hello with the kept token) gives her the same seat,
        # with what the bot did for her, before she acts at all.
        back = Player(server.ws_url(table_id), token=host["token"], auto_play_one=True).open()
        assert back.welcome is not None
        assert back.welcome["seat"] == 0 and back.welcome["role"] == "player"
        assert back.welcome["table"]["seats"][0]["bot_playing"] is False
        state = back.until(lambda m: m["type"] == "state")["state"]
        assert state["seat"] == 0 and state["names"][0] == "Ann"
        assert state["passed"] == passed["state"]["passed"]
        assert state["bot_playing"] is False
        seat = server.get(f"/api/tables/{table_id}").json()["seats"][0]
        assert seat["bot_playing"] is False and seat["connected"] is True

        # The game now waits for her again (with "Auto play one" off, at every turn of
        # hers): Bob passes and plays, the bots play, and it stops at her first turn.
        assert back.request({"type": "auto", "play_one": False})["type"] == "ack"
        bob_hand = bob.until(lambda m: m["type"] == "state")["state"]["hand"]
        assert bob.request({"type": "pass", "cards": bob_hand[:3]})["type"] == "ack"
        while True:
            current = back.until(
                lambda m: m["type"] == "state" and m["state"]["phase"] == "playing", timeout=30
            )
            if current["state"]["to_move"] == 0:
                break
            if current["state"]["to_move"] == 1:
                mine = bob.until(
                    lambda m, seq=current["seq"]: m["type"] == "state" and m["seq"] == seq
                )["state"]
                assert bob.request({"type": "play", "card": mine["legal"][0]})["type"] == "ack"
        time.sleep(0.3)
        game = server.hub.tables[table_id].game
        assert game is not None and game.to_act() == [0]
        assert server.hub.tables[table_id].seq == current["seq"]
        for player in (back, bob):
            player.close()


def test_shuffled_seating_moves_tokens_with_their_players(server: ServerThread) -> None:
    host = new_table(server, name="Ann", preset="source-002", players=3)
    table_id = host["table_id"]
    joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
    ann = Player(server.ws_url(table_id), token=host["token"]).open()
    bob = Player(server.ws_url(table_id), token=joined["token"]).open()
    assert ann.request({"type": "start"})["type"] == "ack"
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        state = player.until(lambda m: m["type"] == "state")["state"]
        assert state["names"][state["seat"]] == name
        assert player.welcome is not None and player.welcome["seat"] == state["seat"]
    ann.close()
    bob.close()


# Restarts ----------------------------------------------------------------------------


def test_a_restarted_server_resumes_the_game_where_it_was(storage: Storage) -> None:
    settings = fast_settings(takeover_delay=60)
    with running(storage, settings) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 40}}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        player.play(stop_after=20)
        before = player.state
        player.close()
    url = storage.url
    with running(Storage(url), settings) as server:
        again = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        state = again.until(lambda m: m["type"] == "state")["state"]
        for key in ("seq", "deal", "hand", "trick", "tricks", "scores", "won", "phase"):
            assert state[key] == before[key], key
        again.play()
        again.close()
        assert again.errors == []
        record.loads(finished_record(server, data["table_id"]))


# Refusals ----------------------------------------------------------------------------


def test_malformed_and_illegal_messages_are_refused_and_change_nothing(
    server: ServerThread,
) -> None:
    data = server.post("/api/play-now", {"name": "Ann"}).json()
    table_id = data["table_id"]
    player = Player(server.ws_url(table_id), token=data["token"]).open()
    state = player.until(lambda m: m["type"] == "state")["state"]
    assert state["phase"] == "passing"
    table = server.hub.tables[table_id]
    game = table.game
    assert game is not None

    def count() -> int:
        assert game is not None
        return len(game.actions)

    wait_for(lambda: game.to_act() == [0], what="the bots to pass")
    actions = count()
    # Any card the deal did not give this seat (the five lowest clubs may all be its own).
    not_mine = next(str(Card(n)) for n in range(52) if str(Card(n)) not in state["hand"])
    cases: list[tuple[str | dict[str, Any], str]] = [
        ("this is not json", "bad_message"),
        ("[1, 2, 3]", "bad_message"),
        ('{"type": "play", "card": "QS"', "bad_message"),
        ({"type": "bogus"}, "bad_message"),
        ({"type": 7}, "bad_message"),
        ({"type": "play"}, "bad_message"),
        ({"type": "play", "card": 12}, "bad_message"),
        ({"type": "play", "card": "ZZ"}, "bad_message"),
        ({"type": "play", "card": "QS" * 40}, "bad_message"),
        ({"type": "pass", "cards": "2C 3C 4C"}, "bad_message"),
        ({"type": "pass", "cards": [state["hand"][0]] * 3}, "illegal"),
        ({"type": "pass", "cards": state["hand"][:2]}, "illegal"),
        ({"type": "pass", "cards": [*state["hand"][:2], not_mine]}, "illegal"),
        ({"type": "moon", "others_add": "yes"}, "bad_message"),
        ({"type": "moon", "others_add": True}, "illegal"),
        ({"type": "play", "card": state["hand"][0]}, "illegal"),
        ({"type": "ping", "id": [1]}, "bad_message"),
        ({"type": "hello", "token": data["token"]}, "bad_message"),
        ({"type": "fill", "seat": 1}, "started"),
        ({"type": "start"}, "started"),
        ({"type": "auto", "play_one": 1}, "bad_message"),
        ({"type": "chat", "text": 5}, "bad_message"),
        ({"type": "play", "card": "2C", "padding": "x" * 5000}, "too_large"),
    ]
    for message, code in cases:
        if isinstance(message, dict) and message["type"] in ACTIONS:
            message = {"seq": player.latest["seq"] if player.latest else 0, **message}
        player.send(message)
        answer = player.until(lambda m: m["type"] in ("error", "ack"))
        assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        assert count() == actions, message
    # Nothing was stored either: a fresh load of the table replays the same actions.
    stored = server.hub.storage.load_table(table_id)
    assert stored is not None and stored.game is not None
    assert len(stored.game.actions) == actions

    # A legal pass still works after all that.
    answer = player.request({"type": "pass", "cards": state["hand"][:3]})
    assert answer["type"] == "ack"
    # A card this seat does not hold is refused whether or not it is its turn.
    state = player.until(lambda m: m["type"] == "state" and m["state"]["phase"] == "playing")[
        "state"
    ]
    stranger = next(c for c in ("2C", "3C", "AS", "KH", "QD") if c not in state["hand"])
    other = player.request({"type": "play", "card": stranger})
    assert other["type"] == "error" and other["code"] in ("not_your_turn", "illegal", "stale")
    player.close()


def test_refusals_are_said_in_the_words_of_every_face(server: ServerThread) -> None:
    """The web game refuses in the session's sentences (openhearts.session.checks), as
    the plain and terminal games do, not in the engine's."""
    data = server.post("/api/play-now", {"name": "Ann"}).json()
    player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
    state = player.until(lambda m: m["type"] == "state")["state"]
    game = server.hub.tables[data["table_id"]].game
    assert game is not None
    wait_for(lambda: game.to_act() == [0], what="the bots to pass")
    hand = [Card.parse(c) for c in state["hand"]]
    not_mine = next(Card(c) for c in range(52) if Card(c) not in hand)
    view = game.view(0)
    cases = [
        ({"type": "pass", "cards": state["hand"][:2]}, pass_problem(view, hand[:2])),
        ({"type": "pass", "cards": [state["hand"][0]] * 3}, pass_problem(view, [hand[0]] * 3)),
        (
            {"type": "pass", "cards": [*state["hand"][:2], str(not_mine)]},
            pass_problem(view, [*hand[:2], not_mine]),
        ),
        ({"type": "play", "card": state["hand"][0]}, not_now(view)),
        ({"type": "moon", "others_add": True}, moon_problem(view)),
    ]
    for message, said in cases:
        answer = player.request(message)
        assert answer["type"] == "error" and answer["message"] == said, (message, answer)
    assert player.request({"type": "pass", "cards": state["hand"][:3]})["type"] == "ack"
    # Sent at the position of the moment (the bots play on to this seat's turn).
    wait_for(lambda: game.phase == "playing" and game.to_act() == [0], what="our turn")
    table = server.hub.tables[data["table_id"]]
    again = player.request({"type": "pass", "cards": state["hand"][3:6], "seq": table.seq})
    assert again["message"] == pass_problem(game.view(0), hand[3:6]), again
    assert again["message"] in ("You have already passed.", "There is nothing to pass now.")
    player.close()


def test_one_player_holds_one_seat_at_a_table(server: ServerThread) -> None:
    """Two tabs joining at once with one player token: the second is refused, so no seat
    is left to a bot and no game is counted twice."""
    host = new_table(server, name="Ann")
    path = f"/api/tables/{host['table_id']}/join"
    first = server.post(path, {"name": "Bob"})
    assert first.status_code == 200, first.text
    again = server.post(path, {"name": "Bob", "player_token": first.json()["player_token"]})
    assert again.status_code == 409 and again.json()["error"] == "seated", again.text
    assert "seat 2" in again.json()["message"]
    seats = server.get(f"/api/tables/{host['table_id']}").json()["seats"]
    assert [s["name"] for s in seats].count("Bob") == 1
    assert host["player_token"] != first.json()["player_token"]
    own = server.post(path, {"name": "Ann", "player_token": host["player_token"]})
    assert own.status_code == 409 and own.json()["error"] == "seated"


def test_wrong_tokens_spectators_and_guests_cannot_act(server: ServerThread) -> None:
    host = new_table(server, name="Ann")
    table_id = host["table_id"]
    guest = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()

    stranger = Player(server.ws_url(table_id), token="A" * 32).open()
    assert stranger.welcome is not None and stranger.welcome["code"] == "bad_token"
    answer = stranger.request({"type": "start"})
    assert answer["code"] == "no_hello"
    stranger.send({"type": "hello", "token": "short"})
    assert stranger.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    stranger.send({"type": "hello"})
    assert stranger.until(lambda m: m["type"] == "welcome")["role"] == "spectator"
    for message in (
        {"type": "start"},
        {"type": "play", "card": "2C"},
        {"type": "chat", "text": "hi"},
    ):
        assert stranger.request(message)["code"] == "not_seated"

    bob = Player(server.ws_url(table_id), token=guest["token"]).open()
    assert bob.request({"type": "start"})["code"] == "not_host"
    assert bob.request({"type": "fill", "seat": 2})["code"] == "not_host"
    assert bob.request({"type": "play", "card": "2C"})["code"] == "no_game"

    ann = Player(server.ws_url(table_id), token=host["token"]).open()
    assert ann.request({"type": "fill", "seat": 2, "level": "random"})["type"] == "ack"
    assert ann.request({"type": "fill", "seat": 2})["code"] == "bad_message"
    assert ann.request({"type": "fill", "level": "os:system"})["code"] == "bad_message"
    assert ann.request({"type": "clear", "seat": 2})["type"] == "ack"
    assert ann.request({"type": "clear", "seat": 1})["code"] == "bad_message"
    summary = server.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "empty", "empty"]
    assert ann.request({"type": "start"})["type"] == "ack"
    summary = server.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot", "bot"]
    # A started table has no free seat.
    late = server.post(f"/api/tables/{table_id}/join", {"name": "Eve"})
    assert late.status_code == 409
    for player in (stranger, bob, ann):
        player.close()


def test_flooding_is_rate_limited_and_huge_frames_close_the_connection(
    storage: Storage,
) -> None:
    settings = fast_settings(message_rate=20.0, message_burst=40.0)
    with running(storage, settings) as server:
        flood(server)


def flood(server: ServerThread) -> None:
    data = server.post("/api/play-now", {}).json()
    player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
    for number in range(80):
        player.send({"type": "ping", "id": number})
    codes = []
    for number in range(80):
        answer = player.until(lambda m: m["type"] in ("pong", "error"))
        codes.append(answer.get("code", "pong"))
        # Every message is answered, a refused one too, under its own id: a client
        # waiting for an answer learns that it must send again.
        assert answer["id"] == number
    assert "rate_limited" in codes and "pong" in codes
    with pytest.raises(ConnectionClosed):
        player.send("x" * 100_000)
        player.until(lambda m: False, timeout=5)


def test_the_http_api_refuses_bad_requests(server: ServerThread) -> None:
    def error(path: str, body: Any, status: int) -> str:
        answer = (
            server.post(path, body)
            if not isinstance(body, bytes)
            else __import__("httpx").post(server.base + path, content=body, timeout=20)
        )
        assert answer.status_code == status, (path, body, answer.text)
        code: str = answer.json()["error"]
        return code

    assert error("/api/tables", b"{not json", 400) == "bad_request"
    assert error("/api/tables", b"[1]", 400) == "bad_request"
    assert error("/api/tables", b"{" + b" " * 5000 + b"}", 413) == "too_large"
    assert error("/api/tables", {"preset": "nonsense"}, 400) == "bad_request"
    assert error("/api/tables", {"players": 9}, 400) == "bad_request"
    assert error("/api/tables", {"options": {"moon": "sideways"}}, 400) == "bad_request"
    # The message names the option, even one named like a message type ("moon").
    for option in ("moon", "first_trick", "seating"):
        answer = server.post("/api/tables", {"options": {option: "sideways"}})
        assert answer.json()["message"].startswith(f"options.{option}: "), answer.text
    # A list too long or too short is said in words, not as Pydantic's "List should
    # have at most 12 items after validation, not 13".
    for options, said in (
        ({"removed": ["2C"] * 13}, "options.removed: at most 12 allowed, 13 given"),
        ({"pass_cycle": []}, "options.pass_cycle: at least 1 needed, 0 given"),
    ):
        answer = server.post("/api/tables", {"options": options})
        assert answer.json()["message"] == said, answer.text
    # A lone "1" is refused as every face refuses it: "1C" led the first trick with the
    # A♣ at a table made through the API, where `hearts play -o first_lead=1C` is refused.
    lone_ones: list[dict[str, Any]] = [{"first_lead": "1C"}, {"removed": ["1D", "2C", "2S", "2H"]}]
    for lone_one in lone_ones:
        answer = server.post("/api/tables", {"players": 6, "options": lone_one})
        assert "'1' is no rank here" in answer.json()["message"], answer.text
    assert error("/api/tables", {"options": {"players": 3}}, 400) == "bad_request"
    assert error("/api/tables", {"options": {"end_score": 10**9}}, 400) == "bad_request"
    assert error("/api/tables", {"level": "os:system"}, 400) == "bad_request"
    assert error("/api/play-now", {"level": "subprocess:Popen"}, 400) == "bad_request"
    assert error("/api/tables/nosuchtable/join", {}, 404) == "no_table"
    assert server.get("/api/tables/nosuchtable").status_code == 404
    assert server.get("/api/tables/../../etc").status_code == 404
    assert server.get("/api/stats").status_code == 401

    data = server.post("/api/play-now", {}).json()
    # A record holds every hand: never served while the game is on.
    record_answer = server.get(f"/api/tables/{data['table_id']}/games/1/record")
    assert record_answer.status_code == 404
    assert server.get(f"/api/tables/{data['table_id']}/games/2/record").status_code == 404


def test_names_are_cleaned(server: ServerThread) -> None:
    created = new_table(server, name="  <b>Ann</b>\x00\x1b[31m  \n" + "x" * 100)
    name = created["table"]["seats"][0]["name"]
    assert "\x00" not in name and "\x1b" not in name and "\n" not in name
    assert len(name) <= 24
    assert name.startswith("<b>Ann</b>")  # kept as text; the page shows it as text
    assert new_table(server, name="\x00\x01")["table"]["seats"][0]["name"] == "Player 1"
    # Found by a tester: a guest called "You" made the host hear "You takes the trick"
    # of someone else's: the page's own words are numbered like a name already taken.
    called_you = new_table(server, name="you")
    assert called_you["table"]["seats"][0]["name"] == "you 2"
    joined = server.post(f"/api/tables/{called_you['table_id']}/join", {"name": "Free seat"})
    assert joined.json()["table"]["seats"][1]["name"] == "Free seat 2"
    # Found by a tester: a name of Hangul fillers alone was taken, and showed as nothing.
    assert new_table(server, name="\u3164 \u3164")["table"]["seats"][0]["name"] == "Player 1"


def test_creating_tables_is_rate_limited(storage: Storage) -> None:
    with running(storage, fast_settings(create_rate=3)) as server:
        codes = [server.post("/api/tables", {}).status_code for _ in range(5)]
        assert codes[:3] == [201, 201, 201]
        assert codes[-1] == 429


# Undo, hints, chat, pages ---------------------------------------------------------------


def test_undo_and_hints_against_bots(storage: Storage) -> None:
    settings = Settings(**{**fast_settings().__dict__, "hint_budget": 2})
    with running(storage, settings) as server:
        data = server.post("/api/play-now", {"name": "Ann"}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        state = player.until(lambda m: m["type"] == "state")["state"]
        assert state["can_hint"] and not state["can_undo"]
        hint = player.request({"type": "hint"})
        assert hint["type"] == "hint" and hint["phase"] == "passing"
        assert len(hint["pass"]) == 3 and set(hint["pass"]) <= set(state["hand"])
        assert player.request({"type": "undo"})["code"] == "nothing_to_undo"

        hand = state["hand"]
        assert player.request({"type": "pass", "cards": hand[:3]})["type"] == "ack"
        player.until(lambda m: m["type"] == "state" and m["state"]["passed"] is not None)
        watcher = Player(server.ws_url(data["table_id"])).open()
        assert player.request({"type": "undo"})["type"] == "ack"
        undone = player.until(
            lambda m: m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
        )
        # Found by a tester: the page could only say "Taken back."; the player is told
        # what went (their pass is theirs alone to know), everyone how much.
        event = next(e for e in undone["events"] if e["event"] == "undone")
        assert sorted(event["passed"]) == sorted(hand[:3]) and event["played"] == []
        assert event["moon_choice"] is False and event["back_to_deal"] is None
        seen = watcher.until(
            lambda m: m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
        )
        public = next(e for e in seen["events"] if e["event"] == "undone")
        assert "passed" not in public and "played" not in public and public["count"] >= 1
        watcher.close()
        assert undone["state"]["passed"] is None
        assert undone["state"]["hand"] == hand
        assert undone["state"]["phase"] == "passing"
        stored = server.hub.storage.load_table(data["table_id"])
        assert stored is not None and stored.game is not None
        assert len(stored.game.actions) == undone["seq"]

        assert player.request({"type": "pass", "cards": hand[-3:]})["type"] == "ack"
        # Play until a turn with a real choice, then ask for a hint.
        while True:
            message = player.recv()
            if message["type"] != "state":
                continue
            current = message["state"]
            if current["to_move"] == 0 and current["phase"] == "playing":
                if len(current["legal"]) > 1:
                    break
                player.request({"type": "play", "card": current["legal"][0]})
        hint = player.request({"type": "hint"})
        if hint["type"] == "error":
            assert hint["code"] == "hint_unavailable"
        else:
            ranked = [r["card"] for r in hint["ranking"]]
            assert sorted(ranked) == sorted(current["legal"])
        player.close()


def test_an_undo_answers_the_card_it_takes_back_not_the_bots_moves_after_it(
    server: ServerThread,
) -> None:
    """A page that has not yet seen the bots' moves after its card may still undo it
    (the bots move while the person reaches for the button); an undo from before that
    card, or a second click once it is taken back, is stale and changes nothing."""
    data = server.post("/api/play-now", {"name": "Ann"}).json()
    player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
    state = player.until(lambda m: m["type"] == "state")["state"]
    assert player.request({"type": "pass", "cards": state["hand"][:3]})["type"] == "ack"
    mine: tuple[int, str] | None = None  # our card's action number and the card
    while True:
        message = player.recv()
        if message["type"] != "state":
            continue
        if mine is not None and message["seq"] > mine[0] + 1:
            break  # a bot has moved after our card
        current = message["state"]
        if current["to_move"] == 0 and current["phase"] == "playing":
            card = current["legal"][0]
            assert player.request({"type": "play", "card": card})["type"] == "ack"
            mine = (message["seq"], card)
    number, card = mine
    assert player.request({"type": "undo", "seq": number})["code"] == "stale"
    assert player.request({"type": "undo", "seq": number + 1})["type"] == "ack"
    undone = player.until(
        lambda m: m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
    )
    assert undone["seq"] == number and card in undone["state"]["hand"]
    assert undone["state"]["to_move"] == 0
    again = player.request({"type": "undo", "seq": number + 1})
    assert again["code"] == "stale"
    stored = server.hub.storage.load_table(data["table_id"])
    assert stored is not None and stored.game is not None
    assert len(stored.game.actions) == number
    player.close()


def test_the_host_gives_a_game_against_bots_up_for_a_new_one(server: ServerThread) -> None:
    data = server.post("/api/play-now", {"name": "Ann"}).json()
    table_id = data["table_id"]
    player = Player(server.ws_url(table_id), token=data["token"]).open()
    player.play(stop_after=3)
    before = player.state
    assert before["game"] == 1 and before["seq"] > 0
    # A plain start still refuses a game in progress: giving one up must be asked for.
    assert player.request({"type": "start"})["code"] == "started"
    assert player.request({"type": "start", "abandon": True})["type"] == "ack"
    started = player.until(
        lambda m: m["type"] == "state" and any(e["event"] == "started" for e in m["events"])
    )
    fresh = started["state"]
    assert fresh["game"] == 2 and fresh["phase"] == "passing" and fresh["deal"] == 0
    assert fresh["scores"] == [0, 0, 0, 0] and fresh["names"] == before["names"]
    assert len(fresh["hand"]) == 13
    # The game given up is kept as such, never finished or resumed; the new one is.
    storage = server.hub.storage
    assert storage.game_record(table_id, 1) == ("abandoned", None)
    given_up = server.get(f"/api/tables/{table_id}/games/1/record")
    assert given_up.status_code == 404 and given_up.json()["error"] == "abandoned"
    stored = storage.load_table(table_id)
    assert stored is not None and stored.game is not None and stored.game.number == 2
    assert stored.status == "playing"
    player.play()
    player.close()
    assert player.errors == []
    finished = storage.game_record(table_id, 2)
    assert finished is not None and finished[0] == "finished"


def test_a_game_with_other_people_cannot_be_given_up_for_a_new_one(
    server: ServerThread,
) -> None:
    _, players = four_players(server)
    assert players[0].request({"type": "start"})["type"] == "ack"
    players[0].until(lambda m: m["type"] == "state")
    refused = players[0].request({"type": "start", "abandon": True})
    assert refused["code"] == "not_allowed" and "lobby" in refused["message"]
    assert players[1].request({"type": "start", "abandon": True})["code"] == "not_host"
    assert players[0].state["game"] == 1
    for player in players:
        player.close()


def test_undo_and_hints_are_refused_with_other_people_at_the_table(
    server: ServerThread,
) -> None:
    _, players = four_players(server)
    assert players[0].request({"type": "start"})["type"] == "ack"
    state = players[0].until(lambda m: m["type"] == "state")["state"]
    assert not state["can_undo"] and not state["can_hint"]
    assert players[0].request({"type": "undo"})["code"] == "not_allowed"
    assert players[0].request({"type": "hint"})["code"] == "not_allowed"
    # Out of turn, at a table where nothing moves unless people do.
    hand = state["hand"]
    assert players[0].request({"type": "pass", "cards": hand[:3]})["type"] == "ack"
    again = players[0].request({"type": "pass", "cards": hand[3:6]})
    assert again["code"] == "not_your_turn" and "already passed" in again["message"]
    for player in players[1:]:
        cards = player.until(lambda m: m["type"] == "state")["state"]["hand"][:3]
        assert player.request({"type": "pass", "cards": cards})["type"] == "ack"
    for player in players:
        player.until(lambda m: m["type"] == "state" and m["state"]["phase"] == "playing")
    waiting = next(p for p in players if p.state["to_move"] != p.state["seat"])
    refused = waiting.request({"type": "play", "card": waiting.state["hand"][0]})
    assert refused["code"] == "not_your_turn" and "turn" in refused["message"]
    assert waiting.request({"type": "moon", "others_add": True})["code"] == "not_your_turn"
    players[1].send({"type": "chat", "text": "hello\x07  there"})
    line = players[2].until(lambda m: m["type"] == "chat")
    assert line["text"] == "hello there" and line["name"] == "Bob"
    for player in players:
        player.close()


def test_chat_reaches_everyone_at_the_table_as_typed(server: ServerThread) -> None:
    table_id, ann, bob = host_and_guest(server, "<b>Ann</b>")
    watcher = Player(server.ws_url(table_id)).open()
    limit = server.get("/api/config").json()["limits"]["chat_chars"]

    # Markup is text to the server: the page escapes it on display.
    said = ann.request({"type": "chat", "text": "  <i>hi</i> & <b>you</b>\n"})
    assert said["type"] == "ack" and said["for"] == "chat"
    for player in (ann, bob, watcher):
        line = player.until(lambda m: m["type"] == "chat")
        assert line["seat"] == 0 and line["name"] == "<b>Ann</b>"
        assert line["text"] == "<i>hi</i> & <b>you</b>"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", line["time"])

    long = bob.request({"type": "chat", "text": "x" * (limit + 50)})
    assert long["type"] == "ack"
    assert len(ann.until(lambda m: m["type"] == "chat")["text"]) == limit
    assert bob.request({"type": "chat", "text": " \t "})["code"] == "bad_message"
    # Joiners stay (an emoji family, a Persian word); a bidi override does not.
    family = "\U0001f469\u200d\U0001f467"
    assert ann.request({"type": "chat", "text": f"{family} \u202eme"})["type"] == "ack"
    assert bob.until(lambda m: m["type"] == "chat")["text"] == f"{family} me"
    # Spectators read but may not write.
    refused = watcher.request({"type": "chat", "text": "hello"})
    assert refused["type"] == "error" and refused["code"] == "not_seated"
    for player in (ann, bob, watcher):
        player.close()


def test_pages_and_config_are_served(server: ServerThread) -> None:
    for path in ("/", "/t/AbCdEfGhIjKl"):
        answer = server.get(path)
        assert answer.status_code == 200
        assert "text/html" in answer.headers["content-type"]
    config = server.get("/api/config").json()
    assert config["protocol"] == 1
    assert "random" in config["levels"]
    assert config["level_notes"]["random"] == "plays any legal card"
    assert set(config["level_notes"]) == set(config["levels"])
    assert {p["name"] for p in config["presets"]} >= {"standard", "source-000"}
    assert server.get("/healthz").json() == {"ok": True}
    assert server.get("/static/../server.py").status_code == 404
    headers = server.get("/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


def test_the_new_table_form_words_each_rule_as_the_engine_plays_it(server: ServerThread) -> None:
    """The first-trick choice of 001 and 004 read "No heart or Q♠ at all", while the
    engine lets a player holding nothing but hearts and the Q♠ play a heart (as the rules
    summary says); every choice of the rules is offered."""
    page = server.get("/").text
    offered = dict(re.findall(r'<option value="([a-z_]+)">([^<]+)</option>', page))
    for kind in (FirstTrick, HeartsBreak, MoonScoring):
        assert {member.value for member in kind} <= set(offered), kind
    assert "at all" not in offered["no_points"]
    assert "a heart if nothing else" in offered["no_points"]


def test_the_config_limits_are_the_ones_the_server_takes(server: ServerThread) -> None:
    """What /api/config offers a form is what a new table accepts: the largest value
    makes a table, one more is refused with a reason."""
    options = server.get("/api/config").json()["options"]
    for name in ("cards_passed", "end_score"):
        top = options[name]["max"]
        made = server.post("/api/play-now", {"options": {name: top}})
        assert made.status_code == 201, (name, made.text)
        refused = server.post("/api/play-now", {"options": {name: top + 1}})
        assert refused.status_code == 400 and name in refused.text, (name, refused.text)
    # Within the limit, the rules still check the table's own hand: six players hold 8.
    six = server.post("/api/play-now", {"players": 6, "options": {"cards_passed": 9}})
    assert six.status_code == 400 and "hand size" in six.json()["message"], six.text


def test_a_moon_shooter_chooses_after_a_restart(storage: Storage) -> None:
    # Random bots shoot the moon now and then: find a first deal where one does.
    rules = Rules.preset("source-000")  # the shooter chooses
    for attempt in range(500):
        seed = f"moon{attempt}"
        game = Game(rules, seed=seed)
        bots = [make_bot("random", seed=s) for s in range(4)]
        while game.phase != "moon_choice" and game.deal_number == 0:
            act(game, game.to_act()[0], bots[game.to_act()[0]])
        if game.phase == "moon_choice":
            break
    else:
        pytest.fail("no moon in 500 random deals")
    shooter = game.current_player
    assert shooter is not None
    # The game as a server would have stored it, with the shooter a person.
    token = "M" * 32
    store_game(storage, "moontable", "source-000", game, shooter, token)

    with running(Storage(storage.url), fast_settings(takeover_delay=60)) as server:
        player = Player(server.ws_url("moontable"), token=token).open()
        state = player.until(lambda m: m["type"] == "state")["state"]
        assert state["phase"] == "moon_choice" and state["seat"] == shooter
        assert state["moon"]["shooter"] == shooter
        suggested = state["moon"]["suggested_others_add"]
        assert suggested == game.suggested_moon_choice()
        # The totals each choice would give, as the terminal game's dialog shows them.
        assert state["moon"]["totals"] == {
            "others_add": list(game.moon_totals(True)),
            "shooter_subtracts": list(game.moon_totals(False)),
        }
        assert state["moon"]["totals"]["shooter_subtracts"][shooter] == -26
        assert player.request({"type": "play", "card": "2C"})["code"] in (
            "illegal",
            "not_your_turn",
            "bad_message",
        )
        assert player.request({"type": "moon", "others_add": False})["type"] == "ack"
        scored = player.until(
            lambda m: m["type"] == "state" and any(e["event"] == "deal_over" for e in m["events"])
        )
        over = next(e for e in scored["events"] if e["event"] == "deal_over")
        assert over["shooter"] == shooter and over["shot"] == "moon"
        assert over["moon_choice"] == "subtract"
        assert over["points"][shooter] == -26
        assert scored["state"]["deal"] == 1
        player.close()


def test_serve_refuses_bad_options_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    from openhearts.cli import main

    assert main(["serve", "--end-score", "0"]) == 2
    assert main(["serve", "-o", "moon=sideways"]) == 2
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert main(["serve", "--database", "postgresql://nobody@127.0.0.1:1/none"]) == 1
    errors = capsys.readouterr().err
    assert "end_score" in errors and "moon" in errors and "bot-delay" in errors
    assert "cannot prepare the database" in errors and "Traceback" not in errors


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--end-score", "5000"], "end_score: "),
        (["-o", "players=5"], "players: use --players"),
        (["-o", "first_lead=1C"], "first_lead: '1' is no rank here"),
    ],
)
def test_serve_refuses_rules_its_tables_could_not_have(argv: list[str], said: str) -> None:
    """The server's rules are read as every face reads them, and as a table stores them:
    an end score past a table's limit started the server, and then every "Play now" was
    refused; ``-o players=5`` was refused in a Python TypeError's words."""
    import argparse

    from openhearts.web.server import add_arguments, settings_from_args

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(ValueError, match=re.escape(said)):
        settings_from_args(parser.parse_args(argv))


def test_serve_says_a_database_it_cannot_use_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A file that is not a database, a folder, and an unreachable PostgreSQL server were
    said in two or three lines: the driver's hint and SQLAlchemy's link to its own
    documentation ("(Background on this error at: https://sqlalche.me/...)")."""
    from openhearts.cli import main

    not_database = tmp_path / "notes.txt"
    not_database.write_text("not a database\n" * 200)
    for url, said in (
        (f"sqlite:///{not_database}", "file is not a database"),
        (f"sqlite:///{tmp_path}", "unable to open database file"),
        ("postgresql://nobody@127.0.0.1:1/none", "Connection refused"),
    ):
        assert main(["serve", "--database", url]) == 1
        errors = capsys.readouterr().err
        assert errors.count("\n") == 1, errors
        assert errors.startswith("hearts serve: cannot prepare the database ")
        assert said in errors and "sqlalche.me" not in errors and "(sqlite3." not in errors


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--level", "nope"), "--level 'nope': no such level"),
        (("--bot-level", "mine=nope"), "--bot-level mine: no bot level 'nope'"),
        (("--bot-level", "gone=cmd:/nonexistent/program"), "the program could not start"),
        (("--bot-delay", "nan"), "--bot-delay: seconds, at least 0, not nan"),
        (("--takeover-delay", "inf"), "--takeover-delay: seconds, at least 0, not inf"),
        (("--turn-clock", "inf"), "--turn-clock: a number of at least 0, not inf"),
        (("--create-rate", "-1"), "--create-rate: at least 0, not -1"),
        (("--turn-clock", "700"), "--turn-clock: at most the --max-turn-clock (600 seconds)"),
        (("--host", "999.1.1.1"), "--host 999.1.1.1: no such address"),
        (("--host", "192.0.2.1"), "cannot listen on 192.0.2.1:"),
        (("--max-tables", "0"), "--max-tables: at least 1 (with 0 every new table is refused)"),
        (("--bot-jobs-per-table", "0"), "--bot-jobs-per-table: at least 1"),
    ],
)
def test_serve_says_what_is_wrong_before_it_announces_an_address(
    argv: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each was taken, or failed after "OpenHearts is served at" in uvicorn's words (exit
    status 3): an unknown level became easy, a bot level that cannot be built vanished
    from the lobby, nan and inf delays stalled every table, a turn clock over the most a
    table may ask for and a negative create rate were kept."""
    from openhearts.bots import BOTS, LEVELS
    from openhearts.cli import main

    database = ["--database", f"sqlite:///{tmp_path / 'web.sqlite3'}"]
    try:
        status = main(["serve", *database, *argv])
    finally:
        for name in ("mine", "gone"):
            LEVELS.pop(name, None)
            BOTS.pop(name, None)
    out, err = capsys.readouterr()
    assert status in (1, 2)
    assert said in err and "Traceback" not in err
    assert "served at" not in out


def test_serve_ports_are_ports(capsys: pytest.CaptureFixture[str]) -> None:
    """65536 was announced while uvicorn listened on another port; 0 on a random one."""
    from openhearts.cli import main

    for port in ("65536", "0", "-1"):
        with pytest.raises(SystemExit):
            main(["serve", "--port", port])
        assert "--port: a whole number from 1 to 65535" in capsys.readouterr().err


def test_a_stored_action_that_does_not_replay_is_dropped_with_what_follows(
    storage: Storage,
) -> None:
    game = Game(seed="tampered")
    bots = [make_bot("random", seed=s) for s in range(4)]
    for _ in range(12):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    # The person is the one who made action 8: after it is dropped, the game waits for them.
    human = game.actions[8].seat
    rows = store_game(storage, "tamperedtable", "standard", game, human, "T" * 32)
    # Action 8 is changed into a card nobody may play there.
    with storage.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE actions SET data = :card WHERE seq = 8"),
            {"card": "AH" if rows[8].data != "AH" else "KH"},
        )
    with running(Storage(storage.url), fast_settings(takeover_delay=60)) as server:
        watcher = Player(server.ws_url("tamperedtable")).open()
        state = watcher.until(lambda m: m["type"] == "state")
        assert state["seq"] == 8
        stored = server.hub.storage.load_table("tamperedtable")
        assert stored is not None and stored.game is not None
        assert [a.seq for a in stored.game.actions] == list(range(8))
        watcher.close()


def test_a_stale_or_repeated_action_is_refused_and_changes_nothing(server: ServerThread) -> None:
    data = server.post("/api/play-now", {"options": {"end_score": 30}}).json()
    url = server.ws_url(data["table_id"])
    # Two tabs on one seat, both showing the same turn.
    first = Player(url, token=data["token"]).open()
    second = Player(url, token=data["token"]).open()
    state = first.until(lambda m: m["type"] == "state")["state"]
    second.until(lambda m: m["type"] == "state")
    cards = state["hand"][:3]
    seen = first.latest["seq"] if first.latest else 0
    assert first.request({"type": "pass", "cards": cards, "seq": seen})["type"] == "ack"
    again = second.request({"type": "pass", "cards": state["hand"][3:6], "seq": seen})
    assert again["type"] == "error" and again["code"] in ("not_your_turn", "stale")
    # Once the passes are exchanged, the second tab's pass answers an older position:
    # stale (look again), not "someone else's turn".
    started = first.until(
        lambda m: m["type"] == "state" and m["state"]["phase"] != "passing", timeout=60
    )
    late = second.request({"type": "pass", "cards": state["hand"][3:6], "seq": seen})
    assert late["type"] == "error" and late["code"] == "stale", late
    # Once play starts, an action naming an older move is stale even on one's turn.
    table = server.hub.tables[data["table_id"]]

    def my_turn(m: dict[str, Any]) -> bool:
        return bool(
            m["type"] == "state"
            and m["state"]["phase"] == "playing"
            and m["state"]["to_move"] == m["state"]["seat"]
        )

    # The first state of the play may be this seat's turn already (it then waited for
    # a state that could not come: the test timed out now and then).
    mine = started if my_turn(started) else first.until(my_turn, timeout=60)
    now = mine["seq"]
    legal = mine["state"]["legal"]
    old = first.request({"type": "play", "card": legal[0], "seq": now - 1})
    assert old["type"] == "error" and old["code"] == "stale"
    assert "look again" in old["message"] and table.seq == now
    assert first.request({"type": "play", "card": legal[0], "seq": now})["type"] == "ack"
    repeated = second.request({"type": "play", "card": legal[0], "seq": now})
    assert repeated["type"] == "error" and repeated["code"] in ("stale", "not_your_turn")
    first.close()
    second.close()


def test_the_host_can_remove_a_person_before_the_game_starts(server: ServerThread) -> None:
    host = new_table(server, name="Ann")
    table_id = host["table_id"]
    squatter = server.post(f"/api/tables/{table_id}/join", {"name": "Bot?"}).json()
    intruder = Player(server.ws_url(table_id), token=squatter["token"]).open()
    ann = Player(server.ws_url(table_id), token=host["token"]).open()
    assert intruder.request({"type": "remove", "seat": 0})["code"] == "not_host"
    assert ann.request({"type": "remove", "seat": 0})["code"] == "bad_message"
    assert ann.request({"type": "remove", "seat": squatter["seat"]})["type"] == "ack"
    removed = intruder.until(lambda m: m["type"] == "error")
    assert removed["code"] == "removed" and "removed you" in removed["message"], removed
    summary = server.get(f"/api/tables/{table_id}").json()
    assert summary["seats"][squatter["seat"]]["kind"] == "empty"
    # The same player (the player token their browser keeps) cannot take a seat again.
    back = server.post(
        f"/api/tables/{table_id}/join",
        {"name": "Bot?", "player_token": squatter["player_token"]},
    )
    assert back.status_code == 403 and back.json()["error"] == "removed", back.text
    # The seat is free for the real friend; the old token holds nothing any more.
    friend = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert friend.status_code == 200 and friend.json()["seat"] == squatter["seat"]
    again = Player(server.ws_url(table_id), token=squatter["token"]).open()
    assert again.welcome is not None and again.welcome["code"] == "bad_token"
    assert ann.request({"type": "start"})["type"] == "ack"
    assert ann.request({"type": "remove", "seat": squatter["seat"]})["code"] == "started"
    for player in (intruder, ann, again):
        player.close()


def test_a_removed_persons_connection_no_longer_acts_for_the_seat(server: ServerThread) -> None:
    """Found by a tester: the connections of a person the host removed stayed the seat's
    until they closed, and one more message of theirs was read as the seat's: a chat
    line in the seat's name, or a leave that freed the seat of whoever took it since."""
    import asyncio

    table_id, ann, bob = host_and_guest(server)
    table = server.hub.tables[table_id]
    kept = on_server_loop(server, lambda: next(iter(table.seats[1].connections)))
    assert ann.request({"type": "remove", "seat": 1})["type"] == "ack"
    cy = server.post(f"/api/tables/{table_id}/join", {"name": "Cy"}).json()
    assert cy["seat"] == 1
    # A message of the removed person's read after the removal (a client that does not
    # stop at the close): it must not act for the seat Cy holds now.
    for text in ('{"type": "leave", "id": 7}', '{"type": "chat", "id": 8, "text": "hi"}'):
        asyncio.run_coroutine_threadsafe(
            server.hub.handle(kept, table, text), server.hub.loop
        ).result(10)
    seat = server.get(f"/api/tables/{table_id}").json()["seats"][1]
    assert seat["kind"] == "human" and seat["name"] == "Cy", seat
    # Anything sent to Ann meanwhile comes before the answer to her ping.
    ann.send({"type": "ping", "id": 99})
    ann.until(lambda m: m["type"] == "pong")
    assert not any(json.loads(text)["type"] == "chat" for text in ann.texts), ann.texts
    for player in (ann, bob):
        player.close()


def test_a_host_who_leaves_before_the_start_hands_the_table_on(server: ServerThread) -> None:
    """The guests were left at a table nobody could start."""
    table_id, ann, bob = host_and_guest(server)
    assert bob.welcome is not None
    bobs = bob.welcome["seat"]
    assert bob.request({"type": "start"})["code"] == "not_host"
    assert ann.request({"type": "leave"})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["seats"][bobs]["host"])
    summary = server.get(f"/api/tables/{table_id}").json()
    assert [seat["host"] for seat in summary["seats"]].count(True) == 1

    def stored_host() -> bool:
        stored = server.hub.storage.load_table(table_id)
        return stored is not None and stored.seats[bobs].host

    wait_for(stored_host, what="the new host to be stored")
    assert ann.request({"type": "start"})["code"] == "not_host"
    assert bob.request({"type": "start"})["type"] == "ack"
    for player in (ann, bob):
        player.close()


def test_a_guest_who_leaves_before_the_start_frees_the_seat(server: ServerThread) -> None:
    """The seat stayed taken by someone who had gone, and only the host could free it
    (barring them): a guest who changed their mind now gives it up, and may come back."""
    table_id, ann, bob = host_and_guest(server)
    assert bob.welcome is not None
    bobs = bob.welcome["seat"]
    old_token = bob.token
    assert bob.request({"type": "leave"})["type"] == "ack"
    emptied = ann.until(
        lambda m: m["type"] == "table" and m["table"]["seats"][bobs]["kind"] == "empty"
    )
    assert [seat["kind"] for seat in emptied["table"]["seats"]].count("human") == 1
    # Bob's page stays, watching: it is told of the table, and seated actions are refused.
    bob.until(lambda m: m["type"] == "table" and m["table"]["seats"][bobs]["kind"] == "empty")
    assert bob.request({"type": "chat", "text": "hello"})["code"] == "not_seated"
    stored = server.hub.storage.load_table(table_id)
    assert stored is not None and stored.seats[bobs].kind == "empty"
    gone = Player(server.ws_url(table_id), token=old_token).open()
    assert gone.welcome is not None and gone.welcome["code"] == "bad_token"
    again = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert again.status_code == 200, again.text
    # The host leaving before the start still hands the table on instead (tested above).
    for player in (ann, bob, gone):
        player.close()


def test_giving_a_seat_up_that_crosses_the_start_keeps_it(server: ServerThread) -> None:
    """Found by a tester: a give-up that arrived just after the host's start was taken as
    leaving the game (a bot in the seat) while the page forgot the seat token."""
    table_id, ann, bob = host_and_guest(server)
    assert bob.welcome is not None
    bobs = bob.welcome["seat"]
    # The host's seat is kept too, and the refusal does not say a game began that has not.
    waiting = ann.request({"type": "leave", "seat_only": True})
    assert waiting["code"] == "started" and "you are the host" in waiting["message"], waiting
    assert ann.request({"type": "start"})["type"] == "ack"
    refused = bob.request({"type": "leave", "seat_only": True})
    assert refused["code"] == "started" and "your seat is kept" in refused["message"]
    seat = server.get(f"/api/tables/{table_id}").json()["seats"][bobs]
    assert seat["kind"] == "human" and not seat["bot_playing"]
    assert ann.request({"type": "leave", "seat_only": True})["code"] == "started"
    for player in (ann, bob):
        player.close()


def test_a_host_who_left_during_a_game_hands_the_table_on_at_its_end(
    server: ServerThread,
) -> None:
    table_id, ann, bob = host_and_guest(server, options={"end_score": 10})
    assert bob.welcome is not None
    bobs = bob.welcome["seat"]
    assert ann.request({"type": "start"})["type"] == "ack"
    assert ann.request({"type": "leave"})["type"] == "ack"
    finished = bob.play(timeout=120)
    assert finished is not None and finished["state"]["phase"] == "game_over"
    wait_for(
        lambda: server.hub.tables[table_id].seats[bobs].host,
        what="the table to pass to Bob",
    )
    assert bob.request({"type": "start"})["type"] == "ack"
    for player in (ann, bob):
        player.close()


def test_a_failing_bot_driver_is_logged_at_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A table whose driver died would wait for a move nobody makes: the failure is
    written to the log when it happens, not when the task is collected."""

    async def broken(table: Table) -> None:
        raise RuntimeError("the driver broke")

    monkeypatch.setattr(Table, "_drive_steps", broken)
    with caplog.at_level(logging.ERROR, logger="openhearts.web"), running(storage) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        wait_for(
            lambda: any("the bot driver failed" in r.getMessage() for r in caplog.records),
            what="the driver's failure in the log",
        )
        player.close()
    failure = next(r for r in caplog.records if "the bot driver failed" in r.getMessage())
    assert failure.exc_info is not None and "the driver broke" in str(failure.exc_info[1])


def test_the_state_says_which_received_cards_to_mark() -> None:
    """The page marks what the state names (the session core's rule), and the state
    never names another seat's cards."""
    from openhearts.web.views import view_json

    game = Game(seed=8)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat).cards()[-3:])
    received = view_json(game.view(0), 0)["received"]
    assert len(received) == 3 and view_json(game.view(0), 0)["marked"] == received
    assert view_json(game.view(0), None)["marked"] == []  # a spectator sees no hand
    while game.current_player != 0:
        game.play(game.legal_plays().cards()[0])
    game.play(game.legal_plays().cards()[0])
    assert view_json(game.view(0), 0)["marked"] == []


def on_server_loop(server: ServerThread, work: Any) -> Any:
    """Run ``work()`` on the server's event loop (where the hub's state lives)."""
    import asyncio

    async def call() -> Any:
        return work()

    return asyncio.run_coroutine_threadsafe(call(), server.hub.loop).result(10)


def unload(server: ServerThread, table_id: str) -> None:
    """Forget a table as the hub does one nobody uses (it is loaded again on demand)."""

    def forget() -> None:
        table = server.hub.tables.get(table_id)
        if table is not None:  # else the hub unloaded it already
            server.hub.maybe_evict(table, idle=True)
        assert table_id not in server.hub.tables, "the table was not unloaded"

    on_server_loop(server, forget)


def test_a_table_loaded_again_plays_for_the_people_still_away(storage: Storage) -> None:
    """Both people left, the abandoned table was unloaded; one comes back: the other's
    seat is played for after the takeover delay, as at start-up (it used to wait for
    them for ever)."""
    settings = fast_settings(takeover_delay=0.2, bot_delay=0.005, abandon_after=0.0)
    with running(storage, settings) as server:
        host = new_table(server, name="Ann", options={"end_score": 20})
        table_id = host["table_id"]
        guest = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        bob = Player(server.ws_url(table_id), token=guest["token"]).open()
        assert ann.request({"type": "start"})["type"] == "ack"
        ann.close()
        bob.close()
        # An abandoned table may be unloaded as soon as both have gone.
        wait_for(
            lambda: (
                table_id not in server.hub.tables or not server.hub.tables[table_id].connections()
            ),
            what="both gone",
        )
        unload(server, table_id)
        back = Player(server.ws_url(table_id), token=host["token"]).open()
        finished = back.play(timeout=60)
        assert finished is not None and finished["state"]["phase"] == "game_over"
        seat = server.get(f"/api/tables/{table_id}").json()["seats"][guest["seat"]]
        assert seat["bot_playing"] is True and seat["connected"] is False
        back.close()


def test_reading_or_watching_an_abandoned_table_does_not_set_its_bots_playing(
    storage: Storage,
) -> None:
    """A table reloaded by a read (the lobby's "Your tables" reads each one) looked just
    left: its bots played on for ``abandon_after`` with nobody there; so did a spectator's
    visit."""
    settings = fast_settings(takeover_delay=0.05, bot_delay=0.01, abandon_after=0.3)
    with running(storage, settings) as server:
        table_id, ann, bob = host_and_guest(server)
        assert ann.request({"type": "start"})["type"] == "ack"
        ann.close()
        bob.close()
        wait_for(lambda: table_id not in server.hub.tables, what="the abandoned table to unload")
        assert server.get(f"/api/tables/{table_id}").status_code == 200
        table = server.hub.tables[table_id]
        assert table.game is not None and not table.game.is_over
        moves = len(table.game.actions)
        watcher = Player(server.ws_url(table_id)).open()
        time.sleep(0.6)
        watcher.close()
        assert len(table.game.actions) == moves, "the bots played at a table nobody is at"
        # A person coming back sets them going again.
        back = Player(server.ws_url(table_id), token=ann.token).open()
        finished = back.play(timeout=60)
        assert finished is not None and finished["state"]["phase"] == "game_over"
        back.close()


def test_someone_watching_a_table_everyone_left_is_told_it_waits(storage: Storage) -> None:
    """Everyone at the table gone, its bots stop: someone watching saw "Ann to play."
    with nothing moving, and nothing said why."""
    settings = fast_settings(takeover_delay=0.05, bot_delay=0.01, abandon_after=0.5)
    with running(storage, settings) as server:
        table_id, ann, bob = host_and_guest(server, options={"end_score": 100})
        watcher = Player(server.ws_url(table_id)).open()
        assert ann.request({"type": "start"})["type"] == "ack"
        assert watcher.until(lambda m: m["type"] == "table")["table"]["paused"] is False
        ann.close()
        bob.close()
        paused = watcher.until(lambda m: m["type"] == "table" and m["table"]["paused"])
        assert paused["table"]["status"] == "playing"
        assert server.get(f"/api/tables/{table_id}").json()["paused"] is True
        back = Player(server.ws_url(table_id), token=ann.token).open()
        watcher.until(lambda m: m["type"] == "table" and not m["table"]["paused"])
        back.close()
        watcher.close()


def test_someone_watching_a_table_reloaded_after_a_restart_is_told_it_waits(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the last person's leaving set the notice off: at a table loaded after a
    restart, nobody back, the bots played on and then stopped without a word to
    someone watching."""
    from openhearts.web import hub

    with running(storage, fast_settings(takeover_delay=60)) as server:
        table_id, ann, bob = host_and_guest(server, options={"end_score": 100})
        assert ann.request({"type": "start"})["type"] == "ack"
        ann.close()
        bob.close()
    # The bots take over at once, as they would after the usual grace for reconnecting.
    monkeypatch.setattr(hub, "RECONNECT_GRACE", 0.05)
    settings = fast_settings(takeover_delay=0.05, bot_delay=0.01, abandon_after=1.5)
    with running(Storage(storage.url), settings) as server:
        watcher = Player(server.ws_url(table_id)).open()
        watcher.until(lambda m: m["type"] == "table" and m["table"]["paused"])
        assert server.get(f"/api/tables/{table_id}").json()["paused"] is True
        watcher.close()


def test_an_absent_host_hands_a_table_loaded_again_on(storage: Storage) -> None:
    """The host closed the waiting room and the table was unloaded before the friend
    came: whether the host was away was lost, and the friend could never start."""
    settings = fast_settings(takeover_delay=0.2)
    with running(storage, settings) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        guest = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
        Player(server.ws_url(table_id), token=host["token"]).open().close()
        wait_for(lambda: table_id not in server.hub.tables, what="the waiting table to unload")
        bob = Player(server.ws_url(table_id), token=guest["token"]).open()
        wait_for(
            lambda: server.get(f"/api/tables/{table_id}").json()["seats"][guest["seat"]]["host"],
            what="the table handed to Bob",
        )
        assert bob.request({"type": "start"})["type"] == "ack"
        bob.close()


def test_who_sits_down_after_a_removed_person_starts_afresh(storage: Storage) -> None:
    """The next person in the seat had the removed one's "Auto play one" (off), stored."""
    with running(storage, fast_settings()) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        stranger = server.post(f"/api/tables/{table_id}/join", {"name": "Stranger"}).json()
        Player(server.ws_url(table_id), token=stranger["token"]).open().close()  # turns it off
        wait_for(lambda: not server.hub.tables[table_id].seats[1].auto_play_one, what="off")
        assert ann.request({"type": "remove", "seat": stranger["seat"]})["type"] == "ack"
        friend = server.post(f"/api/tables/{table_id}/join", {"name": "Friend"}).json()
        assert friend["seat"] == stranger["seat"]
        seat = server.hub.tables[table_id].seats[friend["seat"]]
        assert seat.auto_play_one and not (seat.helped or seat.overdue or seat.timeouts)
        assert ann.request({"type": "start"})["type"] == "ack"
        row = storage.load_table(table_id)
        assert row is not None and row.seats[friend["seat"]].auto_play_one is True
        ann.close()


def test_a_turn_clock_shorter_than_a_person_can_move_is_refused(server: ServerThread) -> None:
    for seconds in (0.001, 9.5):
        answer = server.post("/api/tables", {"name": "Ann", "turn_clock": seconds})
        assert answer.status_code == 400, answer.text
        assert "0 for no clock, or at least 10 seconds" in answer.json()["message"]
    for seconds in (0, 10):
        assert server.post("/api/tables", {"turn_clock": seconds}).status_code == 201


def test_a_removed_player_stays_removed_when_the_table_is_unloaded(storage: Storage) -> None:
    with running(storage) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        squatter = server.post(f"/api/tables/{table_id}/join", {"name": "Bot?"}).json()
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        assert ann.request({"type": "remove", "seat": squatter["seat"]})["type"] == "ack"
        ann.close()
        wait_for(lambda: table_id not in server.hub.tables, what="the idle table to unload")
        back = server.post(
            f"/api/tables/{table_id}/join",
            {"name": "Bot?", "player_token": squatter["player_token"]},
        )
        assert back.status_code == 403 and back.json()["error"] == "removed", back.text


def test_a_table_the_database_fails_to_read_is_not_set_aside(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a tester: one failed read of a table (a dropped database connection) set
    it aside until the server restarted: "no such table" to everyone, and the page, told
    so, forgot its seat.  The failure is refused as such, and the next try loads it."""
    with running(storage) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        unload(server, table_id)
        real = storage.load_table
        failures = [2]

        def flaky(wanted: str) -> Any:
            if failures[0]:
                failures[0] -= 1
                raise sa.exc.OperationalError("SELECT", {}, Exception("connection lost"))
            return real(wanted)

        monkeypatch.setattr(storage, "load_table", flaky)
        answer = server.get(f"/api/tables/{table_id}")
        assert answer.status_code == 503 and answer.json()["error"] == "unavailable", answer.text
        # A page connecting meanwhile is told to try again, not that there is no table.
        with connect(server.ws_url(table_id), open_timeout=10) as page:
            refusal = json.loads(page.recv(timeout=20))
            assert refusal["code"] == "unavailable", refusal
            with pytest.raises(ConnectionClosed) as closed:
                page.recv(timeout=20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert server.hub.set_aside == {}
        assert server.get(f"/api/tables/{table_id}").status_code == 200
        back = Player(server.ws_url(table_id), token=host["token"]).open()
        assert back.welcome is not None and back.welcome["seat"] == host["seat"]
        back.close()


def test_the_tables_an_address_opened_count_when_unloaded(storage: Storage) -> None:
    """``tables_per_address`` counts the open tables an address created, not only those
    in memory: watching each table once (which unloads it after) did not free a place."""
    with running(storage, fast_settings(tables_per_address=3)) as server:
        made = [new_table(server, name="Ann")["table_id"] for _ in range(3)]
        refused = server.post("/api/tables", {"name": "Ann"})
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_tables"
        for table_id in made:
            unload(server, table_id)
        again = server.post("/api/tables", {"name": "Ann"})
        assert again.status_code == 429, again.text


def test_the_lobby_lists_only_tables_whose_host_is_there(storage: Storage) -> None:
    """Only the host can start a table: one whose host closed the page is not offered."""
    with running(storage, fast_settings(tables_per_address=0)) as server:
        here = new_table(server, name="Here", listed=True)
        gone = new_table(server, name="Gone", listed=True)
        host = Player(server.ws_url(here["table_id"]), token=here["token"]).open()
        left = Player(server.ws_url(gone["table_id"]), token=gone["token"]).open()
        left.close()
        wait_for(
            lambda: (
                gone["table_id"] not in server.hub.tables
                or not server.hub.tables[gone["table_id"]].connections()
            ),
            what="the host to be gone",
        )
        listed = [t["id"] for t in server.get("/api/tables").json()["tables"]]
        assert listed == [here["table_id"]]
        # Fifty newer listed tables whose hosts never came do not crowd it out, and a
        # full table is not offered.
        for number in range(50):
            new_table(server, name=f"Ghost {number}", listed=True)
        full = new_table(server, name="Full", listed=True)
        full_host = Player(server.ws_url(full["table_id"]), token=full["token"]).open()
        for name in ("A", "B", "C"):
            joined = server.post(f"/api/tables/{full['table_id']}/join", {"name": name})
            assert joined.status_code == 200, joined.text
        listed = [t["id"] for t in server.get("/api/tables").json()["tables"]]
        assert listed == [here["table_id"]]
        full_host.close()
        host.close()


def test_shuffled_seats_keep_their_names_after_a_restart(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored names are in their seats already: resuming does not shuffle again
    (the views, the deals and the record named other players after a restart)."""
    import secrets

    # A game seed whose seating is shuffled (one in six leaves the order as it was).
    monkeypatch.setattr(secrets, "token_hex", lambda size: "0" * 32)
    with running(storage, fast_settings(takeover_delay=60)) as server:
        host = new_table(server, name="S0", preset="source-002")
        table_id = host["table_id"]
        for name in ("S1", "S2", "S3"):
            server.post(f"/api/tables/{table_id}/join", {"name": name})
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        assert ann.request({"type": "start"})["type"] == "ack"
        before = list(server.hub.tables[table_id].game.names)  # type: ignore[union-attr]
        assert before == ["S0", "S2", "S1", "S3"]
        ann.close()
    with running(Storage(storage.url), fast_settings(takeover_delay=60)) as server:
        watcher = Player(server.ws_url(table_id)).open()
        after = list(server.hub.tables[table_id].game.names)  # type: ignore[union-attr]
        seats = server.get(f"/api/tables/{table_id}").json()["seats"]
        assert after == before == [seat["name"] for seat in seats]
        watcher.close()


def test_errors_of_pages_and_messages_say_what_is_wrong(server: ServerThread) -> None:
    """No route and a wrong method answer in the API's form; an id beyond what
    JavaScript reads exactly is refused, a too-long text id is called too long, and a
    lone surrogate is named as such (the JSON reader said "unexpected end of hex escape")."""
    for method, path, status, code in (
        ("GET", "/no/such/page", 404, "not_found"),
        ("DELETE", "/api/tables", 405, "method_not_allowed"),
    ):
        answer = httpx.request(method, server.base + path, timeout=20)
        assert answer.status_code == status and answer.json()["error"] == code, answer.text
        assert answer.json()["message"]
    # A browser that mistyped an address gets a page with the way to the lobby.
    page = httpx.get(server.base + "/no/such/page", headers={"Accept": "text/html"}, timeout=20)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "No such page" in page.text and 'href="/"' in page.text
    api = httpx.get(server.base + "/api/nothing", headers={"Accept": "text/html"}, timeout=20)
    assert api.status_code == 404 and api.json()["error"] == "not_found"
    watcher = Player(server.ws_url(new_table(server)["table_id"])).open()
    assert watcher.ws is not None
    for text, said in (
        (json.dumps({"type": "ping", "id": 2**53 + 1}), "less than or equal to 9007199254740992"),
        (json.dumps({"type": "ping", "id": "x" * 40}), "at most 32 characters"),
        ('{"type": "chat", "text": "\\ud800"}', "lone surrogate"),
    ):
        watcher.ws.send(text)
        refused = watcher.until(lambda m: m["type"] == "error")
        assert refused["code"] == "bad_message" and said in refused["message"], refused
    watcher.close()


def test_a_client_still_flooding_is_answered_before_it_is_hung_up_on(storage: Storage) -> None:
    """Past the refusals the server allows, it hangs up with 1008, after sending the
    answers already due: each message before then gets its pong or its refusal."""
    from openhearts.web.protocol import MAX_REFUSALS

    settings = fast_settings(message_rate=20.0, message_burst=40.0)
    with running(storage, settings) as server:
        data = server.post("/api/play-now", {}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        total = 40 + MAX_REFUSALS + 300
        for number in range(total):
            try:
                player.send({"type": "ping", "id": number})
            except ConnectionClosed:
                break  # hung up on while still sending: what was answered is read below
        answers = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                answer = player.until(lambda m: m["type"] in ("pong", "error"), timeout=10)
                answers.append(answer)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert [a["id"] for a in answers] == list(range(len(answers)))
        refused = [a for a in answers if a.get("code") == "rate_limited"]
        assert len(refused) == MAX_REFUSALS + 1, (len(answers), len(refused))


def test_after_a_restart_people_have_time_to_reconnect(storage: Storage) -> None:
    """A restart must not hand a person's seat to a bot before their page has had time
    to come back, even with a takeover delay of 0: at least RECONNECT_GRACE."""
    from openhearts.web.hub import RECONNECT_GRACE

    # The first server hands no seat to a bot while it shuts down (the connection it
    # drops there would otherwise let random bots play on, even to the end of the game).
    with running(storage, fast_settings(takeover_delay=60)) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}}).json()
        table_id = data["table_id"]
        player = Player(server.ws_url(table_id), token=data["token"]).open()
        player.until(lambda m: m["type"] == "state")
    with running(Storage(storage.url), fast_settings(takeover_delay=0)) as server:

        def left() -> float:
            seat = server.hub.tables[table_id].seats[data["seat"]]
            assert seat.takeover is not None, "no takeover is scheduled"
            return float(seat.takeover.when() - server.hub.loop.time())

        assert left() > RECONNECT_GRACE - 3
        assert server.get(f"/api/tables/{table_id}").json()["seats"][0]["bot_playing"] is False
        back = Player(server.ws_url(table_id), token=data["token"]).open()
        assert back.welcome is not None and back.welcome["seat"] == data["seat"]
        assert server.hub.tables[table_id].seats[data["seat"]].takeover is None
        back.close()
    player.close()


def test_routine_socket_lines_stay_out_of_the_log_unless_debugging() -> None:
    from openhearts.web.server import _quiet_sockets

    def line(level: int, message: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", level, "", 0, message, args, None)

    assert not _quiet_sockets(line(logging.INFO, '%s - "WebSocket %s" [accepted]', "a", "/ws"))
    assert not _quiet_sockets(line(logging.INFO, "connection open"))
    assert not _quiet_sockets(line(logging.INFO, "connection closed"))
    assert _quiet_sockets(line(logging.INFO, "Application startup complete."))
    assert _quiet_sockets(line(logging.WARNING, "connection closed"))


def test_undo_of_a_forced_first_lead_goes_back_to_the_pass(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With "Auto play one" on, the 2♣ led for the person was no choice: undo takes back
    the pass with it (it stopped at the 2♣, which the page may not play and the server
    did not play again: the game stalled)."""
    import secrets

    # A game seed that deals the 2♣ to seat 0.
    monkeypatch.setattr(secrets, "token_hex", lambda size: "0" * 31 + "6")
    with running(storage, fast_settings(bot_delay=0.0, auto_delay=0.0)) as server:
        data = server.post("/api/play-now", {"name": "Ann"}).json()
        ann = Player(server.ws_url(data["table_id"]), token=data["token"], auto_play_one=True)
        ann.open()
        dealt = ann.until(lambda m: m["type"] == "state")["state"]
        assert "2C" in dealt["hand"]
        passed = [card for card in dealt["hand"] if card != "2C"][:3]
        assert ann.request({"type": "pass", "cards": passed})["type"] == "ack"
        ann.until(lambda m: m["type"] == "state" and [0, "2C"] in m["state"]["trick"])
        assert ann.request({"type": "undo"})["type"] == "ack"
        back = ann.until(lambda m: m["type"] == "state" and m["state"]["phase"] == "passing")
        assert back["state"]["passed"] is None and 0 in back["state"]["waiting_for"]
        ann.close()


def last_summary(player: Player) -> dict[str, Any]:
    """The table summary of the last ``table`` message ``player`` received."""
    tables = [json.loads(t) for t in player.texts if json.loads(t)["type"] == "table"]
    summary: dict[str, Any] = tables[-1]["table"]
    return summary


def database_lines(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if "the database" in r.getMessage()]


def test_a_game_waits_while_the_database_cannot_store_and_goes_on_exactly(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Found with PostgreSQL gone: the bot driver wrote a traceback every half second
    and slept holding the table's lock, so a spectator's hello waited on it, and the
    people at the table were told nothing.  The log says once that the database fails
    and once that it works; the bots wait with the lock free; the pages are told; and
    the move that could not be stored is made, once, when it can be."""
    monkeypatch.setattr(hub_module, "STORE_RETRY_FIRST", 0.02, raising=False)
    outage = Outage(storage.engine)
    monkeypatch.setattr(storage, "engine", outage)
    real_append = storage.append_action

    def append(table_id: str, game: int, action: ActionRow) -> None:
        real_append(table_id, game, action)
        if action.seq == 3:  # the last pass: the first card of the deal cannot be stored
            outage.down = True

    monkeypatch.setattr(storage, "append_action", append)
    with caplog.at_level(logging.INFO, logger="openhearts.web"), running(storage) as server:
        data = server.post("/api/play-now", {"name": "Ann", "options": {"end_score": 30}}).json()
        table_id = data["table_id"]
        # "Auto play one" on: the first card is the server's to play (a bot's, or the
        # 2♣ for Ann), never a person's.
        ann = Player(server.ws_url(table_id), token=data["token"], auto_play_one=True).open()
        ann.until(lambda m: m["type"] == "state" and m["state"]["waiting_for"] == [0])
        assert ann.request({"type": "pass", "cards": ann.state["hand"][:3]})["type"] == "ack"
        told = ann.until(lambda m: m["type"] == "table" and m["table"]["cannot_save"])
        assert told["table"]["status"] == "playing"
        wait_for(lambda: outage.refused >= 4, what="the database tried again")
        table = server.hub.tables[table_id]
        assert on_server_loop(server, lambda: table.seq) == 4
        # Nothing holds the table meanwhile: a spectator comes in, a chat line goes out.
        for _ in range(5):
            assert not on_server_loop(server, lambda: table.lock.locked())
            time.sleep(0.02)
        watcher = Player(server.ws_url(table_id)).open()
        assert watcher.welcome is not None and watcher.welcome["type"] == "welcome"
        assert watcher.welcome["table"]["cannot_save"] is True
        assert ann.request({"type": "chat", "text": "still there?"})["type"] == "ack"
        # A setting that cannot be stored is refused, and not changed.
        refused = ann.request({"type": "auto", "play_one": False})
        assert refused["code"] == "unavailable", refused
        assert "cannot save" in refused["message"]
        assert table.seats[0].auto_play_one is True
        lines = database_lines(caplog.records)
        assert len(lines) == 1 and "cannot store" in lines[0], lines
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
        outage.down = False
        ann.until(lambda m: m["type"] == "table" and not m["table"]["cannot_save"])
        watcher.until(lambda m: m["type"] == "table" and not m["table"]["cannot_save"])
        ann.play()
        watcher.close()
        ann.close()
        final = ann.latest
        # Every move stored once, in order: the record replays to the end the pages saw.
        text = finished_record(server, table_id)
    lines = database_lines(caplog.records)
    assert len(lines) == 2 and "stores again" in lines[1], lines
    replayed = record.loads(text)
    assert final is not None and replayed.action_count == final["seq"]
    assert list(replayed.scores) == final["state"]["scores"]


def test_a_persons_move_the_database_cannot_store_is_not_made(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their card is refused in words (not "something went wrong"), stays in their
    hand, and is played when they play it again once the database works."""
    monkeypatch.setattr(hub_module, "STORE_RETRY_FIRST", 0.02, raising=False)
    outage = Outage(storage.engine)
    monkeypatch.setattr(storage, "engine", outage)
    with running(storage) as server:
        table_id, players = four_players(server)
        assert players[0].request({"type": "start"})["type"] == "ack"
        for player in players:
            player.until(lambda m: m["type"] == "state" and m["state"]["phase"] == "passing")
        for player in players:
            passed = player.request({"type": "pass", "cards": player.state["hand"][:3]})
            assert passed["type"] == "ack", passed
        for player in players:
            player.until(lambda m: m["type"] == "state" and m["state"]["phase"] == "playing")
        leader = next(p for p in players if "2C" in p.state["hand"])
        outage.down = True
        refused = leader.request({"type": "play", "card": "2C"})
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        assert refused["message"] == (
            "The game cannot be saved right now, so your move was not made: make it again "
            "when the game goes on."
        )
        # Told before the refusal: the table summary says the server cannot save.
        assert last_summary(leader)["cannot_save"] is True
        assert server.hub.tables[table_id].seq == 4
        assert "2C" in server.hub.tables[table_id].game.hand(leader.state["seat"])  # type: ignore[union-attr]
        outage.down = False
        leader.until(lambda m: m["type"] == "table" and not m["table"]["cannot_save"])
        assert leader.request({"type": "play", "card": "2C"})["type"] == "ack"
        shown = leader.until(lambda m: m["type"] == "state" and m["seq"] == 5)
        assert shown["state"]["trick"] == [[leader.state["seat"], "2C"]]
        loaded = storage.load_table(table_id)
        assert loaded is not None and loaded.game is not None
        assert [a.data for a in loaded.game.actions][4:] == ["2C"]
        for player in players:
            player.close()


def test_a_start_the_database_cannot_store_leaves_the_seats_free(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting fills the free seats with bots: refused by the database, the bots
    stayed in memory alone, and nobody could take those seats any more."""
    monkeypatch.setattr(hub_module, "STORE_RETRY_FIRST", 0.02, raising=False)
    outage = Outage(storage.engine)
    monkeypatch.setattr(storage, "engine", outage)
    with running(storage) as server:
        host = new_table(server, name="Ann")
        table_id = host["table_id"]
        ann = Player(server.ws_url(table_id), token=host["token"]).open()
        outage.down = True
        refused = ann.request({"type": "start"})
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        seats = server.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "empty", "empty", "empty"]
        outage.down = False
        ann.until(lambda m: m["type"] == "table" and not m["table"]["cannot_save"])
        joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"})
        assert joined.status_code == 200, joined.text
        ann.close()


#: A program speaking the engine protocol that passes, then stops at its first card.
STOPS_AT_ITS_FIRST_CARD = """
import json, sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "act":
        if message["decision"] != "pass":
            sys.exit(3)
        cards = message["hand"][: message["rules"]["cards_passed"]]
        print(json.dumps({"cards": cards}), flush=True)
"""


def test_everyone_at_the_table_is_told_when_a_program_bot_fails(
    storage: Storage, tmp_path: Path
) -> None:
    """Found with a ``cmd:`` bot stopping during a web game: a random player took its
    seat and only the server's log said so; the seat still showed the program's level.
    Every page hears it once, as the other faces say it, and the seat shows it."""
    from openhearts.bots import BOTS, LEVELS, add_level

    script = tmp_path / "stops.py"
    script.write_text(STOPS_AT_ITS_FIRST_CARD, encoding="utf-8")
    add_level("stops", "cmd:" + " ".join([sys.executable, str(script)]))
    try:
        with running(storage) as server:
            data = server.post(
                "/api/play-now", {"name": "Ann", "level": "stops", "options": {"end_score": 20}}
            ).json()
            table_id = data["table_id"]
            watcher = Player(server.ws_url(table_id)).open()
            ann = Player(server.ws_url(table_id), token=data["token"]).open()
            ann.play()
            watch(watcher)
            summary = server.get(f"/api/tables/{table_id}").json()
            ann.close()
            watcher.close()
    finally:
        del LEVELS["stops"], BOTS["stops"]
    assert [(s["level"], s["replaced"]) for s in summary["seats"][1:]] == [("stops", True)] * 3
    for page in (ann, watcher):
        messages = [json.loads(text) for text in page.texts]
        told = [
            (index, event)
            for index, message in enumerate(messages)
            if message["type"] == "state"
            for event in message["events"]
            if event["event"] == "bot_replaced"
        ]
        # Once a seat, and nothing of why (the program's words may name its cards).
        assert sorted(event["seat"] for _, event in told) == [1, 2, 3]
        assert all(set(event) == {"event", "seat"} for _, event in told)
        for index, event in told:
            # Said with the first card played for it, before that card.
            kinds = [(e["event"], e.get("seat")) for e in messages[index]["events"]]
            said = kinds.index(("bot_replaced", event["seat"]))
            assert ("played", event["seat"]) in kinds[said:]
            # And its seat shows it from then on.
            later = [m for m in messages[index:] if m["type"] == "table"]
            assert later and later[0]["table"]["seats"][event["seat"]]["replaced"] is True
