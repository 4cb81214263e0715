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
    #: Longest wait before an "Auto play one" card is played for a person (the wait is
    #: random, so that a forced card's timing does not give it away).
    auto_delay: float = 1.5
    #: Seconds after a player's last connection closes before a bot plays for them.
    takeover_delay: float = 5.0
    default_level: str = "easy"
    default_preset: str = "standard"
    default_players: int | None = None
    default_options: dict[str, Any] = field(default_factory=dict)
    #: Tables one address may create per minute (0: no limit).
    create_rate: int = 30
    #: Worlds per decision for the expert bot's play hints (None: its default).
    hint_budget: int | None = None
    #: Messages per second one connection may send, and the burst allowed.
    message_rate: float = 20.0
    message_burst: float = 40.0
    #: Per address and minute (bursts of as many; 0: no limit): joins, WebSocket
    #: connections, hellos, malformed messages and hints (``create_rate`` is creates).
    join_rate: int = 30
    connect_rate: int = 60
    hello_rate: int = 60
    malformed_rate: int = 60
    hint_rate: int = 30
    #: WebSockets one address may hold open at once (0: no limit).
    sockets_per_address: int = 32
    #: Spectators per table, and per table and address.
    max_spectators: int = 100
    spectators_per_address: int = 4
    #: Tables in memory at once (waiting or in play), and per creating address.
    max_tables: int = 2000
    tables_per_address: int = 20
    #: Seconds a person has for a move before a bot plays it for them (0: no clock);
    #: a table may ask for its own, up to ``max_turn_clock``.
    turn_clock: float = 90.0
    max_turn_clock: float = 600.0
    #: Timeouts in a row after which the bot keeps the seat until its person acts.
    timeouts_to_bot: int = 2
    #: Seconds after the last person's connection closed before the bots stop playing
    #: (they go on when someone comes back).
    abandon_after: float = 120.0
    #: Days finished tables and tables left waiting are kept, and days a game in
    #: progress nobody moves in is kept (0: forever); pruned hourly.
    retention_days: float = 30.0
    abandoned_days: float = 30.0
    #: Bot and hint work running at once (``--bot-threads``: the threads of the pool):
    #: all tables together, per address (the one that made the table, or asks for the
    #: hint) and per table (its bots and hints).
    max_bot_jobs: int = 4
    bot_jobs_per_address: int = 1
    bot_jobs_per_table: int = 1
    #: Names the server answers to (Host header; empty: any), other sites' hosts whose
    #: pages may use it, and proxies whose X-Forwarded-For is believed.
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()

    def address_rates(self) -> dict[str, int]:
        return {
            "create": self.create_rate,
            "join": self.join_rate,
            "connect": self.connect_rate,
            "hello": self.hello_rate,
            "malformed": self.malformed_rate,
            "hint": self.hint_rate,
        }
