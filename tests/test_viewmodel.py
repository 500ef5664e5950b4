"""The view model: the numbers of Menzies' notes through tui.model._model, and bad selections without exceptions."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import stats
from tests.conftest import SAMPLES
from tui.model import (
    LOWER_IS_BETTER,
    Analysis,
    Model,
    Selection,
    default_higher_is_better,
    default_selection,
)
from tui.model._quartiles import TAU_FLAG, WARN_SHARE
from tui.model._tests import safety_message
from tui.views.cd.diagram import render_cd


@pytest.fixture(scope="module")
def c45_log() -> pd.DataFrame:
    return stats.read_logs(SAMPLES / "c45_demsar.dat")


@pytest.fixture(scope="module")
def c45_analysis(c45_log: pd.DataFrame) -> Analysis:
    return Model(c45_log).analyze(default_selection(c45_log))


@pytest.fixture(scope="module")
def cv_log() -> pd.DataFrame:
    return stats.read_logs(SAMPLES / "cv")


def make_log(medians: dict[str, dict[str, float]], criterion: str = "accuracy") -> pd.DataFrame:
    """A log with three folds per cell: value - 0.01, value, value + 0.01 (so the median is value)."""
    rows = [
        (d, 1, f, learner, criterion, v + (f - 2) * 0.01)
        for d, cells in medians.items()
        for learner, v in cells.items()
        for f in (1, 2, 3)
    ]
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])


# --- the C4.5 example of Menzies' notes -------------------------------------------------------


def test_c45_ranks_tests_and_cd(c45_analysis: Analysis) -> None:
    a = c45_analysis
    assert a.problem is None and (a.n_datasets, a.n_learners) == (14, 4)
    assert a.ranks is not None and a.tests is not None and a.cd is not None
    assert a.ranks.average.round(3).to_dict() == {"C4.5": 3.143, "C4.5+m": 2.0, "C4.5+cf": 2.929, "C4.5+m+cf": 1.929}
    om = a.tests.omnibus
    assert list(om.index) == ["friedman", "iman_davenport", "aligned", "quade"]
    assert om.loc["friedman", "statistic"] == pytest.approx(9.857, abs=5e-4)
    assert om.loc["friedman", "pvalue"] == pytest.approx(0.0198, abs=5e-5)
    assert om.loc["friedman", "df"] == 3 and om.loc["iman_davenport", "df"] == (3, 39)
    assert om.loc["iman_davenport", "statistic"] == pytest.approx(3.987, abs=5e-4)
    assert om.loc["aligned", "statistic"] == pytest.approx(11.640, abs=5e-4)
    assert om.loc["quade", "statistic"] == pytest.approx(4.494, abs=5e-4)
    assert a.tests.cd == pytest.approx(1.254, abs=5e-4)
    assert a.tests.verdict == (  # the selection's procedure (default Holm) rejects no pair
        "Friedman rejects equality (p = 0.0198); no pair differs under Holm at alpha = 0.05 (APVs over all pairs)"
    )
    assert a.tests.outcome == "different" and a.tests.winners == () and a.tests.losers == ()
    assert a.tests.control == "C4.5+m+cf"
    expected = stats.control_test(a.ranks.medians, "C4.5+m+cf")
    pd.testing.assert_frame_equal(a.tests.control_table, expected.table)
    assert a.tests.safety == stats.parametric_safety(a.ranks.medians).message
    assert list(a.cd.ranks.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert a.cd.cliques == (("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"),)  # span 1.214 < CD 1.254


def test_the_verdict_and_the_cd_bars_follow_the_chosen_procedure(c45_log: pd.DataFrame) -> None:
    # Issue 11, item 2: the verdict followed Nemenyi's CD whatever procedure was chosen.
    sel = default_selection(c45_log)
    nemenyi = Model(c45_log).analyze(replace(sel, procedure="nemenyi"))
    # the rule of Menzies' notes: no two average ranks are CD apart
    assert nemenyi.tests.verdict.endswith("no pair differs under Nemenyi at alpha = 0.05 (CD = 1.254)")
    assert nemenyi.cd.procedure == "nemenyi" and "Nemenyi" in nemenyi.cd.basis
    for procedure in ("holm", "shaffer", "bergmann"):
        a = Model(c45_log).analyze(replace(sel, procedure=procedure))
        name = stats.PROCEDURE_NAMES[procedure]
        assert a.tests.verdict.endswith(f"no pair differs under {name} at alpha = 0.05 (APVs over all pairs)")
        assert a.cd.basis == f"bars join learners that {name} does not separate (alpha = 0.05)"
        table = a.pairs.table
        assert a.cd.cliques == stats.apv_groups(a.cd.ranks, table, procedure)


def test_the_verdict_agrees_with_the_pairs_matrix_it_names() -> None:
    # Issue 11, item 2, as reported: runtime (lower is better), Holm. Nemenyi's CD keeps
    # B among the winners while Holm rejects A vs B. Eight data sets, runtimes = ranks: average
    # ranks A 1.125, B 2.25, C 2.625; se = 0.5, so A vs B has z = 2.25 (p = 0.0244, Holm's
    # second step 0.0489 <= 0.05) but differs by 1.125 < CD = 1.172.
    rows = [(1, 2, 3)] * 4 + [(1, 3, 2)] * 3 + [(2, 1, 3)]
    medians = {f"d{i}": {"A": a, "B": b, "C": c} for i, (a, b, c) in enumerate(rows)}
    log = make_log({d: {x: float(v) for x, v in m.items()} for d, m in medians.items()}, "runtime")
    model = Model(log)
    sel = default_selection(log, "runtime")
    holm = model.analyze(replace(sel, procedure="holm"))
    nemenyi = model.analyze(replace(sel, procedure="nemenyi"))
    pairs = holm.pairs.table.set_index(["a", "b"])
    apv = float(pairs["holm"].get(("A", "B"), pairs["holm"].get(("B", "A"))))
    assert apv == pytest.approx(2 * 2 * norm.sf(2.25))  # Holm's second step, z = 2.25
    assert apv <= 0.05  # Holm rejects A vs B ...
    assert "B" in holm.tests.losers  # ... so the verdict under Holm names B a loser
    assert "B" not in nemenyi.tests.losers  # ... while the CD rule does not (the old verdict)
    assert not any({"A", "B"} <= set(c) for c in holm.cd.cliques)  # no Holm bar joins them


def test_c45_rank_table_matches_readme(c45_analysis: Analysis) -> None:
    r = c45_analysis.ranks
    assert r is not None
    assert r.medians.loc["adult (sample)", "C4.5+m+cf"] == pytest.approx(0.798)
    assert r.ranks.loc["iris"].tolist() == [1.0, 2.5, 4.0, 2.5]
    assert r.best["iris"] == ("C4.5",)
    assert r.best["mushroom"] == ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
    assert r.excluded == {}


def test_c45_control_and_test_choice(c45_log: pd.DataFrame) -> None:
    model = Model(c45_log)
    sel = dataclasses.replace(default_selection(c45_log), control="C4.5", test="quade", alpha=0.1)
    a = model.analyze(sel)
    assert a.tests is not None and a.tests.control == "C4.5"
    expected = stats.control_test(a.ranks.medians, "C4.5", test="quade", alpha=0.1)
    pd.testing.assert_frame_equal(a.tests.control_table, expected.table)
    gone = dataclasses.replace(sel, learners=("C4.5+m", "C4.5+cf", "C4.5+m+cf"))  # control deselected
    assert model.analyze(gone).tests.control == "C4.5+m+cf"


def test_pairs_view(c45_analysis: Analysis) -> None:
    p = c45_analysis.pairs
    assert p is not None and p.procedure == "holm"
    m = p.matrix.to_numpy()
    assert np.isnan(np.diag(m)).all() and np.allclose(m, m.T, equal_nan=True)
    table = stats.pairwise_test(c45_analysis.ranks.medians)
    for row in table.itertuples():
        assert p.matrix.loc[row.a, row.b] == pytest.approx(row.holm)
    assert p.pair == ("C4.5+m+cf", "C4.5+m")  # best vs second best
    scores = c45_analysis.ranks.medians
    assert p.wilcoxon == stats.wilcoxon(scores["C4.5+m+cf"], scores["C4.5+m"])
    assert p.sign == stats.sign_test(scores["C4.5+m+cf"], scores["C4.5+m"])
    pd.testing.assert_frame_equal(p.contrast, stats.contrast_estimation(scores))


def test_pair_and_procedure_selection(c45_log: pd.DataFrame) -> None:
    sel = dataclasses.replace(default_selection(c45_log), procedure="nemenyi", pair=("C4.5", "C4.5+cf"))
    p = Model(c45_log).analyze(sel).pairs
    assert p.pair == ("C4.5", "C4.5+cf") and p.procedure == "nemenyi"
    # the matrix: Tukey's p of Demsar's CD rule; the table's nemenyi column stays Garcia & Herrera's m p
    ranks = stats.average_ranks(Model(c45_log).analyze(sel).ranks.medians)
    assert p.matrix.loc["C4.5", "C4.5+m"] == stats.nemenyi_tukey_p(ranks).loc["C4.5", "C4.5+m"]
    assert (p.table.loc[0, "a"], p.table.loc[0, "b"]) == ("C4.5", "C4.5+m")
    assert p.table.loc[0, "nemenyi"] == pytest.approx(min(1.0, 6 * p.table.loc[0, "p"]))  # m = k(k-1)/2 = 6


def test_quartiles_of_c45(c45_analysis: Analysis, c45_log: pd.DataFrame) -> None:
    q = c45_analysis.quartiles
    assert q is not None and q.scopes[0] == "overall" and len(q.scopes) == 15
    overall = [r for r in q.rows if r.scope == "overall"]
    assert [r.learner for r in overall] == ["C4.5+m+cf", "C4.5+cf", "C4.5+m", "C4.5"]  # best median first
    raw = c45_log[c45_log["learner"] == "C4.5"]["value"]
    expect = stats.quartiles(raw.to_numpy())
    got = overall[-1]
    assert (got.n, got.min, got.q1, got.median, got.q3, got.max) == (
        expect.n,
        expect.min,
        expect.q1,
        expect.median,
        expect.q3,
        expect.max,
    )
    assert q.lo == pytest.approx(c45_log["value"].min()) and q.hi == pytest.approx(c45_log["value"].max())
    assert q.control_median["overall"] == overall[0].median
    assert "breast cancer" in q.flagged and q.tau["breast cancer"] == pytest.approx(-1.0)
    assert q.scopes[1 : 1 + len(q.flagged)] == q.flagged
    assert math.isnan(q.tau["mushroom"])  # all four learners tie at 1.000: tau undefined, not flagged


# --- the cv samples: pf, lower is better ------------------------------------------------------


def test_cv_pf_lower_is_better(cv_log: pd.DataFrame) -> None:
    sel = default_selection(cv_log, "pf")
    assert sel.higher_is_better is False and len(sel.datasets) == 10 and len(sel.learners) == 5
    a = Model(cv_log).analyze(sel)
    assert a.problem is None
    scores = stats.scores_table(cv_log, "pf")
    pd.testing.assert_frame_equal(a.ranks.ranks, stats.ranks(scores, higher_is_better=False))
    fr = stats.friedman(scores, higher_is_better=False)
    assert a.tests.omnibus.loc["friedman", "statistic"] == pytest.approx(fr.statistic)
    assert a.tests.verdict == stats.verdict(scores, higher_is_better=False, rule="holm").message
    assert a.tests.safety == stats.parametric_safety(scores).message
    overall = [r.median for r in a.quartiles.rows if r.scope == "overall"]
    assert overall == sorted(overall)  # lower is better: smallest median first


def test_default_selection_and_direction(cv_log: pd.DataFrame) -> None:
    assert default_selection(cv_log).criterion == "pd"  # first in category order
    assert "pf" in LOWER_IS_BETTER and "runtime" in LOWER_IS_BETTER
    assert [default_higher_is_better(c) for c in ("pf", "runtime", "test_error", "accuracy", "pd")] == [
        False,
        False,
        False,
        True,
        True,
    ]
    with pytest.raises(ValueError, match="criterion 'nope' is not in the log"):
        default_selection(cv_log, "nope")


def test_model_default_selection_equals_the_logs() -> None:
    # A learner without results for one criterion, and a data set only one criterion has.
    log = pd.DataFrame(
        {
            "dataset": pd.Categorical(["d1", "d1", "d1", "d1", "d1", "d2", "d2"]),
            "repeat": 1,
            "fold": 1,
            "learner": pd.Categorical(["a", "b", "c", "a", "c", "c", "a"]),
            "criterion": pd.Categorical(["acc", "acc", "acc", "pf", "pf", "pf", "pf"]),
            "value": [0.5, 0.6, 0.7, 0.1, 0.2, 0.3, 0.4],
        }
    )
    model = Model(log)
    for criterion in (None, "acc", "pf"):
        assert model.default_selection(criterion) == default_selection(log, criterion)
    assert model.default_selection("pf").learners == ("a", "c")
    assert model.default_selection("pf").datasets == ("d1", "d2")
    assert not model.default_selection("pf").higher_is_better
    with pytest.raises(ValueError, match="criterion 'nope' is not in the log; criteria are: acc, pf"):
        model.default_selection("nope")


def test_model_default_selection_of_the_sample_logs(cv_log: pd.DataFrame) -> None:
    model = Model(cv_log)
    for criterion in model.criteria:
        assert model.default_selection(criterion) == default_selection(cv_log, criterion)


def test_selection_validates_options() -> None:
    with pytest.raises(ValueError, match="test must be one of"):
        Selection("a", True, ("d",), ("x",), test="t")
    with pytest.raises(ValueError, match="procedure must be one of"):
        Selection("a", True, ("d",), ("x",), procedure="bonferroni")
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        Selection("a", True, ("d",), ("x",), alpha=1.5)


def test_safety_sentence_equals_stats() -> None:
    rng = np.random.default_rng(7)
    safe = pd.DataFrame(rng.normal(0.8, 0.02, size=(12, 3)), columns=list("abc"))
    constant = pd.DataFrame({"a": [0.5] * 5, "b": [0.1, 0.2, 0.3, 0.4, 0.6]})
    for table in (safe, constant):
        assert safety_message(table, 0.05) == stats.parametric_safety(table, alpha=0.05).message
    assert "at least 3 data sets" in safety_message(safe.iloc[:2], 0.05)


# --- Kendall tau flags --------------------------------------------------------------------------


def _ordered(n: int, reverse: bool = False) -> dict[str, float]:
    values = [0.9, 0.8, 0.7, 0.6][:n]
    return dict(zip("abcd", values[::-1] if reverse else values))


def test_kendall_tau_flags_a_reversed_data_set() -> None:
    log = make_log({"d1": _ordered(4), "d2": _ordered(4), "d3": _ordered(4, True), "d4": _ordered(4)})
    a = Model(log).analyze(default_selection(log))
    q = a.quartiles
    assert TAU_FLAG == 0.0 and q.flagged == ("d3",) and q.tau["d3"] == pytest.approx(-1.0)
    assert q.tau["d1"] == pytest.approx(1.0)
    assert q.scopes == ("overall", "d3", "d1", "d2", "d4")
    assert q.warning is None  # 1 of 4 is not more than a quarter
    assert [r.learner for r in q.rows if r.scope == "d3"] == ["d", "c", "b", "a"]  # its own best first
    d3 = [r for r in q.rows if r.scope == "d3" and r.learner == "d"][0]
    assert (d3.n, d3.min, d3.median, d3.max) == (3, pytest.approx(0.89), pytest.approx(0.9), pytest.approx(0.91))


def test_overall_warns_when_many_are_flagged() -> None:
    log = make_log(
        {"d1": _ordered(4), "d2": _ordered(4, True), "d3": _ordered(4, True), "d4": _ordered(4)}
        | {"d5": _ordered(4), "d6": _ordered(4)}
    )
    q = Model(log).analyze(default_selection(log)).quartiles
    assert len(q.flagged) == 2 and 2 > WARN_SHARE * 6
    assert q.warning is not None and "2 of 6 data sets" in q.warning


# --- exclusions and untestable selections -------------------------------------------------------


def test_exclusions_are_reported() -> None:
    cells = {f"d{i}": _ordered(3) for i in range(4)}
    del cells["d2"]["b"]
    a = Model(make_log(cells)).analyze(default_selection(make_log(cells)))
    assert a.problem is None and a.n_datasets == 3
    assert a.ranks.excluded == {"d2": "no accuracy result for learner b"}
    assert "d2" not in a.ranks.medians.index


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"learners": ("a",)}, "at least 2 learners; 1 is selected"),
        ({"datasets": ("d0",)}, "at least 2 complete data sets; 1 remains"),
        ({"datasets": ()}, "no data set is selected"),
        ({"learners": ()}, "no learner is selected"),
        ({"criterion": "pf"}, "criterion 'pf' is not in the log"),
        ({"learners": ("a", "zz")}, "unknown learner"),
        # (d2 has a's result only: Skillings-Mack cannot test either; with c it would, see
        # tests/test_skillings_mack_untestable.py)
        ({"datasets": ("d0", "d2"), "learners": ("a", "b")}, "1 remains after leaving out 1 with missing results"),
    ],
)
def test_untestable_selections_give_a_problem(change: dict, problem: str) -> None:
    cells = {f"d{i}": _ordered(3) for i in range(4)}
    del cells["d2"]["b"]
    log = make_log(cells)
    sel = dataclasses.replace(default_selection(log), **change)
    a = Model(log).analyze(sel)
    assert a.problem is not None and problem in a.problem
    assert a.ranks is None and a.tests is None and a.pairs is None and a.cd is None


def test_one_learner_still_has_quartiles() -> None:
    log = make_log({f"d{i}": _ordered(3) for i in range(3)})
    a = Model(log).analyze(dataclasses.replace(default_selection(log), learners=("b",)))
    assert a.problem is not None and a.quartiles is not None
    assert {r.learner for r in a.quartiles.rows} == {"b"}


def test_empty_log_does_not_raise() -> None:
    log = make_log({"d0": _ordered(2)}).iloc[:0]
    model = Model(log)
    assert model.criteria == ()
    a = model.analyze(Selection("accuracy", True, ("d0",), ("a", "b")))
    assert a.problem is not None and a.tests is None


def test_markup_names_are_kept_literally() -> None:
    log = make_log({f"d{i}": {"[red]x": 0.9 - i * 0.01, "[b]y[/b]": 0.8, "z": 0.7} for i in range(5)})
    a = Model(log).analyze(default_selection(log))
    assert a.problem is None
    text = "\n".join(render_cd(a.cd.ranks, a.cd.cd, cliques=a.cd.cliques))
    assert "[red]x" in text and "[b]y[/b]" in text
    assert a.quartiles.rows[0].learner == "[red]x"


def test_view_modules_import_neither_textual_nor_rich() -> None:
    code = (
        "import sys, tui.model._model, tui.views.cd.diagram, tui.render._csv\n"
        "bad = [m for m in ('textual', 'rich') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _one_fold_log(rows: list[tuple[str, str, str, float]]) -> pd.DataFrame:
    """A log (categorical names, as read_logs gives) of (dataset, learner, criterion, value) rows."""
    names = {k: pd.Categorical([r[i] for r in rows]) for i, k in enumerate(("dataset", "learner", "criterion"))}
    return pd.DataFrame({**names, "repeat": 1, "fold": 1, "value": [r[3] for r in rows]})


def test_a_criterion_measured_on_some_data_sets_leaves_the_others_out_with_the_reason() -> None:
    # runtime logged for d1 and d2 only; acc for d1..d3: the default selection holds d1..d3.
    rows = [(d, lrn, "acc", v) for d, v in (("d1", 0.5), ("d2", 0.6), ("d3", 0.7)) for lrn in "abc"]
    rows += [(d, lrn, "runtime", 1.0 + i) for d in ("d1", "d2") for i, lrn in enumerate("abc")]
    model = Model(_one_fold_log(rows))
    sel = dataclasses.replace(model.default_selection("acc"), criterion="runtime", higher_is_better=False)
    assert sel.datasets == ("d1", "d2", "d3")
    a = model.analyze(sel)
    assert a.problem is None and a.n_datasets == 2
    assert a.ranks.excluded == {"d3": "no runtime results"}
    assert [r.learner for r in a.quartiles.rows if r.scope == "overall"] == ["a", "b", "c"]  # lower is better
    assert model.datasets_for("runtime") == ("d1", "d2") and model.learners_for("runtime") == ("a", "b", "c")
    only_d3 = model.analyze(dataclasses.replace(sel, datasets=("d3",)))
    assert only_d3.problem == "no runtime results on the selected data sets"


def test_a_learner_without_results_for_the_criterion_is_left_out_with_a_note() -> None:
    rows = [
        (d, lrn, "acc", 0.1 * i + 0.01 * j) for i, d in enumerate(("d1", "d2", "d3")) for j, lrn in enumerate("abc")
    ]
    rows += [(d, lrn, "runtime", 1.0 + i + j) for i, d in enumerate(("d1", "d2", "d3")) for j, lrn in enumerate("ab")]
    model = Model(_one_fold_log(rows))
    sel = dataclasses.replace(model.default_selection("acc"), criterion="runtime", higher_is_better=False)
    a = model.analyze(sel)
    assert a.problem is None and (a.n_datasets, a.n_learners) == (3, 2)
    assert a.notes == ("left out: no runtime results for learner c",)
    assert list(a.ranks.medians.columns) == ["a", "b"]
    assert {r.learner for r in a.quartiles.rows} == {"a", "b"}
    assert model.analyze(dataclasses.replace(sel, learners=("c",))).problem == (
        "no runtime results for the selected learners"
    )
    assert model.analyze(model.default_selection("acc")).notes == ()
    # A learner not in the log at all is still an error of the selection, named.
    assert "unknown learner" in model.analyze(dataclasses.replace(sel, learners=("a", "zz"))).problem
