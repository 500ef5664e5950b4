"""stats.fold_comparison (issue 14): every learner against a control from the fold-level results,
checked pair by pair against the per-pair functions of stats.folds.ttests and stats.folds.signed_rank on baycomp's
own log (tests/data/reference/baycomp_accuracies.dat: 54 data sets x 5 learners, 10 x 10-fold CV), on
hand-made logs with missing keys, and against independent counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats
from stats import bayes_correlated_ttest, bayes_signed_rank, corrected_ttest, default_rope, fold_comparison
from tests.conftest import REFERENCE

LEARNERS = ["nbc", "aode", "hnb", "j48", "j48gr"]


@pytest.fixture(scope="module")
def log() -> pd.DataFrame:
    return stats.read_logs(REFERENCE / "baycomp_accuracies.dat")


@pytest.fixture(scope="module")
def folds(log: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per data set: a (repeat, fold) x learner table of accuracies."""
    return {
        str(name): part.pivot_table(
            index=["repeat", "fold"], columns="learner", values="value", observed=True
        ).sort_index()
        for name, part in log.groupby("dataset", observed=True)
    }


def _expected(folds: dict[str, pd.DataFrame], control: str, rope: float, higher_is_better: bool) -> dict:
    out = {}
    for name, table in folds.items():
        for learner in table.columns:
            if learner == control:
                continue
            a, b = table[learner].to_numpy(), table[control].to_numpy()
            t = corrected_ttest(a, b, folds=10, higher_is_better=higher_is_better)
            p = bayes_correlated_ttest(a, b, folds=10, rope=rope, higher_is_better=higher_is_better)
            out[(name, learner)] = (t.mean_difference, t.statistic, t.pvalue, p.p_a, p.p_rope, p.p_b)
    return out


@pytest.mark.parametrize(
    ("control", "rope", "higher_is_better"), [("nbc", 0.0, True), ("j48", 1.0, True), ("aode", 0.5, False)]
)
def test_every_pair_equals_the_per_pair_functions_on_baycomps_log(
    log: pd.DataFrame, folds: dict[str, pd.DataFrame], control: str, rope: float, higher_is_better: bool
) -> None:
    result = fold_comparison(log, "accuracy", control, rope=rope, higher_is_better=higher_is_better, nsamples=2000)
    expected = _expected(folds, control, rope, higher_is_better)
    assert len(result.table) == len(expected) == 54 * 4
    assert result.notes == ()
    columns = ["mean_difference", "statistic", "pvalue", "p_better", "p_equivalent", "p_worse"]
    for key, row in result.table.iterrows():
        got = tuple(row[columns])
        want = expected[key]
        for g, w in zip(got, want):
            if np.isinf(w):
                assert g == w, key
            else:
                assert g == pytest.approx(w, rel=1e-12, abs=1e-12), (key, got, want)
        assert (row["runs"], row["folds"]) == (100, 10)
    # order: data sets as in the log, then learners as in the log, without the control
    datasets = list(dict.fromkeys(str(d) for d in log["dataset"]))
    others = [x for x in LEARNERS if x != control]
    assert list(result.table.index) == [(d, x) for d in datasets for x in others]


def test_marks_and_win_tie_loss_counts_against_an_independent_count(log: pd.DataFrame, folds: dict) -> None:
    result = fold_comparison(log, "accuracy", "nbc", alpha=0.05, nsamples=2000)
    for learner in ["aode", "hnb", "j48", "j48gr"]:
        wins = ties = losses = 0
        for name, table in folds.items():
            t = corrected_ttest(table[learner].to_numpy(), table["nbc"].to_numpy(), folds=10)
            mark = "v" if t.pvalue < 0.05 and t.statistic > 0 else "*" if t.pvalue < 0.05 and t.statistic < 0 else ""
            assert result.table.loc[(name, learner), "mark"] == mark
            wins, ties, losses = wins + (mark == "v"), ties + (mark == ""), losses + (mark == "*")
        row = result.totals.loc[learner]
        assert (row["wins"], row["ties"], row["losses"], row["datasets"]) == (wins, ties, losses, 54)


def test_lower_is_better_flips_the_signs_and_marks(log: pd.DataFrame) -> None:
    up = fold_comparison(log, "accuracy", "nbc", nsamples=2000)
    errors = log.assign(value=100.0 - log["value"])
    down = fold_comparison(errors, "accuracy", "nbc", higher_is_better=False, nsamples=2000)
    assert list(down.table["mark"]) == list(up.table["mark"])
    np.testing.assert_allclose(down.table["mean_difference"], up.table["mean_difference"], atol=1e-9)
    same = fold_comparison(errors, "accuracy", "nbc", higher_is_better=True, nsamples=2000)
    flipped = {"v": "*", "*": "v", "": ""}
    assert list(same.table["mark"]) == [flipped[m] for m in up.table["mark"]]
    np.testing.assert_allclose(same.table["statistic"], -up.table["statistic"], rtol=1e-9)
    np.testing.assert_allclose(same.table["p_better"], up.table["p_worse"], atol=1e-9)
    assert list(same.totals["wins"]) == list(up.totals["losses"])


def test_signed_rank_totals_equal_a_direct_call_on_the_means(log: pd.DataFrame, folds: dict) -> None:
    result = fold_comparison(log, "accuracy", "hnb", rope=1.0, nsamples=20000, seed=4)
    means = pd.DataFrame({name: t.mean() for name, t in folds.items()}).T  # data sets x learners
    for learner in ["nbc", "aode", "j48", "j48gr"]:
        direct = bayes_signed_rank(
            means[learner].to_numpy(), means["hnb"].to_numpy(), rope=1.0, nsamples=20000, seed=4
        )
        row = result.totals.loc[learner]
        assert (row["p_better"], row["p_equivalent"], row["p_worse"]) == (direct.p_a, direct.p_rope, direct.p_b)
    line = result.sentence().splitlines()[0]
    # hnb beats nbc on baycomp's 54 data sets (Benavoli et al. 2017): the sentence leads with that
    assert line.startswith("nbc is practically worse than hnb with probability 1.00; better 0.00")
    assert "54 data sets" in line


def _hand_log() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for dataset in ["iris", "wine", "glass"]:
        for learner in ["nb", "knn", "tree"]:
            for repeat in (1, 2):
                for fold in range(1, 6):
                    rows.append((dataset, repeat, fold, learner, "acc", round(float(rng.uniform(0.6, 0.9)), 3)))
    frame = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    drop = (
        ((frame.dataset == "iris") & (frame.learner == "knn") & frame.fold.isin([2]) & (frame.repeat == 1))
        | ((frame.dataset == "iris") & (frame.learner == "nb") & (frame.fold == 3) & (frame.repeat == 2))
        | ((frame.dataset == "wine") & (frame.learner == "tree") & ~((frame.repeat == 1) & (frame.fold == 1)))
        | ((frame.dataset == "glass") & (frame.learner == "tree") & (frame.fold != 4))
    )
    other = frame.assign(criterion="auc", value=0.5)
    return pd.concat([frame[~drop], other], ignore_index=True)


def test_shared_keys_missing_ones_are_noted_and_short_pairs_left_out() -> None:
    frame = _hand_log()
    result = fold_comparison(frame, "acc", "nb", nsamples=1000)
    assert result.notes == (
        "iris: knn and nb share 8 of 10 (repeat, fold) results; 2 left out",
        "iris: tree and nb share 9 of 10 (repeat, fold) results; 1 left out",
        "wine: tree left out: tree and nb share only 1 (repeat, fold) result (2 needed)",
        "glass: tree left out: the 2 results tree and nb share are all from one fold (2 folds needed)",
    )
    assert list(result.table.index) == [("iris", "knn"), ("iris", "tree"), ("wine", "knn"), ("glass", "knn")]
    # the iris/knn pair is the per-pair test on the 8 shared keys (N = 5 folds)
    iris = frame[(frame.dataset == "iris") & (frame.criterion == "acc")]
    wide = iris.pivot_table(index=["repeat", "fold"], columns="learner", values="value").dropna(subset=["knn", "nb"])
    row = result.table.loc[("iris", "knn")]
    assert (row["runs"], row["folds"]) == (8, 5)
    a, b = wide["knn"].to_numpy(), wide["nb"].to_numpy()
    d = a - b
    t = d.mean() / np.sqrt((1 / 8 + 1 / 4) * d.var(ddof=1))  # Nadeau & Bengio with J = 8, N = 5
    assert row["statistic"] == pytest.approx(t, rel=1e-9)
    assert row["mean_difference"] == pytest.approx(d.mean(), abs=1e-12)
    assert result.totals.loc["tree", "datasets"] == 1 and result.totals.loc["knn", "datasets"] == 3
    assert result.rope == 0.01  # accuracies in [0, 1]
    assert "iris: knn and nb share 8 of 10" in str(result)


def test_later_duplicate_row_wins() -> None:
    frame = _hand_log()
    first = fold_comparison(frame, "acc", "nb", nsamples=500)
    row = frame[(frame.dataset == "wine") & (frame.learner == "knn") & (frame.criterion == "acc")].iloc[[0]]
    doubled = pd.concat([frame, row.assign(value=row["value"] + 0.05)], ignore_index=True)
    second = fold_comparison(doubled, "acc", "nb", nsamples=500)
    diff = second.table.loc[("wine", "knn"), "mean_difference"] - first.table.loc[("wine", "knn"), "mean_difference"]
    assert diff == pytest.approx(0.05 / 10, abs=1e-12)


def test_learners_and_datasets_choose_and_order() -> None:
    result = fold_comparison(_hand_log(), "acc", "knn", learners=["tree", "knn", "nb"], datasets=["wine", "iris"])
    assert list(result.table.index) == [("wine", "nb"), ("iris", "tree"), ("iris", "nb")]
    assert list(result.totals.index) == ["tree", "nb"]


def test_default_rope() -> None:
    assert default_rope([0.0, 0.5, 1.0]) == 0.01
    assert default_rope([0.2, 1.2]) == 1.0  # within [0, 100]: per cent (issue 28)
    assert default_rope([0.2, 100.5]) == 0.0  # scale unknown
    assert default_rope([-0.1, 0.5]) == 0.0
    assert default_rope([0.3, np.nan, np.inf]) == 0.01  # only the finite values count
    assert default_rope([]) == 0.0


def test_errors_name_the_problem() -> None:
    frame = _hand_log()
    with pytest.raises(ValueError, match="control 'svm' is not one of the learners: nb, knn, tree"):
        fold_comparison(frame, "acc", "svm")
    with pytest.raises(ValueError, match="no results for criterion 'f1'; the log has: acc, auc"):
        fold_comparison(frame, "f1", "nb")
    with pytest.raises(ValueError, match="unknown learner"):
        fold_comparison(frame, "acc", "nb", learners=["nb", "svm"])
    with pytest.raises(ValueError, match="unknown data set"):
        fold_comparison(frame, "acc", "nb", datasets=["iris", "mnist"])
    with pytest.raises(ValueError, match="control 'nb' is not one of the learners"):
        fold_comparison(frame, "acc", "nb", learners=["knn", "tree"])
    with pytest.raises(ValueError, match="alpha"):
        fold_comparison(frame, "acc", "nb", alpha=1.5)
    with pytest.raises(ValueError, match="missing: value"):
        fold_comparison(frame.drop(columns="value"), "acc", "nb")


def test_snap_at_shared_digits_equals_snap() -> None:
    """stats.folds.cube snaps both results and their difference at the pair's scale with the digits
    found once (stats.core._table.snap_digits / snap_at): the same values as snap, NaN, infinities,
    zeros, subnormal and huge scales included."""
    from stats.core._table import snap, snap_at, snap_digits

    rng = np.random.default_rng(14)
    for trial in range(60):
        size = int(rng.integers(1, 400))
        x = rng.standard_normal(size) * 10.0 ** rng.integers(-320, 300, size)
        if trial % 3 == 0:
            x = np.round(rng.uniform(0.5, 1.0, size), 3)
        x[rng.random(size) < 0.1] = rng.choice([np.nan, np.inf, -np.inf, 0.0, 5e-324])
        y = x[::-1] * rng.uniform(0.5, 2.0, size)
        for scale in (np.maximum(np.abs(x), np.abs(y)), np.abs(x), 1.0, 0.0, np.nan):
            with np.errstate(all="ignore"):
                digits = snap_digits(scale, x.shape)
                for v in (x, y, x - y):
                    assert np.array_equal(snap_at(v, digits), snap(v, scale), equal_nan=True), trial


def test_the_sentence_leads_with_the_most_probable_outcome() -> None:
    # two learners equal on every fold but for a hair: practically equivalent is the likeliest
    rng = np.random.default_rng(3)
    rows = []
    for d in range(12):
        base = rng.uniform(0.6, 0.9)
        for f in range(10):
            noise = rng.normal(0, 0.002)
            rows += [(f"d{d}", 1, f + 1, "A", "acc", base + noise), (f"d{d}", 1, f + 1, "B", "acc", base - noise)]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    res = stats.fold_comparison(log, "acc", control="B", rope=0.01)
    row = res.totals.loc["A"]
    assert row["p_equivalent"] > max(row["p_better"], row["p_worse"])
    line = res.sentence().splitlines()[0]
    assert line.startswith(f"A is practically equivalent to B with probability {row['p_equivalent']:.2f}; "), line
    assert f"better {row['p_better']:.2f}; worse {row['p_worse']:.2f}" in line
