"""Dirichlet(prior, 1, ..., 1) draws in the Bayesian signed-rank test's layout: the flat ones
(prior 1) bit for bit those of ``numpy.random.Generator.dirichlet``, in a third of its time, and
the others (baycomp's default prior 0.5) as normalised gammas at the same cost
(:func:`dirichlet_by_value`).

``Generator.dirichlet`` (numpy/random/_generator.pyx, the "standard case" used whenever
``max(alpha) >= 0.1``) fills each sample's k values with ``random_standard_gamma(alpha_j)`` in
order, adds them left to right (``acc = acc + val``), and multiplies each by ``1. / acc``. With
every alpha = 1, ``random_standard_gamma(1.0)`` returns ``random_standard_exponential``
(numpy/random/src/distributions/distributions.c), the variate ``Generator.standard_exponential``
fills an array with, from the same bit stream in the same order. So a block of samples is one
``standard_exponential((rows, k))`` call; the draw is written straight into the transposed layout
of :func:`stats.folds._signed_rank_engine.weights_by_value` (a row per value) block by block, where the
transpose stays in cache; the row sums are accumulated value by value (the same left-to-right
order of additions as ``acc``) and each value multiplied by the same ``1. / acc``.

That equivalence rests on numpy's internals, so :func:`flat_dirichlet_by_value` checks it on the
numpy in use (a small draw compared with ``Generator.dirichlet``, once per process) and falls back
to ``Generator.dirichlet`` when it does not hold.
"""

from __future__ import annotations

import threading

import numpy as np

#: Samples drawn and transposed at a time (256 x 501 doubles: 1 MB, within the L2 cache).
_BLOCK = 256
_checked: list[bool] = []  # [holds] once :func:`_equivalence_holds` ran
_check_lock = threading.Lock()


def _exponentials_by_value(rng: np.random.Generator, k: int, nsamples: int) -> np.ndarray:
    """``k x nsamples`` standard exponentials of ``rng``, drawn sample after sample (k at a time,
    the order of ``Generator.dirichlet``) and written transposed, block by block."""
    out = np.empty((k, nsamples))
    buffer = np.empty((min(_BLOCK, nsamples), k))  # one block's draw, reused (no allocation per block)
    for start in range(0, nsamples, _BLOCK):
        block = buffer[: min(_BLOCK, nsamples - start)]
        rng.standard_exponential(out=block)
        out[:, start : start + block.shape[0]] = block.T
    return out


def _normalised(out: np.ndarray) -> np.ndarray:
    """Each column of ``out`` divided by its sum, in place, as ``Generator.dirichlet`` does: the
    values added left to right (``acc = acc + val``), then multiplied by ``1. / acc``."""
    if out.shape[0] == 0:
        return out
    acc = out[0].copy()
    for row in out[1:]:
        acc += row
    out *= 1.0 / acc
    return out


def _draw_by_value(k: int, nsamples: int, seed: int) -> np.ndarray:
    """Flat Dirichlet weights of ``default_rng(seed)``, ``k x nsamples`` (see the module's text)."""
    return _normalised(_exponentials_by_value(np.random.default_rng(seed), k, nsamples))


def dirichlet_by_value(k: int, nsamples: int, seed: int, prior: float) -> np.ndarray:
    """Dirichlet(prior, 1, ..., 1) weights of ``default_rng(seed)``, ``k x nsamples`` (a row per
    value, the prior's first), C-contiguous.

    ``prior == 1``: :func:`flat_dirichlet_by_value`, bit for bit ``Generator.dirichlet``.
    Otherwise the Dirichlet's definition as normalised independent gammas (Ferguson 1973; any
    textbook construction): the same k rows of exponentials (Gamma(1)), then the first row
    replaced by ``standard_gamma(prior)`` variates drawn after them, and each column divided by
    its sum. ``Generator.dirichlet`` interleaves a Gamma(prior) variate, whose draw consumes a
    variable number of bits, with the exponentials of each sample, so it cannot be drawn a block
    at a time; this draw can, and costs the same as the flat one (baycomp's default prior 0.5
    is as fast as 1).
    """
    k, nsamples, seed = int(k), int(nsamples), int(seed)
    if float(prior) == 1.0:
        return flat_dirichlet_by_value(k, nsamples, seed)
    rng = np.random.default_rng(seed)
    out = _exponentials_by_value(rng, k, nsamples)
    if k:
        out[0] = rng.standard_gamma(float(prior), nsamples)
    return _normalised(out)


def _equivalence_holds() -> bool:
    """Whether :func:`_draw_by_value` reproduces ``Generator.dirichlet`` on this numpy (a few
    shapes that cross a block boundary; the bits compared, once per process)."""
    with _check_lock:
        if not _checked:
            ok = True
            for k, n, seed in ((1, 3, 0), (2, 5, 1), (7, _BLOCK + 3, 2), (30, 2 * _BLOCK + 1, 3)):
                ref = np.random.default_rng(seed).dirichlet(np.ones(k), n).T
                ok = ok and np.array_equal(_draw_by_value(k, n, seed).view(np.int64), ref.view(np.int64))
            _checked.append(ok)
        return _checked[0]


def flat_dirichlet_by_value(k: int, nsamples: int, seed: int) -> np.ndarray:
    """``default_rng(seed).dirichlet(np.ones(k), nsamples).T`` as a C-contiguous ``k x nsamples``
    array, bit for bit (``Generator.dirichlet`` itself when this numpy draws otherwise)."""
    if _equivalence_holds():
        return _draw_by_value(int(k), int(nsamples), int(seed))
    return np.ascontiguousarray(np.random.default_rng(seed).dirichlet(np.ones(k), nsamples).T)
