"""Tests of stats.quartiles: numpy's percentiles, hand-drawn charts, the charts of Menzies' notes on
comparing learners (``style="seed000"``) and of his lecture notes (``style="seed004"``).

Every expected chart line below was worked out by hand from the position rule
cell = round_half_up((x - lo) / (hi - lo) * (width - 1)); the arithmetic is in
the comments.
"""

from __future__ import annotations

import doctest
import importlib
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.charts.quartiles import Quartiles, quartile_chart, quartiles, scale_position
from tests.conftest import REFERENCE, SEEDS

#: the text of Menzies' lecture notes, kept under its file name
SEED004 = SEEDS / "004_1f3c22156dad8688.txt"


def rdiv(demo: str) -> dict[str, list[float]]:
    """Treatment -> values of one demo of menzies_rdiv_demo_inputs.csv, in file order."""
    frame = pd.read_csv(REFERENCE / "menzies_rdiv_demo_inputs.csv", dtype={"treatment": str})
    part = frame[frame["demo"] == demo]
    return {t: part.loc[part["treatment"] == t, "value"].tolist() for t in part["treatment"].unique()}


def test_doctests() -> None:
    # stats.quartiles the attribute is the function (stats/__init__ re-exports it): import the module.
    assert doctest.testmod(importlib.import_module("stats.charts.quartiles")).failed == 0


# --------------------------------------------------------------------------- quartiles


def test_quartiles_type7_by_hand() -> None:
    # [0.34, 0.49, 0.51, 0.6]: type 7 puts the p-quantile at position 3p:
    # q1 at 0.75 -> 0.34 + 0.75 * 0.15 = 0.4525, median at 1.5 -> 0.5,
    # q3 at 2.25 -> 0.51 + 0.25 * 0.09 = 0.5325. mean 1.94 / 4 = 0.485,
    # sd = sqrt((0.145^2 + 0.005^2 + 0.025^2 + 0.115^2) / 3) = sqrt(0.0349 / 3).
    q = quartiles([0.34, 0.49, 0.51, 0.6])
    assert q.n == 4 and q.min == 0.34 and q.max == 0.6
    assert q.q1 == pytest.approx(0.4525, abs=1e-12)
    assert q.median == pytest.approx(0.5, abs=1e-12)
    assert q.q3 == pytest.approx(0.5325, abs=1e-12)
    assert q.mean == pytest.approx(0.485, abs=1e-12)
    assert q.sd == pytest.approx(math.sqrt(0.0349 / 3), abs=1e-12)


def test_quartiles_match_r_default() -> None:
    # R: quantile(c(1, 2, 3, 4, 10)) -> 2, 3, 4; quantile(1:4) -> 1.75, 2.5, 3.25.
    q = quartiles([10, 1, 4, 2, 3])
    assert (q.q1, q.median, q.q3) == (2.0, 3.0, 4.0)
    q = quartiles([1, 2, 3, 4])
    assert (q.q1, q.median, q.q3) == (1.75, 2.5, 3.25)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40))
def test_quartiles_equal_numpy(values: list[float]) -> None:
    q = quartiles(values)
    x = np.asarray(values)
    assert q.n == len(values)
    assert q.min == x.min() and q.max == x.max()
    assert q.q1 == np.percentile(x, 25)
    assert q.median == np.percentile(x, 50)
    assert q.q3 == np.percentile(x, 75)
    assert q.mean == np.mean(x)
    assert q.sd == (np.std(x, ddof=1) if len(values) > 1 else 0.0)


def test_quartiles_single_value() -> None:
    q = quartiles([3.5])
    assert q == Quartiles(n=1, min=3.5, q1=3.5, median=3.5, q3=3.5, max=3.5, mean=3.5, sd=0.0)
    assert str(q) == "n = 1, min = 3.5, q1 = 3.5, median = 3.5, q3 = 3.5, max = 3.5, mean = 3.5, sd = 0"


@pytest.mark.parametrize(
    ("values", "match"),
    [
        ([], "values is empty"),
        ([1.0, float("nan")], "values must be finite"),
        ([1.0, float("inf")], "values must be finite"),
        ([[1.0, 2.0], [3.0, 4.0]], "values must be 1-D"),
        (["a", "b"], "values must be numeric"),
    ],
)
def test_quartiles_rejects(values: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        quartiles(values)


def test_quartiles_dataclass_validation() -> None:
    with pytest.raises(ValueError, match="min <= q1 <= median <= q3 <= max"):
        Quartiles(n=3, min=1, q1=3, median=2, q3=4, max=5, mean=3, sd=1)
    with pytest.raises(ValueError, match="n must be a positive integer, got 0"):
        Quartiles(n=0, min=1, q1=1, median=1, q3=1, max=1, mean=1, sd=0)
    with pytest.raises(ValueError, match="sd must be >= 0"):
        Quartiles(n=2, min=1, q1=1, median=1, q3=1, max=1, mean=1, sd=-1)
    with pytest.raises(ValueError, match="mean must be finite"):
        Quartiles(n=2, min=1, q1=1, median=1, q3=1, max=1, mean=float("nan"), sd=0)


# --------------------------------------------------------------------------- scale_position


def test_scale_position_rule() -> None:
    assert scale_position(0.0, 0.0, 10.0, 11) == 0
    assert scale_position(10.0, 0.0, 10.0, 11) == 10
    assert scale_position(3.4, 0.0, 10.0, 11) == 3
    assert scale_position(3.6, 0.0, 10.0, 11) == 4
    # Halves go up (Python's round would give 0 and 2): (1 - 0) / 4 * 2 = 0.5, 3 / 4 * 2 = 1.5.
    assert scale_position(1.0, 0.0, 4.0, 3) == 1
    assert scale_position(3.0, 0.0, 4.0, 3) == 2
    # 0.3 / 0.6 * 5 is 2.4999999999999996 in binary; it is 2.5 and goes up.
    assert scale_position(0.3, 0.0, 0.6, 6) == 3
    # Outside the axis: clipped to the ends.
    assert scale_position(-5.0, 0.0, 10.0, 11) == 0
    assert scale_position(50.0, 0.0, 10.0, 11) == 10


def test_scale_position_equal_ends() -> None:
    assert scale_position(7.0, 7.0, 7.0, 41) == 20
    assert scale_position(7.0, 7.0, 7.0, 10) == 4
    assert scale_position(7.0, 7.0, 7.0, 1) == 0
    assert scale_position(0.5, 0.0, 1.0, 1) == 0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=10),
    st.integers(1, 80),
)
def test_scale_position_monotone(values: list[float], width: int) -> None:
    lo, hi = min(values), max(values)
    cells = [scale_position(v, lo, hi, width) for v in sorted(values)]
    assert cells == sorted(cells)
    assert all(0 <= c < width for c in cells)
    if lo < hi:
        assert cells[0] == 0 and cells[-1] == width - 1


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((1.0, 0.0, 1.0, 0), "width must be a positive integer, got 0"),
        ((1.0, 0.0, 1.0, 2.5), "width must be a positive integer, got 2.5"),
        ((1.0, 0.0, 1.0, True), "width must be a positive integer, got True"),
        ((1.0, 2.0, 1.0, 5), "lo must be <= hi, got lo = 2.0 and hi = 1.0"),
        ((1.0, float("nan"), 1.0, 5), "lo must be finite"),
        ((1.0, 0.0, float("inf"), 5), "hi must be finite"),
        ((float("nan"), 0.0, 1.0, 5), "x must be finite"),
    ],
)
def test_scale_position_rejects(args: tuple, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        scale_position(*args)


# --------------------------------------------------------------------------- seed000 style


def test_seed000_rdiv0_by_hand() -> None:
    # Axis [0.34, 9], width 11: cell = round((x - 0.34) / 8.66 * 10).
    # x1: min 0.34 -> 0, q1 0.4525 -> 0.13 -> 0, median 0.5 -> 0.18 -> 0, q3 0.5325 -> 0.22 -> 0.
    # x2: q1 6.75 -> 7.40 -> 7, median 7.5 -> 8.27 -> 8, q3 8.25 -> 9.13 -> 9.
    lines = quartile_chart(rdiv("rdiv0"), width=11, decimals=2)
    assert lines == [
        "x1, 0.34, 0.45, 0.50, 0.53, 0.60, [|          ]",
        "x2, 6.00, 6.75, 7.50, 8.25, 9.00, [       -|+ ]",
    ]


def test_seed000_rdiv3_by_hand() -> None:
    # x1 = x3 sorted: 99, 99.5, 100, 101, 101 -> q1 = 99.5, median 100, q3 101 (positions 1, 2, 3).
    # x2 = x4 sorted: 99, 100, 100, 101, 101 -> q1 = 100, median 100, q3 101.
    # Axis [99, 101], width 21: cell = (x - 99) * 10.
    lines = quartile_chart(rdiv("rdiv3"), width=21)
    one = "[     -----|++++++++++]"  # '-' cells 5..9, '|' 10, '+' 11..20
    two = "[          |++++++++++]"  # q1 = median: no '-'
    assert lines == [
        f"x1, 99.0, 99.5, 100.0, 101.0, 101.0, {one}",
        f"x2, 99.0, 100.0, 100.0, 101.0, 101.0, {two}",
        f"x3, 99.0, 99.5, 100.0, 101.0, 101.0, {one}",
        f"x4, 99.0, 100.0, 100.0, 101.0, 101.0, {two}",
    ]


def test_seed000_equal_values_map_to_middle() -> None:
    # rdiv5: every value is 11, so lo == hi; everything goes to cell (11 - 1) // 2 = 5.
    lines = quartile_chart(rdiv("rdiv5"), width=11)
    assert lines == [f"{t}, 11.0, 11.0, 11.0, 11.0, 11.0, [     |     ]" for t in ("x1", "x2", "x3")]


def test_seed000_text_matches_menzies_notes() -> None:
    # The "Overall" chart of Menzies' notes: "bc, 0.3, 2.7, 9.4, 13.4, 88.8, [- | ++++++ ]" (the
    # notes' bars lost their spaces, so only the numbers and the bar's alphabet can be compared).
    rows = {
        "bc": Quartiles(n=10, min=0.3, q1=2.7, median=9.4, q3=13.4, max=88.8, mean=20.0, sd=1.0),
        "fc": Quartiles(n=10, min=1.4, q1=12.2, median=25.5, q3=79.3, max=117.2, mean=40.0, sd=1.0),
    }
    # Axis [0.3, 117.2], width 30: cell = round((x - 0.3) / 116.9 * 29).
    # bc: q1 0.60 -> 1, median 2.26 -> 2, q3 3.25 -> 3; fc: q1 2.95 -> 3, median 6.25 -> 6, q3 19.60 -> 20.
    lines = quartile_chart(rows, width=30)
    assert lines == [
        "bc, 0.3, 2.7, 9.4, 13.4, 88.8, [" + " -|+" + " " * 26 + "]",
        "fc, 1.4, 12.2, 25.5, 79.3, 117.2, [" + "   ---|" + "+" * 14 + " " * 9 + "]",
    ]


def test_shared_axis() -> None:
    # Alone, x1 of rdiv0 spans the whole axis [0.34, 0.6]: q1 0.4525 -> 0.1125 / 0.26 * 10 = 4.33 -> 4,
    # median 0.5 -> 6.15 -> 6, q3 0.5325 -> 7.40 -> 7.
    data = rdiv("rdiv0")
    alone = quartile_chart({"x1": data["x1"]}, width=11, decimals=2)
    assert alone == ["x1, 0.34, 0.45, 0.50, 0.53, 0.60, [    --|+   ]"]
    together = quartile_chart(data, width=11, decimals=2)
    assert together[0] != alone[0]
    # An explicit axis [0, 10], width 11: cell = round_half_up(x). x1: q1 0.4525 -> 0,
    # median 0.5 -> 1, q3 0.5325 -> 1; x2: q1 6.75 -> 7, median 7.5 -> 8, q3 8.25 -> 8.
    lines = quartile_chart(data, width=11, lo=0, hi=10, decimals=2)
    assert lines[0].endswith("[-|         ]")
    assert lines[1].endswith("[       -|  ]")


def test_markup_like_names_kept_literally() -> None:
    name = "<b>j48</b> & [red]nb[/red], x"
    lines = quartile_chart({name: [1, 2, 3]}, width=5)
    assert lines == [f"{name}, 1.0, 1.5, 2.0, 2.5, 3.0, [ -|+ ]"]
    lines = quartile_chart({name: [1, 2, 3], "a": [1, 3]}, style="seed004", width=5)
    assert lines[1].startswith(f"{name},")
    assert lines[2].startswith(" " * (len(name) - 1) + "a,")


# --------------------------------------------------------------------------- seed004 style

HEADER_11 = "#rx, mean,   sd, n,  min,   q1,median,   q3,  max,..........."


def test_seed004_rdiv0_by_hand() -> None:
    # Same cells as test_seed000_rdiv0_by_hand; x2: min 6 -> 6.54 -> 7, max 9 -> 10.
    # x1: mean 0.485, sd 0.108; x2: mean 7.5, sd sqrt(5 / 3) = 1.29; 6.75 -> "6.8", 8.25 -> "8.2"
    # (Python formats exact halves to even).
    lines = quartile_chart(rdiv("rdiv0"), style="seed004", width=11)
    assert lines == [
        HEADER_11,
        " x1,  0.5,  0.1, 4,  0.3,  0.5,   0.5,  0.5,  0.6,|..........",
        " x2,  7.5,  1.3, 4,  6.0,  6.8,   7.5,  8.2,  9.0,.......*|**",
    ]


def test_seed004_rdiv6_by_hand() -> None:
    # Axis [11, 35], width 11: cell = (x - 11) / 2.4. x4 = 32..35: min 32 -> 8.75 -> 9,
    # q1 32.75 -> 9.06 -> 9, median 33.5 -> 9.38 -> 9, q3 34.25 -> 9.69 -> 10, max -> 10.
    lines = quartile_chart(rdiv("rdiv6"), style="seed004", width=11)
    assert lines == [
        HEADER_11,
        " x1, 11.0,  0.0, 3, 11.0, 11.0,  11.0, 11.0, 11.0,|..........",
        " x2, 11.0,  0.0, 3, 11.0, 11.0,  11.0, 11.0, 11.0,|..........",
        " x4, 33.5,  1.3, 4, 32.0, 32.8,  33.5, 34.2, 35.0,.........|*",
    ]


def test_seed004_equal_values_and_zero_marker() -> None:
    lines = quartile_chart(rdiv("rdiv5"), style="seed004", width=11)
    assert lines[0] == HEADER_11  # 0 is not in [11, 11]
    assert all(line.endswith(",.....|.....") for line in lines[1:])
    lines = quartile_chart({"a": [0.0, 0.0]}, style="seed004", width=11)
    assert lines[0].endswith(",.....0.....")
    # Axis [-1, 3], width 9: zero at (0 + 1) / 4 * 8 = 2.
    lines = quartile_chart({"a": [-1.0, 3.0]}, style="seed004", width=9)
    assert lines[0].endswith("max,..0......")
    lines = quartile_chart({"a": [-1.0, 3.0]}, style="seed004", width=9, lo=1)
    assert lines[0].endswith("max,.........")


def menzies_chart() -> list[str]:
    text = SEED004.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(text) if "#rx, mean" in line)
    return [line.replace("<pre><code>", "").replace("<br>", "") for line in text[start : start + 5]]


def test_seed004_style_on_menzies_printed_chart() -> None:
    """The chart of Menzies' lecture notes, from its printed numbers, on the axis [-21.7, 21.7] of 41 cells.

    The header and the two all-zero rows are reproduced exactly. The bars of
    oneR/cat and bayes/nbins are not: the notes' stars and medians do not sit
    where its printed min, q1, median, q3 and max fall on its own axis (oneR/cat's
    median 4.3 is right of the 0 mark at cell 24, the notes draw '|' at 21), so
    only their numbers are compared and the bars follow the documented rule.
    """
    seed = menzies_chart()
    rows = {
        "oneR/cat": Quartiles(n=54, min=-21.7, q1=-4.3, median=4.3, q3=6.2, max=8.7, mean=1.2, sd=8.0),
        "oneR/nbins": Quartiles(n=3, min=0.0, q1=0.0, median=0.0, q3=0.0, max=0.0, mean=0.0, sd=0.0),
        "bayes/cat": Quartiles(n=18, min=0.0, q1=0.0, median=0.0, q3=0.0, max=0.0, mean=0.0, sd=0.0),
        "bayes/nbins": Quartiles(n=54, min=-8.7, q1=-6.2, median=-4.9, q3=4.3, max=21.7, mean=-1.2, sd=8.0),
    }
    lines = quartile_chart(rows, style="seed004", width=41)
    assert lines[0] == seed[0]
    assert lines[2] == seed[2]
    assert lines[3] == seed[3]
    for ours, theirs in ((lines[1], seed[1]), (lines[4], seed[4])):
        assert ours[: ours.rindex(",") + 1] == theirs[: theirs.rindex(",") + 1]
    # cell = round((x + 21.7) / 43.4 * 40). oneR/cat: min 0, q1 16.04 -> 16, median 23.96 -> 24,
    # q3 25.71 -> 26, max 28.02 -> 28. bayes/nbins: min 11.98 -> 12, q1 14.29 -> 14,
    # median 15.48 -> 15, q3 23.96 -> 24, max 40.
    assert lines[1].endswith("," + "*" * 17 + "." * 7 + "|" + "." + "*" * 3 + "." * 12)
    assert lines[4].endswith("," + "." * 12 + "*" * 3 + "|" + "." * 8 + "*" * 17)


def test_negative_zero_printed_as_zero() -> None:
    # min -0.01 and q1 -0.005 print as "0.0", not "-0.0". Axis [-0.01, 0.01], width 3:
    # zero at 1; cells: min 0, q1 0.5 -> 1, median 1, q3 1.5 -> 2, max 2.
    lines = quartile_chart({"a": [-0.01, 0.01]}, style="seed004", width=3)
    assert lines == [
        "#rx, mean,   sd, n,  min,   q1,median,   q3,  max,.0.",
        "  a,  0.0,  0.0, 2,  0.0,  0.0,   0.0,  0.0,  0.0,*|*",
    ]


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"style": "seed003"}, "style must be one of 'seed000', 'seed004'; got 'seed003'"),
        ({"width": 0}, "width must be a positive integer, got 0"),
        ({"decimals": -1}, "decimals must be a non-negative integer, got -1"),
        ({"decimals": 1.5}, "decimals must be a non-negative integer, got 1.5"),
        ({"lo": 5.0}, "lo must be <= hi, got lo = 5.0 and hi = 3.0"),
        ({"hi": float("nan")}, "hi must be finite"),
    ],
)
def test_chart_rejects(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        quartile_chart({"a": [1.0, 2.0, 3.0]}, **kwargs)


def test_chart_rejects_rows() -> None:
    with pytest.raises(ValueError, match="rows must hold at least one row"):
        quartile_chart({})
    with pytest.raises(ValueError, match="rows must be a mapping name -> values or Quartiles, got list"):
        quartile_chart([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"rows\['b'\]: values must be finite"):
        quartile_chart({"a": [1.0], "b": [1.0, float("nan")]})
    with pytest.raises(ValueError, match=r"rows\['b'\]: values is empty"):
        quartile_chart({"a": [1.0], "b": []})


def test_app_chart_header_labels_sit_over_their_columns() -> None:
    """Each label of the app's chart header ends where its column's numbers end (right-aligned).

    Regression: the header had an empty label before "n", so every label stood one column to the
    left of its numbers and "max" stood over the bar.
    """
    from tui.model import Model, default_selection
    from tui.views.quartiles.lines import quartile_lines

    log = pd.DataFrame(
        {
            "dataset": ["d1"] * 4 + ["d2"] * 4,
            "repeat": 1,
            "fold": [1, 2] * 4,
            "learner": ["a_long_learner_name", "a_long_learner_name", "b", "b"] * 2,
            "criterion": "acc",
            "value": [0.5, 0.7, 0.2, 0.3, 0.9, 0.8, 0.1, 0.4],
        }
    )
    analysis = Model(log).analyze(default_selection(log))
    texts = quartile_lines(analysis.quartiles).texts
    header_at = [i for i, t in enumerate(texts) if t.startswith("SK learner ")]  # SK: Scott-Knott rank
    assert len(header_at) == 3  # overall, d1, d2
    for h in header_at:
        header, row = texts[h], texts[h + 1]
        ends = {"SK": 2}
        for label in ("n", "min", "q1", "median", "q3", "max"):
            start = header.index(f" {label} " if label != "max" else " max") + 1
            ends[label] = start + len(label)
        cells = row.split("[")[0].split()  # rank, name, n, min, q1, median, q3, max
        assert row.index(cells[0]) + len(cells[0]) == ends["SK"]  # the rank right-aligned under SK
        assert row.index(cells[1]) == header.index("learner")  # the name left-aligned under learner
        pos = row.index(cells[1]) + len(cells[1])
        for label, cell in zip(("n", "min", "q1", "median", "q3", "max"), cells[2:]):
            pos = row.index(cell, pos) + len(cell)
            assert ends[label] == pos, (label, header, row)
        assert row[ends["max"] :].lstrip().startswith("[")  # the bar after max, unlabelled


def _wide_view():  # noqa: ANN202
    from tui.model._types import QuartileRow, QuartilesView

    learners = ["a_learner_with_a_rather_long_name_indeed", "b", "c"]
    rows = []
    for scope in ("overall", "d1", "d2"):
        for i, learner in enumerate(learners):
            rows.append(QuartileRow(scope, learner, 100, 0.1 * i, 0.2 + 0.1 * i, 0.3 + 0.1 * i, 0.4 + 0.1 * i, 0.9))
    return QuartilesView(
        criterion="acc",
        higher_is_better=True,
        rows=tuple(rows),
        scopes=("overall", "d1", "d2"),
        tau={"d1": -0.5, "d2": 1.0},
        flagged=("d1",),
        warning="1 of 2 data sets order the learners against the overall chart (Kendall tau < 0): "
        "the overall ranking hides them",
        lo=0.0,
        hi=0.9,
        control_median={"overall": 0.4, "d1": 0.4, "d2": 0.4},
    )


@pytest.mark.parametrize("width", [60, 64, 80, 100, 140])
def test_app_chart_fits_the_width_it_is_given(width: int) -> None:
    from tui.views.quartiles.lines import MAX_BAR, MIN_BAR, quartile_lines

    lines = quartile_lines(_wide_view(), width)
    assert lines.fit == width and max(lines.widths) <= width
    bars = [t[t.index("[") : t.index("]") + 1] for t in lines.texts if "[" in t]
    assert len(bars) == 9 and len({len(b) for b in bars}) == 1  # one shared axis
    assert MIN_BAR + 2 <= len(bars[0]) <= MAX_BAR + 2
    assert any("hides them" in t for t in lines.texts)  # the warning wrapped, not cut
    cut = [t for t in lines.texts if t.startswith("a_") and t.split()[0].endswith("indeed")]  # cut in the middle
    assert cut and (width >= 100 or all("\N{HORIZONTAL ELLIPSIS}" in t for t in cut))


def test_app_chart_without_a_width_keeps_the_nominal_bar_and_whole_names() -> None:
    from tui.views.quartiles.lines import BAR, quartile_lines

    lines = quartile_lines(_wide_view())
    assert lines.fit is None
    assert any(t.startswith("a_learner_with_a_rather_long_name_indeed ") for t in lines.texts)
    assert all(len(t[t.index("[") : t.index("]") + 1]) == BAR + 2 for t in lines.texts if "[" in t)


@pytest.mark.parametrize("width", [None, 64, 120])
def test_lazy_chart_lines_equal_the_whole_view_made_at_once(width: int | None) -> None:
    from tui.views.quartiles.lines import QuartileLines, quartile_runs

    view = _wide_view()
    lines = QuartileLines(view, width)
    eager = ["".join(t for t, _ in line) for line in quartile_runs(view, width)] + [""]
    assert lines.strip(len(lines) - 2).text == eager[-2]  # a line of the last chart, made alone...
    assert len(lines._built) == 1  # ...makes that chart only
    assert list(lines.texts) == eager and len(lines) == len(eager)
    assert lines.width >= max(lines.widths) and (width is None or lines.width <= width)


def test_number_column_widths_without_formatting_every_number() -> None:
    from tui.model._types import QuartileRow
    from tui.views.quartiles.lines import _number_widths, _numbers

    rng = np.random.default_rng(11)
    for scale in (1.0, 1e-4, 1e7, 250.0):
        values = rng.normal(0, scale, (200, 5))
        values[3, 2] = np.nan
        values[4, 0] = 0.0
        rows = [QuartileRow("s", "x", int(n), *map(float, v)) for n, v in zip(rng.integers(1, 5000, 200), values)]
        expected = [max(len(_numbers(r)[i]) for r in rows) for i in range(6)]
        assert _number_widths(rows) == expected, scale


@pytest.mark.parametrize("width", [None, 80, 120])
def test_the_app_places_values_on_the_bar_as_the_reports_do(width: int | None) -> None:
    """One mapping from value to cell (stats.scale_position, half up) for the screen and the
    reports; the app's chart rounded half to even and put 6 of these 121 medians a cell apart,
    and drew a constant axis at cell 0 instead of the middle."""
    from tui.model._types import QuartileRow, QuartilesView
    from tui.views.quartiles.lines import quartile_runs

    def view(values: list[float], lo: float, hi: float) -> QuartilesView:
        rows = tuple(QuartileRow("overall", f"l{i:03d}", 1, v, v, v, v, v) for i, v in enumerate(values))
        return QuartilesView("accuracy", True, rows, ("overall",), {}, (), None, lo, hi, {})

    def medians(v: QuartilesView) -> tuple[list[int], int]:
        bars = [
            "".join(t for t, _ in line)
            for line in quartile_runs(v, width)
            if line and "[" in "".join(t for t, _ in line)
        ]
        bars = [b[b.rindex("[") :] for b in bars if b.rstrip().endswith("]")]
        return [b.index("|") - 1 for b in bars], len(bars[0]) - 2

    values = [i / 120 for i in range(121)]
    cells, size = medians(view(values, 0.0, 1.0))
    assert cells == [scale_position(v, 0.0, 1.0, size) for v in values]
    (middle,), size = medians(view([0.5], 0.5, 0.5))
    assert middle == (size - 1) // 2


def test_runtimes_in_one_chart_print_with_one_number_of_decimals() -> None:
    """Issue 11 item 7: runtimes of 0.0004 to 0.014 s printed ``0.000445`` (3 significant digits)
    beside ``0.0011`` (2) in the app and ``0.0004`` (1) in the reports; now one rule for the chart:
    as many decimals as keep 2 significant digits of the smallest, here 5, in both."""
    from tui.formats.text import value_decimals
    from tui.views.quartiles.lines import _num3

    d = value_decimals(0.014, 0.000445)
    assert d == 5
    shown = [_num3(x, d) for x in (0.000446, 0.0011, 0.0140)]
    assert shown == ["0.00045", "0.00110", "0.01400"]  # f"{x:.5f}", every one
    assert value_decimals(0.97, 0.0043) == 3  # rates in [0, 1] keep the three decimals of Menzies' notes


def test_runtime_charts_of_the_sample_logs_fit_the_pane_at_80_columns() -> None:
    """Issue 11 item 4: with runtime (numbers 7 characters wide) the chart at 80x24 (61 cells
    left beside the collapsed sidebar) ran off the right edge, bar and all (`[|-`, no `]`):
    names cut to 6 characters and a 4-cell bar now keep every number and the whole bar."""
    from dataclasses import replace

    import stats
    from tests.conftest import SAMPLES
    from tui.model import Model, default_selection
    from tui.views.quartiles.lines import quartile_lines

    log = stats.read_logs(SAMPLES / "cv")
    view = Model(log).analyze(replace(default_selection(log), criterion="runtime", higher_is_better=False)).quartiles
    lines = quartile_lines(view, 61)
    assert max(lines.widths) <= 61
    charted = [t for t in lines.texts if "[" in t and " 250 " in t]
    assert len(charted) == 5 and all(t.rstrip().endswith("]") for t in charted)
