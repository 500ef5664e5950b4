"""tui.view._loader.Loader: the app's loading without Textual (poll, Model, nothing-changed, stale, cancel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stats import LoadCancelled, LogProblem
from tui.view._loader import Loader, format_problem

LINES = "d1,1,1,a,acc,0.5\nd1,1,1,b,acc,0.6\nd2,1,1,a,acc,0.7\nd2,1,1,b,acc,0.4\n"


def test_load_then_nothing_changed_then_appended(tmp_path: Path) -> None:
    log = tmp_path / "d.dat"
    log.write_text(LINES)
    loader = Loader([str(tmp_path)])
    phases: list[str] = []
    first = loader.load(reload=True, phase=phases.append)
    assert first is not None and first.lines == 4 and first.files == 1 and first.problems == ()
    assert phases == ["summarising 4 lines"]
    assert first.default is not None and first.default.learners == ("a", "b")
    assert first.model.datasets == ("d1", "d2")
    assert loader.load(reload=False) is None  # nothing new: no Model built
    loader.stale = True
    assert loader.load(reload=False) is not None  # a Model is owed
    loader.stale = False
    with log.open("a") as f:
        f.write("d3,1,1,a,acc,0.1\nd3,1,1,b,acc,0.2\nbad line\n")
    third = loader.load(reload=False)
    assert third is not None and third.lines == 6 and third.model.datasets == ("d1", "d2", "d3")
    assert len(third.problems) == 1 and third.problems[0].startswith(f"{log}:7: expected 6 fields")


def test_a_cancelled_load_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "d.dat").write_text(LINES)
    loader = Loader([str(tmp_path)])

    def stop(done: int, total: int | None) -> None:
        raise LoadCancelled("esc")

    with pytest.raises(LoadCancelled, match="esc"):
        loader.load(reload=True, progress=stop)
    again = loader.load(reload=False)  # the same watcher: it reads what the cancelled poll did not
    assert again is not None and again.lines == 4 and again.files == 1


def test_empty_logs_give_no_default_selection(tmp_path: Path) -> None:
    (tmp_path / "d.dat").write_text("")
    result = Loader([str(tmp_path)]).load(reload=True)
    assert result is not None and result.default is None and result.lines == 0
    assert result.model.criteria == ()


def test_format_problem() -> None:
    assert format_problem(LogProblem("f.dat", 3, "too few fields", "error")) == "f.dat:3: too few fields"
    assert format_problem(LogProblem("f.dat", None, "empty file", "warning")) == "f.dat: warning: empty file"


def test_appended_and_rewritten_results_equal_a_fresh_read(tmp_path: Path) -> None:
    """The loader refreshes its aggregate with each poll's new rows; the model must equal one built
    from scratch (stats.read_logs + Model) after appends, a rewritten result and a new file."""
    import pandas as pd

    import stats
    from tui.view import Model

    log = tmp_path / "a.dat"
    log.write_text(LINES)
    loader = Loader([str(tmp_path)])
    loader.load(reload=True)
    steps = [
        (log, "d1,1,2,a,acc,0.55\nd1,1,2,b,acc,0.65\n"),  # new folds
        (log, "d1,1,1,a,acc,0.95\n"),  # rewrites d1,1,1,a (last wins)
        (tmp_path / "b.dat", "d3,1,1,a,acc,0.2\nd3,1,1,b,acc,0.3\nd3,1,1,a,pf,0.1\n"),  # new file
    ]
    for path, text in steps:
        with path.open("a") as f:
            f.write(text)
        result = loader.load(reload=False)
        assert result is not None
        fresh = Model(stats.read_logs(tmp_path))
        for criterion in fresh.criteria:
            sel = fresh.default_selection(criterion)
            assert result.model.default_selection(criterion) == sel
            ours, theirs = result.model.analyze(sel), fresh.analyze(sel)
            assert ours.quartiles.rows == theirs.quartiles.rows
            if theirs.ranks is not None:
                pd.testing.assert_frame_equal(ours.ranks.medians, theirs.ranks.medians)
    assert result.model.analyze(fresh.default_selection("acc")).quartiles.rows[0].n == 4  # d1,1,1 once
