"""The Bayesian signed-rank Monte Carlo (:func:`stats.folds.signed_rank.signed_rank_counts`) of every
learner against a control at once, for :func:`stats.fold_comparison`: the learners' jobs run in a
thread pool kept between calls (numpy releases the GIL in their long loops) while the caller
computes the per-data-set results, and the caller runs itself the jobs no thread has started.

Benavoli, Corani, Demsar & Zaffalon (2017) JMLR 18(77), Sec. 5.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from stats.folds._signed_rank_engine import cached_weights
from stats.folds.signed_rank import DEFAULT_PRIOR, signed_rank_counts

#: The most Dirichlet weights ((m + 1) x nsamples, 8 bytes each) a learner's Monte Carlo may hold: 2^27
#: (1 GiB), 2,683 data sets at the default 50,000 samples. Over 100,000 data sets the weights would be
#: 37 GiB (a MemoryError after minutes); such a learner's probabilities are left out (NaN) and the
#: comparison says why (:meth:`stats.folds.results.PendingFoldComparison.result`).
MAX_WEIGHTS = 2**27

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The thread pool of the signed-rank Monte Carlo: one thread per CPU, made on first use and
    kept (its threads wait idle between calls); a forked child makes its own."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="signed-rank")
        return _POOL


def _forget_pool() -> None:
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()  # (the parent's threads do not exist in the child)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


class SignedRanks:
    """The signed-rank counts of each learner's differences ``zs[k]`` (``signed_rank_counts`` with
    the weights shared by every learner over the same number of data sets), computed in the pool
    while the caller does other work; :meth:`results` waits for them, running itself those the
    pool has not started. The likely slowest first (a median difference near a region's edge:
    the bounds leave more samples to sum exactly). Same counts in any order and thread."""

    def __init__(self, zs: list[np.ndarray], rope: float, nsamples: int, seed: int) -> None:
        self.rope = rope
        #: (learner index, data sets) of the differences left out: over :data:`MAX_WEIGHTS`
        self.max_weights = MAX_WEIGHTS
        self.too_many = [(k, int(z.size)) for k, z in enumerate(zs) if (z.size + 1) * nsamples > self.max_weights]
        left_out = {k for k, _ in self.too_many}
        jobs = []
        for k, z in enumerate(zs):
            if z.size and k not in left_out:  # one draw per number of data sets, shared by the learners
                w = cached_weights(z.size, prior=DEFAULT_PRIOR, nsamples=nsamples, seed=seed)
                jobs.append((_closeness(z, rope), k, z, w))
        jobs.sort(key=lambda job: job[0])
        pool = _pool()
        self.jobs = [(k, z, w, pool.submit(signed_rank_counts, z, rope, w)) for _, k, z, w in jobs]

    def cancel(self) -> None:
        """Take the jobs no thread has started out of the pool's queue (:meth:`results` runs them)."""
        for *_, future in self.jobs:
            future.cancel()

    def results(self) -> list[tuple[int, np.ndarray]]:
        out = []
        for k, z, w, future in reversed(self.jobs):  # the quick ones last submitted: maybe not started
            out.append((k, signed_rank_counts(z, self.rope, w) if future.cancel() else future.result()))
        return out


def _closeness(z: np.ndarray, rope: float) -> float:
    """How far the median difference lies from the nearest edge of the regions (0 without a rope,
    -rope and rope with one), in units of the differences' spread: small for a close call."""
    med = float(np.median(z))
    edge = abs(med) if rope == 0 else min(abs(med - rope), abs(med + rope))
    spread = float(np.std(z))
    return edge / spread if spread > 0 else np.inf
