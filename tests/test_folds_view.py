"""Issue 14 in the explorer and the reports: the folds view (6), the charts of deltas (x), the rope
(o, --rope, the spec), from the fold-level results an Aggregator holds."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats
from tests.conftest import REFERENCE, SAMPLES
from tui.cli import main
from tui.model import Model, default_selection
from tui.model._spec import selection_from_spec, spec_text
from tui.render import SCHEMA
from tui.render._csv import export_frame
from tui.render._report import render_report

BAYCOMP = REFERENCE / "baycomp_accuracies.dat"


@pytest.fixture(scope="module")
def baycomp() -> tuple[pd.DataFrame, Model]:
    log = stats.read_logs(BAYCOMP)
    return log, Model(log)


@pytest.fixture(scope="module")
def cv() -> tuple[pd.DataFrame, Model]:
    log = stats.read_logs(SAMPLES / "cv")
    return log, Model(log)


def _sorted(frame: pd.DataFrame) -> list[tuple]:
    cols = ["dataset", "repeat", "fold", "learner", "value"]
    out = frame[cols].astype({"dataset": str, "learner": str})
    return sorted(map(tuple, out.to_numpy().tolist()))


# -- the fold-level results of a snapshot --------------------------------------------------


def test_cell_values_results_are_the_logs_rows(baycomp: tuple[pd.DataFrame, Model]) -> None:
    log, _ = baycomp
    results = stats.Aggregator(log).snapshot().results("accuracy")
    assert _sorted(results) == _sorted(log)
    assert set(results["criterion"].astype(str)) == {"accuracy"}


def test_results_after_appended_and_replaced_rows_keep_the_later_result() -> None:
    log = pd.DataFrame(
        {
            "dataset": "a",
            "repeat": 1,
            "fold": [1, 2, 1, 2],
            "learner": ["x", "x", "y", "y"],
            "criterion": "pd",
            "value": [0.1, 0.2, 0.3, 0.4],
        }
    )
    agg = stats.Aggregator(log)
    agg.add(
        pd.DataFrame(
            {"dataset": ["a", "b"], "repeat": 1, "fold": [2, 1], "learner": "x", "criterion": "pd", "value": [0.9, 0.5]}
        )
    )
    got = _sorted(agg.snapshot().results("pd"))
    assert got == [
        ("a", 1, 1, "x", 0.1),
        ("a", 1, 1, "y", 0.3),
        ("a", 1, 2, "x", 0.9),
        ("a", 1, 2, "y", 0.4),
        ("b", 1, 1, "x", 0.5),
    ]
    assert agg.snapshot().results("nothing").empty


# -- deltas -------------------------------------------------------------------------------


def test_deltas_are_paired_differences_whose_mean_fold_comparison_reports(baycomp: tuple[pd.DataFrame, Model]) -> None:
    log, _ = baycomp
    deltas = stats.fold_deltas(log, "accuracy", "nbc")
    wide = log.pivot_table(index=["dataset", "repeat", "fold"], columns="learner", values="value", observed=True)
    for learner in ("aode", "j48"):
        mine = deltas[deltas["learner"] == learner].set_index(["dataset", "repeat", "fold"])["delta"]
        independent = (wide[learner] - wide["nbc"]).reindex(mine.index)
        assert np.allclose(mine.to_numpy(), independent.to_numpy(), atol=1e-9)
    means = deltas.groupby(["dataset", "learner"], observed=True)["delta"].mean()
    table = stats.fold_comparison(log, "accuracy", "nbc", nsamples=100).table["mean_difference"]
    assert np.allclose(means.reindex(table.index).to_numpy(), table.to_numpy(), rtol=0, atol=1e-9)


def test_deltas_flip_for_lower_is_better_and_keep_only_shared_keys() -> None:
    log = pd.DataFrame(
        {
            "dataset": "d",
            "repeat": 1,
            "fold": [1, 2, 3, 1, 2],
            "learner": ["c", "c", "c", "b", "b"],
            "criterion": "err",
            "value": [0.2, 0.3, 0.4, 0.1, 0.5],
        }
    )
    higher = stats.fold_deltas(log, "err", "c")
    lower = stats.fold_deltas(log, "err", "c", higher_is_better=False)
    assert higher["delta"].tolist() == [-0.1, 0.2] and lower["delta"].tolist() == [0.1, -0.2]
    assert higher["fold"].tolist() == [1, 2]  # fold 3 of the control has no partner


def test_the_deltas_view_charts_the_deltas_on_an_axis_centred_at_zero(cv: tuple[pd.DataFrame, Model]) -> None:
    log, model = cv
    sel = replace(default_selection(log, "pd"), control="KNN", deltas=True)
    view = model.analyze(sel).quartiles
    assert view is not None and view.deltas == "KNN" and view.lo == -view.hi
    deltas = stats.fold_deltas(log, "pd", "KNN")
    overall = {r.learner: r for r in view.rows if r.scope == "overall"}
    assert set(overall) == {"GaussianNB", "DecisionTree", "LogisticRegression", "RandomForest"}
    for learner, row in overall.items():
        values = deltas.loc[deltas["learner"] == learner, "delta"].to_numpy()
        assert row.n == values.size and row.median == pytest.approx(np.median(values))
        assert row.mean == pytest.approx(values.mean()) and row.sd == pytest.approx(values.std(ddof=1))
    text = render_report(model, sel, view="quartiles")
    assert "deltas against KNN: learner - control on the same (repeat, fold), positive = better" in text
    assert "#rx, " in text and "----| anes96 |-----" in text


# -- the folds view and its reports ----------------------------------------------------------


def test_the_folds_view_is_stats_fold_comparison(baycomp: tuple[pd.DataFrame, Model]) -> None:
    log, model = baycomp
    sel = replace(default_selection(log, "accuracy"), control="j48", rope=0.5, alpha=0.1)
    view = model.analyze(sel).folds
    direct = stats.fold_comparison(log, "accuracy", "j48", rope=0.5, alpha=0.1)
    assert view is not None and view.control == "j48" and view.rope == 0.5
    pd.testing.assert_frame_equal(view.table, direct.table)
    pd.testing.assert_frame_equal(view.totals, direct.totals)
    assert view.sentences == tuple(direct.sentence().splitlines())


def test_the_default_rope_is_one_hundredth_for_proportions_and_one_for_percentages(
    baycomp: tuple[pd.DataFrame, Model], cv: tuple[pd.DataFrame, Model]
) -> None:
    (blog, bmodel), (clog, cmodel) = baycomp, cv
    assert bmodel.analyze(default_selection(blog, "accuracy")).folds.rope == 1.0  # 94.4 (per cent; issue 28)
    assert cmodel.analyze(default_selection(clog, "pd")).folds.rope == 0.01


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json", "csv"])
def test_every_format_prints_the_folds_view(cv: tuple[pd.DataFrame, Model], fmt: str) -> None:
    log, model = cv
    sel = replace(default_selection(log, "pd"), control="KNN")
    out = render_report(model, sel, view="folds", fmt=fmt)
    folds = model.analyze(sel).folds
    assert folds is not None
    first = folds.table.iloc[0]
    if fmt == "json":
        doc = json.loads(out)
        assert doc["folds"]["control"] == "KNN" and len(doc["folds"]["rows"]) == len(folds.table)
        assert doc["folds"]["rows"][0]["pvalue"] == first["pvalue"]
        assert [t["wins"] for t in doc["folds"]["totals"]] == folds.totals["wins"].tolist()
    elif fmt == "csv":
        frame = pd.read_csv(pd.io.common.StringIO(out))
        assert frame["pvalue"].iloc[0] == first["pvalue"]
        assert frame["runs"].dtype == np.int64 or str(frame["runs"].dtype) == "float64"
        assert (frame["dataset"] == "all data sets").sum() == len(folds.totals)
    else:
        assert "Nadeau" in out and "Benavoli" in out  # each number names its procedure
        assert "KNN" in out and "breast" in out


def test_json_with_folds_follows_the_schema(cv: tuple[pd.DataFrame, Model]) -> None:
    from tests.test_render import validate

    log, model = cv
    for deltas in (False, True):
        doc = json.loads(render_report(model, replace(default_selection(log, "pd"), deltas=deltas), fmt="json"))
        validate(doc, SCHEMA)
        assert doc["folds"]["sentences"] and (("deltas" in doc) == deltas)


def test_export_of_folds_keeps_counts_as_integers(cv: tuple[pd.DataFrame, Model]) -> None:
    log, model = cv
    frame = export_frame(model.analyze(default_selection(log, "pd")), "folds")
    assert str(frame["runs"].dtype) == "Int64" and str(frame["wins"].dtype) == "Int64"
    per = frame[frame["dataset"] != "all data sets"]
    assert per["wins"].isna().all() and (per["runs"] == 25).all()


def test_a_log_of_one_result_per_cell_says_why_there_is_no_fold_comparison() -> None:
    log = stats.read_logs(SAMPLES / "c45_demsar.dat")
    text = render_report(Model(log), default_selection(log), view="folds")
    assert "the fold-level tests need the results of R x N cross-validation" in text


def test_spec_and_command_line_carry_the_rope_and_the_deltas(
    cv: tuple[pd.DataFrame, Model], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, model = cv
    sel = replace(default_selection(log, "pd"), rope=0.025, deltas=True)
    text = spec_text(sel)
    assert "rope = 0.025\n" in text and "deltas = true\n" in text
    import tomllib

    assert selection_from_spec(model, tomllib.loads(text)) == sel
    with pytest.raises(ValueError, match="rope = -1"):
        selection_from_spec(model, {"criterion": "pd", "rope": -1})
    assert main(["report", str(SAMPLES / "cv"), "--view", "folds", "--rope", "0.03", "-c", "pd"]) == 0
    assert "rope 0.03" in capsys.readouterr().out
    assert main(["report", str(SAMPLES / "cv"), "--view", "quartiles", "--deltas", "-c", "pd"]) == 0
    assert "positive = better" in capsys.readouterr().out


# -- the explorer (Pilot) --------------------------------------------------------------------


async def test_six_shows_the_folds_view_and_its_keys_change_rope_control_and_deltas() -> None:
    from tests.test_app import drive, press
    from tui.views.folds.panel import FoldsPanel
    from tui.views.quartiles.panel import QuartilesPanel

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        panel = app.query_one(FoldsPanel)
        assert app.query_one("#views").current == "folds" and app.focused is app.query_one("#folds-totals")
        expected = model_view(app)
        assert app.query_one("#folds-table").row_count == len(expected.table)
        assert app.query_one("#folds-totals").row_count == len(expected.totals)
        plain = panel.plain
        assert f"against {expected.control} (pd, higher is better) rope 0.01 (o) alpha 0.05" in plain
        assert expected.sentences[0] in plain  # the verdict of the learner under the cursor
        await press(pilot, "o")  # 0.01 -> 0.02
        assert app.selection.rope == 0.02 and "rope 0.02 (o)" in panel.plain
        assert model_view(app).rope == 0.02
        await press(pilot, "j", "c")  # the second learner of the totals becomes the control
        second = expected.totals.index[1]
        assert app.selection.control == second and f"against {second} " in panel.plain
        await press(pilot, "tab")  # into the per-data-set table: the line below gives every number
        assert app.focused is app.query_one("#folds-table")
        assert "corrected t" in panel.plain and "P(equiv.)" in panel.plain
        await press(pilot, "1", "x")
        quartiles = app.query_one(QuartilesPanel).plain
        assert f"deltas vs {second}" in quartiles and ": 0 (no difference)" in quartiles
        await press(pilot, "x")
        assert "deltas vs" not in app.query_one(QuartilesPanel).plain

    def model_view(app):  # noqa: ANN001, ANN202
        return app.model.analyze(app.selection).folds

    await drive(scenario)


async def test_the_folds_view_follows_appended_folds(tmp_path: Path) -> None:
    """Live updates: new folds of the cells on screen change the folds view (explicit poll)."""
    from tests.test_app import LARGE, drive, make_app, poll, press
    from tui.views.folds.panel import FoldsPanel

    log = tmp_path / "grow.dat"
    rows = [f"{d},1,{f},{x},acc,0.{5 + (x == 'b') + f}\n" for d in ("d1", "d2") for f in (1, 2) for x in "ab"]
    log.write_text("".join(rows))

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        assert app.analysis.folds.table["runs"].tolist() == [2, 2]
        with log.open("a") as f:
            f.write("".join(f"{d},1,3,{x},acc,0.{9 if x == 'a' else 5}\n" for d in ("d1", "d2") for x in "ab"))
        before = app.query_one(FoldsPanel).plain
        assert "d1 | a | -0.1 |" in before
        await poll(pilot)
        assert app.analysis.folds.table["runs"].tolist() == [3, 3]
        # a is now best ranked, so the control: b against a, (0.1 + 0.1 - 0.4) / 3
        assert "d1 | b | -0.0667 |" in app.query_one(FoldsPanel).plain

    await drive(scenario, size=LARGE, app=make_app([str(log)], live=True, interval=None))


def test_the_probability_bar_and_the_middle_ellipsis() -> None:
    from tui.views.folds.panel import prob_bar
    from tui.widgets._sidebar import middle_ellipsis

    assert prob_bar(0.5, 0.25, 0.25, 4) == "++=-" and prob_bar(1.0, 0.0, 0.0) == "++++++"
    assert prob_bar(0.02, 0.0, 0.98) == "------" and prob_bar(float("nan"), 0, 1) == "??????"
    assert all(len(prob_bar(a, b, 1 - a - b)) == 6 for a in (0.1, 0.33, 0.5) for b in (0.0, 0.2, 0.4))
    assert middle_ellipsis("credit-b", 7) == "cr…it-b" and middle_ellipsis("credit", 7) == "credit"
    assert middle_ellipsis("breast_cancer", 10) == "bre…cancer"


async def test_the_folds_tables_rows_load_at_once_into_the_table_add_row_makes(
    baycomp: tuple[pd.DataFrame, Model],
) -> None:
    """VimTable.load (the per-data-set table's rows made in the worker, added at once) gives the
    table add_row makes row after row: the same rows, keys, column widths, size and screen; and
    after load the rows are the table's own (clearing the table leaves the prepared rows whole)."""
    import re

    from textual.app import App, ComposeResult

    from tui.views.folds.panel import TABLE_COLUMNS, folds_rows
    from tui.views.ranks.panel import VimTable

    log, model = baycomp
    rows = folds_rows(model.analyze(default_selection(log, "accuracy")).folds)
    assert rows is not None and rows.table.fast and len(rows.table.keys) == 216

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield VimTable(id="t", zebra_stripes=True, cursor_type="row", fixed_columns=2)

    async def fill(how: str) -> tuple:
        app = One()
        async with app.run_test(size=(100, 30)) as pilot:
            table = app.query_one(VimTable)
            for label in TABLE_COLUMNS:
                table.add_column(label, key=label)
            if how == "load":
                table.load(rows.table)
            else:
                for cells, key in zip(rows.table.cells, rows.table.keys):
                    table.add_row(*cells, key=key)
            await pilot.pause()
            await pilot.press("j", "j", "pagedown")
            await pilot.pause()
            state = (
                table.row_count,
                [str(k.value) for k in table.rows],
                [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)],
                [c.get_render_width(table) for c in table.ordered_columns],
                table.virtual_size,
                table.cursor_row,
                re.sub(r"terminal-\d+", "terminal", app.export_screenshot()),
            )
            table.clear(columns=True)
            return state

    loaded, added = await fill("load"), await fill("add_row")
    assert loaded[:-1] == added[:-1]
    assert loaded[-1] == added[-1]  # the same screen
    assert len(rows.table.data) == 216  # the prepared rows survive the table's clear


def test_probability_bars_made_at_once_equal_the_bar_of_each_row() -> None:
    from tui.views.folds.panel import prob_bar, prob_bars

    rng = np.random.default_rng(14)
    n = 20000
    better = rng.choice([0.0, 0.5, 0.25, 1 / 3, 1 / 6, 0.1, 0.9, 1.0, 0.02, 0.98], n)
    equivalent = rng.uniform(0, 1, n) * (1 - better)
    equivalent = np.where(rng.random(n) < 0.3, np.round(equivalent, 1), equivalent)  # ties of remainders
    worse = np.where(rng.random(n) < 0.01, np.nan, 1 - better - equivalent)
    for width in (3, 4, 6):
        want = [prob_bar(a, b, c, width) for a, b, c in zip(better.tolist(), equivalent.tolist(), worse.tolist())]
        assert prob_bars(better, equivalent, worse, width) == want
    for triple in [(1 / 3, 1 / 3, 1 / 3), (0.5, 0.5, 0.0), (0.2, 0.2, 0.2), (0.5, 0.25, 0.25)]:
        for width in (3, 4, 5, 6):
            assert prob_bars(*([x] for x in triple), width) == [prob_bar(*triple, width=width)]


def test_rendered_takes_the_rows_a_worker_built_for_the_same_analysis_only(cv: tuple[pd.DataFrame, Model]) -> None:
    from tui.app._rendered import Rendered

    log, model = cv
    analysis = model.analyze(default_selection(log))
    other = model.analyze(replace(default_selection(log), alpha=0.1))
    built = Rendered(analysis).build("folds")
    assert "folds" in built.whole and built.data["folds"].view is analysis.folds
    shown = Rendered(analysis).build("quartiles", None, 80)
    assert shown.take(built) is shown and shown.data["folds"] is built.data["folds"]
    assert shown.data["quartiles"] is not None
    assert "folds" not in Rendered(other).take(built).data  # another analysis: nothing taken
    again = Rendered(analysis).build("folds", shown)  # the same view: the rows are reused, not made again
    assert again.data["folds"] is built.data["folds"]


async def test_a_large_folds_view_makes_the_other_controls_views_while_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14's toggle bar: with a folds view of at least WARM_MIN_ROWS rows on screen, the app
    makes the views of the other controls (and their rows) in an idle worker; a toggle of the
    control then shows the rows made ahead, which are those a fresh computation makes."""
    from tests.test_app import drive, press
    from tui.views.folds import panel
    from tui.views.folds.panel import FoldsPanel, folds_rows

    monkeypatch.setattr(panel, "WARM_MIN_ROWS", 1)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")  # settle: the idle worker has run to its end
        sel = app.selection
        others = [x for x in sel.learners if x != app.analysis.control]
        warmed = {x: app._ahead.get(app.model.analyze(replace(sel, control=x)).folds) for x in others}
        assert all(rows is not None for rows in warmed.values()), warmed
        await press(pilot, "j", "c")  # the second learner of the totals becomes the control
        control = app.selection.control
        assert control in warmed
        shown = app.query_one(FoldsPanel).rows
        assert shown is warmed[control]  # the rows made ahead, not made again
        fresh = folds_rows(
            stats.fold_comparison(
                app.model._results(sel.criterion),
                sel.criterion,
                control,
                learners=sel.learners,
                datasets=sel.datasets,
                higher_is_better=sel.higher_is_better,
                rope=sel.rope,
            ),
            shown.fit,  # (names cut for the panel's width, as the idle worker did)
        )  # type: ignore[arg-type]
        assert [tuple(map(str, r)) for r in shown.table.cells] == [tuple(map(str, r)) for r in fresh.table.cells]
        assert shown.table.keys == fresh.table.keys

    await drive(scenario)


async def test_a_small_folds_view_makes_nothing_ahead() -> None:
    from tests.test_app import drive, press

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6")
        assert app._ahead.get(app.analysis.folds) is None and not app._ahead._data

    await drive(scenario)


@pytest.mark.parametrize("needle", ["", "knn", "n", "zz", "1"])
def test_the_filter_keeps_the_rows_each_name_matches_sharing_the_made_rows(
    cv: tuple[pd.DataFrame, Model], needle: str
) -> None:
    """The / filter of the folds view: the rows whose data set or learner contains the needle (the
    rule of tui.widgets._base.matches, row by row), taken from the rows made in the worker."""
    from tui.views.folds.panel import filtered, folds_rows
    from tui.widgets._base import matches
    from tui.widgets._table import prepare_rows, subset_rows

    _, model = cv
    view = model.analyze(default_selection(cv[0], "pd")).folds
    rows = folds_rows(view)
    keep = filtered(view, needle)
    assert keep == [i for i, (d, x) in enumerate(view.table.index) if matches(needle, d, x)]
    sub = subset_rows(rows.table, keep)
    again = prepare_rows(
        rows.table.columns, [rows.table.cells[i] for i in keep], [rows.table.keys[i] for i in keep], rows.table.widths
    )
    assert (sub.keys, sub.cells, sub.widths) == (again.keys, again.cells, again.widths)
    assert [k.value for k in sub.rows] == [k.value for k in again.rows] == list(sub.keys)
    assert {k.value: i for k, i in sub.locations.items()} == {k.value: i for k, i in again.locations.items()}
    assert all(sub.data[k] is rows.table.data[k] for k in sub.data)  # shared, not made again
