"""The machinery shared by :func:`stats.runner._cv.run_cv` and :func:`stats.runner._sequence.run_sequence`.

Both walk *units* (dataset, repeat, fold, learner), train a fresh learner on one part of
the data, score it on another and append the unit's lines with one write and an fsync
(:mod:`stats.runner._log`); a rerun skips the complete units. They differ only in how a fold
array splits into training and test rows, and in the extra lines of a unit.

Imports neither scikit-learn (a learner is anything with ``fit`` and ``predict``) nor rich.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stats.core.criteria import TRAINING_SIZE
from stats.runner._folds import fold_seed
from stats.runner._lock import folder_lock
from stats.runner._log import Appender, Key, repair, scan, unit_bytes
from stats.runner.metrics import CLASSIFIER_CRITERIA, CRITERIA, balance, evaluate
from stats.runner.regression_metrics import REGRESSOR_CRITERIA, evaluate_regression

#: ``progress(done_units, total_units, description)``; done counts resumed units too.
Progress = Callable[[int, int, str], None]
#: ``split(fold, n)`` -> (training rows, test rows) of unit fold ``n``, boolean masks.
Split = Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]
TASKS = ("auto", "classification", "regression")


@dataclass(frozen=True)
class RunSummary:
    """What :func:`stats.run_cv` or :func:`stats.run_sequence` did.

    Attributes
    ----------
    units_done : int
        Units (dataset, repeat, fold, learner) trained and written by this run.
    units_skipped : int
        Units already complete in the logs (resumed), not run again.
    files_written : tuple of Path
        Logs this run appended to or repaired.
    files_repaired : tuple of Path
        Logs whose incomplete tail (torn line, incomplete last unit) was cut off.
    elapsed : float
        Wall-clock seconds of the whole call.
    """

    units_done: int
    units_skipped: int
    files_written: tuple[Path, ...]
    files_repaired: tuple[Path, ...]
    elapsed: float

    def __str__(self) -> str:
        return (
            f"{self.units_done} unit(s) run, {self.units_skipped} resumed, "
            f"{len(self.files_written)} file(s) written in {self.elapsed:.1f} s"
        )


@functools.cache
def _cloner() -> Callable[[Any], Any]:
    """``sklearn.base.clone`` (imported on first use, never at import time), else ``copy.deepcopy``."""
    try:
        from sklearn.base import clone
    except ImportError:
        return copy.deepcopy
    return functools.partial(clone, safe=False)


def _fresh(learner: Any, random_state: int) -> Any:
    """An unfitted copy; every ``random_state`` left as None (nested ones too) set to the fold's."""
    model = _cloner()(learner)
    if hasattr(model, "get_params") and hasattr(model, "set_params"):
        params = model.get_params(deep=True)
        unset = {k: random_state for k, v in params.items() if k.split("__")[-1] == "random_state" and v is None}
        if unset:
            model.set_params(**unset)
    return model


def _estimator_type(learner: Any) -> str | None:
    """scikit-learn's estimator type ("classifier", "regressor", ...) without importing scikit-learn."""
    tags = getattr(learner, "__sklearn_tags__", None)
    if callable(tags):
        try:
            return getattr(tags(), "estimator_type", None)
        except Exception:  # a third-party estimator with broken tags: fall back
            pass
    kind = getattr(learner, "_estimator_type", None)
    return kind if isinstance(kind, str) else None


def resolve_task(task: str, learners: Mapping[str, Any]) -> str:
    """``"classification"`` or ``"regression"``: ``task`` itself, or for ``"auto"`` the learners' type.

    Auto: regression when every learner is a scikit-learn regressor (``is_regressor``), else
    classification when none is; a mix raises ``ValueError``.
    """
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, got {task!r}")
    if task != "auto":
        return task
    regressors = [name for name, learner in learners.items() if _estimator_type(learner) == "regressor"]
    if not regressors:
        return "classification"
    if len(regressors) == len(learners):
        return "regression"
    others = [name for name in learners if name not in regressors]
    raise ValueError(
        f"learners mix regressors ({', '.join(regressors)}) and others ({', '.join(others)}): "
        "run them separately or pass task='classification' or task='regression'"
    )


def unit_lines(task: str, *, train_line: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the lines a unit writes, in order; the lines that make a unit complete when resuming)."""
    criteria = CLASSIFIER_CRITERIA if task == "classification" else REGRESSOR_CRITERIA
    lines = (*criteria, *((TRAINING_SIZE,) if train_line else ()), "runtime")
    if task == "classification" and not train_line:
        # A cross-validation log written before ``balance`` existed resumes: its units are complete.
        return lines, (*CRITERIA, "runtime")
    return lines, lines


def check_name(kind: str, name: Any, *, file_name: bool = False) -> None:
    if not isinstance(name, str) or not name or name != name.strip() or "\n" in name or "\r" in name:
        raise ValueError(f"{kind} name {name!r} must be a non-empty string without line breaks or surrounding spaces")
    if file_name and ("/" in name or "\\" in name or name in (".", "..")):
        raise ValueError(f"dataset name {name!r} is used as a file name: no '/', '\\', '.' or '..'")


def check_run(
    datasets: Mapping[str, Any], learners: Mapping[str, Any], counts: Sequence[tuple[str, Any, int]], seed: int
) -> None:
    """Validate the mappings, the integer arguments ``(name, value, minimum)`` and ``seed``."""
    if not datasets:
        raise ValueError("datasets is empty")
    if not learners:
        raise ValueError("learners is empty")
    for name, value, _ in (*counts, ("seed", seed, 0)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    for name, value, least in counts:
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    for name in learners:
        check_name("learner", name)


def check_data(name: str, X: Any, y: Any, *, parts: int, what: str, task: str) -> None:
    """One data set: shapes, enough rows for ``parts`` folds or buckets, and a target fit for ``task``."""
    check_name("dataset", name, file_name=True)
    x, t = np.asarray(X), np.asarray(y)
    if x.ndim != 2 or t.ndim != 1 or len(x) != len(t):
        raise ValueError(f"dataset {name!r}: X must be 2-D and y 1-D of the same length, got {x.shape}, {t.shape}")
    if len(t) < parts:
        raise ValueError(f"dataset {name!r}: {len(t)} instances cannot make {parts} {what}")
    if task == "classification":
        if len(np.unique(t)) < 2:
            raise ValueError(f"dataset {name!r}: y has fewer than two classes")
        return
    if t.dtype.kind not in "iuf" or not np.all(np.isfinite(t)):
        raise ValueError(f"dataset {name!r}: a regression target must be finite numbers, got dtype {t.dtype}")
    if np.any(t == 0):
        raise ValueError(
            f"dataset {name!r}: y holds {int(np.sum(t == 0))} zero(s); MRE = |predicted - actual| / actual "
            "is undefined there"
        )


def _scores(task: str, truth: np.ndarray, predicted: np.ndarray, labels: list[Any]) -> list[tuple[str, float]]:
    if task == "regression":
        return list(evaluate_regression(truth, predicted).items())
    scores = evaluate(truth, predicted, labels=labels)
    return [*scores.items(), ("balance", balance(scores["pd"], scores["pf"]))]


def execute(
    datasets: Mapping[str, tuple[Any, Any]],
    learners: Mapping[str, Any],
    out_dir: str | Path,
    *,
    units: Callable[[str, np.ndarray], Iterator[tuple[Key, np.ndarray]]],
    split: Split,
    task: str,
    train_line: bool,
    seed: int,
    progress: Progress | None,
    began: float,
) -> RunSummary:
    """Run every unit not yet complete in ``<out_dir>/<dataset>.dat``; see :func:`stats.run_cv`.

    The folder is locked for the run (:mod:`stats.runner._lock`): a second runner on it is refused
    with :class:`~stats.runner._lock.FolderBusy` before it scans or writes anything."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with folder_lock(out):  # before the scan: what is complete is then not changing
        lines, required = unit_lines(task, train_line=train_line)
        scans = {name: scan(out / f"{name}.dat", required, lines) for name in datasets}
        every = {name: list(units(name, np.asarray(y))) for name, (_, y) in datasets.items()}
        total = sum(len(u) for u in every.values())
        todo = {name: [(k, fold) for k, fold in every[name] if k not in scans[name].complete] for name in datasets}
        skipped = total - sum(len(u) for u in todo.values())
        done = skipped
        written: list[Path] = []
        repaired: list[Path] = []
        if progress is not None:
            progress(done, total, f"resumed {skipped} of {total} units" if skipped else f"{total} units to run")
        for name, pending in todo.items():
            path = out / f"{name}.dat"
            if scans[name].needs_repair:
                repair(path, scans[name].keep)
                repaired.append(path)
                written.append(path)
            if not pending:
                continue
            X, y = datasets[name]
            x, t = np.asarray(X), np.asarray(y)
            labels = np.unique(t).tolist() if task == "classification" else []
            log = Appender(path)
            if path not in written:
                written.append(path)
            try:
                for key, fold in pending:
                    _, r, n, learner = key
                    train, test = split(fold, n)
                    model = _fresh(learners[learner], fold_seed(seed=seed, dataset=name, repeat=r, fold=n))
                    before = time.perf_counter()
                    model.fit(x[train], t[train])
                    after = time.perf_counter()
                    lines = _scores(task, t[test], np.asarray(model.predict(x[test])), labels)
                    if train_line:
                        lines.append((TRAINING_SIZE, float(np.count_nonzero(train))))
                    log.write(unit_bytes(key, [*lines, ("runtime", after - before)]))
                    done += 1
                    if progress is not None:
                        progress(done, total, f"{name} r{r} f{n} {learner}")
            finally:
                log.close()
        return RunSummary(done - skipped, skipped, tuple(written), tuple(repaired), time.perf_counter() - began)
