"""Hints: what the strongest computer player would do in your place.

The ``hard`` bot's :meth:`analyse` ranks the legal cards by the points it expects
you to take; the hint names the best card and the next ones with their expectations.
"""

from __future__ import annotations

from ..cards import Card
from ..game import PASSING, PLAYING, PlayerView
from ..sentences import spoken as words

__all__ = ["hint", "TOP"]

#: How many ranked cards a hint names.
TOP = 3


def hint(view: PlayerView) -> tuple[str, Card | None]:
    """A hint as a sentence, and the card to put the cursor on (None when there is none)."""
    try:
        from ..bots.hard import HardBot
    except ImportError:
        return "Hints need the hard computer player, which is not available yet.", None
    try:
        bot = HardBot(f"hint:{view.deal_number}:{len(view.tricks)}")
        if view.phase == PASSING:
            cards = bot.choose_pass(view)
            return f"Hint: pass {words.cards_words(cards)}.", next(iter(cards), None)
        if view.phase != PLAYING or not view.legal:
            return "There is nothing to hint now.", None
        analyse = getattr(bot, "analyse", None)
        if analyse is None:
            card = Card(bot.choose_play(view))
            return f"Hint: play the {card.name}.", card
        ranked: list[tuple[Card, float]] = [(Card(c), float(p)) for c, p in analyse(view)]
    except Exception as error:  # a hint must never end the game
        return f"No hint this time: {error}.", None
    if not ranked:
        return "There is nothing to hint now.", None
    best, points = ranked[0]
    text = f"Hint: play the {best.name} ({best.pretty}), about {points:.1f} points expected."
    others = [f"{card.pretty} {value:.1f}" for card, value in ranked[1:TOP]]
    if others:
        text += " Next: " + ", ".join(others) + "."
    return text, best
