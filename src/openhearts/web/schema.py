"""The one schema of the web protocol: every request body, every WebSocket message, and
every stored row the server loads back, as pydantic models.

Creating a table and loading it back go through the same models
(:func:`rules_of_stored` is what both call), so whatever the server accepts it can
load again.  ``docs/web-protocol.md`` publishes :func:`protocol_json_schema`, made from
these models.

>>> parse_message('{"type": "play", "id": 3, "seq": 12, "card": "qs"}')
PlayMessage(id=3, type='play', seq=12, card='QS')
>>> parse_message('{"type": "play", "card": "QS"}')
Traceback (most recent call last):
...
openhearts.web.protocol.WebError: seq: Field required
>>> options = parse_body(CreateTable, b'{"options": {"sun": "yes"}}')
Traceback (most recent call last):
...
openhearts.web.protocol.WebError: options.sun: Input should be a valid boolean
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ..cards import Card, CardParseError
from ..rules import FirstTrick, HeartsBreak, MoonScoring, Rules, RulesError, Seating
from ..session.checks import lone_one_problem
from .protocol import CHAT_CHARS, MAX_CARDS_PASSED, MAX_END_SCORE, MIN_TURN_CLOCK, WebError

__all__ = [
    "ClientMessage",
    "CreateTable",
    "JoinTable",
    "StoredTable",
    "TableOptions",
    "RulesData",
    "explain",
    "parse_body",
    "parse_message",
    "protocol_json_schema",
    "rules_of_stored",
]

#: Longest name accepted before cleaning (the cleaned name keeps 24 characters).
RAW_NAME_CHARS: Final = 200
#: JavaScript reads integers exactly up to 2**53: ids and counts stay within it.
SAFE_INT: Final = 2**53


def _card_text(text: str) -> str:
    # A "1" is refused as every face refuses it (a first lead of "1C" was the A♣ here
    # alone): more likely a ten that lost its 0 than the ace it reads as.
    problem = lone_one_problem(text)
    if problem is not None:
        raise ValueError(problem)
    try:
        return str(Card.parse(text))
    except CardParseError:
        raise ValueError('a card such as "QS"') from None


CardText = Annotated[str, Field(max_length=3), AfterValidator(_card_text)]


def _turn_clock(seconds: float) -> float:
    # A clock of a fraction of a second would hand every move of whoever joins to a bot.
    if 0 < seconds < MIN_TURN_CLOCK:
        raise ValueError(f"0 for no clock, or at least {MIN_TURN_CLOCK} seconds")
    return seconds


TokenText = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$")]
RequestId = (
    Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)] | Annotated[str, Field(max_length=32)] | None
)
Seq = Annotated[int, Field(ge=0, le=SAFE_INT)]
SeatNumber = Annotated[int, Field(ge=0, le=5)]
NameText = Annotated[str, Field(max_length=RAW_NAME_CHARS)]
LevelName = Annotated[str, Field(max_length=32)]
_PASS_DIRECTION = r"^(left|right)[0-9]{0,2}$|^across$|^hold$"


def _pass_direction(text: str) -> str:
    # Said in words: a form shows this message, and a pattern means nothing to a player.
    if not re.fullmatch(_PASS_DIRECTION, text):
        raise ValueError(
            f"{text[:12]!r} is not a pass direction: use left, right, across, hold, "
            "or leftN / rightN for N seats away"
        )
    return text


PassDirection = Annotated[
    str,
    Field(max_length=64, json_schema_extra={"pattern": _PASS_DIRECTION}),
    AfterValidator(_pass_direction),
]


class _Strict(BaseModel):
    """Unknown fields and loose types are refused: ``"yes"`` is not ``true``."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# Rules -------------------------------------------------------------------------------


class TableOptions(_Strict):
    """Rules options a new table may change from its preset."""

    end_score: Annotated[int, Field(ge=1, le=MAX_END_SCORE)] | None = None
    moon: MoonScoring | None = None
    first_trick: FirstTrick | None = None
    hearts_break: HeartsBreak | None = None
    sun: bool | None = None
    jack_of_diamonds: bool | None = None
    seating: Seating | None = None
    direction: Literal["clockwise", "counterclockwise"] | None = None
    cards_passed: Annotated[int, Field(ge=0, le=MAX_CARDS_PASSED)] | None = None
    pass_cycle: Annotated[list[PassDirection], Field(min_length=1, max_length=12)] | None = None
    removed: Annotated[list[CardText], Field(max_length=12)] | None = None
    first_lead: CardText | None = None
    first_dealer: SeatNumber | None = None

    def changes(self) -> dict[str, Any]:
        """The options given, as :meth:`Rules.preset` takes them."""
        values = self.model_dump(exclude_none=True)
        for name in ("pass_cycle", "removed"):
            if name in values:
                values[name] = tuple(values[name])
        return values


class RulesData(_Strict):
    """Every option of a game, as stored (``Rules.to_dict``) and loaded back."""

    players: Annotated[int, Field(ge=3, le=6)]
    removed: Annotated[list[CardText], Field(max_length=12)]
    pass_cycle: Annotated[list[PassDirection], Field(min_length=1, max_length=12)]
    cards_passed: Annotated[int, Field(ge=0, le=MAX_CARDS_PASSED)]
    first_lead: CardText | None
    first_trick: FirstTrick
    hearts_break: HeartsBreak
    moon: MoonScoring
    sun: bool
    jack_of_diamonds: bool
    end_score: Annotated[int, Field(ge=1, le=MAX_END_SCORE)]
    seating: Seating
    first_dealer: SeatNumber
    direction: Literal["clockwise", "counterclockwise"]

    @model_validator(mode="after")
    def _playable(self) -> RulesData:
        self.rules()
        return self

    def rules(self) -> Rules:
        try:
            return Rules.from_dict(self.model_dump(mode="json"))
        except RulesError as error:
            raise ValueError(str(error)) from None


_RULES_DATA: Final = TypeAdapter(RulesData)


def rules_of_stored(data: dict[str, Any]) -> Rules:
    """Rules from their stored form; raises :class:`ValueError` when they cannot be
    played.  Creating a table calls this on what it is about to store."""
    try:
        return _RULES_DATA.validate_json(json.dumps(data)).rules()
    except ValidationError as error:
        raise ValueError(explain(error)) from None


# HTTP bodies -------------------------------------------------------------------------


class CreateTable(_Strict):
    """``POST /api/tables`` and ``POST /api/play-now``."""

    preset: Annotated[str, Field(max_length=32)] | None = None
    players: Annotated[int, Field(ge=3, le=6)] | None = None
    options: TableOptions | None = None
    level: LevelName | None = None
    name: NameText | None = None
    player_token: TokenText | None = None
    #: Show the table in the public list of tables waiting for players.
    listed: bool = False
    #: Seconds a person has for a move (0: no clock); the server bounds it.
    turn_clock: Annotated[float, Field(ge=0, le=3600), AfterValidator(_turn_clock)] | None = None


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``."""

    name: NameText | None = None
    player_token: TokenText | None = None


def parse_body(model: type[CreateTable] | type[JoinTable], data: bytes) -> Any:
    """A request body (empty means ``{}``), or :class:`WebError` saying what is wrong."""
    try:
        return model.model_validate_json(data if data.strip() else b"{}")
    except ValidationError as error:
        raise WebError("bad_request", _unreadable(error, data)) from None


# WebSocket messages ------------------------------------------------------------------


class _Message(_Strict):
    id: RequestId = None


class HelloMessage(_Message):
    type: Literal["hello"]
    token: TokenText | None = None


class PingMessage(_Message):
    type: Literal["ping"]


class PassMessage(_Message):
    type: Literal["pass"]
    seq: Seq
    cards: Annotated[list[CardText], Field(max_length=13)]


class PicksMessage(_Message):
    """The cards picked to pass so far (not a pass): where a turn clock runs, the pass
    the computer makes when it runs out starts with them."""

    type: Literal["picks"]
    cards: Annotated[list[CardText], Field(max_length=13)]


class PlayMessage(_Message):
    type: Literal["play"]
    seq: Seq
    card: CardText


class MoonMessage(_Message):
    type: Literal["moon"]
    seq: Seq
    others_add: bool


class UndoMessage(_Message):
    type: Literal["undo"]
    seq: Seq


class HintMessage(_Message):
    type: Literal["hint"]
    seq: Seq | None = None


class AutoMessage(_Message):
    type: Literal["auto"]
    play_one: bool


class FillMessage(_Message):
    type: Literal["fill"]
    seat: SeatNumber | None = None
    level: LevelName | None = None


class ClearMessage(_Message):
    type: Literal["clear"]
    seat: SeatNumber


class RemoveMessage(_Message):
    """The host frees a person's seat before the game starts."""

    type: Literal["remove"]
    seat: SeatNumber


class ListMessage(_Message):
    """The host shows the table in the public list of tables, or hides it."""

    type: Literal["list"]
    listed: bool


class StartMessage(_Message):
    type: Literal["start"]
    #: During a game against bots only: give the game in progress up for a new one.
    abandon: bool = False


class LeaveMessage(_Message):
    type: Literal["leave"]
    #: Only to give the seat up before the start: refused (``started``) once the game
    #: has begun, instead of a bot taking the seat.
    seat_only: bool = False


class ChatMessage(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=CHAT_CHARS * 4)]


ClientMessage = Annotated[
    HelloMessage
    | PingMessage
    | PassMessage
    | PicksMessage
    | PlayMessage
    | MoonMessage
    | UndoMessage
    | HintMessage
    | AutoMessage
    | FillMessage
    | ClearMessage
    | RemoveMessage
    | ListMessage
    | StartMessage
    | LeaveMessage
    | ChatMessage,
    Field(discriminator="type"),
]
_MESSAGES: Final[TypeAdapter[Any]] = TypeAdapter(ClientMessage)


def _unreadable(error: ValidationError, text: str | bytes) -> str:
    """``explain(error)``, or for JSON that escapes half a character (a lone surrogate,
    which the JSON reader calls "unexpected end of hex escape") what is really wrong."""
    if error.errors()[0]["type"] == "json_invalid":
        try:
            # Python's reader takes a lone surrogate; writing it out as UTF-8 cannot.
            json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return (
                "Invalid JSON: a \\u escape names half of a character (a lone surrogate, "
                "\\ud800 to \\udfff); send the whole character"
            )
        except (ValueError, RecursionError):
            pass
    return explain(error)


def parse_message(text: str | bytes) -> Any:
    """One client message, or :class:`WebError` (``bad_message``) saying what is wrong;
    the error's ``request_id`` is the message's id when one could be read."""
    try:
        return _MESSAGES.validate_json(text)
    except ValidationError as error:
        refusal = WebError("bad_message", _unreadable(error, text))
        refusal.request_id = request_id_of(text)
        raise refusal from None


def request_id_of(text: str | bytes) -> int | str | None:
    """The ``id`` of a client message, for the answer to a message refused unread; None
    when the text has no usable one."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = value.get("id") if isinstance(value, dict) else None
    if isinstance(found, bool) or not isinstance(found, int | str):
        return None
    if isinstance(found, str) and len(found) > 32:
        return None
    return found if not isinstance(found, int) or abs(found) <= SAFE_INT else None


# Stored rows -------------------------------------------------------------------------


class StoredSeat(_Strict):
    seat: SeatNumber
    kind: Literal["empty", "human", "bot"]
    name: Annotated[str, Field(max_length=64)] | None
    token_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    player_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    # Any name: a level this server cannot build (--bot-level not given again) is
    # played by the random bot rather than setting the table aside.
    level: Annotated[str, Field(max_length=64)] | None
    host: bool
    auto_play_one: bool
    helped: bool = False


class StoredAction(_Strict):
    seq: Annotated[int, Field(ge=0)]
    kind: Literal["pass", "play", "moon"]
    seat: SeatNumber
    data: Annotated[str, Field(max_length=64)]


class StoredGame(_Strict):
    number: Annotated[int, Field(ge=1)]
    seed: Annotated[str, Field(max_length=64)]
    rules: RulesData
    names: Annotated[list[Annotated[str, Field(max_length=64)]], Field(min_length=3, max_length=6)]
    status: Literal["playing", "finished", "abandoned"]
    record: str | None = None
    actions: list[StoredAction] = []
    rated: bool = True


class StoredTable(_Strict):
    """A table as :meth:`Storage.load_table` reads it; a row that fails this is set aside."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{6,32}$")]
    status: Literal["waiting", "playing", "finished"]
    preset: Annotated[str, Field(max_length=32)]
    rules: RulesData
    level: Annotated[str, Field(max_length=64)]
    game_number: Annotated[int, Field(ge=0)]
    created_at: str
    seats: list[StoredSeat]
    game: StoredGame | None = None
    listed: bool = False
    turn_clock: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> StoredTable:
        players = self.rules.players
        if [s.seat for s in self.seats] != list(range(players)):
            raise ValueError(f"seats: expected seats 0 to {players - 1}")
        if self.game is not None and len(self.game.names) != self.game.rules.players:
            raise ValueError("game.names: one name per player")
        return self


def check_stored(data: str) -> None:
    """Raise :class:`ValueError` naming what is wrong with a stored table (as JSON);
    never the stored values themselves, which may hold a hidden hand."""
    try:
        StoredTable.model_validate_json(data)
    except ValidationError as error:
        raise ValueError(explain(error, values=False)) from None


# Errors and the published schema -------------------------------------------------------


def explain(error: ValidationError, *, values: bool = True) -> str:
    """The first problem of ``error`` in plain words: ``where: what``.

    A field that may take several forms (an ``id``: a number or a short string) fails
    once per form; the form of the value given says which failure to report.
    """
    errors = error.errors(include_url=False)
    first = errors[0]
    where = _where(first["loc"])
    forms = [e for e in errors if _where(e["loc"]) == where and _form(e["loc"])]
    given = type(first.get("input")).__name__
    # "constrained-str" is the form of a str (not "constrained-int": it has "str" in it).
    chosen = next((e for e in forms if _form(e["loc"]).split("-")[-1] == given), first)
    message = chosen["msg"] if values else chosen["type"]
    context = chosen.get("ctx") or {}
    if (
        values
        and chosen["type"] in ("too_long", "too_short")
        and isinstance(chosen.get("input"), list)
    ):
        # Pydantic's "List should have at most 12 items after validation, not 13".
        count = len(chosen["input"])
        if chosen["type"] == "too_long":
            message = f"at most {context.get('max_length')} allowed, {count} given"
        else:
            message = f"at least {context.get('min_length')} needed, {count} given"
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return f"{where}: {message}" if where else message


def _where(loc: tuple[int | str, ...]) -> str:
    # A message's type leads the location only: an option named like one ("moon") stays.
    return ".".join(
        str(part)
        for index, part in enumerate(loc)
        if not (index == 0 and _is_union_tag(part)) and not _is_form(part)
    )


def _form(loc: Sequence[int | str]) -> str:
    """The form a union tried, when the location ends in one (``int``,
    ``constrained-str``), else ""."""
    last = loc[-1] if loc else None
    return last if isinstance(last, str) and _is_form(last) else ""


def _is_form(part: object) -> bool:
    return isinstance(part, str) and part in _UNION_FORMS


_UNION_FORMS: Final = frozenset(
    {"int", "constrained-int", "str", "constrained-str", "bool", "float", "none"}
)


def _is_union_tag(part: object) -> bool:
    # Discriminated unions add the message type to the location; the reader knows it.
    return isinstance(part, str) and part in _MESSAGE_TYPES


_MESSAGE_TYPES: Final = frozenset(
    {
        "hello",
        "ping",
        "pass",
        "play",
        "moon",
        "undo",
        "hint",
        "auto",
        "fill",
        "clear",
        "remove",
        "list",
        "start",
        "leave",
        "chat",
    }
)


def protocol_json_schema() -> dict[str, Any]:
    """The JSON Schema of everything a client sends: the two request bodies and the
    WebSocket messages (``docs/web-protocol.md`` publishes it)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "OpenHearts web protocol: what a client sends",
        "create_table": CreateTable.model_json_schema(),
        "join_table": JoinTable.model_json_schema(),
        "message": _MESSAGES.json_schema(),
    }


def published_schema_text() -> str:
    """The schema as ``docs/web-protocol.md`` shows it (``python -m openhearts.web.schema``)."""
    return json.dumps(protocol_json_schema(), indent=2, ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    print(published_schema_text())
