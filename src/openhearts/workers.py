"""Long work spread over worker processes, stopped the way people expect.

The arena's boards and the training data's chunks are independent pieces of work whose
results are kept as they finish, so that a stopped run resumes where it stopped.
:func:`map_unordered` runs them and answers the signals of a person at a terminal:

* the first Ctrl+C starts no new piece and waits for the pieces being worked on, whose
  results are still yielded (they are kept), then raises :class:`Stopped`;
* a second Ctrl+C, or SIGTERM (``kill``), stops at once: the worker processes are
  ended (none is left running on its own), and :class:`Stopped` is raised;
* a worker process that dies (killed, out of memory) is :class:`WorkerDied`, not a
  traceback.

No more pieces are handed to the processes than there are processes: a piece queued
behind the running ones could not be taken back at the first Ctrl+C.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait as wait_for_ends
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Final, TypeVar

__all__ = ["MAX_WORKERS", "StopRequests", "Stopped", "WorkerDied", "map_unordered", "stop_requests"]

#: The most worker processes asked for on a command line (each is a whole Python).
MAX_WORKERS: Final = 256

Item = TypeVar("Item")
Result = TypeVar("Result")

#: Seconds between two looks at whether a stop was asked for while waiting.
_POLL = 0.25
#: Seconds a worker has to end on SIGTERM before it is killed.
_GRACE = 2.0
_NOTHING = object()


class Stopped(KeyboardInterrupt):
    """The work was stopped before its end; every finished result was yielded first.

    ``terminated`` is True for SIGTERM (exit status 143 by convention), False for Ctrl+C
    (130)."""

    def __init__(self, terminated: bool = False) -> None:
        super().__init__("terminated" if terminated else "interrupted")
        self.terminated = terminated

    @property
    def exit_status(self) -> int:
        return 143 if self.terminated else 130


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its piece of work."""


class StopRequests:
    """What the person asked for so far: nothing, to stop soon, or (raised) to stop now."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.requested = False

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGTERM or self.requested:
            raise Stopped(terminated=signum == signal.SIGTERM)
        self.requested = True
        print(f"\n{self.message} (Ctrl+C again to stop now)", file=sys.stderr, flush=True)


@contextlib.contextmanager
def stop_requests(message: str) -> Iterator[StopRequests]:
    """While the block runs, a first Ctrl+C says ``message`` and sets ``requested`` (the
    caller starts no new work); a second one, or SIGTERM, raises :class:`Stopped`."""
    requests = StopRequests(message)
    if threading.current_thread() is not threading.main_thread():
        # Signal handlers can only be set in the main thread: elsewhere Ctrl+C stays an
        # ordinary KeyboardInterrupt.
        yield requests
        return
    before = {
        sig: signal.signal(sig, requests.on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield requests
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _worker_signals() -> None:
    # The workers leave Ctrl+C to the main process, which decides what stops when, and
    # end at once on SIGTERM (a forked worker would otherwise run the main process's
    # handler and stop with a traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _end_worker)


def _end_worker(signum: int, frame: FrameType | None) -> None:
    """End the worker at once, as SIGTERM does, with the bot programs it started: they
    run in sessions of their own and would run on alone (a hung one for ever)."""
    engine = sys.modules.get("openhearts.bots.engine")
    if engine is not None:
        engine.end_programs()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def map_unordered(
    function: Callable[[Item], Result],
    items: Iterable[Item],
    workers: int,
    stopping: str = "Stopping once the work under way is done",
) -> Iterator[tuple[Item, Result]]:
    """``(item, function(item))`` for every item, as each finishes, in ``workers``
    processes (in this one when ``workers`` is 1); ``function`` and the items must
    pickle.  ``stopping`` is said at the first Ctrl+C."""
    with stop_requests(stopping) as requests:
        queue = iter(items)
        if workers <= 1:
            for item in queue:
                if requests.requested:
                    raise Stopped()
                yield item, function(item)
            return
        yield from _in_processes(function, queue, workers, requests)


_DIED: Final = "a worker process ended without finishing its work (killed, or out of memory?)"


def _in_processes(
    function: Callable[[Item], Result],
    queue: Iterator[Item],
    workers: int,
    requests: StopRequests,
) -> Iterator[tuple[Item, Result]]:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)
    finished_cleanly = False

    def submit(item: Item) -> Future[Result]:
        # A worker that died breaks the pool for whatever is handed to it next too:
        # found there (a race with the last result), it is the same clear error.
        try:
            return pool.submit(function, item)
        except BrokenProcessPool:
            raise WorkerDied(_DIED) from None

    try:
        pending: dict[Future[Result], Item] = {}
        for item in queue:
            pending[submit(item)] = item
            if len(pending) >= workers:
                break
        while pending:
            done, _ = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
            for future in done:
                item = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise WorkerDied(_DIED) from None
                yield item, result
                if not requests.requested:
                    for following in queue:
                        pending[submit(following)] = following
                        break
        if requests.requested and next(queue, _NOTHING) is not _NOTHING:
            raise Stopped()
        finished_cleanly = True
    finally:
        if not finished_cleanly:
            _end_workers(list(getattr(pool, "_processes", {}).values()))
        # Waited for even when stopping (the workers are ended, so it is quick): the
        # pool's own thread left running raced Python's exit, which then wrote to the
        # pipe that thread had closed ("Bad file descriptor" and a traceback).
        pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(processes: list[BaseProcess]) -> None:
    """End every worker now: no worker may go on alone (nor hold the terminal's output
    open), and none may wait for work that will never come."""
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    # SIGTERM can be lost: a worker forked a moment before still has the main process's
    # handler (or none yet) and may miss it or hang on a lock it inherited while saying
    # so (seen once in CI, the pool's shutdown then waited for ever).  SIGKILL cannot be
    # caught.  The ends are watched through the sentinels, not joined: the pool's own
    # thread joins these processes too.
    with contextlib.suppress(Exception):
        running = {process.sentinel: process for process in processes}
        deadline = time.monotonic() + _GRACE
        while running and (left := deadline - time.monotonic()) > 0:
            ended = set(wait_for_ends(list(running), timeout=left))
            running = {sentinel: p for sentinel, p in running.items() if sentinel not in ended}
        for process in running.values():
            with contextlib.suppress(Exception):
                process.kill()
