"""Parquet datasets as Spark, Dask and DuckDB write them (issue 33, item 1): a directory of part
files beside the engines' bookkeeping, often hive-partitioned (``criterion=acc/``), read as one
log by ``check``, ``report``, ``convert``, the live watcher and the app.

The datasets are written here from the bundled logs (sample_logs/cv) as each engine lays them
out: by hand with pyarrow (pyspark and dask need not be installed) and by DuckDB itself. The logs
are read for that with ``pyarrow.csv``, not with rankboard's reader.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import stats
from stats import LogWatcher
from tests.conftest import SAMPLES
from tests.test_app import make_app, poll, settle
from tui.cli import main

LOGS = SAMPLES / "cv"
COLUMNS = ["dataset", "repeat", "fold", "learner", "criterion", "value"]
TYPES = {"dataset": pa.string(), "repeat": pa.int64(), "fold": pa.int64(), "learner": pa.string()}
TYPES |= {"criterion": pa.string(), "value": pa.float64()}
#: sample_logs/cv: 10 files of 625 lines, each line one result.
LINES, FILES = 6250, 10


def logs_table() -> pa.Table:
    """The bundled logs in the order rankboard reads them (files sorted, lines in order)."""
    options = pcsv.ReadOptions(column_names=COLUMNS)
    convert = pcsv.ConvertOptions(column_types=TYPES)
    files = sorted(LOGS.glob("*.dat"))
    assert len(files) == FILES
    return pa.concat_tables(pcsv.read_csv(f, read_options=options, convert_options=convert) for f in files)


def parts(table: pa.Table, n: int) -> list[pa.Table]:
    """``table`` cut into ``n`` runs of rows, in order."""
    size = -(-table.num_rows // n)
    return [table.slice(i * size, size) for i in range(n)]


def hive_groups(table: pa.Table, keys: list[str]) -> list[tuple[str, pa.Table]]:
    """``table`` grouped by ``keys`` as a hive-partitioned writer does: each group's directory
    (``criterion=accuracy/dataset=iris``) and its rows in their order, without the keys."""
    frame = table.to_pandas()
    out = []
    for values, rows in frame.groupby(keys, sort=True):
        values = values if isinstance(values, tuple) else (values,)
        folder = "/".join(f"{k}={v}" for k, v in zip(keys, values))
        out.append((folder, pa.Table.from_pandas(rows.drop(columns=keys), preserve_index=False)))
    return out


def spark_like(root: Path, table: pa.Table) -> Path:
    """``df.write.partitionBy("criterion", "dataset").parquet(root)``: snappy part files named
    ``part-0000i-<uuid>.c000.snappy.parquet`` in nested partition directories, with Hadoop's
    ``.crc`` checksums beside them, ``_SUCCESS`` at the top and a leftover ``_temporary``."""
    job = uuid.UUID(int=33)
    for i, (folder, rows) in enumerate(hive_groups(table, ["criterion", "dataset"])):
        where = root / folder
        where.mkdir(parents=True)
        name = f"part-{i:05d}-{job}.c000.snappy.parquet"
        pq.write_table(rows, where / name, compression="snappy")
        (where / f".{name}.crc").write_bytes(b"crc\x00\x00\x00\x02\x00\x9a\x1f\x03\x7f")
    (root / "_SUCCESS").write_bytes(b"")
    attempt = root / "_temporary" / "0" / "_temporary" / "attempt_202611290115_0001_m_000000_0"
    attempt.mkdir(parents=True)
    pq.write_table(table.slice(0, 10), attempt / "part-00000-half.c000.snappy.parquet")  # an unfinished task
    return root


def dask_like(root: Path, table: pa.Table) -> Path:
    """``dd.to_parquet(root, write_metadata_file=True)``: ``part.i.parquet`` and the footers
    of all of them again in ``_metadata`` and ``_common_metadata``."""
    root.mkdir()
    collected: list[pq.FileMetaData] = []
    for i, rows in enumerate(parts(table, 4)):
        pq.write_table(rows, root / f"part.{i}.parquet", metadata_collector=collected)
        collected[-1].set_file_path(f"part.{i}.parquet")
    pq.write_metadata(table.schema, root / "_common_metadata")
    pq.write_metadata(table.schema, root / "_metadata", metadata_collector=collected)
    return root


def duckdb_partitioned(root: Path) -> Path:
    """DuckDB's own ``COPY (...) TO root (FORMAT parquet, PARTITION_BY (criterion))``."""
    duckdb = pytest.importorskip("duckdb", reason="duckdb is a test dependency (pip install -e '.[test]')")
    types = ["VARCHAR", "BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "DOUBLE"]
    columns = ", ".join(f"'{c}': '{t}'" for c, t in zip(COLUMNS, types))
    con = duckdb.connect()
    con.execute("SET threads TO 1")  # one file per partition, rows in the order read
    con.execute(
        f"COPY (SELECT * FROM read_csv('{LOGS.as_posix()}/*.dat', header = false, columns = {{{columns}}})) "
        f"TO '{root.as_posix()}' (FORMAT parquet, PARTITION_BY (criterion))"
    )
    return root


LAYOUTS = {"spark": spark_like, "dask": dask_like, "duckdb": lambda root, _: duckdb_partitioned(root)}


@pytest.fixture(scope="module")
def table() -> pa.Table:
    return logs_table()


def report(capsys: pytest.CaptureFixture[str], path: Path, view: str, criterion: str) -> dict:
    """``rankboard report PATH --view VIEW --format json``, without its ``source`` (the path)."""
    code = main(["report", str(path), "--view", view, "--format", "json", "--criterion", criterion])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(out)
    assert data.pop("source") == str(path)
    return data


def check(capsys: pytest.CaptureFixture[str], *paths: Path | str) -> tuple[int, list[str], list[str]]:
    """``rankboard check PATHS``: its exit code, its summary lines (from ``N file(s), ...`` on)
    and the problem lines before them."""
    code = main(["check", *map(str, paths)])
    out, err = capsys.readouterr()
    lines = [line for line in (out + err).splitlines() if line]
    start = next(i for i, line in enumerate(lines) if " file(s), " in line)
    return code, lines[start:], lines[:start]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("view", ["ranks", "tests", "pairs", "cd"])
def test_an_engines_dataset_reports_as_the_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: pa.Table, layout: str, view: str
) -> None:
    # Before: the directory gave "no *.dat files in this directory" and no results (exit 1).
    dataset = LAYOUTS[layout](tmp_path / layout, table)
    for criterion in ("accuracy", "pf"):  # higher and lower is better
        assert report(capsys, dataset, view, criterion) == report(capsys, LOGS, view, criterion)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_check_counts_the_dataset_and_says_nothing_of_the_bookkeeping(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: pa.Table, layout: str
) -> None:
    dataset = LAYOUTS[layout](tmp_path / layout, table)
    n_parts = {"spark": 5 * FILES, "dask": 4, "duckdb": 5}[layout]  # criteria x data sets; 4 runs; criteria
    code, lines, problems = check(capsys, dataset)
    assert code == 0 and problems == []
    assert lines[0] == f"{n_parts} file(s), 0 error(s), 0 warning(s)"
    assert lines[1].startswith(f"{LINES} lines: 10 data sets, 5 learners, 5 criteria (")
    assert lines[2] == "repeats x folds: all 10 data sets x 5 learners: 5 x 5"


@pytest.mark.parametrize(
    ("layout", "pattern", "n_parts"), [("dask", "*", 4), ("spark", "**/*.parquet", 50), ("spark", "**", 50)]
)
def test_a_glob_of_the_dataset_skips_the_bookkeeping_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: pa.Table, layout: str, pattern: str, n_parts: int
) -> None:
    # Before: _metadata and _common_metadata matched "*" and were read as logs ("no results in the
    # file"), and "**" reached into Spark's _temporary/ (an unfinished task's rows, duplicates).
    dataset = LAYOUTS[layout](tmp_path / layout, table)
    code, lines, problems = check(capsys, f"{dataset}/{pattern}")
    assert code == 0 and problems == [] and lines[0] == f"{n_parts} file(s), 0 error(s), 0 warning(s)"
    assert lines[1].startswith(f"{LINES} lines: ")


def test_a_corrupt_part_is_named_and_the_others_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: pa.Table
) -> None:
    dataset = dask_like(tmp_path / "dask", table)
    torn = dataset / "part.2.parquet"
    data = torn.read_bytes()
    torn.write_bytes(data[: len(data) // 2])  # the writer died half-way
    code, lines, problems = check(capsys, dataset)
    assert code == 1 and lines[0] == "4 file(s), 1 error(s), 0 warning(s)"
    assert len(problems) == 1 and problems[0].startswith(f"{torn}: unreadable Parquet file (truncated or corrupt?)")
    others = pa.concat_tables(p for i, p in enumerate(parts(table, 4)) if i != 2)
    datasets = len(set(others["dataset"].to_pylist()))  # a data set whose rows were all in the torn part is gone
    assert lines[1].startswith(f"{others.num_rows} lines: {datasets} data sets, 5 learners, 5 criteria")


def write_part(path: Path, rows: pa.Table) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(rows, path)
    return path


def results(**columns: list) -> pa.Table:
    return pa.table({c: columns[c] for c in COLUMNS if c in columns})


ROWS = {"dataset": ["iris", "wine"], "repeat": [1, 1], "fold": [1, 1], "learner": ["nb", "nb"], "value": [0.9, 0.8]}


def test_a_null_hive_partition_is_an_error_naming_the_file(tmp_path: Path) -> None:
    # Spark writes a null partition value as __HIVE_DEFAULT_PARTITION__: not a criterion's name.
    good = write_part(tmp_path / "out" / "criterion=acc" / "part-0.parquet", results(**ROWS))
    null = write_part(tmp_path / "out" / "criterion=__HIVE_DEFAULT_PARTITION__" / "part-0.parquet", results(**ROWS))
    log = stats.read_logs(tmp_path / "out", on_error="skip")
    errors = [p for p in log.problems if p.severity == "error"]
    assert [(p.file, p.line) for p in errors] == [(str(null), None)]
    assert "criterion=__HIVE_DEFAULT_PARTITION__" in errors[0].reason and "null" in errors[0].reason
    assert log.files == (str(null), str(good)) and len(log) == 2  # sorted: "_" before "a"
    assert log["criterion"].astype(str).tolist() == ["acc", "acc"]


def test_partition_values_are_decoded_as_spark_writes_them(tmp_path: Path) -> None:
    # Spark and pyarrow escape "=" and "/" in a partition value: %3D, %2F.
    part = write_part(
        tmp_path / "out" / "criterion=f%3D1%2Fmacro" / "dataset=iris" / "part-0.parquet",
        results(**{k: v for k, v in ROWS.items() if k != "dataset"} | {"fold": [1, 2]}),
    )
    log = stats.read_logs(tmp_path / "out")
    assert log.files == (str(part),) and log.problems == ()
    assert log["criterion"].astype(str).tolist() == ["f=1/macro"] * 2
    assert log["dataset"].astype(str).tolist() == ["iris"] * 2


def test_a_column_in_the_path_and_in_the_file_must_agree(tmp_path: Path) -> None:
    rows = results(**ROWS, criterion=["acc", "pd"])  # the second row contradicts its directory
    part = write_part(tmp_path / "out" / "criterion=acc" / "part-0.parquet", rows)
    log = stats.read_logs(tmp_path / "out", on_error="skip")
    assert [(p.file, p.line, p.severity) for p in log.problems] == [(str(part), 2, "error")]
    assert "'pd' differs from the path's criterion=acc" in log.problems[0].reason
    assert log["dataset"].astype(str).tolist() == ["iris"]  # the row that agrees is read


def test_a_directory_without_logs_says_what_it_looked_for(tmp_path: Path) -> None:
    (tmp_path / "_SUCCESS").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("iris,1,1,nb,acc,0.9\n")  # text, not a log by its name
    log = stats.read_logs(tmp_path, on_error="skip")
    assert [(p.file, p.severity, p.reason) for p in log.problems] == [
        (str(tmp_path), "warning", "no logs in this directory (looked for *.dat, *.dat.gz and Parquet or Arrow files)")
    ]


def test_part_files_are_found_by_their_content_and_by_their_name(tmp_path: Path, table: pa.Table) -> None:
    # Hive names its parts 000000_0 (no suffix); pyarrow's write_dataset(format="ipc") part-0.arrow.
    first, second = parts(table.slice(0, 20), 2)
    pq.write_table(first, tmp_path / "000000_0")
    with pa.ipc.new_file(tmp_path / "part-1.arrow", second.schema) as writer:
        writer.write_table(second)
    log = stats.read_logs(tmp_path)
    assert log.files == (str(tmp_path / "000000_0"), str(tmp_path / "part-1.arrow"))
    assert log["value"].tolist() == table.slice(0, 20)["value"].to_pylist()


def test_a_part_file_named_alone_keeps_its_partition(tmp_path: Path) -> None:
    part = write_part(tmp_path / "out" / "criterion=acc" / "part-0.parquet", results(**ROWS))
    log = stats.read_logs(part)
    assert log["criterion"].astype(str).tolist() == ["acc", "acc"]


def test_convert_writes_the_dataset_as_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: pa.Table
) -> None:
    dataset = spark_like(tmp_path / "spark", table)
    target = tmp_path / "all.parquet"
    assert main(["convert", str(dataset), "-o", str(target)]) == 0
    capsys.readouterr()
    got = pq.read_table(target).to_pandas()
    assert len(got) == LINES
    key = ["dataset", "repeat", "fold", "learner", "criterion"]
    want = table.to_pandas().sort_values(key).reset_index(drop=True)
    got = got[COLUMNS].astype({c: str for c in ("dataset", "learner", "criterion")})
    got = got.astype({"repeat": "int64", "fold": "int64"}).sort_values(key).reset_index(drop=True)
    assert got.equals(want)


def test_the_watcher_reads_a_new_part_file_as_new_results(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_part(out / "criterion=acc" / "part-0.parquet", results(**ROWS))
    (out / "_SUCCESS").write_bytes(b"")
    watcher = LogWatcher(out)
    first = watcher.poll()
    assert first.problems == () and len(first.rows) == 2
    later = write_part(out / "criterion=pd" / "part-0.parquet", results(**ROWS))
    (out / "criterion=pd" / ".part-0.parquet.crc").write_bytes(b"crc\x00")
    update = watcher.poll()
    assert update.added == [str(later)] and update.problems == ()
    assert update.rows["criterion"].astype(str).tolist() == ["pd", "pd"]
    assert update.rows["value"].tolist() == [0.9, 0.8]
    assert len(watcher.poll().rows) == 0  # nothing new: nothing read again


async def test_the_app_shows_a_new_partition_as_it_lands(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_part(out / "criterion=acc" / "part-0.parquet", results(**ROWS))
    app = make_app([str(out)], live=True, interval=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.model is not None and app.model.criteria == ("acc",)
        write_part(out / "criterion=pd" / "part-0.parquet", results(**ROWS))
        await poll(pilot)
        assert app.model.criteria == ("acc", "pd")


def test_a_directory_of_text_logs_does_not_also_read_their_conversion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `rankboard convert logs/ -o logs/all.parquet`, then `rankboard logs/`: every result once,
    # and a warning naming the Parquet file left unread
    import shutil

    for f in (SAMPLES / "cv").glob("*.dat"):
        shutil.copy(f, tmp_path / f.name)
    assert main(["convert", str(tmp_path), "-o", str(tmp_path / "all.parquet")]) == 0
    capsys.readouterr()
    main(["check", str(tmp_path)])
    out = capsys.readouterr()
    said = out.out + out.err
    assert "6250 lines" in said and "duplicate" not in said
    assert "all.parquet" in said and "not read" in said
