"""Lines longer than a read block, or than the longest result line (issue 30, item 2).

Before: a line longer than the 4 MiB read block made :func:`stats.logs._sources.blocks` turn its
ring of buffers without handing out a block, so that a buffer a worker was still parsing was
written again (values swapped between data sets, a false duplicate, 19 reads in 20 wrong); and a
5 MiB name was read as a name, though README promises ``line too long`` above 65,536 characters.
Now a line over :data:`MAX_LINE` characters is that problem, with its file and line, wherever it
falls (inside a block, across blocks, at the end without a newline), in plain and gzip files and
on streams that cannot seek; the rest of the file is read, identically on every read.
"""

from __future__ import annotations

import gzip
import io
import sys
import tracemalloc
from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import pytest

import stats
import stats.logs._sources
from stats.logs._formats import MAX_LINE, LogSpec
from stats.logs._parse import Coded, Part
from stats.logs._paths import Source
from stats.logs._sources import BLOCK, WORKERS, LongLine, blocks, read_source
from tui.cli import main

READS = 50  # reads of each log, in threads
GUARD = 120.0  # seconds: only turns a hang into a failure


class Unseekable(io.RawIOBase):
    """Bytes as a stream that cannot seek (standard input, a pipe)."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self.data.readinto(buffer)


def too_long(chars: int) -> str:
    """README's words for a line of ``chars`` characters."""
    return f"line too long: {chars:,} characters (a result line has at most {MAX_LINE:,})"


def result(i: int) -> tuple[str, tuple[str, int, str, float]]:
    """Result line i (unique keys) and the row it is."""
    row = (f"d{i // 100}", i % 100 + 1, f"l{i % 3}", round(0.001 * (i % 997), 3))
    return f"{row[0]},1,{row[1]},{row[2]},acc,{row[3]}\n", row


class Log:
    """A log's text with the rows and problems a correct reading gives, built line by line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.rows: list[tuple[str, int, str, float]] = []
        self.long: list[tuple[int, str]] = []  # (line number, reason)
        self.n = 0

    def results(self, count: int) -> None:
        for _ in range(count):
            text, row = result(self.n)
            self.n += 1
            self.lines.append(text)
            self.rows.append(row)

    def named(self, dataset: str, learner: str, value: float, end: str = "\n") -> None:
        """A result whose names make the line as long as wanted: kept when within MAX_LINE."""
        text = f"{dataset},1,1,{learner},acc,{value}"
        self.lines.append(text + end)
        if len(text) <= MAX_LINE:
            self.rows.append((dataset, 1, learner, value))
        else:
            self.long.append((len(self.lines), too_long(len(text))))

    def text(self) -> bytes:
        return "".join(self.lines).encode()

    def problems(self, name: str) -> list[str]:
        return [f"{name}:{line}: {reason}" for line, reason in self.long]


def mixed() -> Log:
    """Long lines between results: inside a block and across blocks, multi-byte characters on
    either side of the limit, the limit itself (with and without a carriage return), a line with
    no separator at all, and a long last line without its newline."""
    log = Log()
    log.results(300)
    log.named("dx", "x" * 100_000, 0.5)  # too long, across 16 KiB blocks
    log.results(200)
    log.named("dé", "é" * 40_000, 0.25)  # 80 kB, but 40,016 characters: read
    log.named("de", "é" * 70_000, 0.75)  # 70,016 characters: too long
    log.results(50)
    edge = "e" * (MAX_LINE - len("db,1,1,,acc,0.5"))
    log.named("db", edge, 0.5)  # MAX_LINE characters exactly: read
    log.named("dc", edge, 0.5, end="\r\n")  # the same with CRLF: read
    log.named("dd", edge + "e", 0.5)  # one more: too long
    log.results(50)
    log.lines.append("y" * (1 << 18) + "\n")  # 256 KiB without a comma
    log.long.append((len(log.lines), too_long(1 << 18)))
    log.results(500)
    log.lines.append("z" * 200_000)  # the last line, no newline
    log.long.append((len(log.lines), too_long(200_000)))
    return log


def issue_log() -> Log:
    """The issue's reproduction: 3 data sets with 5 MiB learner names."""
    log = Log()
    for d in range(3):
        log.named(f"ds{d}", "x" * (5 << 20), float(f"0.{d + 1}"))
    return log


def rows_of(frame: Any) -> list[tuple[str, int, str, float]]:
    return sorted(
        zip(frame["dataset"].astype(str), frame["fold"].astype(int), frame["learner"].astype(str), frame["value"])
    )


def read_file(path: Path) -> tuple[list[tuple[str, int, str, float]], list[str]]:
    log = stats.read_logs(path, on_error="skip")
    return rows_of(log), [str(p) for p in log.problems]


def read_stream(data: bytes) -> tuple[list[tuple[str, int, str, float]], list[str]]:
    """Read as standard input is read: a stream that cannot seek, blocks parsed in a pool."""
    parts: list[tuple[int, LogSpec, Part]] = []
    with ThreadPoolExecutor(WORKERS) as pool:
        got = read_source(
            Source("<stdin>"), lambda line, spec, part: parts.append((line, spec, part)), pool=pool,
            stop_at_error=False, stream=Unseekable(data),
        )  # fmt: skip
    rows = []
    for _, _, part in parts:
        dataset, fold, learner, value = (part.fields[i] for i in (0, 2, 3, 5))
        assert isinstance(dataset, Coded) and isinstance(learner, Coded)
        for k in range(part.n_rows):
            names = dataset.values[dataset.codes[k]], learner.values[learner.codes[k]]
            rows.append((names[0], int(fold[k]), names[1], float(value[k])))
    return sorted(rows), [str(p) for p in got.problems]


def in_threads(read: Any, *args: Any, reads: int = READS) -> list[Any]:
    """``read(*args)`` ``reads`` times, four at a time."""
    pool = ThreadPoolExecutor(4)
    try:
        futures = [pool.submit(read, *args) for _ in range(reads)]
        _, waiting = wait(futures, timeout=GUARD)
        assert not waiting, "a read never finished"
        return [f.result() for f in futures]
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> int:
    """16 KiB blocks: the mixed log (1 MB) is some 60 blocks for the pool, and its lines of
    40,000 to 70,000 characters are longer than a block, as a 5 MiB line is at 4 MiB."""
    monkeypatch.setattr(stats.logs._sources, "BLOCK", 16 << 10)
    return 16 << 10


def test_a_buffer_is_not_written_while_the_consumer_may_hold_its_block() -> None:
    # The contract of blocks(): block i's buffer is written again by block i + buffers, no sooner.
    # Before, a pass inside a line longer than the block (no block handed out) turned the ring too.
    lengths = [5, 40, 3, 90, 12, 7, 33, 64, 8, 200, 1, 17, 50, 2, 2, 2, 120, 9]
    data = b"".join(b"%d," % i + b"v" * n + b"\n" for i, n in enumerate(lengths * 3))
    for stream in (io.BytesIO(data), Unseekable(data)):
        held: deque[tuple[bytearray, int, int, bytes]] = deque(maxlen=3)
        read = []
        for buf, start, end in blocks(stream, 16, buffers=3):
            assert isinstance(buf, bytearray)
            held.append((buf, start, end, bytes(buf[start:end])))
            assert all(bytes(b[s:e]) == copy for b, s, e, copy in held)  # the last 3 blocks intact
            read.append(bytes(buf[start:end]))
        assert b"".join(read) == data


@pytest.mark.parametrize("seekable", [True, False])
def test_blocks_count_a_long_line_in_its_place_without_holding_it(seekable: bool) -> None:
    line = "é" * 100_000 + "\r"
    data = b"a,1\n" + line.encode() + b"\nb,2\nc,3\n" + b"q" * 300_000
    stream = io.BytesIO(data) if seekable else Unseekable(data)
    longs, read, sizes = [], [], []
    for item, start, end in blocks(stream, 1000, buffers=2):
        if isinstance(item, LongLine):
            longs.append(item)
        else:
            read.append(bytes(item[start:end]))
            sizes.append(len(item))
    assert b"".join(read) == b"a,1\nb,2\nc,3\n"  # the rest, intact and in order
    assert [(x.n_bytes, x.n_chars, x.ended, x.reason(False)) for x in longs] == [
        (200_001, 100_001, True, too_long(100_000)),  # its carriage return is not counted
        (300_000, 300_000, False, too_long(300_000)),
    ]
    assert max(sizes) < 1000 + 4 * MAX_LINE + 8  # a block and at most a line's start


def test_the_issue_reproduction_reads_the_same_every_time(tmp_path: Path) -> None:
    # Before: 5 MiB names were read as names, and most reads gave other rows (ds0 with 0.3, or
    # ds0 dropped as a duplicate of line 1).
    log = issue_log()
    path = tmp_path / "long.dat"
    path.write_bytes(log.text())
    expected = ([], log.problems(str(path)))
    assert expected[1] == [f"{path}:{n}: {too_long(5_242_896)}" for n in (1, 2, 3)]
    assert in_threads(read_file, path) == [expected] * READS


@pytest.mark.parametrize("compressed", [False, True])
def test_long_lines_between_results_in_plain_and_gzip_files(
    tmp_path: Path, small_blocks: int, compressed: bool
) -> None:
    log = mixed()
    path = tmp_path / ("mixed.dat.gz" if compressed else "mixed.dat")
    path.write_bytes(gzip.compress(log.text(), 1) if compressed else log.text())
    expected = (sorted(log.rows), log.problems(str(path)))
    assert len(expected[0]) == 1103 and len(expected[1]) == 5
    assert in_threads(read_file, path) == [expected] * READS


def test_long_lines_on_a_stream_that_cannot_seek(small_blocks: int) -> None:
    log = mixed()
    data = log.text()
    expected = (sorted(log.rows), log.problems("<stdin>"))
    assert in_threads(read_stream, data) == [expected] * READS


def test_the_issue_reproduction_on_a_stream_that_cannot_seek() -> None:
    log = issue_log()
    data = log.text()
    assert in_threads(read_stream, data, reads=10) == [([], log.problems("<stdin>"))] * 10


def test_a_long_line_is_never_held_whole(tmp_path: Path) -> None:
    # Before: the line was gathered whole, then copied into a buffer of its size (over 100 MB
    # for a 48 MiB line); now it is read through one buffer of a block (plus at most the first
    # MAX_LINE characters of a line, which may still end in time).
    path = tmp_path / "big.dat"
    path.write_bytes(b"a,1,1,nb,acc,0.5\nb,1,1," + b"x" * (48 << 20) + b",acc,0.5\nc,1,1,nb,acc,0.25\n")
    for stream in (open(path, "rb"), Unseekable(path.read_bytes())):  # noqa: SIM115
        with stream:
            tracemalloc.start()
            try:
                got = [(type(d), e - s) for d, s, e in blocks(stream, BLOCK, WORKERS + 2)]
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
        assert got == [(bytearray, 17), (LongLine, 0), (bytearray, 18)]
        # three buffers of a block and at most a line's start: the block before the line, the
        # one the line is read through, and the one that finds the end of the stream
        assert peak < 3 * (BLOCK + 4 * MAX_LINE + 8)


@pytest.mark.parametrize("args", [[], ["--memory", "100"], ["--format", "json"]])
def test_check_and_report_name_the_same_long_lines(
    tmp_path: Path, small_blocks: int, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    log = mixed()
    path = tmp_path / "mixed.dat"
    path.write_bytes(log.text())
    assert main(["check", str(path)]) == 1
    checked = capsys.readouterr().out.split("\n\n", 1)[0].splitlines()
    assert checked == log.problems(str(path))
    assert main(["report", str(path), "--view", "ranks", *args]) == 0
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith(f"{path}:")] == checked


def test_check_reads_long_lines_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, small_blocks: int, capsys: pytest.CaptureFixture[str]
) -> None:
    log = mixed()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Unseekable(log.text()))))
    assert main(["check", "-"]) == 1
    assert capsys.readouterr().out.split("\n\n", 1)[0].splitlines() == log.problems("<stdin>")
