"""Arena boards on a Ray cluster (``hearts arena --backend ray``); needs the ``ray`` extra.

A board's result depends only on the match and the board number (every shuffle and
every bot is seeded from them), so boards can run anywhere: on Ray they are tasks,
spread over every core of the cluster, and their records are exactly those the local
workers produce (only the decision times differ).  The arena writes, resumes and
summarises them as it does for local workers.

Every node must have the same version of OpenHearts installed (and the packages of any
``package.module:Class`` bot of the line-up): the tasks import it there.  See
``docs/research.md`` for when a cluster is worth it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from typing import Any

from .workers import Stopped, StopRequests, stop_requests

__all__ = ["RayUnavailableError", "play_boards", "ray_module"]


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or no cluster could be reached; the message says which."""


def ray_module() -> Any:
    """Ray, imported; :class:`RayUnavailableError` saying what to install if missing."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            "--backend ray needs Ray: pip install 'openhearts[ray]'"
        ) from None
    return ray


def check_reachable(address: str | None, timeout: float = 10.0) -> None:
    """Refuse at once a ``host:port`` (or ``ray://host:port``) nothing answers at: Ray
    itself retries such an address for many minutes, saying only that it retries.

    >>> check_reachable("127.0.0.1:1", timeout=1.0)
    Traceback (most recent call last):
    ...
    openhearts.arena_ray.RayUnavailableError: --backend ray: cannot reach Ray at 127.0.0.1:1 ...
    """
    if not address or address == "auto" or address.startswith("local"):
        return
    where = address.removeprefix("ray://")
    host, colon, port = where.rpartition(":")
    if not colon or not port.isdigit():
        raise RayUnavailableError(
            f"--backend ray: {address!r} is not an address (host:port, ray://host:port, auto)"
        )
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout):
            pass
    except OSError as error:
        raise RayUnavailableError(
            f"--backend ray: cannot reach Ray at {where} ({error.strerror or error}); "
            "is the cluster started (ray start --head)?"
        ) from None


def play_boards(
    play: Callable[[Any, int], dict[str, Any]],
    match: Any,
    boards: list[int],
    tasks: int | None,
    address: str | None,
    stopping: str = "Stopping once the boards being played end",
) -> Iterator[dict[str, Any]]:
    """``play(match, board)`` for every board as Ray tasks; records as they finish.

    :param tasks: how many boards run at once (default: the cluster's CPUs).
    :param address: the cluster (``ray://host:10001`` or ``host:6379``, or ``auto``);
        None connects to ``RAY_ADDRESS`` if set, else starts a local Ray instance that
        is shut down again at the end.
    :param stopping: said at the first Ctrl+C, which lets the boards under way finish
        (as local workers do); a second one cancels them.
    :raises Stopped: once the boards under way ended after a Ctrl+C, or at once at a
        second Ctrl+C or SIGTERM.
    """
    ray = ray_module()
    started_here = not ray.is_initialized()
    if started_here:
        # Quiet: the arena reports progress itself, and a dashboard is not needed.
        os.environ.setdefault("RAY_DEDUP_LOGS", "0")
        check_reachable(address or os.environ.get("RAY_ADDRESS"))
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="error",
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayUnavailableError(f"--backend ray: cannot reach Ray ({error})") from None
        except Exception as error:
            # A local instance that fails to start raises what its failing part raised
            # (a timeout, a missing file, a process error): said, not a traceback.
            raise RayUnavailableError(
                f"--backend ray: Ray did not start ({type(error).__name__}: {error})"
            ) from None
    try:
        in_flight = tasks or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(play)
        match_ref = ray.put(match)
        queue = iter(boards)
        first = [board for _, board in zip(range(in_flight), queue, strict=False)]
        pending = [remote.remote(match_ref, board) for board in first]
        with stop_requests(stopping) as requests:
            yield from _collect(ray, remote, match_ref, queue, pending, requests)
    finally:
        if started_here:
            ray.shutdown()


def _collect(
    ray: Any,
    remote: Any,
    match_ref: Any,
    queue: Iterator[int],
    pending: list[Any],
    requests: StopRequests,
) -> Iterator[dict[str, Any]]:
    """The records of the boards in ``pending`` and then of ``queue``'s, one task per
    finished one, until a stop is asked for."""
    try:
        while pending:
            # Not a wait without end: Ctrl+C is seen between two waits.
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            if not ready:
                continue
            try:
                record: dict[str, Any] = ray.get(ready[0])
            except ray.exceptions.RayTaskError as error:
                # The board's own error (a failing bot...), without Ray's wrapping.
                cause = getattr(error, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise
            yield record
            following = None if requests.requested else next(queue, None)
            if following is not None:
                pending.append(remote.remote(match_ref, following))
        if requests.requested and next(queue, None) is not None:
            raise Stopped()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
