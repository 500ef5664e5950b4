"""Robustness runs that can be stopped, and no "computing..." when the robustness is known.

``stats.fragility`` and ``stats.stability`` take a ``cancelled`` hook, checked between units of
work (a node of a search, an APV computation, a reduced table analysed): once it says True they
raise ``stats.Cancelled``; while it says False the result is the same, bit for bit. How often it
is checked is measured by counting work (the pair tables analysed between two checks), not time.

In the app, a robustness held inside ``stats`` (its hook blocks on a ``threading.Event`` the test
never sets, answering what the app's own hook answers) stops once a new procedure is chosen, and
the views end with the new procedure's figures. A new control (the same table and analysis: the
robustness is in the model's cache) is drawn at once with it: no frame says "computing...".
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import stats
from stats.groupings import _removal, _reranked
from tests.test_app import LARGE, SMALL, make_app, settle, until
from tui.model import COMPUTING_TEXT, _robustness
from tui.views.pairs.panel import PairsPanel
from tui.views.tests.panel import TestsPanel
from tui.widgets import VimTable

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "tests" / "data" / "sweep.dat"
FUNCTIONS = {"fragility": stats.fragility, "stability": stats.stability}


def _random(n: int, k: int, seed: int) -> pd.DataFrame:
    """Scores with a trend across the learners (some pairs rejected, some not) and ties."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(size=(n, k)) + np.linspace(0.0, 1.5, k), 1)
    return pd.DataFrame(values, index=[f"D{i}" for i in range(n)], columns=[f"L{j}" for j in range(k)])


def _sweep() -> pd.DataFrame:
    return stats.scores_table(stats.read_logs(SWEEP), "acc")


class Counter:
    """A ``cancelled`` hook that says True from its ``stop``-th call on (never, without ``stop``)."""

    def __init__(self, stop: int | None = None) -> None:
        self.calls, self.stop = 0, stop

    def __call__(self) -> bool:
        self.calls += 1
        return self.stop is not None and self.calls >= self.stop


# -- stats: the hook is checked inside the long loops, and changes nothing while it says False ------


CANCEL_CASES = [
    ("fragility", "holm", "friedman"),  # the branch and bound on rank sums
    ("fragility", "nemenyi", "friedman"),
    ("fragility", "wilcoxon-holm", "friedman"),  # every removal analysed in full, then greedy removals
    ("fragility", "holm", "aligned"),
    ("stability", "holm", "friedman"),  # leave one out on rank sums, then each learner
    ("stability", "wilcoxon-holm", "friedman"),
    ("stability", "holm", "quade"),
]


@pytest.mark.parametrize(("function", "procedure", "test"), CANCEL_CASES)
def test_the_hook_is_checked_throughout_and_true_stops_at_that_check(function: str, procedure: str, test: str) -> None:
    """A full run calls the hook many times (more than the table has data sets: inside the loops);
    a hook that says True at its s-th call, for s from the first to the last, raises
    ``stats.Cancelled`` at that very call: no further unit of work is started."""
    fn = FUNCTIONS[function]
    table = _random(14, 6, seed=3)
    whole = Counter()
    fn(table, procedure=procedure, test=test, cancelled=whole)
    assert whole.calls > table.shape[0]
    for stop in sorted({1, 2, 3, whole.calls // 3, whole.calls // 2, whole.calls - 1, whole.calls}):
        hook = Counter(stop)
        with pytest.raises(stats.Cancelled):
            fn(table, procedure=procedure, test=test, cancelled=hook)
        assert hook.calls == stop, stop


def test_a_true_hook_stops_before_any_analysis() -> None:
    calls = Counter(1)
    with pytest.raises(stats.Cancelled):
        stats.fragility(_random(12, 6, seed=1), cancelled=calls)
    with pytest.raises(stats.Cancelled):
        stats.stability(_random(12, 6, seed=1), cancelled=lambda: True)
    assert calls.calls == 1


class WorkCount:
    """Counts the units of work of a Wilcoxon-Holm run -- reduced tables whose every pair is tested
    (``stats.pairwise_wilcoxon``, m Wilcoxon tests each) and single Wilcoxon tests of one pair (the
    greedy removals') -- and, at each call of the hook, how many were done since the call before."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tables = self.tests = 0
        self.gaps: list[tuple[int, int]] = []
        self._last = (0, 0)

        def counted(original: Callable[..., Any], attribute: str) -> Callable[..., Any]:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                setattr(self, attribute, getattr(self, attribute) + 1)
                return original(*args, **kwargs)

            return wrapper

        monkeypatch.setattr(_removal, "pairwise_wilcoxon", counted(_removal.pairwise_wilcoxon, "tables"))
        monkeypatch.setattr(_reranked, "wilcoxon", counted(_reranked.wilcoxon, "tests"))

    def hook(self, stop: int | None = None) -> Callable[[], bool]:
        calls = Counter(stop)

        def cancelled() -> bool:
            self.mark()
            return calls()

        return cancelled

    def mark(self) -> None:
        now = (self.tables, self.tests)
        self.gaps.append((now[0] - self._last[0], now[1] - self._last[1]))
        self._last = now


def test_a_50_by_20_wilcoxon_holm_run_checks_after_every_table_it_analyses(monkeypatch: pytest.MonkeyPatch) -> None:
    """50 data sets x 20 learners under Wilcoxon-Holm: between two checks (and after the last) at
    most one reduced table is analysed in full (190 Wilcoxon tests, milliseconds) and one single
    Wilcoxon test, of the hundred tables and more the whole run analyses; cancelled at the fifth
    check, the run stops having analysed at most five."""
    table = _random(50, 20, seed=7)
    for fn in (stats.fragility, stats.stability):
        work = WorkCount(monkeypatch)
        fn(table, procedure="wilcoxon-holm", cancelled=work.hook())
        work.mark()  # (the work after the last check)
        assert work.tables >= 50  # (stability: one per data set left out; fragility: its budget)
        assert max(t for t, _ in work.gaps) <= 1 and max(w for _, w in work.gaps) <= 1, fn.__name__
        stopped = WorkCount(monkeypatch)
        with pytest.raises(stats.Cancelled):
            fn(table, procedure="wilcoxon-holm", cancelled=stopped.hook(5))
        assert stopped.tables <= 5 < work.tables


def _same(a: Any, b: Any) -> None:
    """Two results of stats.fragility or stats.stability equal, bit for bit."""
    assert type(a) is type(b)
    frames = ("pairs",) if isinstance(a, stats.Fragility) else ("pairs", "roles")
    for name in frames:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.omnibus == b.omnibus
    assert str(a) == str(b)
    if isinstance(a, stats.Stability):
        assert (a.verdict.outcome, a.verdict.winners, a.verdict.losers) == (
            b.verdict.outcome,
            b.verdict.winners,
            b.verdict.losers,
        )


@pytest.mark.parametrize("procedure", ["nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm"])
@pytest.mark.parametrize("function", ["fragility", "stability"])
def test_a_hook_that_says_false_changes_nothing_on_a_random_table(function: str, procedure: str) -> None:
    fn = FUNCTIONS[function]
    table = _random(12, 6, seed=11)
    hook = Counter()
    _same(fn(table, procedure=procedure, cancelled=hook), fn(table, procedure=procedure))
    assert hook.calls > 0


@pytest.mark.parametrize("procedure", ["holm", "nemenyi", "wilcoxon-holm"])
@pytest.mark.parametrize("function", ["fragility", "stability"])
def test_a_hook_that_says_false_changes_nothing_on_the_sweep_log(function: str, procedure: str) -> None:
    fn = FUNCTIONS[function]
    table = _sweep()
    _same(fn(table, procedure=procedure, cancelled=lambda: False), fn(table, procedure=procedure))


# -- the app: a stale run stops; a known robustness is drawn at once -------------------------------


class HeldRun:
    """The first robustness the app computes, held inside ``stats.fragility``: its hook (the app's,
    wrapped) blocks at its first check on :attr:`gate` -- which the test never sets -- asking the
    app's hook meanwhile; it answers True as soon as the app's does, and ``stats`` then raises
    ``stats.Cancelled`` (:attr:`stopped`). Later robustness runs are not held."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()  # the held run is inside stats, at its first check
        self.stopped = threading.Event()  # ... and stats.Cancelled came out of it
        self.saw_cancelled = False
        self.runs: list[str] = []
        original = _robustness.robustness

        def robustness(scores, sel):  # noqa: ANN001, ANN202
            self.runs.append(sel.procedure)
            if len(self.runs) > 1:
                return original(scores, sel)
            app_hook = _robustness.cancelled_hook()
            assert app_hook is not None  # (the app's finishing worker gives one)

            def held() -> bool:
                self.started.set()
                while not self.gate.wait(0.005):  # (a long unit of work, asking the app's hook)
                    if app_hook():
                        self.saw_cancelled = True
                        return True
                return app_hook()

            with _robustness.cancellable(held):
                try:
                    return original(scores, sel)
                except stats.Cancelled:
                    self.stopped.set()
                    raise

        monkeypatch.setattr(_robustness, "robustness", robustness)


def _fragility_column(app) -> list[str]:  # noqa: ANN001
    table = app.query_one("#fragility-table", VimTable)
    return [str(table.get_row_at(i)[2]).strip() for i in range(table.row_count)]


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_m_stops_the_held_robustness_and_the_views_show_the_new_procedures(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    held = HeldRun(monkeypatch)
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        try:
            await until(pilot, lambda: app.analysis is not None)
            await pilot.press("3")
            await until(pilot, held.started.is_set, guard=60)
            old = app.analysis
            assert old.selection.procedure == "holm" and COMPUTING_TEXT in app.query_one(TestsPanel).plain
            await pilot.press("m")
            await until(pilot, held.stopped.is_set, guard=60)  # (the gate is never set: it stopped itself)
            assert held.saw_cancelled and not held.gate.is_set()
        finally:
            held.gate.set()
        await settle(pilot)
        procedure = app.selection.procedure
        assert procedure != "holm" and held.runs == ["holm", procedure]
        # nothing of the stopped run is kept: Holm's robustness is still to be computed
        assert old.pending("robustness")
        holm = _robustness.selection_robustness_key(app.model, old.selection)
        assert app.model.cached_value("robustness", holm) is None
        # the three views end with the new procedure's own robustness, equal to stats'
        table = _sweep()
        want = stats.fragility(table, procedure=procedure, alpha=0.05, higher_is_better=True, test="friedman")
        shown = app.analysis.robustness
        assert shown.procedure == procedure
        pd.testing.assert_frame_equal(shown.fragility.pairs, want.pairs)
        text = app.query_one(TestsPanel).plain
        assert COMPUTING_TEXT not in text and stats.PROCEDURE_NAMES[procedure] + ": " in " ".join(text.split())
        await pilot.press("4")
        await settle(pilot)
        assert app.query_one(PairsPanel).view is app.analysis.pairs
        marks = ["-" if pd.isna(f) else str(int(f)) for f in want.pairs["fragility"]]
        assert _fragility_column(app) == marks
        assert held.runs == ["holm", procedure]  # (one run for the three views)


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_a_new_control_shows_the_known_robustness_at_once(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """The tests view whole, then c on another learner of the control table: every frame the tests
    view is given, and its text after each step of the event loop, has the robustness, never
    "computing..."."""
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        panel = app.query_one(TestsPanel)
        before = panel.plain
        sentence = app.query_one("#tests-robustness").plain
        assert COMPUTING_TEXT not in before and sentence.startswith("robustness: ")
        frames: list[str] = []
        show = TestsPanel.show

        def recorded(self, data):  # noqa: ANN001, ANN202
            show(self, data)
            frames.append(self.query_one("#tests-robustness").plain)

        monkeypatch.setattr(TestsPanel, "show", recorded)
        old = app.analysis
        learner = panel.learner_under_cursor()
        assert learner is not None and learner != old.control
        await pilot.press("c")
        while app.analysis is old or any(not w.is_finished for w in app.workers):
            await pilot.pause()
            frames.append(panel.query_one("#tests-robustness").plain)
        await settle(pilot)
        assert app.analysis.control == learner
        assert "control " + app.analysis.control in " ".join(panel.plain.split())
        assert frames and all(COMPUTING_TEXT not in f for f in frames), frames
        assert panel.query_one("#tests-robustness").plain == sentence  # (the same table and analysis)


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_a_new_control_while_it_computes_lets_the_run_go_on_for_the_new_analysis(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """c while the robustness is held: the worker is cancelled but not its computation (the new
    control's analysis wants the same one), which ends into the model's cache once let go; the new
    analysis takes it from there: one computation in all, and the views whole."""
    held = HeldRun(monkeypatch)
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        try:
            await until(pilot, lambda: app.analysis is not None)
            await pilot.press("3")
            await until(pilot, held.started.is_set, guard=60)
            panel = app.query_one(TestsPanel)
            old = app.analysis
            learner = panel.learner_under_cursor()
            assert learner is not None and learner != old.control
            await pilot.press("c")
            await until(pilot, lambda: app.analysis is not old and panel.view is app.analysis.part("tests"))
            assert app.analysis.control == learner and COMPUTING_TEXT in panel.plain
            assert not held.stopped.is_set() and not held.saw_cancelled
        finally:
            held.gate.set()
        await settle(pilot)
        assert held.runs == ["holm"] and not held.stopped.is_set()  # one run, not stopped, not run again
        assert app.analysis.robustness is not None and not app.analysis.pending("robustness")
        text = panel.plain
        assert COMPUTING_TEXT not in text and "robustness: " in text
