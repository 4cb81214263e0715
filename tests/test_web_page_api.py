"""What the page reads besides the game itself: the review of past tricks
(``GET /api/tables/{id}/deals``: every finished deal and the deal in progress trick by
trick, nothing but cards played in front of all), the shared key map (``/api/keys``),
and hints, undo, the faulty-bot policy, names and statistics that are the session
core's."""

from __future__ import annotations

import random
import re
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from openhearts import Game, Rules, record
from openhearts.bots import Bot, RandomBot
from openhearts.cards import CardSet
from openhearts.game import PlayerView
from openhearts.session.hints import make_hint
from openhearts.session.keys import KEYS
from openhearts.session.review import DealReview, deal_reviews
from openhearts.session.statistics import Stats
from openhearts.session.undo import undo_last_choice
from openhearts.web import review
from openhearts.web.hints import hint_json
from openhearts.web.seat import BOT_NAMES, Seat
from openhearts.web.storage import Storage
from web_support import Player, fast_settings, running, store_game


def second_deal_game(tricks: int = 3, seed: int = 5) -> Game:
    """A game of standard rules in its second deal, ``tricks`` tricks into it."""
    game = Game(Rules.preset("standard"), seed=f"review{seed}")
    rng = random.Random(seed)
    while game.deal_number == 0 or len(game.view(0).tricks) < tricks:
        if game.phase == "passing":
            seat = game.to_act()[0]
            game.pass_cards(seat, rng.sample(game.hand(seat).cards(), 3))
        elif game.phase == "moon_choice":
            shooter = game.current_player
            assert shooter is not None
            game.choose_moon(shooter, others_add=True)
        else:
            game.play(rng.choice(game.legal_plays().cards()))
    assert not game.is_over
    return game


def test_the_deals_of_a_game_come_trick_by_trick_with_no_hidden_card(tmp_path: Path) -> None:
    game = second_deal_game()
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    # Seat 0 is a person, away but not yet taken over, who plays nothing here: the bots
    # may play up to seat 0's turn, but no trick more is finished.
    store_game(storage, "ReviewTable", "standard", game, 0, "R" * 32, auto_play_one=False)
    with running(storage, fast_settings(takeover_delay=600)) as server:
        answer = server.get("/api/tables/ReviewTable/deals")
        assert answer.status_code == 200, answer.text
        data = answer.json()
    assert data["game"] == 1
    assert data["names"] == list(game.names)
    assert data["opening"] == 1
    finished, current = data["deals"]
    result = game.results[0]
    assert finished["deal"] == 0 and finished["finished"]
    assert finished["points"] == list(result.points)
    assert finished["taken"] == list(result.taken_points)
    assert [t["winner"] for t in finished["tricks"]] == [t.winner for t in result.tricks]
    assert [[card for _, card in t["plays"]] for t in finished["tricks"]] == [
        [str(card) for card in t.cards] for t in result.tricks
    ]
    taken = [0] * 4
    for trick, engine_trick in zip(finished["tricks"], result.tricks, strict=True):
        assert [seat for seat, _ in trick["plays"]] == [seat for seat, _ in engine_trick.plays(4)]
        taken[trick["winner"]] += trick["points"]
    assert taken == list(result.taken_points)
    # The deal in progress: its finished tricks only, never a card still in a hand.
    assert current == {
        "deal": 1,
        "finished": False,
        "tricks": current["tricks"],
    }
    assert len(current["tricks"]) == 3
    played = {str(card) for trick in game.view(0).tricks for card in trick.cards}
    sent = {card for trick in current["tricks"] for _, card in trick["plays"]}
    assert sent == played
    held = {str(card) for seat in range(4) for card in game.hand(seat)}
    assert not sent & held


def test_the_deals_are_worked_out_once_for_each_change_of_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Working out every deal of a long game takes the server's one event loop tens of
    milliseconds, and the route has no rate limit: a client asking again and again
    stalled every table.  The answer is kept until the table changes."""
    game = second_deal_game()
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    store_game(storage, "ReviewTable", "standard", game, 0, "R" * 32, auto_play_one=False)
    worked: list[Game] = []

    def work(game: Game) -> list[DealReview]:
        worked.append(game)
        return deal_reviews(game)

    monkeypatch.setattr(review, "deal_reviews", work)
    with running(storage, fast_settings(takeover_delay=600)) as server:
        url = "/api/tables/ReviewTable/deals"
        first = server.get(url).json()
        table = server.hub.tables["ReviewTable"]
        # The bots play up to seat 0's turn, who plays nothing here.
        deadline = time.monotonic() + 20
        while table.game is not None and table.game.to_act() != [0]:
            assert time.monotonic() < deadline, "the bots stopped before seat 0's turn"
            time.sleep(0.02)
        settled = server.get(url).json()
        before = len(worked)
        again = [server.get(url).json() for _ in range(5)]
        assert len(worked) == before and again == [settled] * 5
        table.version += 1  # any change to the table
        assert server.get(url).json() == settled and len(worked) == before + 1
    assert first["game"] == settled["game"] == 1


def test_no_table_and_no_game_yet(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage) as server:
        missing = server.get("/api/tables/NoSuchTable/deals")
        assert missing.status_code == 404
        assert missing.json()["error"] == "no_table"
        table = server.post("/api/tables", {"name": "Ann"}).json()["table_id"]
        waiting = server.get(f"/api/tables/{table}/deals")
        assert waiting.status_code == 200
        assert waiting.json() == {"game": None, "names": [], "deals": [], "opening": None}


def test_the_key_map_is_the_shared_one(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage) as server:
        answer = server.get("/api/keys")
    assert answer.status_code == 200
    served = answer.json()["keys"]
    assert [(k["command"], tuple(k["keys"]), k["description"]) for k in served] == [
        (k.command.value, k.keys, k.description) for k in KEYS
    ]


def test_the_web_hint_is_the_session_cores_with_expected_points(tmp_path: Path) -> None:
    """The same hint as the other faces: the session core's, seeded with the game's seed,
    every legal card best first by the numbers it is ranked by, with expected points."""
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    settings = fast_settings(hint_budget=3)
    with running(storage, settings) as server:
        data = server.post("/api/play-now", {"name": "Ann", "level": "random"}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        state = player.until(lambda m: m["type"] == "state")["state"]
        game = server.hub.tables[data["table_id"]].game
        assert game is not None
        passing = player.request({"type": "hint"})
        assert passing["pass"] == hint_json(game.view(0), game.seed)["pass"]
        assert player.request({"type": "pass", "cards": passing["pass"]})["type"] == "ack"
        while True:
            message = player.recv()
            if message["type"] != "state":
                continue
            state = message["state"]
            if state["to_move"] == 0 and state["phase"] == "playing":
                if len(state["legal"]) > 1:
                    break
                player.request({"type": "play", "card": state["legal"][0]})
        hint = player.request({"type": "hint"})
        # The game waits for seat 0, whose person is still connected.
        assert hint["seq"] == state["seq"] == game.action_count
        expected = make_hint(game.view(0), seed=game.seed, budget=3)
        player.close()
    assert [r["card"] for r in hint["ranking"]] == [str(o.card) for o in expected.options]
    assert sorted(r["card"] for r in hint["ranking"]) == sorted(state["legal"])
    margins = [r["margin"] for r in hint["ranking"]]
    assert margins == sorted(margins)
    assert all(isinstance(r["points"], float | int) for r in hint["ranking"])


def test_the_web_undo_is_the_session_cores(tmp_path: Path) -> None:
    """Undo at the web table takes back what the session core's undo takes back: the
    person's last real choice and the bots' moves after it."""
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage, fast_settings()) as server:
        data = server.post("/api/play-now", {"name": "Ann", "level": "random"}).json()
        player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        state = player.until(lambda m: m["type"] == "state")["state"]
        game = server.hub.tables[data["table_id"]].game
        assert game is not None
        # Without "Auto play one" the game waits for us at every turn of ours.
        assert player.request({"type": "auto", "play_one": False})["type"] == "ack"
        assert player.request({"type": "pass", "cards": state["hand"][:3]})["type"] == "ack"
        plays = 0
        while plays < 2:
            message = player.recv()
            if message["type"] != "state":
                continue
            state = message["state"]
            if state["to_move"] == 0 and state["phase"] == "playing":
                assert player.request({"type": "play", "card": state["legal"][-1]})["type"] == "ack"
                plays += 1
        # Our turn again, and the game has not moved since (it waits for us).
        player.until(
            lambda m: (
                m["type"] == "state"
                and m["state"]["to_move"] == 0
                and m["seq"] == game.action_count
            )
        )
        copy = record.loads(record.dumps(game))
        expected = undo_last_choice(copy, 0, auto_play_one=False)
        assert player.request({"type": "undo"})["type"] == "ack"
        undone = player.until(
            lambda m: m["type"] == "state" and any(e["event"] == "undone" for e in m["events"])
        )
        player.close()
    assert undone["seq"] == copy.action_count
    assert [e["count"] for e in undone["events"] if e["event"] == "undone"] == [
        len(expected.actions)
    ]
    assert undone["state"]["hand"] == [str(card) for card in copy.hand(0)]


class BrokenPasser(RandomBot):
    def choose_pass(self, view: PlayerView) -> CardSet:
        raise RuntimeError("cable unplugged")


def test_a_faulty_bot_at_a_web_table_gives_way_to_a_random_one_for_good(
    tmp_path: Path,
) -> None:
    """The faulty-bot policy of every face: the game goes on with a random move, and a
    random player takes the seat for good."""
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage, fast_settings()) as server:
        data = server.post("/api/tables", {"name": "Ann", "level": "random"}).json()
        host = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
        assert host.request({"type": "fill"})["type"] == "ack"
        table = server.hub.tables[data["table_id"]]
        broken = BrokenPasser(0)
        bot_for = table._bot_for
        given: list[Seat] = []

        def broken_first(seat: Seat) -> Bot:
            # Seat 1's bot is the broken one when it is first asked to act.
            if seat.index == 1 and not given:
                given.append(seat)
                seat.bot = broken
            return bot_for(seat)

        table._bot_for = broken_first  # type: ignore[method-assign]
        assert host.request({"type": "start"})["type"] == "ack"
        # Every bot has passed, the broken one too (at random): only we are left.
        host.until(lambda m: m["type"] == "state" and m["state"]["waiting_for"] == [0])
        host.close()
    assert isinstance(table.seats[1].bot, RandomBot) and table.seats[1].bot is not broken


def test_names_taken_at_a_web_table_get_a_number(tmp_path: Path) -> None:
    """The one rule for names of every face: a name already taken at the table, whatever
    its case, gets a number, for people joining and for the bots filling seats."""
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage, fast_settings()) as server:
        # The host is called like the bot that will fill seat 3.
        bot_name = BOT_NAMES[3 % len(BOT_NAMES)]
        data = server.post("/api/tables", {"name": bot_name, "level": "random"}).json()
        table_id = data["table_id"]
        first = server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}).json()
        second = server.post(f"/api/tables/{table_id}/join", {"name": "bob"}).json()
        assert first["table"]["seats"][1]["name"] == "Bob"
        assert second["table"]["seats"][2]["name"] == "bob 2"
        host = Player(server.ws_url(table_id), token=data["token"]).open()
        assert host.request({"type": "fill"})["type"] == "ack"
        host.close()
        seats = server.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[3]["name"] == f"{bot_name} 2"


def test_the_web_statistics_are_the_session_cores(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with running(storage, fast_settings()) as server:
        data = server.post(
            "/api/play-now", {"name": "Ann", "level": "random", "options": {"end_score": 1}}
        ).json()
        auth = {"Authorization": f"Bearer {data['player_token']}"}
        # Before a first finished game, as docs/web-protocol.md says.
        before = server.get("/api/stats", headers=auth).json()
        assert before == {"name": before["name"], "games": 0, "wins": 0, "deals": 0,
                          "points": 0, "moons": 0, "suns": 0, "best": None,
                          "average": None}  # fmt: skip
        player = Player(server.ws_url(data["table_id"]), token=data["token"], seed=3).open()
        player.play()
        player.close()
        text = server.get(f"/api/tables/{data['table_id']}/games/1/record").text
        stats = server.get(
            "/api/stats", headers={"Authorization": f"Bearer {data['player_token']}"}
        ).json()
    counted = Stats()
    counted.add_game(record.loads(text), 0)
    assert (stats["games"], stats["wins"], stats["deals"], stats["points"]) == (
        counted.games_played,
        counted.games_won,
        counted.deals_played,
        counted.points_taken,
    )
    assert (stats["moons"], stats["suns"]) == (counted.moons_shot, counted.suns_shot)
    assert stats["best"] == counted.best_total


def test_a_sun_counts_as_a_sun_in_the_web_statistics(tmp_path: Path) -> None:
    """The web statistics counted a sun as a moon (the terminal game's tell them apart)."""
    from conftest import SUIT_HANDS, hold_rules, play_out_deal, scripted_game
    from openhearts.web.table import _stats_delta

    game = scripted_game(hold_rules("source-003"), dict(SUIT_HANDS))
    play_out_deal(game)
    assert game.results[0].shot == "sun" and game.results[0].shooter == 0
    storage = Storage(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    storage.migrate()
    delta = _stats_delta(game, Seat(0, kind="human", name="Ann"), "ann")
    assert (delta.moons, delta.suns) == (0, 1)
    with storage.engine.begin() as connection:
        storage._add_stats(connection, delta, datetime.now(UTC))
        storage._add_stats(connection, delta, datetime.now(UTC))
    found = storage.stats("ann")
    assert found is not None and (found["moons"], found["suns"]) == (0, 2)


def _linear(channel: float) -> float:
    channel /= 255
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _contrast(one: list[float], other: list[float]) -> float:
    """WCAG 2's contrast ratio of two sRGB colours."""
    lighter, darker = sorted(
        (
            0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)
            for r, g, b in (one, other)
        ),
        reverse=True,
    )
    return (lighter + 0.05) / (darker + 0.05)


def _filtered(colour: str, saturate: float, brightness: float) -> list[float]:
    """``colour`` (#rrggbb) through CSS ``saturate()`` then ``brightness()``."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    s = saturate
    matrix = [
        [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
        [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
        [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
    ]
    return [
        min(255.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) * brightness
        for row in matrix
    ]


def test_the_ranks_of_darkened_cards_stay_readable() -> None:
    """Cards that cannot be played are shown darker; their ranks and suits keep WCAG's
    4.5:1 against the darkened face (the red ones fell to 4.3:1)."""
    static = Path(__file__).parent.parent / "src/openhearts/web/static"
    style = (static / "style.css").read_text()
    found = re.search(
        r"\.hand-card\.illegal \.card-svg \{ "
        r"filter: brightness\(([\d.]+)\) saturate\(([\d.]+)\); \}",
        style,
    )
    assert found, "the rule that darkens unplayable cards"
    brightness, saturate = float(found[1]), float(found[2])
    assert brightness < 0.8, "unplayable cards are clearly darker"
    cards = (static / "cards.js").read_text()
    inks = re.findall(r'^const (?:RED|BLACK) = "(#[0-9a-f]{6})";', cards, re.M)
    face = re.search(r'rx: 16, fill: "(#[0-9a-f]{6})"', cards)
    assert len(inks) == 2 and face
    for ink in inks:
        ratio = _contrast(
            _filtered(ink, saturate, brightness), _filtered(face[1], saturate, brightness)
        )
        assert ratio >= 4.5, (ink, ratio)
