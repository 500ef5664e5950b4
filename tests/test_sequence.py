"""stats.run_sequence: the incremental study of Menzies' lecture notes, its log encoding, and SIGKILL + resume."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from stats import learning_curve, plateau, read_logs, run_sequence
from stats.runner._folds import fold_assignment
from tests.test_runner import ROOT, _assert_readable, _kill_after, _records, _start

pytest.importorskip("sklearn")
UNITS = 2 * 3 * 4 * 2  # iris + wine, 3 repeats x buckets 2..5, 2 learners


JOB = """
import json, os, signal, sys, time
from sklearn.datasets import load_iris, load_wine
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
import stats.runner._log
from stats import run_sequence

def datasets():
    return {name: loader(return_X_y=True) for name, loader in (("iris", load_iris), ("wine", load_wine))}

def learners():
    return {"nb": GaussianNB(), "tree": DecisionTreeClassifier()}

def run(out, progress=None):
    return run_sequence(datasets(), learners(), out, repeats=3, buckets=5, seed=4, progress=progress)

if __name__ == "__main__":
    out, delay, tear = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    if tear:
        real, count = stats.runner._log.Appender.write, [0]
        def torn_write(self, payload):
            count[0] += 1
            if count[0] == tear:
                cut = payload.index(b"\\n", payload.index(b"\\n") + 1) + 8
                os.write(self._fd, payload[:cut]); os.fsync(self._fd)
                print(json.dumps({"cut": cut}), flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
            real(self, payload)
        stats.runner._log.Appender.write = torn_write
    summary = run(out, progress=lambda done, total, what: time.sleep(delay))
    print(json.dumps({"done": summary.units_done, "skipped": summary.units_skipped}), flush=True)
"""
PER_UNIT = 7


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ModuleType]:
    path = tmp_path_factory.mktemp("seqjob") / "seqjob.py"
    path.write_text(JOB)
    spec = importlib.util.spec_from_file_location("seqjob", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module


@pytest.fixture(scope="module")
def reference(job: tuple[Path, ModuleType], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seqref")
    summary = job[1].run(out)
    assert (summary.units_done, summary.units_skipped) == (UNITS, 0)
    return out


def test_log_encoding_and_an_independent_recomputation(reference: Path) -> None:
    from sklearn.datasets import load_wine
    from sklearn.naive_bayes import GaussianNB

    from stats.runner.metrics import balance, evaluate

    log = read_logs(reference / "wine.dat")
    assert len(log) == UNITS // 2 * PER_UNIT
    assert sorted(log["fold"].unique()) == [2, 3, 4, 5]  # the test bucket I; bucket 1 is never tested
    assert list(log["criterion"][:PER_UNIT]) == ["pd", "pf", "precision", "accuracy", "balance", "train", "runtime"]
    X, y = load_wine(return_X_y=True)  # 178 instances in 5 buckets: 36, 36, 36, 35, 35
    train = log[log["criterion"] == "train"].groupby("fold", observed=True)["value"]
    assert train.min().tolist() == train.max().tolist() == [36.0, 72.0, 108.0, 143.0]
    bucket = fold_assignment(y, folds=5, seed=4, dataset="wine", repeat=2)
    fit, test = bucket <= 2, bucket == 3  # I = 3: train on buckets 1..2
    want = evaluate(y[test], GaussianNB().fit(X[fit], y[fit]).predict(X[test]), labels=[0, 1, 2])
    rows = log[(log["repeat"] == 2) & (log["fold"] == 3) & (log["learner"] == "nb")]
    got = dict(zip(rows["criterion"].astype(str), rows["value"]))
    assert {c: got[c] for c in want} == want
    assert got["balance"] == balance(want["pd"], want["pf"]) and got["train"] == 72.0


def test_rankboard_check_accepts_a_sequence_log(reference: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tui.cli import main; sys.exit(main(sys.argv[1:]))",
            "check",
            str(reference / "iris.dat"),
            str(reference / "wine.dat"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 error(s)" in out.stdout
    print(out.stdout)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_killed_then_resumed_equals_uninterrupted_run(
    job: tuple[Path, ModuleType], reference: Path, tmp_path: Path
) -> None:
    script, _ = job
    out = tmp_path / "killed"
    total = UNITS * PER_UNIT
    history = []
    for target in (PER_UNIT, total // 2):  # after the first unit, mid-iris/wine
        before = {p.name: p.read_bytes() for p in out.glob("*.dat")}
        history.append(_kill_after(script, out, target))
        _assert_readable(out)
        for name, old in before.items():  # complete units are never rewritten
            assert (out / name).read_bytes().startswith(old)
    assert 0 < history[-1] < total and history == sorted(history), history
    proc = _start(script, out, tear=2)  # a torn line inside the second unit this run writes
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, stderr
    assert _assert_readable(out)
    proc = _start(script, out)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["skipped"] > 0 and summary["done"] > 0 and summary["done"] + summary["skipped"] == UNITS
    got, want = _records(out), _records(reference)
    assert len(want) == total and got.keys() == want.keys()
    assert {k: v for k, v in got.items() if k[4] != "runtime"} == {k: v for k, v in want.items() if k[4] != "runtime"}


def test_a_cross_validation_directory_is_refused(tmp_path: Path) -> None:
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    from stats import run_cv

    data, nb = {"iris": load_iris(return_X_y=True)}, {"nb": GaussianNB()}
    run_cv(data, nb, tmp_path, repeats=1, folds=3)
    kept = (tmp_path / "iris.dat").read_bytes()
    with pytest.raises(
        ValueError, match=r"iris\.dat:\d+: unit \('iris', 1, 1, 'nb'\) lacks train and is not at the end"
    ):
        run_sequence(data, nb, tmp_path, repeats=1, buckets=3)
    (tmp_path / "seq").mkdir()
    run_sequence(data, nb, tmp_path / "seq", repeats=1, buckets=3)
    with pytest.raises(ValueError, match=r"iris\.dat:6: criterion 'train' is not one this runner writes"):
        run_cv(data, nb, tmp_path / "seq", repeats=1, folds=3)
    assert (tmp_path / "iris.dat").read_bytes() == kept  # nothing cut, nothing appended


def test_regression_sequence_and_its_plateau(tmp_path: Path) -> None:
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(0)
    X = rng.uniform(1, 2, size=(400, 3))
    y = 10 + X @ np.array([3.0, -2.0, 1.0]) + rng.normal(0, 0.3, 400)
    summary = run_sequence({"lin": (X, y)}, {"lsr": LinearRegression()}, tmp_path, repeats=8, buckets=8)
    assert summary.units_done == 8 * 7
    log = read_logs(tmp_path / "lin.dat")
    assert set(log["criterion"]) == {"mmre", "pred25", "pred30", "correlation", "train", "runtime"}
    sizes, values = learning_curve(log, dataset="lin", learner="lsr", criterion="mmre")
    assert sorted(set(sizes)) == [50.0 * i for i in range(1, 8)]
    result = plateau(sizes, values, higher_is_better=False)
    assert result.reached and result.size <= 150  # a 3-feature linear model is learnt from very few rows
    print(result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"buckets": 1}, "buckets must be at least 2, got 1"), ({"buckets": 200}, "cannot make 200 buckets")],
)
def test_validation(tmp_path: Path, kwargs: dict, message: str) -> None:
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    with pytest.raises(ValueError, match=message):
        run_sequence({"iris": load_iris(return_X_y=True)}, {"nb": GaussianNB()}, tmp_path, **kwargs)
    assert not list(tmp_path.glob("*.dat"))
