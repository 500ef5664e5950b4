"""A fold-level comparison whose per-data-set part is done and whose Bayesian signed-rank test
across data sets is still to come (:func:`stats.begin_fold_comparison`).

The per-data-set tests of :func:`stats.fold_comparison` (corrected resampled t, Bayesian
correlated t-test) cost a few passes over the fold results; the signed-rank Monte Carlo
(Benavoli, Corani, Demsar & Zaffalon 2017, Sec. 5) can cost several times that on a close call.
The explorer shows the first at once and the sentence of the second when it is done; the
results are those of :func:`stats.fold_comparison`, to the last bit (the same object for the
per-data-set table).
"""

from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING

import numpy as np

from stats._signed_rank_jobs import SignedRanks

if TYPE_CHECKING:
    from stats.fold_comparisons import FoldComparison

#: The columns of ``FoldComparison.totals`` that the signed-rank test fills.
SIGNED_RANK_COLUMNS = ("p_better", "p_equivalent", "p_worse")


class PendingFoldComparison:
    """The per-data-set part of a :class:`~stats.FoldComparison` (:attr:`early`: its ``totals``
    have the win/tie/loss counts and NaN signed-rank probabilities) and the signed-rank Monte
    Carlo of every learner, started in a thread pool by :meth:`start` and waited for by
    :meth:`result`. Thread-safe: any thread may call any method, any number of times.
    """

    def __init__(
        self, early: FoldComparison, zs: list[np.ndarray], nsamples: int, seed: int, jobs: SignedRanks | None = None
    ) -> None:
        self.early = early
        self._zs, self._nsamples, self._seed = zs, nsamples, seed
        self._lock = threading.Lock()
        self._jobs = jobs  # started already (None: by start or result)
        self._result: FoldComparison | None = None

    @property
    def done(self) -> bool:
        """Whether :meth:`result` returns at once."""
        return self._result is not None

    def start(self) -> None:
        """Start the signed-rank Monte Carlo in the pool (once; nothing when done)."""
        with self._lock:
            if self._jobs is None and self._result is None:
                self._jobs = SignedRanks(self._zs, self.early.rope, self._nsamples, self._seed)

    def cancel(self) -> None:
        """Take the jobs no pool thread has started out of the pool's queue (another comparison is
        wanted first); :meth:`result` still gives every result, running those jobs itself."""
        jobs = self._jobs
        if jobs is not None:
            jobs.cancel()

    def result(self) -> FoldComparison:
        """The whole comparison: :attr:`early` with the signed-rank probabilities (waits for them;
        starts them when :meth:`start` has not)."""
        self.start()
        with self._lock:
            if self._result is None:
                jobs = self._jobs or SignedRanks(
                    self._zs, self.early.rope, self._nsamples, self._seed
                )  # (start made them)
                p = np.full((len(self.early.totals), len(SIGNED_RANK_COLUMNS)), np.nan)
                for k, probs in jobs.results():
                    p[k] = [float(x) for x in probs]
                totals = self.early.totals.copy()
                for j, column in enumerate(SIGNED_RANK_COLUMNS):
                    totals[column] = p[:, j]
                self._result = dataclasses.replace(self.early, totals=totals)
                self._jobs = None  # (the weights and differences are no longer needed)
            return self._result
