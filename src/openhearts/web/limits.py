"""What one address may do: rates per kind of request, and how many sockets it holds.

>>> limits = AddressLimits({"join": 2})
>>> limits.check("join", "10.0.0.1"); limits.check("join", "10.0.0.1")
>>> limits.check("join", "10.0.0.1")
Traceback (most recent call last):
...
openhearts.web.protocol.WebError: too many join requests from your address; wait a minute
>>> limits.check("join", "10.0.0.2")  # another address has its own allowance
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from .connection import RateLimiter
from .protocol import WebError

__all__ = ["AddressLimits", "KINDS"]

#: What is limited per address, in events per minute (0: no limit).
KINDS: Final = ("create", "join", "connect", "hello", "malformed", "hint")
#: Addresses remembered before the oldest allowances are forgotten.
MAX_ADDRESSES: Final = 20000


class AddressLimits:
    """Per-address token buckets (``per_minute`` each, bursts of as many) and counts
    of open sockets."""

    def __init__(self, per_minute: dict[str, int], max_sockets: int = 0) -> None:
        self.per_minute = per_minute
        self.max_sockets = max_sockets
        self._buckets: dict[tuple[str, str], RateLimiter] = {}
        self.sockets: Counter[str] = Counter()

    def allow(self, kind: str, address: str) -> bool:
        rate = self.per_minute.get(kind, 0)
        if rate <= 0:
            return True
        key = (kind, address)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_ADDRESSES:
                # Forget the oldest half (dicts keep insertion order): bounded memory.
                for old in list(self._buckets)[: MAX_ADDRESSES // 2]:
                    del self._buckets[old]
            bucket = self._buckets[key] = RateLimiter(rate / 60, rate)
        return bucket.allow()

    def check(self, kind: str, address: str) -> None:
        """Raise :class:`WebError` (429) when ``address`` has done ``kind`` too often."""
        if not self.allow(kind, address):
            raise WebError(
                "rate_limited", f"too many {kind} requests from your address; wait a minute", 429
            )

    def open_socket(self, address: str) -> bool:
        """Count a new socket of ``address``; False (not counted) when it holds too many."""
        if self.max_sockets and self.sockets[address] >= self.max_sockets:
            return False
        self.sockets[address] += 1
        return True

    def close_socket(self, address: str) -> None:
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]
