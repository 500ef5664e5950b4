"""``rankboard aggregate LOGS --engine duckdb|dask|spark -o medians.parquet`` (issue 33, items 2-4):
the grouped median handed to an engine gives, opened by ``rankboard report``, the ranks, tests,
pairs and CD views of the whole logs, byte for byte; the order of first appearance is kept; the
medians are exact where approximate methods differ; a missing engine, an existing output and a
bad line are said.

Dask runs on a ``distributed.LocalCluster`` of 2 workers of 1 thread each, in this process
(``processes=False``: no worker processes to spawn and wait for on a busy 2-core machine; the
scheduler and the workers still exchange the tasks and results over ``distributed``'s comms).
Spark runs where pyspark and Java are installed (a local session of 2 threads, ~15-30 s to start:
its tests are ``slow``).
"""

from __future__ import annotations

import gzip
import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from tui.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

#: The views whose numbers come from the medians alone (README: the folds, quartiles and curves need the folds).
VIEWS = ("ranks", "tests", "pairs", "cd")


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


SPARK_NEEDS = (
    "needs pyspark (pip install 'rankboard[spark]') and Java 17 or newer on the PATH (a JRE, e.g. default-jre-headless)"
)
ENGINES = [
    "duckdb",
    pytest.param(
        "dask",
        marks=pytest.mark.skipif(
            not (installed("dask") and installed("distributed")),
            reason="needs dask[dataframe] and distributed (pip install 'rankboard[dask]')",
        ),
    ),
    pytest.param(
        "spark",
        marks=[
            pytest.mark.slow,
            pytest.mark.skipif(not (installed("pyspark") and shutil.which("java")), reason=SPARK_NEEDS),
        ],
    ),
]


@pytest.fixture(scope="module")
def dask_cluster():
    """A local distributed cluster of 2 single-threaded workers, closed after the module."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=50
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def spark_session():
    """A local Spark session of 2 threads (aggregate uses the active session), stopped after the module."""
    sql = pytest.importorskip("pyspark.sql")
    session = (
        sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture
def engine_args(request: pytest.FixtureRequest):
    """``--engine NAME`` and what the engine needs here (the cluster's address, the session)."""

    def args(engine: str) -> list[str]:
        if engine == "dask":
            return ["--engine", "dask", "--scheduler", request.getfixturevalue("dask_cluster")]
        if engine == "spark":
            request.getfixturevalue("spark_session")
        return ["--engine", engine]

    return args


def aggregate(capsys: pytest.CaptureFixture[str], args: list[str], *paths: Path | str) -> tuple[int, str]:
    code = main(["aggregate", *map(str, paths), *args])
    return code, capsys.readouterr().err


def report(capsys: pytest.CaptureFixture[str], logs: Path | list[Path], view: str, criterion: str) -> str:
    """``rankboard report --format json --view VIEW``'s text, the line naming the source left out."""
    paths = [str(p) for p in (logs if isinstance(logs, list) else [logs])]
    assert main(["report", *paths, "--format", "json", "--view", view, "--criterion", criterion]) == 0
    text = capsys.readouterr().out
    return "\n".join(line for line in text.splitlines() if not line.startswith('  "source": '))


def same_reports(capsys, logs, medians: Path, criteria: tuple[str, ...]) -> None:
    for criterion in criteria:
        for view in VIEWS:
            assert report(capsys, medians, view, criterion) == report(capsys, logs, view, criterion), (view, criterion)


def column(path: Path, name: str) -> list:
    return pq.read_table(path).column(name).to_pylist()


def first_seen(values: list) -> list:
    return list(dict.fromkeys(values))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_medians_give_the_same_report_on_the_sample_logs(tmp_path, capsys, engine_args, engine) -> None:
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], SAMPLES / "cv")
    assert code == 0, err
    assert f"wrote {out}" in err and "250 medians" in err
    assert pq.read_table(out).num_rows == 250  # 10 data sets x 5 learners x 5 criteria, 1 x 1 each
    assert set(column(out, "repeat")) == {1} and set(column(out, "fold")) == {1}
    same_reports(capsys, SAMPLES / "cv", out, ("pd", "pf", "runtime"))  # higher, lower, tiny values


@pytest.mark.parametrize("engine", ENGINES)
def test_a_long_parquet_table_is_read_too(tmp_path, capsys, engine_args, engine) -> None:
    table = tmp_path / "cv.parquet"
    assert main(["convert", str(SAMPLES / "cv"), "-o", str(table)]) == 0
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], table)
    assert code == 0, err
    same_reports(capsys, SAMPLES / "cv", out, ("accuracy",))


def test_a_directory_of_part_files_is_read_with_its_bookkeeping_skipped(tmp_path, capsys) -> None:
    # a Spark-style output directory (part files, _SUCCESS, .crc) given as the engine's input
    import pyarrow.parquet as pq

    table = tmp_path / "cv.parquet"
    assert main(["convert", str(SAMPLES / "cv"), "-o", str(table)]) == 0
    whole = pq.read_table(table)
    parts = tmp_path / "results"
    parts.mkdir()
    half = whole.num_rows // 2
    pq.write_table(whole.slice(0, half), parts / "part-00000-a.c000.snappy.parquet")
    pq.write_table(whole.slice(half), parts / "part-00001-a.c000.snappy.parquet")
    (parts / "_SUCCESS").write_bytes(b"")
    (parts / ".part-00000-a.c000.snappy.parquet.crc").write_bytes(b"not parquet")
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(out)], parts)
    assert code == 0, err
    same_reports(capsys, SAMPLES / "cv", out, ("accuracy",))


ORDER_A = """\
zeta,1,1,B,acc,0.5
alpha,1,1,A,acc,0.25
zeta,1,1,A,acc,0.125
alpha,1,1,B,acc,0.75
"""
# A rerun of zeta/B in the second file (it replaces the first line, which put zeta and B first),
# and a new data set "mid" and learner "C".
ORDER_B = """\
mid,1,1,C,acc,0.5
zeta,1,1,B,acc,0.875
mid,1,1,A,acc,0.5
mid,1,1,B,acc,0.5
zeta,1,1,C,acc,0.5
alpha,1,1,C,acc,0.5
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_the_order_of_first_appearance_is_kept(tmp_path, capsys, engine_args, engine) -> None:
    a, b = tmp_path / "z_first.dat", tmp_path / "a_second.dat"  # given in this order, not sorted
    a.write_text(ORDER_A)
    b.write_text(ORDER_B)
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], a, b)
    assert code == 0, err
    assert first_seen(column(out, "dataset")) == ["zeta", "alpha", "mid"]
    assert first_seen(column(out, "learner")) == ["B", "A", "C"]
    rows = dict(zip(zip(column(out, "dataset"), column(out, "learner")), column(out, "value")))
    assert rows[("zeta", "B")] == 0.875  # the rerun's value: the later line wins
    same_reports(capsys, [a, b], out, ("acc",))


# One cell of 4 values: an approximate median that returns one of the values (Spark's
# percentile_approx, Dask's median_approximate) gives 2.0, the exact one 2.5. One of 2001 random
# values: DuckDB's approx_quantile (a t-digest) is off by 1.4e-3. One pair where a + (b - a) / 2
# differs from numpy's b - (b - a) / 2 in the last bit.
PAIR = (261.6121342493164, 12995.443194323725)
EXACT = {"four": 2.5, "pair": 6628.527664286521}


def exactness_log(path: Path) -> np.ndarray:
    rng = np.random.default_rng(5)
    many = rng.random(2001)
    lines = [f"four,1,{i + 1},L,acc,{v!r}" for i, v in enumerate([1.0, 2.0, 3.0, 1000.0])]
    lines += [f"many,1,{i + 1},L,acc,{v!r}" for i, v in enumerate(many.tolist())]
    lines += [f"pair,1,{i + 1},L,acc,{v!r}" for i, v in enumerate(PAIR)]
    path.write_text("\n".join(lines) + "\n")
    return many


def approximate_median(engine: str, values: list[float], request: pytest.FixtureRequest) -> float:
    """The engine's own approximate median of ``values`` (what aggregate must not compute)."""
    if engine == "duckdb":
        import duckdb

        query = "SELECT approx_quantile(v, 0.5) FROM (SELECT unnest($v) AS v)"
        return duckdb.connect().execute(query, {"v": values}).fetchone()[0]
    if engine == "dask":
        import dask.dataframe as dd
        import pandas as pd

        return float(dd.from_pandas(pd.Series(values), npartitions=2).median_approximate().compute())
    spark = request.getfixturevalue("spark_session")
    return spark.createDataFrame([(v,) for v in values], "v double").selectExpr("percentile_approx(v, 0.5)").first()[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_medians_are_exact(tmp_path, capsys, engine_args, request, engine) -> None:
    log = tmp_path / "exact.dat"
    many = exactness_log(log)
    exact = {**EXACT, "many": float(np.median(many))}
    assert exact["pair"] == float(np.median(PAIR)) and PAIR[0] + (PAIR[1] - PAIR[0]) / 2 != exact["pair"]
    target = {
        "duckdb": ("many", many.tolist()),
        "dask": ("four", [1.0, 2.0, 3.0, 1000.0]),
        "spark": ("four", [1.0, 2.0, 3.0, 1000.0]),
    }[engine]
    assert approximate_median(engine, target[1], request) != exact[target[0]]  # the data tells them apart
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], log)
    assert code == 0, err
    assert dict(zip(column(out, "dataset"), column(out, "value"))) == exact


BAD = """\
iris,1,1,nb,acc,0.5

iris,1,x,nb,acc,0.5
iris,1,2,nb,acc,nan
iris,1,3,nb,acc
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_line_fails_the_engine_naming_it(tmp_path, capsys, engine_args, engine) -> None:
    good, bad = tmp_path / "good.dat", tmp_path / "bad.dat"
    good.write_text("iris,1,1,nb,acc,0.5\n")
    bad.write_text(BAD)
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], good, bad)
    assert code == 1 and not out.exists()
    assert f"{bad}:3: repeat or fold is not a whole number" in err  # the blank line 2 counts
    assert f"{bad}:4: value is not a number" in err and f"{bad}:5: expected 6 fields" in err
    assert "3 line(s)" in err and f"rankboard check {bad}" in err
    assert str(good) + ":" not in err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('iris,1,1,"nb, gaussian",acc,0.5\n', "a quote"),  # rankboard reads it; the engines refuse it
        ("iris,1,1,nb\u00a0,acc,0.5\n", "white space other than spaces"),  # rankboard strips the no-break space
        ("iris,1,1,nb,acc,1e-400\n", "too small for a double"),
        ("iris,1,1,nb,acc,1e60\n", "1e50 or more"),
        ("iris,1,1,nb,acc,0.5\r\niris,1,2,nb,acc,0.5\rx\n", "carriage return"),
    ],
)
def test_lines_rankboard_reads_otherwise_are_refused_not_misread(tmp_path, capsys, text, said) -> None:
    log = tmp_path / "log.dat"
    log.write_bytes(text.encode("utf-8"))
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(out)], log)
    assert code == 1 and not out.exists()
    assert str(log) in err and said in err


def test_a_crlf_log_is_read(tmp_path, capsys) -> None:
    log = tmp_path / "crlf.dat"
    log.write_bytes(b"iris,1,1,nb,acc,0.5\r\niris,1,2,nb,acc,0.25\r\n")
    out = tmp_path / "medians.parquet"
    assert aggregate(capsys, ["--engine", "duckdb", "-o", str(out)], log)[0] == 0
    assert column(out, "value") == [0.375]


def test_a_wide_log_is_refused_with_the_way_out(tmp_path, capsys) -> None:
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(out)], SAMPLES / "wide_sonar.dat")
    assert code == 1 and not out.exists()
    assert "wide-format" in err and "rankboard convert" in err


@pytest.mark.parametrize(("engine", "module"), [("dask", "dask.dataframe"), ("spark", "pyspark"), ("duckdb", "duckdb")])
def test_a_missing_engine_is_said_with_what_to_install(tmp_path, capsys, monkeypatch, engine, module) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, ["--engine", engine, "-o", str(out)], SAMPLES / "cv")
    assert code == 1 and not out.exists()
    assert f'pip install "rankboard[{engine}]"' in err and "not installed" in err


def test_an_existing_output_is_refused_without_force(tmp_path, capsys) -> None:
    out = tmp_path / "medians.parquet"
    out.write_text("keep me")
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(out)], SAMPLES / "cv")
    assert code == 1 and "not overwritten (--force replaces it)" in err
    assert out.read_text() == "keep me"
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(out), "--force"], SAMPLES / "cv")
    assert code == 0 and f"replaced {out}" in err
    assert pq.read_table(out).num_rows == 250
    assert [p.name for p in tmp_path.iterdir()] == ["medians.parquet"]  # no temporary file left


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--engine", "duckdb", "--scheduler", "tcp://x:8786"], "--scheduler"),
        (["--engine", "dask", "--master", "local[2]"], "--master"),
    ],
)
def test_an_option_of_another_engine_is_refused(tmp_path, capsys, args, said) -> None:
    code, err = aggregate(capsys, [*args, "-o", str(tmp_path / "m.parquet")], SAMPLES / "cv")
    assert code == 2 and said in err


# ---------------------------------------------------------------- a million lines
DATASETS, LEARNERS, REPEATS, FOLDS, CRITERIA = 250, 20, 10, 10, ("acc", "runtime")  # 1,000,000 lines


def million_lines(folder: Path) -> list[Path]:
    """1,000,000 results in 4 files (text, gzip, CRLF text, text), data sets and learners named
    out of order and values at full precision; then 10,000 reruns of earlier keys (the later
    line wins, the earlier one still set the names' order)."""
    rng = np.random.default_rng(33)
    folder.mkdir()
    order = rng.permutation(DATASETS)
    values = rng.random((DATASETS, REPEATS, FOLDS, LEARNERS, len(CRITERIA)))
    values[..., 1] = rng.exponential(0.05, values.shape[:-1])
    values = values.tolist()  # Python floats: repr is the shortest text that reads back the same
    lines = [
        f"d{order[d]:03d},{r + 1},{f + 1},learner_{(7 * l) % LEARNERS},{c},{values[d][r][f][l][i]!r}\n"
        for d in range(DATASETS)
        for r in range(REPEATS)
        for f in range(FOLDS)
        for l in range(LEARNERS)  # noqa: E741
        for i, c in enumerate(CRITERIA)
    ]
    quarter = len(lines) // 4
    paths = [folder / "part0.dat", folder / "part1.dat.gz", folder / "part2.dat", folder / "part3.dat"]
    paths[0].write_text("".join(lines[:quarter]))
    with gzip.open(paths[1], "wt") as handle:
        handle.write("".join(lines[quarter : 2 * quarter]))
    paths[2].write_bytes("".join(lines[2 * quarter : 3 * quarter]).replace("\n", "\r\n").encode())
    picks = rng.choice(len(lines), 10_000, replace=False)
    reruns = [lines[i].rsplit(",", 1)[0] + f",{float(rng.random())!r}\n" for i in picks.tolist()]
    paths[3].write_text("".join(lines[3 * quarter :]) + "".join(reruns))
    return paths


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return million_lines(tmp_path_factory.mktemp("engines") / "million")


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_the_medians_give_the_same_report_on_a_million_lines(tmp_path, capsys, engine_args, big_log, engine) -> None:
    out = tmp_path / "medians.parquet"
    code, err = aggregate(capsys, [*engine_args(engine), "-o", str(out)], *big_log)
    assert code == 0, err
    assert pq.read_table(out).num_rows == DATASETS * LEARNERS * len(CRITERIA)
    same_reports(capsys, big_log, out, CRITERIA)


def test_a_hive_partitioned_input_is_refused_with_the_way_out(tmp_path, capsys) -> None:
    # the partition column is in the path, not in the files: said so, with rankboard convert
    import pyarrow.parquet as pq

    table = tmp_path / "cv.parquet"
    assert main(["convert", str(SAMPLES / "cv"), "-o", str(table)]) == 0
    whole = pq.read_table(table)
    part = tmp_path / "results" / "criterion=accuracy"
    part.mkdir(parents=True)
    keep = [name for name in whole.column_names if name != "criterion"]
    pq.write_table(whole.select(keep).slice(0, 100), part / "part-0.parquet")
    code, err = aggregate(capsys, ["--engine", "duckdb", "-o", str(tmp_path / "m.parquet")], tmp_path / "results")
    assert code == 1
    assert "criterion=accuracy/, a hive partition" in err and "rankboard convert" in err
