"""stats.core._keys: the one module of packed integer keys (cells, runs, rows, locations, radix) and its budgets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats.core._keys as keys
from stats import Aggregator


def test_cell_keys_round_trip_and_keep_the_order_of_the_codes() -> None:
    codes = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [keys.LABEL_MAX] * 3])
    packed = keys.pack_cell(codes)
    assert (np.diff(packed) > 0).all()
    assert keys.unpack_cell(packed).tolist() == codes.tolist()
    assert keys.cell_criterion(packed).tolist() == [0, 0, 0, 1, keys.LABEL_MAX]


def test_check_labels_names_the_column_and_the_limit() -> None:
    keys.check_labels(keys.LABEL_MAX, "dataset")
    with pytest.raises(ValueError, match=r"in column 'dataset': 2,097,152 \(at most 2,097,151: a cell key holds 21"):
        keys.check_labels(keys.LABEL_MAX + 1, "dataset")
    with pytest.raises(ValueError, match="label codes must lie in"):
        keys.pack_cell(np.array([[0, keys.LABEL_MAX + 1, 0]]))


def test_the_aggregator_rejects_an_over_budget_label_count(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**21 labels are too many to build here: a budget of 2 bits (3 labels) stands for it.
    monkeypatch.setattr(keys, "LABEL_MAX", 3)
    learners = ["a", "b", "c"]
    log = pd.DataFrame({"dataset": "d", "repeat": 1, "fold": 1, "learner": learners, "criterion": "acc", "value": 0.5})
    agg = Aggregator(log)
    with pytest.raises(ValueError, match=r"too many distinct labels in column 'learner': 4 \(at most 3"):
        agg.add(log.iloc[:1].assign(learner="d"))
    with pytest.raises(ValueError, match=r"too many distinct labels in column 'dataset': 4 \(at most 3"):
        Aggregator(pd.concat([log, log.iloc[:1].assign(learner="a")]).assign(dataset=["w", "x", "y", "z"]))


def test_run_keys_narrow_then_wide() -> None:
    narrow = keys.pack_run(np.array([1, 32767]), np.array([0, 5]))
    assert narrow.dtype == np.int32 and [a.tolist() for a in keys.unpack_run(narrow)] == [[1, 32767], [0, 5]]
    wide = keys.pack_run(np.array([1, 32768, -3]), np.array([-1, 5, 2**31 - 1]))
    assert wide.dtype == np.int64
    assert [a.tolist() for a in keys.unpack_run(wide)] == [[1, 32768, -3], [-1, 5, 2**31 - 1]]
    with pytest.raises(ValueError, match=r"must fit in 32-bit integers, got values in \[1, 2147483648\]"):
        keys.pack_run(np.array([1]), np.array([2**31]))
    with pytest.raises(ValueError, match="must hold integers"):
        keys.pack_run(np.array([1.5]), np.array([1]))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(*(st.integers(-3, 1 << 17) for _ in range(5))), min_size=1, max_size=30))
def test_row_keys_pack_exactly_the_keys_within_budget_and_keep_their_order(rows: list[tuple[int, ...]]) -> None:
    columns = {name: np.array([r[i] for r in rows], np.int64) for i, name in enumerate(keys.ROW_BITS)}
    packed, fits = keys.pack_row(columns)
    within = [all(0 <= v < 1 << b for v, b in zip(r, keys.ROW_BITS.values())) for r in rows]
    assert fits.tolist() == within
    back = keys.unpack_row(packed[fits])
    assert [tuple(int(back[n][i]) for n in keys.ROW_BITS) for i in range(int(fits.sum()))] == [
        r for r, ok in zip(rows, within) if ok
    ]
    ordered = sorted((r, k) for r, k, ok in zip(rows, packed.tolist(), within) if ok)
    assert [k for _, k in ordered] == sorted(k for _, k in ordered)


def test_locations_round_trip_and_name_their_limits() -> None:
    loc = keys.pack_location(np.array([0, 3, keys.FILE_MAX]), np.array([1, keys.LINE_MAX, 7]))
    assert [a.tolist() for a in keys.unpack_location(loc)] == [[0, 3, keys.FILE_MAX], [1, keys.LINE_MAX, 7]]
    assert keys.location_file(loc).tolist() == [0, 3, keys.FILE_MAX]
    with pytest.raises(ValueError, match=r"too many files: 16,777,217 \(at most 16,777,216: a location holds 24 bits"):
        keys.pack_location(np.array([keys.FILE_MAX + 1]), np.array([1]))
    with pytest.raises(ValueError, match=r"line 549,755,813,888 is out of range: a location holds lines 0 to 549,"):
        keys.pack_location(np.array([0]), np.array([keys.LINE_MAX + 1]))


def test_cell_run_keys_or_none() -> None:
    got = keys.pack_cell_run(np.array([0, 1, 1]), np.array([5, 3, 4]))
    assert got is not None and (np.diff(got) > 0).all()
    assert keys.pack_cell_run(np.array([0, 1]), np.array([0, 1 << keys.CELL_RUN_BITS])) is None
    assert keys.pack_cell_run(np.array([1 << 21]), np.array([0])) is None


def test_radix_numbering_is_dense_and_reversible() -> None:
    a, b, c = np.array([0, 2, 1]), np.array([5, 3, 4]), np.array([0, 0, 1])
    spans = [3, 3, 2]
    packed = keys.pack_radix([a, b, c], [0, 3, 0], spans, np.int32)
    assert packed.tolist() == [(0 * 3 + 2) * 2 + 0, (2 * 3 + 0) * 2 + 0, (1 * 3 + 1) * 2 + 1]
    assert [x.tolist() for x in keys.unpack_radix(packed, spans)] == [a.tolist(), (b - 3).tolist(), c.tolist()]
    assert keys.radix_dtype(keys.radix_space([1 << 20, 1 << 10])) is np.int32
    assert keys.radix_dtype(keys.radix_space([1 << 40, 1 << 10])) is np.int64
    assert keys.radix_dtype(keys.radix_space([1 << 40, 1 << 30])) is None


async def test_a_burst_of_toggles_leaves_one_notice_not_a_stack() -> None:
    """`m m m m` stacked four toasts over the pairs view's numbers (their background is invisible
    with NO_COLOR); each notice now replaces the last one, and a warning stays."""
    from tests.test_app import SMALL, make_app, press, settle

    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "4", "m", "m", "m", "m")
        notices = list(app._notifications)
        assert len(notices) == 1 and notices[0].message.startswith(f"pairs procedure {app.selection.procedure}")
        app.notify("a warning", severity="warning")
        await press(pilot, "a")
        assert [n.severity for n in app._notifications] == ["warning", "information"]
