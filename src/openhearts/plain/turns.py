"""The person's turns in the plain game: naming cards to pass, a card to play, a moon
choice.  Anything typed that is not a card is tried as a command first."""

from __future__ import annotations

from ..cards import Card, CardParseError, CardSet, Rank, Suit
from ..phases import Phase
from ..sentences import direction_words
from ..session import SessionError
from ..session.checks import typed_cards
from ..session.keys import command_for_word
from ..session.words import as_sentence, counted
from .commands import run_command, show_hand, show_trick
from .table import Table

__all__ = ["human_pass", "human_play", "human_moon"]


def _example(cards: CardSet, count: int) -> str:
    return " ".join(str(c).replace("T", "10") for c in cards.cards()[-count:])


def _named_cards(plain: Table, prompt: str, help_text: str) -> list[Card] | None:
    """Ask until the answer names cards (commands are run on the way); None when a
    command changed the game (an undo), so the turn starts again from the position now."""
    session = plain.session
    while True:
        text = plain.console.ask(prompt)
        if not text:
            plain.say(help_text)
            continue
        actions = len(session.game.actions)
        if run_command(plain, text):
            if len(session.game.actions) != actions:
                return None
            continue
        try:
            return typed_cards(text)
        except CardParseError as error:
            plain.say(_unread(text, error))


#: Words that may start a card typed in words ("queen of spades", "hearts 10").
_CARD_WORDS = frozenset([rank.word for rank in Rank] + [suit.word for suit in Suit] + ["of"])


def _unread(text: str, error: CardParseError) -> str:
    """Why a line is not cards: a word that is no card and no command is told as such."""
    words = text.split()
    first = words[0].casefold()
    if first.isalpha() and len(first) > 2 and first not in _CARD_WORDS:
        shown = words[0][:20]
        return f"'{shown}' is neither a card nor a command: type 'help' for the commands."
    if len(words) > 1 and len(first) == 1 and command_for_word(first) is not None:
        # "g now": a key letter with words after it is tried as cards ("h 5" is one), so
        # the letter alone is what gives the command.
        return f"{as_sentence(str(error))} For the command '{words[0]}', type it alone."
    return as_sentence(str(error))


def human_pass(plain: Table) -> None:
    # An undo that came back to the pass is over: after it, auto play one plays again.
    plain.skip_auto = False
    session = plain.session
    view = session.view()
    assert view.pass_target is not None
    count = view.rules.cards_passed
    target = view.names[view.pass_target]
    show_hand(plain, view)
    prompt = f"Pass {counted(count, 'card')} {direction_words(view.pass_direction)} ({target}): "
    example = f"Name {counted(count, 'card')} from your hand, e.g. {_example(view.hand, count)}"
    while (cards := _named_cards(plain, prompt, f"{example}; or type 'help'.")) is not None:
        try:
            events = session.pass_cards(plain.me, cards)
        except SessionError as error:
            plain.say(str(error))
            continue
        plain.tell(events)
        return


def human_play(plain: Table) -> None:
    session = plain.session
    if not plain.skip_auto:
        events = session.auto_play()
        if events:
            plain.tell(events)
            return
    plain.skip_auto = False
    view = session.view()
    legal = view.legal
    show_trick(plain, view)
    show_hand(plain, view)
    plain.say(f"You may play: {plain.console.style.cards(legal)}")
    example = f"Type a card, e.g. {_example(legal, 1)}, or 'help'."
    while (cards := _named_cards(plain, "Your card: ", example)) is not None:
        if len(cards) != 1:
            plain.say("Play one card at a time.")
            continue
        try:
            events = session.play(plain.me, cards[0])
        except SessionError as error:
            plain.say(str(error))
            if cards[0] in view.hand:
                plain.say(f"You may play: {plain.console.style.cards(legal)}")
            continue
        plain.tell(events)
        return


def human_moon(plain: Table) -> None:
    # An undo that came back to the moon choice is over too: the next deal's forced
    # cards are played for the person again.
    plain.skip_auto = False
    session = plain.session
    game = session.game
    total = game.rules.points_in_play
    suggested = game.suggested_moon_choice()
    default = "add" if suggested else "subtract"
    plain.say(
        f"You shot the moon! Choose: 'add' gives everyone else {total} points, "
        f"'subtract' takes {total} off your own total. The usual choice here is {default}."
    )
    while True:
        typed = plain.console.ask(f"add or subtract [{default}]: ")
        text = typed.lower()
        if text in ("", "default"):
            others_add = suggested
        elif text in ("a", "add", "others", "others add"):
            others_add = True
        elif text in ("sub", "subtract", "minus"):
            others_add = False
        elif run_command(plain, typed):
            if game.phase != Phase.MOON_CHOICE or game.current_player != plain.me:
                return
            continue
        else:
            plain.say("Type 'add' or 'subtract' (or press Enter for the usual choice).")
            continue
        plain.tell(session.choose_moon(plain.me, others_add))
        return
