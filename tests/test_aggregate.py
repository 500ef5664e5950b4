"""Per-cell summaries of a log: known answers, np.percentile equality, incremental == full rebuild."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.cells._aggregate import COLUMNS, KEYS, _order, aggregate
from stats.cells._incremental import Aggregator
from tests.conftest import REFERENCE

FIELDS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]


def make_log(rows: list[tuple], categorical: bool = True) -> pd.DataFrame:
    """A log with the loader's schema from (dataset, repeat, fold, learner, criterion, value) tuples."""
    log = pd.DataFrame(rows, columns=FIELDS).astype({"repeat": "int64", "fold": "int64", "value": "float64"})
    if categorical:
        for k in KEYS:
            log[k] = pd.Categorical(log[k], categories=pd.unique(log[k]))
    return log


def by_labels(table: pd.DataFrame) -> pd.DataFrame:
    """An aggregate keyed by plain labels, sorted: comparable whatever the category order."""
    flat = table.reset_index()
    for k in KEYS:
        flat[k] = flat[k].astype(str)
    return flat.sort_values(list(KEYS)).reset_index(drop=True)


def reference(log: pd.DataFrame) -> pd.DataFrame:
    """The definition, one cell at a time: np.percentile (linear), np.mean, np.std(ddof=1)."""
    out = []
    for (c, d, lrn), v in log.groupby(list(KEYS), observed=True, sort=False)["value"]:
        x = v.to_numpy()
        q1, med, q3 = np.percentile(x, [25, 50, 75])
        sd = float(np.std(x, ddof=1)) if x.size > 1 else 0.0
        out.append((c, d, lrn, x.size, x.min(), q1, med, q3, x.max(), np.mean(x), sd))
    return pd.DataFrame(out, columns=[*KEYS, *COLUMNS]).set_index(list(KEYS))


def assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Exact for counts and order statistics, 1e-12 relative for mean and sd."""
    got, want = by_labels(got), by_labels(want)
    pd.testing.assert_frame_equal(
        got.drop(columns=["mean", "sd"]), want.drop(columns=["mean", "sd"]), check_exact=True, check_dtype=False
    )
    np.testing.assert_allclose(got[["mean", "sd"]], want[["mean", "sd"]], rtol=1e-12, atol=1e-12)


def test_known_answers() -> None:
    rows = [("iris", 1, f, "nb", "acc", v) for f, v in enumerate([5.0, 1, 4, 2, 3], 1)]
    rows += [("iris", 1, 1, "knn", "acc", 0.7), ("iris", 1, 1, "nb", "pd", 0.2), ("iris", 1, 2, "nb", "pd", 0.6)]
    agg = aggregate(make_log(rows))
    assert list(agg.columns) == list(COLUMNS) and list(agg.index.names) == list(KEYS)
    assert agg.loc[("acc", "iris", "nb")].tolist() == pytest.approx([5, 1, 2, 3, 4, 5, 3, math.sqrt(2.5)])
    assert agg.loc[("acc", "iris", "knn")].tolist() == [1, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.0]  # sd of one: 0.0
    assert agg.loc[("pd", "iris", "nb"), ["q1", "median", "q3"]].tolist() == pytest.approx([0.3, 0.4, 0.5])
    assert agg["count"].dtype == np.int64


def test_order_is_category_order_or_first_appearance() -> None:
    rows = [("wine", 1, 1, "svm", "acc", 0.5), ("iris", 1, 1, "knn", "acc", 0.6), ("iris", 1, 1, "svm", "acc", 0.7)]
    log = make_log(rows)
    log["dataset"] = log["dataset"].cat.set_categories(["zoo", "wine", "iris"])  # "zoo" unused
    agg = aggregate(log)
    assert agg.index.tolist() == [("acc", "wine", "svm"), ("acc", "iris", "svm"), ("acc", "iris", "knn")]
    plain = aggregate(make_log(rows, categorical=False))
    assert plain.index.tolist() == agg.index.tolist()


def test_reference_log_10x10() -> None:
    log = pd.read_csv(REFERENCE / "baycomp_accuracies.dat", header=None, names=FIELDS)
    agg = aggregate(log)
    assert agg.shape == (54 * 5, 8) and (agg["count"] == 100).all()
    assert agg.index.get_level_values("criterion").unique().tolist() == ["accuracy"]
    assert_same(agg, reference(log))


@st.composite
def logs(draw: st.DrawFn, max_cells: int = 12) -> pd.DataFrame:
    """Random logs: unequal cell sizes (1 to 150, several size classes), many ties."""
    n_cells = draw(st.integers(1, max_cells))
    sizes = draw(st.lists(st.integers(1, 150), min_size=n_cells, max_size=n_cells))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    rows = []
    for i, size in enumerate(sizes):
        values = rng.integers(0, draw(st.sampled_from([3, 50, 10**6])), size) / 8.0
        rows += [
            (f"d{i % 4}", r // 10, r % 10, f"l{i // 4 % 3}", f"c{i // 12}", v) for r, v in zip(range(size), values)
        ]
    log = make_log(rows)
    return log.sample(frac=1.0, random_state=seed % 1000).reset_index(drop=True)  # rows in any order


@settings(max_examples=60, deadline=None)
@given(logs())
def test_equals_np_percentile(log: pd.DataFrame) -> None:
    assert_same(aggregate(log), reference(log))


def test_more_than_65536_cells() -> None:
    rng = np.random.default_rng(7)
    cells = rng.permutation(np.repeat(np.arange(70_000), rng.integers(1, 4, 70_000)))
    order = _order(cells.astype(np.int32), 70_000)
    assert np.array_equal(np.sort(order), np.arange(cells.size))
    grouped = cells[order]
    assert np.all(np.diff(grouped) >= 0)
    assert np.all(np.diff(order)[np.diff(grouped) == 0] > 0)  # stable
    log = pd.DataFrame(
        {
            "dataset": cells // 100,
            "repeat": 1,
            "fold": 1,
            "learner": cells % 100,
            "criterion": "acc",
            "value": rng.random(cells.size).round(2),
        }
    )
    agg = aggregate(log)
    want = log.groupby(list(KEYS), sort=True)["value"].quantile(0.25)
    assert len(agg) == 70_000
    np.testing.assert_allclose(agg.sort_index()["q1"].to_numpy(), want.to_numpy(), rtol=1e-12)


def test_empty_log() -> None:
    agg = aggregate(make_log([]))
    assert agg.empty and list(agg.columns) == list(COLUMNS)


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (lambda log: log.drop(columns="learner"), ValueError, "lacks column\\(s\\) learner"),
        (lambda log: log.assign(value=np.nan), ValueError, "must be finite"),
        (lambda log: log.assign(learner=pd.Categorical([None, "a"])), ValueError, "'learner' has missing labels"),
        (lambda log: log.to_numpy(), TypeError, "must be a pandas DataFrame"),
    ],
)
def test_bad_logs(change: object, error: type, match: str) -> None:
    log = make_log([("a", 1, 1, "x", "acc", 0.5), ("a", 1, 2, "y", "acc", 0.6)])
    with pytest.raises(error, match=match):
        aggregate(change(log))  # type: ignore[operator]


def test_aggregator_needs_integer_repeat_and_fold() -> None:
    log = make_log([("a", 1, 1, "x", "acc", 0.5)]).assign(fold=1.5)
    with pytest.raises(ValueError, match="'repeat' and 'fold' must hold integers"):
        Aggregator(log)
    with pytest.raises(ValueError, match="lacks column\\(s\\) repeat"):
        Aggregator(log.drop(columns="repeat"))


def test_add_returns_touched_cells_and_handles_new_labels() -> None:
    log = make_log([("a", 1, f, "x", "acc", f / 10) for f in range(1, 5)])
    agg = Aggregator(log)
    first = agg.table
    rows = make_log([("a", 1, 5, "x", "acc", 0.9), ("b", 1, 1, "y", "auc", 0.3), ("b", 1, 2, "y", "auc", 0.5)])
    touched = agg.add(rows)
    assert touched.tolist() == [("acc", "a", "x"), ("auc", "b", "y")]
    assert agg.table.loc[("acc", "a", "x"), "count"] == 5 and first.loc[("acc", "a", "x"), "count"] == 4
    assert agg.table.loc[("auc", "b", "y"), "median"] == pytest.approx(0.4)
    assert_same(agg.table, aggregate(pd.concat([log, rows], ignore_index=True)))


def test_add_nothing() -> None:
    agg = Aggregator(make_log([("a", 1, 1, "x", "acc", 0.1)]))
    assert len(agg.add(make_log([]))) == 0 and agg.table["count"].tolist() == [1]


def test_add_replaces_a_rewritten_result() -> None:
    log = make_log([("a", 1, 1, "x", "acc", 0.1), ("a", 1, 2, "x", "acc", 0.2)])
    agg = Aggregator(log)
    agg.add(make_log([("a", 1, 2, "x", "acc", 0.6), ("a", 1, 2, "x", "acc", 0.4)]))  # last line wins
    assert agg.table.loc[("acc", "a", "x"), ["count", "max"]].tolist() == [2, 0.4]


def test_compaction_drops_replaced_results(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Aggregator, "_COMPACT_MIN", 0)
    log = make_log([("a", 1, f, "x", "acc", f / 10) for f in range(1, 9)])
    agg = Aggregator(log)
    agg.add(make_log([("a", 1, 1, "x", "acc", 5.0)]))  # rewrites fold 1: buffered, not merged yet
    assert agg._extra[0].size == 1
    agg.add(make_log([("a", 1, 2, "x", "acc", 6.0), ("a", 1, 9, "x", "acc", 0.9)]))  # buffer > 8 // 4: merged
    assert agg._extra[0].size == 0 and agg._values.size == 9
    want = log.set_index("fold")["value"].to_dict() | {1: 5.0, 2: 6.0, 9: 0.9}
    assert agg.table.loc[("acc", "a", "x"), ["count", "max", "median"]].tolist() == [
        9,
        6.0,
        np.median(list(want.values())),
    ]


def test_replace_rebuilds() -> None:
    agg = Aggregator(make_log([("a", 1, 1, "x", "acc", 0.1)]))
    agg.add(make_log([("b", 1, 1, "x", "acc", 0.3)]))
    agg.replace(make_log([("c", 1, 1, "y", "acc", 0.2)]))
    assert agg.table.index.tolist() == [("acc", "c", "y")]


@st.composite
def batches(draw: st.DrawFn) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """A log and appended batches: new results, new labels, and rewrites of earlier results."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def batch(n: int) -> pd.DataFrame:
        return make_log(
            [
                (
                    f"d{rng.integers(0, 5)}",
                    int(rng.integers(1, 4)),
                    int(rng.integers(1, 6)),
                    f"l{rng.integers(0, 4)}",
                    f"c{rng.integers(0, 2)}",
                    rng.integers(0, 20) / 4,
                )
                for _ in range(n)
            ]
        ).drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"])

    sizes = draw(st.lists(st.integers(1, 40), min_size=1, max_size=6))
    return batch(draw(st.integers(1, 120))), [batch(n) for n in sizes]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(batches(), st.booleans())
def test_incremental_equals_full_rebuild(case: tuple[pd.DataFrame, list[pd.DataFrame]], compact: bool) -> None:
    log, appended = case
    agg = Aggregator(log)
    if compact:
        agg._COMPACT_MIN = 0  # merge the buffer into the store as soon as it outgrows a quarter
    for rows in appended:
        touched = agg.add(rows)
        keys = pd.MultiIndex.from_frame(rows[list(KEYS)].astype(str)).unique()
        assert sorted(touched.map(lambda t: tuple(map(str, t)))) == sorted(keys)
    everything = pd.concat([log, *appended], ignore_index=True)
    everything = everything.drop_duplicates(["dataset", "repeat", "fold", "learner", "criterion"], keep="last")
    assert_same(agg.table, aggregate(everything))
    assert_same(agg.table, reference(everything))
