"""A view computed in a worker when it is first shown says so: Textual's loading indicator in
place of its panel, never "no ... for this selection" (what a panel that was never given a view
says) nor the view of the selection before; then the view.

The computation is held on a ``threading.Event`` that the test sets (no timing).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.test_app import LARGE, SMALL, make_app, settle, until
from tui import registry
from tui.model import Analysis
from tui.views.pairs.panel import PairsPanel

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "tests" / "data" / "sweep.dat"


class Held:
    """``Analysis.prepare`` of ``view`` held until :meth:`release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, view: str = "pairs") -> None:
        self.gate, self.entered = threading.Event(), threading.Event()
        original = Analysis.prepare

        def held(analysis: Analysis, *views: str) -> Analysis:
            if view in views:
                self.entered.set()
                self.gate.wait(120)  # (set by the test; the timeout only ends a hang)
            return original(analysis, *views)

        monkeypatch.setattr(Analysis, "prepare", held)

    def release(self) -> None:
        self.gate.set()


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pytest.mark.parametrize(("view", "key"), [("pairs", "4"), ("cd", "5")])
async def test_a_view_computing_shows_the_loading_indicator_then_the_view(monkeypatch, size, view, key) -> None:
    held = Held(monkeypatch, view)
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        panel = app.query_one(f"#{view}")
        await pilot.press(key)
        await until(pilot, held.entered.is_set)
        await pilot.pause()
        assert app.view == view and panel.loading  # computing: the indicator, not a stale message
        held.release()
        await settle(pilot)
        assert not panel.loading
        assert app.analysis is not None and app.analysis.ready(view)
        # the focus the view was given when shown (its table), which the indicator took, is back
        assert app.focused is app.query_one(f"#{registry.view(view).focus or view}")


async def test_the_indicator_goes_when_the_selection_empties(monkeypatch) -> None:
    """A view computing when the analysis goes (every learner switched off, a reload): the panel
    is not left loading for ever."""
    held = Held(monkeypatch)
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        panel = app.query_one(PairsPanel)
        await pilot.press("4")
        await until(pilot, held.entered.is_set)
        app.analysis = None  # as watch_analysis is given when no model is left
        await pilot.pause()
        assert not panel.loading
        held.release()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not panel.loading
