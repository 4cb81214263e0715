"""One deal of Hearts as a fast, cloneable state machine on int bitmasks.

:class:`DealState` knows nothing of earlier deals or total scores; :class:`~openhearts.game.Game`
strings deals together.  Bots may build a :class:`DealState` for a position they
imagine (sampled hidden hands) with :meth:`DealState.from_position` and play it out:
``legal_mask``, ``play_card`` and ``undo_play`` are the hot path and do no checking.
No undo log is kept: ``undo_play`` and ``undo_pass`` work out what to restore from the
tricks and passes the state records anyway, so a finished deal carries nothing extra.

>>> from openhearts.rules import Rules
>>> state = DealState.new(Rules(), [int(CardSet.parse(h)) for h in (
...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
...     "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
...     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")], deal_number=3)
>>> state.phase, state.to_move, str(CardSet(state.legal_mask()))
('playing', 0, '2C')
"""

from __future__ import annotations

from typing import Final

from .cards import (
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    CardSet,
)
from .phases import MoonScore, Phase, Shot
from .rules import FirstTrick, HeartsBreak, MoonScoring, Rules

__all__ = ["DealState", "PASSING", "PLAYING", "MOON_CHOICE", "DONE"]

PASSING: Final[Phase] = Phase.PASSING
PLAYING: Final[Phase] = Phase.PLAYING
MOON_CHOICE: Final[Phase] = Phase.MOON_CHOICE
DONE: Final[Phase] = Phase.DONE

_QS_BIT: Final = 1 << QUEEN_OF_SPADES
_JD_BIT: Final = 1 << JACK_OF_DIAMONDS
_NOT_HEARTS: Final = ~HEARTS_MASK


class DealState:
    """The state of one deal: hands, passes, tricks, points.

    Attributes are public for fast reading; change them only through the methods.
    Seats are numbered in the order of play.
    """

    __slots__ = (
        "rules", "players", "deal_number", "pass_offset", "dealt", "hands", "passes",
        "phase", "leader", "to_move", "trick", "tricks", "taken", "tricks_won",
        "played", "in_first_trick", "hearts_broken", "points", "shooter", "shot", "moon_choice",
        "_first_trick_bar", "_first_trick_fallback", "_break_mask", "_lead_restricted",
        "_broken_by",
    )  # fmt: skip

    rules: Rules
    players: int
    deal_number: int
    pass_offset: int
    dealt: tuple[int, ...]
    hands: list[int]
    passes: list[int | None]
    phase: Phase
    leader: int
    to_move: int
    trick: list[int]
    tricks: list[tuple[int, tuple[int, ...], int]]
    taken: list[int]
    tricks_won: list[int]
    played: int
    in_first_trick: bool
    hearts_broken: bool
    points: list[int] | None
    shooter: int | None
    shot: Shot | None
    moon_choice: MoonScore | None
    _first_trick_bar: int
    _first_trick_fallback: int
    _break_mask: int
    _lead_restricted: bool
    #: The card whose play broke hearts (-1: none did), so that undoing it mends them.
    _broken_by: int

    @classmethod
    def new(cls, rules: Rules, hands: list[int], deal_number: int = 0) -> DealState:
        """A fresh deal from dealt hands (masks, one per seat, already checked)."""
        self = cls()
        self._setup(rules, deal_number)
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.passes = [None] * self.players
        self.trick = []
        self.tricks = []
        self.taken = [0] * self.players
        self.tricks_won = [0] * self.players
        self.played = 0
        self.in_first_trick = True
        self.hearts_broken = rules.hearts_break is HeartsBreak.NEVER_RESTRICTED
        self.points = None
        self.shooter = None
        self.shot = None
        self.moon_choice = None
        self._broken_by = -1
        if self.pass_offset == 0:
            self._start_play()
        else:
            self.phase = PASSING
            self.leader = self.to_move = -1
        return self

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: list[int],
        *,
        leader: int,
        trick: list[int],
        taken: list[int],
        tricks_won: list[int],
        played: int,
        hearts_broken: bool,
        deal_number: int = 0,
    ) -> DealState:
        """A position in the play phase, for search: hands are what each seat holds now."""
        self = cls()
        self._setup(rules, deal_number)
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.passes = [0] * self.players
        self.phase = PLAYING
        self.leader = leader
        self.trick = list(trick)
        self.to_move = (leader + len(trick)) % self.players
        self.tricks = []
        self.taken = list(taken)
        self.tricks_won = list(tricks_won)
        self.played = played
        self.in_first_trick = played.bit_count() == len(trick)
        self.hearts_broken = hearts_broken or rules.hearts_break is HeartsBreak.NEVER_RESTRICTED
        self.points = None
        self.shooter = None
        self.shot = None
        self.moon_choice = None
        self._broken_by = -1
        return self

    def _setup(self, rules: Rules, deal_number: int) -> None:
        self.rules = rules
        self.players = rules.players
        self.deal_number = deal_number
        self.pass_offset = rules.pass_offset(deal_number)
        option = rules.first_trick
        if option is FirstTrick.ALLOWED:
            self._first_trick_bar = 0
        elif option is FirstTrick.NO_HEARTS:
            self._first_trick_bar = HEARTS_MASK
        else:
            self._first_trick_bar = HEARTS_MASK | _QS_BIT
        # When every candidate is barred: NO_POINTS still bars the Q♠ while a heart is held.
        self._first_trick_fallback = HEARTS_MASK if option is FirstTrick.NO_POINTS else -1
        self._break_mask = (
            HEARTS_MASK | _QS_BIT if rules.hearts_break is HeartsBreak.POINT_CARD else HEARTS_MASK
        )
        self._lead_restricted = rules.hearts_break is not HeartsBreak.NEVER_RESTRICTED

    def clone(self) -> DealState:
        """An independent copy (shares only the immutable rules)."""
        other = DealState()
        other.rules = self.rules
        other.players = self.players
        other.deal_number = self.deal_number
        other.pass_offset = self.pass_offset
        other.dealt = self.dealt
        other.hands = self.hands[:]
        other.passes = self.passes[:]
        other.phase = self.phase
        other.leader = self.leader
        other.to_move = self.to_move
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.taken = self.taken[:]
        other.tricks_won = self.tricks_won[:]
        other.played = self.played
        other.in_first_trick = self.in_first_trick
        other.hearts_broken = self.hearts_broken
        other.points = None if self.points is None else self.points[:]
        other.shooter = self.shooter
        other.shot = self.shot
        other.moon_choice = self.moon_choice
        other._first_trick_bar = self._first_trick_bar
        other._first_trick_fallback = self._first_trick_fallback
        other._break_mask = self._break_mask
        other._lead_restricted = self._lead_restricted
        other._broken_by = self._broken_by
        return other

    # Passing ---------------------------------------------------------------------

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_offset) % self.players

    def set_pass(self, seat: int, cards: int) -> None:
        """Set aside a seat's pass; when every seat has passed, the cards change hands."""
        self.hands[seat] &= ~cards
        self.passes[seat] = cards
        if None not in self.passes:
            for giver, given in enumerate(self.passes):
                assert given is not None
                self.hands[(giver + self.pass_offset) % self.players] |= given
            self._start_play()

    def received(self, seat: int) -> int | None:
        """What a seat received, once the exchange has happened (else ``None``)."""
        if self.phase == PASSING:
            return None
        return self.passes[(seat - self.pass_offset) % self.players] or 0

    def _start_play(self) -> None:
        self.phase = PLAYING
        lead_bit = 1 << self.rules.first_lead_card
        for seat, hand in enumerate(self.hands):
            if hand & lead_bit:
                self.leader = self.to_move = seat
                break

    # Playing ---------------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the seat to move may play, as a mask (play phase only)."""
        hand = self.hands[self.to_move]
        trick = self.trick
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            candidates = follow or hand
        elif self.played == 0:
            return 1 << self.rules.first_lead_card
        elif self._lead_restricted and not self.hearts_broken:
            return hand & _NOT_HEARTS or hand
        else:
            return hand
        if not self.in_first_trick or not self._first_trick_bar:
            return candidates
        allowed = candidates & ~self._first_trick_bar
        if allowed:
            return allowed
        return candidates & self._first_trick_fallback or candidates

    def play_card(self, card: int) -> None:
        """Play a card for the seat to move (no checks: use ``legal_mask`` first)."""
        bit = 1 << card
        seat = self.to_move
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        trick.append(card)
        if not self.hearts_broken and bit & self._break_mask:
            self.hearts_broken = True
            self._broken_by = card
        players = self.players
        if len(trick) < players:
            self.to_move = seat + 1 if seat + 1 < players else 0
            return
        mask = 0
        for other in trick:
            mask |= 1 << other
        # The highest card of the led suit is the highest set bit within that suit.
        high = (mask & SUIT_MASKS[trick[0] // 13]).bit_length() - 1
        leader = self.leader
        winner = (leader + trick.index(high)) % players
        self.taken[winner] |= mask
        self.tricks_won[winner] += 1
        self.tricks.append((leader, tuple(trick), winner))
        self.in_first_trick = False
        self.trick = []
        self.leader = self.to_move = winner
        if not self.hands[winner]:
            self._score()

    def undo_play(self) -> int:
        """Take back the last play and return its card: the last card of the trick in
        progress, or of the last trick when none is in progress."""
        if not self.trick:
            leader, cards, winner = self.tricks.pop()
            self.trick = list(cards)
            mask = 0
            for other in cards:
                mask |= 1 << other
            self.taken[winner] &= ~mask
            self.tricks_won[winner] -= 1
            self.leader = leader
            self.phase = PLAYING
            self.points = None
            self.shooter = None
            self.shot = None
        card = self.trick.pop()
        if card == self._broken_by:
            self.hearts_broken = False
            self._broken_by = -1
        seat = (self.leader + len(self.trick)) % self.players
        bit = 1 << card
        self.hands[seat] |= bit
        self.played &= ~bit
        self.in_first_trick = self.played.bit_count() == len(self.trick)
        self.to_move = seat
        return card

    # Scoring ---------------------------------------------------------------------

    def points_settled(self) -> bool:
        """True when nothing left to play can change anyone's points this deal: no card
        that scores (hearts, the Q♠, the J♦ where it counts) is still in a hand or in
        the trick in progress, and no sun is still possible.  The rest of the deal may
        then be played automatically."""
        if self.phase != PLAYING:
            return False
        scoring = self.rules.point_mask
        if self.rules.jack_of_diamonds:
            scoring |= _JD_BIT & self.rules.deck_mask
        in_trick = 0
        for card in self.trick:
            in_trick |= 1 << card
        unplayed = self.rules.deck_mask & ~self.played
        if (unplayed | in_trick) & scoring:
            return False
        # One player with every trick so far could still shoot the sun.
        return not (self.rules.sun and sum(1 for won in self.tricks_won if won) <= 1)

    def raw_points(self) -> list[int]:
        """Points taken so far by each seat (hearts 1, Q♠ 13, J♦ -10 when in force)."""
        jack = self.rules.jack_of_diamonds
        result = []
        for taken in self.taken:
            value = (taken & HEARTS_MASK).bit_count()
            if taken & _QS_BIT:
                value += 13
            if jack and taken & _JD_BIT:
                value -= 10
            result.append(value)
        return result

    def _score(self) -> None:
        rules = self.rules
        points = self.raw_points()
        point_mask = rules.point_mask
        total = rules.points_in_play
        self.phase = DONE
        tricks_per_deal = rules.hand_size
        if rules.sun:
            for seat, won in enumerate(self.tricks_won):
                if won == tricks_per_deal:
                    self.shooter, self.shot = seat, Shot.SUN
                    self.points = self._with_jack(
                        [-total if s == seat else total for s in range(self.players)]
                    )
                    return
        if rules.moon is not MoonScoring.NONE and point_mask:
            for seat, taken in enumerate(self.taken):
                if taken & point_mask == point_mask:
                    self.shooter, self.shot = seat, Shot.MOON
                    if rules.moon is MoonScoring.SHOOTER_CHOOSES:
                        self.phase = MOON_CHOICE
                        self.to_move = seat
                        self.points = None
                        return
                    self._score_moon(rules.moon is MoonScoring.OTHERS_ADD)
                    return
        self.points = points

    def _with_jack(self, points: list[int]) -> list[int]:
        if self.rules.jack_of_diamonds:
            for seat, taken in enumerate(self.taken):
                if taken & _JD_BIT:
                    points[seat] -= 10
        return points

    def _score_moon(self, others_add: bool) -> None:
        total = self.rules.points_in_play
        seat = self.shooter
        if others_add:
            points = [0 if s == seat else total for s in range(self.players)]
        else:
            points = [-total if s == seat else 0 for s in range(self.players)]
        self.points = self._with_jack(points)
        self.phase = DONE

    def choose_moon(self, others_add: bool) -> None:
        """The shooter's choice where the rules let the shooter choose."""
        self.moon_choice = MoonScore.OTHERS_ADD if others_add else MoonScore.SHOOTER_SUBTRACTS
        self._score_moon(others_add)

    def undo_moon_choice(self) -> None:
        self.moon_choice = None
        self.points = None
        self.phase = MOON_CHOICE
        assert self.shooter is not None
        self.to_move = self.shooter

    def undo_pass(self, seat: int) -> None:
        """Take back ``seat``'s pass, the last one made; an exchange is reversed first."""
        hands = self.hands
        passes = self.passes
        if self.phase != PASSING:
            for giver, given in enumerate(passes):
                hands[(giver + self.pass_offset) % self.players] &= ~(given or 0)
            self.phase = PASSING
            self.leader = self.to_move = -1
        hands[seat] |= passes[seat] or 0
        passes[seat] = None

    def key(self) -> tuple[object, ...]:
        """Everything that decides the future of the deal, for equality checks and caches."""
        return (
            self.deal_number, tuple(self.hands), tuple(self.passes), self.phase, self.leader,
            self.to_move, tuple(self.trick), tuple(self.tricks), tuple(self.taken),
            tuple(self.tricks_won), self.played, self.in_first_trick, self.hearts_broken,
            None if self.points is None else tuple(self.points), self.shooter, self.shot,
            self.moon_choice,
        )  # fmt: skip

    def __repr__(self) -> str:
        hands = " | ".join(str(CardSet(h)) for h in self.hands)
        return f"<DealState {self.phase} deal={self.deal_number} to_move={self.to_move} {hands}>"
