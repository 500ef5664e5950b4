"""The sequence studies of Menzies' lecture notes ("Incremental M*N-way"), crash-safe and resumable like run_cv.

Menzies' lecture notes on evaluation bias ("Incremental M*N-way (a.k.a. sequence studies)"):
"Learn on more and more of the data; report 'plateau' (where learning improvement stops);
repeat M times: divide data into buckets on N items; for I = 2 to N: training on buckets
1..I-1, test on bucket I". :func:`run_sequence` writes the long-format log of Menzies' notes
(``dataset,repeat,fold,learner,criterion,value``) with ``fold`` = I, the test bucket, and
one extra criterion line ``train``: the number of training instances (buckets 1..I-1).
:func:`stats.plateau` reads such curves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from stats.runner._folds import fold_assignment
from stats.runner._log import Key
from stats.runner._loop import Progress, RunSummary, check_data, check_run, execute, resolve_task

__all__ = ["run_sequence"]


def _units(
    name: str, y: np.ndarray, learners: Mapping[str, Any], repeats: int, buckets: int, seed: int, stratified: bool
) -> Iterator[tuple[Key, np.ndarray]]:
    for r in range(1, repeats + 1):
        bucket = fold_assignment(y, folds=buckets, seed=seed, dataset=name, repeat=r, stratified=stratified)
        for i in range(2, buckets + 1):
            for learner in learners:
                yield (name, r, i, learner), bucket


def _split(bucket: np.ndarray, i: int) -> tuple[np.ndarray, np.ndarray]:
    return bucket < i, bucket == i


def run_sequence(
    datasets: Mapping[str, tuple[Any, Any]],
    learners: Mapping[str, Any],
    out_dir: str | Path,
    *,
    repeats: int = 10,
    buckets: int = 10,
    seed: int = 0,
    task: str = "auto",
    progress: Progress | None = None,
) -> RunSummary:
    """Incremental M x N-way study: train on buckets 1..I-1, test on bucket I, into ``<out_dir>/<dataset>.dat``.

    Parameters
    ----------
    datasets, learners, seed, task, progress
        As :func:`stats.run_cv`.
    out_dir : str or Path
        Directory of the logs (created if missing). Use another directory than the
        cross-validation logs of the same data sets: the file names are the same, and so are
        the keys of folds 2..min(N, folds) (dataset, repeat, fold, learner, criterion). Read
        apart from them: read together, the later lines replace the other study's results (the
        readers warn so, once per pair of files).
    repeats : int, default 10
        M, at least 1: each repeat reshuffles the data into new buckets.
    buckets : int, default 10
        N, at least 2: the number of buckets (training sizes 1/N, 2/N, ..., (N-1)/N of the
        data). Bucket sizes differ by at most one; for buckets of about k items pass
        ``buckets=len(y) // k``.

    Returns
    -------
    RunSummary
        As :func:`stats.run_cv`.

    Raises
    ------
    ValueError, FolderBusy
        As :func:`stats.run_cv`, with ``buckets`` in place of ``folds``.

    Notes
    -----
    Buckets are :func:`stats.runner._folds.fold_assignment` with ``folds=buckets`` (stratified for
    classification, so every bucket holds each class's share to within one; random for
    regression): the same seeded shuffle of the data as run_cv with ``folds=buckets``, and a
    learner's ``random_state`` left as None is :func:`stats.runner._folds.fold_seed` of (repeat, I).

    Log encoding, per unit (dataset, repeat M_r, test bucket I = 2..N, learner): the
    criteria of :func:`stats.run_cv` (classification: pd, pf, precision, accuracy, balance;
    regression: mmre, pred25, pred30, correlation), then ``train``, the number of training
    instances (written as a float, e.g. ``120.0``; the same for every repeat, since bucket
    sizes depend only on the data size), then ``runtime``. ``fold`` runs from 2 to N: there
    is no fold 1 (bucket 1 is never a test set). Every line is a valid long-format line, so
    :func:`stats.read_logs` and ``rankboard check`` read the log. ``train`` is bookkeeping, not a
    criterion (:mod:`stats.core.criteria`): ``rankboard check`` counts it apart, as training sizes,
    the app and ``rankboard report`` do not offer it as a criterion, and their learning curves
    read it. A unit is complete with
    every one of those lines; resume, repair and refusal are those of run_cv.

    Examples
    --------
    >>> import tempfile
    >>> from stats import read_logs
    >>> class Majority:
    ...     def fit(self, X, y):
    ...         values, counts = np.unique(y, return_counts=True)
    ...         self.label = values[np.argmax(counts)]
    ...         return self
    ...     def predict(self, X):
    ...         return np.full(len(X), self.label)
    >>> X, y = np.zeros((12, 1)), np.array([0] * 8 + [1] * 4)
    >>> with tempfile.TemporaryDirectory() as out:
    ...     summary = run_sequence({"toy": (X, y)}, {"majority": Majority()}, out, repeats=2, buckets=4)
    ...     log = read_logs(f"{out}/toy.dat")
    >>> summary.units_done  # 2 repeats x buckets 2, 3, 4
    6
    >>> log[log["criterion"] == "train"].groupby("fold", observed=True)["value"].first().tolist()
    [3.0, 6.0, 9.0]
    """
    began = time.perf_counter()
    check_run(datasets, learners, [("repeats", repeats, 1), ("buckets", buckets, 2)], seed)
    kind = resolve_task(task, learners)
    for name, (X, y) in datasets.items():
        check_data(name, X, y, parts=buckets, what="buckets", task=kind)
    stratified = kind == "classification"
    return execute(
        datasets,
        learners,
        out_dir,
        units=lambda name, y: _units(name, y, learners, repeats, buckets, seed, stratified),
        split=_split,
        task=kind,
        train_line=True,
        seed=seed,
        progress=progress,
        began=began,
    )
