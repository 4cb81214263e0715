"""Storage of the web game on SQLite and PostgreSQL: migrations, tables, actions,
finished records and statistics."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from openhearts import Game, record
from openhearts.bots import act, make_bot
from openhearts.web.storage import (
    SCHEMA_VERSION,
    ActionRow,
    GameRow,
    SeatRow,
    StatsDelta,
    Storage,
    StorageError,
    TableRow,
    default_database_url,
    token_hash,
)
from web_support import Player, postgres_available, postgres_storage, running

POSTGRES_REASON = postgres_available()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store = Storage(f"sqlite:///{tmp_path / 'sub' / 'hearts.sqlite3'}")
        yield store
        store.close()
        return
    if POSTGRES_REASON:
        pytest.skip(POSTGRES_REASON)
    store = postgres_storage()
    try:
        yield store
    finally:
        store.drop_schema()


def test_migrations_create_the_schema_once(storage: Storage) -> None:
    assert storage.schema_version() == 0
    assert storage.migrate() == SCHEMA_VERSION
    assert storage.migrate() == SCHEMA_VERSION
    with storage.engine.connect() as connection:
        names = set(sa.inspect(connection).get_table_names())
        rows = connection.execute(sa.text("SELECT version FROM schema_migrations")).all()
    assert {"tables", "seats", "games", "actions", "player_stats"} <= names
    assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))


def test_a_newer_schema_is_refused(storage: Storage) -> None:
    storage.migrate()
    with storage.engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO schema_migrations (version, description, applied_at) "
                "VALUES (:v, 'future', CURRENT_TIMESTAMP)"
            ),
            {"v": SCHEMA_VERSION + 1},
        )
    with pytest.raises(StorageError, match="newer"):
        storage.migrate()


def _table(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        status="waiting",
        preset="standard",
        rules=Game().rules.to_dict(),
        level="random",
        listed=True,
        seats=[
            SeatRow(0, "human", "Ann", token_hash("t" * 32), token_hash("p" * 32), host=True),
            SeatRow(1),
            SeatRow(2),
            SeatRow(3),
        ],
    )


def test_a_game_is_stored_action_by_action_and_finished(storage: Storage) -> None:
    storage.migrate()
    storage.create_table(_table("table-one"))
    loaded = storage.load_table("table-one")
    assert loaded is not None and loaded.status == "waiting" and loaded.game is None
    assert [s.kind for s in loaded.seats] == ["human", "empty", "empty", "empty"]
    assert loaded.seats[0].host and loaded.seats[0].name == "Ann"
    assert loaded.listed and loaded.status == "waiting"

    seats = loaded.seats
    for seat in seats[1:]:
        seat.kind, seat.name, seat.level = "bot", f"Bot {seat.seat}", "random"
    game = Game(seed="secret", names=["Ann", "Bot 1", "Bot 2", "Bot 3"])
    storage.start_game(
        "table-one",
        GameRow(1, "secret", game.rules.to_dict(), list(game.names), "playing"),
        seats,
    )
    bots = [make_bot("random", seed=s) for s in range(4)]
    for _ in range(30):
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    for seq, action in enumerate(game.actions):
        kind = type(action).__name__.lower()
        data = str(getattr(action, "cards", getattr(action, "card", "")))
        storage.append_action("table-one", 1, ActionRow(seq, kind, action.seat, data))
    storage.truncate_actions("table-one", 1, 25)

    loaded = storage.load_table("table-one")
    assert loaded is not None and loaded.status == "playing" and loaded.game is not None
    assert loaded.game_number == 1 and loaded.game.seed == "secret"
    assert [a.seq for a in loaded.game.actions] == list(range(25))
    assert [s.kind for s in loaded.seats] == ["human", "bot", "bot", "bot"]
    assert storage.active_table_ids() == ["table-one"]
    assert storage.game_record("table-one", 1) == ("playing", None)

    while not game.is_over:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    delta = StatsDelta(
        token_hash("p" * 32), "Ann", 0 in game.winners, len(game.results), game.scores[0], 0
    )
    storage.finish_game("table-one", 1, record.dumps(game), game.scores, [delta])
    # Finishing twice (a restart in between) does not count the game twice.
    storage.finish_game("table-one", 1, record.dumps(game), game.scores, [delta])
    status, text = storage.game_record("table-one", 1) or ("", None)
    assert status == "finished" and text is not None
    assert record.loads(text).scores == game.scores
    assert storage.active_table_ids() == []
    stats = storage.stats(token_hash("p" * 32))
    assert stats is not None
    assert stats["games"] == 1 and stats["points"] == game.scores[0]
    assert stats["wins"] == int(0 in game.winners)
    assert storage.stats(token_hash("q" * 32)) is None
    assert storage.load_table("nothing") is None


def test_the_default_database_lives_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENHEARTS_HOME", str(tmp_path / "home"))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'home' / 'openhearts.sqlite3'}"
    store = Storage(url)
    assert store.migrate() == SCHEMA_VERSION
    store.close()
    assert (tmp_path / "home" / "openhearts.sqlite3").is_file()


def test_an_unreachable_database_is_a_clear_error() -> None:
    store = Storage("postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(StorageError, match="cannot prepare the database"):
        store.migrate()


@pytest.mark.postgres
def test_a_game_on_postgresql_survives_a_restart() -> None:
    if POSTGRES_REASON:
        pytest.skip(POSTGRES_REASON)
    from web_support import fast_settings

    store = postgres_storage()
    settings = fast_settings(takeover_delay=60)
    try:
        with running(store, settings) as server:
            data = server.post("/api/play-now", {"options": {"end_score": 30}}).json()
            player = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
            player.play(stop_after=8)
            before = player.state
            player.close()
        with running(Storage(store.url, schema=store.schema), settings) as server:
            again = Player(server.ws_url(data["table_id"]), token=data["token"]).open()
            state = again.until(lambda m: m["type"] == "state")["state"]
            assert (state["seq"], state["hand"], state["trick"]) == (
                before["seq"],
                before["hand"],
                before["trick"],
            )
            again.play()
            again.close()
            assert again.errors == []
    finally:
        store.drop_schema()


def test_prune_forgets_old_finished_and_waiting_tables_and_keeps_the_rest(
    tmp_path: Path,
) -> None:
    from datetime import UTC, datetime, timedelta

    from openhearts.cli import main

    url = f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    storage = Storage(url)
    storage.migrate()
    for table_id in ("oldtable", "kepttable", "newtable"):
        storage.create_table(_table(table_id))
    later = datetime.now(UTC) + timedelta(days=1)
    assert storage.prune(later, keep={"kepttable"}) == 2
    assert storage.load_table("oldtable") is None
    assert storage.load_table("kepttable") is not None
    storage.create_table(_table("newtable"))
    assert main(["prune", "--database", url, "--days", "1"]) == 0
    assert storage.load_table("newtable") is not None
    assert main(["prune", "--database", url, "--days", "-1"]) == 2


def _game_in_progress(storage: Storage, table_id: str) -> None:
    """A table whose game has begun, with its first action stored."""
    storage.create_table(_table(table_id))
    game = Game(seed=table_id)
    seats = _table(table_id).seats
    storage.start_game(
        table_id, GameRow(1, table_id, game.rules.to_dict(), list(game.names), "playing"), seats
    )
    storage.append_action(table_id, 1, ActionRow(0, "pass", 0, "2C 3C 4C"))


def _age(storage: Storage, table_id: str, *, table: bool = True, actions: bool = True) -> None:
    """Make the table's row, or its actions, look two days old."""
    from datetime import UTC, datetime, timedelta

    then = datetime.now(UTC) - timedelta(days=2)
    with storage.engine.begin() as connection:
        if table:
            connection.execute(
                sa.text("UPDATE tables SET updated_at = :t WHERE id = :id"),
                {"t": then, "id": table_id},
            )
        if actions:
            connection.execute(
                sa.text("UPDATE actions SET created_at = :t WHERE table_id = :id"),
                {"t": then, "id": table_id},
            )


def test_prune_forgets_games_in_progress_nobody_moved_in_for_long(storage: Storage) -> None:
    from datetime import UTC, datetime, timedelta

    storage.migrate()
    for table_id in ("abandoned", "moved-lately", "kept-in-memory"):
        _game_in_progress(storage, table_id)
        # Moves do not touch the table's row: only its actions are recent.
        _age(storage, table_id, actions=table_id != "moved-lately")
    day_ago = datetime.now(UTC) - timedelta(days=1)
    # Without a retention for abandoned games, games in progress all stay.
    assert storage.prune(day_ago, keep=()) == 0
    assert storage.prune(None, keep={"kept-in-memory"}, abandoned_before=day_ago) == 1
    assert storage.load_table("abandoned") is None
    assert storage.game_record("abandoned", 1) is None
    with storage.engine.connect() as connection:
        left = connection.execute(sa.text("SELECT DISTINCT table_id FROM actions")).scalars()
        assert set(left) == {"moved-lately", "kept-in-memory"}
    moved = storage.load_table("moved-lately")
    assert moved is not None and moved.game is not None and len(moved.game.actions) == 1


def test_hearts_prune_forgets_abandoned_games_after_their_own_retention(tmp_path: Path) -> None:
    from openhearts.cli import main

    url = f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    storage = Storage(url)
    storage.migrate()
    _game_in_progress(storage, "abandoned")
    _age(storage, "abandoned")
    assert main(["prune", "--database", url, "--days", "1", "--abandoned-days", "3"]) == 0
    assert storage.load_table("abandoned") is not None
    assert main(["prune", "--database", url, "--days", "3", "--abandoned-days", "1"]) == 0
    assert storage.load_table("abandoned") is None
    assert main(["prune", "--database", url, "--abandoned-days", "-1"]) == 2


@pytest.mark.parametrize("days", ["1e9", "99999999999", "inf", "0"])
def test_hearts_prune_keeps_everything_for_more_days_than_the_calendar_has(
    tmp_path: Path, days: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """And for 0 days, as the server's 0 keeps everything (prune forgot every table,
    a game begun a second ago too)."""
    from openhearts.cli import main

    url = f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    storage = Storage(url)
    storage.migrate()
    _game_in_progress(storage, "abandoned")
    _age(storage, "abandoned")
    storage.create_table(_table("waiting"))
    _age(storage, "waiting", actions=False)
    assert main(["prune", "--database", url, "--days", days]) == 0
    assert storage.load_table("waiting") is not None
    if days == "0":
        # It said "finished or waiting for more than 0 day(s)".
        assert "more than 0 day" not in capsys.readouterr().out
    assert main(["prune", "--database", url, "--days", "1", "--abandoned-days", days]) == 0
    assert storage.load_table("abandoned") is not None
    assert storage.load_table("waiting") is None


def test_hearts_prune_refuses_nan_days(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from openhearts.cli import main

    url = f"sqlite:///{tmp_path / 'prune.sqlite3'}"
    Storage(url).migrate()
    assert main(["prune", "--database", url, "--days", "nan"]) == 2
    assert main(["prune", "--database", url, "--abandoned-days", "nan"]) == 2
    err = capsys.readouterr().err
    assert "--days: a number of days, not nan" in err and "--abandoned-days: a number" in err


def test_hearts_prune_refuses_a_database_that_does_not_exist_and_creates_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from openhearts.cli import main

    typo = tmp_path / "newdir" / "typo.db"
    assert main(["prune", "--database", f"sqlite:///{typo}"]) == 1
    assert f"there is no database {typo}: nothing to prune" in capsys.readouterr().err
    assert not (tmp_path / "newdir").exists()
    assert main(["prune", "--database", "sqlite://"]) == 1
    assert "in memory" in capsys.readouterr().err
    # Someone else's database (or an empty file) gets no OpenHearts tables added.
    other = tmp_path / "other.db"
    with sa.create_engine(f"sqlite:///{other}").begin() as connection:
        connection.execute(sa.text("CREATE TABLE notes (body TEXT)"))
    assert main(["prune", "--database", f"sqlite:///{other}"]) == 1
    assert "holds no OpenHearts tables" in capsys.readouterr().err
    with sa.create_engine(f"sqlite:///{other}").connect() as connection:
        assert sa.inspect(connection).get_table_names() == ["notes"]
    # A file that is no database: one line, without SQLAlchemy's link.
    (tmp_path / "text.db").write_text("hello")
    assert main(["prune", "--database", f"sqlite:///{tmp_path / 'text.db'}"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_a_version_1_database_is_brought_up_to_date(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    storage.migrate()
    with storage.engine.begin() as connection:
        # What a version 1 database lacks.
        lacks = (
            ("tables", "listed"),
            ("tables", "turn_clock"),
            ("games", "rated"),
            ("seats", "helped"),
            ("player_stats", "suns"),
        )
        for table, column in lacks:
            connection.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
        connection.exec_driver_sql("DROP TABLE server_keys")
        connection.exec_driver_sql("DELETE FROM schema_migrations WHERE version >= 2")
    assert storage.schema_version() == 1
    assert storage.migrate() == SCHEMA_VERSION == 4
    row = _table("upgraded")
    row.listed = True
    storage.create_table(row)
    loaded = storage.load_table("upgraded")
    assert loaded is not None and loaded.listed and loaded.turn_clock is None
    assert not loaded.seats[0].helped
    assert storage.server_key("k") == storage.server_key("k")


def test_a_seat_a_bot_moved_for_is_remembered(storage: Storage) -> None:
    """A game a bot moved in for a person counts in none of their statistics, after a
    restart of the server too."""
    storage.migrate()
    storage.create_table(_table("helped"))
    loaded = storage.load_table("helped")
    assert loaded is not None and not loaded.seats[0].helped
    loaded.seats[0].helped = True
    storage.update_seats("helped", [loaded.seats[0]])
    again = storage.load_table("helped")
    assert again is not None and again.seats[0].helped


def test_the_servers_prune_follows_its_retention_for_abandoned_games(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import asyncio

    from openhearts.web.hub import Hub
    from openhearts.web.settings import Settings

    storage = Storage(f"sqlite:///{tmp_path / 'prune.sqlite3'}")
    storage.migrate()
    _game_in_progress(storage, "abandoned")
    _age(storage, "abandoned")
    # 1e8 days reach before the calendar starts: every hourly prune failed.
    for days, left in ((0.0, True), (3.0, True), (1e8, True), (1.0, False)):
        hub = Hub(storage, Settings(retention_days=1.0, abandoned_days=days))
        with caplog.at_level(logging.ERROR, logger="openhearts.web"):
            asyncio.run(hub.prune())
        assert not caplog.records, days
        hub.bot_work.shutdown()
        hub.store_pool.shutdown()
        assert (storage.load_table("abandoned") is not None) == left, days
    storage.close()


def test_a_file_name_where_a_database_url_belongs_is_said_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said "cannot open the database <database>: Could not parse SQLAlchemy URL"."""
    from openhearts.cli import main

    assert main(["prune", "--database", "/etc/passwd"]) == 1
    assert "'/etc/passwd' is not a database URL: write sqlite:///FILE" in capsys.readouterr().err


def test_an_action_stored_under_a_number_taken_back_replaces_it(storage: Storage) -> None:
    """A commit whose connection dropped may have been made all the same: the server,
    told it failed, took the action back, and the next action under that number (the
    same bot's move made again, or another card of the person's) stored nothing: the
    number was taken, for ever.  It replaces what the database kept from that number."""
    storage.migrate()
    storage.create_table(_table("table-two"))
    game = Game(seed="kept", names=["Ann", "Bot 1", "Bot 2", "Bot 3"])
    storage.start_game(
        "table-two", GameRow(1, "kept", game.rules.to_dict(), list(game.names), "playing"), []
    )
    storage.append_action("table-two", 1, ActionRow(0, "pass", 0, "2C 3C 4C"))
    storage.append_action("table-two", 1, ActionRow(1, "pass", 1, "5C 6C 7C"))
    # Number 1 again: the server had taken the second pass back.
    storage.append_action("table-two", 1, ActionRow(1, "pass", 1, "8C 9C TC"))
    loaded = storage.load_table("table-two")
    assert loaded is not None and loaded.game is not None
    assert [(a.seq, a.data) for a in loaded.game.actions] == [(0, "2C 3C 4C"), (1, "8C 9C TC")]
    # And number 0 again forgets the rest after it, which nobody heard of either.
    storage.append_action("table-two", 1, ActionRow(0, "pass", 0, "JC QC KC"))
    loaded = storage.load_table("table-two")
    assert loaded is not None and loaded.game is not None
    assert [(a.seq, a.data) for a in loaded.game.actions] == [(0, "JC QC KC")]
