"""stats.folds._dirichlet (issues 17, 26): the flat Dirichlet draw in the signed-rank layout is, bit for
bit, ``numpy.random.Generator.dirichlet`` transposed; other priors (baycomp's default 0.5) are
drawn as normalised gammas in the same layout, with the Dirichlet's marginals."""

from __future__ import annotations

import numpy as np
import pytest

from stats.folds import _dirichlet
from stats.folds import _signed_rank_engine as _signed_rank


def _reference(k: int, nsamples: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).dirichlet(np.ones(k), nsamples).T


@pytest.mark.parametrize("k", [1, 2, 3, 15, 101, 501])
@pytest.mark.parametrize("nsamples", [1, 255, 256, 257, 1000])
@pytest.mark.parametrize("seed", [0, 7, 20260])
def test_bits_of_generator_dirichlet(k: int, nsamples: int, seed: int) -> None:
    got = _dirichlet._draw_by_value(k, nsamples, seed)
    ref = _reference(k, nsamples, seed)
    assert got.shape == ref.shape and got.flags.c_contiguous
    assert np.array_equal(got.view(np.int64), ref.view(np.int64))


def test_bits_with_other_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    for block in (1, 3, 64, 5000):
        monkeypatch.setattr(_dirichlet, "_BLOCK", block)
        got = _dirichlet._draw_by_value(40, 777, 11)
        assert np.array_equal(got.view(np.int64), _reference(40, 777, 11).view(np.int64)), block


def test_equivalence_holds_on_this_numpy() -> None:
    # if a numpy release draws Dirichlet variates otherwise, the fast path is off (results stay
    # right through the fallback) and this says so
    assert _dirichlet._equivalence_holds()


def test_fallback_gives_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_dirichlet, "_checked", [False])
    got = _dirichlet.flat_dirichlet_by_value(21, 300, 4)
    assert got.flags.c_contiguous
    assert np.array_equal(got.view(np.int64), _reference(21, 300, 4).view(np.int64))


@pytest.mark.parametrize("prior", [1.0, 0.5, 2.0])
def test_cached_weights_as_the_general_draw(prior: float) -> None:
    m, n, seed = 37, 1500, 3
    fresh = _signed_rank.weights_by_value(_signed_rank.dirichlet_weights(m, prior=prior, nsamples=n, seed=seed))
    kept = _signed_rank.cached_weights(m, prior=prior, nsamples=n, seed=seed)
    assert np.array_equal(kept.view(np.int64), fresh.view(np.int64))
    assert not kept.flags.writeable


@pytest.mark.parametrize("prior", [0.5, 2.0])
def test_other_priors_have_the_dirichlet_marginals(prior: float) -> None:
    """Dirichlet(prior, 1, ..., 1) over k = m + 1 values: the prior's weight is Beta(prior, m), a
    data value's Beta(1, m - 1 + prior) (Kolmogorov-Smirnov on 20,000 samples, fixed seed)."""
    import scipy.stats as sps

    m, n = 9, 20000
    w = _dirichlet.dirichlet_by_value(m + 1, n, 12, prior)
    assert w.shape == (m + 1, n) and w.flags.c_contiguous
    assert np.allclose(w.sum(axis=0), 1.0, rtol=0, atol=1e-12)
    assert sps.kstest(w[0], sps.beta(prior, m).cdf).pvalue > 0.001
    assert sps.kstest(w[3], sps.beta(1.0, m - 1 + prior).cdf).pvalue > 0.001
    # and it is not the flat draw's prior row under another name
    assert sps.kstest(w[0], sps.beta(1.0, m).cdf).pvalue < 1e-6


def test_prior_one_is_the_flat_draw() -> None:
    assert np.array_equal(_dirichlet.dirichlet_by_value(12, 300, 5, 1.0), _reference(12, 300, 5))
