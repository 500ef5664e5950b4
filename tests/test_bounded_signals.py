"""Bounded mode under hostile conditions (issue 30, item 10): a signal leaves no spill folder
behind, a gzip file of several members and standard input are sized so that ``--memory`` is
honoured, and a full spill disk is said as such.

The kill tests run ``rankboard`` in a child process that pauses at a chosen moment of the spill
(a ``SpilledLogs`` method wrapped: the moment exists before and after the fix) and says so on a
pipe; the test reads that line (no sleep), checks that the spill folder is there, sends the signal
and checks the child's TMPDIR is left empty."""

from __future__ import annotations

import errno
import gzip
import io
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from stats import aggregate, aggregate_logs, log_size, read_logs
from stats.logs import _gzip_size, _read, _spill
from stats.logs._paths import DECOMPRESSION
from tests.test_aggregate import assert_same
from tests.test_bounded import clean_log
from tui.cli import main
from tui.memory import bounded_mode

ROOT = Path(__file__).resolve().parents[1]

#: The child: rankboard's main, with a SpilledLogs method wrapped to pause at MOMENT, after
#: writing "ready" to the pipe READY_FD ("made": the spill folder made, nothing read; "spilled":
#: rows written to partitions; "parts": the first partition read back and aggregated).
CHILD = r"""
import os, sys, threading
from stats.logs._spill import SpilledLogs

def pause():
    os.write(int(os.environ["READY_FD"]), b"ready\n")
    threading.Event().wait()  # until the signal

moment = os.environ.get("MOMENT")
if moment == "made":
    read = SpilledLogs._read
    def _read(self, *args):
        pause()
        return read(self, *args)
    SpilledLogs._read = _read
elif moment == "spilled":
    spill = SpilledLogs._spill
    def _spill(self, table):
        found = spill(self, table)
        if self.filled:
            pause()
        return found
    SpilledLogs._spill = _spill
elif moment == "parts":
    parts = SpilledLogs.parts
    def _parts(self):
        for i, part in enumerate(parts(self)):
            if i:
                pause()
            yield part
    SpilledLogs.parts = _parts

from tui.cli import main
sys.exit(main(sys.argv[1:]))
"""
#: Seconds a child may take to reach its moment (imports included) or to die after the signal.
TIMEOUT = 60


def spawn(tmp_path: Path, moment: str | None, argv: list[str], **popen: object) -> tuple[subprocess.Popen, int, Path]:
    """The child on ``argv``, its TMPDIR (empty) and the read end of its ready pipe."""
    spill = tmp_path / "spill"
    spill.mkdir()
    ready, write = os.pipe()
    env = dict(os.environ, TMPDIR=str(spill), READY_FD=str(write), MOMENT=moment or "")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, *argv],
        cwd=ROOT,
        env=env,
        pass_fds=(write,),
        **popen,  # type: ignore[call-overload]
    )
    os.close(write)
    return child, ready, spill


def wait_ready(child: subprocess.Popen, ready: int) -> None:
    """Block until the child writes its ready line (it reached its moment)."""
    readable, _, _ = select.select([ready], [], [], TIMEOUT)
    line = os.read(ready, 64) if readable else b""
    os.close(ready)
    if line != b"ready\n":
        child.kill()
        out, err = child.communicate(timeout=TIMEOUT)
        pytest.fail(f"the child did not reach its moment: {line!r}\n{err!s}")


def folders(spill: Path) -> list[str]:
    return sorted(p.name for p in spill.iterdir())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("moment", ["made", "spilled", "parts"])
def test_a_signal_during_a_bounded_report_leaves_no_spill_folder(
    moment: str, signum: signal.Signals, tmp_path: Path
) -> None:
    log = clean_log(tmp_path)
    child, ready, spill = spawn(
        tmp_path,
        moment,
        ["report", str(log), "--memory", "1K", "--view", "ranks"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wait_ready(child, ready)
    made = folders(spill)
    assert len(made) == 1 and made[0].startswith("rankboard_spill_")
    if moment != "made":
        assert any((spill / made[0]).iterdir())  # partitions written (and one read back, at "parts")
    child.send_signal(signum)
    _, err = child.communicate(timeout=TIMEOUT)
    assert child.returncode == -signum, err  # killed by the signal, as without a handler
    assert folders(spill) == []


def test_a_signal_while_standard_input_is_copied_leaves_no_spill_folder(tmp_path: Path) -> None:
    """``report --memory ... -``: the child copies standard input into its spill folder and waits
    for more (the pipe is kept open); the copy is there when the signal comes."""
    log = clean_log(tmp_path).read_bytes()
    child, ready, spill = spawn(
        tmp_path,
        None,
        ["report", "-", "--memory", "1K"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(ready)  # no moment: the child blocks on its standard input
    chunk = (log * (1 + (3 << 20) // len(log)))[: 3 << 20]  # three chunks of the copy
    writer = threading.Thread(target=child.stdin.write, args=(chunk,))  # type: ignore[union-attr]
    writer.start()
    writer.join(TIMEOUT)  # the child has read it all: it is in the copy, or in its read buffer
    assert not writer.is_alive()
    child.stdin.flush()  # type: ignore[union-attr]
    copies = _wait_for_copy(spill, child)
    assert copies and copies[0].name == "stdin"
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=TIMEOUT)  # its standard input still open: the signal alone ends it
    err = child.stderr.read()  # type: ignore[union-attr]
    child.stdin.close()  # type: ignore[union-attr]
    assert child.returncode == -signal.SIGTERM, err
    assert folders(spill) == []


def _wait_for_copy(spill: Path, child: subprocess.Popen) -> list[Path]:
    """The copy of standard input in the child's spill folder, once two chunks of it are written:
    the folder is watched (inotify is not in the standard library) until then, with a deadline;
    the child cannot get past this point, since its standard input is still open."""
    import time

    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and child.poll() is None:
        copies = [p for d in spill.iterdir() for p in d.iterdir() if p.name.startswith("stdin")]
        if copies and copies[0].stat().st_size >= 2 << 20:
            return copies
        time.sleep(0.01)
    return []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_the_app_while_its_loader_spills_leaves_no_spill_folder(
    signum: signal.Signals, tmp_path: Path
) -> None:
    """The app reads in a daemon thread: SIGINT's KeyboardInterrupt reaches the main thread only,
    and the process ends without the thread's ``finally``; SIGTERM kills it outright."""
    import pty

    log = clean_log(tmp_path)
    main_fd, terminal = pty.openpty()
    child, ready, spill = spawn(
        tmp_path,
        "spilled",
        ["--memory", "1K", str(log)],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        start_new_session=True,
    )
    os.close(terminal)
    drain = threading.Thread(target=_drain, args=(main_fd,), daemon=True)  # the app's screen, read away
    drain.start()
    try:
        wait_ready(child, ready)
        assert len(folders(spill)) == 1
        child.send_signal(signum)
        child.wait(timeout=TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=TIMEOUT)
        os.close(main_fd)
    assert folders(spill) == []


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 1 << 16):
            pass
    except OSError:  # the child's side closed
        pass


# -- gzip files of several members ---------------------------------------------------------------


def _members(tmp_path: Path) -> tuple[Path, bytes]:
    """A gzip log of two members (the second appended, as ``gzip >> log.gz`` does): 190 kB of
    text, then one line; the file's trailer says one line."""
    big = "".join(
        f"d{d},1,{f},l{x},acc,0.{(7 * d + 3 * f + x) % 97:02d}\n"
        for d in range(100)
        for f in range(1, 11)
        for x in range(8)
    ).encode()
    small = b"z,1,1,l0,acc,0.5\n"
    path = tmp_path / "runs.dat.gz"
    path.write_bytes(gzip.compress(big) + gzip.compress(small))
    return path, big + small


def test_a_gzip_log_of_several_members_is_sized_by_all_of_them(tmp_path: Path) -> None:
    path, text = _members(tmp_path)
    assert int.from_bytes(path.read_bytes()[-4:], "little") == 17  # what was taken for the size
    assert log_size(path) == len(text)
    assert _read._gzip_text_size(path, path.stat().st_size, DECOMPRESSION) == len(text)  # rows reserved
    over, budget, size = bounded_mode([str(path)], str(len(text) // 2))
    assert over and size == len(text)


def test_members_across_the_chunks_of_the_scan_are_all_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_gzip_size, "_CHUNK", 997)  # many members cut by a chunk's end
    monkeypatch.setattr(_gzip_size, "_KNOWN", {})
    parts = [f"d{i},1,1,l{i % 7},acc,0.{i:03d}\n".encode() * (1 + i % 40) for i in range(300)]
    path = tmp_path / "many.dat.gz"
    path.write_bytes(b"".join(gzip.compress(p) for p in parts))
    assert _gzip_size.gzip_text_size(path) == sum(map(len, parts))


def test_check_of_a_gzip_log_of_several_members_over_the_budget_aggregates_by_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text = _members(tmp_path)
    assert main(["check", str(path), "--memory", str(len(text) // 2)]) == 0
    bounded = capsys.readouterr()
    assert "bounded memory: aggregating by blocks" in bounded.err
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == bounded.out


# -- standard input ------------------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))


@pytest.mark.parametrize("packed", [False, True], ids=["text", "gzip"])
def test_standard_input_with_a_budget_is_aggregated_by_blocks(
    packed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = clean_log(tmp_path)
    data = gzip.compress(log.read_bytes()) if packed else log.read_bytes()
    _stdin(monkeypatch, data)
    assert main(["check", "-", "--memory", "1M"]) == 0  # more than the log: stdin is not sized
    bounded = capsys.readouterr()
    assert "bounded memory: aggregating by blocks (standard input cannot be sized" in bounded.err
    _stdin(monkeypatch, data)
    assert main(["check", "-"]) == 0
    memory = capsys.readouterr()
    assert "bounded" not in memory.err and bounded.out == memory.out
    assert bounded_mode(["-"], None)[0] is False  # without --memory: read in memory, as before


def test_standard_input_is_partitioned_as_the_same_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input's rows are spread over as many partitions as the same log's named as a
    file (before, one partition: all of stdin in memory at once), and its copy is gone."""
    log = clean_log(tmp_path)
    spill = tmp_path / "spill"
    spill.mkdir()
    from_file = aggregate_logs(log, memory=4096)
    _stdin(monkeypatch, log.read_bytes())
    seen: list[list[str]] = []
    from_stdin = aggregate_logs(
        "-", memory=4096, directory=str(spill), partitions=lambda done, total: seen.append(_spill_files(spill))
    )
    assert from_file.partitions > 1 and from_stdin.partitions == from_file.partitions
    assert not any(name.startswith("stdin") for names in seen for name in names)  # read, then removed
    assert_same(from_stdin.table, aggregate(read_logs(log)))
    assert from_stdin.files == ("<stdin>",)
    assert folders(spill) == []


def _spill_files(spill: Path) -> list[str]:
    return [p.name for d in spill.iterdir() for p in d.iterdir()]


# -- a full disk ---------------------------------------------------------------------------------


class _FullDisk(io.RawIOBase):
    """A file on a disk with ``room`` bytes left: writes are cut short at the room left, then
    fail with ENOSPC, as write(2) does."""

    def __init__(self, room: list[int]) -> None:
        self.room = room

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        size = memoryview(data).nbytes  # type: ignore[arg-type]
        if not self.room[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(size, self.room[0])
        self.room[0] -= n
        return n


def test_a_full_spill_disk_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    room = [5000]
    real_open = open

    def full_open(path: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if "a" in mode or "w" in mode:
            return io.BufferedWriter(_FullDisk(room))
        return real_open(path, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(_spill, "open", full_open, raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "spill"))
    monkeypatch.setattr("tempfile.tempdir", None)  # TMPDIR read again
    (tmp_path / "spill").mkdir()
    log = clean_log(tmp_path)
    assert main(["check", str(log), "--memory", "1K"]) == 1
    err = capsys.readouterr().err
    folder = f"{tmp_path / 'spill'}{os.sep}rankboard_spill_"
    assert f"rankboard: the disk holding the spill folder {folder}" in err
    assert " is full (no space left on device)" in err and "requested" not in err
    assert folders(tmp_path / "spill") == []


def test_a_full_tmpfs_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same on a real disk: a 64 kB tmpfs (as root only)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        log = clean_log(tmp_path)  # 67 kB of text, 432 kB of rows
        with pytest.raises(_spill.SpillFull, match=f"the disk holding the spill folder {mount}/rankboard_spill_"):
            aggregate_logs(log, memory=1024, directory=str(mount))
        assert folders(mount) == []
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
