"""Issue 11, loading: the load bar's ETA at 80 columns; the sidebar and the status line never
disagree (lists filled, status "0 data sets x 0 learners"); Esc stops the reading at the block
being read, and the views say that what was read is dropped, and why."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from stats.logs._sources import BLOCK
from tests.test_app import SMALL, _Held, make_app, press, screen_lines, settle, status, until
from tui.app._app import RankboardApp
from tui.widgets._loading import LoadBar


async def test_the_load_bar_shows_the_percentage_and_the_eta_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: `reading 64.8 kB of 0.3 MB        ━━━━━━━╺━━━━━━━━━━  esc cancels` -- no ETA."""
    import tui.model._loader

    held = _Held(first=1_000_000)
    monkeypatch.setattr(tui.model._loader, "LogWatcher", held.watcher)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await held.wait(pilot)
        bar = app.query_one(LoadBar)
        await until(pilot, lambda: bar.bar.progress == 1_000_000)
        line = screen_lines(app)[bar.region.y]
        assert "reading 1.0 MB of 4.0 MB" in line and "25%" in line and "esc cancels" in line, line
        assert re.search(r"(--:--:--|\d\d:\d\d:\d\d) esc cancels", line), line  # the ETA, whole
        held.go_on.set()
        await settle(pilot)


async def test_the_status_line_says_analysing_while_the_lists_are_filled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: for the time of the first analysis the sidebar listed 10 data sets while the status
    line said `0 data sets x 0 learners`."""
    from tui.model import Model

    release = threading.Event()
    real = Model.analyze

    def slow(self, selection):  # noqa: ANN001, ANN202
        release.wait(120)  # the test sets it; 120 s only turn a hang into a failure
        return real(self, selection)

    monkeypatch.setattr(Model, "analyze", slow)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.model is not None)
        await pilot.pause()
        assert app.query_one("#datasets").option_count == 10  # the lists are filled
        assert "0 data sets x 0 learners" not in status(app) and "analysing" in status(app)
        assert "analysing" in screen_lines(app)[-2]
        release.set()
        await settle(pilot)
        assert "10 data sets x 5 learners" in status(app)


def _big_log(tmp_path: Path, blocks: int = 3) -> Path:
    """A log of a little more than ``blocks`` reading blocks (4 MB each)."""
    line = "dataset_{d:03d},{r},{f},learner_{x:02d},accuracy,0.{v:06d}\n"
    rows, size, d = [], 0, 0
    while size <= blocks * BLOCK:
        chunk = "".join(
            line.format(d=d, r=r, f=f, x=x, v=(d * 7919 + r * 104729 + f * 1299709 + x * 15485863) % 10**6)
            for r in range(10)
            for f in range(10)
            for x in range(10)
        )
        rows.append(chunk)
        size += len(chunk)
        d += 1
    path = tmp_path / "big.dat"
    path.write_text("".join(rows))
    return path


class _HoldAt:
    """Wraps the app's Loader.load: the reading thread waits at the first block boundary at or past
    ``at`` bytes (while ``armed``) until ``go_on``; every progress call is recorded."""

    def __init__(self, app: RankboardApp, at: int) -> None:
        self.at, self.armed = at, True
        self.reached, self.go_on = threading.Event(), threading.Event()
        self.seen: list[int] = []
        real = app.loader.load

        def load(**options):  # noqa: ANN003, ANN202
            inner = options["progress"]

            def progress(done: int, total: int | None) -> None:
                self.seen.append(done)
                if self.armed and done >= self.at and not self.reached.is_set():
                    self.reached.set()
                    self.go_on.wait(120)  # the test sets it; 120 s only turn a hang into a failure
                inner(done, total)

            options["progress"] = progress
            return real(**options)

        app.loader.load = load  # type: ignore[method-assign]


async def test_esc_stops_the_reading_at_the_block_being_read_and_says_it_dropped_it(tmp_path: Path) -> None:
    """Before: Esc dropped what was read without a word on screen (a toast said "cancelled")."""
    log = _big_log(tmp_path)
    total = log.stat().st_size
    app = make_app([str(log)])
    hold = _HoldAt(app, BLOCK)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, hold.reached.is_set)
        at = hold.seen[-1]  # the reader holds here, one block read
        await press(pilot, "escape")
        hold.go_on.set()
        await settle(pilot)
        assert max(hold.seen) == at and at < total  # not one block more was read
        assert app.model is None and app.analysis is None  # what was read is dropped ...
        problem = str(app.query_one("#problem").render())
        mb = f"{at / 1e6:,.1f} MB of {total / 1e6:,.1f} MB"
        assert problem.startswith(f"load stopped by esc at {mb}; nothing read is shown: ")  # ... and said so
        assert "| paused" in status(app)
        assert "load stopped by esc" in " ".join(screen_lines(app))  # on screen at 80 columns
        hold.armed = False
        await press(pilot, "r")  # a load that goes through: the line goes
        assert app.model is not None and str(app.query_one("#problem").render()) == ""
        hold.armed, hold.reached, hold.go_on = True, threading.Event(), threading.Event()
        await pilot.press("r")  # stopped again, with results on screen: they stay, labelled
        await until(pilot, hold.reached.is_set)
        await press(pilot, "escape")
        hold.go_on.set()
        await settle(pilot)
        problem = str(app.query_one("#problem").render())
        assert problem.startswith("load stopped by esc at ")
        assert "the views still show the logs as read at 03:04:05" in problem and app.analysis is not None
