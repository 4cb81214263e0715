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
from ..session.review import DealReview, TrickReview
from ..session.words import number_word, plural
from .style import Style

__all__ = [
    "trick_line",
    "review_trick_line",
    "takes",
    "acts",
    "deal_summary",
    "shot_line",
    "direction_words",
]


def trick_line(
    style: Style, names: Sequence[str], rules: Rules, number: int, trick: TrickRecord
) -> str:
    """One finished trick in a sentence: who led, every card, who took it, its points."""
    return review_trick_line(style, names, TrickReview.of(rules, number, trick))


def review_trick_line(style: Style, names: Sequence[str], trick: TrickReview) -> str:
    """:func:`trick_line` of a trick of a review."""
    cards = ", ".join(f"{names[seat]} {style.card(card)}" for seat, card in trick.plays)
    return f"Trick {trick.number}: {cards}. {takes(names[trick.winner])} it " + (
        f"({plural(trick.points, 'point')})."
    )


def acts(name: str, verb: str) -> str:
    """A name with its verb: the plain verb after "You", the third person otherwise.

    >>> acts("You", "take"), acts("West", "take"), acts("North", "pass"), acts("Ann", "have")
    ('You take', 'West takes', 'North passes', 'Ann has')
    """
    if name.casefold() == "you":
        return f"{name} {verb}"
    if verb == "have":
        return f"{name} has"
    return f"{name} {verb}{'es' if verb.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def takes(name: str) -> str:
    """A name with "takes", or "take" after "You": ``acts(name, "take")``."""
    return acts(name, "take")


def deal_summary(names: Sequence[str], rules: Rules, deal: DealReview) -> str:
    """A deal of a review in a sentence: how far it is, or the points taken in it.

    >>> from openhearts.session.review import DealReview
    >>> deal_summary(["You", "West", "North", "East"], Rules(), DealReview(2, (), None))
    'Deal 3, in progress: no trick finished yet.'
    """
    result = deal.result
    if result is None:
        if not deal.tricks:
            return f"Deal {deal.number + 1}, in progress: no trick finished yet."
        return f"Deal {deal.number + 1}, in progress: {plural(len(deal.tricks), 'trick')} so far."
    taken = ", ".join(f"{n} {p}" for n, p in zip(names, result.taken_points, strict=True))
    shot = shot_line(names, rules, result)
    return f"Deal {deal.number + 1}: points taken: {taken}." + (f" {shot}" if shot else "")


def shot_line(names: Sequence[str], rules: Rules, result: DealResult) -> str | None:
    """The announcement of a moon or sun shot in a finished deal, if there was one."""
    if result.shooter is None or result.shot is None:
        return None
    who = names[result.shooter]
    total = rules.points_in_play
    if result.shot == Shot.SUN:
        # The shooter's own figure as scored: the J♦, where it counts, is 10 more off.
        own = result.points[result.shooter]
        return f"{who} shot the sun (took every trick): {who} {own}, everyone else +{total}."
    if result.moon_choice is not None:
        subtract = result.moon_choice == "subtract"
    else:
        subtract = rules.moon is MoonScoring.SHOOTER_SUBTRACTS
    if result.moon_choice is not None:
        how = f"to subtract {total}" if subtract else f"that everyone else adds {total}"
        return f"{who} shot the moon (took every point card) and chose {how}."
    how = f"{acts(who, 'subtract')} {total}" if subtract else f"everyone else adds {total}"
    return f"{who} shot the moon (took every point card): {how}."


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
