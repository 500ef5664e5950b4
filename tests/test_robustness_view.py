"""The robustness of the conclusions in the explorer (issue 31): the tests, pairs and CD views are
shown at once saying that the fragility is computing, then filled with it; the three share one
computation; switching views or the selection while it computes never waits for it.

The robustness maker is held on a ``threading.Event`` that the test sets (no timing): what the
screen shows before is checked while it is held, what it shows after once the workers are done.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pandas as pd
import pytest

import stats
from tests.test_app import LARGE, SMALL, make_app, screen_lines, settle, until
from tui.model import COMPUTING_TEXT, _robustness
from tui.views.cd.panel import CDPanel
from tui.views.pairs.panel import PairsPanel
from tui.views.tests.panel import TestsPanel
from tui.widgets import Note, VimTable

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "tests" / "data" / "sweep.dat"
CV = ROOT / "sample_logs" / "cv"


class Held:
    """``tui.model._robustness.robustness`` held until :meth:`release`; counts its calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.calls = 0
        original = _robustness.robustness

        def held(scores, sel):  # noqa: ANN001, ANN202
            self.calls += 1
            self.gate.wait(120)  # (set by the test; the timeout only ends a hang)
            return original(scores, sel)

        monkeypatch.setattr(_robustness, "robustness", held)

    def release(self) -> None:
        self.gate.set()


def _expected(path: Path, criterion: str, procedure: str = "holm") -> stats.Fragility:
    """``stats.fragility`` of the default selection's table, from ``stats.scores_table``."""
    log = stats.read_logs(path)
    table = stats.scores_table(log, criterion)
    return stats.fragility(table, procedure=procedure, alpha=0.05, higher_is_better=True, test="friedman")


def _tests_text(app) -> str:  # noqa: ANN001
    return app.query_one(TestsPanel).plain


def _fragility_head(app) -> str:  # noqa: ANN001
    return app.query_one("#fragility-head", Note).plain


CASES = [(SWEEP, "acc"), (CV, "pd")]


@pytest.mark.parametrize("size", [SMALL, LARGE])
@pytest.mark.parametrize(("path", "criterion"), CASES, ids=["sweep", "cv"])
async def test_the_views_say_computing_then_show_the_figures_of_stats_fragility(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], path: Path, criterion: str
) -> None:
    want = _expected(path, criterion)
    held = Held(monkeypatch)
    app = make_app([str(path)])
    async with app.run_test(size=size) as pilot:
        try:
            await until(pilot, lambda: app.analysis is not None)
            await pilot.press("3")
            await until(pilot, lambda: app.query_one(TestsPanel).view is not None)
            text = _tests_text(app)
            assert COMPUTING_TEXT in text and text.startswith(app.query_one(TestsPanel).view.verdict)
            assert "robustness:" not in text
            await pilot.press("4")
            await until(pilot, lambda: app.query_one(PairsPanel).view is not None)
            assert _fragility_head(app) == COMPUTING_TEXT
            assert not app.query_one("#fragility-table", VimTable).display
            await pilot.press("5")
            await until(pilot, lambda: app.query_one(CDPanel).view is not None)
            assert COMPUTING_TEXT in app.query_one(CDPanel).plain
        finally:
            held.release()
        await settle(pilot)
        assert held.calls == 1  # one computation for the three views
        # the CD view, on screen when it was done: the line under the diagram
        cd = app.query_one(CDPanel).plain
        assert COMPUTING_TEXT not in cd and "fragility (Holm): " in " ".join(cd.split())
        # the tests view: the sentence, with stats.fragility's figures
        await pilot.press("3")
        await settle(pilot)
        text = " ".join(_tests_text(app).split())
        om = want.omnibus
        assert COMPUTING_TEXT not in text
        assert f"Friedman's {'rejection' if om.rejected else 'non-rejection'}" in text
        assert f"(fragility {om.fragility}: {', '.join(map(str, om.removed[:5]))}" in text
        rejected = want.pairs[want.pairs["rejected"] & want.pairs["fragility"].notna()]
        if len(rejected):
            fewest = int(rejected["fragility"].min())
            for row in rejected[rejected["fragility"] == fewest].itertuples(index=False):
                assert f"{row.a} vs {row.b} reverses without {row.removed[0]}" in text
        else:
            assert "Holm: no pair is rejected" in text
        # the pairs view: a fragility column of every pair, equal to stats.fragility's
        await pilot.press("4")
        await settle(pilot)
        table = app.query_one("#fragility-table", VimTable)
        assert table.display and table.row_count == len(want.pairs)
        labels = [str(c.label) for c in table.ordered_columns]
        assert labels[1:3] == ["APV", "fragility"]
        for i, row in enumerate(want.pairs.itertuples(index=False)):
            cell = str(table.get_row_at(i)[2]).strip()
            assert cell == ("-" if pd.isna(row.fragility) else str(int(row.fragility))), (row.a, row.b)
        # on screen, not cut off: the table focused (scrolled into view), its header and numbers shown
        table.focus()
        await settle(pilot)
        lines = screen_lines(app)
        header = next(line for line in lines if "APV" in line and "fragility" in line)
        first = str(table.get_row_at(table.cursor_row)[2]).strip()
        assert header.index("fragility") + len("fragility") <= size[0]
        row_line = next(line for line in lines if " vs " in line and line.rstrip().endswith(first))
        assert len(row_line.rstrip()) <= size[0]


async def test_switching_view_while_it_computes_ends_with_the_view_on_screen_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tests view starts the computation; the pairs view, shown meanwhile, is filled when it is
    done (the finishing worker was started for the tests view, not for it)."""
    held = Held(monkeypatch)
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        try:
            await until(pilot, lambda: app.analysis is not None)
            await pilot.press("3")
            await until(pilot, lambda: COMPUTING_TEXT in _tests_text(app))
            await until(pilot, lambda: held.calls == 1)  # the computation under way, for the tests view
            await pilot.press("4")
            await until(pilot, lambda: _fragility_head(app) == COMPUTING_TEXT)
        finally:
            held.release()
        await settle(pilot)
        assert app.view == "pairs"
        table = app.query_one("#fragility-table", VimTable)
        assert _fragility_head(app) != COMPUTING_TEXT and table.display and table.row_count == 66
        await pilot.press("3")
        await settle(pilot)
        assert COMPUTING_TEXT not in _tests_text(app) and "robustness: " in _tests_text(app)
        assert held.calls == 1


async def test_a_new_selection_is_shown_at_once_while_the_old_robustness_computes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """m (the next procedure) while the robustness of Holm's analysis is held: the tests view of
    the new procedure is on screen before it is let go, saying that its own is computing; then
    the new procedure's figures."""
    held = Held(monkeypatch)
    app = make_app([str(CV)])
    async with app.run_test(size=SMALL) as pilot:
        try:
            await until(pilot, lambda: app.analysis is not None)
            await pilot.press("3")
            await until(pilot, lambda: held.calls == 1)
            old = app.analysis
            assert old.selection.procedure == "holm"
            await pilot.press("m")
            panel = app.query_one(TestsPanel)
            await until(
                pilot,
                lambda: (
                    app.analysis is not old
                    and app.analysis.selection.procedure != "holm"
                    and panel.view is app.analysis.part("tests")
                ),
            )
            assert not held.gate.is_set() and COMPUTING_TEXT in panel.plain  # not waiting for the old one
            procedure = app.analysis.selection.procedure
        finally:
            held.release()
        await settle(pilot)
        shown = app.analysis.robustness
        assert shown is not None and shown.procedure == procedure
        want = _expected(CV, "pd", procedure)
        assert shown.fragility.omnibus.fragility == want.omnibus.fragility
        assert COMPUTING_TEXT not in panel.plain and stats.PROCEDURE_NAMES[procedure] + ": " in panel.plain


def test_the_analysis_shows_the_three_views_first_without_robustness_and_computes_it_once() -> None:
    from tui.model import Model

    log = stats.read_logs(CV)
    model = Model(log)
    analysis = model.analyze(model.default_selection("pd"))
    analysis.prepare("tests", "pairs", "cd")
    for view in ("tests", "pairs", "cd"):
        assert analysis.ready(view) and not analysis.complete(view) and analysis.early_ready(view)
    assert analysis.pending("robustness")
    analysis.finish("pairs")
    assert all(analysis.complete(view) and not analysis.early_ready(view) for view in ("tests", "pairs", "cd"))
    again = model.analyze(dataclasses.replace(analysis.selection, control="KNN"))
    assert again.robustness is analysis.robustness  # (the same table and analysis: cached)
