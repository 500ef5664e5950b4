"""The pd, pf, precision, accuracy of Menzies' lecture notes against the notes' numbers and scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.runner.metrics import CRITERIA, Confusion, accuracy, confusion, evaluate, pd, pf, precision

metrics = pytest.importorskip("sklearn.metrics")


def test_menzies_roc_sheet() -> None:
    # Menzies' lecture notes: A=395, B=67, C=19, D=39 -> "accuracy = 83% but the probability of finding the target
    # is only 37%".
    cells = Confusion(a=395, b=67, c=19, d=39)
    assert round(accuracy(cells), 2) == 0.83
    assert round(pd(cells), 2) == 0.37
    assert pf(cells) == 19 / (395 + 19)
    assert precision(cells) == 39 / (19 + 39)


def test_menzies_rare_target() -> None:
    # Menzies' lecture notes: 10 targets in 1000, always silent: A=990, B=10, D=0 -> accuracy 99%, pd 0.
    cells = Confusion(a=990, b=10, c=0, d=0)
    assert accuracy(cells) == 0.99
    assert pd(cells) == 0.0
    assert precision(cells) == 0.0  # 0/0: nothing predicted "yes"
    assert pf(cells) == 0.0


def test_confusion_cells_follow_the_seed_layout() -> None:
    truth = ["no", "no", "no", "yes", "yes", "yes", "yes"]
    loud = ["no", "yes", "yes", "no", "yes", "yes", "yes"]
    assert confusion(truth, loud, positive="yes") == Confusion(a=1, b=1, c=2, d=3)
    assert confusion(truth, loud, positive="no") == Confusion(a=3, b=2, c=1, d=1)


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (Confusion(a=5, b=0, c=0, d=0), {"pd": 0.0, "pf": 0.0, "precision": 0.0}),  # no yes at all
        (Confusion(a=0, b=3, c=0, d=0), {"pd": 0.0, "pf": 0.0, "precision": 0.0}),  # no "no" in the test
        (Confusion(a=0, b=0, c=2, d=2), {"pd": 1.0, "pf": 1.0, "precision": 0.5}),
    ],
)
def test_zero_over_zero_is_zero(cells: Confusion, expected: dict[str, float]) -> None:
    got = {"pd": pd(cells), "pf": pf(cells), "precision": precision(cells)}
    assert got == expected


def test_validation_errors() -> None:
    with pytest.raises(ValueError, match="differ in length: 2 != 3"):
        confusion([0, 1], [0, 1, 1], positive=1)
    with pytest.raises(ValueError, match="empty"):
        confusion([], [], positive=1)
    with pytest.raises(ValueError, match="must be 1-D"):
        confusion([[0, 1]], [[0, 1]], positive=1)
    with pytest.raises(ValueError, match="empty confusion matrix"):
        accuracy(Confusion(0, 0, 0, 0))
    with pytest.raises(ValueError, match="at least two classes"):
        evaluate([1, 1], [1, 1], labels=[1])


def _sklearn_binary(t: np.ndarray, p: np.ndarray, pos: int, neg: int) -> dict[str, float]:
    tn, fp, fn, tp = metrics.confusion_matrix(t, p, labels=[neg, pos]).ravel()
    return {
        "pd": metrics.recall_score(t, p, pos_label=pos, zero_division=0),
        "pf": fp / (fp + tn) if fp + tn else 0.0,
        "precision": metrics.precision_score(t, p, pos_label=pos, zero_division=0),
        "accuracy": metrics.accuracy_score(t, p),
    }


def _sklearn_macro(t: np.ndarray, p: np.ndarray, labels: list[int]) -> dict[str, float]:
    mcm = metrics.multilabel_confusion_matrix(t, p, labels=labels)
    tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
    fpr = np.divide(fp, fp + tn, out=np.zeros(len(labels)), where=(fp + tn) > 0)
    return {
        "pd": metrics.recall_score(t, p, labels=labels, average="macro", zero_division=0),
        "pf": float(np.mean(fpr)),
        "precision": metrics.precision_score(t, p, labels=labels, average="macro", zero_division=0),
        "accuracy": metrics.accuracy_score(t, p),
    }


labels_strategy = st.lists(st.integers(0, 1), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_binary_equals_sklearn(data: st.DataObject) -> None:
    t = np.array(data.draw(labels_strategy))
    p = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(t), max_size=len(t))))
    got = evaluate(t, p, labels=[0, 1])
    assert list(got) == list(CRITERIA)
    assert got == pytest.approx(_sklearn_binary(t, p, pos=1, neg=0), abs=1e-15)
    cells = confusion(t, p, positive=1)
    assert pd(cells) == got["pd"] and pf(cells) == got["pf"] and precision(cells) == got["precision"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_multiclass_equals_sklearn_macro(data: st.DataObject) -> None:
    k = data.draw(st.integers(3, 5))
    t = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=40)))
    p = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=len(t), max_size=len(t))))
    labels = list(range(k))  # classes absent from this test set still count, as in the runner
    assert evaluate(t, p, labels=labels) == pytest.approx(_sklearn_macro(t, p, labels), abs=1e-12)


def test_binary_yes_class_is_the_larger_label() -> None:
    t = np.array(["no", "yes", "yes", "no"])
    p = np.array(["no", "yes", "no", "yes"])
    assert evaluate(t, p, labels=["yes", "no"]) == _sklearn_binary_str(t, p)


def _sklearn_binary_str(t: np.ndarray, p: np.ndarray) -> dict[str, float]:
    tn, fp, fn, tp = metrics.confusion_matrix(t, p, labels=["no", "yes"]).ravel()
    return {
        "pd": metrics.recall_score(t, p, pos_label="yes"),
        "pf": fp / (fp + tn),
        "precision": metrics.precision_score(t, p, pos_label="yes"),
        "accuracy": metrics.accuracy_score(t, p),
    }


def test_multiclass_accuracy_is_not_the_mean_one_vs_rest_accuracy() -> None:
    # One error in four over three classes: accuracy 0.75; the mean of the per-class
    # (A+D)/n would be 1 - 2 * 1 / (4 * 3) = 0.8333.
    t, p = ["a", "b", "c", "c"], ["a", "c", "c", "c"]
    got = evaluate(t, p, labels=["a", "b", "c"])
    assert got["accuracy"] == 0.75
    per_class = [accuracy(confusion(t, p, positive=c)) for c in "abc"]
    assert np.mean(per_class) == pytest.approx(1 - 2 / 12)
    assert got["pd"] == pytest.approx((1 + 0 + 1) / 3)
    assert got["precision"] == pytest.approx((1 + 0 + 2 / 3) / 3)  # class b: nothing predicted, 0/0 -> 0
    assert got["pf"] == pytest.approx((0 + 0 + 1 / 2) / 3)
