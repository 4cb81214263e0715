"""``hearts replay FILE``: a saved game printed deal by deal and trick by trick.

The record is loaded (which replays and checks every action), then printed as plain
lines: the rules, the hands as dealt, the passes, every trick with who took it and its
points, each deal's points and the totals, and the winners.  An unfinished game is
printed as far as it goes and said to be unfinished.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .cards import Card, CardSet
from .convert import load_any
from .deal import DealState
from .game import DealResult, Game, TrickRecord
from .options import file_name
from .record import RecordError
from .sentences import Style, direction_words, shot_line, supports_symbols, table, trick_line
from .sentences.records import acts
from .session.names import columns, padded
from .session.words import plural

__all__ = ["add_arguments", "run", "replay_lines"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        type=file_name,
        metavar="FILE",
        help="a game record (from hearts play or save), JSON or PBN-style text",
    )
    parser.add_argument(
        "--no-hands", dest="hands", action="store_false", help="leave out the hands and passes"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="write suits as letters (C D S H), not symbols"
    )


def run(args: argparse.Namespace) -> int:
    try:
        game = load_any(args.file)
    except RecordError as error:
        message = f"hearts replay: {args.file}: {error}"
        print(Style(supports_symbols(sys.stderr)).for_stream(message, sys.stderr), file=sys.stderr)
        return 2
    style = Style(supports_symbols(sys.stdout) and not args.ascii)
    for line in replay_lines(game, style, hands=args.hands):
        print(style.for_stream(line, sys.stdout))
    return 0


def replay_lines(game: Game, style: Style | None = None, *, hands: bool = True) -> list[str]:
    """The whole game as lines of text.

    >>> from openhearts.bots import act, make_bot
    >>> game = Game(seed=1)
    >>> bots = [make_bot("random", s) for s in range(4)]
    >>> for _ in range(16):
    ...     act(game, game.to_act()[0], bots[game.to_act()[0]])
    >>> lines = replay_lines(game)
    >>> lines[-1]
    'The game is unfinished: deal 1 is in progress, trick 4, South to play.'
    """
    if not isinstance(game, Game):
        # A file name failed on its missing .rules.
        hint = " (openhearts.record.load reads a file)" if isinstance(game, str) else ""
        raise TypeError(f"replay_lines: a Game, not {game!r}{hint}")
    style = style or Style()
    rules = game.rules
    names = list(game.names)
    lines = [f"A game of Hearts: {', '.join(names)} (in order of play). Seed {game.seed}."]
    lines += ["Rules:"] + [f"  {line}" for line in rules.describe()]
    if any(game.initial_scores):
        lines.append("Starting totals: " + _scores(names, game.initial_scores) + ".")
    totals = list(game.initial_scores)
    states = game.deal_states()
    for index, state in enumerate(states):
        result = game.results[index] if index < len(game.results) else None
        lines.append("")
        lines += _deal_lines(game, state, result, style, hands)
        if result is not None:
            totals = [a + b for a, b in zip(totals, result.points, strict=True)]
            shot = shot_line(names, rules, result)
            if shot:
                lines.append(f"  {shot}")
            rows = [[name, result.points[s], totals[s]] for s, name in enumerate(names)]
            lines += [f"  {text}" for text in table(["", "This deal", "Total"], rows)]
    lines.append("")
    if game.is_over:
        winners = game.winners
        low = game.scores[winners[0]]
        who = _join([names[s] for s in winners])
        verdict = acts(who, "win") if len(winners) == 1 else f"{who} share the win"
        deals = plural(len(game.results), "deal")
        lines.append(f"Game over after {deals}: {verdict} with {plural(low, 'point')}.")
    else:
        lines.append("The game is unfinished: " + _where(game) + ".")
    return lines


def _deal_lines(
    game: Game, state: DealState, result: DealResult | None, style: Style, hands: bool
) -> list[str]:
    rules = game.rules
    names = list(game.names)
    number = state.deal_number
    players = rules.players
    direction = rules.pass_direction(number) if state.pass_offset else "hold"
    passing = "a hold hand" if direction == "hold" else f"passing {direction_words(direction)}"
    lines = [f"Deal {number + 1}: {acts(names[rules.dealer(number)], 'deal')}, {passing}."]
    if hands:
        lines.append("  Hands as dealt:")
        # Columns, not letters: a name in Chinese put its hand out of line with the rest.
        width = max(columns(n) for n in names)
        for seat, hand in enumerate(state.dealt):
            name = padded(names[seat], width, left=True)
            lines.append(f"    {name}  {style.cards(CardSet(hand))}")
        if state.pass_offset:
            for seat, passed in enumerate(state.passes):
                target = names[(seat + state.pass_offset) % players]
                if passed is None:
                    lines.append(f"  {acts(names[seat], 'have')} not passed yet.")
                else:
                    cards = style.cards(CardSet(passed))
                    lines.append(f"  {acts(names[seat], 'pass')} {cards} to {target}.")
    for index, (leader, played, winner) in enumerate(state.tricks, start=1):
        trick = TrickRecord(leader, tuple(Card(c) for c in played), winner)
        lines.append("  " + trick_line(style, names, rules, index, trick))
    if state.trick:
        plays = ", ".join(
            f"{names[(state.leader + i) % players]} {style.card(Card(c))}"
            for i, c in enumerate(state.trick)
        )
        lines.append(f"  Trick {len(state.tricks) + 1} (in progress): {plays}.")
    return lines


def _where(game: Game) -> str:
    number = game.deal_number + 1
    if game.phase == "passing":
        waiting = _join([game.names[s] for s in game.to_act()])
        return f"deal {number} is in progress, waiting for {waiting} to pass"
    if game.phase == "moon_choice":
        shooter = game.current_player
        assert shooter is not None
        # Not "<name> has not chosen": the plain game names its player "You".
        name = game.names[shooter]
        return f"deal {number} is over; the moon's scoring is still to be chosen by {name}"
    mover = game.current_player
    assert mover is not None
    trick = len(game.view(mover).tricks) + 1
    return f"deal {number} is in progress, trick {trick}, {game.names[mover]} to play"


def _scores(names: Sequence[str], scores: Sequence[int]) -> str:
    return ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
