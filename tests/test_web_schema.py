"""The web protocol's one schema: what is accepted can be loaded, what is published is
what is generated, and a bad stored row is set aside instead of stopping the server."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openhearts.web.protocol import WebError
from openhearts.web.schema import (
    CreateTable,
    TableOptions,
    parse_body,
    parse_message,
    published_schema_text,
    rules_of_stored,
)
from openhearts.web.storage import SeatRow, Storage, TableRow
from web_support import fast_settings, running

DOCS = Path(__file__).resolve().parents[1] / "docs" / "web-protocol.md"

#: Values of every JSON kind, including the ones the audit found bricking the server.
VALUES: list[object] = [
    True,
    False,
    None,
    0,
    1,
    -1,
    3,
    13,
    100,
    1000,
    1001,
    2**63,
    1.5,
    "yes",
    "",
    "left",
    "hold",
    "QS",
    "others_add",
    "shuffled",
    "counterclockwise",
    [],
    ["2C"],
    ["left", "right"],
    ["hold"] * 13,
    {},
]


def test_the_published_schema_is_the_generated_one() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("<!-- schema:start -->\n```json\n") + len("<!-- schema:start -->\n```json\n")
    end = text.index("```\n<!-- schema:end -->")
    assert text[start:end].strip() == published_schema_text(), (
        "run: python -m openhearts.web.schema, and paste it into docs/web-protocol.md"
    )


@pytest.mark.parametrize(
    "body",
    [
        {"options": {"sun": "yes"}},
        {"options": {"jack_of_diamonds": 1}},
        {"options": {"end_score": True}},
        {"options": {"nonsense": 1}},
        {"players": 2},
        {"level": 5},
        {"player_token": "weak"},
        {"turn_clock": -1},
    ],
)
def test_loose_values_are_refused_with_the_field_named(body: dict[str, object]) -> None:
    with pytest.raises(WebError) as refused:
        parse_body(CreateTable, json.dumps(body).encode())
    assert refused.value.code == "bad_request"
    assert ":" in refused.value.message


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(TableOptions.model_fields)), st.sampled_from(VALUES)))
def test_every_accepted_option_set_loads_back(options: dict[str, object]) -> None:
    from openhearts.rules import Rules, RulesError

    try:
        body = parse_body(CreateTable, json.dumps({"options": options}).encode())
        rules = Rules.preset("standard", **body.options.changes())
    except (WebError, RulesError, ValueError, TypeError):
        return
    # The server stores rules.to_dict(); what it would load back is the same rules.
    assert rules_of_stored(rules.to_dict()) == rules


def test_a_bad_message_is_refused_with_its_id() -> None:
    with pytest.raises(WebError) as refused:
        parse_message('{"type": "play", "id": 7, "seq": 0, "card": "ZZ"}')
    assert refused.value.code == "bad_message" and refused.value.request_id == 7
    with pytest.raises(WebError) as refused:
        parse_message("[1, 2]")
    assert refused.value.request_id is None


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ('"' + "a" * 40 + '"', "id: String should have at most 32 characters"),
        ("1.5", "id: Input should be a valid integer"),
    ],
)
def test_an_id_of_either_form_is_refused_for_what_is_wrong_with_it(given: str, said: str) -> None:
    """An id is a number or a short string: a string too long is told it is too long,
    not that it should be a number."""
    with pytest.raises(WebError) as refused:
        parse_message(f'{{"type": "ping", "id": {given}}}')
    assert str(refused.value.message) == said


def test_what_create_accepts_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hearts.sqlite3'}"
    created = []
    with (
        running(Storage(url), fast_settings(tables_per_address=0)) as server,
        httpx.Client(base_url=server.base, timeout=20) as client,
    ):
        for name in sorted(TableOptions.model_fields):
            # A value of each JSON kind (the property test above covers the rest).
            kinds: list[object] = [True, 1, 1001, 2**63, 1.5, "yes", "left", None, [], ["2C"], {}]
            for value in kinds:
                # "Play now" goes through the same checks; its bots would only slow this.
                answer = client.post("/api/tables", json={"options": {name: value}})
                assert answer.status_code in (201, 400), (name, value, answer.text)
                assert answer.json()["message"] if answer.status_code == 400 else True
                if answer.status_code == 201:
                    created.append(answer.json()["table_id"])
        for body in ({"options": {"sun": "yes"}}, {"options": {"jack_of_diamonds": 1}}):
            assert server.post("/api/play-now", body).status_code == 400
        assert server.get("/api/tables").status_code == 200
    assert created
    with running(Storage(url), fast_settings()) as server:
        assert server.get("/api/tables").status_code == 200
        for table_id in created:
            assert server.get(f"/api/tables/{table_id}").status_code == 200


def test_a_bad_stored_row_is_set_aside_and_the_server_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'hearts.sqlite3'}"
    storage = Storage(url)
    storage.migrate()
    good = {"players": 4, "sun": "yes"}  # what an older server let through
    storage.create_table(
        TableRow(
            id="brokentable",
            status="waiting",
            preset="standard",
            rules=good,
            level="easy",
            seats=[SeatRow(seat=i) for i in range(4)],
        )
    )
    storage.close()
    with (
        caplog.at_level(logging.ERROR, logger="openhearts.web"),
        running(Storage(url), fast_settings()) as server,
    ):
        assert server.get("/healthz").status_code == 200
        assert server.get("/api/tables").status_code == 200
        answer = server.get("/api/tables/brokentable")
        assert answer.status_code == 404 and answer.json()["message"]
        assert server.post("/api/tables", {}).status_code == 201
    assert any("brokentable is set aside" in r.getMessage() for r in caplog.records)
