"""``rankboard convert`` leaves nothing behind and keeps the logs' order (issue 30, item 11).

The temporary file is removed on SIGTERM, SIGHUP and SIGINT, and the process then ends by the
signal; one a SIGKILL left (nothing can catch it) is removed by the next write into the folder,
while a live writer's is kept. The killed converter is a child process held inside its write
until it is signalled: the test waits on a line the child writes to a pipe, never on time.

After a rerun in a log (a key logged again later: the later line wins), the converted file
names the data sets, learners and criteria in the order the text did, so the report on it prints
the same bytes as the report on the text.
"""

from __future__ import annotations

import fcntl
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from stats import read_logs
from tui.atomic import clear_stale
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
CV = str(ROOT / "sample_logs" / "cv")

# A converter whose write puts out some bytes, says "writing" on stdout, then waits on stdin.
CHILD = r"""
import sys
import tui.convert
from tui.cli import main

def held(table, fmt):
    def write(handle):
        handle.write(b"PAR1 and some of a table")
        handle.flush()
        print("writing", flush=True)
        sys.stdin.readline()
    return write

tui.convert.writer = held
sys.exit(main(["convert", sys.argv[1], "-o", sys.argv[2]]))
"""


def start_held(out: Path) -> subprocess.Popen[str]:
    """A ``convert`` to ``out``, once its temporary file is there and partly written."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, CV, str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    line = proc.stdout.readline() if ready else ""
    if line != "writing\n":
        proc.kill()
        pytest.fail(f"the converter did not start writing: {line!r} {proc.communicate()}")
    return proc


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["TERM", "HUP", "INT"])
def test_a_caught_signal_removes_the_temporary_file_and_ends_the_process_by_it(
    tmp_path: Path, signum: signal.Signals
) -> None:
    out = tmp_path / "r.parquet"
    proc = start_held(out)
    temporaries = [p.name for p in tmp_path.iterdir()]
    assert len(temporaries) == 1 and temporaries[0].startswith(".r.parquet.rankboard-")  # it is being written
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signum, err  # ended by the signal, as a shell expects (no traceback)
    assert list(tmp_path.iterdir()) == []  # neither the file nor its temporary one


def test_a_temporary_file_left_by_sigkill_is_removed_by_the_next_write_a_live_one_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    proc = start_held(out)
    try:
        (left,) = tmp_path.iterdir()
        assert left.name.startswith(f".r.parquet.rankboard-{proc.pid}-") and left.name.endswith(".tmp")
        # another conversion into the folder while the writer lives: its file is not touched
        assert main(["convert", CV, "-o", str(tmp_path / "other.feather")]) == 0
        assert left.exists()
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL and left.exists()  # nothing can catch SIGKILL
    assert main(["convert", CV, "-o", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.feather", "r.parquet"]
    capsys.readouterr()


def test_a_stale_temporary_file_is_judged_by_its_lock_too(tmp_path: Path) -> None:
    """A dead PID is not enough: a file some process holds (a writer on another machine sharing
    the folder, whose PID means nothing here) is kept until its lock is let go."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    held = tmp_path / f".r.parquet.rankboard-{pid}-0123abcd.tmp"
    held.write_bytes(b"PAR1")
    other = tmp_path / f".notes.txt.rankboard-{pid}-89abcdef.tmp"  # not this target's: removed too
    other.write_bytes(b"half")
    mine = tmp_path / f".x.rankboard-{os.getpid()}-00000000.tmp"  # a live PID: kept
    mine.write_bytes(b"")
    unrelated = tmp_path / ".r.parquet.rankboard-notes.tmp"  # not a temporary file's name: kept
    unrelated.write_bytes(b"")
    with open(held, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        assert clear_stale(tmp_path) == [other]
        assert held.exists()
    assert clear_stale(tmp_path) == [held]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, unrelated.name])


def rerun_log() -> str:
    """A log whose first unit was run again at the end: the data sets, learners and criteria
    first appear in an order (zoo, abalone, iris; svm, nb, tree; pd, acc) that neither the alphabet
    nor the rows kept after the rerun give."""
    rng = random.Random(30)
    lines = [
        f"{d},{r},{f},{learner},{c},{rng.random():.4f}"
        for d in ("zoo", "abalone", "iris")
        for r in (1, 2)
        for f in (1, 2, 3)
        for learner in ("svm", "nb", "tree")
        for c in ("pd", "acc")
    ]
    return "\n".join([*lines, "zoo,1,1,svm,pd,0.9999", "zoo,1,1,svm,acc,0.0001", ""])


@pytest.mark.parametrize("name", ["back.parquet", "back.feather"])
def test_after_a_rerun_the_conversion_reports_the_same_bytes_as_the_text(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log, out = tmp_path / "rerun.dat", tmp_path / name
    log.write_text(rerun_log())
    assert main(["convert", str(log), "-o", str(out)]) == 0
    capsys.readouterr()
    text, back = read_logs(log, on_error="skip"), read_logs(out)
    for column, first in (("dataset", ["zoo", "abalone", "iris"]), ("learner", ["svm", "nb", "tree"])):
        assert list(text.table[column].cat.categories) == first
        assert list(back.table[column].cat.categories) == first
    assert list(back.table["criterion"].cat.categories) == ["pd", "acc"]
    printed = []
    for source in (log, out):
        assert main(["report", str(source), "--criterion", "acc", "--width", "0"]) == 0
        printed.append(capsys.readouterr().out.replace(str(source), "LOG"))
    assert printed[0] == printed[1]


def test_reruns_anywhere_keep_the_order_of_every_name(tmp_path: Path) -> None:
    """Random logs with lines logged again at random places (few names, many clashes; in 24 of
    the 40 a name is first used by a line replaced later): the converted file gives every name
    column in the text's order, and the same rows."""
    for seed in range(40):
        rng = random.Random(seed)
        names = {k: [f"{k}{i}" for i in rng.sample(range(9), rng.randint(1, 4))] for k in ("d", "l", "c")}
        lines = [
            f"{rng.choice(names['d'])},1,{rng.randint(1, 2)},{rng.choice(names['l'])},{rng.choice(names['c'])},{i}"
            for i in range(rng.randint(2, 30))
        ]
        log, out = tmp_path / f"{seed}.dat", tmp_path / f"{seed}.parquet"
        log.write_text("\n".join(lines) + "\n")
        assert main(["convert", str(log), "-o", str(out)]) == 0
        text, back = read_logs(log, on_error="skip").table, read_logs(out).table
        for column in ("dataset", "learner", "criterion"):
            assert list(back[column].cat.categories) == list(text[column].cat.categories), (seed, column)
        rows = sorted(text.astype(str).itertuples(index=False))
        assert sorted(back.astype(str).itertuples(index=False)) == rows, seed
