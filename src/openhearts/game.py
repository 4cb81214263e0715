"""A whole game of Hearts: deals in turn, passes, plays, scores, undo, and player views.

>>> from openhearts import Game, Rules
>>> game = Game(Rules.preset("standard"), seed=7)
>>> game.phase, game.pass_direction, game.to_act()
('passing', 'left', [0, 1, 2, 3])
>>> for seat in range(4):
...     game.pass_cards(seat, list(game.hand(seat))[-3:])
>>> game.phase, game.current_player == game.deal.leader
('playing', True)
>>> game.play(game.hand(game.current_player).cards()[-1])
Traceback (most recent call last):
...
openhearts.actions.IllegalActionError: the first trick must be led with the 2♣
>>> game.play(game.legal_plays().cards()[0]); game.undo()
Play(seat=..., card=Card.parse('2C'))

Every action is checked; a refused action raises :class:`IllegalActionError` with
the reason in plain words and leaves the game unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from types import ModuleType
from typing import Final

from . import _engine
from .actions import Action, IllegalActionError, MoonChoice, Pass, Play
from .cards import (
    CARDS,
    HEARTS_MASK,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    Card,
    CardParseError,
    CardSet,
    Suit,
    cards_of,
)
from .deal import DONE, MOON_CHOICE, PASSING, PLAYING, DealState
from .phases import MoonScore, Phase
from .results import DealResult, TrickRecord, conventional_moon_choice, pack_tricks
from .rules import (
    FirstTrick,
    MoonScoring,
    Rules,
    RulesError,
    Seating,
    integer_or_none,
    seat_names,
)
from .view import PlayerView

__all__ = [
    "Game",
    "NAME_PATTERN",
    "name_problem",
    "Pass",
    "Play",
    "MoonChoice",
    "Action",
    "IllegalActionError",
    "PlayerView",
    "TrickRecord",
    "DealResult",
    "GAME_OVER",
    "PASSING",
    "PLAYING",
    "MOON_CHOICE",
    "conventional_moon_choice",
    "pack_tricks",
]

GAME_OVER: Final[Phase] = Phase.GAME_OVER


def _load_shuffle() -> ModuleType | None:
    """The shuffle in C (``_shuffle.c``), unless it is missing or the reference is asked
    for; missing, the engine's notice (``openhearts._engine``) has said the build failed."""
    if _engine.reference_requested():
        return None
    try:
        from . import _shuffle
    except ImportError:
        return None
    return _shuffle


_compiled_shuffle = _load_shuffle()


def _shuffled_hands(rules: Rules, seed: object, deal_number: int, dealer: int) -> list[int]:
    """The hands of a deal, from the game's seed and the deal's number."""
    deal_seed = _deal_seed(seed, deal_number)
    if _compiled_shuffle is not None:
        hands: list[int] = _compiled_shuffle.shuffled_hands(
            _seed_key(deal_seed), rules.deck_mask, rules.players, dealer
        )
        return hands
    return _reference_shuffled_hands(rules, deal_seed, dealer)


def _seed_key(seed: int | str) -> bytes:
    """The 32-bit words (little-endian bytes) that ``random.Random(seed)`` seeds its
    generator with: an int's magnitude, a text's bytes followed by their SHA-512."""
    if isinstance(seed, str):
        encoded = seed.encode()
        number = int.from_bytes(encoded + hashlib.sha512(encoded).digest(), "big")
    else:
        number = abs(seed)
    return number.to_bytes(4 * max(1, (number.bit_length() + 31) // 32), "little")


def _reference_shuffled_hands(rules: Rules, deal_seed: int | str, dealer: int) -> list[int]:
    """The shuffle in Python, the reference for the one in C."""
    rng = random.Random(deal_seed)
    # Sorting by random keys is an unbiased shuffle and several times faster than
    # random.shuffle, which calls back into Python once per card.  The keys are drawn
    # in card order, as sorted(deck, key=...) would draw them, so deals stay the same.
    bits = _card_bits(rules.deck_mask)
    draw = rng.random
    keys = [draw() for _bit in bits]
    ordered = list(map(bits.__getitem__, sorted(range(len(bits)), key=keys.__getitem__)))
    players = rules.players
    hands = [0] * players
    # Dealt one at a time from the seat after the dealer in the order of play (the
    # dealer's left when play runs clockwise), as at a real table: every players-th
    # card goes to the same seat, and summing distinct bits ORs them in one C loop.
    for offset in range(players):
        hands[(dealer + 1 + offset) % players] = sum(ordered[offset::players])
    return hands


@lru_cache(maxsize=16)
def _card_bits(deck_mask: int) -> tuple[int, ...]:
    """The one-card masks of a deck, lowest card first."""
    return tuple(1 << card for card in cards_of(deck_mask))


def _deal_seed(seed: object, deal_number: int) -> int | str:
    if isinstance(seed, int) and not isinstance(seed, bool):
        # Integers seed quickly; mixing keeps (seed, deal) pairs apart.
        return (seed * 1_000_003 + deal_number) & 0xFFFFFFFFFFFFFFFF
    return f"{seed}:deal:{deal_number}"


#: A player's name: not blank, and without control characters, line and paragraph
#: separators or the marks that reorder text on screen, since names are printed as they
#: are (a terminal would obey a control sequence).  Records and their published schema
#: hold names to the same pattern.
NAME_PATTERN: Final = (
    r"^(?=.*[^\s\u200c\u200d])"
    r"[^\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff]*$"
)
_NAME: Final = re.compile(NAME_PATTERN, re.DOTALL)
#: Zero-width non-joiner and joiner: invisible, but "👩‍💻" and many Persian names need them.
_JOINERS: Final = "\u200c\u200d"


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name (see :data:`NAME_PATTERN`), or None.

    >>> name_problem("Ann Lee") is None
    True
    >>> print(name_problem("Ann\\x1b[2J"))
    'Ann\\x1b[2J' is blank or holds a control character
    """
    if not isinstance(name, str):
        return f"{name!r} is not a text"
    if not _NAME.fullmatch(name):
        return f"{name!r} is blank or holds a control character"
    if not name.isascii():
        if not _writable(name):
            return f"{name!r} holds a lone surrogate, which no file can hold"
        # As every face cleans a typed name: no format character (U+061C reverses the
        # text that follows on a terminal) and no private-use one, but the joiners that
        # Persian and Indic names and emoji sequences need.
        if any(unicodedata.category(ch) in ("Cf", "Co") and ch not in _JOINERS for ch in name):
            return f"{name!r} holds an invisible character"
    return None


def _writable(text: str) -> bool:
    """Whether ``text`` has a UTF-8 form: a lone surrogate (a JSON escape such as
    ``\\ud800``, or bytes a command line could not decode) has none, and saving the
    game failed on it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _checked_seed(seed: object) -> int | str:
    # A record keeps an int or a text seed; True and False would be kept as they are and
    # then refused when the record is read, and None, a float or bytes were shuffled as
    # their text ("None": one same deal where a fresh one was meant, as random.seed(None)
    # would give).  Numpy's integers are ints here, as learning code passes them.
    if not isinstance(seed, str):
        number = integer_or_none(seed)
        if number is None:
            raise ValueError(f"seed: a number or a text, not {seed!r}")
        return number
    if isinstance(seed, str) and not seed.isascii() and not _writable(seed):
        # The deal is shuffled from the seed's UTF-8 bytes.
        raise ValueError(f"seed: {seed!r} holds a lone surrogate, which no file can hold")
    return seed


def _checked_rules(rules: object) -> Rules:
    """The rules a game is made with: a :class:`Rules`, a preset's name, or None."""
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        try:
            return Rules.preset(rules)
        except RulesError as error:
            raise ValueError(str(error)) from None
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: a Rules object or a preset's name, not {rules!r}")
    return rules


def _field(action: object, name: str) -> object:
    return getattr(action, name)


def _check_scores(scores: object, players: int) -> list[int]:
    """The starting totals as plain ints: whole numbers (numpy's too), one per seat."""
    if scores is None:
        return [0] * players
    if isinstance(scores, str) or not isinstance(scores, Iterable):
        raise ValueError(f"scores: one total per seat in a list, not {scores!r}")
    given = list(scores)
    totals: list[int] = []
    for total in given:
        number = integer_or_none(total)
        if number is None:
            raise ValueError(f"scores: totals are whole numbers, not {given!r}")
        totals.append(number)
    if len(totals) != players:
        raise ValueError(f"expected {players} scores, got {len(totals)}")
    return totals


def _is_one_hand(value: object) -> bool:
    """Whether ``value`` can only be one hand (text, a card set, a mask), not a list of them."""
    return isinstance(value, (str, CardSet)) or not isinstance(value, Iterable)


def _check_deals(rules: Rules, hands: object) -> list[list[int]]:
    """The masks of the given deals' hands; ``hands`` is a list of deals, each a list of
    hands, and a plain list of hands (one level short) is refused saying so."""
    if hands is None:
        return []
    short = "hands: one list of hands per deal (hands=[[...]] for the first deal alone)"
    if _is_one_hand(hands):
        raise IllegalActionError(f"{short}, not {hands!r}")
    assert isinstance(hands, Iterable)
    deals = list(hands)
    for deal in deals:
        if _is_one_hand(deal):
            raise IllegalActionError(f"{short}: {deal!r} is a hand, not a deal")
    return [_check_hands(rules, deal) for deal in deals]


def _check_hands(rules: Rules, hands: object) -> list[int]:
    if _is_one_hand(hands):
        raise IllegalActionError(f"hands: one hand per seat in a list, not {hands!r}")
    assert isinstance(hands, Iterable)
    hands = list(hands)
    if len(hands) != rules.players:
        raise IllegalActionError(f"expected {rules.players} hands, got {len(hands)}")
    masks: list[int] = []
    seen = 0
    for seat, hand in enumerate(hands):
        try:
            mask = int(CardSet.parse(hand) if isinstance(hand, str) else CardSet(hand))
        except (CardParseError, ValueError, TypeError) as error:
            raise IllegalActionError(f"hand {seat + 1}: {error}") from None
        if mask.bit_count() != rules.hand_size:
            raise IllegalActionError(
                f"hand {seat + 1} has {mask.bit_count()} cards; each hand must have "
                f"{rules.hand_size}"
            )
        if mask & seen:
            raise IllegalActionError(f"hand {seat + 1} repeats {CardSet(mask & seen)}")
        if mask & ~rules.deck_mask:
            raise IllegalActionError(
                f"hand {seat + 1} holds {CardSet(mask & ~rules.deck_mask)}, removed from the deck"
            )
        seen |= mask
        masks.append(mask)
    return masks


class Game:
    """A game of Hearts from the first deal to the winners.

    Every action and seat given from outside is checked: a wrong one, of any type,
    raises :class:`IllegalActionError` saying why (hence ``| object`` in some
    signatures) and leaves the game unchanged.

    :param rules: the options in force: a :class:`Rules`, or a preset's name (``"standard"``).
    :param seed: decides every shuffle (and the seating, when shuffled); any str or int
        (not True or False).
    :param names: player names in seat order (before any seating shuffle); none blank or
        holding a control character (:data:`NAME_PATTERN`).
    :param hands: explicit dealt hands for the first deals (one list of hands per deal:
        ``hands=[[south, west, north, east]]`` for the first deal alone); deals beyond
        those are shuffled from the seed.
    :param first_deal: the number of the first deal (decides dealer and pass direction).
    :param scores: totals to start from, whole numbers.
    :param seated: the names are already in seat order (as in a record), so a shuffled
        seating is not drawn again.

    A wrong argument raises :class:`ValueError` (for hands :class:`IllegalActionError`)
    saying which and why.
    """

    def __init__(
        self,
        rules: Rules | str | None = None,
        seed: object = 0,
        names: Sequence[str] | None = None,
        *,
        hands: Sequence[Sequence[CardSet | int | Iterable[int] | str]] | None = None,
        first_deal: int | object = 0,
        scores: Sequence[int] | None = None,
        seated: bool | object = False,
    ) -> None:
        self.rules = _checked_rules(rules)
        self.seed: int | str = _checked_seed(seed)
        seed = self.seed
        players = self.rules.players
        if isinstance(names, str):
            raise ValueError(f"names: one name per seat in a list, not the text {names!r}")
        # Numpy's integers too, as the seed and the scores take them.
        deal_number = integer_or_none(first_deal)
        if deal_number is None or deal_number < 0:
            raise ValueError(f"first_deal: a deal number from 0, not {first_deal!r}")
        first_deal = deal_number
        # Held as objects until checked: compiled, a list[str] refused a number in it
        # with a TypeError that named no argument.
        named: list[object] = (
            list(names) if names is not None else list(seat_names(players, self.rules.direction))
        )
        if len(named) != players or not all(isinstance(name, str) for name in named):
            raise ValueError(f"expected {players} names, got {named!r}")
        given = [str(name) for name in named]
        for name in given:
            problem = name_problem(name)
            if problem is not None:
                raise ValueError(f"names: {problem}")
        if self.rules.seating is Seating.SHUFFLED and not seated:
            # Only the order around the table matters, so keeping the first player (the
            # person at the screen, in the faces) in seat 0 and shuffling the others gives
            # every order of play with the same chance.
            others = given[1:]
            random.Random(f"{seed}:seating").shuffle(others)
            given = given[:1] + others
        self.names: tuple[str, ...] = tuple(given)
        self.first_deal = first_deal
        # Hands given for particular deals (by number); other deals come from the seed.
        self._given_hands: dict[int, list[int]] = {
            first_deal + index: masks for index, masks in enumerate(_check_deals(self.rules, hands))
        }
        start = _check_scores(scores, players)
        self.initial_scores: tuple[int, ...] = tuple(start)
        self.results: list[DealResult] = []
        self.scores: list[int] = start[:]
        # Actions are logged compactly, since a game keeps them all: a play as its card
        # number, a pass as the complement of its mask (negative), a moon choice as 52
        # or 53 (a bool would not survive compilation: it becomes a plain int in a
        # list[int]); the acting seats in ``_seats``.  ``actions`` turns them into objects.
        self._log: list[int] = []
        self._seats = bytearray()
        # The legal mask legal_mask() last returned, while the state is still the one it
        # was computed for (0: none; a seat to move always has a legal card).  Every
        # change of state clears it, so play() may check a card against it directly.
        self._legal_mask = 0
        # The index of the first action of each finished deal before the current one; the
        # state of such a deal is rebuilt from its result if undo steps back into it.
        self._finished: list[int] = []
        # The last deal finished, kept as it ended (one state, whatever the game's length):
        # what undo steps back into first and what views of a finished deal read.
        self._last_finished: DealState | None = None
        self._deal_start = 0
        self.deal = self._new_deal(first_deal)

    # Deals ---------------------------------------------------------------------------

    def _new_deal(self, number: int) -> DealState:
        hands = self._given_hands.get(number)
        if hands is None:
            hands = _shuffled_hands(self.rules, self.seed, number, self.rules.dealer(number))
        return DealState.new(self.rules, list(hands), number)

    def replace_hands(self, hands: Sequence[CardSet | int | Iterable[int] | str]) -> None:
        """Deal these hands in the current deal instead (only before its first action)."""
        if len(self._log) != self._deal_start or self.deal.phase == DONE:
            raise IllegalActionError("the deal is already under way")
        self._legal_mask = 0
        masks = _check_hands(self.rules, hands)
        self._given_hands[self.deal_number] = masks
        self.deal = DealState.new(self.rules, masks, self.deal_number)

    def deal_states(self) -> list[DealState]:
        """The state of every deal so far, the current one last (read only)."""
        finished = self.results[: len(self._finished)]
        states = [_replayed(self.rules, result) for result in finished[:-1]]
        if finished:
            states.append(self._last_finished or _replayed(self.rules, finished[-1]))
        return [*states, self.deal]

    @property
    def deal_number(self) -> int:
        return self.deal.deal_number

    @property
    def dealer(self) -> int:
        return self.rules.dealer(self.deal.deal_number)

    @property
    def pass_direction(self) -> str:
        return self.rules.pass_direction(self.deal.deal_number) if self.deal.pass_offset else "hold"

    @property
    def phase(self) -> Phase:
        """``passing``, ``playing``, ``moon_choice`` or ``game_over``."""
        return GAME_OVER if self.deal.phase == DONE else self.deal.phase

    @property
    def is_over(self) -> bool:
        return self.deal.phase == DONE

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total once the game is over (ties share the win)."""
        if not self.is_over:
            return []
        low = min(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == low]

    @property
    def current_player(self) -> int | None:
        """The seat to move in the play phase or moon choice; None while passing or over."""
        return self.deal.to_move if self.deal.phase in (PLAYING, MOON_CHOICE) else None

    def to_act(self) -> list[int]:
        """Seats that may act now: all seats yet to pass, or the one seat to move."""
        if self.deal.phase == PASSING:
            return [s for s, p in enumerate(self.deal.passes) if p is None]
        current = self.current_player
        return [] if current is None else [current]

    def hand(self, seat: int | object) -> CardSet:
        """The cards ``seat`` holds now."""
        return CardSet(self.deal.hands[self._check_seat(seat)])

    def points_settled(self) -> bool:
        """Whether the rest of the deal can no longer change the points (see
        :meth:`DealState.points_settled`): the faces then finish it automatically."""
        return self.deal.points_settled()

    def auto_play_card(self) -> Card | None:
        """The card "auto play one" plays for the seat to move: its only legal card or,
        once the points are settled (:meth:`points_settled`), its lowest one.  ``None``
        when the seat has a real choice, or when no card is to be played.  Test it with
        ``is not None``: a card is an int, and the 2♣ (card 0) is false."""
        deal = self.deal
        if deal.phase != PLAYING:
            return None
        mask = self.legal_mask()
        if mask & (mask - 1) and not deal.points_settled():
            return None
        return CARDS[(mask & -mask).bit_length() - 1]

    def legal_plays(self) -> CardSet:
        """The cards the seat to move may play (empty when not in the play phase)."""
        if self.deal.phase != PLAYING:
            return CardSet()
        return CardSet(self.deal.legal_mask())

    def legal_mask(self) -> int:
        """:meth:`legal_plays` as a plain int mask, for fast loops."""
        deal = self.deal
        if deal.phase is not PLAYING:
            return 0
        # Game.play checks the card against this without computing it again.
        mask = self._legal_mask = deal.legal_mask()
        return mask

    @property
    def action_count(self) -> int:
        """How many actions have been taken (``len(actions)`` without building the list)."""
        return len(self._log)

    @property
    def actions(self) -> list[Action]:
        """Every action so far, in order (a new list; change the game through its methods)."""
        return [_action_of(entry, seat) for entry, seat in zip(self._log, self._seats, strict=True)]

    # Actions -------------------------------------------------------------------------

    def apply(self, action: Action | object) -> None:
        """Apply any action (used by records and servers)."""
        # The fields are read as plain objects: an action built with a wrong type (a
        # seat "0") is refused by the checks below in words, not by a compiled
        # attribute's TypeError.
        if isinstance(action, Pass):
            self.pass_cards(_field(action, "seat"), _field(action, "cards"))
        elif isinstance(action, Play):
            self.play(_field(action, "card"), seat=_field(action, "seat"))
        elif isinstance(action, MoonChoice):
            self.choose_moon(_field(action, "seat"), others_add=_field(action, "others_add"))
        else:
            raise IllegalActionError(f"not an action: {action!r}")

    def pass_cards(self, seat: int | object, cards: CardSet | Iterable[int] | str | object) -> None:
        """Set aside the cards a seat passes; the exchange happens once all have passed."""
        deal = self.deal
        seat = self._check_seat(seat)
        if deal.phase != PASSING:
            raise IllegalActionError(
                "there is no passing now" if deal.phase != DONE else "the game is over"
            )
        if deal.passes[seat] is not None:
            raise IllegalActionError(f"{self.names[seat]} has already passed")
        mask = _plain_card_mask(cards)
        if mask < 0:
            mask = _cards_mask(cards)
        count = self.rules.cards_passed
        if mask.bit_count() != count:
            raise IllegalActionError(f"pass exactly {count} cards, not {mask.bit_count()}")
        missing = mask & ~deal.hands[seat]
        if missing:
            raise IllegalActionError(f"you do not hold {CardSet(missing).pretty}")
        deal.set_pass(seat, mask)
        self._log.append(~mask)
        self._seats.append(seat)

    def play(self, card: int | str | object, seat: int | object | None = None) -> None:
        """Play a card for the seat to move (``seat``, if given, must be that seat).

        ``card`` is a :class:`Card`, a card number or a card's name (``"QS"``).
        """
        legal = self._legal_mask
        if (
            legal
            and seat is None
            and isinstance(card, int)
            and not isinstance(card, bool)
            and card >= 0
            and legal >> card & 1
        ):
            # The common case, checked against the mask legal_mask() returned for this
            # very state (so in the play phase: any change since would have cleared it).
            self._legal_mask = 0
            deal = self.deal
            self._log.append(card)
            self._seats.append(deal.to_move)
            deal.play_card(card)
            if deal.phase is DONE:
                self._finish_deal()
            return
        deal = self.deal
        if deal.phase != PLAYING:
            raise IllegalActionError(self._not_playing_reason())
        if seat is not None and seat != deal.to_move:
            other = self._check_seat(seat)
            raise IllegalActionError(
                f"it is {self.names[deal.to_move]}'s turn, not {self.names[other]}'s"
            )
        number: int
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
            number = card
        else:
            number = self._as_card(card)
        legal = legal or deal.legal_mask()
        if not legal >> number & 1:
            raise IllegalActionError(self.why_illegal(number))
        self._legal_mask = 0
        self._log.append(number)
        self._seats.append(deal.to_move)
        deal.play_card(number)
        if deal.phase == DONE:
            self._finish_deal()

    @staticmethod
    def _as_card(card: object) -> Card:
        if isinstance(card, str):
            try:
                return Card.parse(card)
            except CardParseError as error:
                raise IllegalActionError(str(error)) from None
        number = integer_or_none(card)
        if number is None or not 0 <= number < 52:
            raise IllegalActionError(f"not a card: {card!r}")
        return CARDS[number]

    def choose_moon(self, seat: int | object, others_add: bool | object) -> None:
        """The shooter's choice: ``others_add`` or subtract from the shooter's own score."""
        deal = self.deal
        seat = self._check_seat(seat)
        if not isinstance(others_add, bool):
            raise IllegalActionError(f"others_add: True or False, not {others_add!r}")
        if deal.phase != MOON_CHOICE:
            raise IllegalActionError("there is no moon to choose for now")
        shooter = deal.shooter
        if shooter is None or seat != shooter:
            raise IllegalActionError("only the player who shot the moon chooses")
        deal.choose_moon(others_add)
        self._log.append(_MOON_OTHERS_ADD if others_add else _MOON_SHOOTER_SUBTRACTS)
        self._seats.append(shooter)
        self._finish_deal()

    def _finish_deal(self) -> None:
        deal = self.deal
        assert deal.points is not None
        self.results.append(self._result_of(deal))
        for seat, value in enumerate(deal.points):
            self.scores[seat] += value
        if max(self.scores) < self.rules.end_score:
            self._finished.append(self._deal_start)
            self._last_finished = deal
            self._deal_start = len(self._log)
            self.deal = self._new_deal(deal.deal_number + 1)

    def _result_of(self, deal: DealState) -> DealResult:
        assert deal.points is not None
        return DealResult(
            number=deal.deal_number,
            dealer=self.rules.dealer(deal.deal_number),
            pass_direction=self.rules.pass_direction(deal.deal_number)
            if deal.pass_offset
            else "hold",
            dealt=tuple(map(_card_set, deal.dealt)),
            passes=tuple(_card_set(p or 0) for p in deal.passes),
            packed_tricks=pack_tricks(deal.tricks),
            taken_points=tuple(deal.raw_points()),
            points=tuple(deal.points),
            shooter=deal.shooter,
            shot=deal.shot,
            moon_choice=deal.moon_choice,
        )

    def undo(self) -> Action:
        """Take back the last action and return it; the state is exactly as before it."""
        if not self._log:
            raise IllegalActionError("there is nothing to undo")
        self._legal_mask = 0
        if len(self._log) == self._deal_start and self._finished:
            # Nothing done yet in this deal: step back into the one the last action ended.
            self.deal = self._last_finished or _replayed(self.rules, self.results[-1])
            self._last_finished = None
            self._deal_start = self._finished.pop()
            self._unscore_last_deal()
        elif self.deal.phase == DONE:
            self._unscore_last_deal()
        action = _action_of(self._log.pop(), self._seats.pop())
        deal = self.deal
        if isinstance(action, MoonChoice):
            deal.undo_moon_choice()
        elif isinstance(action, Play):
            deal.undo_play()
        else:
            deal.undo_pass(action.seat)
        return action

    def _unscore_last_deal(self) -> None:
        result = self.results.pop()
        for seat, value in enumerate(result.points):
            self.scores[seat] -= value

    # Views ---------------------------------------------------------------------------

    def view(self, seat: int | object) -> PlayerView:
        """What ``seat`` may know now."""
        seat = self._check_seat(seat)
        deal = self.deal
        players = self.rules.players
        exchanged = deal.phase != PASSING
        passing = deal.pass_offset != 0
        own_pass = deal.passes[seat]
        received = deal.received(seat)
        to_move = deal.to_move if deal.phase in (PLAYING, MOON_CHOICE) else None
        tricks = tuple(
            TrickRecord(leader, tuple(map(CARDS.__getitem__, cards)), winner)
            for leader, cards, winner in deal.tricks
        )
        current = tuple(((deal.leader + i) % players, Card(c)) for i, c in enumerate(deal.trick))
        hand_sizes = tuple(h.bit_count() for h in deal.hands)
        if not exchanged:
            # Cards set aside are still this seat's until the exchange.
            hand_sizes = tuple(
                size + (p.bit_count() if p else 0)
                for size, p in zip(hand_sizes, deal.passes, strict=True)
            )
        legal = (
            CardSet(deal.legal_mask())
            if deal.phase == PLAYING and deal.to_move == seat
            else CardSet()
        )
        return PlayerView(
            rules=self.rules,
            seat=seat,
            names=self.names,
            phase=self.phase,
            deal_number=deal.deal_number,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            pass_target=deal.pass_target(seat) if passing else None,
            pass_source=(seat - deal.pass_offset) % players if passing else None,
            hand=CardSet(deal.hands[seat]),
            passed=CardSet(own_pass) if passing and own_pass is not None else None,
            received=CardSet(received) if passing and received is not None else None,
            to_move=to_move,
            legal=legal,
            leader=deal.leader if deal.phase in (PLAYING, MOON_CHOICE) else None,
            trick=current,
            tricks=tricks,
            hand_sizes=hand_sizes,
            won=tuple(CardSet(t) for t in deal.taken),
            points_taken=tuple(deal.raw_points()),
            hearts_broken=deal.hearts_broken,
            voids=_voids(tricks, current, players),
            scores=tuple(self.scores),
            deal_points=tuple(r.points for r in self.results),
            passing_done=exchanged,
        )

    # Explanations ----------------------------------------------------------------------

    def why_illegal(self, card: int | str | object) -> str:
        """Why the seat to move may not play ``card`` now, in plain words."""
        deal = self.deal
        if deal.phase != PLAYING:
            return self._not_playing_reason()
        chosen = self._as_card(card)
        hand = deal.hands[deal.to_move]
        if not hand >> chosen & 1:
            return f"you do not hold the {chosen.pretty}"
        if deal.trick:
            led = Suit(deal.trick[0] // 13)
            if hand & SUIT_MASKS[led] and chosen.suit != led:
                return f"you hold {led.symbol}, and must follow suit"
        elif deal.played == 0:
            return f"the first trick must be led with the {self.rules.first_lead_card.pretty}"
        elif chosen.suit is Suit.HEARTS and not deal.hearts_broken:
            return "hearts have not been broken: lead another suit"
        if deal.in_first_trick:
            if chosen == QUEEN_OF_SPADES and self.rules.first_trick is not FirstTrick.NO_HEARTS:
                return "the Q♠ may not be played on the first trick"
            if chosen.suit is Suit.HEARTS:
                return "hearts may not be played on the first trick"
        return f"the {chosen.pretty} may not be played now"

    def _not_playing_reason(self) -> str:
        phase = self.deal.phase
        if phase == PASSING:
            return "cards are being passed: play starts when every player has passed"
        if phase == MOON_CHOICE:
            return f"{self.names[self.deal.to_move]} must first choose how to score the moon"
        return "the game is over"

    def _check_seat(self, seat: object) -> int:
        """``seat`` if it is one; else the error that says which seats there are."""
        number = integer_or_none(seat)
        if number is None or not 0 <= number < self.rules.players:
            raise IllegalActionError(f"no seat {seat!r}: seats are 0 to {self.rules.players - 1}")
        return number

    # Conveniences ----------------------------------------------------------------------

    def suggested_moon_choice(self) -> bool:
        """The conventional choice for a pending moon (see :func:`conventional_moon_choice`),
        the J♦ included where it counts: the shooter's view's
        (:meth:`PlayerView.suggested_moon_choice`)."""
        return self.view(self._shooter_to_choose()).suggested_moon_choice()

    def moon_totals(self, others_add: bool | object) -> tuple[int, ...]:
        """The totals once the pending moon is scored one way or the other, the J♦
        included: the shooter's view's (:meth:`PlayerView.moon_totals`)."""
        if not isinstance(others_add, bool):
            raise IllegalActionError(f"others_add: True or False, not {others_add!r}")
        return self.view(self._shooter_to_choose()).moon_totals(others_add)

    def _shooter_to_choose(self) -> int:
        shooter = self.deal.shooter
        if self.deal.phase != MOON_CHOICE or shooter is None:
            raise IllegalActionError("there is no moon to choose for now")
        return shooter

    def __copy__(self) -> Game:
        # A shallow copy shared the deal and the log with this game: playing on the copy
        # corrupted this one (a game over at 18 points whose record could not be written).
        return copy.deepcopy(self)

    def hearts_in_play(self) -> int:
        return (self.rules.deck_mask & HEARTS_MASK).bit_count()

    def __repr__(self) -> str:
        return (
            f"<Game deal={self.deal_number} phase={self.phase} scores={self.scores} "
            f"moon={MoonScoring(self.rules.moon).value}>"
        )


def _plain_card_mask(cards: object) -> int:
    """The mask of a list or tuple of card numbers, or -1 for anything else (or any
    number out of range), which the caller then reads through :class:`CardSet`: the
    common case without building a set, every other case with its checks and messages."""
    if not isinstance(cards, (list, tuple)):
        return -1
    mask = 0
    for card in cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            return -1
        if mask >> card & 1:
            return -1  # named twice: said so there, not counted as a card short
        mask |= 1 << card
    return mask


def _cards_mask(cards: object) -> int:
    """The mask of cards given as a CardSet, a string of names, or an iterable of card
    names and numbers; anything else is refused saying what was given."""
    if isinstance(cards, CardSet):
        return cards.mask
    try:
        if isinstance(cards, str):
            return CardSet.parse(cards).mask
        if not isinstance(cards, Iterable):
            raise IllegalActionError(f"cards: a CardSet, card names or card numbers, not {cards!r}")
        mask = 0
        for card in cards:
            number = Card.parse(card) if isinstance(card, str) else integer_or_none(card)
            if number is None or not 0 <= number < 52:
                raise IllegalActionError(f"not a card: {card!r}")
            if mask >> number & 1:
                raise IllegalActionError(f"the {CARDS[number].pretty} is named twice")
            mask |= 1 << number
        return mask
    except CardParseError as error:
        raise IllegalActionError(str(error)) from None


def _card_set(mask: int) -> CardSet:
    """A CardSet of a mask the engine made (so known to be valid), without the checks."""
    cards = object.__new__(CardSet)
    object.__setattr__(cards, "mask", mask)
    return cards


#: How ``Game._log`` records a moon choice: numbers no card has.
_MOON_SHOOTER_SUBTRACTS: Final = 52
_MOON_OTHERS_ADD: Final = 53


def _action_of(entry: int, seat: int) -> Action:
    if entry >= _MOON_SHOOTER_SUBTRACTS:
        return MoonChoice(seat, entry == _MOON_OTHERS_ADD)
    if entry >= 0:
        return Play(seat, CARDS[entry])
    return Pass(seat, CardSet(~entry))


def _replayed(rules: Rules, result: DealResult) -> DealState:
    """The final state of a finished deal, played again from its result."""
    state = DealState.new(rules, [hand.mask for hand in result.dealt], result.number)
    if state.phase == PASSING:
        for seat, given in enumerate(result.passes):
            state.set_pass(seat, given.mask)
    for _leader, cards, _winner in result.trick_plays:
        for card in cards:
            state.play_card(card)
    if result.moon_choice is not None:
        state.choose_moon(result.moon_choice is MoonScore.OTHERS_ADD)
    return state


def _voids(
    tricks: Sequence[TrickRecord], current: Sequence[tuple[int, Card]], players: int
) -> tuple[frozenset[Suit], ...]:
    voids: list[set[Suit]] = [set() for _ in range(players)]

    def scan(plays: Sequence[tuple[int, Card]]) -> None:
        if not plays:
            return
        led = plays[0][1].suit
        for seat, card in plays[1:]:
            if card.suit != led:
                voids[seat].add(led)

    for trick in tricks:
        scan(trick.plays(players))
    scan(current)
    return tuple(frozenset(v) for v in voids)
