"""Seed 004's performance statistics for discrete classes: pd, pf, precision, accuracy.

Seed 004 (``004_1f3c22156dad8688.txt``) names the four cells of a two-class
confusion matrix::

                      truth = no   truth = yes
    detector = silent      A            B
    detector = loud        C            D

and defines precision = D/(C+D), accuracy = (A+D)/(A+B+C+D), probability of
detection pd = D/(B+D) (recall) and probability of false alarm pf = C/(A+C).
For more than two classes it says: "repeat the above, one for each pair of
(class X) / (not class X)". :func:`evaluate` turns that into one number per
criterion (see its Notes).

Pure Python over integer counts: no scikit-learn, no numpy warnings; a 0/0
ratio is defined as 0.0 (documented per function).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The criteria written by :func:`stats.runner.run_cv`, in the order they are written.
CRITERIA: tuple[str, ...] = ("pd", "pf", "precision", "accuracy")


@dataclass(frozen=True)
class Confusion:
    """The four cells of seed 004's two-class confusion matrix.

    Attributes
    ----------
    a : int
        Truth no, detector silent (true negatives).
    b : int
        Truth yes, detector silent (false negatives, misses).
    c : int
        Truth no, detector loud (false positives, false alarms).
    d : int
        Truth yes, detector loud (true positives, hits).
    """

    a: int
    b: int
    c: int
    d: int

    @property
    def n(self) -> int:
        """Number of test instances, A + B + C + D."""
        return self.a + self.b + self.c + self.d


def _ratio(num: int, den: int) -> float:
    # The 0/0 convention of the whole module (scikit-learn's ``zero_division=0``).
    return num / den if den else 0.0


def _labels(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    t, p = np.asarray(y_true), np.asarray(y_pred)
    if t.ndim != 1 or p.ndim != 1:
        raise ValueError(f"y_true and y_pred must be 1-D, got shapes {t.shape} and {p.shape}")
    if len(t) != len(p):
        raise ValueError(f"y_true and y_pred differ in length: {len(t)} != {len(p)}")
    if len(t) == 0:
        raise ValueError("y_true and y_pred are empty")
    return t, p


def confusion(y_true: Any, y_pred: Any, positive: Any) -> Confusion:
    """Count seed 004's cells A, B, C, D for one class against the rest.

    Parameters
    ----------
    y_true, y_pred : array_like, 1-D
        Actual and predicted labels, same length, not empty.
    positive : label
        The class called "yes"; every other label is "no".

    Returns
    -------
    Confusion
        The cells ``a`` (true negatives), ``b`` (misses), ``c`` (false alarms), ``d`` (hits).

    Examples
    --------
    >>> confusion([0, 0, 1, 1, 1], [0, 1, 0, 1, 1], positive=1)
    Confusion(a=1, b=1, c=1, d=2)
    """
    t, p = _labels(y_true, y_pred)
    truth, loud = t == positive, p == positive
    return Confusion(
        a=int(np.sum(~truth & ~loud)),
        b=int(np.sum(truth & ~loud)),
        c=int(np.sum(~truth & loud)),
        d=int(np.sum(truth & loud)),
    )


def pd(cells: Confusion) -> float:
    """Probability of detection (recall), D / (B + D); 0.0 when the test has no "yes" (0/0).

    Examples
    --------
    >>> pd(Confusion(a=395, b=67, c=19, d=39))  # seed 004's roc-sheet: "only 37%"
    0.36792452830188677
    """
    return _ratio(cells.d, cells.b + cells.d)


def pf(cells: Confusion) -> float:
    """Probability of false alarm, C / (A + C); 0.0 when the test has no "no" (0/0).

    Examples
    --------
    >>> round(pf(Confusion(a=395, b=67, c=19, d=39)), 4)
    0.0459
    """
    return _ratio(cells.c, cells.a + cells.c)


def precision(cells: Confusion) -> float:
    """Precision, D / (C + D); 0.0 when nothing is predicted "yes" (0/0).

    Examples
    --------
    >>> precision(Confusion(a=10, b=2, c=0, d=0))
    0.0
    """
    return _ratio(cells.d, cells.c + cells.d)


def accuracy(cells: Confusion) -> float:
    """Accuracy, (A + D) / (A + B + C + D); raises ``ValueError`` on an empty matrix.

    Examples
    --------
    >>> round(accuracy(Confusion(a=395, b=67, c=19, d=39)), 2)  # seed 004: "accuracy = 83%"
    0.83
    """
    if cells.n == 0:
        raise ValueError("accuracy of an empty confusion matrix (A + B + C + D = 0)")
    return (cells.a + cells.d) / cells.n


def evaluate(y_true: Any, y_pred: Any, *, labels: Sequence[Any]) -> dict[str, float]:
    """All of :data:`CRITERIA` for one test set, two classes or more.

    Parameters
    ----------
    y_true, y_pred : array_like, 1-D
        Actual and predicted labels, same length, not empty.
    labels : sequence
        Every class of the data set (not only those present in this test set), at least two.
        With exactly two, the "yes" class is ``sorted(labels)[1]``: 1 of {0, 1}, True of
        {False, True}, "yes" of {"no", "yes"}. Relabel ``y`` to choose another.

    Returns
    -------
    dict
        ``{"pd": ..., "pf": ..., "precision": ..., "accuracy": ...}``.

    Notes
    -----
    Two classes: seed 004's formulas on the cells of the "yes" class; equal to
    scikit-learn's ``recall_score`` (pd), ``precision_score(zero_division=0)`` and
    ``accuracy_score`` with ``pos_label`` the "yes" class, and pf = FP / (FP + TN).

    More than two classes: seed 004's "one for each pair of (class X) / (not class X)",
    then the unweighted mean over the classes of ``labels`` (macro average) for pd, pf and
    precision; equal to ``recall_score(average="macro", zero_division=0)``,
    ``precision_score(average="macro", zero_division=0)`` and the mean false positive rate
    of ``multilabel_confusion_matrix``. A class absent from the test set counts with pd = 0
    (and pf, precision from its false alarms), as in scikit-learn. Accuracy is the fraction
    predicted correctly, ``accuracy_score``: the mean of the per-class (A+D)/n would count
    every error twice and report 1 - 2 e / k.

    Every 0/0 is 0.0 (scikit-learn's ``zero_division=0``): pd with no "yes" in the test,
    pf with no "no", precision when nothing is predicted "yes".

    Examples
    --------
    >>> evaluate(["a", "b", "c", "c"], ["a", "c", "c", "c"], labels=["a", "b", "c"])["accuracy"]
    0.75
    """
    classes = sorted(set(labels))
    if len(classes) < 2:
        raise ValueError(f"labels must hold at least two classes, got {classes!r}")
    t, p = _labels(y_true, y_pred)
    if len(classes) == 2:
        cells = confusion(t, p, positive=classes[1])
        return {"pd": pd(cells), "pf": pf(cells), "precision": precision(cells), "accuracy": accuracy(cells)}
    each = [confusion(t, p, positive=label) for label in classes]
    k = len(each)
    return {
        "pd": sum(pd(c) for c in each) / k,
        "pf": sum(pf(c) for c in each) / k,
        "precision": sum(precision(c) for c in each) / k,
        "accuracy": int(np.sum(t == p)) / len(t),
    }
