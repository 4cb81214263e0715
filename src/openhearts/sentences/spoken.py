"""Sentences about the table as it is now: the status line, the reading keys (C, 1-6,
S, T, R), the memory aids.

Everything a sighted player sees on the table can be said with these; they take a
:class:`~openhearts.view.PlayerView` (so they never tell one seat's hidden cards) and
the seat the sentence is for, which they call "you".

>>> from openhearts import Game
>>> game = Game(seed=1, names=["You", "West", "North", "East"])
>>> view = game.view(0)
>>> status(view)
'Pass three cards to the left, to West: select them, then press P.'
>>> played(view, 1, Card.parse("QS"))
'West played the queen of spades.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, CardSet, Suit
from ..game import GAME_OVER, MOON_CHOICE, PASSING, PLAYING, PlayerView, TrickRecord
from ..session.memory import hearts_broken, hearts_sentence, known_voids
from ..session.points import card_points as points_of
from ..session.words import counted, join_words, number_word, plural

__all__ = [
    "number_word",
    "who",
    "subject",
    "card_points",
    "played",
    "trick_taken",
    "status",
    "turn",
    "table",
    "table_item",
    "scores",
    "hand",
    "pass_phrase",
    "cards_words",
    "memory",
]


def who(view: PlayerView, seat: int) -> str:
    """A seat's name, or "you" for the viewer (lower case, for mid-sentence)."""
    return "you" if seat == view.seat else view.names[seat]


def subject(view: PlayerView, seat: int) -> str:
    """A seat's name at the start of a sentence."""
    return "You" if seat == view.seat else view.names[seat]


def card_points(cards: Iterable[int], view: PlayerView) -> int:
    """Points of some cards under the view's rules (J♦ bonus included when in force)."""
    return points_of(view.rules, cards)


def cards_words(cards: Iterable[Card]) -> str:
    """``the two of clubs, the queen of spades and the ace of hearts``."""
    names = [f"the {card.name}" for card in cards]
    if not names:
        return "nothing"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def played(view: PlayerView, seat: int, card: Card) -> str:
    return f"{subject(view, seat)} played the {card.name}."


def _points_words(points: int) -> str:
    if points == 0:
        return "no points"
    return f"{points} point{'s' if abs(points) != 1 else ''}"


def trick_taken(view: PlayerView, trick: TrickRecord) -> str:
    """Who took a finished trick, with which card and for how many points."""
    winning = trick.cards[(trick.winner - trick.leader) % view.players]
    verb = "take" if trick.winner == view.seat else "takes"
    points = card_points(trick.cards, view)
    return (
        f"{subject(view, trick.winner)} {verb} the trick with the {winning.name}: "
        f"{_points_words(points)}."
    )


def pass_phrase(view: PlayerView) -> str:
    """``to the left, to West``."""
    direction = view.pass_direction
    target = view.pass_target
    name = view.names[target] if target is not None else "nobody"
    if direction in ("left", "right", "across"):
        where = "across" if direction == "across" else f"to the {direction}"
    elif direction.startswith(("left", "right")):
        side = "left" if direction.startswith("left") else "right"
        distance = direction[len(side) :]
        where = f"to the player {distance} seats to your {side}"
    else:
        where = f"to the {direction}"
    return f"{where}, to {name}"


def _lead_phrase(view: PlayerView) -> str:
    if not view.tricks and not view.trick:
        return f"lead the {view.rules.first_lead_card.pretty}"
    return "lead"


def status(view: PlayerView, selected: int = 0) -> str:
    """What is going on and what you must do, in one line."""
    if view.phase == GAME_OVER:
        low = min(view.scores)
        winners = [subject(view, s) for s, v in enumerate(view.scores) if v == low]
        if view.seat in [s for s, v in enumerate(view.scores) if v == low]:
            return "Game over: you win!" if len(winners) == 1 else "Game over: you share the win."
        return f"Game over: {join_words(winners)} win{'s' if len(winners) == 1 else ''}."
    if view.phase == PASSING:
        count = view.rules.cards_passed
        if view.passed is None:
            # The count before the rest: a narrow status line cuts the end of it.
            if not selected:
                then = "select it, then press P." if count == 1 else "select them, then press P."
            elif selected < count:
                then = f"{selected} of {count} chosen."
            elif count == 1:
                then = "chosen, press P."
            else:
                then = f"all {number_word(count)} chosen, press P."
            return f"Pass {counted(count, 'card')} {pass_phrase(view)}: {then}"
        return "Waiting for the others to pass."
    if view.phase == MOON_CHOICE:
        if view.to_move == view.seat:
            return "You shot the moon! Choose how it scores."
        return f"{subject(view, view.to_move or 0)} shot the moon and is choosing how it scores."
    assert view.phase == PLAYING
    mover = view.to_move if view.to_move is not None else 0
    broken = " Hearts are broken." if hearts_broken(view) else ""
    if mover == view.seat:
        if not view.trick:
            text = f"Your turn: {_lead_phrase(view)}."
            if len(view.legal) == 1:
                text = f"Your turn: lead the {next(iter(view.legal)).pretty}."
        else:
            led = view.trick[0][1].suit
            follow = any(card.suit == led for card in view.hand)
            text = (
                f"Your turn: follow {led.word}."
                if follow
                else f"Your turn: you have no {led.word}."
            )
        return text + broken
    if not view.trick:
        if not view.tricks:
            return f"{subject(view, mover)} leads the {view.rules.first_lead_card.pretty}." + broken
        return f"{subject(view, mover)} to lead." + broken
    return f"{subject(view, mover)} to play." + broken


def turn(view: PlayerView) -> str:
    """The ``T`` key: whose turn it is."""
    if view.phase == PASSING:
        if view.passed is None:
            return f"Your turn to pass {counted(view.rules.cards_passed, 'card')} " + (
                pass_phrase(view) + "."
            )
        return "Everyone is passing."
    if view.phase == GAME_OVER:
        return status(view)
    mover = view.to_move if view.to_move is not None else 0
    if view.phase == MOON_CHOICE:
        return status(view)
    if mover == view.seat:
        what = "lead" if not view.trick else f"play on {view.trick[0][1].suit.word}"
        return f"It is your turn to {what}."
    what = "lead" if not view.trick else "play"
    return f"It is {view.names[mover]}'s turn to {what}."


def _last_trick(view: PlayerView) -> TrickRecord | None:
    return view.tricks[-1] if view.tricks else None


def table(view: PlayerView) -> str:
    """The ``C`` key: the cards on the table, in play order."""
    if view.trick:
        plays = ", ".join(f"{who(view, seat)} the {card.name}" for seat, card in view.trick)
        return f"On the table: {plays}."
    last = _last_trick(view)
    if last is None:
        return "No cards on the table."
    plays = ", ".join(
        f"{who(view, seat)} the {card.name}" for seat, card in last.plays(view.players)
    )
    return f"No cards on the table. Last trick: {plays}. " + trick_taken(view, last)


def table_item(view: PlayerView, index: int) -> str:
    """The ``1``-``6`` keys: one card on the table (1 is the card led)."""
    trick = view.trick
    source = "the table"
    if not trick and view.tricks:
        trick = tuple(view.tricks[-1].plays(view.players))
        source = "the last trick"
    if not 1 <= index <= len(trick):
        return f"No card {index} on {source}."
    seat, card = trick[index - 1]
    return f"{index}: {who(view, seat)}, the {card.name}."


def scores(view: PlayerView) -> str:
    """The ``S`` key: totals, and the points taken in this deal."""
    totals = ", ".join(f"{who(view, s)} {view.scores[s]}" for s in range(view.players))
    taken = ", ".join(f"{who(view, s)} {view.points_taken[s]}" for s in range(view.players))
    text = f"Scores: {totals}."
    if view.phase != GAME_OVER and (view.tricks or view.trick):
        text += f" This deal so far: {taken}."
    text += f" The game ends at {view.rules.end_score}."
    return text[0].upper() + text[1:]


def _suit_words(cards: Sequence[Card]) -> str:
    ranks = [card.rank.word for card in cards]
    if len(ranks) == 1:
        return ranks[0]
    return ", ".join(ranks[:-1]) + " and " + ranks[-1]


def hand(view: PlayerView, selected: CardSet | None = None) -> str:
    """The hand-reading key: the hand by suit, then the cards you may play."""
    if not view.hand:
        return "Your hand is empty."
    parts = []
    for suit in Suit:
        cards = view.hand.of_suit(suit).cards()
        if cards:
            parts.append(f"{suit.word}: {_suit_words(cards)}")
    suits = "; ".join(parts)
    # A new sentence: "Clubs: two ...", not "clubs".
    text = f"Your hand, {plural(len(view.hand), 'card')}. {suits[0].upper()}{suits[1:]}."
    if view.phase == PLAYING and view.to_move == view.seat and view.legal != view.hand:
        text += f" You may play {cards_words(view.legal)}."
    if selected:
        text += f" Chosen to pass: {cards_words(selected)}."
    return text


def memory(view: PlayerView) -> list[str]:
    """The ``M`` key: what has been played this deal, suit by suit, what is still out, the
    known voids, whether hearts are broken and the points taken so far."""
    played_cards = view.played
    if not played_cards:
        sentences = ["No cards have been played yet in this deal."]
        if view.phase == PLAYING:
            sentences.append(f"All {len(view.unseen)} cards you have not seen are still out.")
        return sentences
    complete = len(view.tricks)
    sentences = [
        f"{plural(len(played_cards), 'card')} played so far, "
        f"{number_word(complete)} trick{'s' if complete != 1 else ''} complete."
    ]
    unseen = view.unseen
    # The dialog's order: the point suits first.
    for suit in reversed(Suit):
        done = played_cards.of_suit(suit).cards()
        out = unseen.of_suit(suit).cards()
        done_words = _suit_words(done) if done else "none"
        out_words = _suit_words(out) if out else "none"
        sentences.append(
            f"{suit.word.capitalize()}: played {done_words}; not yet seen {out_words}."
        )
    if view.passed and view.received is not None and view.pass_target is not None:
        still = view.passed & unseen
        if still:
            sentences.append(
                f"Still out from your pass to {view.names[view.pass_target]}: {cards_words(still)}."
            )
    voids = known_voids(view)
    for void in voids:
        shown = f" (shown on trick {void.trick})" if void.trick is not None else ""
        sentences.append(f"{view.names[void.seat]} has no {void.suit.word}{shown}.")
    if not voids:
        sentences.append("No one is known to be out of a suit yet.")
    sentences.append(hearts_sentence(view))
    taken = ", ".join(f"{who(view, s)} {view.points_taken[s]}" for s in range(view.players))
    sentences.append(f"Points taken this deal: {taken}.")
    return sentences
