"""Adjusted p-values (APVs) of the multiple-comparison procedures of Garcia & Herrera (2008, 2010).

Every procedure works on the p-values sorted ascending, p_1 <= ... <= p_m,
and returns the APVs in the input order. An APV is compared directly with
alpha: hypothesis i is rejected at level alpha when APV_i <= alpha.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import pandas as pd

from stats.core import check_alpha, check_choice
from stats.posthoc.shaffer_bergmann import MAX_EXACT_K, bergmann_apv, shaffer_t

Method = Literal[
    "bonferroni",
    "holm",
    "hochberg",
    "hommel",
    "holland",
    "rom",
    "finner",
    "li",
    "nemenyi",
    "shaffer",
    "bergmann",
]
CONTROL_METHODS: tuple[Method, ...] = ("bonferroni", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li")
PAIRWISE_METHODS: tuple[Method, ...] = ("nemenyi", "holm", "shaffer", "bergmann")


def _bonferroni(p: np.ndarray, alpha: float) -> np.ndarray:
    # one-step: min(1, m p_i)
    return np.minimum(1.0, len(p) * p)


def _holm(p: np.ndarray, alpha: float) -> np.ndarray:
    # step-down: max_{j <= i} (m - j + 1) p_j  (Garcia & Herrera write (k - j) with m = k - 1)
    m = len(p)
    return np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p))


def _holland(p: np.ndarray, alpha: float) -> np.ndarray:
    # step-down: max_{j <= i} 1 - (1 - p_j)^(m - j + 1); expm1/log1p keep tiny p exact
    m = len(p)
    with np.errstate(divide="ignore"):  # p = 1 gives log1p(-1) = -inf and APV 1
        v = -np.expm1((m - np.arange(m)) * np.log1p(-p))
    return np.minimum(1.0, np.maximum.accumulate(v))


def _finner(p: np.ndarray, alpha: float) -> np.ndarray:
    # step-down: max_{j <= i} 1 - (1 - p_j)^(m / j)
    m = len(p)
    with np.errstate(divide="ignore"):
        v = -np.expm1(m / np.arange(1, m + 1) * np.log1p(-p))
    return np.minimum(1.0, np.maximum.accumulate(v))


def _hochberg(p: np.ndarray, alpha: float) -> np.ndarray:
    # step-up: min_{j >= i} (m - j + 1) p_j. Garcia et al. (2010) print `max` here; their own
    # tables (CEC'2005: Hochberg APV of DE = 0.05356, BLX-GL50 = 0.09213) and
    # Hochberg (1988) are step-up, i.e. `min`. The table and the paper win.
    m = len(p)
    v = np.minimum(1.0, (m - np.arange(m)) * p)
    return np.minimum.accumulate(v[::-1])[::-1]


#: Up to this many hypotheses, Hommel's APVs are computed for every j at once (an m x m array).
HOMMEL_AT_ONCE = 256


def _hommel(p: np.ndarray, alpha: float) -> np.ndarray:
    # Wright (1992), Fig. 2 of Garcia et al. (2010) ("Algorithm for calculating APVs based on Hommel's").
    m = len(p)
    if 2 <= m <= HOMMEL_AT_ONCE:
        return _hommel_at_once(p)
    apv = p.copy()
    idx = np.arange(1, m + 1)
    for j in range(m, 1, -1):
        tail = idx > m - j
        c_min = float(np.min(j * p[tail] / (j + idx[tail] - m)))
        apv[tail] = np.maximum(apv[tail], c_min)
        head = ~tail
        apv[head] = np.maximum(apv[head], np.minimum(c_min, j * p[head]))
    return np.minimum(apv, 1.0)


def _hommel_at_once(p: np.ndarray) -> np.ndarray:
    """:func:`_hommel`'s loop over j = m..2 as one m x m computation: row j holds step j. Each
    candidate is the same product and quotient as in the loop, and a maximum does not depend on
    the order it is taken in, so the APVs are the same floats."""
    m = len(p)
    idx = np.arange(1, m + 1)
    j = np.arange(m, 1, -1)[:, None]  # the loop's j, one row each
    tail = idx > m - j
    with np.errstate(divide="ignore", invalid="ignore"):  # the head's quotients are not used
        c = np.where(tail, j * p / (j + idx - m), np.inf)
    c_min = c.min(axis=1, keepdims=True)  # the loop's c_min of each j
    candidates = np.where(tail, c_min, np.minimum(c_min, j * p))
    return np.minimum(np.maximum(p, candidates.max(axis=0)), 1.0)


def rom_coefficients(m: int, alpha: float) -> np.ndarray:
    """Rom's critical values c_1 = alpha, c_2 = alpha/2, ..., c_m (c_i tests the i-th largest p).

    c_i = [sum_{j=1}^{i-1} alpha^j - sum_{j=1}^{i-2} C(i, j) c_{j+1}^{i-j}] / i
    (Rom 1990, Eq. 2; Garcia et al. 2010, p. 2053). Both sums run to the
    indices shown: KEEL's implementation stops one term short.
    """
    return _rom_coefficients(int(m), float(alpha)).copy()


@lru_cache(maxsize=64)
def _rom_coefficients(m: int, alpha: float) -> np.ndarray:
    """Rom's coefficients of :func:`rom_coefficients`, computed once per (m, alpha); read-only."""
    c = np.zeros(m + 1)
    c[1] = alpha
    if m >= 2:
        c[2] = alpha / 2.0
    for i in range(3, m + 1):
        first = sum(alpha**j for j in range(1, i))
        second = sum(b * c[j + 1] ** (i - j) for j, b in zip(range(1, i - 1), _binomial_row(i)))
        c[i] = (first - second) / i
    if m >= 2 and not (np.all(c[1:] > 0) and np.all(np.diff(c[1:]) < 0)):
        raise ValueError(f"Rom's coefficients are numerically unstable for m = {m} hypotheses")
    out = c[1:]
    out.setflags(write=False)  # cached: the same m and alpha on every toggle of a view
    return out


def _binomial_row(i: int) -> Iterator[int]:
    """C(i, 1), C(i, 2), ..., C(i, i): the exact integers of ``math.comb``, each from the one
    before (C(i, j + 1) = C(i, j) (i - j) / (j + 1)), not each anew: Rom's coefficients for the
    999 hypotheses of 1,000 learners against a control asked ``comb`` half a million times."""
    b = 1
    for j in range(i):
        b = b * (i - j) // (j + 1)
        yield b


def _rom(p: np.ndarray, alpha: float) -> np.ndarray:
    # step-up like Hochberg with r_i = alpha / c_i in place of (m - j + 1):
    # APV_j = min_{l >= j} min(1, r_{m-l+1} p_l). scmamp's adjustRom applies an extra
    # cumulative max before this minimum, which makes it more conservative.
    m = len(p)
    r = alpha / _rom_coefficients(m, alpha)  # r[i-1] pairs with the i-th largest p
    v = np.minimum(1.0, r[::-1] * p)
    return np.minimum.accumulate(v[::-1])[::-1]


def _li(p: np.ndarray, alpha: float) -> np.ndarray:
    # two-step: p_i / (p_i + 1 - p_m), p_m the largest p-value (Li 2008).
    # 1 - p_m first: it is exact for p_m >= 0.5 (Sterbenz), where (p_i + 1) - p_m would round
    # p_i at the scale of 1 (with p_m = 1 the APVs must be 1 exactly, not 1 - 1e-15). The formula
    # grows with p_i; the running maximum only removes what rounding may leave of a step down.
    last = p[-1]
    denominator = p + (1.0 - last)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(denominator > 0, p / denominator, 0.0)
    return np.minimum(1.0, np.maximum.accumulate(v))


_SORTED: dict[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "bonferroni": _bonferroni,
    "nemenyi": _bonferroni,
    "holm": _holm,
    "holland": _holland,
    "finner": _finner,
    "hochberg": _hochberg,
    "hommel": _hommel,
    "rom": _rom,
    "li": _li,
}


def _pairs_k(m: int) -> int:
    k = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if k * (k - 1) // 2 != m:
        raise ValueError(f"shaffer and bergmann need the p-values of all k(k-1)/2 pairs; {m} is not such a number")
    return k


def adjust_sorted(
    p_sorted: np.ndarray, methods: Sequence[Method], *, alpha: float, k: int | None = None
) -> dict[str, np.ndarray]:
    """:func:`adjust` of several methods for p-values already sorted ascending (a stable sort),
    validated and sorted once: each method's APVs in that sorted order, the same floats as
    ``adjust(p, method, alpha=alpha)[order]``. ``k``: the learners, for ``"shaffer"``.
    Not for ``"bergmann"`` (it needs the pairs' order)."""
    a = check_alpha(alpha)
    p = np.asarray(p_sorted, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("pvalues must be a non-empty 1-D sequence")
    if not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("pvalues must be finite numbers in [0, 1]")
    out: dict[str, np.ndarray] = {}
    for method in methods:
        if method == "shaffer":
            t = shaffer_t(_pairs_k(p.size) if k is None else k)
            out[method] = np.minimum(1.0, np.maximum.accumulate(t * p))
        else:
            out[method] = _SORTED[method](p, a)
    return out


def adjust(pvalues: Any, method: Method, *, alpha: float = 0.05) -> Any:
    """Adjusted p-values of a family of hypotheses.

    Parameters
    ----------
    pvalues : 1-D array-like or Series
        Raw p-values. For ``"shaffer"`` and ``"bergmann"`` they must be the
        p-values of all pairs of k learners in the order (0,1), (0,2), ...,
        (0,k-1), (1,2), ... (the row order of :func:`stats.pairwise_test`).
    method : str
        1 x N procedures: ``"bonferroni"`` (Dunn), ``"holm"``, ``"hochberg"``,
        ``"hommel"``, ``"holland"``, ``"rom"``, ``"finner"``, ``"li"``.
        All-pairs procedures: ``"nemenyi"`` (Bonferroni over the m = k(k-1)/2
        pairs), ``"holm"``, ``"shaffer"`` (static), ``"bergmann"`` (Bergmann-Hommel,
        exact for k <= 16).
    alpha : float, default 0.05
        Only Rom's procedure depends on it (its coefficients are defined for a level).

    Returns
    -------
    ndarray or Series
        APVs in the input order (a Series keeps its index).

    Notes
    -----
    "Nemenyi" here is Garcia & Herrera's, KEEL's and STAC's meaning (m * p),
    not scikit-posthocs' Tukey single-step studentized range.

    References
    ----------
    Garcia et al. (2010) Inf. Sci. 180 ("Adjusted P-Values"); Wright (1992)
    Biometrics 48, 1005-1013; Holm (1979); Hochberg (1988); Hommel (1988);
    Holland & Copenhaver (1987); Rom (1990); Finner (1993); Li (2008);
    Shaffer (1986); Bergmann & Hommel (1988); Garcia & Herrera (2008) JMLR 9.

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    check_choice("method", method, tuple(_SORTED) + ("shaffer", "bergmann"))
    a = check_alpha(alpha)
    index = pvalues.index if isinstance(pvalues, pd.Series) else None
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("pvalues must be a non-empty 1-D sequence")
    if not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("pvalues must be finite numbers in [0, 1]")
    if method == "bergmann":
        k = _pairs_k(p.size)
        if k > MAX_EXACT_K:
            raise ValueError(
                f"exact Bergmann-Hommel is limited to k <= {MAX_EXACT_K} learners "
                f"(branch and bound over Bell(k) - 1 exhaustive sets); got k = {k}: use 'shaffer'"
            )
        out = bergmann_apv(p, k)
    else:
        order = np.argsort(p, kind="stable")
        ps = p[order]
        if method == "shaffer":
            t = shaffer_t(_pairs_k(p.size))
            adj = np.minimum(1.0, np.maximum.accumulate(t * ps))
        else:
            adj = _SORTED[method](ps, a)
        out = np.empty_like(adj)
        out[order] = adj
    return pd.Series(out, index=index) if index is not None else out
