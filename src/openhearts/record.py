"""Game records: a whole game (finished or in progress) as JSON, and back.

A record holds the rules, the names, the seed, and one line per event: each deal's
hands, each pass, each play, each moon choice; then the totals.  Loading replays
every action through the engine, so a broken or tampered record is refused with the
line it fails on and the reason.

>>> from openhearts import Game
>>> from openhearts.bots import act, make_bot
>>> game = Game(seed=11)
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> for _ in range(30):
...     act(game, game.to_act()[0], bots[game.to_act()[0]])
>>> again = loads(dumps(game))
>>> again.deal.key() == game.deal.key() and again.actions == game.actions
True
>>> loads(dumps(game).replace('"card": "', '"card": "X', 1))
Traceback (most recent call last):
...
openhearts.record.RecordError: line 15: cannot read 'X2C' as a card: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from .cards import Card, CardParseError, CardSet
from .deal import DealState
from .game import (
    NAME_PATTERN,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    name_problem,
)
from .rules import Rules, RulesError

__all__ = [
    "RecordError",
    "dumps",
    "loads",
    "record_text",
    "save",
    "load",
    "events",
    "FORMAT",
    "VERSION",
    "NAME_PATTERN",
]

FORMAT: Final = "openhearts-record"
VERSION: Final = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message gives the line."""


def events(game: Game) -> Iterator[dict[str, Any]]:
    """The record's events in order: each deal's hands, then its passes, plays and moon
    choice, as the JSON objects the record holds."""
    actions = iter(game.actions)
    for state in game.deal_states():
        yield {"deal": state.deal_number, "hands": [str(CardSet(h)) for h in state.dealt]}
        count = _action_count(state)
        for _ in range(count):
            action = next(actions)
            if isinstance(action, Pass):
                yield {"pass": action.seat, "cards": str(action.cards)}
            elif isinstance(action, Play):
                yield {"play": action.seat, "card": str(action.card)}
            else:
                yield {"moon": action.seat, "others_add": action.others_add}


def _action_count(state: DealState) -> int:
    passes = sum(1 for p in state.passes if p is not None) if state.pass_offset else 0
    plays = len(state.tricks) * state.players + len(state.trick)
    return passes + plays + (1 if state.moon_choice is not None else 0)


def dumps(game: Game, extra: Mapping[str, Any] | None = None) -> str:
    """The record as JSON text, one event per line.

    ``extra``: more top-level keys, for what a program keeps beside the game (loading
    ignores keys it does not know)."""
    if not isinstance(game, Game):
        raise TypeError(f"dumps: a Game to write, not {game!r}")
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed if isinstance(game.seed, int | str) else str(game.seed),
        "names": list(game.names),
        "first_deal": game.first_deal,
        "initial_scores": list(game.initial_scores),
    }
    for key, value in (extra or {}).items():
        if key in header or key in ("events", "result"):
            raise ValueError(f"extra: {key!r} is a key of the record itself")
        header[key] = value
    lines = ["{"]
    for key, value in header.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "events": [')
    texts = [json.dumps(event, ensure_ascii=False) for event in events(game)]
    lines.extend(f"    {text}," for text in texts[:-1])
    if texts:
        lines.append(f"    {texts[-1]}")
    lines.append("  ],")
    result = {
        "over": game.is_over,
        "scores": list(game.scores),
        "deal_points": [list(r.points) for r in game.results],
        "winners": game.winners,
    }
    lines.append(f'  "result": {json.dumps(result)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: a wrong field of a million names was
    repeated whole in its error (5 MB on one line).

    >>> _shown(list(range(100)), limit=20)
    '[0, 1, 2, 3, 4, 5,…]'
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    closing = text[-1] if text[-1] in ")]}'\"" else ""
    return text[: limit - 2] + "…" + closing


def _event_lines(text: str) -> list[int]:
    """The line on which each event of the ``events`` array starts (the lines are
    counted on as the events are found: counted from the top for each event, a record
    of 200,000 events took minutes before its first event was checked)."""
    start = text.find('"events"')
    if start < 0:
        return []
    bracket = text.find("[", start)
    decoder = json.JSONDecoder()
    lines: list[int] = []
    position = bracket + 1
    counted, line = 0, 1
    while position < len(text):
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            break
        try:
            _, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            break
        line += text.count("\n", counted, position)
        counted = position
        lines.append(line)
        position = end
    return lines


def record_text(text: object) -> str:
    """A record's text: ``str``, or ``bytes`` in UTF-8.

    :raises RecordError: for anything else, or bytes that are not UTF-8.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not a record: byte {error.start} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise RecordError(f"not a record: a record is text, not {type(text).__name__}")
    return text


#: Said of a file of ``hearts arena``'s results given as a record.
_ARENA_FILE: Final = (
    "line 1: the results of hearts arena, not a game record; "
    "hearts arena --records DIR keeps each board's game as a record"
)


def _arena_results(text: str) -> bool:
    """Whether ``text`` is a results file of ``hearts arena``: its log (``OUT.jsonl``,
    first line ``{"type": "match", ...}``) or its summary (``OUT.json``)."""
    first = text.lstrip().split("\n", 1)[0]
    for candidate in (first, text):
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(data, dict) or not isinstance(data.get("match"), dict):
            continue
        if data.get("type") == "match" or str(data.get("command", "")).startswith("hearts arena"):
            return True
    return False


_TAG_START: Final = re.compile(r'\[[A-Za-z][A-Za-z0-9_]*\s+"')


def is_text_record(text: str) -> bool:
    """Whether ``text`` is a PBN-style text record rather than a JSON one: a comment or
    a tag first (a JSON array, ``[]``, was taken for one and refused in words about tags).

    >>> is_text_record('[Event "x"]'), is_text_record("% a comment"), is_text_record("[1, 2]")
    (True, True, False)
    """
    start = text.lstrip("\ufeff \t\r\n")
    return start.startswith("%") or _TAG_START.match(start) is not None


def loads(text: str | bytes) -> Game:
    """Rebuild a game from a record, replaying and checking every event."""
    # A byte-order mark, as some editors write one, is not part of the record.
    text = record_text(text).removeprefix("\ufeff")
    if not text.strip():
        raise RecordError("line 1: the file is empty, not a record")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if _arena_results(text):
            raise RecordError(_ARENA_FILE) from None
        if is_text_record(text):
            raise RecordError(
                "line 1: this is a PBN-style text record, not a JSON one: "
                "openhearts.pbn.loads reads it"
            ) from None
        # A file cut short (a full disk, a copy stopped) says so, not only what JSON
        # expected where it ends.
        cut = error.msg.startswith("Unterminated") or error.pos >= len(text.rstrip())
        why = "; the record is cut short there" if cut else ""
        raise RecordError(f"line {error.lineno}: not valid JSON: {error.msg}{why}") from None
    except ValueError:
        # Python reads no number of more than 4,300 digits (as int() of text).
        raise RecordError("not a record: it holds a number too long to read") from None
    except RecursionError:
        raise RecordError("line 1: not a record: nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("line 1: a record is a JSON object")

    def at(key: str, reason: str) -> RecordError:
        return RecordError(f"line {_key_line(text, key)}: {reason}")

    if data.get("format") != FORMAT:
        if _arena_results(text):
            raise RecordError(_ARENA_FILE)
        if "format" not in data:
            # "(format None)" named Python's None, in no file.
            raise at("format", f'not an OpenHearts record (it has no "format": "{FORMAT}")')
        raise at("format", f"not an OpenHearts record (format {_shown(data.get('format'))})")
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise at("version", f"record version {_shown(version)} is not supported")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise at("seed", f"seed: a number or a text, not {_shown(seed)}")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise at("names", f"names: a list of texts, not {_shown(names)}")
    for name in names:
        # The game would refuse it too, but here the error can point at the names.
        problem = name_problem(name)
        if problem is not None:
            raise at("names", f"names: {problem}")
    if "result" in data and not isinstance(data["result"], dict):
        raise at("result", "result: expected an object")
    if "rules" not in data:
        # Required (the schema says so): the standard rules in its place played another
        # game from the same events, a game to 100 where one to 40 was played.
        raise RecordError("line 1: rules: missing; a record says the rules it was played by")
    if isinstance(data["rules"], dict):
        # Each option too: the standard one in place of a missing option played another
        # game (a 000 record without its moon scoring replayed under the standard one).
        missing = [name for name in Rules().to_dict() if name not in data["rules"]]
        if missing:
            raise at(
                "rules",
                f"rules: {', '.join(missing)} missing; a record gives every rules option",
            )
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as error:
        # The rules' own errors name the field ("end_score: ..."), or the rules themselves.
        said = str(error)
        raise at("rules", said if said.startswith("rules:") else f"rules: {said}") from None
    if names and len(names) != rules.players:
        raise at("names", f"names: expected {rules.players} names, got {len(names)}")
    events = data.get("events")
    if not isinstance(events, list) or not events:
        raise at("events", "events: a record needs at least the first deal")
    lines = _event_lines(text)

    def fail(index: int, reason: str) -> RecordError:
        line = lines[index] if index < len(lines) else index + 1
        return RecordError(f"line {line}: {reason}")

    first = events[0]
    if not isinstance(first, dict) or "deal" not in first:
        raise fail(0, "the first event must be a deal")
    first_deal = data.get("first_deal", 0)
    if isinstance(first_deal, bool) or not isinstance(first_deal, int) or first_deal < 0:
        raise at("first_deal", f"first_deal: a deal number is an integer, not {_shown(first_deal)}")
    scores = data.get("initial_scores")
    if scores is not None and not _integers(scores):
        raise at("initial_scores", f"initial_scores: totals are integers, not {_shown(scores)}")
    try:
        _check_event(first)
        if first["deal"] != first_deal:
            raise ValueError(f"the first deal is deal {first_deal}, not {first['deal']!r}")
        game = Game(
            rules,
            seed=seed,
            names=data.get("names"),
            hands=[first["hands"]],
            first_deal=first_deal,
            scores=scores,
            seated=True,
        )
    except (IllegalActionError, ValueError, TypeError, KeyError) as error:
        raise fail(0, str(error)) from None
    given = {first_deal}
    for index, event in enumerate(events[1:], start=1):
        if not isinstance(event, dict):
            raise fail(index, "an event is a JSON object")
        try:
            _check_event(event)
            if "deal" in event:
                _start_deal(game, event, given)
                continue
            game.apply(_action_of(event))
        except (IllegalActionError, CardParseError, ValueError, TypeError, KeyError) as error:
            message = str(error) if not isinstance(error, KeyError) else f"missing {error}"
            raise fail(index, message) from None
    _check_result(data.get("result"), game, lambda reason: at("result", reason))
    return game


#: Each kind of event, named by its first field, and the fields it has.
EVENT_FIELDS: Final[dict[str, tuple[str, str]]] = {
    "deal": ("deal", "hands"),
    "pass": ("pass", "cards"),
    "play": ("play", "card"),
    "moon": ("moon", "others_add"),
}


def _check_event(event: dict[str, Any]) -> None:
    """An event is exactly one kind, with exactly its fields; numbers are integers."""
    kinds = [kind for kind in EVENT_FIELDS if kind in event]
    if len(kinds) != 1:
        raise ValueError(
            f"an event is one of {', '.join(EVENT_FIELDS)}, not {_shown(sorted(event))}"
        )
    expected = EVENT_FIELDS[kinds[0]]
    unknown = sorted(set(event) - set(expected))
    if unknown:
        raise ValueError(f"a {kinds[0]} event has no field {_shown(', '.join(map(repr, unknown)))}")
    missing = [name for name in expected if name not in event]
    if missing:
        raise ValueError(f"a {kinds[0]} event needs {', '.join(map(repr, missing))}")
    if kinds[0] == "deal":
        number = event["deal"]
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"a deal number is an integer, not {_shown(number)}")
        hands = event["hands"]
        if not isinstance(hands, list) or not all(isinstance(hand, str) for hand in hands):
            raise ValueError(
                f'hands: one text of cards per seat ("2C 7H ..."), not {_shown(hands)}'
            )
    elif kinds[0] == "pass" and not isinstance(event["cards"], str):
        raise ValueError(f'cards: a text of cards ("QS AH KH"), not {_shown(event["cards"])}')
    elif kinds[0] == "play" and not isinstance(event["card"], str):
        raise ValueError(f'card: a card\'s name ("QS"), not {_shown(event["card"])}')


def _integers(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    )


#: The fields of a record's result, each checked against the replay.
RESULT_FIELDS: Final = ("over", "scores", "deal_points", "winners")


def _check_result(result: object, game: Game, fail: Callable[[str], RecordError]) -> None:
    """The stored result must be what the replay gives (a tampered total is refused)."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise fail("result: expected an object")
    missing = [key for key in RESULT_FIELDS if key not in result]
    unknown = sorted(set(result) - set(RESULT_FIELDS))
    if missing or unknown:
        raise fail(
            f"result: has exactly the fields {', '.join(RESULT_FIELDS)} "
            f"(missing {missing}, unknown {unknown})"
        )
    replayed = {
        "scores": list(game.scores),
        "deal_points": [list(r.points) for r in game.results],
        "winners": game.winners,
        "over": game.is_over,
    }
    labels = {
        "scores": "the totals are",
        "deal_points": "the points of the deals are",
        "winners": "the winning seats are",
        "over": "'game over' is",
    }
    for key, value in replayed.items():
        # Compared as JSON text: 1.0 or true are not the integer 1 a record holds.
        if json.dumps(result[key]) != json.dumps(value):
            raise fail(
                f"result: the record says {labels[key]} {json.dumps(result[key])}, "
                f"but replaying it gives {json.dumps(value)}"
            )


def _key_line(text: str, key: str) -> int:
    position = text.find(f'"{key}"')
    return _line_of(text, position) if position >= 0 else 1


def _start_deal(game: Game, event: dict[str, Any], given: set[int]) -> None:
    """Deal ``event``'s hands; ``given`` holds the deals whose hands came already."""
    number = event["deal"]
    if number in given:
        raise ValueError(f"deal {number} is given twice")
    if game.actions and game.deal.deal_number != number:
        raise ValueError(f"deal {number} starts before deal {game.deal.deal_number} has ended")
    if game.deal.deal_number != number:
        raise ValueError(f"expected deal {game.deal.deal_number}, not {number}")
    if game.deal.pass_offset and any(p is not None for p in game.deal.passes):
        raise ValueError(f"deal {number} is already under way")
    if game.deal.played:
        raise ValueError(f"deal {number} is already under way")
    game.replace_hands(event["hands"])
    given.add(number)


def _action_of(event: dict[str, Any]) -> Action:
    if "pass" in event:
        return Pass(_seat(event["pass"]), CardSet.parse(str(event["cards"])))
    if "play" in event:
        return Play(_seat(event["play"]), Card.parse(str(event["card"])))
    if "moon" in event:
        others_add = event["others_add"]
        if not isinstance(others_add, bool):
            raise ValueError("others_add must be true or false")
        return MoonChoice(_seat(event["moon"]), others_add)
    raise ValueError(f"unknown event {json.dumps(event)[:60]}")


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a seat is a number, not {value!r}")
    return value


def save(game: Game, path: str) -> None:
    """Write the record atomically (a crash never leaves half a file)."""
    import os
    import tempfile

    from .paths import check_writable_target

    check_writable_target(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".record-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(dumps(game))
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def load(path: str) -> Game:
    from .paths import read_text

    try:
        text = read_text(path)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text (records are UTF-8)") from None
    return loads(text)
