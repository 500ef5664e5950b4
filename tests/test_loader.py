"""tui.model._loader.Loader: the app's loading without Textual (poll, Model, nothing-changed, stale, cancel)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from stats import LoadCancelled, LogProblem
from tui.model._loader import Loader, format_problem

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
    owed = loader.load(reload=False)  # nothing new, but the first result was not shown: a Model is owed
    assert owed is not None and owed.lines == 4
    loader.show(owed)
    assert loader.load(reload=False) is None  # nothing new, the last Model shown: none built
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

    import stats
    from tui.model import Model

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


# -- a live poll refreshes only the criteria it touched (issue 10, item 5) -------------------------

VIEWS = ("quartiles", "ranks", "tests", "pairs", "cd", "folds")


def grid(criteria: tuple[str, ...], datasets: tuple[str, ...], fold: int, base: float) -> str:
    learners = ("a", "b", "c")
    return "".join(
        f"{d},1,{fold},{x},{c},{base + 0.01 * i + 0.1 * j + 0.001 * fold:.4f}\n"
        for c in criteria
        for i, d in enumerate(datasets)
        for j, x in enumerate(learners)
    )


def assert_same_view(ours, theirs) -> None:  # noqa: ANN001
    """Equal field by field: frames with pandas' testing, results and views recursively."""
    import dataclasses

    if isinstance(ours, pd.DataFrame | pd.Series):
        pd.testing.assert_frame_equal(pd.DataFrame(ours), pd.DataFrame(theirs))
    elif dataclasses.is_dataclass(ours):
        assert type(ours) is type(theirs)
        for field in dataclasses.fields(ours):
            assert_same_view(getattr(ours, field.name), getattr(theirs, field.name))
    elif isinstance(ours, tuple | list) and any(dataclasses.is_dataclass(x) for x in ours):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same_view(a, b)
    else:
        assert ours == theirs


def fill(model, criterion: str, **options):  # noqa: ANN001, ANN003, ANN201
    """Analyse the default selection of ``criterion`` and compute every view (every cache kind)."""
    import dataclasses

    sel = dataclasses.replace(model.default_selection(criterion), **options)
    analysis = model.analyze(sel)
    for view in VIEWS:
        getattr(analysis, view)
    analysis.robustness  # noqa: B018  (the fragility and stability the tests, pairs and CD views show later)
    return analysis


def test_a_poll_that_touches_one_criterion_keeps_the_others_views(tmp_path: Path) -> None:
    import stats
    from tui.model._model import Model

    log = tmp_path / "a.dat"
    log.write_text(
        grid(("acc", "pf"), ("d1", "d2", "d3", "d4"), 1, 0.5) + grid(("acc", "pf"), ("d1", "d2", "d3", "d4"), 2, 0.4)
    )
    loader = Loader([str(tmp_path)])
    first = loader.load(reload=True)
    assert first is not None
    before = {c: fill(first.model, c) for c in ("acc", "pf")}
    deltas = fill(first.model, "pf", deltas=True).quartiles
    kinds = {kind: [key[0] for key in cache] for kind, cache in first.model._cache.items()}
    assert all(kinds.values()) and {c for keys in kinds.values() for c in keys} == {"acc", "pf"}  # every kind
    with log.open("a") as f:
        f.write(grid(("acc",), ("d1", "d2", "d3", "d4"), 3, 0.9))  # new acc results only
    second = loader.load(reload=False)
    assert second is not None
    after = {c: fill(second.model, c) for c in ("acc", "pf")}
    for view in ("quartiles", "folds", "robustness"):  # cached: the same objects for pf, new ones for acc
        assert getattr(after["pf"], view) is getattr(before["pf"], view)
        assert getattr(after["acc"], view) is not getattr(before["acc"], view)
    assert fill(second.model, "pf", deltas=True).quartiles is deltas
    assert second.model._part("pf") is first.model._part("pf")
    assert second.model._part("acc") is not first.model._part("acc")
    # The touched criterion has the new numbers: 3 folds of 4 data sets, as read from scratch.
    overall = {r.learner: r.n for r in after["acc"].quartiles.rows if r.scope == "overall"}
    assert overall == {"a": 12, "b": 12, "c": 12}
    fresh = Model(stats.read_logs(tmp_path))
    for criterion in ("acc", "pf"):
        ours, theirs = after[criterion], fill(fresh, criterion)
        assert ours.quartiles.rows == theirs.quartiles.rows
        pd.testing.assert_frame_equal(ours.ranks.medians, theirs.ranks.medians)
        for view in ("tests", "pairs", "cd", "folds"):
            assert_same_view(getattr(ours, view), getattr(theirs, view))


def test_carried_views_stay_right_when_other_criteria_bring_new_names(tmp_path: Path) -> None:
    """A new data set and a new learner of pf change the model's names: acc's carried entries are
    keyed by the selection, so the old selection gets the old views and a selection with the new
    names (the app adds them) gets views equal to a fresh read's."""
    import dataclasses

    import stats
    from tui.model._model import Model

    log = tmp_path / "a.dat"
    log.write_text(grid(("acc", "pf"), ("d1", "d2", "d3"), 1, 0.5) + grid(("acc", "pf"), ("d1", "d2", "d3"), 2, 0.4))
    loader = Loader([str(tmp_path)])
    first = loader.load(reload=True)
    assert first is not None
    old = fill(first.model, "acc")
    with log.open("a") as f:
        f.write("d9,1,1,a,pf,0.5\nd9,1,1,zz,pf,0.6\nd9,1,1,b,pf,0.7\nd9,1,1,c,pf,0.8\n")  # d9 and zz: pf only
    second = loader.load(reload=False)
    assert second is not None and second.model.datasets[-1] == "d9" and second.model.learners[-1] == "zz"
    assert second.model.datasets_for("acc") == ("d1", "d2", "d3") and second.model.learners_for("acc") == (
        "a",
        "b",
        "c",
    )
    same = second.model.analyze(old.selection)
    assert same.quartiles is old.quartiles and same.folds is old.folds
    fresh = Model(stats.read_logs(tmp_path))
    wider = dataclasses.replace(old.selection, datasets=second.model.datasets, learners=second.model.learners)
    ours, theirs = second.model.analyze(wider), fresh.analyze(wider)
    assert ours.notes == theirs.notes and "zz" in ours.notes[0]
    assert ours.quartiles.rows == theirs.quartiles.rows
    for view in ("tests", "pairs", "cd", "folds"):
        assert_same_view(getattr(ours, view), getattr(theirs, view))
    pf = fill(second.model, "pf")
    assert pf.quartiles.rows == fill(fresh, "pf").quartiles.rows


def test_a_reloaded_file_refreshes_the_criteria_it_held(tmp_path: Path) -> None:
    a, b = tmp_path / "a.dat", tmp_path / "b.dat"
    a.write_text(grid(("acc",), ("d1", "d2", "d3"), 1, 0.5) + grid(("acc",), ("d1", "d2", "d3"), 2, 0.4))
    b.write_text(grid(("pf",), ("d1", "d2", "d3"), 1, 0.3) + grid(("pf",), ("d1", "d2", "d3"), 2, 0.2))
    loader = Loader([str(tmp_path)])
    first = loader.load(reload=True)
    assert first is not None
    before = {c: fill(first.model, c) for c in ("acc", "pf")}
    a.write_text(grid(("acc",), ("d1", "d2", "d3"), 1, 0.1))  # shorter: reloaded, fold 2 gone
    second = loader.load(reload=False)
    assert second is not None and second.lines == 9 + 18
    acc, pf = fill(second.model, "acc"), fill(second.model, "pf")
    assert pf.quartiles is before["pf"].quartiles and acc.quartiles is not before["acc"].quartiles
    assert {r.n for r in acc.quartiles.rows if r.scope == "overall"} == {3}
    b.unlink()  # removed: pf is gone, acc untouched
    third = loader.load(reload=False)
    assert third is not None and third.model.criteria == ("acc",)
    assert fill(third.model, "acc").quartiles is acc.quartiles
    assert not any(key[0] == "pf" for cache in third.model._cache.values() for key in cache)
