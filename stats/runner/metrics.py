"""Menzies' performance statistics for discrete classes: pd, pf, precision, accuracy, balance.

Menzies' lecture notes on evaluation bias name the four cells of a two-class
confusion matrix::

                      truth = no   truth = yes
    detector = silent      A            B
    detector = loud        C            D

and defines precision = D/(C+D), accuracy = (A+D)/(A+B+C+D), probability of
detection pd = D/(B+D) (recall) and probability of false alarm pf = C/(A+C).
For more than two classes it says: "repeat the above, one for each pair of
(class X) / (not class X)". :func:`evaluate` turns that into one number per
criterion (see its Notes).

:func:`balance` is Menzies' combination of pd and pf (the distance from the ideal
point pd = 1, pf = 0 of the ROC square), with its N-dimensional, weighted form
:func:`balance_nd`.

Pure Python over integer counts: no scikit-learn, no numpy warnings; a 0/0
ratio is defined as 0.0 (documented per function).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

#: The criteria written by :func:`stats.runner._cv.run_cv`, in the order they are written.
CRITERIA: tuple[str, ...] = ("pd", "pf", "precision", "accuracy")
#: What :func:`stats.runner._cv.run_cv` writes for a classifier: :data:`CRITERIA`, then ``balance``.
CLASSIFIER_CRITERIA: tuple[str, ...] = (*CRITERIA, "balance")


@dataclass(frozen=True)
class Confusion:
    """The four cells of Menzies' two-class confusion matrix.

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
    """Count Menzies' cells A, B, C, D for one class against the rest.

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
    >>> pd(Confusion(a=395, b=67, c=19, d=39))  # Menzies' roc-sheet: "only 37%"
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
    >>> round(accuracy(Confusion(a=395, b=67, c=19, d=39)), 2)  # Menzies: "accuracy = 83%"
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
    Two classes: Menzies' formulas on the cells of the "yes" class; equal to
    scikit-learn's ``recall_score`` (pd), ``precision_score(zero_division=0)`` and
    ``accuracy_score`` with ``pos_label`` the "yes" class, and pf = FP / (FP + TN).

    More than two classes: Menzies' "one for each pair of (class X) / (not class X)",
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


def _weights(weights: ArrayLike | None, n: int) -> np.ndarray:
    if weights is None:
        return np.ones(n)
    w = np.asarray(weights, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"weights must hold {n} numbers, one per dimension, got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise ValueError(f"weights must be finite, non-negative and not all zero, got {w.tolist()}")
    return w


def balance_nd(values: ArrayLike, ideal: ArrayLike, *, weights: ArrayLike | None = None) -> float:
    """Menzies' balance in N dimensions: one minus the normalised distance to the ideal point.

    Parameters
    ----------
    values : array_like, 1-D
        The N measures of one result, e.g. ``(pd, pf)``.
    ideal : array_like, 1-D
        The best value of each measure, same length, e.g. ``(1, 0)``.
    weights : array_like, 1-D, optional
        Relative importance w_i >= 0 of each dimension (not all zero); default all 1.

    Returns
    -------
    float
        .. math:: 1 - \\sqrt{\\frac{\\sum_i w_i (\\text{ideal}_i - v_i)^2}{\\sum_i w_i}}

        With equal weights this is 1 - sqrt(sum of squared distances) / sqrt(N), Menzies'
        "generalizes to N-dimensional evaluation (divide by sqrt(N))"; scaling every weight
        by the same factor changes nothing. When each measure lies in [0, 1] and the ideal is
        0 or 1, the result lies in [0, 1]: 1 at the ideal point, 0 at the opposite corner.

    Raises
    ------
    ValueError
        Empty or mismatched lengths, a non-finite value, bad weights.

    Notes
    -----
    Menzies' lecture notes: "it may be useful to weight {PD,PF} according to their relative importance".
    The weighted form above is a weighted root-mean-square distance: a dimension with weight
    w counts as w copies of itself, so integer weights equal repeating the dimension. A zero
    weight ignores that dimension.

    Examples
    --------
    >>> balance_nd([1.0, 0.0, 1.0], [1, 0, 1])
    1.0
    >>> balance_nd([0.0, 1.0], [1, 0])
    0.0
    """
    v, best = np.asarray(values, dtype=float), np.asarray(ideal, dtype=float)
    if v.ndim != 1 or v.shape != best.shape or v.size == 0:
        raise ValueError(f"values and ideal must be 1-D, non-empty and of the same length, got {v.shape}, {best.shape}")
    if not (np.all(np.isfinite(v)) and np.all(np.isfinite(best))):
        raise ValueError("values and ideal must be finite")
    w = _weights(weights, v.size)
    return float(1.0 - np.sqrt(np.sum(w * (best - v) ** 2) / np.sum(w)))


def balance(pd: float, pf: float, *, weights: ArrayLike | None = None) -> float:
    """Menzies' balance of pd and pf: 1 - sqrt((0 - pf)^2 + (1 - pd)^2) / sqrt(2).

    Parameters
    ----------
    pd, pf : float
        Probability of detection and of false alarm, each in [0, 1].
    weights : pair of float, optional
        ``(w_pd, w_pf)``, the relative importance of pd and pf (Menzies: "weight {PD,PF}
        according to their relative importance"); default ``(1, 1)``.

    Returns
    -------
    float
        In [0, 1]: 1 at the ideal point (pd = 1, pf = 0), 0 at (pd = 0, pf = 1). With weights,
        1 - sqrt((w_pd (1 - pd)^2 + w_pf pf^2) / (w_pd + w_pf)) (:func:`balance_nd`).

    Raises
    ------
    ValueError
        pd or pf outside [0, 1] or not finite; bad weights.

    Examples
    --------
    >>> balance(1.0, 0.0), balance(0.0, 1.0)
    (1.0, 0.0)
    >>> round(balance(0.5, 0.5), 4)  # distance sqrt(0.5) of at most sqrt(2)
    0.5
    >>> round(balance(0.5, 0.5, weights=(3, 1)), 4)  # all distances 0.5: weights change nothing
    0.5
    """
    for name, value in (("pd", pd), ("pf", pf)):
        if not isinstance(value, (int, float, np.integer, np.floating)) or not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    return balance_nd([float(pd), float(pf)], [1.0, 0.0], weights=weights)
