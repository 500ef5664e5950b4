"""run_cv with scikit-learn regressors (MMRE, PRED, correlation of Menzies' lecture notes), balance and legacy logs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stats import read_logs, run_cv
from stats.runner._folds import fold_assignment

pytest.importorskip("sklearn")


def _diabetes() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_diabetes

    return load_diabetes(return_X_y=True)  # targets 25 ... 346, none zero


def test_regressors_are_scored_by_mmre_pred_and_correlation(tmp_path: Path) -> None:
    from sklearn.linear_model import LinearRegression
    from sklearn.metrics import mean_absolute_percentage_error
    from sklearn.tree import DecisionTreeRegressor

    X, y = _diabetes()
    learners = {"lsr": LinearRegression(), "tree": DecisionTreeRegressor(max_depth=3)}
    summary = run_cv({"diabetes": (X, y)}, learners, tmp_path, repeats=2, folds=3, seed=5)
    assert summary.units_done == 2 * 3 * 2
    log = read_logs(tmp_path / "diabetes.dat")
    assert list(log["criterion"][:5]) == ["mmre", "pred25", "pred30", "correlation", "runtime"]
    assert len(log) == 12 * 5
    # Independent recomputation of one unit: random (unstratified) folds, scikit-learn and numpy metrics.
    fold = fold_assignment(y, folds=3, seed=5, dataset="diabetes", repeat=2, stratified=False)
    test = fold == 2
    predicted = LinearRegression().fit(X[~test], y[~test]).predict(X[test])
    rows = log[(log["repeat"] == 2) & (log["fold"] == 2) & (log["learner"] == "lsr")]
    got = dict(zip(rows["criterion"].astype(str), rows["value"]))
    mre = np.abs(predicted - y[test]) / y[test]
    assert got["mmre"] == pytest.approx(mean_absolute_percentage_error(y[test], predicted), rel=1e-12)
    assert got["pred25"] == pytest.approx(np.mean(mre <= 0.25)) and got["pred30"] == pytest.approx(np.mean(mre <= 0.3))
    assert got["correlation"] == pytest.approx(np.corrcoef(y[test], predicted)[0, 1], abs=1e-12)
    # Resumed: nothing to do.
    again = run_cv({"diabetes": (X, y)}, learners, tmp_path, repeats=2, folds=3, seed=5)
    assert (again.units_done, again.units_skipped) == (0, 12)


def test_unstratified_folds_differ_between_repeats() -> None:
    y = np.arange(1.0, 31.0)
    a, b = (fold_assignment(y, folds=3, seed=0, dataset="d", repeat=r, stratified=False) for r in (1, 2))
    assert not np.array_equal(a, b) and np.bincount(a).tolist() == [0, 10, 10, 10]
    # Stratifying distinct numeric values sorts them: every repeat would be the same.
    s1, s2 = (fold_assignment(y, folds=3, seed=0, dataset="d", repeat=r) for r in (1, 2))
    assert np.array_equal(s1, s2)


def test_constant_predictions_give_correlation_zero(tmp_path: Path) -> None:
    from sklearn.dummy import DummyRegressor

    X, y = _diabetes()
    run_cv({"diabetes": (X, y)}, {"mean": DummyRegressor()}, tmp_path, repeats=1, folds=2)
    log = read_logs(tmp_path / "diabetes.dat")
    assert (log[log["criterion"] == "correlation"]["value"] == 0.0).all()


def test_a_log_written_before_balance_resumes(tmp_path: Path) -> None:
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    data, nb = {"iris": load_iris(return_X_y=True)}, {"nb": GaussianNB()}
    run_cv(data, nb, tmp_path, repeats=2, folds=2)
    lines = (tmp_path / "iris.dat").read_bytes().splitlines(keepends=True)
    old = [line for line in lines if b",balance," not in line][:10]  # two units as the old runner wrote them
    (tmp_path / "iris.dat").write_bytes(b"".join(old))
    summary = run_cv(data, nb, tmp_path, repeats=2, folds=2)
    assert (summary.units_done, summary.units_skipped, summary.files_repaired) == (2, 2, ())
    now = (tmp_path / "iris.dat").read_bytes().splitlines(keepends=True)
    assert now[:10] == old  # the old units untouched, the new ones with balance
    assert [x for x in now[10:] if b",runtime," not in x] == [x for x in lines[12:] if b",runtime," not in x]


@pytest.mark.parametrize(
    ("learners", "task", "y", "message"),
    [
        ("mixed", "auto", None, r"learners mix regressors \(lsr\) and others \(nb\)"),
        ("lsr", "guess", None, "task must be one of auto, classification, regression"),
        ("lsr", "auto", "zero", "holds 1 zero"),
        ("lsr", "auto", "text", "must be finite numbers"),
        ("lsr", "regression", "nan", "must be finite numbers"),
    ],
)
def test_task_errors(tmp_path: Path, learners: str, task: str, y: str | None, message: str) -> None:
    from sklearn.linear_model import LinearRegression
    from sklearn.naive_bayes import GaussianNB

    X, target = _diabetes()
    target = {
        None: target,
        "zero": np.r_[0.0, target[1:]],
        "text": target.astype(str),
        "nan": np.r_[np.nan, target[1:]],
    }[y]
    chosen = {"mixed": {"lsr": LinearRegression(), "nb": GaussianNB()}, "lsr": {"lsr": LinearRegression()}}[learners]
    with pytest.raises(ValueError, match=message):
        run_cv({"d": (X, target)}, chosen, tmp_path, repeats=1, folds=2, task=task)
    assert not list(tmp_path.glob("*.dat"))


def test_task_can_be_forced_for_learners_without_type(tmp_path: Path) -> None:
    class Mean:
        def fit(self, X, y):  # type: ignore[no-untyped-def]
            self.value = float(np.mean(y))
            return self

        def predict(self, X):  # type: ignore[no-untyped-def]
            return np.full(len(X), self.value)

    X, y = _diabetes()
    run_cv({"d": (X, y)}, {"mean": Mean()}, tmp_path, repeats=1, folds=2, task="regression")
    assert set(read_logs(tmp_path / "d.dat")["criterion"]) == {"mmre", "pred25", "pred30", "correlation", "runtime"}


def test_a_classification_log_is_not_resumed_as_regression(tmp_path: Path) -> None:
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LinearRegression
    from sklearn.naive_bayes import GaussianNB

    X, y = load_iris(return_X_y=True)
    run_cv({"d": (X, y)}, {"nb": GaussianNB()}, tmp_path, repeats=1, folds=2)
    kept = (tmp_path / "d.dat").read_bytes()
    with pytest.raises(ValueError, match=r"d\.dat:1: criterion 'pd' is not one this runner writes"):
        run_cv({"d": (X, y + 1.0)}, {"nb": LinearRegression()}, tmp_path, repeats=1, folds=2)
    assert (tmp_path / "d.dat").read_bytes() == kept
