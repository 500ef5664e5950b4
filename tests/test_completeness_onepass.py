"""``completeness`` of a log in one pass (issue 17, item 2): the counts from one bincount of the
label codes and the repeats x folds from one boolean grid, against the implementation they
replace (an aggregate's counts, then three sorts/distincts over the rows), kept here as the
reference."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.cells import completeness
from stats.cells._aggregate import KEYS, _codes, _index, aggregate
from stats.cells._incremental import Aggregator

FIELDS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


# -- the reference: the implementation of df851f1, unchanged ---------------------------------------


def _mode(keys: list[np.ndarray], n: np.ndarray) -> pd.DataFrame:
    frame = pd.DataFrame({**{f"k{i}": k for i, k in enumerate(keys)}, "n": n})
    freq = frame.value_counts().rename("freq").reset_index()
    return freq.sort_values(["freq", "n"]).drop_duplicates([f"k{i}" for i in range(len(keys))], keep="last")


def old_counts(agg: pd.DataFrame) -> pd.DataFrame:
    index = cast(pd.MultiIndex, agg.index)
    c, d, lrn = (np.asarray(x, np.int64) for x in index.codes)
    n = agg["count"].to_numpy()
    grid = np.zeros([len(x) for x in index.levels], np.int64)
    grid[c, d, lrn] = n
    has_dataset = np.zeros(grid.shape[1], bool)
    has_dataset[d] = True
    learner_for = np.zeros((grid.shape[0], grid.shape[2]), bool)
    learner_for[c, lrn] = True
    by_criterion, by_cell = np.zeros(grid.shape[0], np.int64), np.zeros(grid.shape[:2], np.int64)
    m = _mode([c], n)
    by_criterion[m["k0"].to_numpy()] = m["n"].to_numpy()
    m = _mode([c, d], n)
    by_cell[m["k0"].to_numpy(), m["k1"].to_numpy()] = m["n"].to_numpy()
    expected = np.where(by_cell > 0, by_cell, by_criterion[:, None])
    ci, di, li = np.nonzero(has_dataset[None, :, None] & learner_for[:, None, :])
    cells = _index(index.levels, [ci, di, li], KEYS)
    return pd.DataFrame({"count": grid[ci, di, li], "expected": expected[ci, di]}, cells)


def old_distinct(pair: np.ndarray, n_pairs: int, x: np.ndarray) -> np.ndarray:
    x = x - x.min()
    span = int(x.max()) + 1
    if n_pairs * span <= max(4 * x.size, 1 << 22):
        seen = np.zeros(n_pairs * span, bool)
        seen[pair * span + x] = True
        return seen.reshape(n_pairs, span).sum(axis=1)
    first = pd.DataFrame({"p": pair, "x": x}).drop_duplicates()["p"].to_numpy()
    return np.bincount(first, minlength=n_pairs)


def old_design(dataset: Any, learner: Any, repeat: Any, fold: Any, levels: list[pd.Index]) -> pd.DataFrame:
    n_pairs, n_learners = len(levels[0]) * len(levels[1]), len(levels[1])
    pair = dataset.astype(np.int64) * n_learners + learner
    if pair.size:
        folds = fold - fold.min()
        run = (repeat - repeat.min()) * (int(folds.max()) + 1) + folds
        got = [old_distinct(pair, n_pairs, x) for x in (repeat, fold, run)]
    else:
        got = [np.zeros(n_pairs, np.int64)] * 3
    where = np.flatnonzero(got[0])
    r, f, runs = (g[where] for g in got)
    text = [f"{a} x {b}" if k == a * b else f"{a} x {b} ({k} of {a * b} runs)" for a, b, k in zip(r, f, runs)]
    index = _index(levels, [where // n_learners, where % n_learners], ("dataset", "learner"))
    return pd.DataFrame({"repeats": r, "folds": f, "runs": runs, "design": text}, index)


def old_completeness(log: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """(counts, design, lines) as df851f1's ``completeness(log)`` computed them."""
    agg = aggregate(log)
    levels = list(cast(pd.MultiIndex, agg.index).levels[1:])
    repeat, fold = (log[k].to_numpy().astype(np.int64) for k in ("repeat", "fold"))
    design = old_design(_codes(log["dataset"])[0], _codes(log["learner"])[0], repeat, fold, levels)
    return old_counts(agg), design, int(agg["count"].sum())


# -- random ragged logs -------------------------------------------------------------------------


@st.composite
def ragged_logs(draw: Any) -> pd.DataFrame:
    """Cells with any number of results over a few repeats and folds (some missing, some
    repeated: duplicate keys stay, as in a frame built by hand), labels in a drawn order, some
    categories unused, repeat/fold numbers possibly negative or far apart."""
    n_d, n_l, n_c = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    repeat_pool = draw(st.lists(st.integers(-3, 40), min_size=1, max_size=4, unique=True))
    fold_pool = draw(st.lists(st.integers(-2, 12), min_size=1, max_size=5, unique=True))
    rows = []
    for d in range(n_d):
        for lrn in range(n_l):
            for c in range(n_c):
                k = draw(st.integers(0, 7))
                for _ in range(k):
                    r, f = draw(st.sampled_from(repeat_pool)), draw(st.sampled_from(fold_pool))
                    rows.append((f"d{d}", r, f, f"l{lrn}", f"c{c}", draw(st.floats(0, 1))))
    log = pd.DataFrame(rows, columns=FIELDS).astype({"repeat": "int64", "fold": "int64", "value": "float64"})
    if draw(st.booleans()):
        for k, n in (("dataset", n_d), ("learner", n_l), ("criterion", n_c)):
            names = [f"{k[0]}{i}" for i in range(n + draw(st.integers(0, 1)))]  # maybe one unused
            order = draw(st.permutations(names))
            log[k] = pd.Categorical(log[k], categories=order)
    return log


def assert_same(log: pd.DataFrame) -> None:
    counts, design, lines = old_completeness(log)
    got = completeness(log)
    pd.testing.assert_frame_equal(got.counts, counts)
    assert got.design is not None
    pd.testing.assert_frame_equal(got.design, design)
    assert got.lines == lines == len(log)


@settings(max_examples=150, deadline=None)
@given(ragged_logs())
def test_completeness_of_a_log_equals_the_aggregate_and_three_distincts(log: pd.DataFrame) -> None:
    if len(log):
        assert_same(log)


@settings(max_examples=40, deadline=None)
@given(ragged_logs())
def test_completeness_of_an_aggregator_equals_that_of_its_log(log: pd.DataFrame) -> None:
    log = log.drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"], keep="last")
    if len(log):
        log = log.astype({k: "category" for k in ("dataset", "learner", "criterion")})
        counts, design, _ = old_completeness(log)
        got = completeness(Aggregator(log))
        pd.testing.assert_frame_equal(got.counts, counts)
        pd.testing.assert_frame_equal(got.design, design)


def test_a_sparse_design_goes_the_fallback_way_with_the_same_result() -> None:
    """Repeat numbers 10**9 apart: the grid would be too large; the distinct counts hold."""
    rng = np.random.default_rng(7)
    n = 3000
    log = pd.DataFrame(
        {
            "dataset": rng.choice(["a", "b", "c"], n),
            "repeat": rng.choice([1, 10**9, 2 * 10**9, -(10**9)], n),
            "fold": rng.integers(0, 5, n) * 10**6,
            "learner": rng.choice(["x", "y"], n),
            "criterion": rng.choice(["pd", "pf"], n),
            "value": rng.random(n),
        }
    )
    assert_same(log)


def test_a_large_ragged_log_with_duplicates_and_missing_folds() -> None:
    """200,000 rows in chunks of 2**20 rows or less: several chunk boundaries are not at play here,
    so the chunked loops also run with chunks of 7,777 rows."""
    import stats.cells._cell_counts as mod

    rng = np.random.default_rng(11)
    n = 200_000
    log = pd.DataFrame(
        {
            "dataset": pd.Categorical.from_codes(rng.integers(0, 300, n), [f"d{i}" for i in range(301)]),
            "repeat": rng.integers(1, 11, n),
            "fold": rng.integers(1, 11, n),
            "learner": pd.Categorical.from_codes(rng.integers(0, 20, n), [f"l{i}" for i in range(20)]),
            "criterion": pd.Categorical.from_codes(rng.integers(0, 3, n), ["acc", "pd", "pf"]),
            "value": rng.random(n),
        }
    )
    assert_same(log)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mod, "ROWS", 7_777)
        assert_same(log)


def test_bad_logs_raise_as_before() -> None:
    log = pd.DataFrame({"dataset": ["a"], "repeat": [1], "fold": [1], "learner": ["x"], "criterion": ["pd"]})
    with pytest.raises(ValueError, match="finite"):
        completeness(log.assign(value=[np.nan]))
    with pytest.raises(ValueError, match="missing labels"):
        completeness(log.assign(value=[0.5], learner=pd.Categorical([None], categories=["x"])))
