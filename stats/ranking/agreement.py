"""Agreement between orderings: Kendall's tau-b of many rows against one reference, at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from stats.core import snap


def kendall_tau(rows: Any, reference: Any) -> np.ndarray:
    """Kendall's tau-b of each row of ``rows`` against ``reference`` (vectorized over rows).

    Parameters
    ----------
    rows : array_like, shape (m, k)
        m orderings of the same k items (e.g. each data set's median score per
        learner); NaN marks an item a row has no value for.
    reference : array_like, shape (k,)
        The ordering every row is compared with (e.g. the overall medians).

    Returns
    -------
    ndarray, shape (m,)
        tau-b per row over the items both the row and the reference have; NaN
        when fewer than two such items remain or either side is constant on
        them (tau-b is 0/0 there), as ``scipy.stats.kendalltau``.

    Notes
    -----
    Kendall (1945), Eq. (6) there: with n0 = n(n-1)/2 pairs, n1 and n2 the
    pairs tied in the row and in the reference, and S the concordant minus
    the discordant pairs, ``tau_b = S / sqrt((n0 - n1) (n0 - n2))`` -- what
    ``scipy.stats.kendalltau`` computes by default (``variant="b"``); this
    computes it for every row in one pass of O(m k^2) array work instead of m
    calls. Values are compared after :func:`stats.core._table.snap`, so decimal
    ties (medians like 0.15 and (0.1 + 0.2) / 2) count as ties.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems.
    Biometrika 33(3), 239-251.

    Examples
    --------
    >>> kendall_tau([[1, 2, 3, 4], [4, 3, 2, 1], [1, 2, np.nan, 3]], [10, 20, 30, 40]).tolist()
    [1.0, -1.0, 1.0]
    """
    x = np.atleast_2d(np.asarray(rows, dtype=float))
    y = np.asarray(reference, dtype=float).ravel()
    if x.ndim != 2 or x.shape[1] != y.size:
        raise ValueError(f"rows must be 2-D with {y.size} columns (one per reference item), got shape {x.shape}")
    x, y = snap(x), snap(y)
    ok = np.isfinite(x) & np.isfinite(y)[None, :]
    upper = np.triu(np.ones((y.size, y.size), dtype=bool), 1)
    pairs = ok[:, :, None] & ok[:, None, :] & upper  # (m, k, k): i < j, both items present in both
    with np.errstate(invalid="ignore"):
        sx = np.sign(x[:, :, None] - x[:, None, :])
        sy = np.sign(y[:, None] - y[None, :])[None, :, :]
    sx = np.where(pairs, sx, 0.0)
    sy = np.where(pairs, sy, 0.0)
    n0 = pairs.sum(axis=(1, 2))
    untied_x = n0 - (pairs & (sx == 0)).sum(axis=(1, 2))
    untied_y = n0 - (pairs & (sy == 0)).sum(axis=(1, 2))
    s = (sx * sy).sum(axis=(1, 2))
    denominator = np.sqrt(untied_x.astype(float) * untied_y.astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = np.where(denominator > 0, s / np.where(denominator > 0, denominator, 1.0), np.nan)
    return np.clip(tau, -1.0, 1.0)
