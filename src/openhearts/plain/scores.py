"""The plain game's score tables: after a deal, on ``scores``, at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..sentences import table
from ..sentences.records import shot_line
from ..session.events import DealScored

if TYPE_CHECKING:
    from .table import Table

__all__ = ["show_deal_result", "show_totals", "show_history"]


def show_deal_result(plain: Table, event: DealScored) -> None:
    rows = [
        [name, event.result.points[seat], event.totals[seat]]
        for seat, name in enumerate(plain.names)
    ]
    for text in table(["", "This deal", "Total"], rows):
        plain.say(f"  {text}")


def show_totals(plain: Table) -> None:
    scores = plain.session.game.scores
    rows = [[name, score] for name, score in zip(plain.names, scores, strict=True)]
    for text in table(["", "Total"], rows):
        plain.say(f"  {text}")


def show_history(plain: Table) -> None:
    game = plain.session.game
    rows: list[list[object]] = []
    if any(game.initial_scores):
        # A record made elsewhere may start from totals: without them the columns did
        # not add up to the totals.
        rows.append(["Start", *game.initial_scores])
    rows += [[f"Deal {r.number + 1}", *r.points] for r in game.results]
    rows.append(["Total", *game.scores])
    for text in table(["", *plain.names], rows):
        plain.say(f"  {text}")
    # The deals a moon or a sun scored, as the other faces mark them in their sheets
    # (☾, ☀): a row of -26 and +26 said nothing of how it came about.
    names = [plain.who(seat) for seat in range(game.rules.players)]
    for result in game.results:
        shot = shot_line(names, game.rules, result)
        if shot:
            plain.say(f"  Deal {result.number + 1}: {shot}")
