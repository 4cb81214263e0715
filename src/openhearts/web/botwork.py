"""Bots as the web server runs them: which levels exist here, closing one, and the
threads their moves and hints run in (:class:`BotWork`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..bots import LEVELS, make_bot

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


def close_bot(bot: object) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


class BotWork:
    """The threads that run bots and hints, shared fairly: at most ``per_owner`` jobs of
    one owner (the address that made a table, or asked for a hint) run at once, so one
    address's many tables or hints queue behind each other and never take every thread.
    """

    def __init__(self, threads: int, per_owner: int) -> None:
        self.pool = ThreadPoolExecutor(
            max_workers=max(1, threads), thread_name_prefix="openhearts-bot"
        )
        self.per_owner = max(1, per_owner)
        self._owners: dict[str, tuple[asyncio.Semaphore, int]] = {}

    async def run(self, owner: str, function: Callable[..., T], *args: Any) -> T:
        semaphore, users = self._owners.get(owner, (asyncio.Semaphore(self.per_owner), 0))
        self._owners[owner] = (semaphore, users + 1)
        try:
            async with semaphore:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self.pool, function, *args)
        finally:
            semaphore, users = self._owners[owner]
            if users <= 1:
                del self._owners[owner]
            else:
                self._owners[owner] = (semaphore, users - 1)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
