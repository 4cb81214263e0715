"""The server's front door (ASGI middleware): which address a request comes from,
whether its Host and Origin are this server's, the security headers, and that no
request ever gets an unhandled 500.

``X-Forwarded-For`` is believed only from the proxies the operator names: anyone else
could write any address there and so escape the per-address limits.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Guard", "SECURITY_HEADERS", "client_address", "counted_address", "host_of"]

log = logging.getLogger("openhearts.web")

#: Sent with every HTTP answer.  The page loads only its own files and talks only to
#: this server, so an injected name could not load or send anything even if it were
#: ever shown as HTML.
SECURITY_HEADERS: Final[list[tuple[bytes, bytes]]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"frame-ancestors 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

#: Where the server's scope entry for the client's address (as the limits count it,
#: :func:`counted_address`) is kept.
ADDRESS_KEY: Final = "openhearts.address"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _networks(names: Iterable[str]) -> list[Network]:
    return [ipaddress.ip_network(name.strip(), strict=False) for name in names if name.strip()]


def _within(address: str, networks: list[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded: str | None, proxies: list[Network]) -> str:
    """The client's address: the peer's, unless the peer is a named proxy, then the
    nearest address in ``X-Forwarded-For`` that is not one of the proxies.

    >>> proxies = _networks(["10.0.0.0/8"])
    >>> client_address("203.0.113.9", "1.2.3.4", proxies)  # not a proxy: ignored
    '203.0.113.9'
    >>> client_address("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.3", proxies)
    '198.51.100.7'
    """
    if not forwarded or not _within(peer, proxies):
        return peer
    for hop in reversed(forwarded.split(",")):
        hop = hop.strip()
        if hop and not _within(hop, proxies):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer
    return peer


def counted_address(address: str) -> str:
    """The address the per-address limits count: an IPv6 address by its /64 network
    (a home or a rented server is given a whole /64, and could take a new address for
    every request), an IPv4 address, mapped into IPv6 or not, as it is.

    >>> counted_address("2001:db8:1:2:aaaa::1"), counted_address("::ffff:198.51.100.7")
    ('2001:db8:1:2::/64', '198.51.100.7')
    >>> counted_address("203.0.113.9"), counted_address("unknown")
    ('203.0.113.9', 'unknown')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def host_of(value: str) -> str:
    """A Host header or an origin's host, lower case, without the port.

    >>> host_of("Example.org:8000"), host_of("[::1]:80"), host_of("http://a.b:1")
    ('example.org', '::1', 'a.b')
    """
    if "://" in value:
        value = urlsplit(value).netloc
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """Checks every HTTP request and WebSocket handshake before the application sees it.

    :param hosts: the names this server answers to (Host header); empty: any.
    :param origins: hosts (besides the request's own Host) whose pages may use this
        server from a browser.
    :param proxies: addresses or networks whose ``X-Forwarded-For`` is believed.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str] = (),
        origins: Iterable[str] = (),
        proxies: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.hosts = {host_of(h) for h in hosts if h}
        self.origins = {host_of(o) for o in origins if o}
        self.proxies = _networks(proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        peer = scope["client"][0] if scope.get("client") else "unknown"
        scope[ADDRESS_KEY] = counted_address(
            client_address(peer, headers.get("x-forwarded-for"), self.proxies)
        )
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await self._refuse(scope, receive, send, *refusal)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await self._refuse(
                    scope, receive, send, 503, "unavailable", "the server could not answer that"
                )

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        host = host_of(headers.get("host", ""))
        if self.hosts and host not in self.hosts:
            return 421, "bad_host", "this server does not answer to that name"
        origin = headers.get("origin")
        unsafe = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD")
        if unsafe and origin is not None:
            # A browser names the page that sends the request: another site's page may
            # not take seats or play in its visitors' names.
            wanted = host_of(origin)
            if wanted != host and wanted not in self.origins:
                return 403, "bad_origin", "requests from other sites' pages are refused"
        return None

    @staticmethod
    async def _refuse(
        scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
    ) -> None:
        if scope["type"] == "websocket":
            # Refused before the handshake: the browser sees the connection fail.
            await send({"type": "websocket.close", "code": 1008, "reason": code})
            return
        body = json.dumps({"error": code, "message": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
