"""tui.app._gc: full collections deferred to idle moments, and everything undone afterwards."""

from __future__ import annotations

import gc

from tui.app._gc import IDLE, NEVER, IdleCollector


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_defers_full_collections_to_idle_time_and_restores_everything() -> None:
    before = gc.get_threshold()
    clock = Clock()
    policy = IdleCollector(clock)
    policy.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], NEVER)
        assert gc.get_freeze_count() > 0
        assert not policy.tick()  # nothing happened yet: nothing owed
        policy.touch()
        clock.now += IDLE / 2
        assert not policy.tick()  # not idle long enough
        garbage = []
        garbage.append(garbage)  # a cycle only a collection frees
        del garbage
        collected = gc.get_stats()[2]["collections"]
        clock.now += IDLE
        assert policy.tick() and policy.collections == 1
        assert gc.get_stats()[2]["collections"] == collected + 1
        assert not policy.tick()  # owed once per activity
    finally:
        policy.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    policy.stop()  # twice is harmless
    assert gc.get_threshold() == before


def test_the_app_leaves_the_collector_as_it_found_it() -> None:
    import asyncio

    from tests.test_app import make_app, settle

    before = gc.get_threshold()
    app = make_app()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert gc.get_threshold()[2] == NEVER  # while it runs: no automatic full collection

    asyncio.run(main())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
