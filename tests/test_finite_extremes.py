"""Finite extremes (issue 30, item 7): every value ``check`` accepts gives finite statistics.

Before: +-1e308 passed ``rankboard check``, then a cell's mean (a sum), a median of two middle
values, a paired difference or a sum of squares overflowed to infinity: ``report`` printed "mean
must be finite, got inf" and exited 2 (csv), "Invalid literal for Fraction: '-inf'" in the folds
view. And 1e100 was no safer: the normality test raises differences to the fourth power (1e400).
Now a value beyond 1e50 in magnitude is a problem line (``value '1e308' is out of range``), named
alike by ``check``, ``report``, the app and :func:`stats.read_logs`, for text, gzip, wide and
Parquet logs; the limit itself (written ``1e50``) is read, and gives finite statistics in every
view and every format.
"""

from __future__ import annotations

import gzip
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import stats
from tests.test_app import make_app, settle
from tui.cli import main
from tui.widgets._problems import ProblemsPanel

#: The values refused, as written: the issue's, and the smallest decimals past the limit (the
#: first reads as the double 1e50 itself: its decimal decides).
REFUSED = ["1e308", "-1e308", "1e300", "-1e100", "1.0000000000000001e50", "-1.00000000000001e50"]
#: The limit itself, written three ways, and values near it: read.
BOUNDARY = ["1e50", "-1e50", "1" + "0" * 50, "5e49", "-3e49", "7.5e49", "-1e49", "0.5", "0.25"]


def reason(text: str, label: str = "value") -> str:
    return f"{label} {text!r} is out of range: a result is at most 1e50 in magnitude"


def extreme_log(path: Path) -> list[str]:
    """A sequence study (3 learners, 10 data sets, 3 repeats x 3 test buckets, a ``train`` line
    per unit: every view has something to show) whose values sit at the limit, with the refused
    values on lines of their own. Returns the problems ``check`` must name."""
    rng = np.random.default_rng(30)
    lines = []
    for d in range(10):
        for r in (1, 2, 3):
            for f, size in ((2, 10), (3, 20), (4, 30)):
                for learner in ("x", "y", "z"):
                    lines.append(f"d{d},{r},{f},{learner},acc,{rng.choice(BOUNDARY)}")
                    lines.append(f"d{d},{r},{f},{learner},train,{size}")
    numbers = []
    for i, text in enumerate(REFUSED):  # repeat 4: a unit of its own, not a duplicate
        lines.insert(5 + 7 * i, f"d{i},4,2,x,acc,{text}")
        numbers.append(6 + 7 * i)
    path.write_text("\n".join(lines) + "\n")
    return [f"{path}:{n}: {reason(text)}" for n, text in zip(numbers, REFUSED)]


def checked(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["check", str(path)]) == 1
    return capsys.readouterr().out.split("\n\n", 1)[0].splitlines()


@pytest.fixture
def log(tmp_path: Path) -> tuple[Path, list[str]]:
    path = tmp_path / "extremes.dat"
    return path, extreme_log(path)


def test_check_and_the_reader_refuse_values_past_the_limit(
    log: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, problems = log
    assert checked(path, capsys) == problems
    read = stats.read_logs(path, on_error="skip")
    assert [str(p) for p in read.problems] == problems
    acc = read[read["criterion"] == "acc"]["value"]
    assert acc.abs().max() == 1e50 and len(acc) == 270  # the limit is read, the rest refused
    with pytest.raises(stats.LogError, match=re.escape(problems[0])):
        stats.read_logs(path)


CASES = {
    "fast": "{d},1,{f},nb,acc,{v}\n",  # pyarrow's float64 column: the rows past the limit judged
    "quoted": '"{d}",1,{f},nb,acc,"{v}"\n',  # quotes: another pyarrow mode
    "careful": "{d},1,{f},nb,acc,{v}\n",  # a NUL line in the block: every column a dictionary
    "wide": "{d},nb,1,{f},{v},0.5\n",
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("compressed", [False, True])
def test_every_way_of_reading_a_text_log_refuses_them(tmp_path: Path, case: str, compressed: bool) -> None:
    values = [*REFUSED, *BOUNDARY]
    lines = [CASES[case].format(d=f"d{i}", f=i + 1, v=v) for i, v in enumerate(values)]
    if case == "careful":
        lines.append("d\x00,1,1,nb,acc,0.5\n")
    if case == "wide":
        lines.insert(0, "#data, learner, repeats, bin, acc, pd\n")
    text = "".join(lines).encode()
    path = tmp_path / ("log.dat.gz" if compressed else "log.dat")
    path.write_bytes(gzip.compress(text) if compressed else text)
    read = stats.read_logs(path, on_error="skip")
    first, label = (2, "acc") if case == "wide" else (1, "value")  # the wide format names the column
    want = [f"{path}:{first + i}: {reason(v, label)}" for i, v in enumerate(REFUSED)]
    assert [str(p) for p in read.problems][: len(REFUSED)] == want
    kept = read[read["criterion"] == "acc"]["value"].tolist()
    assert kept == [float(v) for v in BOUNDARY]


def test_a_parquet_log_refuses_them(tmp_path: Path) -> None:
    values = [1e308, -1e308, 1e300, -1e100, np.nextafter(1e50, np.inf), 1e50, -1e50, 0.5]
    n = len(values)
    table = pa.table(
        {
            "dataset": [f"d{i}" for i in range(n)],
            "repeat": [1] * n,
            "fold": list(range(1, n + 1)),
            "learner": ["nb"] * n,
            "criterion": ["acc"] * n,
            "value": values,
        }
    )
    path = tmp_path / "log.parquet"
    pq.write_table(table, path)
    read = stats.read_logs(path, on_error="skip")
    assert [p.line for p in read.problems] == [1, 2, 3, 4, 5]  # each row past the limit, by number
    assert all(p.reason.endswith("is out of range: a result is at most 1e50 in magnitude") for p in read.problems)
    assert read["value"].tolist() == [1e50, -1e50, 0.5]


def _finite_json(text: str) -> None:
    def refuse(constant: str) -> float:
        raise AssertionError(f"{constant} in the JSON report")

    json.loads(text, parse_constant=refuse)


NOT_FINITE = re.compile(r"\b(?:inf|infinity|nan)\b", re.IGNORECASE)
FIGURES = ("quartiles", "cd", "folds", "curves")
RUNS = [
    *(("all", fmt) for fmt in ("text", "markdown", "latex", "json")),  # every view, in one report
    *((view, "csv") for view in ("quartiles", "ranks", "tests", "pairs", "cd", "folds", "curves")),
    *((view, fmt) for view in FIGURES for fmt in ("svg", "pdf", "png")),
]


@pytest.mark.parametrize(("view", "fmt"), RUNS)
def test_report_is_finite_in_every_view_and_format(
    log: tuple[Path, list[str]], tmp_path: Path, view: str, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, problems = log
    target = tmp_path / f"report.{fmt}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["report", str(path), "--view", view, "--format", fmt, "-o", str(target)]) == 0
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith(f"{path}:")] == problems
    overflow = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert not overflow  # no overflow, no invalid value (inf - inf) on the way
    if fmt in ("svg", "pdf", "png"):
        assert target.stat().st_size > 0
        return
    text = target.read_text(encoding="utf-8")
    if fmt == "json":
        _finite_json(text)
    assert not NOT_FINITE.findall(text)
    assert "must be finite" not in text and "not tested" not in text


async def test_the_app_names_them_and_tests_the_rest(log: tuple[Path, list[str]]) -> None:
    path, problems = log
    app = make_app([str(path)])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert list(app.query_one(ProblemsPanel).problems) == problems
        analysis = app.analysis
        assert analysis is not None and analysis.problem is None  # before: "mean must be finite, got inf"
        for view in ("quartiles", "ranks", "tests", "pairs", "cd", "folds"):
            assert getattr(analysis, view) is not None, view
        assert analysis.problem is None
        medians = analysis.ranks.medians.to_numpy(dtype=float)  # type: ignore[union-attr]
        assert np.isfinite(medians).all() and np.abs(medians).max() <= 1e50


@pytest.mark.parametrize("make", ["aggregate", "scores_table", "Aggregator"])
def test_a_log_given_as_a_dataframe_is_held_to_the_same_limit(make: str) -> None:
    # the readers refuse 1e51; a DataFrame handed to stats straight must be refused too, not
    # overflow in the statistics (the limit itself is taken, as in a log)
    rows = [("d1", 1, 1, "a", "acc", 0.5), ("d1", 1, 1, "b", "acc", -1e51), ("d2", 1, 1, "a", "acc", 1e50)]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    build = {
        "aggregate": stats.aggregate,
        "scores_table": lambda x: stats.scores_table(x, "acc"),
        "Aggregator": stats.Aggregator,
    }[make]
    with pytest.raises(ValueError, match=r"at most 1e50 in magnitude.*-1e\+51 \(row 1"):
        build(log)
    assert stats.aggregate(log.drop(index=1))["max"].max() == 1e50
