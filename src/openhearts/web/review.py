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

from ..game import Game
from ..session.review import DealReview, TrickReview, deal_reviews, opening_deal
from .protocol import WebError, error_response

__all__ = ["deals", "review_json"]


def _trick(trick: TrickReview) -> dict[str, Any]:
    return {
        "plays": [[seat, str(card)] for seat, card in trick.plays],
        "winner": trick.winner,
        "points": trick.points,
    }


def _deal(deal: DealReview) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "deal": deal.number,
        "finished": deal.finished,
        "tricks": [_trick(trick) for trick in deal.tricks],
    }
    result = deal.result
    if result is not None:
        answer |= {
            "taken": list(result.taken_points),
            "points": list(result.points),
            "shooter": result.shooter,
            "shot": result.shot,
        }
    return answer


def review_json(game: Game) -> list[dict[str, Any]]:
    """Every finished deal of ``game`` with its tricks and points, then the deal in
    progress (its finished tricks only) unless the game is over (the session core's
    :func:`~openhearts.session.review.deal_reviews`)."""
    return [_deal(deal) for deal in deal_reviews(game)]


async def deals(request: Request) -> Response:
    """``GET /api/tables/{table_id}/deals``: the current game's deals, trick by trick, and
    the one a review opens at."""
    hub = request.app.state.hub
    try:
        table = await hub.existing(request.path_params["table_id"])
    except WebError as error:
        return error_response(error)
    game = table.game
    if game is None:
        return JSONResponse({"game": None, "names": [], "deals": [], "opening": None})
    # Working out every deal of a long game takes the server's one event loop tens of
    # milliseconds: a client asking again and again stalled every table.  The answer is
    # kept until the table changes.
    key = (table.version, table.game_number, tuple(game.names))
    cached = table.review_cache
    if cached is None or cached[0] != key:
        reviews = deal_reviews(game)
        body = JSONResponse(
            {
                "game": table.game_number,
                "names": list(game.names),
                "deals": [_deal(deal) for deal in reviews],
                # The deal the review opens at (the session core's rule for every face).
                "opening": opening_deal(reviews),
            }
        ).body
        cached = table.review_cache = (key, bytes(body))
    return Response(cached[1], media_type="application/json")
