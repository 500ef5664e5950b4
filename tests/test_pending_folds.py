"""The folds view in two steps (issue 14, bar (b)): ``stats.begin_fold_comparison`` gives the
per-data-set part at once and the Bayesian signed-rank test across data sets when asked for; the
whole result is ``stats.fold_comparison``'s to the last bit, whichever way it is reached (started
at once or later, its queued jobs cancelled, asked for by several threads). The explorer shows
the first part with the signed-rank probabilities marked as computing, then the whole view,
without loading the per-data-set table again (its cursor stays)."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import stats
from stats.folds.results import SIGNED_RANK_COLUMNS
from tests.test_fold_fast_path import _log
from tui.model import Model, default_selection


def _ragged(seed: int) -> pd.DataFrame:
    """:func:`_log` with some keys missing (notes) and one pair too short to compare (left out)."""
    log = _log(seed, datasets=30, learners=5)
    drop = (log["dataset"] == "d03") & (log["learner"] == "l2") & (log["fold"] == 1)
    short = (log["dataset"] == "d05") & (log["learner"] == "l3") & ~((log["repeat"] == 1) & (log["fold"] == 1))
    return log[~drop & ~short].reset_index(drop=True)


def _same(a: stats.FoldComparison, b: stats.FoldComparison) -> None:
    pd.testing.assert_frame_equal(a.table, b.table, check_exact=True)
    pd.testing.assert_frame_equal(a.totals, b.totals, check_exact=True)
    assert (a.notes, a.rope, a.alpha, a.control, a.sentence()) == (b.notes, b.rope, b.alpha, b.control, b.sentence())


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("start", [True, False])
@pytest.mark.parametrize("rope", [None, 0.0])
def test_the_whole_result_is_fold_comparisons_to_the_last_bit(seed: int, start: bool, rope: float | None) -> None:
    log = _ragged(seed)
    cube = stats.fold_cube(log, "acc")
    for control in ("l0", "l3"):
        pending = stats.begin_fold_comparison(cube, "acc", control, rope=rope, nsamples=4000, start=start)
        assert not pending.done
        whole = pending.result()
        assert pending.done and pending.result() is whole
        assert whole.table is pending.early.table  # the explorer keeps the rows it made for it
        _same(whole, stats.fold_comparison(cube, "acc", control, rope=rope, nsamples=4000))
        _same(whole, stats.fold_comparison(log, "acc", control, rope=rope, nsamples=4000))


def test_the_early_part_has_every_count_and_no_signed_rank_probability() -> None:
    log = _ragged(3)
    pending = stats.begin_fold_comparison(log, "acc", "l1", nsamples=2000, start=False)
    early, whole = pending.early, pending.result()
    assert early.totals[list(SIGNED_RANK_COLUMNS)].isna().all().all()
    assert np.isfinite(whole.totals[list(SIGNED_RANK_COLUMNS)].to_numpy()).all()
    counts = ["wins", "ties", "losses", "datasets"]
    pd.testing.assert_frame_equal(early.totals[counts], whole.totals[counts], check_exact=True)
    assert early.notes == whole.notes and early.notes  # the ragged log's keys and left-out pair
    lines = early.sentence().splitlines()
    assert len(lines) == len(early.totals) and all("still computing" in line and "nan" not in line for line in lines)


def test_cancelled_jobs_are_run_by_whoever_waits() -> None:
    """A started comparison whose queued jobs another selection took out of the pool (cancel)
    still gives every result: the waiting thread runs them itself."""
    log = _log(4, datasets=40, learners=8)
    expected = stats.fold_comparison(log, "acc", "l0", nsamples=3000)
    pending = stats.begin_fold_comparison(log, "acc", "l0", nsamples=3000, start=True)
    pending.cancel()
    _same(pending.result(), expected)
    before = stats.begin_fold_comparison(log, "acc", "l0", nsamples=3000, start=False)
    before.cancel()  # nothing started: nothing to cancel
    _same(before.result(), expected)


def test_threads_asking_at_once_get_one_result() -> None:
    log = _log(5, datasets=30, learners=6)
    pending = stats.begin_fold_comparison(log, "acc", "l2", nsamples=3000, start=False)
    got: list[stats.FoldComparison] = []
    threads = [threading.Thread(target=lambda: got.append(pending.result())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and all(x is got[0] for x in got)
    _same(got[0], stats.fold_comparison(log, "acc", "l2", nsamples=3000))


def test_the_view_model_gives_the_first_part_then_the_whole_view_with_the_same_table() -> None:
    log = _log(6, datasets=20, learners=4)
    model = Model(log)
    sel = replace(default_selection(log, "acc"), control="l1")
    analysis = model.analyze(sel)
    early = analysis.folds_early
    assert early is not None and early.pending and early.totals["p_better"].isna().all()
    assert not analysis.ready("folds")  # the first part does not compute the whole view
    whole = analysis.folds
    assert whole is not None and not whole.pending and whole.table is early.table
    assert whole.sentences == tuple(stats.fold_comparison(log, "acc", "l1", rope=sel.rope).sentence().splitlines())
    again = model.analyze(sel)
    assert again.folds_early is whole  # once made, the whole view is what is shown first


async def test_the_explorer_shows_the_first_part_then_the_whole_view_keeping_the_cursor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The signed-rank test is held until the test lets it go (no timing): the folds view shows
    the per-data-set table and the counts at once, the probabilities as "…" and the sentence as
    computing; then the whole view, the table neither made nor loaded again."""
    from tests.test_app import drive, settle, until
    from tui.views.folds.panel import PENDING, FoldsPanel
    from tui.widgets._table import VimTable

    release = threading.Event()
    original = stats.PendingFoldComparison.result

    def held(self):  # noqa: ANN001, ANN202
        release.wait(60)  # (set by the test; the timeout only ends a hang)
        return original(self)

    monkeypatch.setattr(stats.PendingFoldComparison, "result", held)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        panel = app.query_one(FoldsPanel)
        try:
            await pilot.press("6")
            await until(pilot, lambda: panel.view is not None)
            early = panel.view
            assert early.pending and not app.analysis.ready("folds")
            totals, table = app.query_one("#folds-totals", VimTable), app.query_one("#folds-table", VimTable)
            assert table.row_count == len(early.table) and totals.row_count == len(early.totals)
            cells = [str(c) for c in totals.get_row_at(0)]
            assert cells[2:5] == [PENDING] * 3 and cells[1] != PENDING  # w/t/l shown, probabilities to come
            assert "still computing" in panel.plain
            prepared = panel.rows.table
            await pilot.press("tab", "j", "j", "j")
            await until(pilot, lambda: table.cursor_row == 3)
        finally:
            release.set()
        await until(pilot, lambda: panel.view is not None and not panel.view.pending)
        await settle(pilot)
        whole = app.model.analyze(app.selection).folds
        assert panel.view is whole and whole.table is early.table
        assert panel.rows.table is prepared and table.cursor_row == 3  # not loaded again
        assert "still computing" not in panel.plain, panel.plain
        assert all(PENDING not in str(c) for i in range(totals.row_count) for c in totals.get_row_at(i)[1:])
        learner = panel.learner_under_cursor()  # the row under the per-data-set table's cursor
        assert whole.sentences[[str(x) for x in whole.totals.index].index(learner)] in panel.plain
        shown = [str(c) for c in totals.get_row_at(0)][2:5]
        first = whole.totals.iloc[0]
        assert shown == [f"{first[c]:.3f}" for c in SIGNED_RANK_COLUMNS]

    await drive(scenario)
