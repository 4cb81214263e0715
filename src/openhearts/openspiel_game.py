"""One deal of Hearts under any of our rules, as an OpenSpiel game (needs ``open-spiel``).

Importing this module registers the game ``"openhearts"`` with ``pyspiel``, the way
OpenSpiel's own Python games register themselves; then ``pyspiel.load_game`` builds it
and OpenSpiel's algorithms, bots and evaluation tools play it like any other game::

    import pyspiel
    import openhearts.openspiel_game  # registers "openhearts"

    game = pyspiel.load_game("openhearts", {"preset": "source-003", "players": 6})
    state = game.new_initial_state()

Unlike OpenSpiel's C++ ``"hearts"`` (4 players, the options in
:mod:`openhearts.openspiel`), it plays every preset and player count, with every rule
of ours.  Parameters:

* ``preset`` (default ``"standard"``) and ``players`` (default 4): as ``hearts play``;
* ``options``: further rules options as ``NAME=VALUE`` (or ``NAME:VALUE``) separated by
  ``;``, read as the command line's ``-o`` (e.g.
  ``"jack_of_diamonds=true;moon=shooter_subtracts"``).  The game keeps them as
  ``NAME:VALUE``, lists as words (``pass_cycle:left right``), so that its game string
  (``str(game)``) loads back, pickles and serializes: OpenSpiel's game strings take no
  ``=`` or ``,`` inside a value;
* ``trick_rewards`` (default false): reward each trick's points as they are taken
  (OpenSpiel's ``REWARDS`` model) instead of the deal's points at its end.

A state is one deal.  Chance first draws the deal's place in the pass cycle (when the
cycle has more than one direction: each equally likely), then deals the cards one at
a time, the k-th to seat ``k % players``.  Then the seats act in turn with the
actions of :mod:`openhearts.turns`: cards ``0``-``51`` (our card numbers) passed one at a
time in seat order, then played, and ``52``/``53`` for a shooter's moon choice.  A
seat's return is minus its points for the deal (higher is better).  Observation
tensors are :mod:`openhearts.observation`'s encoding; information-state strings list
the seat's own hand, pass and everything played, in order.  States implement
``resample_from_infostate``, so OpenSpiel's information-set MCTS can search the game.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
from typing import Any, Final

from .extras import explained

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as error:  # pragma: no cover - needs the extra uninstalled
    raise explained(error) from None

from .bots.dealt import held_since_exchange, undo_exchange
from .bots.sampler import Knowledge, constraints, sample
from .cards import CardSet, cards_of
from .game import PASSING, IllegalActionError, PlayerView
from .observation import PIECES, SIZE, encode
from .options import parse_option, rules_from_args
from .phases import Phase
from .rules import Rules, RulesError
from .turns import ACTION_COUNT, TurnGame, action_name

__all__ = ["GAME_NAME", "OpenHeartsGame", "OpenHeartsState", "rules_from_parameters"]

#: The name the game is registered under.
GAME_NAME: Final = "openhearts"

_DEFAULT_PARAMETERS: Final[dict[str, Any]] = {
    "preset": "standard",
    "players": 4,
    "options": "",
    "trick_rewards": False,
}


def _game_type(trick_rewards: bool) -> Any:
    model = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="OpenHearts: Hearts with every common rule variant",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=model.REWARDS if trick_rewards else model.TERMINAL,
        max_num_players=6,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULT_PARAMETERS,
    )


def rules_from_parameters(parameters: dict[str, Any] | None) -> Rules:
    """Our :class:`Rules` for the game's parameters; bad ones raise :class:`RulesError`.

    >>> rules_from_parameters({"preset": "source-003", "players": 5, "options": "sun=false"}).sun
    False
    """
    parameters = parameters or {}
    pairs = _option_pairs(parameters)
    if any(name == "players" for name, _ in pairs):
        # The command line's words ("use --players") meant nothing here.
        raise RulesError("players: give the player count as the game's players parameter")
    arguments = argparse.Namespace(
        preset=str(parameters.get("preset", "standard")),
        # Checked by the rules, not made an int here: int() read 4.7 as 4 and said
        # "invalid literal for int()" of a word.
        players=parameters.get("players", 4),
        end_score=None,
        option=[f"{name}={value}" for name, value in pairs],
    )
    return rules_from_args(arguments)


def _option_pairs(parameters: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = []
    for part in str(parameters.get("options", "")).split(";"):
        if not part.strip():
            continue
        cut = min((i for i in (part.find("="), part.find(":")) if i >= 0), default=-1)
        if cut < 0:
            raise RulesError(f"option: expected NAME=VALUE, not {part.strip()!r}")
        name, value = part[:cut].strip(), part[cut + 1 :].strip()
        if value.startswith("["):
            try:
                listed = parse_option(f"{name}={value}")[1]
            except RulesError:
                listed = None
            if isinstance(listed, list):
                value = " ".join(str(item) for item in listed)
        pairs.append((name, value))
    return pairs


def _game_string_options(parameters: dict[str, Any]) -> str:
    """The options as the game keeps them: a form OpenSpiel's game strings read back.

    >>> _game_string_options({"options": 'sun=true; pass_cycle=["left", "hold"]'})
    'sun:true;pass_cycle:left hold'
    """
    return ";".join(f"{name}:{value}" for name, value in _option_pairs(parameters))


class OpenHeartsGame(pyspiel.Game):  # type: ignore[misc]
    """The game: one deal under the rules the parameters name."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**_DEFAULT_PARAMETERS, **(params or {})}
        try:
            rules = rules_from_parameters(parameters)
        except RulesError as error:
            # OpenSpiel reports a failed load as this error type.
            raise ValueError(f"openhearts: {error}") from None
        assert rules.pass_cycle is not None
        parameters["options"] = _game_string_options(parameters)
        players = rules.players
        cards = rules.deck_mask.bit_count()
        bound = float(rules.points_in_play + 10)  # the J♦'s -10 on top of any moon or sun
        super().__init__(
            _game_type(bool(parameters["trick_rewards"])),
            pyspiel.GameInfo(
                num_distinct_actions=ACTION_COUNT,
                max_chance_outcomes=max(52, len(rules.pass_cycle)),
                num_players=players,
                min_utility=-bound,
                max_utility=bound,
                utility_sum=None,
                max_game_length=players * rules.cards_passed + cards + 1,
            ),
            parameters,
        )

    # Read from the parameters, not kept: an unpickled game is rebuilt from them without
    # this class's __init__.
    @functools.cached_property
    def rules(self) -> Rules:
        """The rules the parameters name."""
        return rules_from_parameters(self.get_parameters())

    @property
    def trick_rewards(self) -> bool:
        """Whether each trick's points are rewarded as they are taken."""
        return bool(self.get_parameters()["trick_rewards"])

    def new_initial_state(self) -> OpenHeartsState:
        return OpenHeartsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"openhearts: observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return _Observer(perfect_recall=False, public=True, private=True)
        private_info = iig_obs_type.private_info
        perfect_recall, public = bool(iig_obs_type.perfect_recall), bool(iig_obs_type.public_info)
        if private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "openhearts: an observation holds one player's hidden cards at most, "
                "not every player's (private_info=ALL_PLAYERS)"
            )
        private = private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if perfect_recall and not (public and private):
            raise ValueError(
                "openhearts: the information state (perfect_recall=True) is given with "
                "public_info=True and private_info=SINGLE_PLAYER only"
            )
        return _Observer(perfect_recall=perfect_recall, public=public, private=private)


class OpenHeartsState(pyspiel.State):  # type: ignore[misc]
    """One deal: chance draws the pass direction and deals, then the seats act."""

    def __init__(self, game: OpenHeartsGame) -> None:
        super().__init__(game)
        rules = game.rules
        assert rules.pass_cycle is not None
        self.rules = rules
        self._trick_rewards = game.trick_rewards
        #: The deal's number, once drawn (its place in the pass cycle).
        self.deal_number: int | None = 0 if len(rules.pass_cycle) == 1 else None
        self._dealt: list[int] = []
        self.turns: TurnGame | None = None
        self._returns = [0.0] * rules.players
        self._rewards = [0.0] * rules.players
        #: Every player action so far as (seat, action), for information states.
        self.moves: list[tuple[int, int]] = []

    # Chance ---------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.turns is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.turns.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.turns.seat
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.turns is not None:
            # Was a bare assertion (and, under python -O, a list of no cards).
            raise ValueError("openhearts: chance outcomes only at a chance node (the deal)")
        if self.deal_number is None:
            assert self.rules.pass_cycle is not None
            count = len(self.rules.pass_cycle)
            return [(k, 1.0 / count) for k in range(count)]
        left = CardSet(self.rules.deck_mask & ~sum(1 << c for c in self._dealt)).cards()
        return [(int(card), 1.0 / len(left)) for card in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.turns is not None and player == self.turns.seat
        return self.turns.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.turns is None:
            self._apply_chance(action)
            return
        seat = self.turns.seat
        assert seat is not None
        before = self._returns
        try:
            self.turns.apply(int(action))
        except IllegalActionError as error:
            raise ValueError(f"openhearts: {error}") from None
        self.moves.append((seat, int(action)))
        self._returns = self._current_returns()
        self._rewards = [a - b for a, b in zip(self._returns, before, strict=True)]

    def dealt_to(self, seat: int) -> CardSet:
        """The cards dealt to ``seat`` so far (all of its hand once the deal is done)."""
        return CardSet(sum(1 << c for c in self._dealt[seat :: self.rules.players]))

    def _apply_chance(self, action: int) -> None:
        # Checked as the players' actions are: a wrong outcome would corrupt the deal.
        if action not in dict(self.chance_outcomes()):
            what = "deal number" if self.deal_number is None else "card to deal"
            raise ValueError(f"openhearts: {action} is not a {what} here")
        if self.deal_number is None:
            self.deal_number = int(action)
            return
        self._dealt.append(int(action))
        players = self.rules.players
        if len(self._dealt) == self.rules.deck_mask.bit_count():
            hands = [sum(1 << c for c in self._dealt[seat::players]) for seat in range(players)]
            self.turns = TurnGame(self.rules, hands=hands, first_deal=self.deal_number)

    def _current_returns(self) -> list[float]:
        assert self.turns is not None
        # Negated as ints: -float(0) is -0.0, shown as "-0.0" in every return of a seat
        # that took no points.
        if self.turns.is_over:
            return [float(-p) for p in self.turns.scored_points()]
        if self._trick_rewards:
            return [float(-p) for p in self.turns.points_so_far()]
        return [0.0] * self.rules.players

    # Results ------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.turns is not None and self.turns.is_over

    def returns(self) -> list[float]:
        return list(self._returns)

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenHeartsState:
        """A state ``player_id`` cannot tell from this one: the other hands (and passes)
        drawn at random consistently with everything it knows, via our bots' sampler.

        This is what OpenSpiel's information-set MCTS (``ISMCTSBot``) asks of a game.
        ``probability_sampler()`` gives a number in [0, 1) that seeds the draw.
        """
        if self.turns is None:
            raise ValueError("openhearts: resampling needs the cards dealt")
        rng = random.Random(float(probability_sampler()))
        dealt, chosen = _consistent_deal(self, player_id, rng)
        world = OpenHeartsState(self.get_game())
        if self.deal_number is not None and world.deal_number is None:
            world.apply_action(self.deal_number)
        players = self.rules.players
        for index in range(self.rules.deck_mask.bit_count()):
            world.apply_action(dealt[index % players][index // players])
        for seat, action in self.moves:
            if world.turns is not None and world.turns.game.phase == PASSING and seat != player_id:
                action = chosen[seat].pop()
            world.apply_action(action)
        return world

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.deal_number is None:
                assert self.rules.pass_cycle is not None
                return f"deal {action}: pass {self.rules.pass_direction(action)}"
            return f"deal {action_name(action)}"
        return action_name(action)

    def __str__(self) -> str:
        if self.turns is None:
            return f"dealing: {len(self._dealt)} cards dealt"
        # The views, not the game: once the deal is over the game has dealt the next one.
        views = [self.turns.view(seat) for seat in range(self.rules.players)]
        hands = " | ".join(str(view.hand) for view in views)
        return f"{self.turns.phase}: {hands}; moves {_moves_text(self.moves)}"


def _consistent_deal(
    state: OpenHeartsState, seat: int, rng: random.Random
) -> tuple[list[list[int]], list[list[int]]]:
    """Dealt hands and passes of every seat that fit what ``seat`` knows of ``state``.

    The hands held now are drawn by :func:`openhearts.bots.sampler.sample`; the cards each
    seat has played go back into its hand; then the passes are undone: ``seat``'s own
    and the one it received are known, any other pass is drawn from the cards its
    receiver holds or has played (they came from somewhere; no one can tell where).
    """
    turns = state.turns
    assert turns is not None and state.deal_number is not None
    rules = state.rules
    players = rules.players
    view = turns.view(seat)
    knowledge = constraints(view)
    own_pass = int(view.passed or CardSet())
    if not view.passing_done and own_pass:
        # Set aside but not yet exchanged: still this seat's, and known to it.
        knowledge = dataclasses.replace(
            knowledge,
            unseen=knowledge.unseen & ~own_pass,
            allowed=tuple(mask & ~own_pass for mask in knowledge.allowed),
        )
    held = held_since_exchange(view, sample(_with_first_leader(view, knowledge), rng))
    # How many pass cards each seat has chosen so far, from the moves.
    counts = [0] * players
    offset = rules.pass_offset(state.deal_number)
    if offset:
        for who, _action in state.moves[: players * rules.cards_passed]:
            counts[who] += 1
    chosen: list[list[int]] = [[] for _ in range(players)]
    if view.passing_done and offset:
        # ``held`` is each seat's hand after the exchange: take back what it received.
        dealt, passes = undo_exchange(view, held, offset, rng)
        chosen = [cards_of(p) for p in passes]
    else:
        dealt = held
        dealt[seat] |= own_pass
        for other in range(players):
            if other != seat and counts[other]:
                chosen[other] = rng.sample(cards_of(dealt[other]), counts[other])
    for order in chosen:
        rng.shuffle(order)
    return [cards_of(hand) for hand in dealt], chosen


def _with_first_leader(view: PlayerView, knowledge: Knowledge) -> Knowledge:
    """``knowledge`` with the fact that, before the first lead, the seat to lead holds the
    first lead card (the seat to move is part of the observation).

    The bots' :func:`~openhearts.bots.sampler.constraints` leaves it out: a bot samples
    when it is itself to move, and then holds that card; OpenSpiel resamples for any seat.
    """
    leader = view.to_move
    if view.phase != Phase.PLAYING or view.tricks or view.trick or leader in (None, view.seat):
        return knowledge
    card = 1 << view.rules.first_lead_card
    if not knowledge.unseen & card:
        return knowledge
    fixed = list(knowledge.fixed)
    fixed[leader] |= card
    allowed = tuple(
        mask | card if other == leader else mask & ~card
        for other, mask in enumerate(knowledge.allowed)
    )
    return dataclasses.replace(knowledge, fixed=tuple(fixed), allowed=allowed)


def _moves_text(moves: list[tuple[int, int]]) -> str:
    return " ".join(f"{seat}:{action_name(action)}" for seat, action in moves)


#: The pieces of an observation that only its player knows; the others are public.
_PRIVATE_PIECES: Final = frozenset({"hand", "passing", "received"})


class _Observer:
    """Observations of a state for one player (OpenSpiel's Python observer protocol):
    what is public, what only the player knows (``private``), or both."""

    def __init__(self, *, perfect_recall: bool, public: bool, private: bool) -> None:
        self.perfect_recall = perfect_recall
        self.public, self.private = public, private
        # The information state is given as a string only (its history has no fixed size).
        self.tensor = np.zeros(0 if perfect_recall else SIZE, np.float32)
        self.dict: dict[str, Any] = {}
        if not perfect_recall:
            start = 0
            for name, shape in PIECES:
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[start : start + size].reshape(shape)
                start += size

    def set_from(self, state: OpenHeartsState, player: int) -> None:
        if self.perfect_recall:
            return
        if state.turns is None:
            self.tensor.fill(0.0)
            return
        view = state.turns.view(player)
        encode(view, int(state.turns.selected(player)), out=self.tensor)
        for name, values in self.dict.items():
            if not (self.private if name in _PRIVATE_PIECES else self.public):
                values.fill(0.0)

    def string_from(self, state: OpenHeartsState, player: int) -> str:
        if self.perfect_recall:
            return _information_state(state, player)
        turns = state.turns
        parts = [f"seat {player}"]
        if turns is None:
            if self.private:
                parts.append(f"dealt {state.dealt_to(player)}")
            return "; ".join(parts)
        view = turns.view(player)
        if self.public:
            parts.append(turns.phase)
        if self.private:
            selected = int(turns.selected(player))
            parts.append(f"hand {CardSet(view.hand.mask & ~selected)}")
            passing = selected | int(view.passed or CardSet())
            if passing:
                parts.append(f"passing {CardSet(passing)}")
            if view.received is not None:
                parts.append(f"received {view.received}")
        if self.public:
            parts.append("trick " + " ".join(f"{seat}:{card}" for seat, card in view.trick))
            parts.append("points " + " ".join(map(str, view.points_taken)))
            parts.append("hearts broken" if view.hearts_broken else "hearts unbroken")
        return "; ".join(parts)


def _information_state(state: OpenHeartsState, player: int) -> str:
    """Everything ``player`` has seen, in order: its deal, its pass, every play."""
    parts = [f"seat {player}", f"deal {state.deal_number}", f"dealt {state.dealt_to(player)}"]
    turns = state.turns
    if turns is not None:
        rules = state.rules
        assert state.deal_number is not None
        offset = rules.pass_offset(state.deal_number)
        passes = rules.players * rules.cards_passed if offset else 0
        own = [action_name(action) for seat, action in state.moves[:passes] if seat == player]
        if own:
            parts.append("passed " + " ".join(own))
        received = turns.view(player).received
        if len(state.moves) >= passes and received is not None:
            parts.append(f"received {received}")
        parts.append("plays " + _moves_text(state.moves[passes:]))
    return "; ".join(parts)


pyspiel.register_game(_game_type(False), OpenHeartsGame)
