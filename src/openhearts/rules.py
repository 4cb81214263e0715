"""The rules of a game of Hearts as data: one frozen :class:`Rules` object.

Every difference between the source documents is an option here, and each source
has a named preset (see :data:`PRESETS` and ``docs/rules.md``).  Invalid
combinations are refused when the object is built, with a message naming the
option.

>>> r = Rules.preset("standard")
>>> r.players, r.hand_size, r.pass_direction(2), r.points_in_play
(4, 13, 'across', 26)
>>> Rules.preset("source-003", players=6).hand_size
8
>>> Rules(players=7)
Traceback (most recent call last):
...
openhearts.rules.RulesError: players: Hearts is played by 3 to 6 players, not 7
"""

from __future__ import annotations

import dataclasses
import operator
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .cards import (
    FULL_DECK,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    Card,
    CardParseError,
    CardSet,
    Suit,
)

__all__ = [
    "Rules",
    "RulesError",
    "FirstTrick",
    "HeartsBreak",
    "MoonScoring",
    "Seating",
    "PRESETS",
    "PRESET_SOURCES",
    "seat_names",
]


class RulesError(ValueError):
    """An invalid rules option or combination; the message starts with the option name."""


class FirstTrick(StrEnum):
    """Which cards may be discarded on the first trick."""

    #: Any card (no source uses it; OpenSpiel's ``no_pts_on_first_trick=false``).
    ALLOWED = "allowed"
    #: No heart and no Q♠ unless the player holds nothing else (000, 003).
    NO_POINTS_UNLESS_FORCED = "no_points_unless_forced"
    #: No heart and no Q♠ "even if you have no clubs" (001, 004).  A player whose
    #: every card is barred may play a heart; the Q♠ stays barred while a heart is held.
    NO_POINTS = "no_points"
    #: Only hearts are barred, the Q♠ may be dropped (002).
    NO_HEARTS = "no_hearts"


class HeartsBreak(StrEnum):
    """What allows hearts to be led."""

    #: A heart has been played to an earlier trick (001, 003, 004).
    HEART = "heart"
    #: Any point card, the Q♠ included, has been played (000).
    POINT_CARD = "point_card"
    #: Hearts may be led at any time (002 names no restriction).
    NEVER_RESTRICTED = "never_restricted"


class MoonScoring(StrEnum):
    """What happens when one player takes every point card."""

    #: Shooter scores 0, everyone else adds the points in play (001, 003, 004).
    OTHERS_ADD = "others_add"
    #: Shooter subtracts the points in play, the others add nothing (002).
    SHOOTER_SUBTRACTS = "shooter_subtracts"
    #: The shooter chooses one of the two (000).
    SHOOTER_CHOOSES = "shooter_chooses"
    #: No moon: points are scored as taken.
    NONE = "none"


class Seating(StrEnum):
    FIXED = "fixed"
    #: "A defined, random player order" (002): names are shuffled to seats at the start.
    SHUFFLED = "shuffled"


_PASS_RE: Final = re.compile(r"^(left|right)(\d*)$")

DEFAULT_PASS_CYCLES: Final[Mapping[int, tuple[str, ...]]] = {
    3: ("left", "right", "hold"),
    4: ("left", "right", "across", "hold"),
    5: ("left", "right", "left2", "right2", "hold"),
    6: ("left", "right", "left2", "right2", "across", "hold"),
}

#: Cards removed so that every hand has the same size (003's choices by default).
DEFAULT_REMOVED: Final[Mapping[int, str]] = {
    3: "2D",
    4: "",
    5: "2D 2S",
    6: "3C 3D 3S 3H",
}


def seat_names(players: int, direction: str = "clockwise") -> tuple[str, ...]:
    """Default seat names, in the order of play (seat 0 is the human's seat at the bottom).

    >>> seat_names(4)
    ('South', 'West', 'North', 'East')
    >>> seat_names(4, "counterclockwise")
    ('South', 'East', 'North', 'West')
    """
    clockwise = {
        3: ("South", "West", "East"),
        4: ("South", "West", "North", "East"),
        5: ("South", "West", "Northwest", "Northeast", "East"),
        6: ("South", "Southwest", "Northwest", "North", "Northeast", "Southeast"),
    }.get(players, tuple(f"Player {i + 1}" for i in range(players)))
    if direction == "counterclockwise":
        return clockwise[:1] + tuple(reversed(clockwise[1:]))
    return clockwise


def _card_set(value: Any) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    if not isinstance(value, Iterable):
        raise ValueError(f"cards as text ('2D 2S') or a list of cards, not {value!r}")
    return CardSet(Card.parse(v) if isinstance(v, str) else Card(v) for v in value)


def integer_or_none(value: object) -> int | None:
    """``value`` as a plain int if it is an integer (numpy's too, which learning code
    passes), else None; True and False are no numbers of players, points or cards."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


@dataclass(frozen=True)
class Rules:
    """Every option of a game.  Build with keywords, :meth:`preset` or :meth:`from_dict`.

    Seats are numbered in the order of play; ``direction`` only says whether that
    order runs clockwise, which decides who sits on a passer's left.
    """

    players: int = 4
    #: Cards taken out of the deck before dealing; ``None`` means the default for the
    #: player count (see :data:`DEFAULT_REMOVED`).
    removed: CardSet | None = None
    #: Pass directions, one per deal, repeated: ``left``, ``right``, ``across``,
    #: ``leftN``/``rightN`` (N seats away) and ``hold``.  ``None``: the default cycle.
    pass_cycle: tuple[str, ...] | None = None
    cards_passed: int = 3
    #: The card that leads the first trick; ``None``: the lowest club in play.
    first_lead: Card | None = None
    first_trick: FirstTrick = FirstTrick.NO_POINTS_UNLESS_FORCED
    hearts_break: HeartsBreak = HeartsBreak.HEART
    moon: MoonScoring = MoonScoring.OTHERS_ADD
    #: Taking every trick: shooter minus the points in play, everyone else plus (003).
    sun: bool = False
    #: The J♦ counts -10 for whoever takes it (003's variant); not needed for a moon.
    jack_of_diamonds: bool = False
    end_score: int = 100
    seating: Seating = Seating.FIXED
    first_dealer: int = 0
    direction: str = "clockwise"
    deck_mask: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        def fix(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        # Numpy's integers (a sweep over np.arange(3, 7)) are kept as plain ints, so
        # that equal rules compare, hash and save alike.
        for name in ("players", "cards_passed", "end_score", "first_dealer"):
            number = integer_or_none(getattr(self, name))
            if number is not None:
                fix(name, number)
        if integer_or_none(self.players) is None:
            raise RulesError(f"players: a whole number from 3 to 6, not {self.players!r}")
        if not 3 <= self.players <= 6:
            raise RulesError(f"players: Hearts is played by 3 to 6 players, not {self.players}")
        for name, kind in (
            ("first_trick", FirstTrick),
            ("hearts_break", HeartsBreak),
            ("moon", MoonScoring),
            ("seating", Seating),
        ):
            value = getattr(self, name)
            try:
                fix(name, kind(value))
            except ValueError:
                choices = ", ".join(m.value for m in kind)  # type: ignore[attr-defined]
                raise RulesError(f"{name}: expected one of {choices}, not {value!r}") from None
        try:
            removed = _card_set(
                DEFAULT_REMOVED[self.players] if self.removed is None else self.removed
            )
        except (CardParseError, ValueError, TypeError) as error:
            raise RulesError(f"removed: {error}") from None
        fix("removed", removed)
        fix("deck_mask", FULL_DECK & ~removed.mask)
        in_play = 52 - len(removed)
        if in_play % self.players:
            cards = "card" if len(removed) == 1 else "cards"
            raise RulesError(
                f"removed: with {len(removed)} {cards} removed, {in_play} cards cannot be "
                f"dealt evenly to {self.players} players"
            )
        if self.deck_mask & HEARTS_MASK == 0 and QUEEN_OF_SPADES not in removed:
            pass  # a deck without hearts is odd but still a game
        if self.direction not in ("clockwise", "counterclockwise"):
            raise RulesError(
                f"direction: expected clockwise or counterclockwise, not {self.direction!r}"
            )
        cycle = DEFAULT_PASS_CYCLES[self.players] if self.pass_cycle is None else self.pass_cycle
        if isinstance(cycle, str):
            cycle = tuple(part for part in re.split(r"[\s,]+", cycle) if part)
        if not isinstance(cycle, (tuple, list)):
            raise RulesError(f"pass_cycle: a list of directions or a text, not {cycle!r}")
        cycle = tuple(str(d).lower() for d in cycle)
        if not cycle:
            raise RulesError("pass_cycle: needs at least one direction (use 'hold' for none)")
        for direction in cycle:
            self._pass_offset(direction, self.players)
        fix("pass_cycle", cycle)
        if isinstance(self.cards_passed, bool) or not isinstance(self.cards_passed, int):
            raise RulesError(f"cards_passed: a whole number, not {self.cards_passed!r}")
        if not 0 <= self.cards_passed <= self.hand_size:
            raise RulesError(
                f"cards_passed: between 0 and the hand size ({self.hand_size}), "
                f"not {self.cards_passed}"
            )
        if self.first_lead is not None:
            try:
                lead = (
                    Card.parse(self.first_lead)
                    if isinstance(self.first_lead, str)
                    else Card(self.first_lead)
                )
            except (CardParseError, ValueError, TypeError) as error:
                raise RulesError(f"first_lead: {error}") from None
            if lead in removed:
                raise RulesError(f"first_lead: {lead} is one of the removed cards")
            fix("first_lead", lead)
        elif self.deck_mask & SUIT_MASKS[Suit.CLUBS] == 0:
            raise RulesError("first_lead: no club is in play, so name the card that leads")
        for flag in ("sun", "jack_of_diamonds"):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"{flag}: true or false, not {getattr(self, flag)!r}")
        if self.jack_of_diamonds and JACK_OF_DIAMONDS in removed:
            raise RulesError("jack_of_diamonds: the J♦ is one of the removed cards")
        if isinstance(self.end_score, bool) or not isinstance(self.end_score, int):
            raise RulesError(f"end_score: a whole number, not {self.end_score!r}")
        if self.end_score < 1:
            raise RulesError(f"end_score: must be at least 1, not {self.end_score}")
        if (
            isinstance(self.first_dealer, bool)
            or not isinstance(self.first_dealer, int)
            or not 0 <= self.first_dealer < self.players
        ):
            raise RulesError(
                f"first_dealer: a seat from 0 to {self.players - 1}, not {self.first_dealer!r}"
            )

    @staticmethod
    def _pass_offset(direction: str, players: int) -> int:
        # A 5,000-digit "left999..." was repeated whole in its refusal.
        shown = repr(direction if len(direction) <= 24 else direction[:20] + "…")
        if direction == "hold":
            return 0
        if direction == "across":
            if players % 2:
                raise RulesError(
                    f"pass_cycle: 'across' needs an even number of players, not {players}"
                )
            return players // 2
        match = _PASS_RE.match(direction)
        if not match:
            raise RulesError(
                f"pass_cycle: {shown} is not a direction: use left, right, across, "
                "hold, or leftN / rightN for N seats away"
            )
        digits = match.group(2) or "1"
        distance = int(digits) if len(digits) <= 3 else players + 1
        if distance % players == 0:
            raise RulesError(
                f"pass_cycle: {shown} points back at the passer with {players} players"
            )
        if distance >= players:
            # Accepted, it passed to the seat the distance comes round to, and was said as
            # "five seats to the left" at a table of four.
            side = match.group(1)
            raise RulesError(
                f"pass_cycle: {shown} goes round the table: with {players} players, "
                f"{side}1 to {side}{players - 1}"
            )
        return distance if match.group(1) == "left" else -distance

    # Derived facts -------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return self.deck_mask.bit_count() // self.players

    @property
    def deck(self) -> CardSet:
        return CardSet(self.deck_mask)

    @property
    def point_mask(self) -> int:
        """The point cards in play: every heart and the Q♠ (not the J♦ bonus)."""
        return self.deck_mask & (HEARTS_MASK | 1 << QUEEN_OF_SPADES)

    @property
    def points_in_play(self) -> int:
        """Points for all point cards in play (26, or 25 when a heart is removed)."""
        mask = self.point_mask
        return (mask & HEARTS_MASK).bit_count() + (13 if mask >> QUEEN_OF_SPADES & 1 else 0)

    @property
    def first_lead_card(self) -> Card:
        if self.first_lead is not None:
            return self.first_lead
        clubs = self.deck_mask & SUIT_MASKS[Suit.CLUBS]
        return Card((clubs & -clubs).bit_length() - 1)

    def pass_direction(self, deal_number: int) -> str:
        """The direction name for a deal (deal numbers start at 0)."""
        assert self.pass_cycle is not None
        return self.pass_cycle[deal_number % len(self.pass_cycle)]

    def pass_offset(self, deal_number: int) -> int:
        """How many seats later in play order the cards go; 0 for a hold hand."""
        offset = self._pass_offset(self.pass_direction(deal_number), self.players)
        if self.cards_passed == 0:
            return 0
        if self.direction == "counterclockwise":
            offset = -offset
        return offset % self.players

    def dealer(self, deal_number: int) -> int:
        """The dealing seat; the deal passes to the next seat in play order."""
        return (self.first_dealer + deal_number) % self.players

    # Conversion -----------------------------------------------------------------

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (and checked again).

        A new ``players`` brings the usual cards removed and pass cycle for that count
        (:data:`DEFAULT_REMOVED`), not a preset's own: ``Rules.preset("source-002",
        players=5)`` is 002's five-player game, with its removed cards and lead.
        """
        if "players" in changes:
            # The player-count defaults follow the new count unless given too.
            changes.setdefault("removed", None)
            changes.setdefault("pass_cycle", None)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        assert self.removed is not None and self.pass_cycle is not None
        return {
            "players": self.players,
            "removed": [str(c) for c in self.removed],
            "pass_cycle": list(self.pass_cycle),
            "cards_passed": self.cards_passed,
            "first_lead": None if self.first_lead is None else str(self.first_lead),
            "first_trick": self.first_trick.value,
            "hearts_break": self.hearts_break.value,
            "moon": self.moon.value,
            "sun": self.sun,
            "jack_of_diamonds": self.jack_of_diamonds,
            "end_score": self.end_score,
            "seating": self.seating.value,
            "first_dealer": self.first_dealer,
            "direction": self.direction,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Build from :meth:`to_dict` data; unknown keys are an error."""
        if not isinstance(data, Mapping):
            raise RulesError("rules: expected an object of options")
        cls._refuse_unknown(data)
        values = dict(data)
        if isinstance(values.get("pass_cycle"), list):
            values["pass_cycle"] = tuple(values["pass_cycle"])
        try:
            return cls(**values)
        except TypeError as error:
            raise RulesError(f"rules: {error}") from None

    @classmethod
    def preset(cls, name: str, players: int | None = None, **changes: Any) -> Rules:
        """A named preset, optionally for another player count and with changes.

        >>> Rules.preset("source-002", players=5).first_lead_card
        Card.parse('3C')
        """
        try:
            make = PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(
                f"preset: no preset named {name!r} (presets: {', '.join(PRESETS)})"
            ) from None
        # Checked here, as Rules would: the presets read a missing count (None) as their
        # default, and 0 would pass for it.
        if players is not None:
            number = integer_or_none(players)
            if number is None:
                raise RulesError(f"players: a whole number from 3 to 6, not {players!r}")
            players = number
            if not 3 <= players <= 6:
                raise RulesError(f"players: Hearts is played by 3 to 6 players, not {players}")
        cls._refuse_unknown(changes)
        return make(players, **changes)

    @classmethod
    def _refuse_unknown(cls, names: Iterable[str]) -> None:
        """A RulesError naming the first of ``names`` that is no option, with the options."""
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(names) - known)
        if unknown:
            raise RulesError(f"{unknown[0]}: not an option (options: {', '.join(sorted(known))})")

    def _passing_line(self) -> str:
        if not self.cards_passed or all(step == "hold" for step in self.pass_cycle or ()):
            return "No passing"
        cards = f"{self.cards_passed} card{'s' if self.cards_passed != 1 else ''}"
        return "Pass cycle: " + ", ".join(self.pass_cycle or ()) + f" ({cards})"

    def describe(self) -> list[str]:
        """Plain sentences summarising the options, for help screens."""
        assert self.removed is not None and self.pass_cycle is not None
        moon = {
            MoonScoring.OTHERS_ADD: f"everyone else adds {self.points_in_play}",
            MoonScoring.SHOOTER_SUBTRACTS: f"the shooter subtracts {self.points_in_play}",
            MoonScoring.SHOOTER_CHOOSES: "the shooter chooses: subtract "
            f"{self.points_in_play} or everyone else adds {self.points_in_play}",
            MoonScoring.NONE: "no moon: points count as taken",
        }[self.moon]
        lines = [
            f"{self.players} players, {self.hand_size} cards each"
            + (f" ({self.removed.pretty} removed)" if self.removed else ""),
            self._passing_line(),
            f"First lead: {self.first_lead_card.pretty}",
            "First trick: "
            + {
                FirstTrick.ALLOWED: "any card may be played",
                FirstTrick.NO_POINTS_UNLESS_FORCED: "no heart or Q♠ unless you hold nothing else",
                FirstTrick.NO_POINTS: "no heart or Q♠ (a heart only if you hold nothing else)",
                FirstTrick.NO_HEARTS: "no hearts (the Q♠ may be played)",
            }[self.first_trick],
            "Leading hearts: "
            + {
                # A leader holding nothing but hearts leads one all the same: unsaid,
                # the line read as if that player could not move.
                HeartsBreak.HEART: "only after a heart has been played, "
                "or when you hold nothing but hearts",
                HeartsBreak.POINT_CARD: "only after a heart or the Q♠ has been played, "
                "or when you hold nothing but hearts",
                HeartsBreak.NEVER_RESTRICTED: "allowed at any time",
            }[self.hearts_break],
            f"Shooting the moon: {moon}",
        ]
        if self.sun:
            lines.append(
                f"Shooting the sun (every trick): shooter -{self.points_in_play}, "
                f"everyone else +{self.points_in_play}"
            )
        if self.jack_of_diamonds:
            lines.append("The J♦ counts -10")
        if self.direction == "counterclockwise":
            lines.append("Play runs counter-clockwise")
        if self.seating == Seating.SHUFFLED:
            lines.append("The order of play is drawn at random at the start")
        if self.first_dealer:
            names = seat_names(self.players, self.direction)
            lines.append(f"{names[self.first_dealer]} deals first")
        lines.append(f"The game ends when someone reaches {self.end_score}")
        return lines


def _standard(players: int | None, **changes: Any) -> Rules:
    return Rules(players=players or 4, **changes)


def _source_000(players: int | None, **changes: Any) -> Rules:
    _four_only("source-000", players)
    options: dict[str, Any] = dict(
        first_trick=FirstTrick.NO_POINTS_UNLESS_FORCED,
        hearts_break=HeartsBreak.POINT_CARD,
        moon=MoonScoring.SHOOTER_CHOOSES,
    )
    return Rules(**{**options, **changes})


def _source_001(players: int | None, **changes: Any) -> Rules:
    _four_only("source-001", players)
    options: dict[str, Any] = dict(first_trick=FirstTrick.NO_POINTS, hearts_break=HeartsBreak.HEART)
    return Rules(**{**options, **changes})


def _source_002(players: int | None, **changes: Any) -> Rules:
    count = players or 4
    if count == 6:
        raise RulesError("players: source-002 describes 3 to 5 players")
    options: dict[str, Any] = dict(
        players=count,
        removed={3: "2D", 4: "", 5: "2C 2D"}[count],
        first_trick=FirstTrick.NO_HEARTS,
        hearts_break=HeartsBreak.NEVER_RESTRICTED,
        moon=MoonScoring.SHOOTER_SUBTRACTS,
        seating=Seating.SHUFFLED,
    )
    return Rules(**{**options, **changes})


def _source_003(players: int | None, **changes: Any) -> Rules:
    options: dict[str, Any] = dict(
        players=players or 4,
        first_trick=FirstTrick.NO_POINTS_UNLESS_FORCED,
        hearts_break=HeartsBreak.HEART,
        sun=True,
    )
    return Rules(**{**options, **changes})


def _source_004(players: int | None, **changes: Any) -> Rules:
    _four_only("source-004", players)
    options: dict[str, Any] = dict(
        first_trick=FirstTrick.NO_POINTS,
        hearts_break=HeartsBreak.HEART,
        direction="counterclockwise",
    )
    return Rules(**{**options, **changes})


def _four_only(name: str, players: int | None) -> None:
    if players not in (None, 4):
        raise RulesError(f"players: {name} describes a game of 4 players only")


#: Preset name -> builder taking ``(players, **changes)``.
PRESETS: Final = {
    "standard": _standard,
    "source-000": _source_000,
    "source-001": _source_001,
    "source-002": _source_002,
    "source-003": _source_003,
    "source-004": _source_004,
}

#: What each preset reproduces, for help texts and the docs.
PRESET_SOURCES: Final = {
    "standard": "the common modern rules (4 players; also 3, 5, 6 with 003's removed cards)",
    "source-000": "sources/000: web Hearts, point card breaks hearts, shooter chooses",
    "source-001": "sources/001: no heart or Q♠ on the first trick, moon adds 26 to others",
    "source-002": "sources/002: 3-5 players, only hearts barred on trick one, moon -26, "
    "random seating",
    "source-003": "sources/003: 3-6 players, shooting the sun; J♦ variant with "
    "jack_of_diamonds=true",
    "source-004": "sources/004: like 001, play runs counter-clockwise",
}
