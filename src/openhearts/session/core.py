"""A game session: a game, its seats, and every action a face can ask for.

The faces only draw and read input; everything else happens here, the same way for
each of them: the bot driver's step (with the faulty-bot policy), auto play one, the
people's actions checked with reasons in sentences, undo to a person's last choice,
hints, memory aids, and the typed events each action caused.

>>> from openhearts import Rules
>>> session = Session.new(Rules(), seed="1", names=["Ann"], level="random")
>>> session.game.seed, session.game.names
(1, ('Ann', 'West', 'North', 'East'))
>>> while session.step():
...     pass
>>> session.game.to_act()
[0]
>>> events = session.pass_cards(0, session.view().hand.cards()[:3])
>>> [type(e).__name__ for e in events]
['CardsPassed', 'PassesExchanged']
>>> [type(e).__name__ for e in session.undo(0)]
['Undone']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..bots.base import close_bot
from ..cards import Card, CardSet
from ..game import Action, Game, MoonChoice, Pass, Play, PlayerView
from ..rules import Rules, seat_names
from .checks import SessionError, moon_problem, not_now, pass_problem, play_problem
from .driver import Decision, decide
from .events import AutoPlay, BotReplaced, Event, apply_with_events
from .hints import Hint, HintKind, make_hint, turn_of
from .memory import MemoryAids, memory_aids
from .names import clean_name, seated_compass_names, table_names, unique_name
from .outcome import Outcome, game_outcome
from .saving import SessionInfo
from .seats import Seats
from .seeds import game_seed
from .undo import can_undo, undo_last_choice

__all__ = ["Session"]


class Session:
    """One game with its seats.

    :param game: a new or resumed game.
    :param seats: who is a person; a bot for every other seat.
    :param auto_play_one: play a person's sole legal card, and the rest of a deal once
        its points are settled, without asking.
    """

    def __init__(self, game: Game, seats: Seats, *, auto_play_one: bool = True) -> None:
        if not seats.humans:
            raise ValueError("a session needs at least one person")
        self.game = game
        self.seats = seats
        self.auto_play_one = auto_play_one

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: object,
        names: Sequence[object],
        *,
        level: str = "easy",
        auto_play_one: bool = True,
    ) -> Session:
        """A new game with one person, ``names[0]``, in seat 0 (unless the rules shuffle
        the seating); the other names (or the compass names) for the computer players.
        The seed is read by :func:`~openhearts.session.seeds.game_seed`."""
        wanted = table_names(
            rules.players, names[0] if names else "You", names[1:], rules.direction
        )
        game = Game(rules, seed=game_seed(seed), names=wanted)
        seated = seated_compass_names(game.names, rules.direction)
        if seated != list(game.names):
            game = Game(rules, seed=game.seed, names=seated, seated=True)
        human = list(game.names).index(wanted[0])
        return cls(
            game, Seats.build(rules.players, [human], level, game.seed), auto_play_one=auto_play_one
        )

    @classmethod
    def resume(
        cls,
        game: Game,
        info: SessionInfo | None,
        *,
        name: str | None = None,
        level: str = "easy",
        auto_play_one: bool = True,
        name_typed: bool = True,
        no_auto_play_one: bool = False,
    ) -> Session:
        """A loaded game: the seats and settings from the saved session data, else (a
        record made elsewhere) the person at the seat called ``name`` (or seat 0) against
        ``level`` players, with the person's ``auto_play_one``.  One person plays: a file
        naming several people's seats (edited by hand) gives the others to the computer
        (no face asks two people in turn).  A ``name_typed`` (as ``--name``) that
        chooses no seat is said in :attr:`Seats.problem`; a name from settings is not.
        ``no_auto_play_one`` (``--no-auto-play-one`` given) turns auto play one off
        whatever the save says: it is the person's preference, not the game's, and
        every face honours it alike."""
        said = name if name_typed else None
        if info is None:
            seat = _seat_called(game.names, name)
            note = ""
            if said is not None and seat is None:
                note = (
                    f"no player in this game is called {clean_name(said, '?')}: "
                    f"you play {game.names[0]}'s seat"
                )
            info = SessionInfo((seat or 0,), level, auto_play_one, note)
        elif said is not None and _seat_called(game.names, said) != min(info.humans):
            info = replace(
                info,
                note=info.note
                or f"this game was saved with you as {game.names[min(info.humans)]}, and that "
                "stays: a name chooses the seat only in a record made elsewhere",
            )
        if len(info.humans) > 1:
            info = replace(info, humans=(min(info.humans),))
        game.names = _no_other_you(game.names, info.humans, game.rules.direction)
        seats = Seats.build(game.rules.players, info.humans, info.level, game.seed)
        if info.note and seats.problem is None:
            seats.problem = info.note
        return cls(game, seats, auto_play_one=info.auto_play_one and not no_auto_play_one)

    def info(self) -> SessionInfo:
        """What a save needs beside the record."""
        return SessionInfo(tuple(sorted(self.seats.humans)), self.seats.level, self.auto_play_one)

    # State ------------------------------------------------------------------------

    @property
    def human(self) -> int:
        """The (first) person's seat."""
        return min(self.seats.humans)

    def view(self, seat: int | None = None) -> PlayerView:
        return self.game.view(self.human if seat is None else seat)

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.names

    @property
    def outcome(self) -> Outcome | None:
        return game_outcome(self.game)

    def bot_to_act(self) -> int | None:
        """A computer seat that must act now, if any."""
        for seat in self.game.to_act():
            if not self.seats.is_human(seat):
                return seat
        return None

    def human_to_act(self) -> bool:
        """Whether the (first) person may act now."""
        return self.human in self.game.to_act()

    def people_to_act(self) -> list[int]:
        return [seat for seat in self.game.to_act() if self.seats.is_human(seat)]

    def auto_card(self) -> Card | None:
        """The card auto play one plays now for the person to move, if any."""
        game = self.game
        seat = game.current_player
        if not self.auto_play_one or seat is None or not self.seats.is_human(seat):
            return None
        return game.auto_play_card()

    # The driver -------------------------------------------------------------------

    def decide(self, seat: int) -> Decision:
        """The bot's decision for ``seat``; reads only that seat's view, so a face may
        run it in a worker thread and apply it afterwards."""
        return decide(self.seats.bots[seat], self.game.view(seat))

    def apply_decision(self, decision: Decision) -> list[Event]:
        """Apply a bot's decision; a faulty bot is replaced by a random one for good."""
        events: list[Event] = []
        seat = decision.action.seat
        if decision.problem is not None:
            self.seats.replace_with_random(seat, self.game.seed)
            events.append(BotReplaced(seat, decision.problem))
        events += apply_with_events(self.game, decision.action)
        return events

    def step(self) -> list[Event]:
        """One thing that needs no person: a computer player's action, or a card auto
        play one plays.  Empty when a person must act or the game is over."""
        seat = self.bot_to_act()
        if seat is not None:
            return self.apply_decision(self.decide(seat))
        return self.auto_play()

    def auto_play(self) -> list[Event]:
        """Play the card auto play one plays now, if there is one."""
        card = self.auto_card()
        if card is None:
            return []
        reason = AutoPlay.now(self.game)
        seat = self.game.current_player
        assert seat is not None
        return apply_with_events(self.game, Play(seat, card), auto=reason)

    # A person's actions -------------------------------------------------------------

    def _person(self, seat: int) -> PlayerView:
        if not self.seats.is_human(seat):
            raise SessionError("That seat is played by the computer.")
        return self.game.view(seat)

    def play(self, seat: int, card: Card | int | str) -> list[Event]:
        """A person plays a card (raises :class:`SessionError` saying why not)."""
        view = self._person(seat)
        if isinstance(card, str):
            card = Card.parse(card)
        card = Card(card)
        problem = play_problem(view, card, self.game.why_illegal(card))
        if problem is not None:
            raise SessionError(problem)
        return apply_with_events(self.game, Play(seat, card))

    def pass_cards(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """A person passes cards, given in the order named (a card named twice and a
        card not held are refused with the reason)."""
        view = self._person(seat)
        named = [Card(card) for card in cards]
        problem = pass_problem(view, named)
        if problem is not None:
            raise SessionError(problem)
        return apply_with_events(self.game, Pass(seat, CardSet(named)))

    def choose_moon(self, seat: int, others_add: bool) -> list[Event]:
        problem = moon_problem(self._person(seat))
        if problem is not None:
            raise SessionError(problem)
        return apply_with_events(self.game, MoonChoice(seat, others_add))

    def apply(self, action: Action) -> list[Event]:
        """Any action, a person's (checked as above) or a computer player's."""
        if isinstance(action, Play) and self.seats.is_human(action.seat):
            return self.play(action.seat, action.card)
        if isinstance(action, Pass) and self.seats.is_human(action.seat):
            return self.pass_cards(action.seat, action.cards)
        if isinstance(action, MoonChoice) and self.seats.is_human(action.seat):
            return self.choose_moon(action.seat, action.others_add)
        return apply_with_events(self.game, action)

    def not_now(self, seat: int | None = None) -> str:
        return not_now(self.view(seat))

    # Undo, hints, memory aids ------------------------------------------------------

    def can_undo(self, seat: int | None = None) -> bool:
        """Undo is for a game against the computer: one person at the table."""
        seat = self.human if seat is None else seat
        return len(self.seats.humans) == 1 and can_undo(self.game, seat)

    def undo(self, seat: int | None = None) -> list[Event]:
        """Take back the person's last choice (raises :class:`SessionError`)."""
        seat = self.human if seat is None else seat
        if len(self.seats.humans) != 1:
            raise SessionError("Undo is only for a game against the computer.")
        return [undo_last_choice(self.game, seat, self.auto_play_one)]

    def hint(self, seat: int | None = None) -> Hint:
        """What the expert computer player would do in the person's place (raises
        :class:`~openhearts.session.hints.NoHint`); slow, so faces run it in a worker
        with a view taken first (:func:`~openhearts.session.hints.make_hint`)."""
        return make_hint(self.view(seat), seed=self.game.seed)

    def follow(self, hint: Hint) -> list[Event]:
        """Let the computer make the person's move: the hint's best choice, played,
        passed or chosen for the hint's seat (the "play for me" key).  A hint worked
        out for another turn is refused with :class:`SessionError`, so a face may work
        it out in a worker and follow it afterwards."""
        view = self._person(hint.seat)
        if hint.seat not in self.game.to_act():
            raise SessionError(not_now(view))
        if hint.turn is not None and hint.turn != turn_of(view):
            raise SessionError("That choice was worked out for an earlier turn: ask again.")
        best = hint.best
        if hint.kind is HintKind.PLAY:
            return self.play(hint.seat, best.card)
        if hint.kind is HintKind.PASS:
            return self.pass_cards(hint.seat, best.cards)
        assert best.others_add is not None
        return self.choose_moon(hint.seat, best.others_add)

    def play_for_me(self, seat: int | None = None) -> list[Event]:
        """The person's move made by the computer, as :meth:`follow` makes it, worked
        out now (raises :class:`~openhearts.session.hints.NoHint` when it is not the
        person's turn).

        >>> from openhearts import Rules
        >>> session = Session.new(Rules(), seed="1", names=["Ann"], level="random")
        >>> while session.step():
        ...     pass
        >>> [type(e).__name__ for e in session.play_for_me()]
        ['CardsPassed', 'PassesExchanged']
        """
        return self.follow(self.hint(seat))

    def memory(self, seat: int | None = None) -> MemoryAids:
        return memory_aids(self.view(seat))

    def close(self) -> None:
        """Let the computer players free what they hold (an outside program, worker
        processes), once the face is done with this game."""
        for bot in self.seats.bots.values():
            close_bot(bot)


def _seat_called(names: Sequence[str], name: str | None) -> int | None:
    """The seat of the player called ``name`` (its case aside), if any.

    >>> _seat_called(("Ann", "Bob"), "bob"), _seat_called(("Ann", "Bob"), "Cy")
    (1, None)
    """
    if name is None:
        return None
    wanted = clean_name(name, "").casefold()
    return next((seat for seat, had in enumerate(names) if had.casefold() == wanted), None)


def _no_other_you(names: Sequence[str], people: Sequence[int], direction: str) -> tuple[str, ...]:
    """The names with a computer player called "You" (in a record made from another
    seat) given its compass name, so that no computer player is announced as "You".

    >>> _no_other_you(("You", "West", "North", "East"), (2,), "clockwise")
    ('South', 'West', 'North', 'East')
    """
    compass = seat_names(len(names), direction)
    renamed = list(names)
    for seat, name in enumerate(names):
        if seat not in people and name.casefold() == "you":
            renamed[seat] = unique_name(compass[seat], renamed[:seat] + renamed[seat + 1 :])
    return tuple(renamed)
