"""The cross-validation runner, killed for real (SIGKILL) and resumed, against an uninterrupted run."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from stats.runner._cv import run_cv

pytest.importorskip("sklearn")
ROOT = Path(__file__).resolve().parents[1]
UNITS = 2 * 3 * 3 * 3  # iris + wine, 3 repeats x 3 folds, 3 learners
LINES = UNITS * 6  # pd, pf, precision, accuracy, balance, runtime

# The experiment, as a module: the killed child processes and the in-process reference run share it.
JOB = """
import json, os, signal, sys, time
from sklearn.datasets import load_iris, load_wine
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
import stats.runner._log
from stats.runner._cv import run_cv

def datasets():
    return {name: loader(return_X_y=True) for name, loader in (("iris", load_iris), ("wine", load_wine))}

def learners():
    return {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=1), "knn, k=3": KNeighborsClassifier(3)}

def run(out, progress=None):
    return run_cv(datasets(), learners(), out, repeats=3, folds=3, seed=11, progress=progress)

if __name__ == "__main__":
    out, delay, tear = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    if tear:  # the tear-th unit: write part of it (a torn third line), make it durable, then SIGKILL ourselves
        real, count = stats.runner._log.Appender.write, [0]
        def torn_write(self, payload):
            count[0] += 1
            if count[0] == tear:
                cut = payload.index(b"\\n", payload.index(b"\\n") + 1) + 8
                os.write(self._fd, payload[:cut]); os.fsync(self._fd)
                print(json.dumps({"cut": cut, "unit": len(payload)}), flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
            real(self, payload)
        stats.runner._log.Appender.write = torn_write
    summary = run(out, progress=lambda done, total, what: time.sleep(delay))
    print(json.dumps({"done": summary.units_done, "skipped": summary.units_skipped}), flush=True)
"""


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ModuleType]:
    path = tmp_path_factory.mktemp("job") / "cvjob.py"
    path.write_text(JOB)
    spec = importlib.util.spec_from_file_location("cvjob", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module


@pytest.fixture(scope="module")
def reference(job: tuple[Path, ModuleType], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reference")
    summary = job[1].run(out)
    assert (summary.units_done, summary.units_skipped) == (UNITS, 0)
    return out


def _start(script: Path, out: Path, *, delay: float = 0.0, tear: int = 0) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, str(script), str(out), str(delay), str(tear)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _lines_written(out: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in out.glob("*.dat"))


def _kill_after(script: Path, out: Path, lines: int) -> int:
    """Start a run, SIGKILL it once at least ``lines`` lines are on disk; return the lines then."""
    proc = _start(script, out, delay=0.02)
    deadline = time.monotonic() + 60
    while _lines_written(out) < lines and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert proc.poll() is None, f"the run ended before {lines} lines: {proc.communicate()}"
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    return _lines_written(out)


def _records(out: Path) -> dict[tuple[str, int, int, str, str], float]:
    """Every line of every log as key -> value; fails on a torn line or a duplicate key."""
    found: dict[tuple[str, int, int, str, str], float] = {}
    for path in sorted(out.glob("*.dat")):
        text = path.read_text(encoding="utf-8")
        assert text.endswith("\n"), f"{path} ends in a torn line"
        for row in csv.reader(io.StringIO(text)):
            d, r, n, learner, criterion, value = row
            key = (d, int(r), int(n), learner, criterion)
            assert key not in found, f"duplicate line {key}"
            found[key] = float(value)
    return found


def _assert_readable(out: Path) -> bool:
    """Every line of a killed log is complete, except perhaps a last one without newline; True if torn."""
    torn = False
    for path in out.glob("*.dat"):
        data = path.read_bytes()
        whole, _, tail = data.rpartition(b"\n")
        for row in csv.reader(io.StringIO(whole.decode("utf-8") + "\n" if whole else "")):
            assert len(row) == 6 and float(row[5]) >= 0, row
        torn |= bool(tail)
    return torn


def _assert_same_results(out: Path, reference: Path) -> None:
    got, want = _records(out), _records(reference)
    assert len(want) == LINES
    assert got.keys() == want.keys()
    differ = {k: (got[k], want[k]) for k in want if k[4] != "runtime" and got[k] != want[k]}
    assert not differ


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_killed_at_several_points_then_resumed_equals_uninterrupted_run(
    job: tuple[Path, ModuleType], reference: Path, tmp_path: Path
) -> None:
    script, _ = job
    out = tmp_path / "killed"
    history = []
    # Kill points: during start-up (before any line), after the first unit, mid-iris, mid-wine.
    for target in (0, 6, LINES // 3, 2 * LINES // 3):
        before = {p.name: p.read_bytes() for p in out.glob("*.dat")}
        lines = _kill_after(script, out, target)
        history.append(lines)
        assert lines >= target
        _assert_readable(out)
        for name, old in before.items():  # complete units are never rewritten
            assert (out / name).read_bytes().startswith(old)
    print("kill points (lines on disk):", history)
    assert 0 < history[-1] < LINES, history
    assert history == sorted(history)
    # Kill point inside a unit's write: a torn line and an incomplete unit on disk.
    size_before = {p.name: p.stat().st_size for p in out.glob("*.dat")}
    proc = _start(script, out, tear=3)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, stderr
    cut = json.loads(stdout)["cut"]
    assert _assert_readable(out)
    grown = [p for p in out.glob("*.dat") if p.stat().st_size != size_before.get(p.name, 0)]
    assert len(grown) == 1
    torn_file, kept = grown[0], grown[0].read_bytes()[:-cut]
    # Resume to the end.
    proc = _start(script, out)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["skipped"] > 0 and summary["done"] > 0
    assert summary["done"] + summary["skipped"] == UNITS
    assert torn_file.read_bytes().startswith(kept)
    _assert_same_results(out, reference)
    # A completed run resumed does nothing: no unit, no write.
    stamps = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*.dat")}
    again = job[1].run(out)
    assert (again.units_done, again.units_skipped, again.files_written) == (0, UNITS, ())
    assert stamps == {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*.dat")}


def _copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for p in src.glob("*.dat"):
        (dst / p.name).write_bytes(p.read_bytes())
    return dst


@pytest.mark.parametrize("cut", [1, 10, 40, 100])
def test_torn_last_line_is_repaired(job: tuple[Path, ModuleType], reference: Path, tmp_path: Path, cut: int) -> None:
    out = _copy(reference, tmp_path / "torn")
    path = out / "wine.dat"
    whole = path.read_bytes()
    path.write_bytes(whole[:-cut])  # the last unit loses its newline, its runtime line, ...
    summary = job[1].run(out)
    assert (summary.units_done, summary.units_skipped) == (1, UNITS - 1)
    assert summary.files_repaired == (path,)
    complete_units = whole[: len(whole) - len(b"".join(whole.splitlines(keepends=True)[-6:]))]
    assert path.read_bytes().startswith(complete_units)  # every complete unit kept, byte for byte
    _assert_same_results(out, reference)


def test_a_fragment_after_complete_units_is_removed_and_nothing_rerun(
    job: tuple[Path, ModuleType], reference: Path, tmp_path: Path
) -> None:
    out = _copy(reference, tmp_path / "fragment")
    whole = (out / "iris.dat").read_bytes()
    (out / "iris.dat").write_bytes(whole + b'iris,3,3,"knn, k')
    summary = job[1].run(out)
    assert (summary.units_done, summary.files_repaired) == (0, (out / "iris.dat",))
    assert (out / "iris.dat").read_bytes() == whole


def test_an_incomplete_unit_inside_the_log_is_refused(
    job: tuple[Path, ModuleType], reference: Path, tmp_path: Path
) -> None:
    out = _copy(reference, tmp_path / "hole")
    lines = (out / "iris.dat").read_bytes().splitlines(keepends=True)
    (out / "iris.dat").write_bytes(b"".join(lines[:8] + lines[9:]))  # unit 2 (lines 7-12) loses precision
    with pytest.raises(ValueError, match=r"iris\.dat:7: unit \('iris', 1, 1, 'tree'\) lacks precision"):
        job[1].run(out)
    (out / "iris.dat").write_bytes(b"".join(lines[:3]) + b"iris,1,1,nb\n")
    with pytest.raises(ValueError, match=r"iris\.dat:4: expected 6 fields, found 4"):
        job[1].run(out)


def test_values_round_trip_through_the_loader_and_names_are_quoted(tmp_path: Path) -> None:
    from sklearn.datasets import load_wine
    from sklearn.neighbors import KNeighborsClassifier

    from stats import read_logs
    from stats.runner._folds import fold_assignment
    from stats.runner.metrics import balance, evaluate

    X, y = load_wine(return_X_y=True)
    name, learner = 'wine, "red"', "knn, k=1"
    run_cv({name: (X, y)}, {learner: KNeighborsClassifier(1)}, tmp_path, repeats=2, folds=4, seed=3)
    path = tmp_path / f"{name}.dat"
    assert path.read_text().splitlines()[0].startswith('"wine, ""red""",1,1,"knn, k=1",pd,')
    log = read_logs(path)
    assert set(log["dataset"]) == {name} and set(log["learner"]) == {learner}
    assert list(log["criterion"][:6]) == ["pd", "pf", "precision", "accuracy", "balance", "runtime"]
    fold = fold_assignment(y, folds=4, seed=3, dataset=name, repeat=2)
    test = fold == 3
    model = KNeighborsClassifier(1).fit(X[~test], y[~test])
    want = evaluate(y[test], model.predict(X[test]), labels=[0, 1, 2])
    rows = log[(log["repeat"] == 2) & (log["fold"] == 3)].set_index("criterion")["value"]
    assert {c: rows[c] for c in want} == want  # exact: repr precision
    assert rows["balance"] == balance(want["pd"], want["pf"])


def test_folds_are_stratified_seeded_and_cover_every_instance() -> None:
    from stats.runner._folds import fold_assignment, fold_seed

    y = np.array([0] * 50 + [1] * 23 + [2] * 7)
    fold = fold_assignment(y, folds=5, seed=0, dataset="d", repeat=1)
    assert sorted(set(fold)) == [1, 2, 3, 4, 5]
    sizes = np.bincount(fold)[1:]
    assert sizes.max() - sizes.min() <= 1
    for label in (0, 1, 2):
        counts = np.bincount(fold[y == label], minlength=6)[1:]
        assert counts.max() - counts.min() <= 1
    assert np.array_equal(fold, fold_assignment(y, folds=5, seed=0, dataset="d", repeat=1))
    assert not np.array_equal(fold, fold_assignment(y, folds=5, seed=0, dataset="d", repeat=2))
    assert not np.array_equal(fold, fold_assignment(y, folds=5, seed=0, dataset="e", repeat=1))
    assert not np.array_equal(fold, fold_assignment(y, folds=5, seed=1, dataset="d", repeat=1))
    seeds = {fold_seed(seed=0, dataset="d", repeat=r, fold=n) for r in (1, 2) for n in (1, 2, 3)}
    assert len(seeds) == 6 and all(0 <= s < 2**32 for s in seeds)


def test_random_learners_get_the_fold_seed_unless_set(tmp_path: Path) -> None:
    from sklearn.datasets import load_iris
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from stats.runner._cv import _fresh

    assert _fresh(RandomForestClassifier(), 42).random_state == 42
    assert _fresh(RandomForestClassifier(random_state=7), 42).random_state == 7
    assert _fresh(make_pipeline(LogisticRegression()), 42).get_params()["logisticregression__random_state"] == 42
    data = {"iris": load_iris(return_X_y=True)}
    forest = {"forest": RandomForestClassifier(n_estimators=3, max_features=1)}
    runs = [run_cv(data, forest, tmp_path / str(i), repeats=2, folds=3) for i in range(2)]
    assert all(r.units_done == 6 for r in runs)
    _assert_same_results_any(tmp_path / "0", tmp_path / "1")


def _assert_same_results_any(a: Path, b: Path) -> None:
    got, want = _records(a), _records(b)
    assert got.keys() == want.keys()
    assert {k: v for k, v in got.items() if k[4] != "runtime"} == {k: v for k, v in want.items() if k[4] != "runtime"}


def test_progress_callback_and_rich_bar(tmp_path: Path) -> None:
    from rich.console import Console
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    from tui.progress import rich_progress

    data, nb = {"iris": load_iris(return_X_y=True)}, {"nb": GaussianNB()}
    calls: list[tuple[int, int, str]] = []
    run_cv(data, nb, tmp_path, repeats=2, folds=2, progress=lambda *a: calls.append(a))
    assert calls[0] == (0, 4, "4 units to run")
    assert [c[:2] for c in calls[1:]] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert calls[-1][2] == "iris r2 f2 nb"
    (tmp_path / "iris.dat").write_bytes(b"".join((tmp_path / "iris.dat").read_bytes().splitlines(True)[:12]))
    screen = io.StringIO()
    with rich_progress(console=Console(file=screen, width=100)) as progress:
        summary = run_cv(data, nb, tmp_path, repeats=2, folds=2, progress=progress)
    assert (summary.units_done, summary.units_skipped) == (2, 2)
    assert "4/4" in screen.getvalue() and "iris r2 f2 nb" in screen.getvalue()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"folds": 1}, "folds must be at least 2, got 1"),
        ({"repeats": 0}, "repeats must be at least 1, got 0"),
        ({"seed": -1}, "seed must be non-negative"),
        ({"folds": 2.5}, "folds must be an integer"),
        ({"datasets": {}}, "datasets is empty"),
        ({"learners": {}}, "learners is empty"),
        ({"datasets": {"a/b": ([[0.0]] * 4, [0, 1] * 2)}}, "used as a file name"),
        ({"datasets": {" a": ([[0.0]] * 4, [0, 1] * 2)}}, "surrounding spaces"),
        ({"learners": {"x\ny": None}}, "line breaks"),
        ({"datasets": {"a": ([[0.0]] * 4, [1] * 4)}}, "fewer than two classes"),
        ({"datasets": {"a": ([[0.0]] * 2, [0, 1])}}, "2 instances cannot make 3 folds"),
        ({"datasets": {"a": ([0.0] * 4, [0, 1] * 2)}}, "X must be 2-D"),
    ],
)
def test_validation_errors(tmp_path: Path, kwargs: dict, message: str) -> None:
    args = {"datasets": {"a": ([[0.0]] * 6, [0, 1] * 3)}, "learners": {"nb": object()}, "folds": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        run_cv(args.pop("datasets"), args.pop("learners"), tmp_path, **args)
    assert not list(tmp_path.glob("*.dat"))


def test_runner_imports_neither_sklearn_nor_rich() -> None:
    code = (
        "import sys, stats.runner._cv, stats.runner.metrics, stats.runner._folds\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'rich', 'textual', 'tui'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""
