"""How one server runs its tables (``hearts serve`` options)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Settings"]

log = logging.getLogger("openhearts.web")


@dataclass
class Settings:
    """How the server runs its tables."""

    #: Seconds a bot waits before acting, so that people can follow (0 in tests).
    bot_delay: float = 0.6
    #: Seconds before an "Auto play one" card is played for a person.
    auto_delay: float = 0.3
    #: Seconds after a player's last connection closes before a bot plays for them.
    takeover_delay: float = 5.0
    default_level: str = "easy"
    default_preset: str = "standard"
    default_players: int | None = None
    default_options: dict[str, Any] = field(default_factory=dict)
    #: Tables one address may create per minute (0: no limit).
    create_rate: int = 30
    #: Threads for bot moves and hints.
    bot_threads: int = 4
    #: Worlds per decision for the hard bot's hints (None: its default).
    hint_budget: int | None = None
    #: Messages per second one connection may send, and the burst allowed.
    message_rate: float = 20.0
    message_burst: float = 40.0
