"""Hints over the wire: the session core's hint (:mod:`openhearts.session.hints`) as
the ``hint`` message, so the web gives the same hint as the terminal and the plain game.

>>> from openhearts import Game
>>> game = Game(seed=1)
>>> answer = hint_json(game.view(0), seed=game.seed)
>>> answer["phase"], len(answer["pass"]), answer["ranking"][0]["cards"] == answer["pass"]
('passing', 3, True)
"""

from __future__ import annotations

from typing import Any

from ..game import PlayerView
from ..session.hints import HintKind, HintOption, NoHint, make_hint
from .protocol import WebError
from .views import cards_json

__all__ = ["hint_json"]


def hint_json(view: PlayerView, seed: object, budget: int | None = None) -> dict[str, Any]:
    """What the expert computer player would do in the view's seat (slow: a worker thread
    runs it).  Choices come best first, each with the numbers they are ranked by."""
    try:
        hint = make_hint(view, seed=seed, budget=budget)
    except NoHint as error:
        raise WebError("not_your_turn", str(error)) from None
    except ImportError as error:
        raise WebError("hint_unavailable", f"hints need the expert bot ({error})") from None
    if hint.kind == HintKind.PASS:
        return {
            "phase": view.phase,
            "pass": cards_json(hint.best.cards.cards()),
            "ranking": [
                {"cards": cards_json(option.cards.cards()), **_numbers(option)}
                for option in hint.options
            ],
        }
    if hint.kind == HintKind.PLAY:
        return {
            "phase": view.phase,
            "ranking": [{"card": str(option.card), **_numbers(option)} for option in hint.options],
        }
    return {
        "phase": view.phase,
        "others_add": hint.best.others_add,
        "options": [
            {"others_add": option.others_add, "totals": list(option.totals or ())}
            for option in hint.options
        ],
    }


def _numbers(option: HintOption) -> dict[str, float]:
    return {
        # Points you can expect to take in the rest of the deal.
        "points": round(float(option.points or 0.0), 2),
        # What the choices are ranked by: the expected points less the others'
        # average (lower is better).
        "margin": round(float(option.rank_value or 0.0), 2),
    }
