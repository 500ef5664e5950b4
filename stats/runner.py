"""Run R x N cross-validation and write seed 000's long-format log, resumably.

Seed 000's loop: for each data set, R repeats of a randomised N-way split; for
each fold and learner, train, then one line per criterion
``dataset,repeat,fold,learner,criterion,value`` and a ``runtime`` line.
"If this dies half way through, need to pick where left off": every
(dataset, repeat, fold, learner) *unit* is appended with one write and an
fsync, and a rerun skips the units already complete.

This module imports neither scikit-learn (a learner is anything with ``fit``
and ``predict``; scikit-learn's ``clone`` is used when it is installed) nor rich.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stats._cvlog import Appender, Key, repair, scan, unit_bytes
from stats.folds import fold_assignment, fold_seed
from stats.metrics import CRITERIA, evaluate

#: ``progress(done_units, total_units, description)``; done counts resumed units too.
Progress = Callable[[int, int, str], None]

_LINES = (*CRITERIA, "runtime")


@dataclass(frozen=True)
class RunSummary:
    """What :func:`run_cv` did.

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


def _check_name(kind: str, name: Any, *, file_name: bool = False) -> None:
    if not isinstance(name, str) or not name or name != name.strip() or "\n" in name or "\r" in name:
        raise ValueError(f"{kind} name {name!r} must be a non-empty string without line breaks or surrounding spaces")
    if file_name and ("/" in name or "\\" in name or name in (".", "..")):
        raise ValueError(f"dataset name {name!r} is used as a file name: no '/', '\\', '.' or '..'")


def _check(datasets: Mapping[str, Any], learners: Mapping[str, Any], repeats: int, folds: int, seed: int) -> None:
    if not datasets:
        raise ValueError("datasets is empty")
    if not learners:
        raise ValueError("learners is empty")
    for name, value in (("repeats", repeats), ("folds", folds), ("seed", seed)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if folds < 2:
        raise ValueError(f"folds must be at least 2, got {folds}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    for name in learners:
        _check_name("learner", name)
    for name, (X, y) in datasets.items():
        _check_name("dataset", name, file_name=True)
        x, t = np.asarray(X), np.asarray(y)
        if x.ndim != 2 or t.ndim != 1 or len(x) != len(t):
            raise ValueError(f"dataset {name!r}: X must be 2-D and y 1-D of the same length, got {x.shape}, {t.shape}")
        if len(t) < folds:
            raise ValueError(f"dataset {name!r}: {len(t)} instances cannot make {folds} folds")
        if len(np.unique(t)) < 2:
            raise ValueError(f"dataset {name!r}: y has fewer than two classes")


def _units(
    name: str, y: np.ndarray, learners: Mapping[str, Any], repeats: int, folds: int, seed: int
) -> Iterator[tuple[Key, np.ndarray]]:
    for r in range(1, repeats + 1):
        fold = fold_assignment(y, folds=folds, seed=seed, dataset=name, repeat=r)
        for n in range(1, folds + 1):
            for learner in learners:
                yield (name, r, n, learner), fold


def run_cv(
    datasets: Mapping[str, tuple[Any, Any]],
    learners: Mapping[str, Any],
    out_dir: str | Path,
    *,
    repeats: int = 5,
    folds: int = 5,
    seed: int = 0,
    progress: Progress | None = None,
) -> RunSummary:
    """Cross-validate every learner on every data set, R x N, into ``<out_dir>/<dataset>.dat``.

    Parameters
    ----------
    datasets : mapping of str to (X, y)
        Data set name -> features (2-D, passed through ``numpy.asarray``) and class labels.
        The name is the log's first field and the file name.
    learners : mapping of str to estimator
        Learner name -> an unfitted estimator with ``fit(X, y)`` and ``predict(X)``. Each
        unit trains a fresh copy (``sklearn.base.clone`` if scikit-learn is installed, else
        ``copy.deepcopy``); a ``random_state`` parameter left as None, nested ones included,
        is set to :func:`fold_seed`, so random learners give the same results when resumed.
    out_dir : str or Path
        Directory of the logs (created if missing).
    repeats, folds : int
        R and N (defaults 5 x 5; seed 000 asks for R x N >= 20).
    seed : int
        Fixes the stratified folds (:func:`fold_assignment`) and the learners' random states.
    progress : callable, optional
        ``progress(done_units, total_units, description)``: called once before training
        (done = units resumed) and after each unit written.

    Returns
    -------
    RunSummary
        Units run and resumed, files written and repaired, elapsed seconds.

    Raises
    ------
    ValueError
        Naming the argument: empty mappings, names with line breaks or surrounding spaces,
        a data set name unusable as a file name, ``repeats < 1``, ``folds < 2``, a negative
        seed, X not 2-D, fewer instances than folds, a single class; or ``file:line`` for a
        log the runner cannot resume (a bad line, an incomplete unit inside the file).

    Notes
    -----
    Lines per unit: ``pd``, ``pf``, ``precision``, ``accuracy`` (:func:`stats.metrics.evaluate`:
    the "yes" class of a two-class task is the larger label; more classes are macro-averaged
    one-vs-rest; 0/0 is 0.0), then ``runtime``, the seconds of ``fit`` alone
    (``time.perf_counter`` after - before, seed 000's After - B4). Values are
    ``repr(float)``, so rereading gives the same floats; names with commas or quotes are
    csv-quoted. Units are written repeat by repeat, fold by fold, learner by learner.

    Resume: a rerun with the same arguments reads each log, skips the units that have all
    five lines, and appends the rest; complete units are never rewritten. A torn last line
    (no newline: the kill hit a write) and the lines of an incomplete last unit are cut off
    first (:func:`stats._cvlog.scan`); an incomplete unit anywhere else raises
    ``ValueError``. Changing ``seed`` or ``folds`` between runs is not detected; one runner
    per directory at a time.

    Examples
    --------
    >>> import tempfile
    >>> class Majority:
    ...     def fit(self, X, y):
    ...         values, counts = np.unique(y, return_counts=True)
    ...         self.label = values[np.argmax(counts)]
    ...         return self
    ...     def predict(self, X):
    ...         return np.full(len(X), self.label)
    >>> X, y = np.arange(12.0).reshape(6, 2), np.array([0, 0, 0, 0, 1, 1])
    >>> with tempfile.TemporaryDirectory() as out:
    ...     first = run_cv({"toy": (X, y)}, {"majority": Majority()}, out, repeats=2, folds=2)
    ...     again = run_cv({"toy": (X, y)}, {"majority": Majority()}, out, repeats=2, folds=2)
    >>> first.units_done, again.units_done, again.units_skipped
    (4, 0, 4)
    """
    began = time.perf_counter()
    _check(datasets, learners, repeats, folds, seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    scans = {name: scan(out / f"{name}.dat", _LINES) for name in datasets}
    total = len(datasets) * repeats * folds * len(learners)
    todo = {
        name: [
            (key, fold)
            for key, fold in _units(name, np.asarray(y), learners, repeats, folds, seed)
            if key not in scans[name].complete
        ]
        for name, (_, y) in datasets.items()
    }
    skipped = total - sum(len(units) for units in todo.values())
    done = skipped
    written: list[Path] = []
    repaired: list[Path] = []
    if progress is not None:
        progress(done, total, f"resumed {skipped} of {total} units" if skipped else f"{total} units to run")
    for name, units in todo.items():
        path = out / f"{name}.dat"
        if scans[name].needs_repair:
            repair(path, scans[name].keep)
            repaired.append(path)
            written.append(path)
        if not units:
            continue
        X, y = datasets[name]
        x, t = np.asarray(X), np.asarray(y)
        labels = np.unique(t).tolist()
        log = Appender(path)
        if path not in written:
            written.append(path)
        try:
            for key, fold in units:
                _, r, n, learner = key
                test = fold == n
                model = _fresh(learners[learner], fold_seed(seed=seed, dataset=name, repeat=r, fold=n))
                before = time.perf_counter()
                model.fit(x[~test], t[~test])
                after = time.perf_counter()
                scores = evaluate(t[test], np.asarray(model.predict(x[test])), labels=labels)
                log.write(unit_bytes(key, [*scores.items(), ("runtime", after - before)]))
                done += 1
                if progress is not None:
                    progress(done, total, f"{name} r{r} f{n} {learner}")
        finally:
            log.close()
    return RunSummary(done - skipped, skipped, tuple(written), tuple(repaired), time.perf_counter() - began)
