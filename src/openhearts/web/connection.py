"""One client of a table: its seat, its outbox of JSON texts and its rate limit.

The server's WebSocket endpoint drains the outbox; nothing here knows of HTTP."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from .protocol import OUTBOX_LIMIT

if TYPE_CHECKING:
    from .seat import Seat
    from .table import Table

__all__ = ["Connection", "RateLimiter"]

log = logging.getLogger("openhearts.web")


class RateLimiter:
    """A token bucket: ``rate`` per second with bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One client (a WebSocket): its seat once it has said hello, and its outbox."""

    def __init__(self, rate: float = 20, burst: float = 40) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: Seat | None = None
        self.greeted = False
        self.closed = False
        self.limiter = RateLimiter(rate=rate, burst=burst)
        self.hinting = False
        self.refused = 0
        #: The client's address, for the per-address limits.
        self.address = "unknown"
        #: The WebSocket close code once the outbox is sent (1008: a policy was broken).
        self.close_code = 1000
        #: Set when the client stopped reading: it is let go at once, not once its
        #: outbox is sent (it would never be).
        self.dropped = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # A client that does not read is dropped rather than buffered forever.
            self.close(code=1008)
            self.dropped.set()
            return
        self.outbox.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def error(self, code: str, message: str, request_id: object = None) -> None:
        self.send({"type": "error", "id": request_id, "code": code, "message": message})

    def close(self, code: int = 1000) -> None:
        """Close once what is already in the outbox has been sent."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.outbox.put_nowait(None)
