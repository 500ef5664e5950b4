"""Menzies' performance statistics for continuous classes: RE, MRE, MMRE, PRED(N), correlation.

Menzies' lecture notes on evaluation bias ("Continuous classes"):

- RE = relative error = (predicted - actual) / actual
- MRE = magnitude of relative error = absolute value of RE
- PRED(N) = % of cases where MRE up to N%
- MMRE = mean magnitude of relative error = sum(MRE) / N over the N test instances
- correlation, by the one-pass loop the notes print (:func:`correlation`).

Worked example (the notes'): MREs of 11, 15, 18, 20, 23, 25, 29, 31, 100 and 100 per cent
give MMRE = 37.2% (372 / 10); here every rate is a fraction, 0.372. The notes also print
PRED(30) = 80%, but only seven of those ten MREs are "up to 30%" (31 is not), so its own
definition gives 70%: :func:`pred` returns 0.7 for PRED(30) and 0.8 for PRED(31). The
printed 80% is an arithmetic slip in the notes, not a different definition (no reading of
"up to N%" counts 31% as within 30%).

Arguments are in scikit-learn's order, ``y_true`` (actual) first.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from stats.core import exact_decimal, near, snap
from stats.runner.metrics import _labels

#: What :func:`stats.runner._cv.run_cv` writes for a regressor, per test fold, in this order.
REGRESSOR_CRITERIA: tuple[str, ...] = ("mmre", "pred25", "pred30", "correlation")


def _pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`stats.runner.metrics._labels`' checks (1-D, equal lengths, not empty), then numbers, finite."""
    t, p = (np.asarray(v, dtype=float) for v in _labels(y_true, y_pred))
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(p))):
        raise ValueError("y_true and y_pred must be finite (no NaN or infinity)")
    return t, p


def re(y_true: Any, y_pred: Any) -> np.ndarray:
    """Relative error of each case, (predicted - actual) / actual.

    Parameters
    ----------
    y_true, y_pred : array_like, 1-D
        Actual and predicted values, same length, not empty, finite.

    Returns
    -------
    numpy.ndarray of float
        One RE per case. Where the actual value is 0 the ratio has no finite value: RE is
        0.0 when the prediction is 0 too (0/0, the convention of :mod:`stats.runner.metrics`),
        else ``+inf`` or ``-inf`` with the sign of the prediction. No warning is raised.

    Examples
    --------
    >>> re([10, 10, -4, 0, 0], [12, 5, -5, 0, 3]).tolist()
    [0.2, -0.5, 0.25, 0.0, inf]
    """
    t, p = _pair(y_true, y_pred)
    diff = p - t
    out = np.zeros_like(t)
    nonzero = t != 0
    np.divide(diff, t, out=out, where=nonzero)
    out[~nonzero & (diff > 0)] = np.inf
    out[~nonzero & (diff < 0)] = -np.inf
    return out


def mre(y_true: Any, y_pred: Any) -> np.ndarray:
    """Magnitude of relative error of each case, |predicted - actual| / |actual| = |RE|.

    An actual value of 0 gives 0.0 for a prediction of 0, else ``inf`` (see :func:`re`).

    Examples
    --------
    >>> mre([100, 100, 100], [111, 85, 200]).round(12).tolist()
    [0.11, 0.15, 1.0]
    """
    return np.abs(re(y_true, y_pred))


def mmre(y_true: Any, y_pred: Any) -> float:
    """Mean magnitude of relative error, sum(MRE) / N, as a fraction (0.372 for 37.2%).

    ``inf`` when a case has actual 0 and a non-zero prediction (:func:`re`).

    Examples
    --------
    >>> actual = [100] * 10
    >>> predicted = [111, 85, 118, 80, 123, 75, 129, 69, 200, 0]  # Menzies' MREs, in per cent
    >>> round(mmre(actual, predicted), 12)
    0.372
    """
    return float(np.mean(mre(y_true, y_pred)))


def pred(y_true: Any, y_pred: Any, n: float = 30) -> float:
    """PRED(N): the fraction of cases whose MRE is at most N per cent (0.8 for 80%).

    Parameters
    ----------
    y_true, y_pred : array_like, 1-D
        Actual and predicted values.
    n : float, default 30
        N, in per cent (Menzies' PRED(30) is ``n=30``); finite and non-negative.

    Notes
    -----
    "Up to N%" is inclusive: a case counts when MRE <= N / 100, decided as in exact decimal
    arithmetic (the package's decimal rule, :func:`stats.core._table.snap`): the values are snapped
    to 12 significant digits and ``100 |predicted - actual| <= N |actual|`` is compared in
    floating point, or, where the two sides are within rounding of each other
    (:func:`stats.core._table.near`), in exact fractions of the decimals. So an MRE of exactly N%
    counts at any scale (actual 100, predicted 130; actual 0.3, predicted 0.39). A case with
    actual 0 counts only when its prediction is 0 too (MRE 0, :func:`re`).

    Examples
    --------
    >>> actual = [100] * 10
    >>> predicted = [111, 85, 118, 80, 123, 75, 129, 69, 200, 0]  # Menzies' MREs, in per cent
    >>> pred(actual, predicted, 30)  # Menzies prints 80%: see the module docstring
    0.7
    >>> pred(actual, predicted, 31)
    0.8
    >>> pred([100], [130], 30), pred([100], [131], 30), pred([0.3], [0.39], 30)
    (1.0, 0.0, 1.0)
    """
    if not isinstance(n, (int, float, np.integer, np.floating)) or not math.isfinite(n) or n < 0:
        raise ValueError(f"n must be a finite, non-negative percentage, got {n!r}")
    t, p = (snap(v) for v in _pair(y_true, y_pred))
    error, allowed = 100.0 * np.abs(p - t), float(n) * np.abs(t)
    within = error <= allowed
    percent = exact_decimal(n)
    for i in np.flatnonzero(near(error, allowed)).tolist():  # a boundary case: decided in decimal
        actual, predicted = exact_decimal(t[i]), exact_decimal(p[i])
        within[i] = 100 * abs(predicted - actual) <= percent * abs(actual)
    return float(np.mean(within))


def correlation(x: Any, y: Any) -> float:
    """Pearson's correlation by Menzies' one-pass (sweep / delta) loop.

    Parameters
    ----------
    x, y : array_like, 1-D
        Same length, at least one value, finite.

    Returns
    -------
    float
        In [-1, 1] (rounding beyond it is clipped, as ``numpy.corrcoef`` does).
        Degenerate cases are 0.0, "no connection": a constant ``x`` or ``y``, and so a
        single pair (n = 1), makes the covariance and a standard deviation exactly 0, and
        0/0 is 0.0 here as everywhere in :mod:`stats.runner.metrics` (numpy returns NaN and warns).

    Notes
    -----
    The loop, as printed in Menzies' lecture notes (1-based)::

        mean_x, mean_y = x[1], y[1]
        for i in 2 to N:
            sweep = (i - 1.0) / i
            delta_x, delta_y = x[i] - mean_x, y[i] - mean_y
            sum_sq_x += delta_x * delta_x * sweep
            sum_sq_y += delta_y * delta_y * sweep
            sum_coproduct += delta_x * delta_y * sweep
            mean_x += delta_x / i
            mean_y += delta_y / i
        correlation = (sum_coproduct / N) / (sqrt(sum_sq_x / N) * sqrt(sum_sq_y / N))

    (Welford's update: the sums are the centred sums of squares and products, so this equals
    ``numpy.corrcoef(x, y)[0, 1]`` without its two passes.) It runs in Python, O(N).

    Examples
    --------
    >>> round(correlation([1, 2, 3, 4], [2, 4, 6, 8]), 12)
    1.0
    >>> round(correlation([1, 2, 3, 4], [8, 6, 4, 2]), 12)
    -1.0
    >>> correlation([1, 2, 3], [5, 5, 5])
    0.0
    """
    a, b = _pair(x, y)
    xs, ys = a.tolist(), b.tolist()
    n = len(xs)
    sum_sq_x = sum_sq_y = sum_coproduct = 0.0
    mean_x, mean_y = xs[0], ys[0]
    for i in range(2, n + 1):
        sweep = (i - 1.0) / i
        delta_x = xs[i - 1] - mean_x
        delta_y = ys[i - 1] - mean_y
        sum_sq_x += delta_x * delta_x * sweep
        sum_sq_y += delta_y * delta_y * sweep
        sum_coproduct += delta_x * delta_y * sweep
        mean_x += delta_x / i
        mean_y += delta_y / i
    pop_sd_x = math.sqrt(sum_sq_x / n)
    pop_sd_y = math.sqrt(sum_sq_y / n)
    cov_x_y = sum_coproduct / n
    if pop_sd_x == 0.0 or pop_sd_y == 0.0:
        return 0.0
    return max(-1.0, min(1.0, cov_x_y / (pop_sd_x * pop_sd_y)))


def evaluate_regression(y_true: Any, y_pred: Any) -> dict[str, float]:
    """All of :data:`REGRESSOR_CRITERIA` for one test set.

    Returns
    -------
    dict
        ``{"mmre": ..., "pred25": ..., "pred30": ..., "correlation": ...}``: MMRE, PRED(25),
        PRED(30) (fractions) and the correlation of actual and predicted values.

    Raises
    ------
    ValueError
        As :func:`mmre`, and when an actual value is 0 (MMRE would be infinite or hide a
        case behind the 0/0 convention; the runner refuses such data sets up front).

    Examples
    --------
    >>> evaluate_regression([100, 200, 300, 400], [110, 180, 390, 400])
    {'mmre': 0.125, 'pred25': 0.75, 'pred30': 1.0, 'correlation': 0.9472226608515917}
    """
    t, p = _pair(y_true, y_pred)
    if np.any(t == 0):
        raise ValueError("an actual value is 0: its relative error (predicted - actual) / actual is undefined")
    return {"mmre": mmre(t, p), "pred25": pred(t, p, 25), "pred30": pred(t, p, 30), "correlation": correlation(t, p)}
