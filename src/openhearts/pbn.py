"""Game records as PBN-style text: tags in ``[Tag "value"]`` form, as bridge's Portable
Bridge Notation writes a deal, extended for Hearts the way PBN is extended for other card
games.  :func:`dumps` writes a game, :func:`loads` reads it back by replaying and checking
every action, like :func:`openhearts.record.loads`.  The tags are documented in
``docs/records.md``.

>>> from openhearts import Game, Rules
>>> from openhearts.bots import act, make_bot
>>> game = Game(Rules.preset("standard", end_score=30), seed=2)
>>> bots = [make_bot("random", seat) for seat in range(4)]
>>> while not game.is_over:
...     act(game, game.to_act()[0], bots[game.to_act()[0]])
>>> text = dumps(game)
>>> for line in text.splitlines()[24:33]:
...     print(line)
[Board "0"]
[Dealer "0"]
[Deal "0:AKQJ.2.AQJT3.654 T65.AT964.87.Q87 9732.875.K65.K93 84.KQJ3.942.AJT2"]
[Pass "left"]
0 D3 DT SQ
1 C8 HT HA
2 S2 S7 S9
3 D2 D9 HJ
[Play "3"]
>>> loads(text).actions == game.actions
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import Card, CardParseError, CardSet, Suit
from .game import Game, IllegalActionError, MoonChoice, Pass, Play, name_problem
from .record import RecordError, events, record_text
from .rules import Rules, RulesError

__all__ = ["dumps", "loads", "card_token", "hand_text", "FIRST_LINE"]

#: The first line of every text record (PBN's ``%`` comment lines), naming the format.
FIRST_LINE: Final = "% OpenHearts text record 1: PBN-style tags, docs/records.md"

#: Rules options and their tags: ``pass_cycle`` is ``[PassCycle "..."]``.
RULE_TAGS: Final = {
    name: "".join(part.capitalize() for part in name.split("_")) for name in Rules().to_dict()
}
_TAG_LINE: Final = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')


# Writing ----------------------------------------------------------------------------


def card_token(card: Card) -> str:
    """A card as PBN writes one in the play: suit letter, then rank (``SQ``, ``HT``).

    >>> card_token(Card.parse("Q♠")), card_token(Card.parse("10h"))
    ('SQ', 'HT')
    """
    return card.suit.letter + card.rank.letter


def hand_text(cards: CardSet) -> str:
    """A hand as PBN writes one: spades, hearts, diamonds, clubs, each high to low,
    separated by dots (an empty suit is empty).

    >>> hand_text(CardSet.parse("AS KS 2H TC 9C"))
    'AK.2..T9'
    """
    suits = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    return ".".join(
        "".join(c.rank.letter for c in sorted(cards, reverse=True) if c.suit is suit)
        for suit in suits
    )


#: Characters a tag's value escapes with a backslash; the line ends must, or they would
#: break the tag's line.
_ESCAPES: Final = {"\\": "\\", '"': '"', "\n": "n", "\r": "r", "\t": "t"}
_UNESCAPES: Final = {code: char for char, code in _ESCAPES.items()}


def _quoted(value: str) -> str:
    r"""A tag's value with backslashes, quotes and line ends escaped, and any other
    control character as ``\u001b`` (a seed holding an escape sequence drove the
    terminal ``hearts export`` printed to).

    >>> _quoted('say "hi"\nthen go\x1b')
    'say \\"hi\\"\\nthen go\\u001b'
    """
    return "".join(_escaped(char) for char in value)


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return f"\\{_ESCAPES[char]}"
    if ord(char) < 32 or 127 <= ord(char) < 160:
        return f"\\u{ord(char):04x}"
    return char


def _unquoted(text: str) -> str:
    """What :func:`_quoted` wrote, read back."""

    def one(found: re.Match[str]) -> str:
        code = found.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        if code not in _UNESCAPES:
            # A backslash before anything else was dropped silently ("\q" read as "q").
            raise ValueError(f"\\{code} is no escape: write \\\\ for a backslash")
        return _UNESCAPES[code]

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", one, text)


def _tag(name: str, value: object) -> str:
    return f'[{name} "{_quoted(str(value))}"]'


def _rule_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(map(str, value))
    return "" if value is None else str(value)


def _numbers(values: Any) -> str:
    return " ".join(str(v) for v in values)


def dumps(game: Game) -> str:
    """The game as a text record (finished or in progress)."""
    if not isinstance(game, Game):
        # As record.dumps says it; anything else failed on its missing .rules.
        raise TypeError(f"dumps: a Game to write, not {game!r}")
    lines = [FIRST_LINE, _tag("Event", "OpenHearts game")]
    lines += [_tag(RULE_TAGS[k], _rule_value(v)) for k, v in game.rules.to_dict().items()]
    seed = game.seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        lines.append(_tag("Seed", seed))
    else:
        lines.append(_tag("SeedText", seed))
    lines += [_tag(f"Name{seat}", name) for seat, name in enumerate(game.names)]
    lines.append(_tag("FirstDeal", game.first_deal))
    lines.append(_tag("InitialScores", _numbers(game.initial_scores)))
    results = {result.number: result for result in game.results}
    totals = list(game.initial_scores)
    for board in _boards(game):
        lines.append("")
        lines += board.lines(game.rules)
        result = results.get(board.number)
        if result is not None:
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            lines.append(_tag("Points", _numbers(result.points)))
            lines.append(_tag("Totals", _numbers(totals)))
    if game.is_over:
        lines += ["", _tag("Winners", _numbers(game.winners))]
    return "\n".join(lines) + "\n"


@dataclass
class _Board:
    """One deal's events, grouped the way the text writes them."""

    number: int
    hands: list[str]
    passes: list[tuple[int, CardSet]] = field(default_factory=list)
    plays: list[tuple[int, Card]] = field(default_factory=list)
    moon: bool | None = None

    def lines(self, rules: Rules) -> list[str]:
        players = rules.players
        hands = " ".join(hand_text(CardSet.parse(hand)) for hand in self.hands)
        lines = [
            _tag("Board", self.number),
            _tag("Dealer", rules.dealer(self.number)),
            _tag("Deal", f"0:{hands}"),
        ]
        if self.passes:
            lines.append(_tag("Pass", rules.pass_direction(self.number)))
            lines += [
                f"{seat} {' '.join(map(card_token, sorted(cards)))}" for seat, cards in self.passes
            ]
        if self.plays:
            # As in PBN, each line is a trick with the cards in seat order from the
            # first leader, whoever led it; "-" for a card not played yet.
            first = self.plays[0][0]
            lines.append(_tag("Play", first))
            for start in range(0, len(self.plays), players):
                trick = dict(self.plays[start : start + players])
                columns = [(first + i) % players for i in range(players)]
                lines.append(" ".join(card_token(trick[s]) if s in trick else "-" for s in columns))
        if self.moon is not None:
            lines.append(_tag("MoonChoice", "others_add" if self.moon else "shooter_subtracts"))
        return lines


def _boards(game: Game) -> Iterator[_Board]:
    board: _Board | None = None
    for event in events(game):
        if "deal" in event:
            if board is not None:
                yield board
            board = _Board(event["deal"], event["hands"])
        elif board is None:
            raise AssertionError("a record's events start with a deal")
        elif "pass" in event:
            board.passes.append((event["pass"], CardSet.parse(event["cards"])))
        elif "play" in event:
            board.plays.append((event["play"], Card.parse(event["card"])))
        else:
            board.moon = bool(event["others_add"])
    if board is not None:
        yield board


# Reading ----------------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    tag: str | None
    value: str


_LINE_END: Final = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[_Line]:
    result = []
    # Only line ends end a line: splitlines() also splits at form feeds, U+2028 and other
    # characters a tag's value keeps unescaped.
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        match = _TAG_LINE.match(line)
        if match:
            try:
                value = _unquoted(match.group(2))
            except ValueError as error:
                raise RecordError(f"line {number}: [{match.group(1)}]: {error}") from None
            result.append(_Line(number, match.group(1), value))
        elif line.startswith("["):
            raise RecordError(f'line {number}: a tag is written [Name "value"]')
        else:
            result.append(_Line(number, None, line))
    return result


def _parse_rule(name: str, text: str, default: Any) -> Any:
    if isinstance(default, bool):
        if text not in ("true", "false"):
            raise ValueError(f"{RULE_TAGS[name]}: true or false, not {text!r}")
        return text == "true"
    if isinstance(default, int):
        return _whole(text, RULE_TAGS[name])
    if isinstance(default, list):
        return text.split()
    if default is None:
        return text or None
    return text


def _whole(text: str, what: str) -> int:
    """``text`` as a whole number, or a ValueError saying why not in words: a number
    of 5,000 digits (past what Python reads) was said to be no whole number, and
    repeated whole."""
    if len(text) > 100 and text.lstrip("+-").isdigit():
        raise ValueError(f"{what}: a number of {len(text)} digits is too long to read")
    try:
        return int(text)
    except ValueError:
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise ValueError(f"{what}: a whole number, not {shown!r}") from None


def _number(line: _Line, what: str) -> int:
    try:
        return _whole(line.value, what)
    except ValueError as error:
        raise RecordError(f"line {line.number}: {error}") from None


def _integers(text: str, what: str) -> list[int]:
    try:
        return [_whole(part, what) for part in text.split()]
    except ValueError:
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise ValueError(f"{what}: whole numbers separated by spaces, not {shown!r}") from None


def _hands(value: str, players: int) -> list[CardSet]:
    first, colon, hands = value.partition(":")
    if not colon or first.strip() != "0":
        raise ValueError('Deal: the hands from seat 0, as "0:S.H.D.C S.H.D.C ..."')
    parts = hands.split()
    if len(parts) != players:
        raise ValueError(f"Deal: {players} hands, not {len(parts)}")
    suits = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    result = []
    for part in parts:
        holdings = part.split(".")
        if len(holdings) != 4:
            raise ValueError(f"Deal: a hand is four suits separated by dots, not {part!r}")
        cards = []
        for suit, ranks in zip(suits, holdings, strict=True):
            for letter in ranks.upper():
                if letter not in "23456789TJQKA":
                    raise ValueError(f"Deal: {letter!r} is not a rank (23456789TJQKA)")
                card = Card.of("23456789TJQKA".index(letter), suit)
                if card in cards:
                    # As a JSON record's hand is: the second one was dropped silently.
                    raise ValueError(f"Deal: {card} is named twice in a hand")
                cards.append(card)
        result.append(CardSet(cards))
    return result


def loads(text: str | bytes) -> Game:
    """Rebuild a game from a text record, replaying and checking every action.

    Raises :class:`~openhearts.record.RecordError` with the line and the reason."""
    # A byte-order mark, as some editors write one, is not part of the record.
    text = record_text(text).removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        raise RecordError(
            "line 1: this is a JSON game record, not a text record: "
            "openhearts.record.loads reads it"
        )
    lines = _lines(text)
    header: dict[str, _Line] = {}
    position = 0
    while position < len(lines) and lines[position].tag not in (None, "Board"):
        line = lines[position]
        if line.tag in header:
            raise RecordError(f"line {line.number}: [{line.tag}] is given twice")
        header[str(line.tag)] = line
        position += 1
    game = _new_game(header, lines[position] if position < len(lines) else None)
    reader = _Reader(game, lines[position:])
    reader.read()
    return game


def _new_game(header: dict[str, _Line], first_board: _Line | None) -> Game:
    def at(tag: str) -> int:
        return header[tag].number if tag in header else 1

    defaults = Rules().to_dict()
    options: dict[str, Any] = {}
    known = {*RULE_TAGS.values(), "Event", "Seed", "SeedText", "FirstDeal", "InitialScores"}
    for tag, line in header.items():
        if tag not in known and not re.fullmatch(r"Name\d+", tag):
            raise RecordError(f"line {line.number}: [{tag}] is not a tag of a text record")
    missing = [tag for tag in RULE_TAGS.values() if tag not in header]
    if missing:
        # The standard option in place of a missing tag played another game (a 000
        # record without [HeartsBreak] replayed under the standard rule).
        raise RecordError(
            f"line 1: [{missing[0]}] is missing: a text record gives every rules option "
            f"({len(missing)} missing)"
        )
    for name, tag in RULE_TAGS.items():
        if tag in header:
            try:
                options[name] = _parse_rule(name, header[tag].value, defaults[name])
            except ValueError as error:
                raise RecordError(f"line {at(tag)}: {error}") from None
    try:
        rules = Rules.from_dict(options)
    except RulesError as error:
        # A rules error starts with the option's name: point at that option's tag.
        option = str(error).partition(":")[0]
        raise RecordError(f"line {at(RULE_TAGS.get(option, 'Players'))}: {error}") from None
    seed: object = 0
    if "Seed" in header and "SeedText" in header:
        raise RecordError(f"line {at('Seed')}: [Seed] and [SeedText]: give one seed, not both")
    if "Seed" in header:
        seed = _number(header["Seed"], "Seed")
    elif "SeedText" in header:
        seed = header["SeedText"].value
    first_deal = _number(header["FirstDeal"], "FirstDeal") if "FirstDeal" in header else 0
    scores = None
    if "InitialScores" in header:
        try:
            scores = _integers(header["InitialScores"].value, "InitialScores")
        except ValueError as error:
            raise RecordError(f"line {at('InitialScores')}: {error}") from None
    name_tags = sorted((line.number, tag) for tag, line in header.items() if tag.startswith("Name"))
    for number, tag in name_tags:
        if int(tag[4:]) >= rules.players:
            raise RecordError(
                f"line {number}: [{tag}]: this game has {rules.players} seats, "
                f"Name0 to Name{rules.players - 1}"
            )
        missing = [f"Name{seat}" for seat in range(rules.players) if f"Name{seat}" not in header]
        if missing:
            raise RecordError(
                f"line {number}: [{missing[0]}] is missing: a record names every seat or none"
            )
    names = [header[f"Name{seat}"].value for seat in range(rules.players) if name_tags]
    for seat in range(rules.players):
        # The game would refuse it too, but here the error can point at the name's line.
        tag = f"Name{seat}"
        problem = name_problem(header[tag].value) if tag in header else None
        if problem is not None:
            raise RecordError(f"line {at(tag)}: {tag}: {problem}")
    if first_board is None or first_board.tag != "Board":
        after = max((line.number for line in header.values()), default=0) + 1
        number = first_board.number if first_board is not None else after
        raise RecordError(f"line {number}: a text record needs at least the first [Board]")
    try:
        return Game(
            rules,
            seed=seed,
            names=names or None,
            first_deal=first_deal,
            scores=scores,
            seated=True,
        )
    except (ValueError, TypeError) as error:
        raise RecordError(f"line {first_board.number}: {error}") from None


class _Reader:
    """Replays the boards of a text record into ``game``, line by line."""

    def __init__(self, game: Game, lines: list[_Line]) -> None:
        self.game = game
        self.lines = lines
        self.section: str | None = None
        self.play_first = 0
        self.board = -1
        self.dealt: set[int] = set()

    def read(self) -> None:
        for line in self.lines:
            try:
                if line.tag is None:
                    self._section_line(line.value)
                else:
                    self._tag(line.tag, line.value)
            except (IllegalActionError, CardParseError, ValueError) as error:
                raise RecordError(f"line {line.number}: {error}") from None

    def _tag(self, tag: str, value: str) -> None:
        game = self.game
        self.section = None
        handlers: dict[str, Callable[[str], None]] = {
            "Board": self._board,
            "Dealer": self._dealer,
            "Deal": self._deal,
            "Pass": self._pass_tag,
            "Play": self._play_tag,
            "MoonChoice": self._moon,
            "Points": lambda v: self._check("Points", v, list(game.results[-1].points)),
            "Totals": lambda v: self._check("Totals", v, self._totals_after_last_deal()),
            "Winners": lambda v: self._check("Winners", v, game.winners),
        }
        if tag not in handlers:
            raise ValueError(f"[{tag}] is not a tag of a deal")
        if tag in ("Points", "Totals") and (
            not game.results or game.results[-1].number != self.board
        ):
            raise ValueError(f"[{tag}] before deal {self.board} has ended")
        if tag == "Winners" and not game.is_over:
            raise ValueError("[Winners] before the game is over")
        handlers[tag](value)

    def _board(self, value: str) -> None:
        # A deal's number only moves on once the deal before has ended.
        if _whole(value, "Board") != self.game.deal_number:
            raise ValueError(f'expected [Board "{self.game.deal_number}"], not {value!r}')
        self.board = self.game.deal_number

    def _deal(self, value: str) -> None:
        if self.board in self.dealt:
            raise ValueError(f"[Deal] is given twice for board {self.board}")
        self.game.replace_hands(_hands(value, self.game.rules.players))
        self.dealt.add(self.board)

    def _dealer(self, value: str) -> None:
        expected = self.game.dealer
        if _whole(value, "Dealer") != expected:
            raise ValueError(f"the rules make seat {expected} the dealer, not {value}")

    def _pass_tag(self, value: str) -> None:
        if value != self.game.pass_direction:
            raise ValueError(f"this deal passes {self.game.pass_direction}, not {value!r}")
        self.section = "Pass"

    def _play_tag(self, value: str) -> None:
        self.play_first = _whole(value, "Play")
        if self.game.phase != "playing" or self.play_first != self.game.current_player:
            raise ValueError(f"seat {self.game.current_player} leads first, not seat {value}")
        self.section = "Play"

    def _moon(self, value: str) -> None:
        choices = {"others_add": True, "shooter_subtracts": False}
        if value not in choices:
            raise ValueError(f"MoonChoice: others_add or shooter_subtracts, not {value!r}")
        game = self.game
        game.apply(MoonChoice(game.to_act()[0] if game.to_act() else -1, choices[value]))

    def _section_line(self, value: str) -> None:
        game = self.game
        if self.section == "Pass":
            seat, _, cards = value.partition(" ")
            game.apply(Pass(_whole(seat, "a pass's seat"), CardSet.parse(cards)))
        elif self.section == "Play":
            self._trick(value.split())
        else:
            raise ValueError(f"{value[:30]!r} is not in a [Pass] or [Play] section")

    def _trick(self, tokens: list[str]) -> None:
        """One trick line: the cards in seat order from the first leader; the engine
        knows who leads each trick, so the order of play follows from the rules."""
        game = self.game
        players = game.rules.players
        if len(tokens) != players:
            raise ValueError(f"a trick has {players} cards or '-', not {len(tokens)}")
        if game.deal.trick:
            raise ValueError("the trick before is not finished")
        by_seat = {(self.play_first + i) % players: token for i, token in enumerate(tokens)}
        played: set[int] = set()
        while len(played) < players and game.phase == "playing":
            seat = game.current_player
            assert seat is not None
            if by_seat[seat] == "-":
                break
            game.apply(Play(seat, Card.parse(by_seat[seat])))
            played.add(seat)
        unplayed = [t for seat, t in by_seat.items() if t != "-" and seat not in played]
        if unplayed:
            raise ValueError(f"{' '.join(unplayed)}: not reached in the order of play")

    def _totals_after_last_deal(self) -> list[int]:
        game = self.game
        totals = list(game.initial_scores)
        for result in game.results:
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        return totals

    def _check(self, tag: str, value: str, replayed: list[int]) -> None:
        given = _integers(value, tag)
        if given != replayed:
            raise ValueError(
                f"[{tag}] says {' '.join(map(str, given))}, "
                f"but replaying gives {' '.join(map(str, replayed))}"
            )
