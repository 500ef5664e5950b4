"""Progress and cancellation of loads: stats.read_logs(progress=...) and LogWatcher.poll(progress=...).

Expected totals are the sizes of the bytes each test writes (or appends), never the reader's own
figures. Blocks are made small (``stats.logs._sources.BLOCK``) and the parsing pool is forced on
(``WORKERS``), so that a few kilobytes make many blocks and the threaded path is the one tested.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

import stats
import stats.logs._read
import stats.logs._sources
import stats.logs._watch
from stats import LoadCancelled, LogWatcher, read_logs
from stats.logs._formats import LogSpec
from stats.logs._parse import Part
from tests.follow import Follow, held

BLOCK = 1024


@pytest.fixture(autouse=True)
def small_blocks_in_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats.logs._sources, "BLOCK", BLOCK)
    for module in (stats.logs._sources, stats.logs._read, stats.logs._watch):
        monkeypatch.setattr(module, "WORKERS", 3)


def lines(n: int, learner: str = "nb", first: int = 0) -> bytes:
    """``n`` distinct long-format results (28 to 32 bytes each), from the ``first``-th."""
    return "".join(
        f"data_{i // 100:03d},{i // 10 % 10 + 1},{i % 10 + 1},{learner},acc,0.{i:05d}\n"
        for i in range(first, first + n)
    ).encode()


def write(path: Path, content: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


class Recorder:
    """A progress callback that records its calls, and raises ``exc`` at call number ``stop_at``."""

    def __init__(self, stop_at: int | None = None, exc: BaseException | None = None) -> None:
        self.calls: list[tuple[int, int | None]] = []
        self.stop_at, self.exc = stop_at, exc or LoadCancelled("stop")

    def __call__(self, done: int, total: int | None) -> None:
        self.calls.append((done, total))
        if len(self.calls) == self.stop_at:
            raise self.exc

    @property
    def done(self) -> list[int]:
        return [d for d, _ in self.calls]


def counting_blocks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the text bytes of every block the reader reads."""
    read: list[int] = []
    original = stats.logs._sources.blocks

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        for data, start, end in original(*args, **kwargs):
            read.append(end - start)
            yield data, start, end

    monkeypatch.setattr(stats.logs._sources, "blocks", counting)
    return read


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the text bytes of every block parsed."""
    parsed: list[int] = []
    original = stats.logs._sources.parse_block

    def counting(data: bytes | bytearray, start: int, end: int, spec: LogSpec) -> Part:
        parsed.append(end - start)
        return original(data, start, end, spec)

    monkeypatch.setattr(stats.logs._sources, "parse_block", counting)
    return parsed


def open_paths() -> set[str]:
    """What this process has open (Linux: /proc/self/fd)."""
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        pytest.skip("needs /proc/self/fd")
    found = set()
    for fd in os.listdir(fds):
        try:
            found.add(os.readlink(fds / fd))
        except OSError:
            pass
    return found


def assert_nondecreasing_to(recorder: Recorder, total: int | None) -> None:
    assert recorder.calls, "progress was never called"
    assert all(t == total for _, t in recorder.calls)
    assert recorder.done == sorted(recorder.done)
    assert recorder.calls[0][0] == 0


# -- read_logs: what is reported -------------------------------------------------------------


def test_progress_over_files_and_a_directory_ends_at_the_sum_of_their_sizes(tmp_path: Path) -> None:
    contents = {"a.dat": lines(300), "runs/b.dat": lines(120, "tree"), "runs/deep/c.dat": lines(45, "svm")}
    files = {name: write(tmp_path / name, content) for name, content in contents.items()}
    total = sum(len(c) for c in contents.values())  # 13,391 bytes: 14 blocks or more
    recorder = Recorder()
    log = read_logs(files["a.dat"], tmp_path / "runs", progress=recorder)
    assert len(log) == 465
    assert_nondecreasing_to(recorder, total)
    assert recorder.calls[-1] == (total, total)
    steps = [b - a for a, b in zip(recorder.done, recorder.done[1:])]
    assert max(steps) <= BLOCK  # at least once per block
    blocks = sum(-(-len(c) // (BLOCK - 32)) for c in contents.values())  # a block holds BLOCK - 32 bytes at least
    assert len(recorder.calls) <= blocks + 1  # and not per line (465 lines)


def test_the_frame_is_the_same_with_and_without_a_callback(tmp_path: Path) -> None:
    bad = b"data_000,1,1,nb,acc,zz\n"
    content = lines(200) + bad + lines(50, first=10)  # a bad line, then 50 lines repeating lines 11-60
    write(tmp_path / "a.dat", content)
    write(tmp_path / "b.dat.gz", gzip.compress(lines(80, "tree")))
    plain = read_logs(tmp_path, on_error="skip")
    recorder = Recorder()
    watched = read_logs(tmp_path, on_error="skip", progress=recorder)
    pd.testing.assert_frame_equal(watched.table, plain.table)
    assert (watched.problems, watched.files, watched.lines) == (plain.problems, plain.files, plain.lines)
    # Not an empty frame: 280 rows, the bad line, and one warning for the run of duplicates.
    assert len(plain) == 280 and len(plain.problems) == 2
    assert len(recorder.calls) > 5


def test_gzip_counts_compressed_bytes_against_the_size_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats.logs._sources, "BLOCK", 16 * BLOCK)
    rng = random.Random(7)
    text = "".join(f"d{i % 97},1,{i % 10 + 1},l{i % 13},acc,{rng.random():.9f}\n" for i in range(120_000)).encode()
    packed = gzip.compress(text)
    assert len(packed) > 16 * 65_536 and len(text) > 2 * len(packed)  # many compressed reads; text twice as long
    plain = lines(100)
    write(tmp_path / "a.dat.gz", packed)
    write(tmp_path / "b.dat", plain)
    read = counting_blocks(monkeypatch)
    seen: list[int] = []  # text bytes read when each call was made

    def progress(done: int, total: int | None) -> None:
        recorder(done, total)
        seen.append(sum(read))

    recorder = Recorder()
    read_logs(tmp_path, on_error="skip", progress=progress)
    total = len(packed) + len(plain)
    assert_nondecreasing_to(recorder, total)
    assert recorder.calls[-1] == (total, total)
    # Compressed bytes, not text bytes: the gzip file's share is reached only when nearly all of
    # its text was read (text bytes would reach it less than half-way).
    first = next(i for i, d in enumerate(recorder.done) if d >= len(packed))
    assert seen[first] >= 0.9 * len(text)
    assert any(0 < d < len(packed) for d in recorder.done)  # and it moves while the gzip file is read


@pytest.mark.parametrize("compress", [False, True])
def test_standard_input_has_no_total(monkeypatch: pytest.MonkeyPatch, compress: bool) -> None:
    data = lines(150)
    sent = gzip.compress(data) if compress else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(sent))))
    recorder = Recorder()
    assert len(read_logs("-", progress=recorder)) == 150
    assert_nondecreasing_to(recorder, None)
    assert recorder.done[-1] == len(sent)  # every byte read (compressed ones for gzip)


def test_stdin_then_a_file_keeps_counting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, other = lines(60), lines(40, "tree")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    recorder = Recorder()
    read_logs("-", write(tmp_path / "b.dat", other), progress=recorder)
    assert_nondecreasing_to(recorder, None)
    assert recorder.done[-1] == len(data) + len(other)


def test_files_given_up_still_count_whole(tmp_path: Path) -> None:
    """A file with an unusable header (skipped) and a missing one: done still reaches the total."""
    header = write(tmp_path / "h.dat", b"#learner, foo\n" + b"x, 1\n" * 1000)  # given up after its first block
    good = write(tmp_path / "g.dat", lines(50))
    recorder = Recorder()
    log = read_logs(header, good, tmp_path / "missing.dat", on_error="skip", progress=recorder)
    total = os.path.getsize(header) + os.path.getsize(good)
    assert len(log) == 50 and recorder.calls[-1] == (total, total)
    assert_nondecreasing_to(recorder, total)


# -- read_logs: cancelled --------------------------------------------------------------------


@pytest.mark.parametrize("exc", [LoadCancelled("user pressed Esc"), OSError("not a read error"), KeyError("x")])
def test_what_the_callback_raises_stops_the_read_within_a_block_and_propagates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    log = write(tmp_path / "big.dat", lines(5000))  # about 140 blocks
    read = counting_blocks(monkeypatch)
    parsed = counting_parses(monkeypatch)
    threads = threading.active_count()
    recorder = Recorder(stop_at=4, exc=exc)  # the call made after the third block
    with pytest.raises(type(exc)) as raised:
        read_logs(log, progress=recorder)
    assert raised.value is exc  # the very exception, not a LogError nor a problem in a frame
    assert len(recorder.calls) == 4 and len(read) == 3  # no block read after the call that raised
    assert len(parsed) <= 2  # nor that block parsed
    assert threading.active_count() == threads  # the pool is shut down
    assert os.path.realpath(log) not in open_paths()  # and the file closed (while the traceback lives)


def test_cancelled_before_the_first_block_reads_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = write(tmp_path / "big.dat", lines(2000))
    read = counting_blocks(monkeypatch)
    with pytest.raises(LoadCancelled):
        read_logs(log, progress=Recorder(stop_at=1))
    assert read == []


def test_cancelled_gzip_read_closes_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = write(tmp_path / "big.dat.gz", gzip.compress(lines(5000)))
    read = counting_blocks(monkeypatch)
    threads = threading.active_count()
    with pytest.raises(LoadCancelled):
        read_logs(log, progress=Recorder(stop_at=3))
    assert len(read) == 2
    assert threading.active_count() == threads
    assert os.path.realpath(log) not in open_paths()


def test_a_cancelled_read_leaves_the_next_one_whole(tmp_path: Path) -> None:
    log = write(tmp_path / "d.dat", lines(3000))
    with pytest.raises(LoadCancelled):
        read_logs(log, progress=Recorder(stop_at=5))
    again = read_logs(log)
    assert len(again) == 3000 and again["value"].iloc[-1] == pytest.approx(0.02999)


# -- LogWatcher.poll ---------------------------------------------------------------------------


def test_a_poll_reports_only_the_appended_complete_lines_and_new_files(tmp_path: Path) -> None:
    a = write(tmp_path / "a.dat", lines(400))
    write(tmp_path / "b.dat", lines(100, "tree"))
    watcher = LogWatcher(tmp_path)
    first = Recorder()
    watcher.poll(progress=first)
    whole = os.path.getsize(a) + os.path.getsize(tmp_path / "b.dat")
    assert first.calls[-1] == (whole, whole)
    assert_nondecreasing_to(first, whole)

    appended = lines(60, first=400)
    with a.open("ab") as f:
        f.write(appended + b"data_999,1,1,nb,acc,0.5")  # the last line is still being written
    new = write(tmp_path / "c.dat", lines(30, "svm"))
    recorder = Recorder()
    update = watcher.poll(progress=recorder)
    total = len(appended) + len(lines(30, "svm"))
    assert len(update.rows) == 90 and update.added == [str(new)]
    assert_nondecreasing_to(recorder, total)
    assert recorder.calls[-1] == (total, total)

    quiet = Recorder()
    assert not watcher.poll(progress=quiet).changed
    assert quiet.calls == [(0, 0)]


def test_a_reloaded_file_counts_whole(tmp_path: Path) -> None:
    log = write(tmp_path / "a.dat", lines(400))
    watcher = LogWatcher(log)
    watcher.poll()
    shorter = lines(100, "tree")
    log.write_bytes(shorter)  # truncated: a new run
    recorder = Recorder()
    assert watcher.poll(progress=recorder).reloaded == [str(log)]
    assert recorder.calls[-1] == (len(shorter), len(shorter))
    assert_nondecreasing_to(recorder, len(shorter))


def test_a_first_poll_cancelled_then_polled_again_equals_a_fresh_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write(tmp_path / "a.dat", lines(3000))
    watcher = Follow(tmp_path)
    read = counting_blocks(monkeypatch)
    threads = threading.active_count()
    with pytest.raises(LoadCancelled):
        watcher.poll(progress=Recorder(stop_at=20))
    assert 10 < len(read) < 25  # cancelled midway, some blocks parsed
    assert threading.active_count() == threads and os.path.realpath(log) not in open_paths()
    assert len(watcher.frame()) == 0 and held(watcher) == held(LogWatcher(tmp_path))  # nothing held
    update = watcher.poll()
    assert update.added == [str(log)] and len(update.rows) == 3000
    fresh = Follow(tmp_path)
    fresh.poll()
    pd.testing.assert_frame_equal(watcher.frame(), fresh.frame())
    assert held(watcher) == held(fresh)


def test_a_cancelled_append_poll_then_polled_again_equals_a_fresh_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write(tmp_path / "a.dat", lines(500))
    watcher = Follow(log)
    watcher.poll()
    before = held(watcher)
    with log.open("ab") as f:
        f.write(lines(2000, "tree", first=500))
    with pytest.raises(LoadCancelled):
        watcher.poll(progress=Recorder(stop_at=10))
    assert held(watcher) == before
    update = watcher.poll()
    assert len(update.rows) == 2000 and update.rows["line"].iloc[0] == 501
    fresh = Follow(log)
    fresh.poll()
    pd.testing.assert_frame_equal(watcher.frame(), fresh.frame())
    assert held(watcher) == held(fresh)


def test_a_cancelled_poll_changes_nothing(tmp_path: Path) -> None:
    """Appends, a new file, a reload, a removed file and a missing path, all in the cancelled poll:
    afterwards the watcher polls as its twin that was never cancelled, update and frame alike."""
    folder, kept = tmp_path / "logs", tmp_path / "kept.dat"
    a, c, d = write(folder / "a.dat", lines(200)), write(folder / "c.dat", lines(50, "tree")), folder / "d.dat"
    write(d, lines(20, "svm"))
    write(kept, lines(10, "knn"))
    cancelled, twin = Follow([folder, kept]), Follow([folder, kept])
    cancelled.poll()
    twin.poll()
    before = held(cancelled)

    with a.open("ab") as f:
        f.write(lines(800, first=200))
    b = write(folder / "b.dat", lines(800, "zzz"))  # labels only the cancelled poll sees
    c.write_bytes(lines(300, "tree", first=1000))  # rewritten: reloaded
    d.unlink()
    kept.unlink()  # a named file gone: a problem to report, once
    recorder = Recorder()

    def stop_in_b(done: int, total: int | None) -> None:
        recorder(done, total)
        if done > len(lines(800, first=200)) + 10 * BLOCK:
            raise LoadCancelled

    with pytest.raises(LoadCancelled):
        cancelled.poll(progress=stop_in_b)
    total = len(lines(800, first=200)) + len(lines(800, "zzz")) + len(lines(300, "tree", first=1000))
    assert all(t == total for _, t in recorder.calls) and recorder.done[-1] < total  # stopped midway
    assert held(cancelled) == before

    b.unlink()  # gone before the next poll: its labels must be too
    got, expected = cancelled.poll(), twin.poll()
    pd.testing.assert_frame_equal(got.rows, expected.rows)
    assert [str(p) for p in got.problems] == [f"{kept}: no such file or directory"]  # reported now, not lost
    assert [str(p) for p in expected.problems] == [str(p) for p in got.problems]
    assert (got.added, got.reloaded, got.removed, got.superseded) == (
        expected.added,
        expected.reloaded,
        expected.removed,
        expected.superseded,
    )
    assert got.reloaded == [str(c)] and got.removed == [str(d), str(kept)]
    pd.testing.assert_frame_equal(cancelled.frame(), twin.frame())
    assert held(cancelled) == held(twin)
    assert "zzz" not in cancelled.labels.names("learner") and "zzz" not in got.rows["learner"].cat.categories
    assert len(cancelled.frame()) == len(cancelled._held) == 200 + 800 + 300


# -- the API ---------------------------------------------------------------------------------


def test_load_cancelled_is_exported_and_an_exception() -> None:
    assert "LoadCancelled" in stats.__all__ and issubclass(stats.LoadCancelled, Exception)
    assert not issubclass(stats.LoadCancelled, OSError | ValueError)  # not taken for a read or log error
    with pytest.raises(TypeError):
        LogWatcher("x.dat").poll(print)  # type: ignore[misc]  # keyword-only, as in read_logs


def test_a_gzip_log_is_parsed_in_full_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gzip stream reads short (one inflated 64 KB chunk, ~0.5 MB of text, at a time): each was
    a block of its own, 407 parts for a 204 MB log instead of 50 (gzip check 1.53 -> 1.30 s).
    Blocks are now filled to their size; only the last is shorter."""
    rows = ((i // 910, i % 910 // 130 + 1, i % 130 // 13 + 1, i % 13) for i in range(250_000))  # distinct keys
    text = "".join(f"data{d},{r},{f},learner{lrn},accuracy,0.{d:07d}\n" for d, r, f, lrn in rows)
    write(tmp_path / "big.dat.gz", gzip.compress(text.encode(), compresslevel=1))
    size = 1 << 22  # the reader's own block size, not this module's small one
    monkeypatch.setattr(stats.logs._sources, "BLOCK", size)
    read = counting_blocks(monkeypatch)
    log = read_logs(tmp_path / "big.dat.gz")
    assert len(log) == 250_000 and sum(read) == len(text)
    assert len(read) == -(-len(text) // size) and all(n > size - 64 for n in read[:-1])
