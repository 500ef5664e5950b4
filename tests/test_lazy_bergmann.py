"""Exact Bergmann-Hommel only when shown (issue 17 item 7): the tests, ranks and CD views of another
procedure do not compute it; the pairs view (whose table the exports write) and the Bergmann
procedure do; the numbers on screen are the same either way."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import stats
import stats.posthoc.apv
from tui.model import Model, default_selection

K, N = 11, 12


def log_of(seed: int) -> pd.DataFrame:
    """One result per cell of an 12 x 11 table with ties: its scores table is that table."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.beta(5, 2, (N, 1)) + rng.normal(0, 0.05, (1, K)) + rng.normal(0, 0.03, (N, K)), 2)
    return pd.DataFrame(
        [(f"D{i}", 1, 1, f"L{j:02d}", "accuracy", values[i, j]) for i in range(N) for j in range(K)],
        columns=["dataset", "repeat", "fold", "learner", "criterion", "value"],
    )


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The k of every exact Bergmann-Hommel computed."""
    calls: list[int] = []
    exact = stats.posthoc.apv.bergmann_apv

    def counting(p: np.ndarray, k: int) -> np.ndarray:
        calls.append(k)
        return exact(p, k)

    monkeypatch.setattr(stats.posthoc.apv, "bergmann_apv", counting)
    return calls


@pytest.mark.parametrize("procedure", ["holm", "shaffer", "nemenyi"])
def test_other_procedures_views_do_not_compute_bergmann(counted: list[int], procedure: str) -> None:
    log = log_of(1)
    sel = dataclasses.replace(default_selection(log, "accuracy"), procedure=procedure)
    lazy = Model(log).analyze(sel).prepare("tests", "ranks", "cd")
    assert counted == []
    full = Model(log).analyze(sel).prepare("pairs", "tests", "ranks", "cd")  # the pairs view first: full table
    assert counted == [K]
    assert lazy.tests.verdict == full.tests.verdict
    assert lazy.letters == full.letters
    assert (lazy.cd.cliques, lazy.cd.basis) == (full.cd.cliques, full.cd.basis)
    assert lazy.tests.control_table.equals(full.tests.control_table)
    assert lazy.pairs.table["bergmann"].equals(full.pairs.table["bergmann"])  # the pairs view: with it


def test_the_pairs_view_after_the_tests_view_computes_it_once(counted: list[int]) -> None:
    log = log_of(4)
    model = Model(log)
    sel = default_selection(log, "accuracy")  # Holm
    analysis = model.analyze(sel).prepare("tests")
    assert counted == []
    analysis.prepare("pairs")
    assert counted == [K]
    model.analyze(dataclasses.replace(sel, alpha=0.1)).prepare("tests", "pairs", "cd")
    assert counted == [K]  # cached with the table
    other = Model(log).analyze(sel).prepare("pairs")  # a fresh model: the table made at once
    assert analysis.pairs.table.table.equals(other.pairs.table.table)


def test_the_bergmann_procedure_computes_it_once(counted: list[int]) -> None:
    log = log_of(2)
    sel = dataclasses.replace(default_selection(log, "accuracy"), procedure="bergmann")
    analysis = Model(log).analyze(sel).prepare("tests", "ranks", "cd", "pairs")
    assert counted == [K]
    apv = analysis.pairs.table
    assert np.array_equal(apv["bergmann"].to_numpy(), stats.adjust(apv["p"].to_numpy(), "bergmann"))


def test_pairwise_test_without_bergmann_leaves_the_column_out(counted: list[int]) -> None:
    scores = log_of(3).pivot(index="dataset", columns="learner", values="value")
    light = stats.pairwise_test(scores, bergmann=False)
    full = stats.pairwise_test(scores)
    assert counted == [K]
    assert "bergmann" not in light.table.columns and light.bergmann == "not computed (bergmann=False)"
    assert light.table.equals(full.table.drop(columns="bergmann"))
    with pytest.raises(ValueError, match="bergmann must be True or False"):
        stats.pairwise_test(scores, bergmann="no")  # type: ignore[arg-type]
