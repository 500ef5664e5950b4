"""stats.plateau on synthetic learning curves with a known knee, and its edge cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from stats import Plateau, learning_curve, plateau

SIZES = np.arange(20, 401, 20)  # 20 training sizes


def _curve(seed: int, *, knee: float = 200, repeats: int = 10, noise: float = 0.01, slope: float = 0.4):
    """Accuracy rising linearly to ``knee`` then flat, plus N(0, noise) noise; (sizes, values)."""
    rng = np.random.default_rng(seed)
    sizes = np.repeat(SIZES, repeats)
    values = 0.5 + slope * np.minimum(sizes, knee) / knee + rng.normal(0, noise, sizes.size)
    return sizes, values


@pytest.mark.parametrize("seed", range(10))
def test_linear_rise_to_200_then_flat(seed: int) -> None:
    result = plateau(*_curve(seed))
    # Each 20-instance step before the knee gains 0.04 = 4 noise sd: every size below 200 is improved on.
    # After it, Holm over the later sizes keeps false improvements rare; 220 is allowed once in a while.
    assert result.reached
    assert result.size in (200.0, 220.0), result
    assert result.sizes == tuple(float(s) for s in SIZES) and set(result.counts) == {10}


@pytest.mark.slow
def test_the_knee_is_found_exactly_in_most_draws() -> None:
    found = [plateau(*_curve(seed)).size for seed in range(40)]
    assert found.count(200.0) >= 36, found


def test_lower_is_better_mirrors_higher_is_better() -> None:
    sizes, accuracy = _curve(3)
    up = plateau(sizes, accuracy)
    down = plateau(sizes, 1 - accuracy, higher_is_better=False)
    assert (up.size, up.reached) == (down.size, down.reached)
    assert plateau(sizes, 1 - accuracy).size == SIZES[0]  # the wrong direction: never improves


def test_monotone_curve_never_flattens() -> None:
    sizes = np.repeat(SIZES, 10)
    rng = np.random.default_rng(1)
    values = sizes / 400 + rng.normal(0, 0.005, sizes.size)  # each step gains 0.05 = 10 sd
    result = plateau(sizes, values)
    assert (result.size, result.reached) == (400.0, False)
    assert "no plateau up to 400" in str(result)


def test_flat_from_the_start() -> None:
    sizes, values = _curve(5, knee=1)  # min(size, 1) = 1: constant plus noise
    result = plateau(sizes, values)
    assert (result.size, result.reached) == (20.0, True)
    constant = plateau(np.repeat([10, 20, 30], 5), np.full(15, 0.9))  # all ties: no evidence of improvement
    assert (constant.size, constant.reached) == (10.0, True)


def test_a_late_jump_is_not_hidden_by_a_long_flat_stretch() -> None:
    rng = np.random.default_rng(2)
    sizes = np.repeat(SIZES, 10)
    values = np.where(sizes >= 400, 0.9, 0.7) + rng.normal(0, 0.01, sizes.size)
    assert plateau(sizes, values).size == 400.0  # only 400 beats the flat 20..380 stretch


def test_negligible_effects_do_not_count() -> None:
    # Two sizes, 2000 values each: a shift of 0.02 sd is significant one-sided... only sometimes, and its
    # A12 is about 0.506 < 0.56; a shift of 1 sd (A12 about 0.76) counts.
    rng = np.random.default_rng(0)
    small = np.r_[rng.normal(0, 1, 2000), rng.normal(0.02, 1, 2000)]
    large = np.r_[rng.normal(0, 1, 2000), rng.normal(1.0, 1, 2000)]
    sizes = np.repeat([100, 200], 2000)
    assert plateau(sizes, small).size == 100.0
    assert plateau(sizes, small, effect=0.5, alpha=0.5).size == 200.0  # any significant gain at a lax level
    assert plateau(sizes, large).size == 200.0


def test_a12_and_pvalue_against_an_independent_count() -> None:
    from stats.charts.learning_curves import _better

    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 5, 12).astype(float), rng.integers(0, 5, 9).astype(float)
    p, a12 = _better(a, b, True)
    pairs = [(x > y) + 0.5 * (x == y) for x in a for y in b]
    assert a12 == pytest.approx(np.mean(pairs), abs=1e-15)
    assert p == pytest.approx(sps.mannwhitneyu(a, b, alternative="greater").pvalue, abs=1e-15)
    p_low, a12_low = _better(a, b, False)
    assert a12_low == pytest.approx(np.mean([(x < y) + 0.5 * (x == y) for x in a for y in b]), abs=1e-15)
    assert p_low == pytest.approx(sps.mannwhitneyu(a, b, alternative="less").pvalue, abs=1e-15)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([1, 2], [0.5]), {}, "same length"),
        (([1, 1], [0.5, 0.6]), {}, "at least two distinct training sizes"),
        (([1, 2], [0.5, np.nan]), {}, "finite"),
        (([1, 2], [0.5, 0.6]), {"alpha": 1.5}, "alpha must be in"),
        (([1, 2], [0.5, 0.6]), {"effect": 0.4}, "effect"),
    ],
)
def test_errors(args: tuple, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plateau(*args, **kwargs)


def test_learning_curve_pairs_each_value_with_its_training_size() -> None:
    rows = []
    for r in (1, 2):
        for fold, train in ((2, 10.0), (3, 20.0)):
            for learner in ("nb", "tree"):
                rows.append(("d", r, fold, learner, "train", train))
                rows.append(("d", r, fold, learner, "accuracy", r / 10 + train / 100))
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    sizes, values = learning_curve(log, dataset="d", learner="tree", criterion="accuracy")
    assert sizes.tolist() == [10.0, 20.0, 10.0, 20.0]
    assert values == pytest.approx([0.2, 0.3, 0.3, 0.4])
    with pytest.raises(ValueError, match="has both"):
        learning_curve(log, dataset="d", learner="svm", criterion="accuracy")
    assert isinstance(plateau(sizes, values), Plateau)
