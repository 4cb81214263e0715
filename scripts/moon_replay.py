"""Could the first bot of an arena run have stopped the other players' moons?

Reads an arena log (``hearts arena ... --out PATH`` writes ``PATH.jsonl``), picks moons
shot against the first bot of the line-up, replays each deal exactly (the bots are
repeatable), then tries every other legal card at each of that bot's plays, in order,
with the seat then played on by ``hard`` and every other seat by its own bot, until one
change leaves the shooter without its moon.  It reports where that change came, if any.

    python scripts/moon_replay.py docs/arena/expert/expert-lookahead3-vs-hard.jsonl \
        --boards 600 --sample 40 --seed 1

A change that removes the moon on the first trick, long before anyone has a point, says
that the moon turned on the shooter's own chances rather than on a plan the others
could have seen and stopped.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openhearts import Game, Rules, RulesError
from openhearts.actions import Action, Play
from openhearts.arena import ArenaError, BotSpec, read_results
from openhearts.bots import Bot, act
from openhearts.cards import Card, cards_of

Moon = tuple[int, int, int]  # board, rotation, shooter's seat


class LogError(ValueError):
    """A file that is not an arena log of deals."""


def read_records(path: Path) -> tuple[dict[str, Any], dict[int, tuple[int, dict[str, Any]]]]:
    """The match of the arena log of deals at ``path`` and its boards' records, each with
    its line number (:func:`openhearts.arena.read_results`); :class:`LogError` if none."""
    try:
        return read_results(path, deals_only=True)
    except OSError as error:
        raise LogError(f"{path}: not an arena results log ({error.strerror})") from None
    except ArenaError as error:
        raise LogError(str(error)) from None


def moons_against_first(records: Sequence[dict[str, Any]], players: int) -> list[Moon]:
    """Moons in the log by a seat not held by the first bot of the line-up."""
    found = []
    for record in records:
        for rotation, result in enumerate(record["rotations"]):
            for shooter, shot in result["shots"]:
                # The first bot sits in seat ``rotation`` (the line-up shifted that far).
                if shot == "moon" and shooter != rotation % players:
                    found.append((record["board"], rotation, shooter))
    return found


class Replay:
    """The deals and bots of one arena match, rebuilt as the arena builds them."""

    def __init__(self, match: dict[str, Any]) -> None:
        """
        :raises ArenaError: for a line-up that does not fit the rules, or names no bot.
        :raises RulesError: for rules that are not rules.
        """
        self.rules = Rules.from_dict(match["rules"])
        self.lineup = [BotSpec(str(text)) for text in match["lineup"]]
        if len(self.lineup) != self.rules.players:
            raise ArenaError(f"{len(self.lineup)} bots for {self.rules.players} seats")
        for spec in self.lineup:
            spec.parts()
        self.seed = match["seed"]

    def game(self, board: int) -> Game:
        cycle = len(self.rules.pass_cycle or ("hold",))
        return Game(self.rules, seed=f"{self.seed}:{board}", first_deal=board % cycle)

    def bots(self, board: int, rotation: int, first_as_hard: bool = False) -> list[Bot]:
        players = self.rules.players
        bots = []
        for seat in range(players):
            spec = self.lineup[(seat - rotation) % players]
            if first_as_hard and (seat - rotation) % players == 0:
                spec = BotSpec("hard")
            bots.append(spec.build(f"{self.seed}:{board}:{rotation}:{seat}"))
        return bots

    def finish(self, game: Game, bots: Sequence[Bot]) -> None:
        while not game.results:
            seat = game.to_act()[0]
            act(game, seat, bots[seat])


def first_stop(replay: Replay, moon: Moon) -> tuple[int, str, str] | None:
    """(trick, card played, card that stops the moon) for the first change of one card
    of the first bot's seat that leaves the shooter without its moon, or None."""
    board, rotation, shooter = moon
    seat = rotation % replay.rules.players
    game = replay.game(board)
    replay.finish(game, replay.bots(board, rotation))
    actions: list[Action] = list(game.actions)
    plays = 0
    for index, action in enumerate(actions):
        if not isinstance(action, Play):
            continue
        plays += 1
        if action.seat != seat:
            continue
        before = replay.game(board)
        for earlier in actions[:index]:
            before.apply(earlier)
        for card in cards_of(before.legal_mask()):
            if card == int(action.card):
                continue
            changed = replay.game(board)
            for earlier in actions[:index]:
                changed.apply(earlier)
            changed.play(card, seat)
            replay.finish(changed, replay.bots(board, rotation, first_as_hard=True))
            result = changed.results[0]
            if result.shot != "moon" or result.shooter != shooter:
                trick = (plays - 1) // replay.rules.players + 1
                return trick, str(action.card), str(Card(card))
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path, help="an arena log, PATH.jsonl")
    parser.add_argument("--sample", type=int, default=40, help="moons to replay")
    parser.add_argument("--seed", type=int, default=1, help="draws the sample")
    parser.add_argument("--boards", type=int, help="only the log's first boards")
    args = parser.parse_args(argv)
    # A negative sample would be a slice from the end: all the moons but a few.
    if args.sample < 1:
        parser.error("--sample: at least 1")
    if args.boards is not None and args.boards < 1:
        parser.error("--boards: at least 1")
    try:
        match, records = read_records(args.log)
    except LogError as error:
        parser.error(str(error))
    players = len(match["lineup"])
    moons: list[Moon] = []
    for board, (number, record) in records.items():
        if args.boards is not None and board >= args.boards:
            continue
        try:
            moons += moons_against_first([record], players)
        except (ValueError, IndexError, KeyError, TypeError) as error:
            parser.error(
                f"{args.log}, line {number}: not a board of the arena "
                f"({type(error).__name__}: {error})"
            )
    random.Random(args.seed).shuffle(moons)
    chosen = moons[: args.sample]
    try:
        replay = Replay(match)
    except (ArenaError, RulesError) as error:
        parser.error(f"{args.log}: {error}")
    by_trick: dict[int, int] = {}
    for moon in chosen:
        try:
            stop = first_stop(replay, moon)
        except ArenaError as error:
            # A bot of the line-up that cannot be built here (a module or a program).
            parser.error(f"{args.log}: {error}")
        board, rotation, shooter = moon
        if stop is None:
            print(f"board {board}, rotation {rotation}, seat {shooter}: no single card stops it")
        else:
            trick, played, instead = stop
            by_trick[trick] = by_trick.get(trick, 0) + 1
            print(
                f"board {board}, rotation {rotation}, seat {shooter}: "
                f"trick {trick}, {instead} instead of {played} stops it",
                flush=True,
            )
    stopped = sum(by_trick.values())
    tricks = dict(sorted(by_trick.items()))
    print(f"{stopped} of {len(chosen)} moons stopped by one card; by trick: {tricks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
