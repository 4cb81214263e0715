"""What an action caused, in sentences: the session's typed events, said to one seat.

>>> from openhearts import Card, Game
>>> from openhearts.session.events import CardPlayed
>>> game = Game(seed=1, names=["Ann", "West", "North", "East"])
>>> narrator = Narrator(game.view(0), Style())
>>> narrator.lines(CardPlayed(1, Card.parse("QS"), leads=False))
['West plays Q♠.']
>>> Narrator(game.view(0), Style(spoken=True)).lines(CardPlayed(0, Card.parse("2C"), True))
['You lead the two of clubs.']
"""

from __future__ import annotations

from ..game import MoonChoice, Pass, PlayerView
from ..session.events import (
    AutoPlay,
    BotReplaced,
    CardPlayed,
    CardsPassed,
    DealScored,
    DealStarted,
    Event,
    GameOver,
    HeartsBroken,
    MoonChosen,
    MoonPending,
    PassesExchanged,
    TrickTaken,
    Undone,
)
from ..session.memory import just_received
from ..session.words import counted, join_words, plural
from .records import direction_words, shot_line
from .style import Style

__all__ = ["Narrator"]


class Narrator:
    """Sentences for the seat of ``view`` ("you"); refresh :attr:`view` as the game
    goes on (passes and deal starts are said from the seat's view)."""

    def __init__(self, view: PlayerView, style: Style) -> None:
        self.view = view
        self.style = style

    @property
    def me(self) -> int:
        return self.view.seat

    def who(self, seat: int) -> str:
        """A seat's name at the start of a sentence, "You" for the viewer."""
        return "You" if seat == self.me else self.view.names[seat]

    def does(self, seat: int, verb: str) -> str:
        """``You play`` / ``West plays``."""
        return f"You {verb}" if seat == self.me else f"{self.view.names[seat]} {verb}s"

    def lines(self, event: Event) -> list[str]:
        """What the event says to the viewer (nothing for what it must not see)."""
        method = getattr(self, f"_{type(event).__name__}")
        result: list[str] = method(event)
        return result

    def _DealStarted(self, event: DealStarted) -> list[str]:
        view = self.view
        head = f"Deal {event.deal + 1}. {self.does(event.dealer, 'deal')}."
        if view.pass_target is None:
            return [f"{head} A hold hand: no passing."]
        if view.passed is not None:
            # A resumed deal: what was passed, and what came in while it is still marked.
            said = f"{head} You have passed {self.style.listing(view.passed)}."
            fresh = just_received(view)
            if fresh and view.pass_source is not None:
                source = view.names[view.pass_source]
                said += f" You received {self.style.listing(fresh)} from {source}."
            return [said]
        count = counted(view.rules.cards_passed, "card")
        target = view.names[view.pass_target]
        return [f"{head} Pass {count} {direction_words(event.direction)} ({target})."]

    def _CardsPassed(self, event: CardsPassed) -> list[str]:
        if event.seat != self.me or self.view.pass_target is None:
            return []
        target = self.view.names[self.view.pass_target]
        return [f"You pass {self.style.listing(event.cards)} to {target}."]

    def _PassesExchanged(self, event: PassesExchanged) -> list[str]:
        view = self.view
        if view.received is None or view.pass_source is None:
            return []
        source = view.names[view.pass_source]
        return [f"You receive {self.style.listing(view.received)} from {source}."]

    def _CardPlayed(self, event: CardPlayed) -> list[str]:
        verb = "lead" if event.leads else "play"
        note = ""
        if event.auto == AutoPlay.ONLY_CARD:
            note = " (your only legal card)"
        elif event.auto == AutoPlay.SETTLED:
            note = " (no points left to take)"
        return [f"{self.does(event.seat, verb)} {self.style.the(event.card)}{note}."]

    def _TrickTaken(self, event: TrickTaken) -> list[str]:
        card = self.style.card(event.winning_card(self.view.players))
        points = f" ({plural(event.points, 'point')})" if event.points else ""
        return [f"{self.does(event.winner, 'take')} the trick with the {card}{points}."]

    def _HeartsBroken(self, event: HeartsBroken) -> list[str]:
        return ["Hearts are broken."]

    def _MoonPending(self, event: MoonPending) -> list[str]:
        if event.seat == self.me:
            return ["You shot the moon! Choose how it scores."]
        return [f"{self.who(event.seat)} shot the moon and is choosing how it scores."]

    def _MoonChosen(self, event: MoonChosen) -> list[str]:
        # The deal's result, which always follows, says the choice with the moon.
        return []

    def _DealScored(self, event: DealScored) -> list[str]:
        lines = [f"Deal {event.result.number + 1} is over."]
        names = [self.who(seat) for seat in range(self.view.players)]
        shot = shot_line(names, self.view.rules, event.result)
        if shot:
            lines.append(shot)
        return lines

    def points_sentence(self, event: DealScored) -> str:
        """The deal's points and the totals in one sentence."""
        players = range(self.view.players)
        points = ", ".join(f"{self.who(s)} {event.result.points[s]:+d}" for s in players)
        totals = ", ".join(f"{self.who(s)} {event.totals[s]}" for s in players)
        return f"Points: {points.replace('+0', '0')}. Totals: {totals}."

    def _GameOver(self, event: GameOver) -> list[str]:
        outcome = event.outcome
        low = outcome.scores[outcome.winners[0]]
        if outcome.winners == (self.me,):
            verdict = f"You win with {plural(low, 'point')}!"
        elif len(outcome.winners) == 1:
            verdict = f"{self.who(outcome.winners[0])} wins with {plural(low, 'point')}."
        else:
            everyone = join_words([self.who(s) for s in outcome.winners])
            verdict = f"{everyone} share the win with {plural(low, 'point')}."
        return [f"Game over after {plural(outcome.deals, 'deal')}. {verdict}"]

    def _BotReplaced(self, event: BotReplaced) -> list[str]:
        return [
            f"{self.view.names[event.seat]}'s computer player went wrong ({event.reason}); "
            "a random player takes its place."
        ]

    def _Undone(self, event: Undone) -> list[str]:
        own = event.own
        others = event.others_played
        plays = event.own_cards
        them = "them" if len(plays) > 1 else "it"
        after = f", and {plural(others, 'card')} played after {them}" if others else ""
        # Undo stops at the person's last pass or moon choice, so either comes first; the
        # cards after it were forced ones (a 2♣ led, a sole legal card) taken back with it.
        taken: list[str] = []
        if own and isinstance(own[0], Pass):
            taken.append(f"your pass of {self.style.listing(own[0].cards)}")
        elif own and isinstance(own[0], MoonChoice):
            taken.append("your moon choice")
        if plays:
            taken.append("your " + join_words([self.style.card(card) for card in plays]))
        said = f"Taken back: {join_words(taken)}{after}." if taken else "Taken back."
        if event.back_to_deal is not None:
            said += f" Back to deal {event.back_to_deal + 1}: its points are taken back."
        return [said]
