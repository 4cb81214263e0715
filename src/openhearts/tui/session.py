"""One game against the computer, without any drawing: who acts, applying actions, undo.

The app drives a :class:`Session`; the tests can too.  Every action returns the
announcements it causes as plain sentences, written for the human seat.

>>> session = Session.new(Rules.preset("standard"), seed=3, names=["You", "W", "N", "E"],
...                       level="random")
>>> while session.bot_seat() is not None:
...     _ = session.apply(session.decide(session.bot_seat()))
>>> session.game.to_act()
[0]
>>> session.pass_cards(session.view().hand.cards()[:3])[0].startswith("You passed")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..bots import BotError, decide_safely, make_bot
from ..bots.base import Bot
from ..bots.random_bot import RandomBot
from ..cards import Card, CardSet
from ..game import (
    GAME_OVER,
    PASSING,
    PLAYING,
    Action,
    Game,
    IllegalActionError,
    MoonChoice,
    Pass,
    Play,
    PlayerView,
)
from ..rules import Rules, seat_names
from ..sentences import spoken as words

__all__ = ["Session", "decide", "default_names"]


def default_names(players: int, human: str, opponents: Sequence[str] = ()) -> list[str]:
    """The human first, then the opponents' names or the compass names, all different.

    >>> default_names(4, "You")
    ['You', 'West', 'North', 'East']
    >>> default_names(3, "West", ["West"])
    ['West', 'West 2', 'East']
    """
    compass = list(seat_names(players))[1:]
    chosen = [name for name in opponents if name][: players - 1]
    names = [human or "You", *chosen, *compass[len(chosen) :]]
    seen: set[str] = set()
    unique: list[str] = []
    for name in names:
        candidate, number = name, 2
        while candidate.lower() in seen:
            candidate, number = f"{name} {number}", number + 1
        seen.add(candidate.lower())
        unique.append(candidate)
    return unique


decide = decide_safely


class Session:
    """A game, the human's seat, and a bot for every other seat."""

    def __init__(self, game: Game, human: int = 0, level: str = "easy") -> None:
        self.game = game
        self.human = human
        self.level = level
        #: A problem met building the bots (shown once by the interface).
        self.problem: str | None = None
        self.bots: dict[int, Bot] = {}
        for seat in range(game.rules.players):
            if seat != human:
                self.bots[seat] = self._make_bot(level, f"{game.seed}:{seat}")

    def _make_bot(self, level: str, seed: str) -> Bot:
        try:
            return make_bot(level, seed)
        except (BotError, ImportError, AttributeError) as error:
            self.problem = f"the {level!r} computer players are not available ({error}); "
            self.problem += "playing against random ones"
            self.level = "random"
            return RandomBot(seed)

    @classmethod
    def new(cls, rules: Rules, seed: object, names: Sequence[str], level: str = "easy") -> Session:
        """A new game with the human, ``names[0]``, in seat 0 (as in the plain line mode)."""
        game = Game(rules, seed=seed, names=list(names))
        return cls(game, list(game.names).index(names[0]), level)

    @classmethod
    def resume(cls, game: Game, meta: dict[str, Any], name: str, level: str) -> Session:
        """A loaded game; the human's seat comes from the saved extra data or the name."""
        seat = meta.get("human")
        if not isinstance(seat, int) or not 0 <= seat < game.rules.players:
            seat = list(game.names).index(name) if name in game.names else 0
        saved_level = meta.get("level")
        return cls(game, seat, saved_level if isinstance(saved_level, str) else level)

    def meta(self) -> dict[str, Any]:
        return {"human": self.human, "level": self.level}

    # State ------------------------------------------------------------------------

    def view(self) -> PlayerView:
        return self.game.view(self.human)

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.names

    def bot_seat(self) -> int | None:
        """A computer seat that must act now, if any."""
        for seat in self.game.to_act():
            if seat != self.human:
                return seat
        return None

    def human_to_act(self) -> bool:
        return self.human in self.game.to_act()

    def decide(self, seat: int) -> Action:
        """The bot's action for ``seat`` (computed here; see :func:`decide` for threads)."""
        return decide(self.bots[seat], self.game.view(seat))

    # Actions ----------------------------------------------------------------------

    def apply(self, action: Action) -> list[str]:
        """Apply any action; returns the announcements it causes, for the human."""
        game = self.game
        before = self.view()
        results_before = len(game.results)
        game.apply(action)
        after = self.view()
        sentences: list[str] = []
        if isinstance(action, Play):
            sentences.append(words.played(after, action.seat, action.card))
            if len(game.results) > results_before:
                tricks = game.results[-1].tricks
                sentences.append(words.trick_taken(after, tricks[-1]))
            elif len(after.tricks) > len(before.tricks):
                sentences.append(words.trick_taken(after, after.tricks[-1]))
            if (
                after.hearts_broken
                and not before.hearts_broken
                and before.phase == PLAYING
                and after.deal_number == before.deal_number
            ):
                sentences.append("Hearts are broken.")
        elif isinstance(action, Pass) and before.phase == PASSING and after.phase != PASSING:
            sentences.append(self._exchange_sentence(after))
        elif isinstance(action, MoonChoice):
            how = "everyone else adds" if action.others_add else "the shooter subtracts"
            sentences.append(f"{words.subject(after, action.seat)} chose: {how} the points.")
        if len(game.results) > results_before:
            sentences.extend(self.deal_sentences())
            if not game.is_over:
                sentences.append(self.deal_start_sentence())
        if game.is_over:
            sentences.append(words.status(self.view()))
        return sentences

    def _exchange_sentence(self, view: PlayerView) -> str:
        if view.passed is None or view.received is None:
            return "Everyone has passed."
        source = view.names[view.pass_source] if view.pass_source is not None else "nobody"
        target = view.names[view.pass_target] if view.pass_target is not None else "nobody"
        return (
            f"You passed {words.cards_words(view.passed)} to {target}, "
            f"and received {words.cards_words(view.received)} from {source}."
        )

    def deal_start_sentence(self) -> str:
        view = self.view()
        hold = "No passing this deal. " if view.pass_direction == "hold" else ""
        return f"Deal {view.deal_number + 1}. {hold}" + words.status(view)

    def deal_sentences(self) -> list[str]:
        """What the last finished deal came to."""
        game = self.game
        result = game.results[-1]
        view = self.view()
        sentences = []
        if result.shooter is not None:
            what = "the sun" if result.shot == "sun" else "the moon"
            verb = "shoot" if result.shooter == self.human else "shoots"
            sentences.append(f"{words.subject(view, result.shooter)} {verb} {what}!")
        points = ", ".join(
            f"{words.who(view, s)} {p:+d}" if p else f"{words.who(view, s)} 0"
            for s, p in enumerate(result.points)
        )
        totals = ", ".join(f"{words.who(view, s)} {v}" for s, v in enumerate(game.scores))
        sentences.append(f"Deal {result.number + 1} is over. Points: {points}. Totals: {totals}.")
        return sentences

    def play(self, card: int | str) -> list[str]:
        """The human plays a card; raises :class:`IllegalActionError` with the reason."""
        if self.game.phase != PLAYING:
            raise IllegalActionError(self.not_now())
        if self.game.current_player != self.human:
            raise IllegalActionError(self.not_now())
        if isinstance(card, str):
            card = Card.parse(card)
        return self.apply(Play(self.human, Card(card)))

    def pass_cards(self, cards: Iterable[int]) -> list[str]:
        if self.game.phase != PASSING or self.human not in self.game.to_act():
            raise IllegalActionError(self.not_now())
        return self.apply(Pass(self.human, CardSet(cards)))

    def choose_moon(self, others_add: bool) -> list[str]:
        return self.apply(MoonChoice(self.human, others_add))

    def not_now(self) -> str:
        game = self.game
        if game.phase == GAME_OVER:
            return "The game is over."
        if game.phase == PASSING:
            if self.human in game.to_act():
                return "Cards are being passed: choose the cards to pass first."
            return "Wait for the others to pass."
        mover = game.current_player
        if mover is None or mover == self.human:
            return "You cannot play now."
        return f"Wait: it is {game.names[mover]}'s turn."

    def can_undo(self) -> bool:
        return not self.game.is_over and any(
            getattr(action, "seat", None) == self.human for action in self.game.actions
        )

    def undo(self, auto_play_one: bool = False) -> list[str]:
        """Take back the human's last action and everything the computer did after it.

        With ``auto_play_one``, cards it played for the human are no choice to go back
        to (they would only be played again): undo goes on to the last real choice."""
        if self.game.is_over:
            raise IllegalActionError("The game is over: there is nothing to undo.")
        if not self.can_undo():
            raise IllegalActionError("There is nothing of yours to undo yet.")
        cards: list[Card] = []
        while True:
            action = self.game.undo()
            if action.seat != self.human:
                continue
            if not isinstance(action, Play):
                break
            cards.insert(0, action.card)
            game = self.game
            forced = game.auto_play_card() is not None
            # Not past the deal's first card: what came before it is the pass.
            played_before = len(game.hand(self.human)) < game.rules.hand_size
            if not (auto_play_one and forced and played_before):
                break
        if cards:
            return ["Undone: you take back the " + " and the ".join(c.name for c in cards) + "."]
        if isinstance(action, Pass):
            return [f"Undone: you take back your pass of {words.cards_words(action.cards)}."]
        return ["Undone: you take back your moon choice."]
