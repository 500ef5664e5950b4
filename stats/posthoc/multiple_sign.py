"""Multiple sign test: every learner against a control (Steel 1959; Rhyne & Steel 1965).

The critical value is computed from the exact permutation null distribution of the
smallest sign count, by dynamic programming over count profiles, instead of being
read from a printed table (Garcia et al. 2010, "Multiple Sign Test").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, islice
from math import comb, floor
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy.special import bdtr

from stats.core import Printable, as_table, binom_cdf, binom_pmf, check_alpha, check_choice

__all__ = ["MultipleSignResult", "multiple_sign_test"]

_ALTERNATIVES = ("worse", "better", "two-sided")
#: Largest number of count profiles the exact dynamic programme may use.
_MAX_STATES = 200_000
#: Relative slack when comparing a floating probability with alpha (rounding only).
_RTOL = 1e-12
#: Largest number of nonzero transition probabilities (one block) the programme may store.
_MAX_NNZ = 4_000_000


@dataclass(frozen=True, eq=False)
class MultipleSignResult(Printable):
    """Result of :func:`multiple_sign_test`.

    ``critical_value`` is r* (``None`` when no count can be rejected at ``alpha``);
    H0_j is rejected when ``table.statistic[j] <= r*``. ``fwer`` is the attained
    family-wise error P(min_j N_j <= r*) under the complete null when ``exact``,
    else ``None``; ``fwer_bounds`` always brackets it (equal ends when exact).
    """

    critical_value: int | None
    alpha: float
    n: int
    k: int
    control: str
    alternative: str
    exact: bool
    fwer: float | None
    fwer_bounds: tuple[float, float]
    table: pd.DataFrame

    def __str__(self) -> str:
        h1 = {
            "worse": "learner worse than control",
            "better": "learner better than control",
            "two-sided": "learner differs from control",
        }[self.alternative]
        if self.critical_value is None:
            crit = "no critical value: nothing can be rejected at this alpha"
        elif self.exact:
            crit = f"critical value r* = {self.critical_value} (exact FWER {self.fwer:.6g})"
        else:
            lo, hi = self.fwer_bounds
            crit = f"critical value r* = {self.critical_value} (FWER in [{lo:.6g}, {hi:.6g}])"
        return (
            f"Multiple sign test vs control {self.control!r} (H1: {h1})\n"
            f"n = {self.n} data sets, k = {self.k} learners, alpha = {self.alpha:g}\n"
            f"{crit}; reject H0_j when statistic <= r*\n{self.table.to_string()}"
        )


def _binomials(n: int) -> Iterator[int]:
    """C(n, 0), C(n, 1), ..., C(n, n): the exact integers of ``math.comb``, each from the one before
    (C(n, i + 1) = C(n, i) (n - i) / (i + 1)), a multiplication and a division by a small integer
    instead of a new binomial each (``comb`` for every i up to n/2 took minutes at n = 100,000)."""
    c = 1
    for i in range(n + 1):
        yield c
        c = c * (n - i) // (i + 1)


def _binom_r_max(n: int, alpha: float) -> int:
    """Largest r with P(Binom(n, 1/2) <= r) <= alpha, in exact arithmetic (-1 if none)."""
    # an integer sum exceeds alpha 2^n exactly when it exceeds its floor: integers compared
    target, total, r = floor(Fraction(alpha) * 2**n), 0, -1
    for i, c in enumerate(_binomials(n)):
        total += c
        if total > target:
            break
        r = i
    return r


def _binom_cdf(n: int, r: int) -> np.ndarray:
    """P(Binom(n, 1/2) <= s) for s = 0..r (integer sums, one rounding each)."""
    whole = 2**n
    return np.array([t / whole for t in accumulate(islice(_binomials(n), r + 1))])


def _capped_binomials(rows: int, cols: int, cap: int) -> np.ndarray:
    """Table t[x, j + 1] = min(C(x, j), cap) for x < rows, j < cols; t[:, 0] = C(x, -1) = 0."""
    t = np.zeros((rows, cols + 1), dtype=np.int64)
    t[0, 1] = 1
    for x in range(1, rows):
        t[x, 1:] = np.minimum(t[x - 1, 1:] + t[x - 1, :-1], cap)
    return t


def _exact_min_cdf(K: int, n: int, r: int, max_states: int = _MAX_STATES, max_nnz: int = _MAX_NNZ) -> np.ndarray | None:
    """P(min_j N_j <= s) for s = 0..r exactly, or ``None`` beyond the budget.

    Null model: in a block the control and the K others are exchangeable, so the
    control's position is uniform and, given M others above it (M uniform on 0..K),
    the set of "plus" learners is a uniform M-subset: P(X = x) = 1/((K+1) C(K, |x|)).
    As int_0^1 u^M (1-u)^(K-M) du = B(M+1, K-M+1) = 1/((K+1) C(K, M)), this is the law
    of K i.i.d. Bernoulli(u) given u ~ Uniform(0, 1) (de Finetti): each N_j is
    Binomial(n, 1/2) and the N_j are dependent. By exchangeability the profile of
    counts (how many learners at 0, 1, ..., r and > r) is a sufficient Markov state;
    counts only grow, so "> r" absorbs. Moving m_l of the c_l learners at each level
    l <= r up has probability prod_l C(c_l, m_l) B(M+1, K'-M+1), M = sum m_l, K' = the
    learners at levels <= r (the moves of the absorbed ones sum out of the integral).

    A profile is stored as its learners' sorted levels a_0 <= ... <= a_{K-1} (level
    r + 1 = absorbed), indexed by the colexicographic rank sum_i C(a_i + i, i + 1);
    raising a_i by one adds C(a_i + i, i) to the rank, so moving the top m of a run
    ending at position h at level l adds C(l + h, h - 1) - C(l + h - m, h - m - 1).
    """
    if K == 1:  # a single count: the profile is N_1 itself
        return _binom_cdf(n, r)
    L = r + 2  # levels 0..r and "> r"
    S = comb(K + L - 1, K)
    if S > max_states or K > 1000 or comb(K + 2 * L - 2, K) > max_nnz:
        return None
    cs = _capped_binomials(K + L - 1, K + 1, 2**61)  # cs[x, j + 1] = C(x, j)
    a = np.empty((S, K), dtype=np.int64)  # unrank 0..S-1 (colex): greedy from the top
    rest = np.arange(S, dtype=np.int64)
    for i in range(K - 1, -1, -1):
        b = np.searchsorted(cs[:, i + 2], rest, side="right") - 1
        rest -= cs[b, i + 2]
        a[:, i] = b - i
    # Runs of equal levels below the top, highest first: end position, count, level.
    pos = np.arange(1, K + 1)
    ends = np.append(a[:, 1:] != a[:, :-1], np.ones((S, 1), bool), axis=1) & (a < L - 1)
    run_hi = -np.sort(-np.where(ends, pos, 0), axis=1)[:, : min(K, L - 1)]
    run_cnt = run_hi - np.append(run_hi[:, 1:], np.zeros((S, 1), np.int64), axis=1)
    run_lev = np.where(run_hi > 0, a[np.arange(S)[:, None], np.maximum(run_hi - 1, 0)], 0)
    run_hi, run_cnt, run_lev = run_hi.astype(np.int32), run_cnt.astype(np.int32), run_lev.astype(np.int32)
    small = np.array([[comb(c, m) for m in range(K + 1)] for c in range(K + 1)], dtype=float)
    src = tgt = np.arange(S, dtype=np.int32)  # S <= max_states < 2**31
    coef, M = np.ones(S), np.zeros(S, dtype=np.int32)
    for s in range(run_hi.shape[1]):  # every move vector, one run at a time
        reps = run_cnt[src, s] + 1
        src, tgt, coef, M = np.repeat(src, reps), np.repeat(tgt, reps), np.repeat(coef, reps), np.repeat(M, reps)
        m = np.arange(len(src), dtype=np.int32) - np.repeat(np.cumsum(reps, dtype=np.int32) - reps, reps)
        h, lev, c = run_hi[src, s], run_lev[src, s], run_cnt[src, s]
        tgt = tgt + cs[lev + h, h] - cs[lev + h - m, h - m]
        coef, M = coef * small[c, m], M + m
    active = run_hi[src, 0]
    weight = coef / ((active + 1) * small[active, M])
    from scipy import sparse  # here: the Markov chain of many learners only (issue 32)

    T = sparse.csr_matrix((weight, (tgt, src)), shape=(S, S))
    p = np.zeros(S)
    p[0] = 1.0  # every learner at level 0 has rank 0
    for _ in range(n):
        p = T @ p
    return np.cumsum(np.bincount(a[:, 0], weights=p, minlength=L))[: L - 1]


def _pair_cdf(n: int, s: int, disc: float) -> float:
    """P(A_1 <= s, A_2 <= s) for sums of n i.i.d. pairs with P(01) = P(10) = disc / 2.

    P(00) = P(11) = (1 - disc) / 2. D discordant blocks ~ Binom(n, disc); A of the
    n - D others are (1, 1) ~ Binom(n - D, 1/2); B of the D are (1, 0) ~ Binom(D, 1/2);
    A_1 = A + B and A_2 = A + D - B, so the event is D - s + A <= B <= s - A.

    Every term of the double sum up to :data:`_PAIR_WHOLE` data sets (an (n + 1) x (n + 1) table);
    above, the terms that can count (:func:`_pair_cdf_banded`): the table was 80 GB at n = 100,000.
    """
    if n > _PAIR_WHOLE:
        return _pair_cdf_banded(n, s, disc)
    A = np.arange(n + 1)
    D = A[:, None]  # every D at once (row D): scipy's functions act element by element
    lo, hi = np.maximum(D - s + A, 0), np.minimum(D, s - A)
    pB = np.where(hi >= lo, binom_cdf(hi, D, 0.5) - binom_cdf(lo - 1, D, 0.5), 0.0)
    pA = binom_pmf(A, n - D, 0.5)
    pD = binom_pmf(A, n, disc)
    total = 0.0
    for d in range(n + 1):  # the sum in the order of D, each term as one dot product: the same digits
        total += pD[d] * float(pA[d] @ pB[d])
    return total


#: Above this many data sets, :func:`_pair_cdf` sums only the band of terms that can count.
_PAIR_WHOLE = 2000
#: The mass left out of each binomial by :func:`_pair_cdf_banded` is below this (Hoeffding).
_PAIR_TAIL = 1e-20


def _band(mean: float, count: int, top: int) -> tuple[int, int]:
    """The integers within t of ``mean`` (clipped to 0..``top``) outside which a sum of ``count``
    Bernoulli variables lies with probability at most :data:`_PAIR_TAIL`: 2 exp(-2 t^2 / count)
    (Hoeffding 1963, Theorem 2)."""
    t = (max(count, 1) * np.log(2.0 / _PAIR_TAIL) / 2.0) ** 0.5
    return max(0, int(np.floor(mean - t))), min(top, int(np.ceil(mean + t)))


def _pair_cdf_banded(n: int, s: int, disc: float) -> float:
    """:func:`_pair_cdf` from the terms whose D and A lie in their binomials' bands (:func:`_band`;
    the terms left out add up to less than 3 x 1e-20), row after row of D: Binom(n - D, 1/2)'s
    probabilities from the previous row's (P_{m-1}(a) = P_m(a) 2 (m - a) / m) and Binom(D, 1/2)'s
    distribution function from the previous row's (F_D(k) = (F_{D-1}(k) + F_{D-1}(k - 1)) / 2),
    each exact up to rounding, over fixed windows of a and k: O(band^2) time, O(band) memory, where
    the whole table takes O(n^2) of both. The result agrees with the whole sum to about 1e-12.
    """
    d_lo, d_hi = _band(n * disc, n, n)
    a_lo = _band((n - d_hi) / 2.0, n - d_hi, n - d_hi)[0]
    a_hi = _band((n - d_lo) / 2.0, n - d_lo, n - d_lo)[1]
    a = np.arange(a_lo, a_hi + 1)
    k_lo = max(0, min(s - a_hi, d_lo - s + a_lo - 1))
    k_hi = max(k_lo, min(d_hi, max(s - a_lo, d_hi - s + a_hi - 1)))
    k = np.arange(k_lo, k_hi + 1)

    def cdf(d: int, at: np.ndarray) -> np.ndarray:  # P(Binom(d, 1/2) <= at), directly
        inside = np.clip(at, 0, max(d - 1, 0))
        return np.where(at < 0, 0.0, np.where(at >= d, 1.0, bdtr(inside, d, 0.5)))

    pA = binom_pmf(a, n - d_lo, 0.5)
    F = cdf(d_lo, k)
    pD = binom_pmf(np.arange(d_lo, d_hi + 1), n, disc)
    total = 0.0
    for d in range(d_lo, d_hi + 1):
        if d > d_lo:
            m = n - d + 1  # pA holds Binom(m, 1/2): make it Binom(m - 1, 1/2)
            pA *= np.maximum(2.0 * (m - a), 0.0) / m
            below = float(cdf(d - 1, np.array([k_lo - 1]))[0])
            F[1:] = (F[1:] + F[:-1]) / 2.0
            F[0] = (F[0] + below) / 2.0
        lo, hi = np.maximum(d - s + a, 0), np.minimum(d, s - a)
        upper = np.where(hi >= d, 1.0, np.where(hi < 0, 0.0, F[np.clip(hi - k_lo, 0, k.size - 1)]))
        lower = np.where(lo - 1 >= d, 1.0, np.where(lo - 1 < 0, 0.0, F[np.clip(lo - 1 - k_lo, 0, k.size - 1)]))
        pB = np.where(hi >= lo, upper - lower, 0.0)
        total += pD[d - d_lo] * float(pA @ pB)
    return total


@lru_cache(maxsize=256)
def _critical_value(
    K: int, n: int, alpha: float, two_sided: bool, max_states: int
) -> tuple[int | None, tuple[float, float]]:
    """r* and the FWER bounds of :func:`multiple_sign_test` for K learners against the control,
    n data sets: they depend on nothing else, so each is computed once per process (a view
    asks again on every toggle)."""
    factor = 2 if two_sided else 1
    r_max = _binom_r_max(n, alpha / factor)  # P(min <= r) >= F(r): no larger r qualifies
    crit, bounds = None, (0.0, 0.0)
    if r_max >= 0:
        F = _binom_cdf(n, r_max)
        cdf = _exact_min_cdf(K, n, r_max, max_states)
        upper = cdf if cdf is not None else np.minimum(K * F, 1.0)  # Bonferroni S1
        ok = np.nonzero(factor * upper <= alpha * (1 + _RTOL))[0]
        if len(ok):
            crit = int(ok[-1])
            lo = hi = float(upper[crit])
            if cdf is None:  # S1 - S2, S2 from the exact law of one pair (P(01) + P(10) = 1/3)
                lo = max(K * F[crit] - comb(K, 2) * _pair_cdf(n, crit, 1 / 3), F[crit])
            if factor == 2:  # P(A or B) <= 2 P(A); P(A and B) <= K(K-1) P(N_1 <= r, N_2 >= n - r)
                lo = max(2 * lo - K * (K - 1) * _pair_cdf(n, crit, 2 / 3), lo)
                hi = 2 * hi
            bounds = (float(lo), float(hi))
    return crit, bounds


def multiple_sign_test(
    scores: Any,
    control: str,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    alternative: Literal["worse", "better", "two-sided"] = "worse",
    _max_states: int = _MAX_STATES,
) -> MultipleSignResult:
    """Multiple sign test of every learner against a control, exact family-wise level.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Rows are data sets, columns are learners (see :func:`stats.core._table.as_table`).
    control : str
        Column name of the control learner.
    alpha : float, default 0.05
        Family-wise (experimentwise) error rate, 0 < alpha < 1.
    higher_is_better : bool, default True
        Direction of the scores; a lower-is-better table is negated first.
    alternative : {"worse", "better", "two-sided"}, default "worse"
        H1 for each learner j. "worse": j is worse than the control; reject H0_j when
        its number of plus signs (data sets where j beats the control) is <= r*.
        "better": mirror, count minus signs. "two-sided": reject when
        min(plus, minus) <= r*.

    Returns
    -------
    MultipleSignResult
        ``critical_value`` r*, ``exact``, ``fwer`` / ``fwer_bounds`` and ``table``
        (indexed by the other learners: ``plus``, ``minus``, ``ties``, ``statistic``,
        ``rejected``).

    Notes
    -----
    Under the complete null the k values of a data set are exchangeable. With
    N_j the plus count of learner j, r* is the largest r with P(min_j N_j <= r) <= alpha
    (a tolerance of 1e-12 * alpha absorbs rounding), computed exactly by a dynamic
    programme over count profiles (see ``_exact_min_cdf``). Beyond its budget (200,000
    profiles, 4 million transition probabilities), the Bonferroni bounds K*F(r) - C(K,2)*P(N_1 <= r, N_2 <= r) <=
    P(min <= r) <= K*F(r), F the Binomial(n, 1/2) cdf, are used instead; r* then comes
    from the upper bound (valid, conservative) and ``exact`` is False.
    "two-sided" uses the exact one-sided law with a Bonferroni factor 2 (conservative):
    r* is the largest r with 2 P(min_j N_j <= r) <= alpha; the lower bound subtracts
    K(K-1) P(N_1 <= r, N_2 >= n - r). ``exact`` is then False unless k = 2.
    Ties (equal scores) cannot occur under a continuous null; a tie is counted against
    rejection (as a plus for "worse", a minus for "better", on the larger side for
    "two-sided"), so n stays the number of data sets and the test stays valid but
    conservative: it rejects only if every way of breaking the ties rejects.

    References
    ----------
    R. G. D. Steel (1959), A multiple comparison sign test: treatments versus control,
    JASA 54:767-775. A. L. Rhyne and R. G. D. Steel (1965), Tables for a treatments
    versus control multiple comparisons sign test, Technometrics 7:293-306.
    S. Garcia, A. Fernandez, J. Luengo, F. Herrera (2010), Information Sciences
    180:2044-2064, "Multiple Sign Test".

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"ctrl": [0.9] * 12,
    ...                        "a": [0.8] * 11 + [0.95], "b": [0.85] * 6 + [0.95] * 6})
    >>> res = multiple_sign_test(scores, "ctrl", alpha=0.05)
    >>> res.critical_value, res.exact, round(res.fwer, 4)
    (2, True, 0.0367)
    >>> res.table["rejected"].to_dict()
    {'a': True, 'b': False}
    """
    alpha = check_alpha(alpha)
    check_choice("alternative", alternative, _ALTERNATIVES)
    tab = as_table(scores, higher_is_better=higher_is_better, min_learners=2, min_datasets=1)
    names = list(tab.learners)
    if control not in names:
        raise ValueError(f"control {control!r} is not a learner; learners are: {', '.join(map(str, names))}")
    c = names.index(control)
    others = [j for j in range(tab.k) if j != c]
    v, ref = tab.values[:, others], tab.values[:, [c]]
    plus, minus = (v > ref).sum(axis=0), (v < ref).sum(axis=0)
    ties = tab.n - plus - minus
    K, n = len(others), tab.n
    if alternative == "worse":
        stat = plus + ties
    elif alternative == "better":
        stat = minus + ties
    else:  # best case for H0 over every split of the ties
        stat = np.minimum(np.minimum(plus, minus) + ties, n // 2)

    crit, bounds = _critical_value(K, n, alpha, alternative == "two-sided", _max_states)
    exact = bounds[0] == bounds[1]
    table = pd.DataFrame(
        {
            "plus": plus,
            "minus": minus,
            "ties": ties,
            "statistic": stat,
            "rejected": stat <= crit if crit is not None else np.zeros(K, dtype=bool),
        },
        index=pd.Index([names[j] for j in others], name="learner", tupleize_cols=False),
    )
    return MultipleSignResult(
        critical_value=crit,
        alpha=alpha,
        n=n,
        k=tab.k,
        control=str(control),
        alternative=alternative,
        exact=exact,
        fwer=bounds[0] if exact else None,
        fwer_bounds=bounds,
        table=table,
    )
