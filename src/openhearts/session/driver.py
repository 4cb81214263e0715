"""The bot driver's step and the faulty-bot policy.

A computer player's decision is made from its seat's view alone (so a face may make
it in a worker thread) and checked before it is applied.  A bot that raises or
answers something illegal must not end a person's game: a random legal action is
played in its place, and the session then seats a random player there for good and
says so (:class:`~openhearts.session.events.BotReplaced`).

>>> from openhearts import Game
>>> from openhearts.bots import RandomBot
>>> class Broken(RandomBot):
...     def choose_pass(self, view):
...         raise RuntimeError("out of order")
>>> game = Game(seed=4)
>>> decision = decide(Broken(0), game.view(1))
>>> decision.problem, len(decision.action.cards)
('out of order', 3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots import decide as bot_decide
from ..bots.base import Bot
from ..cards import CardSet
from ..game import Action, MoonChoice, Pass, Play, PlayerView
from ..phases import Phase

__all__ = ["Decision", "decide", "fallback_action"]


@dataclass(frozen=True)
class Decision:
    """A bot's action, and what was wrong with the bot when a fallback was used."""

    action: Action
    problem: str | None = None


def decide(bot: Bot, view: PlayerView) -> Decision:
    """The bot's next action for ``view.seat``, checked against the view."""
    try:
        action = bot_decide(bot, view)
    except Exception as error:  # someone else's code: any failure is the bot's
        return Decision(fallback_action(view), str(error) or type(error).__name__)
    problem = _problem(action, view)
    if problem is not None:
        return Decision(fallback_action(view), problem)
    # A program seated with cmd: covers its own faults with a stand-in; the person at
    # the table is told all the same, and the policy's random player takes over.
    fault = getattr(bot, "fault_reason", None)
    if isinstance(fault, str):
        return Decision(action, fault)
    return Decision(action)


def _problem(action: Action, view: PlayerView) -> str | None:
    if action.seat != view.seat:
        return f"it acted for seat {action.seat}"
    if isinstance(action, Pass):
        if len(action.cards) != view.rules.cards_passed or not action.cards <= view.hand:
            return f"it passed {action.cards}, which it cannot pass"
    elif isinstance(action, Play) and action.card not in view.legal:
        return f"it played {action.card.pretty}, which is not a legal card"
    return None


def fallback_action(view: PlayerView) -> Action:
    """A random legal action for the view's seat, the same for the same position."""
    rng = random.Random(f"{view.hand!r}:{len(view.tricks)}:{len(view.trick)}")
    if view.passed is None and view.phase == Phase.PASSING:
        return Pass(view.seat, CardSet(rng.sample(view.hand.cards(), view.rules.cards_passed)))
    if view.phase == Phase.PLAYING:
        return Play(view.seat, rng.choice(view.legal.cards()))
    return MoonChoice(view.seat, True)
