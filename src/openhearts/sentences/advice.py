"""Hints in sentences: the recommendation first, then every choice in the order the
hint ranks them, each with the numbers it is ranked by.

>>> from openhearts.session.hints import Hint, HintKind, HintOption
>>> option = lambda card, points, margin: HintOption(
...     cards=CardSet.parse(card), points=points, rank_value=margin)
>>> hint = Hint(HintKind.PLAY, (option("8C", 2.6, -1.3), option("QC", 2.5, 0.4)), seat=0)
>>> hint_line(hint, Style(), ("You", "West", "North", "East"))
'Hint: play the 8♣ (about 2.6 points to take, -1.3 against the others). Next: Q♣ 2.5 (+0.4).'
>>> chosen_line(hint, Style())
'The computer plays the 8♣ for you.'
>>> passes = Hint(HintKind.PASS, (option("QS KH AH", 3.1, -2.0), option("KH AH AD", 4, 0.2)), 0)
>>> hint_lines(passes, Style(), ("You", "West", "North", "East"))[2:]
['  Q♠ K♥ A♥: 3.1 (-2.0)', '  A♦ K♥ A♥: 4.0 (+0.2)']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import CardSet
from ..session.events import CardPlayed, CardsPassed, Event
from ..session.hints import Hint, HintKind, HintOption
from ..session.words import join_words
from .style import Style

__all__ = ["chosen_line", "after_chosen", "hint_line", "hint_lines", "TOP"]

#: How many ranked choices the one-line hint names.
TOP = 3


def _cards(style: Style, cards: CardSet) -> str:
    return join_words([f"the {style.card(card)}" for card in cards])


def _totals(names: Sequence[str], option: HintOption) -> str:
    assert option.totals is not None
    return ", ".join(f"{name} {total}" for name, total in zip(names, option.totals, strict=True))


def _moon_points(hint: Hint) -> int:
    best, other = hint.options
    assert best.totals is not None and other.totals is not None
    # Adding leaves your own total as it is; subtracting moves it by the points in play.
    return abs(best.totals[hint.seat] - other.totals[hint.seat])


def _moon_line(hint: Hint, names: Sequence[str]) -> str:
    best = hint.best
    points = _moon_points(hint)
    if best.others_add:
        return (
            f"Hint: let everyone else add {points} (totals then: {_totals(names, best)}): "
            "it leaves you alone with the lowest total."
        )
    return (
        f"Hint: subtract {points} from your own total (totals then: {_totals(names, best)}): "
        "adding would not leave you alone with the lowest total."
    )


def _value(option: HintOption) -> str:
    return f"{option.points:.1f} ({option.rank_value:+.1f})"


def hint_line(hint: Hint, style: Style, names: Sequence[str]) -> str:
    """The hint in one sentence (the status line, the announcements)."""
    if hint.kind == HintKind.MOON:
        return _moon_line(hint, names)
    best = hint.best
    if best.points is None or best.rank_value is None:
        # A pass hint without numbers: no simulation to rank by.
        return f"Hint: pass {_cards(style, best.cards)}."
    text = (
        f"Hint: {hint.kind} {_cards(style, best.cards)} (about {best.points:.1f} points to take, "
        f"{best.rank_value:+.1f} against the others)."
    )
    if hint.kind == HintKind.PASS:
        # A pass names several cards, so its choices need a stronger separator.
        others = [f"{style.listing(o.cards)} {_value(o)}" for o in hint.options[1:TOP]]
        separator = "; "
    else:
        others = [f"{style.card(o.card)} {_value(o)}" for o in hint.options[1:TOP]]
        separator = ", "
    if others:
        text += " Next: " + separator.join(others) + "."
    return text


def hint_lines(hint: Hint, style: Style, names: Sequence[str]) -> list[str]:
    """The hint with every choice, best first (the plain game)."""
    if hint.kind == HintKind.MOON or hint.best.points is None:
        return [hint_line(hint, style, names)]
    best = hint.best
    every = "card" if hint.kind == HintKind.PLAY else "pass it weighed"
    # A card's number holds the expert's fear of moons: without a word, a likely moon
    # by another player showed +34.7 "against the others" where the deal gave +8.7.
    feared = (
        ", another player's moon counting its full points once more"
        if hint.kind == HintKind.PLAY
        else ""
    )
    lines = [
        f"Hint: the strongest computer player would {hint.kind} {_cards(style, best.cards)}.",
        f"Every {every}, best first: the points you can expect to take in the rest of this "
        f"deal, and in brackets those points against the others' average{feared} (lower is "
        "better):",
    ]
    lines += [f"  {style.cards(option.cards)}: {_value(option)}" for option in hint.options]
    return lines


def chosen_line(hint: Hint, style: Style) -> str:
    """What the computer did in the person's place (the "play for me" key)."""
    if hint.kind == HintKind.MOON:
        points = _moon_points(hint)
        if hint.best.others_add:
            return f"The computer chooses for you: everyone else adds {points}."
        return f"The computer chooses for you: you subtract {points} from your own total."
    verb = "plays" if hint.kind == HintKind.PLAY else "passes"
    return f"The computer {verb} {_cards(style, hint.best.cards)} for you."


def after_chosen(hint: Hint, events: Iterable[Event]) -> list[Event]:
    """The events of following ``hint`` that :func:`chosen_line` does not already say:
    all but the person's own card or pass, which the line names."""
    return [
        event
        for event in events
        if not (isinstance(event, CardPlayed | CardsPassed) and event.seat == hint.seat)
    ]
