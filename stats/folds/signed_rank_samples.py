"""The posterior samples of the Bayesian signed-rank test (Benavoli, Corani, Demsar & Zaffalon
2017, Sec. 5), not only the shares in which each outcome wins: the (theta_a, theta_rope,
theta_b) of every Monte Carlo sample, the points that baycomp's posterior simplex plots.

:func:`stats.folds.signed_rank.signed_rank_counts` keeps only each sample's winner (and decides
most winners from bounds, without the thetas). :func:`signed_rank_thetas` computes every sample's
thetas exactly as that function's exact path does (the same Dirichlet weights of
:func:`~stats.folds._signed_rank_engine.cached_weights`, the same sorted steps and the same
additions), so the shares of :func:`winners` are the very probabilities of
:func:`stats.bayes_signed_rank` and of :func:`stats.fold_comparison`'s ``totals`` for the same
differences, prior, ``nsamples`` and ``seed``.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from stats.folds._signed_rank_engine import _argmax3, _step_sum, _steps, cached_weights
from stats.folds.comparisons import begin_fold_comparison
from stats.folds.signed_rank import DEFAULT_PRIOR
from stats.folds.ttests import _rope

_FOLD_DEFAULTS = inspect.signature(begin_fold_comparison).parameters
#: The Monte Carlo samples and seed of :func:`stats.fold_comparison` (and so of the explorer's and
#: the report's folds view, which use its defaults): read from its signature, never restated.
FOLD_NSAMPLES: int = _FOLD_DEFAULTS["nsamples"].default
FOLD_SEED: int = _FOLD_DEFAULTS["seed"].default
#: Samples summed at a time (the cumulative sums of one block stay small: 501 values x 2048).
_BLOCK = 2048


def _block_thetas(steps: Any, block: np.ndarray) -> np.ndarray:
    """theta_a, theta_rope, theta_b (rows) of each sample (column) of ``block``: the sums of
    :func:`stats.folds._signed_rank_engine._exact_outcomes`, operation for operation."""
    u = block[steps.order]  # the weights of the sorted values
    size, n = u.shape
    p = np.empty((size + 1, n))
    p[0] = 0.0
    rows, sources = list(p), list(u)
    for k in range(size):  # cumulative sums of the sorted weights, in the engine's order
        np.add(rows[k], sources[k], out=rows[k + 1])
    total = p[size]
    theta_a = total * total - _step_sum(u, p, steps.a1)
    half = np.flatnonzero(steps.a1 != steps.ah)
    if half.size:  # a sum exactly at the bound counts 1/2
        theta_a += 0.5 * np.einsum("is,is->s", u[half], p[steps.a1[half]] - p[steps.ah[half]])
    if steps.rope == 0:
        return np.vstack([theta_a, np.zeros(n), 1.0 - theta_a])
    theta_b = _step_sum(u, p, steps.b1)
    half = np.flatnonzero(steps.b1 != steps.bh)
    if half.size:
        theta_b += 0.5 * np.einsum("is,is->s", u[half], p[steps.bh[half]] - p[steps.b1[half]])
    return np.vstack([theta_a, 1.0 - theta_a - theta_b, theta_b])


def signed_rank_thetas(
    z: Any,
    rope: float,
    *,
    prior: float = DEFAULT_PRIOR,
    nsamples: int = FOLD_NSAMPLES,
    seed: int = FOLD_SEED,
) -> np.ndarray:
    """The posterior samples of the Bayesian signed-rank test on the oriented differences ``z``
    (one per data set, positive: "a" better), ``nsamples x 3``: theta_a, theta_rope, theta_b of
    each sample (Benavoli et al. 2017, Sec. 5; their sum is 1; theta_rope is 0 with ``rope`` 0).

    The same draw and sums as :func:`stats.bayes_signed_rank` (its defaults here are
    :func:`stats.fold_comparison`'s: :data:`FOLD_NSAMPLES`, :data:`FOLD_SEED`, prior 0.5), so
    ``np.bincount(winners(...)) / nsamples`` are its probabilities, to the last bit.

    Examples
    --------
    >>> t = signed_rank_thetas([0.02, 0.05, -0.01, 0.03], 0.01, nsamples=1000)
    >>> t.shape, bool(np.allclose(t.sum(axis=1), 1.0))
    ((1000, 3), True)
    """
    values = np.asarray(z, dtype=float).ravel()
    if not np.all(np.isfinite(values)):
        raise ValueError("the differences must be finite")
    steps = _steps(values, _rope(rope))
    w = cached_weights(values.size, prior=prior, nsamples=int(nsamples), seed=seed)
    return np.hstack([_block_thetas(steps, w[:, s : s + _BLOCK]) for s in range(0, w.shape[1], _BLOCK)]).T


def winners(thetas: np.ndarray, rope: float) -> np.ndarray:
    """0 ("a" better), 1 (rope) or 2 ("b" better) for each sample of :func:`signed_rank_thetas`:
    the largest theta, the first on a tie (the rule of :func:`stats.bayes_signed_rank`)."""
    a, r, b = np.asarray(thetas, dtype=float).T
    return _argmax3(a, None if rope == 0 else r, b)
