"""The published JSON Schema of records: the same as the code's, and every record fits it.

Every record the suite writes is also checked against it, by ``conftest.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import CONFIGS, config_id
from openhearts.bots import act, make_bot
from openhearts.game import Game
from openhearts.record import RecordError, dumps, loads
from openhearts.record_schema import main, schema
from openhearts.rules import Rules

PUBLISHED = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"


def test_the_published_schema_is_the_generated_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main() == 0
    generated = capsys.readouterr().out
    assert PUBLISHED.read_text(encoding="utf-8") == generated, (
        "docs/record.schema.json is out of date: "
        "python -m openhearts.record_schema > docs/record.schema.json"
    )


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_records_of_every_preset_fit_the_schema(config: tuple[str, int]) -> None:
    rules = Rules.preset(config[0], players=config[1], end_score=40)
    game = Game(rules, seed=len(config[0]) + config[1])
    bots = [make_bot("random", seat) for seat in range(rules.players)]
    validator = jsonschema.Draft202012Validator(schema())
    while not game.is_over:
        seat = game.to_act()[0]
        act(game, seat, bots[seat])
        if game.action_count % 37 == 0:
            validator.validate(json.loads(dumps(game)))
    validator.validate(json.loads(dumps(game)))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("events", 1, "play"), 1.5),
        (("events", 0, "deal"), True),
        (("result", "deal_points", 0, 0), 2.5),
        (("rules", "moon"), "sideways"),
        (("events", 1, "card"), "Q♠"),
    ],
)
def test_the_schema_refuses_what_loading_refuses(path: tuple[object, ...], value: object) -> None:
    data = _short_record_with(path, value)
    assert not jsonschema.Draft202012Validator(schema()).is_valid(data)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("names",), "abcd"),
        (("seed",), 2.5),
        (("seed",), None),
        (("result",), None),
        (("version",), True),
        (("events", 0, "hands"), [1, 2, 4, 8]),
        (("events", 1, "card"), 12),
        (("names", 0), "Ann\x1b[31m"),
        (("names", 1), " "),
        (("names", 2), "Bob\nNorth"),
        (("names", 3), "\u200d \u200c"),
    ],
    ids=["names text", "seed float", "seed null", "result null", "version true",
         "hands masks", "card number", "name escape", "name blank", "name line break",
         "name of joiners"],
)  # fmt: skip
def test_loading_refuses_what_the_schema_refuses(path: tuple[object, ...], value: object) -> None:
    """The loader holds records to the published schema: what the schema refuses is not
    read some other way (a text of names as one-letter names, hands as masks)."""
    data = _short_record_with(path, value)
    assert not jsonschema.Draft202012Validator(schema()).is_valid(data)
    with pytest.raises(RecordError):
        loads(json.dumps(data))


def test_names_joined_by_zero_width_joiners_fit_the_schema_and_load() -> None:
    """Persian names need the zero-width non-joiner, emoji sequences the joiner: names
    holding them were refused, and typed ones lost them ("👩‍💻" became "👩💻")."""
    data = _short_record_with(("names", 0), "\u0645\u06cc\u200c\u0631\u0627")
    data["names"][1] = "\U0001f469\u200d\U0001f4bb"
    assert jsonschema.Draft202012Validator(schema()).is_valid(data)
    assert loads(json.dumps(data)).names[:2] == (data["names"][0], data["names"][1])


def test_a_game_with_no_deal_number_or_one_text_of_names_is_refused() -> None:
    """What the loader refuses the game cannot be made with (it saved a first_deal of
    -1 that its own loader then refused)."""
    with pytest.raises(ValueError, match="first_deal: a deal number from 0"):
        Game(Rules(), first_deal=-1)
    with pytest.raises(ValueError, match="names: one name per seat in a list"):
        Game(Rules(), names="abcd")


def _short_record_with(path: tuple[object, ...], value: object) -> dict[str, Any]:
    """A short game's record with the field at ``path`` set to ``value``."""
    data: dict[str, Any] = json.loads(dumps(_short_game()))
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def _short_game() -> Game:
    game = Game(Rules.preset("standard", pass_cycle=("hold",)), seed=2)
    bots = [make_bot("random", seat) for seat in range(4)]
    while not game.results:
        act(game, game.to_act()[0], bots[game.to_act()[0]])
    return game
