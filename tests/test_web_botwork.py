"""The shared pool for bot moves and hints: each address and each table gets a share."""

from __future__ import annotations

import asyncio
import threading

import pytest

from openhearts.web.botwork import BotWork


def _blocker(started: threading.Event, release: threading.Event) -> str:
    started.set()
    release.wait(timeout=60)
    return "busy table"


async def _started(event: threading.Event) -> None:
    # Waited for in a thread, so the event loop goes on meanwhile.
    assert await asyncio.to_thread(event.wait, 60)


@pytest.mark.parametrize(
    ("per_owner", "busy", "other"),
    [
        # A table whose jobs all block, and another table of the same address.
        (2, [("one address", "busy")] * 3, ("one address", "other")),
        # One address's many busy tables, and another address's table.
        (1, [("greedy", f"table {n}") for n in range(3)], ("modest", "table")),
    ],
)
def test_a_busy_table_does_not_hold_back_another_tables_bot_move(
    per_owner: int, busy: list[tuple[str, str]], other: tuple[str, str]
) -> None:
    async def scenario() -> None:
        work = BotWork(threads=2, per_owner=per_owner, per_table=1)
        release = threading.Event()
        started = [threading.Event() for _ in busy]
        blocked = [
            asyncio.create_task(work.run(owner, table, _blocker, event, release))
            for (owner, table), event in zip(busy, started, strict=True)
        ]
        await _started(started[0])
        # The busy jobs wait in their table's or address's queue, leaving a thread free.
        assert await work.run(*other, str.upper, "moved") == "MOVED"
        assert not any(event.is_set() for event in started[1:])
        release.set()
        assert await asyncio.gather(*blocked) == ["busy table"] * len(busy)
        work.shutdown()

    asyncio.run(scenario())


def test_one_tables_queue_does_not_starve_its_addresss_other_tables() -> None:
    async def scenario() -> None:
        work = BotWork(threads=4, per_owner=1, per_table=1)
        order: list[str] = []
        release = threading.Event()
        started = threading.Event()
        first = asyncio.create_task(work.run("address", "busy", _blocker, started, release))
        await _started(started)
        queued = [
            asyncio.create_task(work.run("address", "busy", order.append, f"busy {n}"))
            for n in range(3)
        ]
        await asyncio.sleep(0)
        other = asyncio.create_task(work.run("address", "other", order.append, "other"))
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(first, *queued, other)
        # The other table asked after the busy table's queued jobs, yet went first:
        # those wait in their table's queue, not in their address's.
        assert order == ["other", "busy 0", "busy 1", "busy 2"]
        work.shutdown()

    asyncio.run(scenario())
