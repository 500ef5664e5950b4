"""stats._dirichlet (issue 17): the flat Dirichlet draw in the signed-rank layout is, bit for bit,
``numpy.random.Generator.dirichlet`` transposed, and cached_weights serves it for prior 1 only."""

from __future__ import annotations

import numpy as np
import pytest

from stats import _dirichlet, _signed_rank


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
