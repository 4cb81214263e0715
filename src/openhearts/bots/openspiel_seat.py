"""Outside opponents: OpenSpiel's fair Hearts bots playing a seat at our table.

:class:`OpenSpielBot` plays one seat with a bot from OpenSpiel (the ``open-spiel``
package, imported only when such a bot is built): its information-set Monte Carlo
tree search (``ISMCTSBot``) or its uniform random bot.  Both are *fair*: they decide
from the information state of their own seat.  ISMCTS deals itself the hidden cards
anew for every simulation from that information state (OpenSpiel's
``ResampleFromInfostate``), never from the hands held by the state it is given.

For every decision the seat rebuilds a ``pyspiel`` state in lockstep with our game:
the pass direction, a deal, the passes and every card played so far are replayed, in
order, on both.  Only this seat's cards are known; the other hands are filled with one
deal of the unseen cards that fits everything the seat knows
(:mod:`openhearts.bots.sampler`), and the hidden passes are read back from it.  Before
asking OpenSpiel anything, the rebuilt state is checked against our view: the same seat
to move, the same hand, the same legal cards.

Only rules OpenSpiel's Hearts can express are accepted (4 players, 3 cards passed, the
2♣ leads, moon adds 26 to the others, no sun): the mapping is
:mod:`openhearts.openspiel`'s.
"""

from __future__ import annotations

import functools
import random
import zlib
from typing import Any

from .. import openspiel
from ..cards import Card, CardSet, cards_of
from ..game import PASSING, PlayerView
from ..rules import Rules
from .base import BaseBot
from .dealt import held_since_exchange, undo_exchange
from .sampler import constraints, sample

__all__ = ["OpenSpielBot", "OpenSpielError", "lockstep_state"]


#: ISMCTS simulations when a time limit passes before the first simulation ends.
FALLBACK_SIMS = 20


class OpenSpielError(ValueError):
    """OpenSpiel is missing, the rules cannot be expressed in it, or its state and ours
    disagree."""


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise OpenSpielError(
            "OpenSpiel is not installed: pip install 'openhearts[openspiel]'"
        ) from None
    return pyspiel


@functools.lru_cache(maxsize=16)
def _game_for(rules: Rules) -> Any:
    """The OpenSpiel game for ``rules`` (the mapping is :mod:`openhearts.openspiel`)."""
    _pyspiel()
    try:
        return openspiel.load_game(rules)
    except openspiel.OpenSpielMappingError as error:
        raise OpenSpielError(f"OpenSpiel's Hearts cannot play these rules: {error}") from None


def lockstep_state(view: PlayerView, rng: random.Random) -> Any:
    """A ``pyspiel`` state at the same point of the deal as ``view``, checked against it.

    Our cards, our pass, what we received and every card played are the real ones; the
    other hands are one deal of the unseen cards consistent with the view.
    """
    rules = view.rules
    game = _game_for(rules)
    seat = view.seat
    players = rules.players
    hidden = sample(constraints(view), rng)
    final = held_since_exchange(view, hidden)
    offset = 0 if view.pass_target is None else (view.pass_target - seat) % players
    passes: list[int] = [0] * players
    exchanged = offset and view.phase != PASSING
    if exchanged:
        dealt, passes = undo_exchange(view, final, offset, rng)
    elif view.phase != PASSING:
        dealt = final
    else:
        # OpenSpiel's sampling of hidden hands fails while some seats have passed and
        # others not.  A pass depends only on the hand and the direction, so the table is
        # turned to put this seat first to pass (player 0).
        dealt = final[seat:] + final[:seat]
    actions = [offset]
    cards = [cards_of(hand) for hand in dealt]
    actions += [openspiel.card_to_action(cards[k % players][k // players]) for k in range(52)]
    actions += [openspiel.card_to_action(card) for given in passes for card in cards_of(given)]
    actions += [openspiel.card_to_action(card) for trick in view.tricks for card in trick.cards]
    actions += [openspiel.card_to_action(card) for _, card in view.trick]
    state = game.new_initial_state()
    try:
        for action in actions:
            state.apply_action(action)
    except Exception as error:  # pyspiel reports an illegal action as a bare RuntimeError
        raise OpenSpielError(f"OpenSpiel refused the replay of this deal: {error}") from None
    _check(state, view, 0 if view.phase == PASSING else seat)
    return state


def _check(state: Any, view: PlayerView, seat: int) -> None:
    """Refuse a rebuilt state that is not at our view's decision (``seat``: this seat's
    player number in OpenSpiel)."""
    if state.current_player() != seat:
        raise OpenSpielError(
            f"OpenSpiel's state has player {state.current_player()} to move, not seat {seat}"
        )
    legal = openspiel.actions_to_mask(state.legal_actions())
    expected = view.hand.mask if view.phase == PASSING else view.legal.mask
    if legal != expected:
        raise OpenSpielError(
            f"OpenSpiel allows {CardSet(legal)} where our game allows {CardSet(expected)}"
        )


class OpenSpielBot(BaseBot):
    """A seat played by one of OpenSpiel's fair Hearts bots.

    :param seed: makes decisions repeatable (without ``seconds``).
    :param kind: ``"ismcts"`` (information-set MCTS) or ``"random"`` (uniform random).
    :param sims: ISMCTS simulations per decision (default 700).
    :param uct_c: ISMCTS exploration constant.
    :param rollouts: random rollouts per leaf evaluation.
    :param seconds: a wall-clock limit per decision instead of a fixed effort (0: none);
        when not one simulation fits in it, :data:`FALLBACK_SIMS` simulations decide.

    Raises :class:`OpenSpielError` with an install hint when OpenSpiel is missing.
    """

    name = "openspiel"

    def __init__(
        self,
        seed: object = 0,
        kind: str = "ismcts",
        sims: int = 700,
        uct_c: float = 2.0,
        rollouts: int = 1,
        seconds: float = 0.0,
    ) -> None:
        super().__init__(seed)
        pyspiel = _pyspiel()
        if kind not in ("ismcts", "random"):
            raise OpenSpielError(f"kind: ismcts or random, not {kind!r}")
        if sims < 1 or rollouts < 1 or seconds < 0:
            raise OpenSpielError("sims and rollouts: at least 1; seconds: not negative")
        if not uct_c >= 0:
            raise OpenSpielError("uct_c: not negative")
        self.kind = kind
        number = zlib.crc32(f"openspiel:{seed}".encode()) & 0x7FFFFFFF
        self._bot: Any
        if kind == "random":
            # Built on first use: the factory needs the game, which depends on the rules.
            self._bot = None
        else:
            # The bot keeps only a pointer to its evaluator: hold it as long as the bot.
            self._evaluator = pyspiel.RandomRolloutEvaluator(int(rollouts), number)
            self._bot = pyspiel.ISMCTSBot(
                number,
                self._evaluator,
                float(uct_c),
                int(sims),
                -1,  # a fresh world per simulation, drawn from the information state
                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                False,
                False,
                float(seconds) if seconds else -1.0,
            )
        self._number = number
        self._random: dict[int, Any] = {}
        self._fallback: Any = None
        if kind == "ismcts" and seconds:
            self._fallback = pyspiel.ISMCTSBot(
                number, self._evaluator, float(uct_c), FALLBACK_SIMS, -1,
                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False, -1.0,
            )  # fmt: skip

    def __repr__(self) -> str:
        return f"OpenSpielBot(seed={self.seed!r}, kind={self.kind!r})"

    def _step(self, state: Any) -> int:
        bot = self._bot
        if bot is None:
            # OpenSpiel's random bot is built for one player number (see lockstep_state).
            player = state.current_player()
            bot = self._random.get(player)
            if bot is None:
                bot = _pyspiel().make_uniform_random_bot(player, self._number)
                self._random[player] = bot
        try:
            action: int = bot.step(state)
        except Exception:  # pyspiel.SpielError, raised as a plain exception
            if self._fallback is None:
                raise
            # With a time limit OpenSpiel's ISMCTS fails when not one simulation fits in
            # it (a busy machine): decide by a few simulations instead.
            action = self._fallback.step(state)
        return int(openspiel.action_to_card(action))

    def choose_pass(self, view: PlayerView) -> CardSet:
        state = lockstep_state(view, self.rng)
        chosen = 0
        # OpenSpiel passes one card per action.
        for _ in range(view.rules.cards_passed):
            card = self._step(state)
            chosen |= 1 << card
            state.apply_action(openspiel.card_to_action(card))
        return CardSet(chosen)

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal.mask
        if legal & (legal - 1) == 0:
            return Card(legal.bit_length() - 1)
        return Card(self._step(lockstep_state(view, self.rng)))
