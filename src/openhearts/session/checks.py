"""What a person may do now, with the reason in a sentence when they may not.

The engine's messages are for programmers' logs; these are for the person at the
table, whatever the face.

>>> from openhearts import Game, Card
>>> game = Game(seed=1)
>>> view = game.view(0)
>>> held = view.hand.cards()
>>> pass_problem(view, [held[0], held[0], held[1]]) == f"You named the {held[0].pretty} twice."
True
>>> pass_problem(view, held[:2])
'Pass exactly three cards; you named two.'
>>> pass_problem(view, [])
'Pass exactly three cards; you named none.'
>>> stranger = (game.view(1).hand).cards()[0]
>>> pass_problem(view, [*held[:2], stranger]) == f"You do not hold the {stranger.pretty}."
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..cards import Card, CardParseError, parse_cards
from ..game import IllegalActionError, PlayerView
from ..phases import Phase
from .words import counted, join_words, number_word

__all__ = [
    "SessionError",
    "pass_problem",
    "play_problem",
    "moon_problem",
    "repeat_problem",
    "not_now",
    "no_hint_now",
    "typed_cards",
    "lone_one_problem",
]


class SessionError(IllegalActionError):
    """A person's action that cannot be done now; the message is a sentence for them."""


#: A "1" standing for a rank: not part of "10" (nor of any other number).
_LONE_ONE = re.compile(r"(?<![0-9])1(?![0-9])")


def typed_cards(text: str) -> list[Card]:
    """The cards a person typed (:func:`~openhearts.cards.parse_cards`), except that a
    "1" is not taken for the ace: typed by hand, ``1h`` is more likely a ten that lost
    its 0, and a card played by mistake cannot be taken back at a table with people.

    >>> [str(card) for card in typed_cards("10h, qs")]
    ['TH', 'QS']
    >>> typed_cards("1h")
    Traceback (most recent call last):
    ...
    openhearts.cards.CardParseError: '1' is no rank here: type A for the ace, or 10 for the ten
    """
    problem = lone_one_problem(text)
    if problem is not None:
        raise CardParseError(problem)
    return parse_cards(text)


def lone_one_problem(text: str) -> str | None:
    """Why cards typed as ``text`` are refused though they parse: a lone ``1`` is more
    likely a ten that lost its 0 than the ace it reads as.  Every typed card is checked
    so, rules options too (a first lead of ``1C`` began the game with the A♣).

    >>> lone_one_problem("1C"), lone_one_problem("10C 2D")
    ("'1' is no rank here: type A for the ace, or 10 for the ten", None)
    """
    if _LONE_ONE.search(text):
        return "'1' is no rank here: type A for the ace, or 10 for the ten"
    return None


def not_now(view: PlayerView) -> str:
    """Why the view's seat cannot act now."""
    if view.phase == Phase.GAME_OVER:
        return "The game is over."
    if view.phase == Phase.PASSING:
        if view.passed is None and view.pass_target is not None:
            return "Cards are being passed: choose the cards to pass first."
        return "Wait for the others to pass."
    mover = view.to_move
    if mover is None or mover == view.seat:
        return "You cannot play now."
    return f"Wait: it is {view.names[mover]}'s turn."


def no_hint_now(view: PlayerView) -> str:
    """Why there is no hint for the view's seat now (nor a move made for it)."""
    if view.phase == Phase.GAME_OVER:
        return "The game is over: there is no move to choose."
    return "A hint is for when it is your turn."


def repeat_problem(cards: Sequence[Card]) -> str | None:
    """The first card named more than once, said with how often, or None.

    >>> from openhearts.cards import parse_cards
    >>> repeat_problem(parse_cards("qs 2c qs qs"))
    'You named the Q♠ three times.'
    """
    for card in cards:
        times = cards.count(card)
        if times > 1:
            often = "twice" if times == 2 else f"{number_word(times)} times"
            return f"You named the {card.pretty} {often}."
    return None


def pass_problem(view: PlayerView, cards: Sequence[Card]) -> str | None:
    """What is wrong with passing these cards (in the order named), or None."""
    if view.phase != Phase.PASSING or view.passed is not None or view.pass_target is None:
        return (
            "There is nothing to pass now." if view.passed is None else ("You have already passed.")
        )
    problem = repeat_problem(cards)
    if problem is not None:
        return problem
    count = view.rules.cards_passed
    if len(cards) != count:
        named = number_word(len(cards)) if cards else "none"
        return f"Pass exactly {counted(count, 'card')}; you named {named}."
    missing = [card for card in cards if card not in view.hand]
    if missing:
        return f"You do not hold {join_words([f'the {c.pretty}' for c in missing])}."
    return None


def picks_problem(view: PlayerView, cards: Sequence[Card]) -> str | None:
    """What is wrong with having picked these cards to pass so far (fewer than a pass
    is allowed), or None."""
    if view.phase != Phase.PASSING or view.passed is not None or view.pass_target is None:
        return pass_problem(view, cards)
    problem = repeat_problem(cards)
    if problem is not None:
        return problem
    count = view.rules.cards_passed
    if len(cards) > count:
        return f"Pick at most {counted(count, 'card')} to pass; you named {len(cards)}."
    missing = [card for card in cards if card not in view.hand]
    if missing:
        return f"You do not hold {join_words([f'the {c.pretty}' for c in missing])}."
    return None


def play_problem(view: PlayerView, card: Card, why_illegal: str) -> str | None:
    """What is wrong with playing ``card`` now, or None (``why_illegal``: the engine's
    reason, asked for only when the card is held but not legal)."""
    if view.phase != Phase.PLAYING or view.to_move != view.seat:
        return not_now(view)
    if card not in view.hand:
        return f"You do not hold the {card.pretty}."
    if card not in view.legal:
        return f"You cannot play the {card.pretty}: {why_illegal}."
    return None


def moon_problem(view: PlayerView) -> str | None:
    """What is wrong with choosing how a moon is scored now, or None."""
    if view.phase != Phase.MOON_CHOICE or view.to_move != view.seat:
        return "There is no moon to choose for now."
    return None
