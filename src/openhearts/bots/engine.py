"""Bots in any language: a program that speaks the engine protocol over its standard
input and output, one JSON object per line, in the spirit of chess's UCI
(``docs/engine-protocol.md``).

:class:`EngineBot` runs the program and asks it for each decision.  A program that is
slow, crashes, answers nonsense or lies (an illegal card, cards it does not hold) is
reported in :attr:`EngineBot.faults` and replaced, for the rest of the game, by a
fallback bot, so the match or the table goes on unharmed.

The protocol's messages are built by :func:`view_message` and read by
:func:`read_answer`, which tests and other hosts can use alone:

>>> from openhearts import Game
>>> game = Game(seed=1)
>>> message = view_message(game.view(0))
>>> message["type"], message["decision"], message["hand"][:3]
('act', 'pass', ['4C', '5C', 'QC'])
>>> read_answer(game.view(0), {"cards": ["4C", "5C", "QC"]})
Pass(seat=0, cards=CardSet.parse('4C 5C QC'))
>>> read_answer(game.view(0), {"cards": ["4C", "5C", "AS"]})
Traceback (most recent call last):
...
openhearts.bots.engine.EngineFault: passed cards it does not hold: A♠
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from typing import Any, Final, TypeVar

from ..cards import Card, CardParseError, CardSet
from ..game import MOON_CHOICE, PASSING, PLAYING, Action, MoonChoice, Pass, Play, PlayerView
from .base import Bot

__all__ = [
    "EngineBot",
    "EngineFault",
    "EngineStopped",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "view_message",
    "read_answer",
    "program_seed",
    "program_problem",
    "end_programs",
]

PROTOCOL: Final = "openhearts-engine"
PROTOCOL_VERSION: Final = 1
#: Seconds a program has for each decision, and to answer ``hello`` when it starts.
DEFAULT_TIME_LIMIT: Final = 10.0
DEFAULT_START_LIMIT: Final = 10.0
#: The longest line a program may write: an answer is a few dozen characters, and a
#: line without end must not fill the host's memory.
MAX_LINE: Final = 1 << 20
#: Lines read ahead of the host's questions.
_READ_AHEAD: Final = 256
T = TypeVar("T")
_DECISIONS: Final = {PASSING: "pass", PLAYING: "play", MOON_CHOICE: "moon"}

# Faults are logged where the host configures logging (the web server does); the
# arena reports them itself, so by default nothing is printed.
log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())


class EngineFault(RuntimeError):
    """What a program did wrong (the message says it in words)."""


class EngineStopped(EngineFault):
    """The host stopped the program while it was being asked (the server stopping, a
    game given up): no fault of the program's, and none is reported."""


#: Seconds between looks, while waiting for a program's answer, at whether the host
#: has stopped it meanwhile.
_POLL: Final = 0.1


def _cards(cards: CardSet) -> list[str]:
    return [str(card) for card in cards]


def view_message(view: PlayerView) -> dict[str, Any]:
    """The ``act`` message for the seat of ``view``: everything it may know, as JSON."""
    return {
        "type": "act",
        "decision": _DECISIONS.get(view.phase, view.phase),
        "seat": view.seat,
        "rules": view.rules.to_dict(),
        "names": list(view.names),
        "deal": view.deal_number,
        "dealer": view.dealer,
        "pass_direction": view.pass_direction,
        "pass_target": view.pass_target,
        "pass_source": view.pass_source,
        "hand": _cards(view.hand),
        "passed": None if view.passed is None else _cards(view.passed),
        "received": None if view.received is None else _cards(view.received),
        "legal": _cards(view.legal),
        "leader": view.leader,
        "trick": [[seat, str(card)] for seat, card in view.trick],
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in view.tricks
        ],
        "hand_sizes": list(view.hand_sizes),
        "won": [_cards(cards) for cards in view.won],
        "points_taken": list(view.points_taken),
        "hearts_broken": view.hearts_broken,
        "voids": [sorted(suit.letter for suit in voids) for voids in view.voids],
        "scores": list(view.scores),
        "deal_points": [list(points) for points in view.deal_points],
    }


def read_answer(view: PlayerView, answer: object) -> Action:
    """The action a program's answer means, checked against what the seat may do.

    Raises :class:`EngineFault` saying what is wrong with it."""
    if not isinstance(answer, dict):
        raise EngineFault(f"answered {json.dumps(answer)[:80]} instead of a JSON object")
    try:
        if view.phase == PASSING:
            cards = _field(answer, "cards", list, 'a pass answer is {"cards": ["QS", ...]}')
            if not all(isinstance(c, str) for c in cards):
                raise EngineFault('a pass answer is {"cards": ["QS", ...]}')
            parsed = [Card.parse(c) for c in cards]
            chosen = CardSet(parsed)
            if len(chosen) != len(parsed):
                twice = CardSet(card for card in chosen if parsed.count(card) > 1)
                raise EngineFault(f"passed {twice.pretty} more than once")
            if len(parsed) != view.rules.cards_passed:
                raise EngineFault(f"passed {_count(len(parsed))}, not {view.rules.cards_passed}")
            foreign = CardSet(int(chosen) & ~int(view.hand))
            if foreign:
                raise EngineFault(f"passed cards it does not hold: {foreign.pretty}")
            return Pass(view.seat, chosen)
        if view.phase == PLAYING:
            played = Card.parse(_field(answer, "card", str, 'a play answer is {"card": "QS"}'))
            if played not in view.hand:
                raise EngineFault(f"played {played.pretty}, which it does not hold")
            if played not in view.legal:
                raise EngineFault(f"played {played.pretty}, which it may not play now")
            return Play(view.seat, played)
        if view.phase == MOON_CHOICE:
            usage = 'a moon answer is {"others_add": true} or false'
            return MoonChoice(view.seat, _field(answer, "others_add", bool, usage))
    except CardParseError as error:
        raise EngineFault(f"answered a card that is not one: {error}") from None
    raise EngineFault(f"asked for a decision in phase {view.phase!r}")


def _count(cards: int) -> str:
    return "1 card" if cards == 1 else f"{cards} cards"


def _field(answer: dict[str, Any], name: str, kind: type[T], usage: str) -> T:
    """``answer[name]`` if it is a ``kind``; else the fault says what was expected."""
    value = answer.get(name)
    if not isinstance(value, kind):
        raise EngineFault(usage)
    return value


class _Program:
    """A running program: JSON lines in, JSON lines out, every read with a time limit."""

    def __init__(self, command: str) -> None:
        try:
            self.process = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                # Out of the terminal's process group: a Ctrl-C meant for the game (which
                # waits for the program's move, then stops) must not kill the program.
                # A group of its own also lets stop() end what it started in turn (the
                # bot a shell script runs, say).
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            raise EngineFault(f"could not start: {error}") from None
        with _RUNNING_LOCK:
            _RUNNING.add(self)
        # Bounded: a program that writes without end (info lines in a loop) is held up
        # by its full pipe instead of filling the host's memory.
        self.lines: queue.Queue[str | EngineFault | None] = queue.Queue(maxsize=_READ_AHEAD)
        self.stopped = threading.Event()
        #: Set as soon as the host stops it: what it then fails to answer is no fault.
        self.stopping = threading.Event()
        #: The last lines the program wrote on its standard error, for the report.
        self.errors: deque[str] = deque(maxlen=3)
        # Reader threads make every read interruptible by a time limit, on every OS.
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_errors, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        ending: EngineFault | None = None
        # stop() closes the stream under the reader: that is its end, not an error.
        with contextlib.suppress(OSError, ValueError):
            while line := self.process.stdout.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    ending = EngineFault(f"wrote a line longer than {MAX_LINE:,} characters")
                    break
                if not self._put(line):
                    return
        self._put(ending)

    def _put(self, item: str | EngineFault | None) -> bool:
        """Hand ``item`` to the reader, waiting for room; False once the program is stopped."""
        while not self.stopped.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _pump_errors(self) -> None:
        assert self.process.stderr is not None
        with contextlib.suppress(OSError, ValueError):
            # Lines read in pieces: one without end must not fill the host's memory.
            while piece := self.process.stderr.readline(MAX_LINE):
                if piece.strip():
                    self.errors.append(_shorten(piece.strip(), 200))

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._ended() from None

    def receive(self, seconds: float) -> dict[str, Any]:
        """The next JSON object the program writes (``info`` messages are skipped)."""
        deadline = time.monotonic() + seconds
        while True:
            if self.stopping.is_set():
                # Stopped by the host while it thought (the server stopping): its end
                # is no fault ("stopped (exit code -9)" was reported as one).
                raise EngineStopped("was stopped by the host")
            # Checked before every line, not only when none comes: a program writing
            # info lines without end never lets the queue run dry.
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFault(f"gave no answer within {seconds:g} s")
            try:
                line = self.lines.get(timeout=min(left, _POLL))
            except queue.Empty:
                continue
            if isinstance(line, EngineFault):
                raise line
            if line is None:
                raise self._ended()
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                raise EngineFault(f"wrote {line.strip()[:60]!r}, which is not JSON") from None
            if isinstance(message, dict) and message.get("type") == "info":
                continue
            if not isinstance(message, dict):
                raise EngineFault(f"wrote {line.strip()[:60]!r}, which is not a JSON object")
            return message

    def _ended(self) -> EngineFault:
        if self.stopping.is_set():
            return EngineStopped("was stopped by the host")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1.0)
        code = self.process.poll()
        time.sleep(0.05)  # let the error reader catch the last lines
        said = f": {' / '.join(self.errors)}" if self.errors else ""
        if code is None:
            # It closed its output and runs on ("exit code None" said nothing).
            return EngineFault(f"closed its standard output without ending{said}")
        return EngineFault(f"stopped (exit code {code}){said}")

    def stop(self) -> None:
        """Ask it to quit, then make sure it has, and whatever it started with it."""
        self.stopping.set()
        with contextlib.suppress(Exception):
            self.send({"type": "quit"})
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stopped.set()
        _kill_group(self.process.pid)
        with _RUNNING_LOCK:
            _RUNNING.discard(self)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.close()


def _kill_group(group: int) -> None:
    """End what is left of the program's process group (started in its own session):
    a shell script's bot outlived the script, holding on to its pipes.  The group's
    number is not given to another process while any of its members is alive."""
    killpg = getattr(os, "killpg", None)  # POSIX only
    if killpg is not None:
        with contextlib.suppress(OSError):
            killpg(group, signal.SIGKILL)


#: The programs started and not yet stopped, for :func:`end_programs`.
_RUNNING: set[_Program] = set()
# Reentrant: end_programs() runs in a signal handler, which may interrupt the main
# thread while it holds the lock.
_RUNNING_LOCK = threading.RLock()


def end_programs() -> None:
    """End every program this process started and has not stopped, at once (each
    with its process group), without a word to them: for a process about to end
    abruptly.  A program runs in a session of its own, out of reach of the terminal's
    Ctrl+C, so it would outlive the process that started it (the arena's worker
    processes, ended by a second Ctrl+C)."""
    with _RUNNING_LOCK:
        programs = list(_RUNNING)
        _RUNNING.clear()
    for program in programs:
        with contextlib.suppress(OSError):
            program.process.kill()
        _kill_group(program.process.pid)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def program_seed(seed: object) -> str:
    """The seed a program is sent for its own random choices: the same for the same bot
    seed, and a one-way digest of it, because the host's seeds are made from the game's
    seed, from which a program could deal every hand.

    >>> program_seed("arena:0:1:1") == program_seed("arena:0:1:1") != program_seed("arena:0")
    True
    >>> len(program_seed(7))
    16
    """
    return hashlib.sha256(f"openhearts-engine:{seed}".encode()).hexdigest()[:16]


class EngineBot:
    """A bot played by an outside program speaking the engine protocol.

    :param command: the program and its arguments, as a shell would split them.
    :param seed: given to the program in ``new_game`` and to the fallback bot.
    :param time_limit: seconds the program has for each decision.
    :param fallback: the bot level that takes over from a faulty program; None for
        none: a fault then raises :class:`EngineFault` (the match stops, say).
    """

    name = "engine"

    def __init__(
        self,
        command: str,
        seed: object = 0,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        start_limit: float = DEFAULT_START_LIMIT,
        fallback: str | None = "easy",
    ) -> None:
        self.command = command
        self.seed = seed
        self.time_limit = time_limit
        self.start_limit = start_limit
        self.fallback_level = fallback
        #: What went wrong, in words, one entry per fault (at most one per game: the
        #: program is then replaced).
        self.faults: list[str] = []
        #: The reason of the fault alone, once there was one (for a person at the table).
        self.fault_reason: str | None = None
        #: The name the program gave in its ``ready`` answer.
        self.engine_name: str | None = None
        #: Decisions asked of this bot, and how many of them its fallback made.
        self.decisions = 0
        self.fallback_decisions = 0
        self._program: _Program | None = None
        self._replacement: Bot | None = None
        self._game_key: tuple[object, ...] | None = None

    # The Bot protocol ---------------------------------------------------------------

    def choose_pass(self, view: PlayerView) -> CardSet:
        action = self._decide(view)
        assert isinstance(action, Pass)
        return action.cards

    def choose_play(self, view: PlayerView) -> Card:
        action = self._decide(view)
        assert isinstance(action, Play)
        return action.card

    def choose_moon(self, view: PlayerView) -> bool:
        action = self._decide(view)
        assert isinstance(action, MoonChoice)
        return action.others_add

    def check(self) -> None:
        """Start the program and see it answer ``hello``, before any game depends on it.

        :raises EngineFault: saying what went wrong (it cannot start, it does not answer).
        """
        self._start()

    def close(self) -> None:
        """Stop the program (bots are closed when their game ends)."""
        if self._program is not None:
            self._program.stop()
            self._program = None

    # Inside -----------------------------------------------------------------------

    def _decide(self, view: PlayerView) -> Action:
        self.decisions += 1
        if self._replacement is None:
            try:
                return self._ask(view)
            except EngineStopped:
                raise  # closed by the host meanwhile: nothing to report, nobody to play on
            except EngineFault as error:
                self._fault(view, str(error))
        from . import decide  # the bots package imports this module

        self.fallback_decisions += 1

        assert self._replacement is not None
        return decide(self._replacement, view)

    def _ask(self, view: PlayerView) -> Action:
        program = self._start()
        key = (view.seat, view.rules, view.names)
        if key != self._game_key:
            self._game_key = key
            program.send(
                {
                    "type": "new_game",
                    "seat": view.seat,
                    "rules": view.rules.to_dict(),
                    "names": list(view.names),
                    "seed": program_seed(self.seed),
                }
            )
        program.send(view_message(view))
        return read_answer(view, program.receive(self.time_limit))

    def _start(self) -> _Program:
        if self._program is not None:
            return self._program
        program = _Program(self.command)
        self._program = program
        program.send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "version": PROTOCOL_VERSION,
                "time_limit": self.time_limit,
            }
        )
        answer = program.receive(self.start_limit)
        if answer.get("type") != "ready":
            raise EngineFault(f'answered hello with {json.dumps(answer)[:60]}, not "ready"')
        name = answer.get("name")
        self.engine_name = name if isinstance(name, str) else None
        return program

    def _fault(self, view: PlayerView, reason: str) -> None:
        from . import make_bot

        moment = "the pass" if view.phase == PASSING else f"trick {len(view.tricks) + 1}"
        where = f"deal {view.deal_number}, {moment}, seat {view.seat}"
        # Named: the person at the table may have chosen the level long ago.
        self.fault_reason = f"the program {_shorten(self.command, 60)!r} {reason}"
        self.close()
        if self.fallback_level is None:
            self.faults.append(f"{where}: {reason}")
            raise EngineFault(f"{where}: {reason} (no fallback bot plays on for it)")
        self.faults.append(f"{where}: {reason}; {self.fallback_level} plays on for it")
        log.warning("bot program %r: %s", self.command, self.faults[-1])
        self._replacement = make_bot(self.fallback_level, self.seed)

    def __repr__(self) -> str:
        return f"EngineBot({self.command!r}, seed={self.seed!r})"


def program_problem(bot: object) -> str | None:
    """Why ``bot``, when it is an outside program, cannot play ("the program ...": it
    does not start, or does not answer), found by starting it once; None for any other
    bot, or a program that answers.  Said before a game or a server depends on it: a
    program that cannot start was only replaced, game after game.  The program is
    stopped again either way."""
    if not isinstance(bot, EngineBot):
        return None
    try:
        bot.check()
    except EngineFault as error:
        return f"the program {error}"
    finally:
        bot.close()
    return None
