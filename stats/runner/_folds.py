"""Seeded, stratified fold assignment for R x N cross-validation (Menzies' "randomised order, divide N ways").

Everything is derived from ``numpy.random.SeedSequence`` over (seed, data set name,
repeat[, fold]), so a rerun, or a resumed run, sees exactly the same folds and learner
random states, whatever ran before it in the process.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np


def _name_key(name: str) -> int:
    # Stable across processes (unlike hash()): 64 bits of SHA-256 of the UTF-8 name.
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "little")


def fold_assignment(y: Any, *, folds: int, seed: int, dataset: str, repeat: int, stratified: bool = True) -> np.ndarray:
    """Stratified (or plain), randomised fold numbers 1..folds for one repeat.

    Parameters
    ----------
    y : array_like, 1-D
        Class labels.
    folds : int
        N, the number of folds.
    seed : int
        The run's seed.
    dataset : str
        Data set name; with ``seed`` and ``repeat`` it seeds the shuffle
        (``numpy.random.SeedSequence([seed, sha256(dataset), repeat])``).
    repeat : int
        Repeat number, from 1.
    stratified : bool, default True
        False for a numeric target (regression): the shuffled instances are dealt
        round-robin without grouping by value (grouping would make every repeat the same).

    Returns
    -------
    numpy.ndarray of int
        ``fold[i]`` is the test fold of instance ``i``.

    Notes
    -----
    The instances are shuffled, grouped by class (stable, so random within each
    class) and dealt round-robin: every fold gets each class's count to within one,
    and fold sizes differ by at most one. A class with fewer than ``folds``
    instances is missing from some test folds. Without stratification the same
    permutation is dealt round-robin as it is.

    Examples
    --------
    >>> fold_assignment([0, 0, 0, 1, 1, 1], folds=3, seed=0, dataset="d", repeat=1).tolist()
    [1, 3, 2, 1, 2, 3]
    """
    labels = np.asarray(y)
    rng = np.random.default_rng(np.random.SeedSequence([seed, _name_key(dataset), repeat]))
    order = rng.permutation(len(labels))
    if stratified:
        order = order[np.argsort(labels[order], kind="stable")]
    fold = np.empty(len(labels), dtype=int)
    fold[order] = np.arange(len(labels)) % folds + 1
    return fold


def fold_seed(*, seed: int, dataset: str, repeat: int, fold: int) -> int:
    """The ``random_state`` given to the learners of one fold (an int below 2**32).

    >>> fold_seed(seed=0, dataset="iris", repeat=1, fold=1) == fold_seed(seed=0, dataset="iris", repeat=1, fold=1)
    True
    """
    return int(np.random.SeedSequence([seed, _name_key(dataset), repeat, fold]).generate_state(1)[0])
