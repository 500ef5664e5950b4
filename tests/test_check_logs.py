"""``rankboard check`` without pandas (issue 17): :func:`stats.check_logs` reads the readers'
columns and counts the cells in numpy (:class:`stats.cells.CellCounts`). It must say exactly what
``completeness(read_logs(..., on_error="skip"))`` says, with the same problems, on every kind of log."""

from __future__ import annotations

import collections
import gzip
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats import check_logs, completeness, read_logs
from stats.cells._cell_counts import modal_by, summary_text
from tests.conftest import SAMPLES

ROOT = Path(__file__).resolve().parents[1]


def assert_same(*paths: Path | str) -> None:
    found = check_logs(*paths)
    log = read_logs(*paths, on_error="skip")
    assert found.problems == log.problems and found.files == log.files
    if len(log):
        for max_lines in (3, 20):
            assert found.summary(max_lines) == completeness(log).summary(max_lines)
    else:
        assert found.counts is None and found.summary() is None


@pytest.mark.parametrize("name", ["c45_demsar.dat", "wide_sonar.dat", "cv", "regression", "sequence"], ids=str)
def test_the_bundled_logs_read_the_same(name: str) -> None:
    assert_same(SAMPLES / name)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_a_ragged_log_with_errors_duplicates_and_missing_results(tmp_path: Path) -> None:
    lines = [
        f"d{d},{r},{f},l{lrn},{c},0.{d}{r}{f}"
        for d in range(4)
        for r in (1, 2)
        for f in (1, 2, 3)
        for lrn in range(3)
        for c in ("pd", "pf")
    ]
    lines = [x for x in lines if not (x.startswith("d1,2,") and ",l2," in x)]  # an incomplete cell
    lines = [x for x in lines if not (x.startswith("d3,") and ",l1,pf," in x)]  # a missing cell
    lines += ["d0,1,1,l0,pd,0.5", "garbage line", "d2,1,1,l0,pd,nan", "d9,x,1,l0,pd,0.1"]  # a rerun, errors
    assert_same(_write(tmp_path / "ragged.dat", lines))


def test_several_files_gzip_parquet_and_an_empty_one(tmp_path: Path) -> None:
    text = (SAMPLES / "cv" / "iris.dat").read_bytes()
    (tmp_path / "iris.dat.gz").write_bytes(gzip.compress(text))
    pq.write_table(
        pa.Table.from_pandas(read_logs(SAMPLES / "cv" / "wine.dat").table, preserve_index=False),
        tmp_path / "wine.parquet",
    )
    (tmp_path / "empty.dat").write_bytes(b"")
    assert_same(
        tmp_path / "iris.dat.gz", tmp_path / "wine.parquet", tmp_path / "empty.dat", SAMPLES / "cv" / "fair.dat"
    )
    assert_same(tmp_path / "empty.dat")
    assert_same(tmp_path / "no such file.dat")


def test_a_design_tie_is_the_first_pair_s_and_stated_as_such() -> None:
    """Two designs as frequent as each other: the first seen (in data set x learner order) is the
    usual one, the other listed. (``value_counts`` left such ties to its sort.)"""
    text = summary_text(
        criteria=["pd"],
        datasets=["a", "b"],
        learners=["x"],
        lines=6,
        file_lines=None,
        pair_text=["1 x 2", "2 x 2"],
        short=[],
        n_missing=0,
    )
    assert "repeats x folds: 1 x 2 for 1 of 2 data set x learner pairs; otherwise:\n  b / x: 2 x 2" in text


def test_modal_by_is_the_mode_with_ties_to_the_larger() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        n_groups = int(rng.integers(1, 6))
        group = rng.integers(0, n_groups, int(rng.integers(0, 30)))
        n = rng.integers(1, 5, len(group))
        want = np.zeros(n_groups, np.int64)
        for g in range(n_groups):
            tally = collections.Counter(n[group == g].tolist())
            if tally:
                want[g] = max(tally, key=lambda v: (tally[v], v))
        assert modal_by(group, n, n_groups).tolist() == want.tolist()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.sampled_from(["pd", "pf"])
        ),
        min_size=1,
        max_size=60,
    )
)
def test_random_logs_read_the_same(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[int, int, int, int, str]]
) -> None:
    path = tmp_path_factory.mktemp("random") / "log.dat"
    assert_same(_write(path, [f"d{d},{r},{f},l{lrn},{c},0.5" for d, r, f, lrn, c in rows]))


def test_rankboard_check_prints_what_it_did_with_pandas() -> None:
    """The command's output is the text of ``completeness(read_logs(...)).summary()``."""
    log = read_logs(SAMPLES / "cv", on_error="skip")
    run = subprocess.run(
        [sys.executable, "-m", "tui", "check", str(SAMPLES / "cv")], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0 and completeness(log).summary() in run.stdout
