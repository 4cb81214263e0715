"""The shared pool for bot moves and hints: each address and each table gets a share."""

from __future__ import annotations

import asyncio
import threading

from openhearts.web.botwork import BotWork


def _blocker(started: threading.Event, release: threading.Event) -> str:
    started.set()
    release.wait(timeout=60)
    return "busy table"


async def _started(event: threading.Event) -> None:
    # Waited for in a thread, so the event loop goes on meanwhile.
    assert await asyncio.to_thread(event.wait, 60)


def test_a_busy_table_does_not_hold_back_another_tables_bot_move() -> None:
    async def scenario() -> None:
        work = BotWork(threads=2, per_owner=2, per_table=1)
        release = threading.Event()
        started = [threading.Event() for _ in range(3)]
        busy = [
            asyncio.create_task(work.run("one address", "busy", _blocker, event, release))
            for event in started
        ]
        await _started(started[0])
        # The busy table's other jobs wait in its own queue, leaving a thread free.
        other = await work.run("one address", "other", str.upper, "moved")
        assert other == "MOVED"
        assert not started[1].is_set() and not started[2].is_set()
        release.set()
        assert await asyncio.gather(*busy) == ["busy table"] * 3
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


def test_one_address_does_not_starve_another() -> None:
    async def scenario() -> None:
        work = BotWork(threads=2, per_owner=1, per_table=1)
        release = threading.Event()
        started = [threading.Event() for _ in range(3)]
        greedy = [
            asyncio.create_task(work.run("greedy", f"table {n}", _blocker, event, release))
            for n, event in enumerate(started)
        ]
        await _started(started[0])
        assert await work.run("modest", "table", str.upper, "moved") == "MOVED"
        assert not started[1].is_set()
        release.set()
        await asyncio.gather(*greedy)
        work.shutdown()

    asyncio.run(scenario())
