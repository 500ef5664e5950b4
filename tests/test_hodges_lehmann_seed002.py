"""Hodges-Lehmann estimates and intervals on the example pairs of Garcia & Herrera's tutorial (2008, 2010)
against R's
``wilcox.test(x, y, paired = TRUE, conf.int = TRUE)``, computed here independently: R is not
installed, so its code (R 4.x, ``stats:::wilcox.test.default``) is transcribed below, branch by
branch, with its null distribution from the generating function prod_r (1 + t^r) / 2^n (R's
``qsignrank``) and its root finding by scipy's ``brentq`` (R's ``uniroot``, tol 1e-4).

* Exact branch (n < 50, no zero and no tied |difference|): the tutorial's seven-algorithm table
  (30 data sets), Alg. 1 against Alg. 2, 4, 5, 6 and 7. rankboard's
  ``method="exact"`` must equal R's estimate and interval exactly.
* Approximate branch (zeros or ties): the tutorial's Wilcoxon example (after Demsar 2006), C4.5m
  against C4.5 on 14 data sets (two zero differences, tied magnitudes). Here the variants differ, by design (see
  ``stats.hodges_lehmann``): R drops the zeros and inverts a tie- and continuity-corrected z;
  rankboard keeps all N differences and takes Hollander & Wolfe's order statistics (eq. 3.27).
  The test pins both and names the difference.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from scipy.optimize import brentq

import stats
from tests.conftest import DATA

#: the text of Garcia & Herrera's tutorial slides (2008, 2010), kept under its file name
SEED = DATA / "seeds" / "002_8d7ef8b10cb9945b.txt"


def seven_algorithms() -> pd.DataFrame:
    """The first copy of the tutorial's table 'Large Variations in Accuracies of Different Classifiers'."""
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = lines.index("\tAlg. 1\tAlg. 2\tAlg. 3\tAlg. 4\tAlg. 5\tAlg. 6\tAlg. 7")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Avg"))
    return pd.read_csv(io.StringIO("\n".join(lines[start:end])), sep="\t", index_col=0)


def c45_example() -> tuple[list[float], list[float]]:
    """The tutorial's 'Example of the Wilcoxon Signed-Ranks Test' (C4.5, C4.5m on 14 data sets)."""
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = lines.index("dataset\tC4.5\tC4.5m\tDifference\tRank")
    rows = [line.split("\t") for line in lines[start + 1 : start + 15]]
    return [float(r[1]) for r in rows], [float(r[2]) for r in rows]


def r_psignrank_counts(n: int) -> np.ndarray:
    """Counts of V = 0..n(n+1)/2 over the 2^n sign vectors: coefficients of prod (1 + t^r)."""
    poly = np.array([1], dtype=object)
    for r in range(1, n + 1):
        shifted = np.concatenate([np.zeros(r, dtype=object), poly])
        poly = np.concatenate([poly, np.zeros(r, dtype=object)]) + shifted
    return poly


def r_exact(x: list[float], y: list[float], conf: float = 0.95) -> tuple[float, float, float]:
    """R's exact branch: diffs = sorted Walsh averages; qu = qsignrank(alpha/2, n) (1 if 0);
    ql = n(n+1)/2 - qu; cint = (diffs[qu], diffs[ql + 1]) (1-based); estimate median(diffs)."""
    d = np.asarray(x) - np.asarray(y)
    n = d.size
    walsh = np.sort(np.add.outer(d, d)[np.triu_indices(n)] / 2)
    counts = r_psignrank_counts(n)
    cdf = np.cumsum(counts) / 2**n  # exact fractions as floats
    qu = int(np.argmax(cdf >= (1 - conf) / 2))
    qu = max(qu, 1)
    ql = n * (n + 1) // 2 - qu
    return float(np.median(walsh)), float(walsh[qu - 1]), float(walsh[ql])


def r_approx(x: list[float], y: list[float], conf: float = 0.95) -> tuple[float, float, float]:
    """R's approximate branch (correct = TRUE): zeros dropped; W(d) = (V(d) - n(n+1)/4 -
    0.5 sign) / sigma(d) with the ties' correction, inverted at +-z_{1-alpha/2} by root finding;
    the estimate is the root of W(d) = 0 without the continuity correction."""
    d = np.round(np.asarray(x) - np.asarray(y), 9)
    d = d[d != 0]

    def w(mu: float, correct: bool) -> float:
        xd = np.round(d - mu, 9)
        xd = xd[xd != 0]
        nx = xd.size
        ranks = sps.rankdata(np.abs(xd))
        z = ranks[xd > 0].sum() - nx * (nx + 1) / 4
        _, ties = np.unique(ranks, return_counts=True)
        sigma = np.sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - (ties**3 - ties).sum() / 48)
        return (z - (np.sign(z) * 0.5 if correct else 0.0)) / sigma

    lo_mu, hi_mu = float(d.min()), float(d.max())

    def root(zq: float, correct: bool) -> float:
        if w(lo_mu, correct) - zq <= 0:
            return lo_mu
        if w(hi_mu, correct) - zq >= 0:
            return hi_mu
        return brentq(lambda mu: w(mu, correct) - zq, lo_mu, hi_mu, xtol=1e-12)

    z = sps.norm.isf((1 - conf) / 2)
    return root(0.0, False), root(z, True), root(-z, True)


PAIRS = [("Alg. 1", other) for other in ("Alg. 2", "Alg. 4", "Alg. 5", "Alg. 6", "Alg. 7")]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_exact_equals_rs_wilcox_test_on_the_tutorials_table(a: str, b: str) -> None:
    table = seven_algorithms()
    assert table.shape == (30, 7)
    x, y = table[b].tolist(), table[a].tolist()  # the better one first: a positive shift
    res = stats.hodges_lehmann(x, y)
    assert res.method == "exact" and res.n == 30 and res.n_zero == 0
    est, low, high = r_exact(x, y)
    assert (res.estimate, res.low, res.high) == pytest.approx((est, low, high), abs=1e-9)
    assert low < est < high


def test_approximate_branch_names_how_it_differs_from_r_on_the_tutorials_wilcoxon_example() -> None:
    c45, c45m = c45_example()
    assert len(c45) == 14
    res = stats.hodges_lehmann(c45m, c45)
    assert res.method == "approx" and res.n == 14 and res.n_zero == 2
    # rankboard: the median of the 105 Walsh averages of all 14 differences, zeros included,
    # and Hollander & Wolfe's C = round(M/2 - z sqrt(N(N+1)(2N+1)/24)) = 21st from each end.
    d = np.round(np.array(c45m) - np.array(c45), 9)
    walsh = np.sort(np.add.outer(d, d)[np.triu_indices(14)] / 2)
    c = int(np.floor(105 / 2 - sps.norm.isf(0.025) * np.sqrt(14 * 15 * 29 / 24) + 0.5))
    assert c == 21
    assert (res.estimate, res.low, res.high) == pytest.approx(
        (np.median(walsh), walsh[c - 1], walsh[105 - c]), abs=1e-12
    )
    assert (res.estimate, res.low, res.high) == pytest.approx((0.013, 0.003, 0.0275), abs=1e-12)
    # R: zeros dropped (12 differences), corrected z inverted. Its W(mu) is a step function that
    # is exactly 0 on [0.0145, 0.015] (between two Walsh averages of the nonzero differences), so
    # its estimate is wherever uniroot (tol 1e-4) stops in there; the interval's ends are jumps.
    est, low, high = r_approx(c45m, c45)
    nz = d[d != 0]
    walsh_nz = np.add.outer(nz, nz)[np.triu_indices(nz.size)] / 2
    assert 0.0145 <= est <= 0.015 and 0.0145 <= float(np.median(walsh_nz)) <= 0.015
    assert (low, high) == pytest.approx((0.0055, 0.034), abs=1e-6)
    assert res.estimate < est and res.low < low and res.high < high  # the zeros pull rankboard's down
