"""Run R x N cross-validation and write the long-format log of Menzies' notes, resumably.

The loop of Menzies' notes: for each data set, R repeats of a randomised N-way split; for
each fold and learner, train, then one line per criterion
``dataset,repeat,fold,learner,criterion,value`` and a ``runtime`` line.
"If this dies half way through, need to pick where left off": every
(dataset, repeat, fold, learner) *unit* is appended with one write and an
fsync, and a rerun skips the units already complete.

Classifiers are scored by :data:`stats.runner.metrics.CLASSIFIER_CRITERIA` (Menzies' pd, pf,
precision, accuracy and balance), scikit-learn regressors by
:data:`stats.runner.regression_metrics.REGRESSOR_CRITERIA` (MMRE, PRED(25), PRED(30), correlation).
The loop itself lives in :mod:`stats.runner._loop`, shared with :func:`stats.run_sequence`.

This module imports neither scikit-learn (a learner is anything with ``fit``
and ``predict``; scikit-learn's ``clone`` is used when it is installed) nor rich.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from stats.runner._folds import fold_assignment
from stats.runner._log import Key
from stats.runner._loop import (
    Progress,
    RunSummary,
    _fresh,  # noqa: F401  (tests import it from here)
    check_data,
    check_run,
    execute,
    resolve_task,
)

__all__ = ["Progress", "RunSummary", "run_cv"]


def _units(
    name: str, y: np.ndarray, learners: Mapping[str, Any], repeats: int, folds: int, seed: int, stratified: bool
) -> Iterator[tuple[Key, np.ndarray]]:
    for r in range(1, repeats + 1):
        fold = fold_assignment(y, folds=folds, seed=seed, dataset=name, repeat=r, stratified=stratified)
        for n in range(1, folds + 1):
            for learner in learners:
                yield (name, r, n, learner), fold


def _split(fold: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    test = fold == n
    return ~test, test


def run_cv(
    datasets: Mapping[str, tuple[Any, Any]],
    learners: Mapping[str, Any],
    out_dir: str | Path,
    *,
    repeats: int = 5,
    folds: int = 5,
    seed: int = 0,
    task: str = "auto",
    progress: Progress | None = None,
) -> RunSummary:
    """Cross-validate every learner on every data set, R x N, into ``<out_dir>/<dataset>.dat``.

    Parameters
    ----------
    datasets : mapping of str to (X, y)
        Data set name -> features (2-D, passed through ``numpy.asarray``) and class labels
        (classification) or numeric targets (regression). The name is the log's first field
        and the file name.
    learners : mapping of str to estimator
        Learner name -> an unfitted estimator with ``fit(X, y)`` and ``predict(X)``. Each
        unit trains a fresh copy (``sklearn.base.clone`` if scikit-learn is installed, else
        ``copy.deepcopy``); a ``random_state`` parameter left as None, nested ones included,
        is set to :func:`fold_seed`, so random learners give the same results when resumed.
    out_dir : str or Path
        Directory of the logs (created if missing).
    repeats, folds : int
        R and N (defaults 5 x 5; Menzies' notes ask for R x N >= 20).
    seed : int
        Fixes the folds (:func:`fold_assignment`) and the learners' random states.
    task : {"auto", "classification", "regression"}
        What the learners predict. ``"auto"``: regression when every learner is a
        scikit-learn regressor (its estimator type, read without importing scikit-learn),
        classification when none is; a mix raises ``ValueError``.
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
        seed, X not 2-D, fewer instances than folds, a single class (classification), a
        target that is not finite numbers or holds a 0 (regression: MRE divides by it), a
        mix of regressors and classifiers with ``task="auto"``; or ``file:line`` for a log
        the runner cannot resume (a bad line, an incomplete unit inside the file).
    FolderBusy
        Another runner is writing to ``out_dir`` (its PID in the message): refused before
        anything is read or written, since two runners would write every unit twice
        (:mod:`stats.runner._lock`).

    Notes
    -----
    Lines per unit, classification: ``pd``, ``pf``, ``precision``, ``accuracy``
    (:func:`stats.runner.metrics.evaluate`: the "yes" class of a two-class task is the larger label;
    more classes are macro-averaged one-vs-rest; 0/0 is 0.0), ``balance``
    (:func:`stats.runner.metrics.balance` of that pd and pf), then ``runtime``, the seconds of
    ``fit`` alone (``time.perf_counter`` after - before, Menzies' After - B4).

    Regression: ``mmre``, ``pred25``, ``pred30`` (fractions: PRED(25) and PRED(30) of the
    fold's test cases) and ``correlation`` (of actual and predicted, Menzies' one-pass
    loop; 0.0 when the predictions are constant), then ``runtime``
    (:func:`stats.runner.regression_metrics.evaluate_regression`). RE and MRE are per case, not per
    fold, and are not logged; MMRE is their fold summary. Regression folds are random
    (:func:`fold_assignment` with ``stratified=False``), not stratified.

    Values are ``repr(float)``, so rereading gives the same floats; names with commas or
    quotes are csv-quoted. Units are written repeat by repeat, fold by fold, learner by learner.

    Resume: a rerun with the same arguments reads each log, skips the complete units and
    appends the rest; complete units are never rewritten. A classification unit is complete
    with pd, pf, precision, accuracy and runtime, so a log written before ``balance`` was
    added resumes (its old units keep no balance line). A torn last line (no newline: the
    kill hit a write) and the lines of an incomplete last unit are cut off first
    (:func:`stats.runner._log.scan`); an incomplete unit anywhere else raises ``ValueError``.
    Changing ``seed`` or ``folds`` between runs is not detected; one runner per directory at
    a time.

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
    check_run(datasets, learners, [("repeats", repeats, 1), ("folds", folds, 2)], seed)
    kind = resolve_task(task, learners)
    for name, (X, y) in datasets.items():
        check_data(name, X, y, parts=folds, what="folds", task=kind)
    stratified = kind == "classification"
    return execute(
        datasets,
        learners,
        out_dir,
        units=lambda name, y: _units(name, y, learners, repeats, folds, seed, stratified),
        split=_split,
        task=kind,
        train_line=False,
        seed=seed,
        progress=progress,
        began=began,
    )
