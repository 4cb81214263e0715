"""Sentences about finished tricks and deals: ``hearts replay``, the plain game's
``last`` and deal results, the terminal game's announcements.

>>> direction_words("left2"), direction_words("across")
('two seats to the left', 'across')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..game import DealResult, TrickRecord
from ..phases import Shot
from ..rules import MoonScoring, Rules
from ..session.points import card_points
from ..session.words import number_word, plural
from .style import Style

__all__ = ["trick_line", "shot_line", "direction_words"]


def trick_line(
    style: Style, names: Sequence[str], rules: Rules, number: int, trick: TrickRecord
) -> str:
    """One finished trick in a sentence: who led, every card, who took it, its points."""
    plays = trick.plays(rules.players)
    cards = ", ".join(f"{names[seat]} {style.card(card)}" for seat, card in plays)
    points = card_points(rules, trick.cards)
    return f"Trick {number}: {cards}. {names[trick.winner]} takes it ({plural(points, 'point')})."


def shot_line(names: Sequence[str], rules: Rules, result: DealResult) -> str | None:
    """The announcement of a moon or sun shot in a finished deal, if there was one."""
    if result.shooter is None or result.shot is None:
        return None
    who = names[result.shooter]
    total = rules.points_in_play
    if result.shot == Shot.SUN:
        return f"{who} shot the sun (took every trick): {who} -{total}, everyone else +{total}."
    if result.moon_choice is not None:
        subtract = result.moon_choice == "subtract"
    else:
        subtract = rules.moon is MoonScoring.SHOOTER_SUBTRACTS
    how = f"{who} subtracts {total}" if subtract else f"everyone else adds {total}"
    chose = " and chose:" if result.moon_choice is not None else ":"
    return f"{who} shot the moon (took every point card){chose} {how}."


def direction_words(direction: str) -> str:
    """``left`` -> ``to the left``; ``left2`` -> ``two seats to the left``; ``across``."""
    if direction == "across":
        return "across"
    match = re.fullmatch(r"(left|right)(\d*)", direction)
    if not match:
        return direction
    distance = int(match.group(2) or 1)
    side = f"to the {match.group(1)}"
    return side if distance == 1 else f"{number_word(distance)} seats {side}"
