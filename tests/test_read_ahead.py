"""stats.read_logs reads directories of small logs (one block each) in its thread pool, a few
files ahead: the frame, problems, files and line counts are those of reading the files one at a
time on the calling thread (the pool off), in strict mode the same first error is raised, and a
cancelled load stops."""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd
import pytest

import stats
import stats.logs._read
from stats import LoadCancelled, LogError, read_logs


def _files(folder: Path) -> Path:
    folder.mkdir()
    for i in range(23):
        rows = "".join(
            f"d{i % 4},{r},{f},l{j},acc,0.{(i * 7 + r * 3 + f + j) % 97:02d}\n"
            for r in (1, 2)
            for f in (1, 2, 3)
            for j in range(3)
        )
        (folder / f"run_{i:02d}.dat").write_text(rows)  # data sets repeat across files: later results win
    (folder / "run_05.dat").write_text("d9,1,1,l0,acc,0.5\nd9,1,x,l0,acc,0.5\nd9,1,2,l0,acc,zz\n")  # bad lines
    (folder / "run_07.dat").write_text("")  # empty
    (folder / "run_09.dat").write_text("#data, learner, repeats, bin, acc, pd\nd8, l1, 1, 1, 0.5, 0.25\n")  # wide
    (folder / "run_11.dat").write_text("d7,1,1,l2,acc,0.75")  # no newline at the end
    (folder / "run_13.dat.gz").write_bytes(gzip.compress(b"d6,1,1,l0,acc,0.125\n"))
    return folder


@pytest.mark.parametrize("workers", [2, 3])
def test_read_ahead_equals_one_file_at_a_time(tmp_path: Path, workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _files(tmp_path / "logs")
    monkeypatch.setattr(stats.logs._read, "WORKERS", 1)  # no pool: every file read here, in order
    alone = read_logs(folder, on_error="skip")
    with pytest.raises(LogError) as first:
        read_logs(folder)
    monkeypatch.setattr(stats.logs._read, "WORKERS", workers)
    ahead = read_logs(folder, on_error="skip")
    pd.testing.assert_frame_equal(ahead.table, alone.table)
    assert (ahead.problems, ahead.files, ahead.lines) == (alone.problems, alone.files, alone.lines)
    assert len(alone.problems) >= 4 and len(alone) > 50  # the bad lines, the empty file, the duplicates...
    with pytest.raises(LogError) as again:
        read_logs(folder)
    assert str(again.value) == str(first.value) and "run_05.dat:2" in str(first.value)


def test_progress_and_cancel_over_small_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _files(tmp_path / "logs")
    monkeypatch.setattr(stats.logs._read, "WORKERS", 2)
    total = sum(p.stat().st_size for p in folder.iterdir())
    calls: list[tuple[int, int | None]] = []
    read_logs(folder, on_error="skip", progress=lambda done, of: calls.append((done, of)))
    done = [d for d, _ in calls]
    assert done == sorted(done) and calls[0] == (0, total) and calls[-1] == (total, total)
    assert len(set(done)) > 10  # a step per file, not one at the end

    def stop(done: int, of: int | None) -> None:
        if done > total // 3:
            raise LoadCancelled("enough")

    with pytest.raises(LoadCancelled, match="enough"):
        read_logs(folder, on_error="skip", progress=stop)


def test_gzip_text_size_reserves_the_rows_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gzip log's rows are reserved before it is read (its trailer's ISIZE), within the
    decompression limits; not gzip, or too short: no hint."""
    text = b"".join(b"d%d,1,%d,nb,acc,0.5\n" % (i // 10, i % 10 + 1) for i in range(5000))
    gz = tmp_path / "a.dat.gz"
    gz.write_bytes(gzip.compress(text))
    size = stats.logs._read._gzip_text_size
    assert size(gz, gz.stat().st_size, stats.Decompression()) == len(text)
    assert size(gz, gz.stat().st_size, stats.Decompression(max_ratio=2.0)) == 2 * gz.stat().st_size
    plain = tmp_path / "b.dat"
    plain.write_bytes(text)
    assert size(plain, plain.stat().st_size, stats.Decompression()) == 0
    assert size(None, None, stats.Decompression()) == 0
    reserved = _reservations(monkeypatch)
    assert len(read_logs(gz)) == 5000
    assert reserved[0] >= 5000  # the first reservation holds every row: the arrays never grow


def test_parquet_rows_reserved_from_its_footer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Parquet log's rows are reserved at once from its footer (~2 bytes a row on disk: the
    text's 12 bytes a row reserved a sixth and the arrays grew by doubling); a footer declaring
    more rows than the limits allow reserves nothing more (the read refuses the file)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 60_000
    table = pa.table(
        {
            "dataset": [f"d{i // 600}" for i in range(n)],
            "repeat": [1] * n,
            "fold": [i % 600 + 1 for i in range(n)],
            "learner": ["nb"] * n,
            "criterion": ["acc"] * n,
            "value": [0.5] * n,
        }
    )
    path = tmp_path / "log.parquet"
    pq.write_table(table, path)
    assert path.stat().st_size * 6 < n * 12  # the text's estimate would reserve far fewer rows
    reserved = _reservations(monkeypatch)
    monkeypatch.setattr(stats.logs._read, "_ASK_ROWS", 0)  # (a small file: asked all the same)
    assert len(read_logs(path)) == n
    assert reserved[0] >= n and reserved[0] < 2 * n
    reserved.clear()
    tight = stats.Decompression(max_ratio=1.0, max_bytes=n * 12 - 1, min_bytes=0)
    with pytest.raises(LogError, match="bomb"):
        read_logs(path, decompression=tight)
    assert reserved[0] <= path.stat().st_size // 12 + 1


def _reservations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows each ``Columns.reserve`` call of the reading asks for, in order (filled as read)."""
    reserved: list[int] = []
    original = stats.logs._read.Columns.reserve

    def spy(self: object, rows: int) -> None:
        reserved.append(rows)
        original(self, rows)  # type: ignore[arg-type]

    monkeypatch.setattr(stats.logs._read.Columns, "reserve", spy)
    return reserved
