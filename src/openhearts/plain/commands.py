"""The commands typed at any prompt of the plain game: the same keys as the other
faces (:mod:`openhearts.session.keys`), or their words."""

from __future__ import annotations

import shlex

from ..cards import Suit
from ..game import Game, PlayerView
from ..options import file_name_problem
from ..phases import Phase
from ..sentences import spoken
from ..sentences.advice import after_chosen, chosen_line, hint_lines
from ..sentences.records import deal_summary, review_trick_line
from ..session import NoHint, SessionError
from ..session.checks import no_hint_now
from ..session.keys import KEYS, Command, command_for_word
from ..session.memory import hearts_sentence
from ..session.outcome import Ending
from ..session.review import DealReview, deal_reviews, opening_deal
from ..session.statistics import load_stats
from ..session.words import as_sentence
from .console import Stop
from .scores import show_history
from .table import Table

__all__ = ["HELP", "run_command", "show_hand", "show_trick"]


def _help() -> str:
    lines = [
        "Commands (type them at any prompt; a letter does the same as its word):",
        f"  {'a card':<20} "
        'play it: any spelling works, e.g. 5C, 5c, 10h, TH, Q♠, "queen of spades"',
    ]
    for key in KEYS:
        if not key.plain:
            continue
        names = [*key.words, *(k.lower() for k in key.keys)]
        lines.append(f"  {', '.join(names):<20} {key.description}")
    lines.append('When passing, name the cards together, e.g. "2c 5c QS".')
    lines.append("End of input (Ctrl-D), Ctrl-C or closing the terminal also saves the game.")
    return "\n".join(lines)


HELP = _help()


def run_command(plain: Table, text: str) -> bool:
    """Run a command; False when the text is not one (then it is read as cards)."""
    word, _, rest = text.strip().partition(" ")
    found = command_for_word(word)
    if found is None:
        return False
    command, number = found
    if command is Command.SAVE:
        _save(plain, rest.strip())
        return True
    if command is Command.TRICKS:
        _tricks(plain, rest.strip())
        return True
    if rest.strip():
        if len(word) == 1:
            return False  # a key letter or number: "2 c", "h 5" may be a card
        plain.say(f"'{word}' takes nothing after it: type '{word}' alone.")
        return True
    if command is Command.QUIT:
        raise Stop(Ending.QUIT)
    view = plain.session.view()
    if command is Command.READ_CARD:
        assert number is not None
        plain.say(spoken.table_item(view, number))
        return True
    handlers = {
        Command.HELP: lambda: _help_and_rules(plain),
        Command.READ_HAND: lambda: _hand(plain, view),
        Command.SHEET: lambda: _scores(plain, view),
        Command.LAST_TRICK: lambda: _last(plain),
        Command.MEMORY: lambda: _memory(plain, view),
        Command.WON: lambda: _won(plain, view),
        Command.UNDO: lambda: _undo(plain),
        Command.HINT: lambda: _hint(plain),
        Command.PLAY_FOR_ME: lambda: _play_for_me(plain),
        Command.RULES: lambda: _rules(plain),
        Command.READ_TABLE: lambda: plain.say(spoken.table(view)),
        Command.READ_SCORES: lambda: plain.say(spoken.scores(view)),
        Command.READ_TURN: lambda: plain.say(spoken.turn(view)),
        Command.STATS: lambda: _stats(plain),
    }
    handler = handlers.get(command)
    if handler is None:
        return False
    handler()
    return True


def show_trick(plain: Table, view: PlayerView) -> None:
    number = len(view.tricks) + 1
    if not view.trick:
        note = ""
        if not view.hearts_broken and any(c.suit is Suit.HEARTS for c in view.hand):
            # (view.hearts_broken is the rule's flag: true from the start where hearts
            # may be led at any time, so this never shows there.)
            note = " Hearts are not broken yet."
        plain.say(f"Trick {number}: you lead.{note}")
        return
    style = plain.console.style
    cards = ", ".join(f"{view.names[seat]} {style.card(card)}" for seat, card in view.trick)
    plain.say(f"Trick {number}: on the table: {cards}.")


def show_hand(plain: Table, view: PlayerView) -> None:
    style = plain.console.style
    marks = view.legal if view.phase == Phase.PLAYING and view.is_my_turn else None
    plain.say("Your hand:")
    for suit in Suit:
        cards = view.hand.of_suit(suit)
        ranks = " ".join(
            style.card(c)[:-1] + ("*" if marks is not None and c in marks else "") for c in cards
        )
        plain.say(f"  {style.suit(suit)}: {ranks or '-'}")


def _hand(plain: Table, view: PlayerView) -> None:
    if view.phase == Phase.PLAYING and view.is_my_turn:
        show_trick(plain, view)
    show_hand(plain, view)
    if view.legal:
        plain.say(f"You may play: {plain.console.style.cards(view.legal)}")


def _scores(plain: Table, view: PlayerView) -> None:
    game = plain.session.game
    if game.results or any(game.initial_scores):
        show_history(plain)
    else:
        plain.say("No deal has finished yet: every total is 0.")
    taken = ", ".join(f"{plain.who(s)} {p}" for s, p in enumerate(view.points_taken))
    plain.say(f"Points taken so far in deal {game.deal_number + 1}: {taken}.")


def _last(plain: Table) -> None:
    game = plain.session.game
    deal = _review_deal(game, "")
    if deal is None or not deal.tricks:
        plain.say("No trick has been played yet.")
        return
    where = "" if deal.number == game.deal_number else " of the previous deal"
    line = review_trick_line(plain.console.style, plain.names, deal.tricks[-1])
    plain.say(line.replace(f"Trick {len(deal.tricks)}:", f"Trick {len(deal.tricks)}{where}:", 1))


def _review_deal(game: Game, which: str) -> DealReview | None:
    """Deal ``which`` of the game's review, numbered as the deals are announced ("Deal
    3"), or by default the deal of the last trick played; None when there is no such
    deal."""
    reviews = deal_reviews(game)
    if not which:
        return reviews[opening_deal(reviews)]
    # Plain digits of a sensible length only ("²" is a digit to str.isdigit, not to int).
    if which.isascii() and which.isdigit() and len(which) <= 6:
        for review in reviews:
            if review.number + 1 == int(which):
                return review
    return None


def _tricks(plain: Table, which: str) -> None:
    """Every trick of a deal of this game: a replay of a finished deal, or the deal in
    progress so far."""
    game = plain.session.game
    deal = _review_deal(game, which)
    if deal is None:
        numbers = [review.number + 1 for review in deal_reviews(game)]
        first, last = min(numbers), max(numbers)
        deals = f"deal {first}" if first == last else f"deals {first} to {last}"
        shown = which if len(which) <= 24 else which[:20] + "…"
        plain.say(f"There is no deal '{shown}' to show: this game has {deals}.")
        return
    plain.say(deal_summary(plain.names, game.rules, deal))
    for trick in deal.tricks:
        plain.say("  " + review_trick_line(plain.console.style, plain.names, trick))


def _memory(plain: Table, view: PlayerView) -> None:
    """The memory aids: what has gone, what is still out, who lacks which suit."""
    aids = plain.session.memory()
    style = plain.console.style
    if not aids.played:
        plain.say("No card has been played yet in this deal.")
    else:
        plain.say(f"Played in deal {aids.deal + 1}:")
        for suit in Suit:
            gone = style.cards(aids.played_of(suit)) or "-"
            out = style.cards(aids.unseen_of(suit)) or "-"
            plain.say(f"  {style.suit(suit)}: {gone}   (not seen yet: {out})")
    if aids.still_out_from_pass and aids.pass_target is not None:
        plain.say(
            f"Still out from your pass to {view.names[aids.pass_target]}: "
            f"{style.cards(aids.still_out_from_pass)}."
        )
    voids = [f"{view.names[v.seat]} has no {v.suit.word}" for v in aids.voids]
    plain.say("Known voids: " + ("; ".join(voids) if voids else "none yet") + ".")
    plain.say(hearts_sentence(view))
    taken = ", ".join(f"{plain.who(s)} {p}" for s, p in enumerate(aids.points_taken))
    plain.say(f"Points taken this deal: {taken}.")


def _won(plain: Table, view: PlayerView) -> None:
    style = plain.console.style
    for seat in range(view.players):
        won = view.won[seat]
        verb = "have" if seat == view.seat else "has"
        plain.say(f"{plain.who(seat)} {verb} won {style.cards(won) if won else 'nothing'}.")


def _undo(plain: Table) -> None:
    try:
        events = plain.session.undo()
    except SessionError as error:
        plain.say(str(error))
        return
    plain.tell(events)
    plain.skip_auto = True


def _hint(plain: Table) -> None:
    session = plain.session
    view = session.view()
    if session.human not in session.game.to_act():
        plain.say(no_hint_now(view))
        return
    plain.say("Thinking...")
    try:
        hint = session.hint()
    except NoHint as error:
        plain.say(str(error))
        return
    except Exception as error:  # a hint must never end the game
        plain.say(f"No hint this time ({error}).")
        return
    for line in hint_lines(hint, plain.console.style, [plain.who(s) for s in range(view.players)]):
        plain.say(line)


def _play_for_me(plain: Table) -> None:
    session = plain.session
    if session.human not in session.game.to_act():
        plain.say(session.not_now())
        return
    plain.say("Thinking...")
    try:
        hint = session.hint()
        events = session.follow(hint)
    except (NoHint, SessionError) as error:
        plain.say(str(error))
        return
    except Exception as error:  # the computer's choice must never end the game
        plain.say(f"The computer could not choose this time ({error}).")
        return
    plain.say(chosen_line(hint, plain.console.style))
    plain.tell(after_chosen(hint, events))


def _help_and_rules(plain: Table) -> None:
    # As the terminal and web games' help: the rules in force end it.
    plain.say(HELP)
    _rules(plain)


def _rules(plain: Table) -> None:
    plain.say("The rules of this game:")
    for line in plain.session.game.rules.describe():
        plain.say(f"  {line}")


def _stats(plain: Table) -> None:
    stats = load_stats()
    if stats.note:
        plain.say(as_sentence(stats.note))
    for line in stats.lines():
        plain.say(line)


def _save(plain: Table, path: str) -> None:
    # A quoted name is read as a shell reads it (people quote names with spaces); an
    # unquoted one is taken as typed, spaces and all.
    if path[:1] in ("'", '"'):
        try:
            words = shlex.split(path)
        except ValueError:
            words = []
        if len(words) != 1:
            plain.say("Give one file name to save to, in quotes if it has spaces.")
            return
        path = words[0]
    problem = file_name_problem(path) if path else None  # none: the game's own file
    if problem is not None:
        plain.say(f"Give {problem}.")
        return
    saved, said = plain.slot.save(plain.session, path)
    if said is not None:
        plain.say(said)
    if saved is not None:
        plain.say(f"The game is saved in {saved}.")
