"""The shared key map (:mod:`openhearts.session.keys`) as the page reads it.

The page builds its key handling and its list of keys from ``GET /api/keys``, so the web
page has the same keys as the terminal and the plain game, written down once.

>>> entry = next(e for e in keys_json() if e["command"] == "hint")
>>> entry["keys"], entry["label"]
(['H'], 'Hint')
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..session.keys import KEYS

__all__ = ["keys", "keys_json"]


def keys_json() -> list[dict[str, Any]]:
    """Every entry of the key map: its command, keys, description and short label."""
    return [
        {
            "command": entry.command.value,
            "keys": list(entry.keys),
            "description": entry.description,
            "label": entry.label,
        }
        for entry in KEYS
    ]


async def keys(request: Request) -> Response:
    """``GET /api/keys``: the key map."""
    return JSONResponse({"keys": keys_json()})
