"""The JSON Schema of a game record, built from the code that writes records.

``python -m openhearts.record_schema`` prints it; the copy published in
``docs/record.schema.json`` is that output (a test fails when the two drift apart).
It describes what :func:`openhearts.record.dumps` writes, card names in their short
form (``"QS"``, ``"TH"``), so that programs in any language can read and check records.
Loading a record checks more than a schema can say: every action is replayed.

>>> document = schema()
>>> document["properties"]["format"], document["properties"]["version"]
({'const': 'openhearts-record'}, {'const': 1})
>>> sorted(document["properties"]["rules"]["properties"]["moon"]["enum"])
['none', 'others_add', 'shooter_chooses', 'shooter_subtracts']
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Any, Final

from .cards import Rank, Suit
from .record import EVENT_FIELDS, FORMAT, NAME_PATTERN, RESULT_FIELDS, VERSION
from .rules import FirstTrick, HeartsBreak, MoonScoring, Seating

__all__ = ["schema", "CARD_PATTERN", "CARDS_PATTERN"]

_CARD: Final = f"[{''.join(r.letter for r in Rank)}][{''.join(s.letter for s in Suit)}]"
#: One card in the form records use: rank ``23456789TJQKA`` then suit ``CDSH``.
CARD_PATTERN: Final = f"^{_CARD}$"
#: A set of cards: card names separated by single spaces (empty for no card).
CARDS_PATTERN: Final = f"^({_CARD}( {_CARD})*)?$"


def _integer(minimum: int | None = None) -> dict[str, Any]:
    return {"type": "integer"} if minimum is None else {"type": "integer", "minimum": minimum}


def _enum(kind: type[StrEnum], description: str) -> dict[str, Any]:
    return {"enum": [member.value for member in kind], "description": description}


def _object(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _rules() -> dict[str, Any]:
    card = {"type": "string", "pattern": CARD_PATTERN}
    return _object(
        {
            "players": {"type": "integer", "minimum": 3, "maximum": 6},
            "removed": {"type": "array", "items": card, "uniqueItems": True},
            "pass_cycle": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string", "pattern": "^(hold|across|(left|right)[0-9]*)$"},
                "description": "one pass direction per deal, repeated",
            },
            "cards_passed": _integer(0),
            "first_lead": {"oneOf": [{"type": "null"}, card]},
            "first_trick": _enum(FirstTrick, "what may be played on the first trick"),
            "hearts_break": _enum(HeartsBreak, "when hearts may be led"),
            "moon": _enum(MoonScoring, "how shooting the moon scores"),
            "sun": {"type": "boolean"},
            "jack_of_diamonds": {"type": "boolean"},
            "end_score": _integer(1),
            "seating": _enum(Seating, "fixed seats or shuffled at the start"),
            "first_dealer": _integer(0),
            "direction": {"enum": ["clockwise", "counterclockwise"]},
        },
        "every option of the game (docs/rules.md)",
    )


def _events() -> list[dict[str, Any]]:
    seat = {**_integer(0), "description": "a seat, numbered in the order of play from 0"}
    cards = {"type": "string", "pattern": CARDS_PATTERN}
    fields: dict[str, dict[str, Any]] = {
        "deal": {
            "deal": {**_integer(0), "description": "the deal's number in the game, from 0"},
            "hands": {"type": "array", "items": cards, "description": "each seat's dealt hand"},
        },
        "pass": {"pass": seat, "cards": cards},
        "play": {"play": seat, "card": {"type": "string", "pattern": CARD_PATTERN}},
        "moon": {
            "moon": seat,
            "others_add": {
                "type": "boolean",
                "description": "true: the others add the points; false: the shooter subtracts",
            },
        },
    }
    descriptions = {
        "deal": "a new deal and the hands dealt",
        "pass": "a seat passes cards",
        "play": "a seat plays a card",
        "moon": "the shooter's choice of how the moon scores",
    }
    assert set(fields) == set(EVENT_FIELDS), "every kind of event the records write"
    return [
        _object({name: fields[kind][name] for name in EVENT_FIELDS[kind]}, descriptions[kind])
        for kind in EVENT_FIELDS
    ]


def _result() -> dict[str, Any]:
    integers = {"type": "array", "items": _integer()}
    properties = {
        "over": {"type": "boolean"},
        "scores": {**integers, "description": "each seat's total"},
        "deal_points": {
            "type": "array",
            "items": integers,
            "description": "the points of each finished deal, per seat",
        },
        "winners": {
            "type": "array",
            "items": _integer(0),
            "description": "seats with the lowest total once over",
        },
    }
    assert set(properties) == set(RESULT_FIELDS)
    return _object(
        {name: properties[name] for name in RESULT_FIELDS},
        "what replaying the events gives; loading checks it",
    )


def _session() -> dict[str, Any]:
    """What a face keeps in the record to resume a session (``openhearts.session.saving``)."""
    return _object(
        {
            "humans": {"type": "array", "items": _integer(0), "minItems": 1},
            "level": {"type": "string", "description": "the computer players' level"},
            "auto_play_one": {"type": "boolean"},
        },
        "optional: the seats played by people, the computer players' level and auto play "
        "one, for resuming the game in any face",
    )


def schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12) as a JSON-ready dict."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "OpenHearts game record",
        "description": (
            "A whole game of Hearts, finished or in progress: the rules, the players, "
            "and every deal, pass, play and moon choice in order (docs/records.md)."
        ),
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "rules": _rules(),
            "seed": {"type": ["integer", "string"], "description": "the seed of the shuffles"},
            "names": {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}},
            "first_deal": _integer(0),
            "initial_scores": {
                "oneOf": [{"type": "null"}, {"type": "array", "items": _integer()}],
                "description": "the totals before the first deal",
            },
            "events": {"type": "array", "minItems": 1, "items": {"oneOf": _events()}},
            "result": _result(),
            "session": _session(),
        },
        "required": ["format", "version", "rules", "events"],
        # A program may keep its own keys beside the game, as the faces keep "session";
        # loading ignores them.
        "additionalProperties": True,
    }


def main() -> int:
    """Print the schema (``python -m openhearts.record_schema > docs/record.schema.json``)."""
    sys.stdout.write(json.dumps(schema(), indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
