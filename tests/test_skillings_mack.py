"""Issue 31, item 3: ``stats.skillings_mack``, Friedman's test for data sets with missing results.

Checked against the published example (Skillings & Mack 1981, Table 1), against Friedman's statistic
on complete tables, against Durbin's statistic on balanced incomplete block designs (computed here
from its textbook formula, Conover 1999), and against the definition itself computed the slow way
(numpy's pseudo-inverse and numerical rank of the covariance matrix built cell by cell).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import stats

# -- the published example ---------------------------------------------------------------------

#: Skillings & Mack (1981), Technometrics 23(2), Table 1, p. 173: four methods of assembling a
#: product (A-D, the columns) in nine blocks (the rows), four cells missing. Copied from the R
#: package Skillings.Mack 1.10 (P. Srisuradetchai, CRAN 2015), man/Ski.Mack.Rd, whose example
#: reproduces the paper's table ("Skillings and Mack (1981), Table 1 page 173").
ASSEMBLY = pd.DataFrame(
    [
        [3.2, 4.1, 3.8, 4.2],
        [3.1, 3.9, 3.4, 4.0],
        [4.3, 3.5, 4.6, 4.8],
        [3.5, 3.6, 3.9, 4.0],
        [3.6, 4.2, 3.7, 3.9],
        [4.5, 4.7, 3.7, np.nan],
        [np.nan, 4.2, 3.4, np.nan],
        [4.3, 4.6, 4.4, 4.9],
        [3.5, np.nan, 3.7, 3.9],
    ],
    index=[f"block{i}" for i in range(1, 10)],
    columns=["A", "B", "C", "D"],
)


def test_the_published_example() -> None:
    """SM = 15.493049, df = 3, p = 0.001440 (Skillings & Mack 1981, p. 173; the R package's output)."""
    r = stats.skillings_mack(ASSEMBLY)
    assert r.statistic == pytest.approx(15.493049, abs=5e-7)
    assert r.df == 3
    assert r.pvalue == pytest.approx(0.001440, abs=5e-7)
    assert (r.n, r.dropped, r.n_dropped, r.missing, r.k) == (9, (), 0, 4, 4)
    assert list(r.sums.index) == ["A", "B", "C", "D"]
    assert "Skillings-Mack chi2(3) = 15.493, p = 0.0014" in str(r)
    # the same from a plain array (names made up) and from a ScoresTable-like list of rows
    assert stats.skillings_mack(ASSEMBLY.to_numpy()).statistic == r.statistic
    assert stats.skillings_mack(ASSEMBLY.to_numpy().tolist()).statistic == r.statistic


def test_the_published_example_in_either_direction() -> None:
    """Ranking the other way reverses every rank: A_t changes sign, SM does not."""
    up = stats.skillings_mack(ASSEMBLY)
    down = stats.skillings_mack(ASSEMBLY, higher_is_better=False)
    assert down.statistic == up.statistic and down.df == up.df and down.pvalue == up.pvalue
    assert np.array_equal(down.sums.to_numpy(), -up.sums.to_numpy())
    # D has the highest value in every block it is in: with higher_is_better it ranks 1 (best), so its
    # adjusted sum is the most negative; with lower-is-better it is the worst, most positive
    assert up.sums.idxmin() == "D" and down.sums.idxmax() == "D"


# -- the definition, computed the slow way -----------------------------------------------------


def definition(table: np.ndarray) -> tuple[float, int, int]:
    """SM, df and the blocks used, straight from Skillings & Mack's definition: ranks by scipy
    (1 = the smallest), the covariance matrix cell by cell, numpy's Moore-Penrose pseudo-inverse
    and numerical rank."""
    n, k = table.shape
    a = np.zeros(k)
    sigma = np.zeros((k, k))
    used = 0
    for row in table:
        seen = np.flatnonzero(~np.isnan(row))
        if seen.size < 2:
            continue
        used += 1
        kj = seen.size
        ranks = sps.rankdata(row[seen])
        a[seen] += np.sqrt(12.0 / (kj + 1)) * (ranks - (kj + 1) / 2.0)
        for s, t in itertools.permutations(seen, 2):
            sigma[s, t] -= 1.0  # -lambda_st
    sigma[np.diag_indices(k)] = -sigma.sum(axis=1)
    return float(a @ np.linalg.pinv(sigma) @ a), int(np.linalg.matrix_rank(sigma)), used


#: Values with many ties (a tenth apart), and missing cells.
CELL = st.one_of(st.integers(0, 6).map(lambda i: i / 10.0), st.just(np.nan))


@st.composite
def incomplete_tables(draw: st.DrawFn, max_n: int = 10, max_k: int = 6) -> np.ndarray:
    n, k = draw(st.integers(1, max_n)), draw(st.integers(2, max_k))
    cells = draw(st.lists(CELL, min_size=n * k, max_size=n * k))
    table = np.array(cells, dtype=float).reshape(n, k)
    enough = (~np.isnan(table)).sum(axis=1) >= 2
    if not enough.any():  # at least one data set with two results: keep the first row's first two
        table[0, :2] = [draw(st.integers(0, 6)) / 10.0, draw(st.integers(0, 6)) / 10.0]
    return table


@settings(max_examples=300, deadline=None)
@given(table=incomplete_tables())
def test_equals_its_definition_computed_with_a_numerical_pseudo_inverse(table: np.ndarray) -> None:
    sm, rank, used = definition(table)
    r = stats.skillings_mack(table)
    assert r.statistic == pytest.approx(sm, rel=1e-9, abs=1e-9)
    assert r.df == rank
    assert r.n == used and r.n_dropped == table.shape[0] - used
    assert r.pvalue == pytest.approx(float(sps.chi2.sf(sm, rank)), rel=1e-7, abs=1e-12)


# -- Friedman on complete tables ---------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 15),
    k=st.integers(2, 7),
    data=st.data(),
    higher=st.booleans(),
)
def test_equals_friedman_without_tie_correction_on_complete_tables(
    n: int, k: int, data: st.DataObject, higher: bool
) -> None:
    cells = data.draw(st.lists(st.integers(0, 5), min_size=n * k, max_size=n * k))  # many ties
    table = np.array(cells, dtype=float).reshape(n, k) / 10.0
    fr = stats.friedman(table, higher_is_better=higher, tie_correction=False)
    sm = stats.skillings_mack(table, higher_is_better=higher)
    assert sm.statistic == pytest.approx(fr.statistic, rel=1e-9, abs=1e-10)
    assert sm.df == fr.df == k - 1
    assert sm.pvalue == pytest.approx(fr.pvalue, rel=1e-8, abs=1e-12)
    assert (sm.n, sm.missing, sm.dropped) == (n, 0, ())


def test_equals_friedman_on_a_complete_table_without_ties() -> None:
    rng = np.random.default_rng(31)
    table = rng.normal(size=(30, 12))
    assert stats.skillings_mack(table).statistic == pytest.approx(stats.friedman(table).statistic, rel=1e-12)


# -- Durbin on balanced incomplete block designs -----------------------------------------------

#: Balanced incomplete block designs (each block: the learners observed), with t treatments, k per
#: block, r replicates of each and lambda = r (k - 1) / (t - 1) blocks per pair.
FANO = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]  # t = 7, k = 3, r = 3
DESIGNS = {
    "fano": (7, FANO),
    "triples of 4": (4, list(itertools.combinations(range(4), 3))),  # t = 4, k = 3, r = 3
    "pairs of 5": (5, list(itertools.combinations(range(5), 2))),  # t = 5, k = 2, r = 4
    "quadruples of 6": (6, list(itertools.combinations(range(6), 4))),  # t = 6, k = 4, r = 10
    "fano twice": (7, FANO * 2),
}


def durbin(table: np.ndarray) -> float:
    """Durbin's (1951) T1 from its textbook form without tie correction (Conover 1999, the Durbin
    test): 12 (t - 1) / (r t (k - 1)(k + 1)) sum_j (R_j - r (k + 1)/2)^2, R_j the rank sum of
    treatment j, ranks within blocks by scipy."""
    b, t = table.shape
    observed = ~np.isnan(table)
    k = int(observed[0].sum())
    r = int(observed[:, 0].sum())
    rank_sums = np.zeros(t)
    for row, seen in zip(table, observed):
        rank_sums[seen] += sps.rankdata(row[seen])
    return 12.0 * (t - 1) / (r * t * (k - 1) * (k + 1)) * float(np.sum((rank_sums - r * (k + 1) / 2.0) ** 2))


@pytest.mark.parametrize("design", sorted(DESIGNS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_equals_durbin_on_balanced_incomplete_block_designs(design: str, data: st.DataObject) -> None:
    t, blocks = DESIGNS[design]
    table = np.full((len(blocks), t), np.nan)
    for i, block in enumerate(blocks):
        values = data.draw(st.lists(st.integers(0, 4), min_size=len(block), max_size=len(block)))  # ties too
        table[i, list(block)] = np.array(values) / 10.0
    expected = durbin(table)
    r = stats.skillings_mack(table)
    assert r.statistic == pytest.approx(expected, rel=1e-9, abs=1e-10)
    assert r.df == t - 1
    assert r.pvalue == pytest.approx(float(sps.chi2.sf(expected, t - 1)), rel=1e-8, abs=1e-12)


# -- ranks only: invariances -------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    table=incomplete_tables(),
    data=st.data(),
    transform=st.sampled_from([np.exp, np.arctan, lambda x: x**3 + x, np.log1p]),
)
def test_a_monotone_transform_and_each_blocks_shift_and_scale_change_nothing(
    table: np.ndarray, data: st.DataObject, transform: object
) -> None:
    n = table.shape[0]
    scale = np.array(data.draw(st.lists(st.sampled_from([0.001, 0.5, 1.0, 3.0, 250.0]), min_size=n, max_size=n)))
    shift = np.array(data.draw(st.lists(st.sampled_from([-1000.0, -1.0, 0.0, 0.25, 40.0]), min_size=n, max_size=n)))
    before = stats.skillings_mack(table)
    with np.errstate(invalid="ignore"):
        moved = scale[:, None] * transform(table) + shift[:, None]  # type: ignore[operator]
    after = stats.skillings_mack(moved)
    assert after.statistic == before.statistic and after.df == before.df and after.pvalue == before.pvalue
    assert np.array_equal(after.sums.to_numpy(), before.sums.to_numpy())
    # a decreasing transform with the direction flipped: the same ranks again
    flipped = stats.skillings_mack(-moved, higher_is_better=False)
    assert flipped.statistic == before.statistic
    assert np.array_equal(flipped.sums.to_numpy(), before.sums.to_numpy())


@settings(max_examples=200, deadline=None)
@given(table=incomplete_tables())
def test_higher_is_better_reverses_the_ranks_and_not_the_statistic(table: np.ndarray) -> None:
    up = stats.skillings_mack(table, higher_is_better=True)
    down = stats.skillings_mack(table, higher_is_better=False)
    assert down.statistic == pytest.approx(up.statistic, rel=1e-12, abs=1e-12)
    assert (down.df, down.n, down.missing) == (up.df, up.n, up.missing)
    assert np.allclose(down.sums.to_numpy(), -up.sums.to_numpy(), rtol=0, atol=1e-12)


# -- degrees of freedom: learners never observed, designs that split ---------------------------


def test_a_learner_never_observed_takes_one_degree_of_freedom() -> None:
    table = ASSEMBLY.assign(E=np.nan)
    r = stats.skillings_mack(table)
    assert r.df == 3 == r.k - 2
    assert r.statistic == pytest.approx(15.493049, abs=5e-7)  # the published SM: E adds nothing
    assert r.sums["E"] == 0.0
    # a learner observed only in a data set that is dropped (its only result there) is as absent
    lonely = pd.concat([table, pd.DataFrame({"E": [0.7]}, index=["only E"]).reindex(columns=table.columns)])
    r = stats.skillings_mack(lonely)
    assert r.df == 3 and r.dropped == ("only E",) and r.statistic == pytest.approx(15.493049, abs=5e-7)


def test_a_design_that_splits_adds_the_parts() -> None:
    """A and B are only ever observed together, C and D too: two separate experiments, SM the sum
    of their two Friedman statistics and df = 1 + 1."""
    ab = np.array([[0.9, 0.8], [0.7, 0.75], [0.6, 0.5], [0.95, 0.9]])
    cd = np.array([[0.3, 0.4], [0.2, 0.6], [0.5, 0.1]])
    table = np.full((7, 4), np.nan)
    table[:4, :2] = ab
    table[4:, 2:] = cd
    r = stats.skillings_mack(table)
    expected = stats.friedman(ab).statistic + stats.friedman(cd).statistic
    assert r.df == 2 < r.k - 1
    assert r.statistic == pytest.approx(expected, rel=1e-12)
    assert r.pvalue == pytest.approx(float(sps.chi2.sf(expected, 2)), rel=1e-10)


# -- data sets with fewer than two results -----------------------------------------------------


def test_data_sets_with_fewer_than_two_results_are_dropped_and_counted() -> None:
    extra = pd.DataFrame(
        [[np.nan, np.nan, np.nan, np.nan], [4.4, np.nan, np.nan, np.nan], [np.nan, np.nan, np.nan, 1.0]],
        index=["none", "only A", "only D"],
        columns=ASSEMBLY.columns,
    )
    table = pd.concat([ASSEMBLY.iloc[:4], extra, ASSEMBLY.iloc[4:]])
    r = stats.skillings_mack(table)
    assert r.dropped == ("none", "only A", "only D") and r.n_dropped == 3
    assert r.n == 9 and r.missing == 4
    assert r.statistic == pytest.approx(15.493049, abs=5e-7) and r.df == 3
    assert "3 dropped with fewer than 2 results" in str(r)


def test_a_table_without_two_results_in_any_data_set_is_refused() -> None:
    with pytest.raises(ValueError, match="at least two learners"):
        stats.skillings_mack([[1.0, np.nan], [np.nan, 2.0]])


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([[1.0, np.inf], [2.0, 3.0]], "finite or NaN"),
        ([[1.0], [2.0]], "at least 2 learners"),
        ([["a", "b"], ["c", "d"]], "numeric"),
        ([1.0, 2.0], "2-D"),
        (pd.DataFrame([[1.0, 2.0]], columns=["x", "x"]), "duplicate"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(table: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        stats.skillings_mack(table)


def test_higher_is_better_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="True or False"):
        stats.skillings_mack(ASSEMBLY, higher_is_better="no")  # type: ignore[arg-type]


def test_exported_and_documented() -> None:
    assert "skillings_mack" in stats.__all__ and "SkillingsMackResult" in stats.__all__
    doc = stats.skillings_mack.__doc__
    assert "Skillings" in doc and "1981" in doc and "Technometrics" in doc and "Durbin" in doc
