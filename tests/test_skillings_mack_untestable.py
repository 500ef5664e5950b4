"""Skillings & Mack's (1981) test decides when fewer than 2 selected data sets are complete.

Friedman and every post-hoc procedure need at least 2 complete data sets; when selected data sets
miss some learners' results and fewer than 2 remain complete, Skillings-Mack's test of the complete
data sets and the incomplete ones with at least two results is the tests view's only test: its
statistic, df and p-value and a verdict that names it, and no Friedman, CD, control table, post-hoc
procedure, winner or loser. The ranks, pairs and CD views keep refusing, in words that do not
contradict the tests view; when Skillings-Mack cannot test either, the refusal says it was tried.

The expected statistics are computed here from Skillings & Mack's definition (ranks within each data
set, adjusted rank sums, their covariance's Moore-Penrose pseudo-inverse by numpy and the rank of that
covariance as df), on tables this file builds from the logs it writes (or reads, with pandas).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats

import stats
from tests.conftest import SAMPLES
from tests.test_app import LARGE, SMALL, drive, focus_list, make_app, press, screen_lines
from tests.test_render import validate
from tui.model import Model
from tui.render import SCHEMA
from tui.render._report import render_report
from tui.views.tests.panel import TestsPanel

LEARNERS = ("A", "B", "C", "D")
ORDER = {"A": 0.9, "B": 0.8, "C": 0.7, "D": 0.6}  # A always best, D always worst
#: The verdict's last words (no post-hoc procedure follows Skillings-Mack's test).
NO_POST_HOC = "no post-hoc procedure: they need complete data sets"


def _write(path: Path, rows: dict[str, dict[str, float]]) -> Path:
    """A log of one result per data set and learner (criterion acc, higher is better)."""
    lines = [f"{d},1,1,{learner},acc,{v!r}" for d, by in rows.items() for learner, v in by.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _frame(rows: dict[str, dict[str, float]]) -> pd.DataFrame:
    """The data sets x learners table of ``rows``, NaN where a result is missing (built here, not by rankboard)."""
    return pd.DataFrame(rows).T.reindex(columns=list(LEARNERS))


def _by_definition(table: pd.DataFrame) -> tuple[float, int, float, int]:
    """(SM, df, p, data sets used) from Skillings & Mack's (1981) definition: in each data set j with
    k_j >= 2 results, ranks r_tj (1 = the largest, ties averaged); A_t = sum_j sqrt(12/(k_j + 1))
    (r_tj - (k_j + 1)/2); Sigma with -lambda_st off the diagonal (lambda_st: the data sets where s and
    t both have results) and sum_{s != t} lambda_st on it; SM = A Sigma^- A^T (numpy's pseudo-inverse),
    chi2 with df = the rank of Sigma."""
    values = table.to_numpy(dtype=float)
    k = values.shape[1]
    a, both, used = np.zeros(k), np.zeros((k, k)), 0
    for row in values:
        seen = np.isfinite(row)
        kj = int(seen.sum())
        if kj < 2:
            continue
        used += 1
        ranks = scipy.stats.rankdata(-row[seen])
        a[seen] += np.sqrt(12.0 / (kj + 1)) * (ranks - (kj + 1) / 2.0)
        both += np.outer(seen, seen)
    sigma = -both
    np.fill_diagonal(sigma, 0.0)
    np.fill_diagonal(sigma, -sigma.sum(axis=1))
    sm = float(a @ np.linalg.pinv(sigma) @ a)
    df = int(np.linalg.matrix_rank(sigma))
    return sm, df, float(scipy.stats.chi2.sf(sm, df)), used


def _none_complete() -> dict[str, dict[str, float]]:
    """Eight data sets, each without one learner's result (D, C, B, A in turn): none is complete."""
    rows = {}
    for i in range(8):
        lost = LEARNERS[3 - i % 4]
        rows[f"d{i}"] = {x: v + 0.001 * i for x, v in ORDER.items() if x != lost}
    return rows


def _one_complete() -> dict[str, dict[str, float]]:
    """One complete data set and three without D's result, in orders that disagree."""
    return {
        "full": {"A": 0.6, "B": 0.7, "C": 0.8, "D": 0.9},
        "i1": {"A": 0.9, "B": 0.8, "C": 0.7},
        "i2": {"A": 0.7, "B": 0.9, "C": 0.8},
        "i3": {"A": 0.8, "B": 0.7, "C": 0.9},
    }


def _analysis(tmp_path: Path, rows: dict[str, dict[str, float]]) -> tuple[Model, object, object]:
    model = Model(stats.read_logs(_write(tmp_path / "log.dat", rows)))
    sel = model.default_selection()
    return model, sel, model.analyze(sel)


# -- the model ----------------------------------------------------------------------------------------


def test_no_complete_data_set_skillings_mack_decides(tmp_path: Path) -> None:
    rows = _none_complete()
    sm, df, p, used = _by_definition(_frame(rows))
    assert (df, used) == (3, 8) and p <= 0.05  # (the design is connected; A > B > C > D everywhere)
    _, _, a = _analysis(tmp_path, rows)
    tests = a.tests
    assert tests is not None and tests.skillings_mack_only
    r = tests.incomplete.result
    assert r.statistic == pytest.approx(sm, rel=1e-9) and r.pvalue == pytest.approx(p, rel=1e-9)
    assert (r.df, r.n, r.missing) == (3, 8, 8)
    assert tests.incomplete.complete == 0 and tests.incomplete.kept == tuple(rows) and tests.incomplete.dropped == ()
    assert tests.verdict == (
        "Skillings-Mack (Skillings & Mack 1981) on 8 data sets with missing results (no data set is complete): "
        f"rejects at alpha = 0.05 ({stats.p_is(p)}); {NO_POST_HOC}"
    )
    # a decision on equal learners, nobody named: no winner, no loser, no other test nor table
    assert tests.outcome == "different" and tests.winners == () and tests.losers == ()
    assert tests.omnibus.empty and tests.control_table.empty and tests.extra is None
    assert a.robustness is None


def test_one_complete_data_set_skillings_mack_decides_and_may_not_reject(tmp_path: Path) -> None:
    rows = _one_complete()
    sm, df, p, used = _by_definition(_frame(rows))
    assert used == 4 and p > 0.05
    _, _, a = _analysis(tmp_path, rows)
    tests = a.tests
    assert tests is not None and tests.skillings_mack_only
    assert tests.incomplete.result.statistic == pytest.approx(sm, rel=1e-9)
    assert (tests.incomplete.result.df, tests.incomplete.complete, tests.incomplete.kept) == (df, 1, ("i1", "i2", "i3"))
    assert tests.verdict == (
        "Skillings-Mack (Skillings & Mack 1981) on the complete data set and 3 with missing results (only 1 is "
        f"complete): does not reject at alpha = 0.05 ({stats.p_is(p)}); {NO_POST_HOC}"
    )
    assert tests.outcome == "no difference" and tests.winners == () and tests.losers == ()


def test_the_other_views_refuse_without_contradicting_the_tests_view(tmp_path: Path) -> None:
    _, _, a = _analysis(tmp_path, _none_complete())
    assert a.ranks is None and a.pairs is None and a.cd is None and a.tests is not None
    assert a.problem == (
        "the ranks, pairs and CD need at least 2 complete data sets; 0 remain after leaving out 8 with "
        "missing results (tests: Skillings-Mack)"
    )


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        (  # every data set has a single result
            {"d0": {"A": 0.9}, "d1": {"B": 0.8}, "d2": {"A": 0.7}},
            "0 remain after leaving out 3 with missing results; Skillings-Mack cannot either (no data set has "
            "results for at least two learners: nothing to rank)",
        ),
        (  # one complete data set, the others a single result: Friedman's statistic on one data set
            {"full": {"A": 0.9, "B": 0.8}, "d1": {"B": 0.8}, "d2": {"A": 0.7}},
            "1 remains after leaving out 2 with missing results; Skillings-Mack cannot either (it needs at least 2 "
            "data sets with two results; 1 has them)",
        ),
    ],
)
def test_when_skillings_mack_cannot_test_either(tmp_path: Path, rows: dict, why: str) -> None:
    model, sel, a = _analysis(tmp_path, rows)
    assert a.problem == "the tests need at least 2 complete data sets; " + why
    assert a.tests is None and a.ranks is None
    assert "not tested: " + a.problem in render_report(model, sel, view="tests", fmt="text")


# -- every report format --------------------------------------------------------------------------------


@pytest.fixture
def none_complete(tmp_path: Path) -> tuple[Model, object, tuple[float, int, float, int]]:
    rows = _none_complete()
    model, sel, _ = _analysis(tmp_path, rows)
    return model, sel, _by_definition(_frame(rows))


#: The data sets each test uses, as every format prints them.
USES = (
    "data sets used: Skillings-Mack 8 (8 with missing results: d0, d1, d2, d3, d4, ... (8 in all); 8 results "
    "missing); every other test needs at least 2 complete data sets"
)
#: What a tests view of complete data sets prints and this one must not.
ABSENT = ("Friedman", "Iman-Davenport", "Quade", "critical difference", "control", "Holm", "winner", "loser")


def test_the_text_report(none_complete: tuple) -> None:
    model, sel, (sm, _, p, _) = none_complete
    out = render_report(model, sel, view="tests", fmt="text")
    tests = out.split("\n\n", 1)[1].splitlines()  # the tests section, after the header
    assert tests == [
        "verdict: Skillings-Mack (Skillings & Mack 1981) on 8 data sets with missing results (no data set is "
        f"complete): rejects at alpha = 0.05 ({stats.p_is(p)}); {NO_POST_HOC}",
        "",
        f"Skillings-Mack chi2(3) = {sm:.3f}, {stats.p_is(p)} (keeps data sets with missing results)",
        USES,
    ]
    assert not any(word in out for word in ABSENT)


def test_the_markdown_report(none_complete: tuple) -> None:
    model, sel, (sm, _, p, _) = none_complete
    md = render_report(model, sel, view="tests", fmt="markdown")
    section = md[md.index("## Tests") :].splitlines()
    rows = [line for line in section if line.startswith("| ")]
    assert rows == [
        "| test | statistic | df | p |",
        "| :--- | ---: | ---: | ---: |",
        f"| Skillings-Mack (chi2) | {sm:.3f} | 3 | {stats.fmt_p(p)} |",
    ]
    assert "**Verdict:** Skillings-Mack (Skillings & Mack 1981) on 8 data sets" in md
    assert USES + "." in section
    assert not any(word in "\n".join(section) for word in ABSENT)


def test_the_latex_report(none_complete: tuple) -> None:
    model, sel, (sm, _, _, _) = none_complete
    tex = render_report(model, sel, view="tests", fmt="latex")
    assert re.search(rf"^Skillings-Mack & {sm:.3f} & 3 & ", tex, re.M)
    assert r"% verdict: Skillings-Mack (Skillings \& Mack 1981) on 8 data sets" in tex
    assert not any(word in tex for word in ("Friedman", "Nemenyi", "control"))


def test_the_json_report_follows_its_schema(none_complete: tuple) -> None:
    model, sel, (sm, df, p, _) = none_complete
    doc = json.loads(render_report(model, sel, view="all", fmt="json"))
    validate(doc, SCHEMA)
    for key in ("friedman", "iman_davenport", "aligned", "quade", "friedman_tie_corrected", "multiple_sign"):
        assert doc[key] is None, key
    assert doc["critical_difference"] is None and doc["control"] is None and doc["robustness"] is None
    got = doc["skillings_mack"]
    assert got["statistic"] == pytest.approx(sm, rel=1e-9) and got["pvalue"] == pytest.approx(p, rel=1e-9)
    assert {k: got[k] for k in ("df", "datasets", "complete", "kept", "dropped", "missing")} == {
        "df": df,
        "datasets": 8,
        "complete": 0,
        "kept": [f"d{i}" for i in range(8)],
        "dropped": [],
        "missing": 8,
    }
    verdict = doc["verdict"]
    assert verdict["procedure"] is None and verdict["winners"] == [] and verdict["losers"] == []
    assert verdict["outcome"] == "different" and verdict["message"].endswith(NO_POST_HOC)
    # the schema documents the null procedure, and still refuses an unknown one
    assert "null" in SCHEMA["properties"]["verdict"]["properties"]["procedure"]["description"]
    with pytest.raises(AssertionError, match="procedure"):
        validate({**verdict, "procedure": "skillings_mack"}, SCHEMA["properties"]["verdict"])


def test_the_csv_export_says_why_it_is_empty(none_complete: tuple) -> None:
    model, sel, _ = none_complete
    with pytest.raises(ValueError, match="Skillings-Mack's test alone .* has no row per learner"):
        render_report(model, sel, view="tests", fmt="csv")


# -- the app on the sample logs: no data set has every learner ------------------------------------------


def _sample_table() -> pd.DataFrame:
    """The sample logs' accuracy medians, data sets x learners, by pandas from the lines ``stats.read_logs``
    reads (not by rankboard's aggregate)."""
    log = stats.read_logs(SAMPLES)
    part = log[log["criterion"] == "accuracy"]
    return part.groupby(["dataset", "learner"], observed=True)["value"].median().unstack()


#: The scroll bar's glyphs, at the right edge of lines on screen.
BARS = "▁▂▃▄▅▆▇█"


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_tests_view_of_the_sample_logs_shows_skillings_mack(size: tuple[int, int]) -> None:
    table = _sample_table()
    assert table.notna().all(axis=1).sum() == 0  # no data set is complete
    sm, df, p, used = _by_definition(table)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        panel = app.query_one(TestsPanel)
        assert panel.query_one("#verdict").plain == (
            f"Skillings-Mack (Skillings & Mack 1981) on {used} data sets with missing results (no data set is "
            f"complete): rejects at alpha = 0.05 ({stats.p_is(p)}); {NO_POST_HOC}"
        )
        assert panel.query_one("#control-table").row_count == 0 and not panel.query_one("#tests-safety").display
        # on screen, whole: the row of its statistic, df and p, and the verdict's p wrapped whole
        pane = [line.split("▕", 1)[-1].strip(BARS + " ▌") for line in screen_lines(app)]
        row = f"Skillings-Mack  {sm:.3f}   {df}  {stats.fmt_p(p)}"
        assert any(line.strip() == row for line in pane), pane
        words = " ".join(" ".join(pane[:-3]).split())  # (not the problems, status and footer lines)
        assert f"rejects at alpha = 0.05 ({stats.p_is(p)}); no post-hoc procedure" in words
        assert not any(word in words for word in ("Friedman", "Nemenyi", "control", "parametric"))
        # the problem line over every view names the views that refuse, not the tests
        problem = str(app.query_one("#problem").render())
        assert "the ranks, pairs and CD need at least 2 complete data sets" in " ".join(problem.split())

    await drive(scenario, size=size, app=make_app([str(SAMPLES)]))


async def test_the_panel_shows_the_whole_view_again_when_two_data_sets_are_complete(tmp_path: Path) -> None:
    """Leaving out one of the two complete data sets makes Skillings-Mack's test the only one (no control
    table, CD or notice); taking it back shows the tests of complete data sets again."""
    rows = {"full1": dict(ORDER), "full2": {"A": 0.8, "B": 0.9, "C": 0.6, "D": 0.7}, **_none_complete()}
    path = _write(tmp_path / "two.dat", rows)
    without = {d: r for d, r in rows.items() if d != "full2"}
    _, _, p, _ = _by_definition(_frame(without))

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        panel = app.query_one(TestsPanel)
        table = panel.query_one("#control-table")
        assert table.row_count == 3 and "Friedman" in panel.plain
        await focus_list(pilot, "datasets", "full2")
        await press(pilot, "space")
        assert panel.query_one("#verdict").plain.startswith(
            "Skillings-Mack (Skillings & Mack 1981) on the complete data set and 8 with missing results (only 1 is "
            f"complete): rejects at alpha = 0.05 ({stats.p_is(p)})"
        )
        assert table.row_count == 0 and not panel.query_one("#control-head").display
        assert not panel.query_one("#tests-safety").display
        assert "Friedman" not in panel.plain
        await focus_list(pilot, "datasets", "full2")
        await press(pilot, "space")
        assert table.row_count == 3 and panel.query_one("#tests-safety").display
        assert panel.query_one("#control-head").display
        assert "test: Friedman on the 2 complete data sets" in panel.query_one("#verdict").plain

    await drive(scenario, size=SMALL, app=make_app([str(path)]))
