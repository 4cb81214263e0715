"""The web protocol's fixed numbers and its refusal: what a client may send and how
the server says no (:class:`WebError`)."""

from __future__ import annotations

import logging
import re
import secrets
from datetime import UTC, datetime
from typing import Final

from starlette.responses import JSONResponse

__all__ = [
    "PROTOCOL",
    "MESSAGE_BYTES",
    "CHAT_CHARS",
    "OUTBOX_LIMIT",
    "TABLE_ID_RE",
    "TOKEN_RE",
    "MAX_END_SCORE",
    "MAX_CARDS_PASSED",
    "MIN_TURN_CLOCK",
    "NOT_SAVED",
    "WebError",
    "new_token",
    "now_text",
]

log = logging.getLogger("openhearts.web")


PROTOCOL: Final = 1
#: Largest client message accepted, in bytes.
MESSAGE_BYTES: Final = 4096
CHAT_CHARS: Final = 200
#: A client refused this many times (flooding, malformed messages) is disconnected.
MAX_REFUSALS: Final = 100
#: Messages queued for one client before it is considered gone.
OUTBOX_LIMIT: Final = 2000
#: Friendly names for bots, by seat.
BOT_NAMES: Final = ("Ada", "Blaise", "Carmen", "Dmitri", "Emmy", "Farid")
TABLE_ID_RE: Final = re.compile(r"^[A-Za-z0-9_-]{6,32}$")
TOKEN_RE: Final = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: Rules options a table may set (``players`` is its own field).
TABLE_OPTIONS: Final = (
    "end_score",
    "moon",
    "first_trick",
    "hearts_break",
    "sun",
    "jack_of_diamonds",
    "seating",
    "direction",
    "cards_passed",
    "pass_cycle",
    "removed",
    "first_lead",
    "first_dealer",
)
MAX_END_SCORE: Final = 1000
#: The most cards a table may pass: a whole hand of the four-player game (the rules
#: check it against the table's own hand size).
MAX_CARDS_PASSED: Final = 13
#: The shortest turn clock a table may ask for: a person needs time to see the turn.
MIN_TURN_CLOCK: Final = 10


#: What a person is told of a request the server could not store (its database fails
#: now): nothing of it was done.
NOT_SAVED: Final = (
    "The server cannot save anything right now, so that was not done: try again in a moment."
)


class WebError(Exception):
    """A refused request: ``code`` for programs, ``message`` in plain words."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        #: The refused message's ``id``, when the refusal is made before it is read.
        self.request_id: int | str | None = None


def error_response(error: WebError) -> JSONResponse:
    """An HTTP route's answer to a refused request."""
    return JSONResponse({"error": error.code, "message": error.message}, status_code=error.status)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def now_text() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
