"""The deals of a table's game trick by trick, for the page's review of past tricks.

Only what everyone at the table saw is sent: each trick's cards as they were played,
who took it and its points, and each finished deal's points.  The dealt hands and the
passes never are, so anyone who may watch the table may read this.

>>> from openhearts import Game
>>> game = Game(seed=3)
>>> review_json(game)
[{'deal': 0, 'finished': False, 'tricks': []}]
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..game import Game, TrickRecord
from ..rules import Rules
from ..session.points import card_points

__all__ = ["deals", "review_json"]


def _trick(rules: Rules, trick: TrickRecord) -> dict[str, Any]:
    return {
        "plays": [[seat, str(card)] for seat, card in trick.plays(rules.players)],
        "winner": trick.winner,
        "points": card_points(rules, trick.cards),
    }


def review_json(game: Game) -> list[dict[str, Any]]:
    """Every finished deal of ``game`` with its tricks and points, then the deal in
    progress (its finished tricks only) unless the game is over."""
    rules = game.rules
    deals: list[dict[str, Any]] = [
        {
            "deal": result.number,
            "finished": True,
            "tricks": [_trick(rules, trick) for trick in result.tricks],
            "taken": list(result.taken_points),
            "points": list(result.points),
            "shooter": result.shooter,
            "shot": result.shot,
        }
        for result in game.results
    ]
    if not game.is_over:
        # Seat 0's view: the finished tricks of a deal are the same in every seat's view.
        tricks = game.view(0).tricks
        deals.append(
            {
                "deal": game.deal_number,
                "finished": False,
                "tricks": [_trick(rules, trick) for trick in tricks],
            }
        )
    return deals


async def deals(request: Request) -> Response:
    """``GET /api/tables/{table_id}/deals``: the current game's deals, trick by trick."""
    hub = request.app.state.hub
    table = await hub.get(request.path_params["table_id"])
    if table is None:
        return JSONResponse(
            {"error": "no_table", "message": "there is no such table"}, status_code=404
        )
    game = table.game
    if game is None:
        return JSONResponse({"game": None, "names": [], "deals": []})
    return JSONResponse(
        {"game": table.game_number, "names": list(game.names), "deals": review_json(game)}
    )
