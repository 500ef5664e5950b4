"""Issue 31, item 3, in the tests view: when selected data sets miss some learners' results (a learner
timed out on them), Friedman and every other test still use the complete data sets only; the view
shows Skillings-Mack's test (``stats.skillings_mack``) beside Friedman on those and the incomplete
ones, says how many data sets each uses, and the verdict names the test it used. In the panel (80x24
and 120x40), the text, Markdown, LaTeX and JSON reports; a complete log's view is unchanged.

The log: tests/data/sweep.dat (12 learners with long names, 30 data sets) with the SVC-rbf learner's
results removed on two data sets, as if it had timed out there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats
from tests.test_app import LARGE, SMALL, drive, make_app, press, screen_lines
from tests.test_render import validate
from tui.model import Model
from tui.render import SCHEMA
from tui.render._report import render_report
from tui.views.tests.panel import TestsPanel

SWEEP = Path(__file__).resolve().parent / "data" / "sweep.dat"
COLUMNS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
TIMED_OUT = "SVC-kernel=rbf-C=10.0"
ON = ("adult", "letter")  # the two largest data sets of the sweep


def _timed_out_log(tmp_path: Path, lost: dict[str, tuple[str, ...]] | None = None) -> Path:
    """sweep.dat without the results of each learner of ``lost`` on its data sets (default: SVC-rbf
    on adult and letter)."""
    lost = {TIMED_OUT: ON} if lost is None else lost
    keep = []
    for line in SWEEP.read_text(encoding="utf-8").splitlines(keepends=True):
        dataset, _, _, learner, _ = line.split(",", 4)
        if dataset not in lost.get(learner, ()):
            keep.append(line)
    path = tmp_path / "timeout.dat"
    path.write_text("".join(keep), encoding="utf-8")
    return path


def _medians(path: Path, criterion: str = "acc") -> pd.DataFrame:
    """The data sets x learners table of medians over repeats and folds, NaN where a learner has no
    result: computed here with pandas from the log's lines (not by rankboard)."""
    log = pd.read_csv(path, header=None, names=COLUMNS)
    part = log[log["criterion"] == criterion]
    table = part.groupby(["dataset", "learner"])["value"].median().unstack()
    learners = list(dict.fromkeys(part["learner"]))  # in order of first appearance
    return table.reindex(columns=learners)


def _model(path: Path) -> tuple[Model, object]:
    model = Model(stats.read_logs(path))
    return model, model.default_selection()


# -- the model: Skillings-Mack on every data set with two results, Friedman on the complete ones --------


def test_skillings_mack_uses_the_incomplete_data_sets_and_friedman_does_not(tmp_path: Path) -> None:
    path = _timed_out_log(tmp_path)
    model, sel = _model(path)
    tests = model.analyze(sel).tests
    table = _medians(path)
    complete = table.dropna()
    assert len(table) == 30 and len(complete) == 28  # the two data sets of the timeout are incomplete
    shown = model.analyze(sel).ranks.medians  # this file's medians are rankboard's (the same data compared)
    assert np.allclose(complete.loc[shown.index, shown.columns].to_numpy(), shown.to_numpy(), rtol=0, atol=1e-12)
    # Friedman: the complete data sets only, as before
    assert tests.omnibus.loc["friedman", "statistic"] == pytest.approx(stats.friedman(complete).statistic, rel=1e-12)
    # Skillings-Mack: all 30
    expected = stats.skillings_mack(table)
    inc = tests.incomplete
    assert inc is not None
    assert inc.result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert (inc.result.df, inc.result.n, inc.result.missing) == (11, 30, 2)
    assert (inc.complete, inc.kept, inc.dropped) == (28, ON, ())


def test_the_verdict_names_the_test_it_used(tmp_path: Path) -> None:
    path = _timed_out_log(tmp_path)
    model, sel = _model(path)
    tests = model.analyze(sel).tests
    sm = stats.skillings_mack(_medians(path))
    assert sm.pvalue <= 0.05 and tests.outcome == "different"
    assert tests.verdict.startswith("learners differ at alpha = 0.05 (Friedman p = ")
    assert tests.verdict.endswith(
        "; test: Friedman on the 28 complete data sets (Skillings-Mack, adding the 2 with missing results: "
        f"also rejects, {stats.p_is(sm.pvalue)})"
    )


def test_a_complete_log_is_unchanged() -> None:
    model, sel = _model(SWEEP)
    tests = model.analyze(sel).tests
    assert tests.incomplete is None
    assert "Skillings-Mack" not in tests.verdict and "test: Friedman" not in tests.verdict
    for fmt in ("text", "markdown", "latex"):
        out = render_report(model, sel, view="tests", fmt=fmt)
        assert "Skillings-Mack" not in out and "data sets used" not in out
    assert "skillings_mack" not in json.loads(render_report(model, sel, view="tests", fmt="json"))


def test_a_data_set_with_a_single_result_is_dropped_and_named(tmp_path: Path) -> None:
    """On iris only one learner has a result: Skillings-Mack cannot rank it either, and says so."""
    names = list(_medians(SWEEP).columns)
    lost = {name: ("iris",) for name in names[1:]}
    lost[TIMED_OUT] = (*ON, "iris")
    path = _timed_out_log(tmp_path, lost)
    model, sel = _model(path)
    tests = model.analyze(sel).tests
    inc = tests.incomplete
    assert inc is not None and inc.complete == 27 and inc.kept == ON and inc.dropped == ("iris",)
    assert inc.result.n == 29 and inc.result.n_dropped == 1
    text = render_report(model, sel, view="tests", fmt="text")
    assert "left out of both: 1 with a single result (iris)" in text


def test_no_incomplete_data_set_with_two_results_adds_nothing(tmp_path: Path) -> None:
    """A data set with one result only: Skillings-Mack would be Friedman's statistic on the same data
    sets, so the view shows neither it nor a note."""
    names = list(_medians(SWEEP).columns)
    path = _timed_out_log(tmp_path, {name: ("iris",) for name in names[1:]})
    model, sel = _model(path)
    tests = model.analyze(sel).tests
    assert tests.incomplete is None and "test: Friedman" not in tests.verdict


def _log(path: Path, rows: dict[str, dict[str, float]]) -> Path:
    lines = [f"{d},1,1,{learner},acc,{v!r}" for d, by in rows.items() for learner, v in by.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_verdict_says_when_skillings_mack_rejects_and_friedman_cannot(tmp_path: Path) -> None:
    """Two complete data sets cannot reject with 4 learners (chi2 <= N(k-1) = 6, p >= 0.11); ten more in
    which D timed out and A always beats B and C carry the difference, which Skillings-Mack finds."""
    rows = {"c1": {"A": 0.9, "B": 0.8, "C": 0.7, "D": 0.6}, "c2": {"A": 0.6, "B": 0.9, "C": 0.8, "D": 0.7}}
    for i in range(10):
        rows[f"i{i}"] = {"A": 0.9, "B": 0.7 + 0.01 * (i % 3), "C": 0.71}
    path = _log(tmp_path / "few.dat", rows)
    model = Model(stats.read_logs(path))
    tests = model.analyze(model.default_selection()).tests
    frame = pd.DataFrame(rows).T.reindex(columns=["A", "B", "C", "D"])
    friedman_p = stats.friedman(frame.dropna()).pvalue
    sm = stats.skillings_mack(frame)
    assert friedman_p > 0.05 and sm.pvalue <= 0.05
    assert tests.outcome == "no difference"
    assert tests.verdict.endswith(
        "; test: Friedman on the 2 complete data sets (Skillings-Mack, adding the 10 with missing results: "
        f"rejects, {stats.p_is(sm.pvalue)})"
    )


# -- every report format -----------------------------------------------------------------------------------


@pytest.fixture
def timed_out(tmp_path: Path) -> tuple[Model, object, stats.SkillingsMackResult]:
    path = _timed_out_log(tmp_path)
    model, sel = _model(path)
    return model, sel, stats.skillings_mack(_medians(path))


USES = (
    "data sets used: Skillings-Mack 30 (the 28 complete and 2 with missing results: adult, letter; 2 results "
    "missing); Friedman and every other test and table here the 28 complete ones"
)


def test_the_text_report_shows_it_under_friedman(timed_out: tuple) -> None:
    model, sel, sm = timed_out
    lines = render_report(model, sel, view="tests", fmt="text").splitlines()
    line = (
        f"Skillings-Mack chi2(11) = {sm.statistic:.3f}, {stats.p_is(sm.pvalue)} (keeps data sets with missing results)"
    )
    at = lines.index(line)
    assert lines[at - 1].startswith("Friedman, tie-corrected chi2(11) = ")
    assert lines[at - 2].startswith("Friedman chi2(11) = ")
    assert lines[at + 1] == USES
    assert lines[at + 2].startswith("Iman-Davenport F(11, 297) = ")  # (k - 1)(N - 1) with N = 28


def test_the_markdown_report_has_its_row_and_the_counts(timed_out: tuple) -> None:
    model, sel, sm = timed_out
    md = render_report(model, sel, view="tests", fmt="markdown").splitlines()
    row = f"| Skillings-Mack (chi2) | {sm.statistic:.3f} | 11 | {stats.fmt_p(sm.pvalue)} |"
    at = md.index(row)
    assert md[at - 1].startswith("| Friedman, tie-corrected (chi2) |")
    assert md[at + 1].startswith("| Iman-Davenport (F) |")
    assert USES + "." in md


def test_the_latex_report_has_its_row_and_the_counts(timed_out: tuple) -> None:
    model, sel, sm = timed_out
    tex = render_report(model, sel, view="tests", fmt="latex")
    assert re.search(rf"^Skillings-Mack & {sm.statistic:.3f} & 11 & ", tex, re.M)
    assert "% " + USES.replace("_", r"\_") in tex.splitlines()


def test_the_json_report_has_the_key_and_follows_the_schema(timed_out: tuple) -> None:
    model, sel, sm = timed_out
    doc = json.loads(render_report(model, sel, view="all", fmt="json"))
    validate(doc, SCHEMA)
    got = doc["skillings_mack"]
    assert got["statistic"] == pytest.approx(sm.statistic, rel=1e-12)
    assert got["pvalue"] == pytest.approx(sm.pvalue, rel=1e-9)
    assert {k: got[k] for k in ("df", "datasets", "complete", "kept", "dropped", "missing")} == {
        "df": 11,
        "datasets": 30,
        "complete": 28,
        "kept": ["adult", "letter"],
        "dropped": [],
        "missing": 2,
    }
    assert doc["verdict"]["message"].endswith(f"also rejects, {stats.p_is(sm.pvalue)})")
    schema = SCHEMA["properties"]["skillings_mack"]
    bad = {**got, "kept": "adult"}
    with pytest.raises(AssertionError, match="kept"):
        validate(bad, schema)


# -- the panel ------------------------------------------------------------------------------------------

#: The scroll bar's glyphs, at the right edge of wrapped lines on screen.
BARS = "▁▂▃▄▅▆▇█"


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_panel_shows_skillings_mack_and_the_counts(tmp_path: Path, size: tuple[int, int]) -> None:
    path = _timed_out_log(tmp_path)
    sm = stats.skillings_mack(_medians(path))

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        panel = app.query_one(TestsPanel)
        plain = panel.plain
        row = re.search(r"^Skillings-Mack +(\S+) +11 +(\S+)$", plain, re.M)
        assert row is not None and row.groups() == (f"{sm.statistic:.3f}", stats.fmt_p(sm.pvalue))
        assert "test: Friedman on the 28 complete data sets" in panel.query_one("#verdict").plain
        counts = panel.query_one("#tests-incomplete")
        assert counts.display and counts.plain == USES
        # on screen: the row under Friedman's, and the counts wrapped to the pane (scrolled to them)
        panel.scroll_to_widget(counts, animate=False)
        await pilot.pause()
        words = (w.strip(BARS) for line in screen_lines(app) for w in line.split("▕▌", 1)[-1].split())
        screen = " ".join(w for w in words if w)
        assert "data sets used: Skillings-Mack 30 (the 28 complete and 2 with missing results:" in screen
        assert "Friedman and every other test and table here the 28 complete ones" in screen
        assert re.search(r"Skillings-Mack \d+\.\d{3} 11 ", screen)

    await drive(scenario, size=size, app=make_app([str(path)]))


async def test_the_panel_of_a_complete_log_has_no_counts() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        panel = app.query_one(TestsPanel)
        assert "Skillings-Mack" not in panel.plain and "data sets used" not in panel.plain
        assert not panel.query_one("#tests-incomplete").display

    await drive(scenario, size=SMALL, app=make_app([str(SWEEP)]))


async def test_the_names_legend_and_the_safety_notice_are_two_lines() -> None:
    """At 80 columns the sweep's names are cut and a legend line says so above the safety notice: a line
    break between them, not its escape (\\x0a) in one line."""

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        safety = app.query_one(TestsPanel).query_one("#tests-safety").plain
        assert "\\x0a" not in safety
        legend, notice = safety.split("\n")
        assert legend == "learners: cut in the middle to fit (n: full names)"
        assert notice.startswith("a parametric test would be unsafe")

    await drive(scenario, size=SMALL, app=make_app([str(SWEEP)]))
