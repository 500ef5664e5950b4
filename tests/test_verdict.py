"""The verdict of Menzies' notes on comparing learners: no difference, or winners and losers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats


def test_menzies_no_losers() -> None:
    # Menzies' notes: Friedman rejects (F_F 3.69 > F(3,39) = 2.845) but, with CD = 1.25 and the
    # best rank 1.964, "ALL our ranks in the above are not losers" (3.143 - 1.964 = 1.179).
    v = stats.verdict(stats.AverageRanks([3.143, 2.000, 2.893, 1.964], 14, ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]))
    assert v.outcome == "different"
    assert v.losers == () and v.winners == ()  # issue 28: no pair rejected, no winners listed
    assert str(v).endswith("no pair differs under Nemenyi at alpha = 0.05 (CD = 1.254)")
    assert v.cd == pytest.approx(1.2536, abs=1e-4)


def test_gh2008_nemenyi_and_pairwise_rules(gh2008: pd.DataFrame) -> None:
    # ranks 2.100 (C4.5), 3.250, 2.200, 4.333, 3.117; CD = 1.1136: 3.25 - 2.1 = 1.15 >= CD
    v = stats.verdict(gh2008)
    assert v.best == "C4.5"
    assert set(v.losers) == {"k-NN(k=1)", "Kernel"}
    assert v.winners == ("C4.5", "NaiveBayes", "CN2")
    assert "winners C4.5, NaiveBayes, CN2" in str(v)
    # Holm over pairs: C4.5 vs CN2 has APV 0.0511 > 0.05, so CN2 is not a loser;
    # Bergmann-Hommel: 0.0383 <= 0.05, so it is (Garcia & Herrera's 2008 30-data-set table).
    assert "CN2" not in stats.verdict(gh2008, rule="holm").losers
    assert "CN2" in stats.verdict(gh2008, rule="bergmann").losers
    assert "CN2" not in stats.verdict(gh2008, rule="shaffer").losers


def test_no_difference_message() -> None:
    rng = np.random.default_rng(0)
    v = stats.verdict(rng.uniform(size=(8, 5)), alpha=0.05)
    assert v.outcome == "no difference" and v.losers == ()
    assert str(v).startswith("no significant difference among the 5 learners at alpha = 0.05 (Friedman p = ")


def test_all_tied_is_no_difference() -> None:
    v = stats.verdict(np.ones((6, 3)))
    assert v.outcome == "no difference" and v.pvalue == 1.0


def test_lower_is_better_and_validation() -> None:
    x = np.tile([1.0, 2.0, 3.0, 4.0], (12, 1)) + np.random.default_rng(1).normal(0, 0.01, (12, 4))
    assert stats.verdict(x, higher_is_better=False).best == "L1"
    assert stats.verdict(x).best == "L4"
    with pytest.raises(ValueError, match="rule must be one of"):
        stats.verdict(x, rule="tukey")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="omnibus must be one of"):
        stats.verdict(x, omnibus="quade")  # type: ignore[arg-type]
