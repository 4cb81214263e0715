"""Bots as the web server builds them: which levels exist here, and closing one."""

from __future__ import annotations

import contextlib
import logging

from ..bots import LEVELS, make_bot

__all__ = ["available_levels", "close_bot"]

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
