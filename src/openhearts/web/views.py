"""What goes over the wire: a seat's view, the events of an action, names (cleaned by
the session core's one rule for names, :mod:`openhearts.session.names`).

Every card a client receives comes from :meth:`Game.view` of its own seat (or a
spectator's view with no hand), from the action it made itself, or from cards played
in front of everyone.  Nothing here reads another seat's hand.

>>> from openhearts import Game
>>> game = Game(seed=1)
>>> data = view_json(game.view(0), seat=0)
>>> len(data["hand"]), data["phase"], data["legal"]
(13, 'passing', [])
>>> spectator = view_json(game.view(0), seat=None)
>>> spectator["hand"], spectator["passed"], spectator["seat"]
([], None, None)
>>> clean_name("  Ann\\x00 \\n  Lee  ", "Player 1")
'Ann Lee'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, CardSet, Suit
from ..game import (
    GAME_OVER,
    MOON_CHOICE,
    PASSING,
    PLAYING,
    Action,
    DealResult,
    Game,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
    TrickRecord,
)
from ..rules import Rules
from ..session.events import Undone
from ..session.memory import hearts_broken, hearts_free, just_received
from ..session.names import NAME_CHARS, clean_name
from ..session.points import card_points

__all__ = [
    "NAME_CHARS",
    "Event",
    "apply_with_events",
    "cards_json",
    "clean_name",
    "undone_event",
    "view_json",
]


def cards_json(cards: Iterable[int] | None) -> list[str]:
    """Cards as two-character strings, in the engine's order."""
    if cards is None:
        return []
    if not isinstance(cards, CardSet):
        cards = CardSet(cards)
    return [str(card) for card in cards]


def _in_order(cards: Iterable[int]) -> list[str]:
    """Cards in the order given (a trick's play order), not sorted."""
    return [str(Card(card)) for card in cards]


def _trick_json(trick: TrickRecord, rules: Rules) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": _in_order(trick.cards),
        "winner": trick.winner,
        # What the trick was worth to its taker, as every face says it.
        "points": card_points(rules, trick.cards),
    }


def view_json(view: PlayerView, seat: int | None) -> dict[str, Any]:
    """The view sent to ``seat``; ``seat`` None is a spectator, who gets ``view`` (any
    seat's) stripped of the hand, the passes and the legal cards."""
    own = seat is not None
    if own and view.seat != seat:
        raise ValueError("a seat only ever gets its own view")
    data: dict[str, Any] = {
        "seat": seat,
        "players": view.players,
        "names": list(view.names),
        "phase": view.phase,
        "deal": view.deal_number,
        "dealer": view.dealer,
        "pass_direction": view.pass_direction,
        "pass_target": view.pass_target if own else None,
        "pass_source": view.pass_source if own else None,
        "hand": cards_json(view.hand) if own else [],
        "passed": cards_json(view.passed) if own and view.passed is not None else None,
        "received": cards_json(view.received) if own and view.received is not None else None,
        # The session core's rule for marking them in the hand, not a copy in the page.
        "marked": cards_json(just_received(view)) if own else [],
        "passing_done": view.passing_done,
        "to_move": view.to_move,
        "legal": cards_json(view.legal) if own else [],
        "leader": view.leader,
        "trick": [[s, str(card)] for s, card in view.trick],
        "tricks": [_trick_json(t, view.rules) for t in view.tricks],
        "hand_sizes": list(view.hand_sizes),
        "won": [cards_json(w) for w in view.won],
        "points_taken": list(view.points_taken),
        # As a player says it (never where hearts may be led at any time), one rule.
        "hearts_broken": hearts_broken(view),
        "hearts_free": hearts_free(view),
        "voids": [sorted(Suit(s).letter for s in v) for v in view.voids],
        "scores": list(view.scores),
        "deal_points": [list(p) for p in view.deal_points],
        "moon": None,
        "winners": [],
    }
    return data


@dataclass
class Event:
    """One thing that happened; ``private`` fields go only to seat ``owner``."""

    data: dict[str, Any]
    owner: int | None = None
    private: dict[str, Any] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        if self.private and seat is not None and seat == self.owner:
            return {**self.data, **self.private}
        return self.data


def undone_event(undone: Undone) -> Event:
    """An undo: how many actions went, and the deal it went back into (public: the
    scores change in front of everyone); what the person took back of their own (their
    pass, their moon choice, their cards) and how many of the others' cards went, for
    them alone (a pass is theirs to know)."""
    own = undone.own
    first = own[0] if own else None
    return Event(
        {
            "event": "undone",
            "seat": undone.seat,
            "count": len(undone.actions),
            "back_to_deal": undone.back_to_deal,
        },
        owner=undone.seat,
        private={
            "passed": cards_json(first.cards) if isinstance(first, Pass) else None,
            "moon_choice": isinstance(first, MoonChoice),
            "played": [str(card) for card in undone.own_cards],
            "others_played": undone.others_played,
        },
    )


def _deal_over(game: Game, result: DealResult) -> Event:
    return Event(
        {
            "event": "deal_over",
            "deal": result.number,
            "points": list(result.points),
            "taken": list(result.taken_points),
            "shooter": result.shooter,
            "shot": result.shot,
            "moon_choice": result.moon_choice,
            "scores": list(game.scores),
            # Every card of a finished deal has been played in front of everyone;
            # the dealt hands and the passes (``result.dealt``/``passes``) are not sent.
            "tricks": [_trick_json(t, game.rules) for t in result.tricks],
        }
    )


def apply_with_events(game: Game, action: Action) -> list[Event]:
    """Apply ``action`` (it may raise :class:`IllegalActionError`, changing nothing)
    and describe what happened, in order."""
    results_before = len(game.results)
    players = game.rules.players
    trick_before: tuple[tuple[int, Card], ...] = ()
    if isinstance(action, Play) and game.phase == PLAYING:
        trick_before = game.view(action.seat if 0 <= action.seat < players else 0).trick
    game.apply(action)
    events: list[Event] = []
    if isinstance(action, Pass):
        events.append(
            Event(
                {"event": "passed", "seat": action.seat},
                owner=action.seat,
                private={"cards": cards_json(action.cards)},
            )
        )
        if game.phase != PASSING:
            events.append(Event({"event": "exchanged", "direction": game.pass_direction}))
    elif isinstance(action, Play):
        events.append(Event({"event": "played", "seat": action.seat, "card": str(action.card)}))
        if len(trick_before) + 1 == players:
            if len(game.results) > results_before:
                finished = game.results[-1].tricks[-1]
            else:
                finished = game.view(action.seat).tricks[-1]
            events.append(
                Event(
                    {
                        "event": "trick",
                        "leader": finished.leader,
                        "cards": _in_order(finished.cards),
                        "winner": finished.winner,
                        "points": card_points(game.rules, finished.cards),
                    }
                )
            )
        if game.phase == MOON_CHOICE:
            events.append(Event({"event": "moon_pending", "seat": game.current_player}))
    elif isinstance(action, MoonChoice):
        events.append(
            Event({"event": "moon_chosen", "seat": action.seat, "others_add": action.others_add})
        )
    if len(game.results) > results_before:
        events.append(_deal_over(game, game.results[-1]))
        if game.phase == GAME_OVER:
            events.append(
                Event({"event": "game_over", "scores": list(game.scores), "winners": game.winners})
            )
        else:
            events.append(Event({"event": "dealt", "deal": game.deal_number}))
    return events
