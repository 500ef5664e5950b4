"""CSV export: the documented columns, raw numbers equal to stats', atomic writes."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

import stats
from tests.conftest import SAMPLES
from tui.model import Analysis, Model, default_selection
from tui.registry import names
from tui.render._csv import default_export_name, export_frame, write_csv

#: The views every log has (the learning curves need a sequence study).
VIEWS = tuple(n for n in names() if n != "curves")

APVS = ["bonferroni", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li"]


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    log = stats.read_logs(SAMPLES / "c45_demsar.dat")
    return Model(log).analyze(default_selection(log))


def test_quartiles_frame(analysis: Analysis) -> None:
    f = export_frame(analysis, "quartiles")
    cols = ["criterion", "scope", "learner", "n", "min", "q1", "median", "q3", "max", "rank", "scott_knott"]
    assert list(f.columns) == cols
    assert len(f) == len(analysis.quartiles.rows) and (f["criterion"] == "accuracy").all()
    assert (f["scott_knott"] == "esd").all() and f["rank"].min() == 1
    first = analysis.quartiles.rows[0]
    assert f.iloc[0]["median"] == first.median and f["n"].dtype == np.int64


def test_ranks_frame(analysis: Analysis) -> None:
    f = export_frame(analysis, "ranks")
    learners = list(analysis.ranks.medians.columns)
    letters = [f"{n} letters" for n in learners]
    by = ["letters_procedure", "letters_alpha", "letters_basis"]  # what made the letters (issue 28 item 5)
    assert list(f.columns) == ["dataset", *[f"{n} {w}" for n in learners for w in ("median", "rank")], *letters, *by]
    assert (f["letters_procedure"] == "holm").all() and (f["letters_alpha"] == 0.05).all()
    assert f["letters_basis"].str.contains("Holm, alpha = 0.05", regex=False).all()
    scores = stats.scores_table(stats.read_logs(SAMPLES / "c45_demsar.dat"), "accuracy")
    assert f["C4.5 median"].iloc[:-1].tolist() == scores["C4.5"].tolist()
    assert f["C4.5 rank"].iloc[:-1].tolist() == stats.ranks(scores)["C4.5"].tolist()
    last = f.iloc[-1]
    assert last["dataset"] == "average rank" and np.isnan(last["C4.5 median"])
    assert last["C4.5 rank"] == stats.friedman(scores).ranks["C4.5"]
    # the letters of Holm's rejections (the default procedure) on the average-rank row only:
    # Holm rejects no pair of this table at 0.05 (APVs 0.0770 at the least), so one letter
    holm = stats.pairwise_test(scores)["holm"]
    assert holm.min() > 0.05
    assert last[letters].tolist() == ["a"] * 4 and (f[letters].iloc[:-1] == "").all().all()


def test_folds_frame_names_the_test_and_alpha_of_its_marks() -> None:
    """Issue 28 item 5: the marks' test and level, in columns of fixed names after the others."""
    log = stats.read_logs(SAMPLES / "cv")
    sel = default_selection(log, "pd")
    f = export_frame(Model(log).analyze(sel.__class__(**{**sel.__dict__, "alpha": 0.01})), "folds")
    assert list(f.columns[-2:]) == ["mark_test", "mark_alpha"] and list(f.columns[:9])[-1] == "mark"
    assert f["mark_test"].str.startswith("corrected resampled t").all() and (f["mark_alpha"] == 0.01).all()


def test_tests_frame(analysis: Analysis) -> None:
    f = export_frame(analysis, "tests")
    sign = ["sign_plus", "sign_minus", "sign_ties", "sign_statistic", "sign_rejected"]
    roles = ["role", "role_held", "role_analyses", "role_reversed_by"]  # issue 31: each learner's stability
    assert list(f.columns) == ["learner", "z", "p", *APVS, *sign, "win", "loss", "tie", "win_minus_loss", *roles]
    expected = stats.control_test(analysis.ranks.medians, "C4.5+m+cf")
    assert f["learner"].tolist() == [*expected.index, "C4.5+m+cf"]  # the control last, with its counts only
    assert np.array_equal(f[["z", "p", *APVS]].to_numpy()[:-1], expected.to_numpy())
    # the sign counts and the win/loss/tie counts, recomputed here from the medians
    scores, control = analysis.ranks.medians, "C4.5+m+cf"
    for _, row in f.iloc[:-1].iterrows():
        other = scores[row["learner"]]
        assert row["sign_plus"] == (other > scores[control]).sum()
        assert row["sign_minus"] == (other < scores[control]).sum()
    assert f.iloc[-1][sign].isna().all()
    for _, row in f.iterrows():
        wins = losses = 0
        for other in scores.columns:
            if other == row["learner"]:
                continue
            t = sps.ttest_rel(scores[row["learner"]], scores[other])
            if t.pvalue <= 0.05:
                wins, losses = wins + (t.statistic > 0), losses + (t.statistic < 0)
        assert (row["win"], row["loss"], row["tie"]) == (wins, losses, len(scores.columns) - 1 - wins - losses)
        assert row["win_minus_loss"] == wins - losses


def test_pairs_frame(analysis: Analysis) -> None:
    f = export_frame(analysis, "pairs")
    ranks = ["a", "b", "z", "p", "nemenyi", "holm", "shaffer", "bergmann"]
    effects = ["a12", "a12_magnitude", "delta", "delta_magnitude", "hl_estimate", "hl_low", "hl_high", "hl_confidence"]
    fragile = ["fragility", "fragility_exact", "fragility_at_least", "fragility_removed"]
    stable = ["stability_held", "stability_analyses", "stability_reversed_by"]
    assert list(f.columns) == [*ranks, *effects, "mann_whitney_p", *fragile, *stable]
    scores = analysis.ranks.medians
    sel = analysis.selection  # issue 31: each pair's fragility, as stats.fragility gives it
    got = stats.fragility(scores, procedure=sel.procedure, alpha=sel.alpha, higher_is_better=sel.higher_is_better)
    assert f["fragility"].astype("Int64").tolist() == got.pairs["fragility"].tolist()
    assert f["fragility_exact"].tolist() == got.pairs["exact"].tolist()
    pd.testing.assert_frame_equal(f[ranks], stats.pairwise_test(scores).table, check_like=False)
    for row in f.itertuples(index=False):  # every pair's effect sizes: stats' functions, a over b
        a, b = scores[row.a], scores[row.b]
        assert (row.a12, row.a12_magnitude) == (stats.a12(a, b).value, stats.a12(a, b).magnitude)
        assert row.delta == stats.cliffs_delta(a, b).value
        hl = stats.hodges_lehmann(a, b)
        assert (row.hl_estimate, row.hl_low, row.hl_high) == (hl.estimate, hl.low, hl.high)
        assert row.hl_confidence == hl.attained
        assert row.mann_whitney_p == stats.mann_whitney(a, b).pvalue


def test_pairs_frame_of_wilcoxon_holm(analysis: Analysis) -> None:
    sel = analysis.selection.__class__(**{**analysis.selection.__dict__, "procedure": "wilcoxon-holm"})
    log = stats.read_logs(SAMPLES / "c45_demsar.dat")
    f = export_frame(Model(log).analyze(sel), "pairs")
    two = stats.pairwise_wilcoxon(analysis.ranks.medians)
    assert f[["statistic", "better", "wilcoxon p", "wilcoxon-holm"]].values.tolist() == (
        two[["statistic", "better", "p", "wilcoxon-holm"]].values.tolist()
    )


def test_cd_frame(analysis: Analysis) -> None:
    f = export_frame(analysis, "cd")
    roles = ["role", "role_held", "role_analyses", "role_reversed_by"]  # issue 31: each learner's stability
    assert list(f.columns) == ["learner", "average_rank", "clique 1", *roles]
    assert f["average_rank"].tolist() == analysis.cd.ranks.tolist() and f["clique 1"].all()


def test_bad_view_and_empty_view(analysis: Analysis) -> None:
    with pytest.raises(ValueError, match="view must be one of"):
        export_frame(analysis, "plots")
    log = stats.read_logs(SAMPLES / "c45_demsar.dat")
    sel = default_selection(log)
    bad = Model(log).analyze(sel.__class__(**{**sel.__dict__, "learners": ("C4.5",)}))
    with pytest.raises(ValueError, match="nothing to export in the tests view: the tests need at least 2"):
        export_frame(bad, "tests")


def test_default_export_name() -> None:
    when = datetime(2026, 11, 21, 6, 5, 4)
    assert default_export_name("accuracy", "ranks", when) == "rankboard-accuracy-ranks-20261121-060504.csv"
    assert default_export_name("../pd/pf [red]x", "cd", when) == "rankboard-pd_pf_red_x-cd-20261121-060504.csv"
    assert default_export_name("", "tests", when).startswith("rankboard-criterion-tests-")
    assert set(VIEWS) == {"quartiles", "ranks", "tests", "pairs", "cd", "folds"}


def test_write_csv_round_trip_and_refusal(tmp_path: Path, analysis: Analysis, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for view in VIEWS:
        frame = export_frame(analysis, view)
        path = write_csv(frame, f"{view}.csv")
        assert path.is_absolute() and path == tmp_path / f"{view}.csv"
        back = pd.read_csv(path)
        if view == "folds":  # an empty mark (no significant difference) reads back as missing
            back["mark"] = back["mark"].astype(object).where(back["mark"].notna(), "")
        for column in [c for c in back.columns if c.endswith(" letters")]:  # empty but on the average row
            back[column] = back[column].astype(object).where(back[column].notna(), "")
        for column in [c for c in back.columns if c.endswith(("_removed", "_reversed_by"))]:  # none: empty
            back[column] = back[column].astype(object).where(back[column].notna(), "")
        if view == "tests":  # the control's row has no sign test: a nullable boolean, blank there
            back["sign_rejected"] = back["sign_rejected"].astype("boolean")
        pd.testing.assert_frame_equal(back, frame, check_dtype=False)  # full precision: exact floats
        with pytest.raises(FileExistsError):
            write_csv(frame, path)
    assert b"\r\n" not in (tmp_path / "ranks.csv").read_bytes()
    before = (tmp_path / "cd.csv").read_text()
    write_csv(pd.DataFrame({"x": [0.1 + 0.2]}), tmp_path / "cd.csv", overwrite=True)
    assert (tmp_path / "cd.csv").read_text() != before
    assert pd.read_csv(tmp_path / "cd.csv")["x"][0] == 0.1 + 0.2
    assert sorted(os.listdir(tmp_path)) == sorted(f"{v}.csv" for v in VIEWS)  # no temporary file left


def test_write_csv_leaves_nothing_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", boom)  # csv_text's frame is a copy (names made safe)
    with pytest.raises(OSError, match="disk full"):
        write_csv(pd.DataFrame({"x": [1]}), tmp_path / "a.csv")
    assert os.listdir(tmp_path) == []


def test_markup_names_exported_literally(tmp_path: Path) -> None:
    rows = [
        (f"d{i}", 1, 1, name, "accuracy", v - i * 0.01)
        for i in range(4)
        for name, v in (("[red]x", 0.9), ("[b]y[/b]", 0.8), ("z", 0.7))
    ]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    a = Model(log).analyze(default_selection(log))
    path = write_csv(export_frame(a, "ranks"), tmp_path / "r.csv")
    head = path.read_text().splitlines()[0]
    assert "[red]x median" in head and "[b]y[/b] rank" in head
    assert "[red]x" in export_frame(a, "tests")["learner"].tolist() + [a.tests.control]


def test_exported_files_are_created_as_open_creates_them(tmp_path: Path) -> None:
    """Mode 0o666 less the umask, like any file the user writes (regression: 0o600, from mkstemp,
    so a colleague could not read an export)."""
    old = os.umask(0o022)
    try:
        path = write_csv(pd.DataFrame({"x": [1.0]}), tmp_path / "a.csv")
        with open(tmp_path / "plain.csv", "w") as handle:
            handle.write("x\n")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == (tmp_path / "plain.csv").stat().st_mode & 0o777 == 0o644


def test_as_shown_keeps_the_rows_each_view_shows_under_the_filter() -> None:
    """The views' `/` rule, per view: a pair when either learner matches, a quartile row by learner
    or chart, a folds row by data set or learner and its totals row by learner (not by "all data
    sets"), case-insensitively; the CD diagram is not filtered."""
    import pandas as pd

    from tui.render import as_shown

    pairs = pd.DataFrame({"a": ["KNN", "NB", "KNN"], "b": ["NB", "Tree", "Tree"], "p": [0.1, 0.2, 0.3]})
    assert as_shown(pairs, "pairs", needle="knn")["p"].tolist() == [0.1, 0.3]
    quart = pd.DataFrame({"scope": ["overall", "iris", "wine"], "learner": ["NB", "KNN", "NB"], "n": [3, 1, 1]})
    assert as_shown(quart, "quartiles", needle="IRIS")["learner"].tolist() == ["KNN"]
    folds = pd.DataFrame(
        {"dataset": ["iris", "data_x", "all data sets", "all data sets"], "learner": ["NB", "KNN", "NB", "KNN"]}
    )
    assert as_shown(folds, "folds", needle="data").values.tolist() == [["data_x", "KNN"]]
    assert as_shown(folds, "folds", needle="nb").values.tolist() == [["iris", "NB"], ["all data sets", "NB"]]
    cd = pd.DataFrame({"learner": ["NB", "KNN"], "average_rank": [1.0, 2.0]})
    assert as_shown(cd, "cd", needle="nb").equals(cd)
    assert as_shown(pairs, "pairs").equals(pairs)  # no filter: everything, in order
