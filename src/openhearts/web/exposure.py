"""``hearts serve`` options for a server exposed to others: turn clock, abandonment,
per-address limits, caps, retention, and whom to trust (proxies, hosts, origins)."""

from __future__ import annotations

import argparse
import ipaddress
import math
from typing import Any, Final

__all__ = ["add_exposure_arguments", "exposure_settings", "LOOPBACK_NAMES"]

#: The names a server listening on loopback answers to.
LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "::1")

#: option -> (Settings field, type, default, help).
_NUMBERS: Final[dict[str, tuple[str, type, float, str]]] = {
    "--turn-clock": (
        "turn_clock",
        float,
        90.0,
        "seconds a person has for a move before a bot plays it for them; 0: no clock",
    ),
    "--max-turn-clock": ("max_turn_clock", float, 600.0, "the longest clock a table may ask for"),
    "--timeouts-to-bot": (
        "timeouts_to_bot",
        int,
        2,
        "timeouts in a row after which a bot keeps the seat until its person acts",
    ),
    "--abandon-after": (
        "abandon_after",
        float,
        120.0,
        "seconds after the last person left before a table's bots stop playing",
    ),
    "--join-rate": ("join_rate", int, 30, "joins one address may make per minute; 0: no limit"),
    "--connect-rate": (
        "connect_rate",
        int,
        60,
        "WebSocket connections one address may open per minute; 0: no limit",
    ),
    "--hello-rate": (
        "hello_rate",
        int,
        60,
        "hello messages (seat claims) one address may send per minute; 0: no limit",
    ),
    "--malformed-rate": (
        "malformed_rate",
        int,
        60,
        "malformed messages one address may send per minute before it is cut off; 0: no limit",
    ),
    "--hint-rate": ("hint_rate", int, 30, "hints one address may ask per minute; 0: no limit"),
    "--sockets-per-address": (
        "sockets_per_address",
        int,
        32,
        "WebSockets one address may hold open at once; 0: no limit",
    ),
    "--max-tables": ("max_tables", int, 2000, "tables in memory at once"),
    "--tables-per-address": (
        "tables_per_address",
        int,
        20,
        "open tables one address may have made; 0: no limit",
    ),
    "--bot-threads": ("max_bot_jobs", int, 4, "threads for bot moves and hints"),
    "--bot-jobs-per-address": (
        "bot_jobs_per_address",
        int,
        1,
        "bot moves and hints of one address's tables (or hints it asks) running at once",
    ),
    "--bot-jobs-per-table": (
        "bot_jobs_per_table",
        int,
        1,
        "bot moves and hints of one table running at once",
    ),
    "--retention-days": (
        "retention_days",
        float,
        30.0,
        "days finished tables and tables left waiting are kept (hearts prune forgets older "
        "ones); 0: forever",
    ),
    "--abandoned-days": (
        "abandoned_days",
        float,
        30.0,
        "days a game in progress nobody moves in is kept (hearts prune forgets older ones); "
        "0: forever",
    ),
}

#: The limits for which 0 is no "no limit" but a server that cannot work, and why.
_AT_LEAST_ONE: Final = {
    "--max-tables": "every new table is refused",
    "--bot-threads": "no bot could move",
    "--bot-jobs-per-address": "no bot could move",
    "--bot-jobs-per-table": "no bot could move",
}

_LISTS: Final[dict[str, tuple[str, str]]] = {
    "--trusted-proxy": (
        "trusted_proxies",
        "an address or network (10.0.0.0/8) of a reverse proxy whose X-Forwarded-For is "
        "believed; repeatable (default: none)",
    ),
    "--allowed-host": (
        "allowed_hosts",
        "a name the server answers to (Host header), e.g. hearts.example.org; repeatable "
        "(default: the --host address, and localhost names on loopback)",
    ),
    "--allowed-origin": (
        "allowed_origins",
        "another site whose pages may use this server from a browser; repeatable",
    ),
}


def add_exposure_arguments(parser: argparse.ArgumentParser) -> None:
    for option, (_, kind, default, text) in _NUMBERS.items():
        parser.add_argument(
            option,
            type=kind,
            default=default,
            metavar="N",
            help=f"{text} (default: {default:g})",
        )
    for option, (_, text) in _LISTS.items():
        parser.add_argument(option, action="append", default=[], metavar="NAME", help=text)


def exposure_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The Settings fields these options give; raises ValueError on a bad value."""
    values: dict[str, Any] = {}
    for option, (name, _, _, _) in _NUMBERS.items():
        value = getattr(args, option[2:].replace("-", "_"))
        if not 0 <= value < math.inf:  # nan too
            raise ValueError(f"{option}: a number of at least 0, not {value}")
        if value == 0 and option in _AT_LEAST_ONE:
            raise ValueError(f"{option}: at least 1 (with 0 {_AT_LEAST_ONE[option]})")
        values[name] = value
    if values["turn_clock"] > values["max_turn_clock"]:
        raise ValueError(
            f"--turn-clock: at most the --max-turn-clock ({values['max_turn_clock']:g} seconds)"
        )
    for option, (name, _) in _LISTS.items():
        values[name] = tuple(getattr(args, option[2:].replace("-", "_")))
        if any(not given.strip() for given in values[name]):
            # An empty host name silenced the "any Host name is answered" warning while
            # every Host was still answered.
            what = "an address" if option == "--trusted-proxy" else "a name"
            raise ValueError(f"{option}: {what}, not an empty one")
    for proxy in values["trusted_proxies"]:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ValueError(f"--trusted-proxy: {proxy!r} is not an address or network") from None
    values["allowed_hosts"] = default_hosts(args.host, values["allowed_hosts"])
    return values


def default_hosts(listen: str, given: tuple[str, ...]) -> tuple[str, ...]:
    """The names a server listening on ``listen`` answers to.

    >>> default_hosts("127.0.0.1", ())
    ('127.0.0.1', 'localhost', '::1')
    >>> default_hosts("0.0.0.0", ("hearts.example",))
    ('hearts.example',)
    >>> default_hosts("0.0.0.0", ())  # every address: any name (the server warns)
    ()
    """
    if listen in LOOPBACK_NAMES:
        return (*LOOPBACK_NAMES, *given)
    if listen in ("0.0.0.0", "::", ""):
        return given
    return (listen, *given)
