"""Two runners on one output folder (issue 30, item 11): the second is refused, naming the folder
and the first runner's PID, instead of writing every unit a second time; the lock goes with the
first runner, however it ends (SIGKILL included). The first runner is a child process held
inside its first ``fit`` until the test lets it go: the test waits on a line the child writes
to a pipe, never on time."""

from __future__ import annotations

import csv
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from stats.runner import FolderBusy, run_cv

ROOT = Path(__file__).resolve().parents[1]
UNITS = 2  # one data set, 1 repeat x 2 folds, one learner
LINES = UNITS * 6  # pd, pf, precision, accuracy, balance, runtime

# The first runner: its first fit says "fitting" on stdout, then waits for a line on stdin.
CHILD = r"""
import sys
import numpy as np
from stats.runner import run_cv

class Held:
    fits = 0
    def fit(self, X, y):
        Held.fits += 1
        if Held.fits == 1:
            print("fitting", flush=True)
            sys.stdin.readline()
        self.label = y[0]
        return self
    def predict(self, X):
        return np.full(len(X), self.label)

X, y = np.arange(20.0).reshape(10, 2), np.array([0, 1] * 5)
summary = run_cv({"toy": (X, y)}, {"const": Held()}, sys.argv[1], repeats=1, folds=2)
print(summary.units_done, flush=True)
"""


class Constant:
    """A learner predicting the first training label (the child's, without the wait)."""

    def fit(self, X: np.ndarray, y: np.ndarray) -> Constant:
        self.label = y[0]
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        return np.full(len(X), self.label)


def run(out: Path) -> tuple[int, int]:
    X, y = np.arange(20.0).reshape(10, 2), np.array([0, 1] * 5)
    summary = run_cv({"toy": (X, y)}, {"const": Constant()}, out, repeats=1, folds=2)
    return summary.units_done, summary.units_skipped


def start_held(out: Path) -> subprocess.Popen[str]:
    """The first runner, once it holds the folder and is inside its first fit."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    line = proc.stdout.readline() if ready else ""
    if line != "fitting\n":
        proc.kill()
        pytest.fail(f"the first runner did not start: {line!r} {proc.communicate()}")
    return proc


def refused(out: Path, proc: subprocess.Popen[str]) -> None:
    """A second run on ``out`` is refused, naming the folder and the first runner, and writes nothing."""
    before = {p.name: p.read_bytes() for p in out.glob("*.dat")}
    with pytest.raises(FolderBusy) as exc:
        run(out)
    message = str(exc.value)
    assert message.startswith(f"{out} is in use by another runner (PID {proc.pid},"), message
    assert "every unit twice" in message
    assert {p.name: p.read_bytes() for p in out.glob("*.dat")} == before


def each_unit_once(out: Path) -> None:
    rows = list(csv.reader((out / "toy.dat").read_text().splitlines()))
    keys = [tuple(row[:5]) for row in rows]
    assert len(keys) == LINES and len(set(keys)) == LINES


def test_a_second_runner_is_refused_and_resumes_once_the_first_has_finished(tmp_path: Path) -> None:
    proc = start_held(tmp_path)
    try:
        refused(tmp_path, proc)
    finally:
        out, err = proc.communicate("\n", timeout=60)  # let the first runner go on
    assert proc.returncode == 0 and out == f"{UNITS}\n", err
    assert run(tmp_path) == (0, UNITS)  # the lock went with it: resumed, nothing to do
    each_unit_once(tmp_path)


def test_a_runner_killed_by_sigkill_leaves_no_lock_behind(tmp_path: Path) -> None:
    proc = start_held(tmp_path)
    try:
        refused(tmp_path, proc)
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert run(tmp_path) == (UNITS, 0)  # the kernel let go of the lock: nothing to clear by hand
    each_unit_once(tmp_path)
