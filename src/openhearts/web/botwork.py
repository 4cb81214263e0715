"""Bots as the web server runs them: which levels exist here, closing one, and the
threads their moves and hints run in (:class:`BotWork`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..bots import LEVELS, close_bot, make_bot

__all__ = ["BotWork", "available_levels", "close_bot"]

T = TypeVar("T")

log = logging.getLogger("openhearts.web")


def available_levels() -> list[str]:
    """Bot levels that can be built here (a level whose module is missing is left out)."""
    levels = []
    for level in LEVELS:
        try:
            bot = make_bot(level, seed=0)
        except Exception:
            continue
        close_bot(bot)
        levels.append(level)
    return levels


class _Shares:
    """At most ``size`` jobs at once per key; a key's semaphore lives while it is used."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._keys: dict[str, tuple[asyncio.Semaphore, int]] = {}

    @contextlib.asynccontextmanager
    async def share(self, key: str) -> AsyncIterator[None]:
        semaphore, users = self._keys.get(key, (asyncio.Semaphore(self.size), 0))
        self._keys[key] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._keys[key]
            if users <= 1:
                del self._keys[key]
            else:
                self._keys[key] = (semaphore, users - 1)


class BotWork:
    """The threads that run bots and hints, shared fairly at two levels: at most
    ``per_owner`` jobs of one owner (the address that made a table, or asked for a hint)
    and at most ``per_table`` jobs of one table (its bots and the hints asked at it) run
    at once.  So one address's many tables queue behind each other and never take every
    thread, and one busy table never holds back the other tables of its address.
    """

    def __init__(self, threads: int, per_owner: int, per_table: int) -> None:
        self.pool = ThreadPoolExecutor(
            max_workers=max(1, threads), thread_name_prefix="openhearts-bot"
        )
        self._owners = _Shares(per_owner)
        self._tables = _Shares(per_table)

    async def run(self, owner: str, table: str, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a thread, once ``table`` and then ``owner`` have a share
        free (the table's own queue first, so its waiting jobs take none of the owner's)."""
        async with self._tables.share(table), self._owners.share(owner):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, function, *args)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
