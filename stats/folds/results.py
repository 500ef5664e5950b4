"""What a fold-level comparison returns (:func:`stats.fold_comparison`,
:func:`stats.begin_fold_comparison`): the comparison itself (:class:`FoldComparison`, with its
sentence), and one whose per-data-set part is done and whose Bayesian signed-rank test across data
sets is still to come (:class:`PendingFoldComparison`).

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
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats.core import Printable
from stats.folds._signed_rank_jobs import SignedRanks

#: The columns of ``FoldComparison.totals`` that the signed-rank test fills.
SIGNED_RANK_COLUMNS = ("p_better", "p_equivalent", "p_worse")


@dataclass(frozen=True, eq=False)
class FoldComparison(Printable):
    """Each learner against ``control`` on each data set, and across data sets.

    Attributes
    ----------
    table : DataFrame
        Index (dataset, learner), learners other than the control; columns ``runs`` (J, the
        shared (repeat, fold) results), ``folds`` (N), ``mean_difference`` (learner minus
        control, positive: the learner is better), ``statistic`` and two-sided ``pvalue`` of the
        corrected resampled t, ``mark`` ("v": significantly better than the control at
        ``alpha``, "*": significantly worse, "": neither, as Weka's Experimenter), and the
        Bayesian correlated t-test's ``p_better``, ``p_equivalent``, ``p_worse``.
    totals : DataFrame
        Index learner; ``wins``, ``ties``, ``losses`` (data sets marked v, "" and *),
        ``datasets`` and the Bayesian signed-rank test across data sets on the per-data-set means
        (``p_better``, ``p_equivalent``, ``p_worse``).
    notes : tuple of str
        What was left out, and why.
    """

    table: pd.DataFrame
    totals: pd.DataFrame
    notes: tuple[str, ...]
    criterion: str
    control: str
    higher_is_better: bool
    rope: float
    alpha: float
    #: the learners whose signed-rank test was not computed: too many data sets (the notes say why)
    signed_rank_left_out: tuple[str, ...] = ()

    def sentence(self) -> str:
        """One line per learner: the Bayesian signed-rank verdict against the control, the most
        probable outcome first (better, practically equivalent or worse; with rope 0, better or worse)."""
        lines = []
        for learner, row in self.totals.iterrows():
            n = int(row["datasets"])
            if n == 0:
                lines.append(f"{learner} vs {self.control}: no data set to compare on")
                continue
            tail = f"(Bayesian signed-rank, rope {self.rope:g}, {n} data set{'s' if n != 1 else ''})"
            if learner in self.signed_rank_left_out:
                lines.append(
                    f"{learner} vs {self.control}: Bayesian signed-rank across data sets not computed "
                    f"over {n:,} data sets (a limit of its Monte Carlo: see the notes)"
                )
                continue
            if np.isnan(row["p_better"]):  # begin_fold_comparison's early part: not computed yet
                lines.append(f"{learner} vs {self.control}: Bayesian signed-rank across data sets still computing")
                continue
            lines.append(f"{learner} is {_outcomes(row, self.control, self.rope > 0)} {tail}")
        return "\n".join(lines)

    @property
    def verdict(self) -> str:
        """The same as :meth:`sentence`."""
        return self.sentence()

    def __str__(self) -> str:
        direction = "higher" if self.higher_is_better else "lower"
        head = (
            f"{self.criterion} ({direction} is better) against {self.control}: corrected resampled t at "
            f"alpha {self.alpha:g} (v better, * worse), rope {self.rope:g}"
        )
        totals = self.totals[["wins", "ties", "losses", "datasets"]]
        wtl = [f"  {learner}: {r.wins}/{r.ties}/{r.losses} (v/ /*) on {r.datasets}" for learner, r in totals.iterrows()]
        notes = [f"note: {n}" for n in self.notes[:10]]
        if len(self.notes) > 10:
            notes.append(f"... and {len(self.notes) - 10} more notes")
        return "\n".join([head, *wtl, self.sentence(), *notes])


#: The outcomes of a Bayesian test against the control: (column, leading words, words after).
_OUTCOMES = (
    ("p_better", "practically better than", "better"),
    ("p_equivalent", "practically equivalent to", "practically equivalent"),
    ("p_worse", "practically worse than", "worse"),
)


def _outcomes(row: pd.Series, control: str, rope: bool) -> str:
    """"practically equivalent to C with probability 0.95; better 0.03; worse 0.02": the
    most probable outcome first (ties in the order better, equivalent, worse), then the others in
    that order. Without a rope nothing is equivalent: "better than C ...; worse ..."."""
    kept = _OUTCOMES if rope else ((_OUTCOMES[0][0], "better than", "better"), (_OUTCOMES[2][0], "worse than", "worse"))
    lead = max(kept, key=lambda o: row[o[0]])  # the first of equal ones
    rest = [f"{after} {row[col]:.2f}" for col, _, after in kept if col != lead[0]]
    return f"{lead[1]} {control} with probability {row[lead[0]]:.2f}; " + "; ".join(rest)


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
                notes = self.early.notes + tuple(
                    _too_many_note(m, self._nsamples, jobs.max_weights) for m in _sizes(jobs.too_many)
                )
                left_out = tuple(str(self.early.totals.index[k]) for k, _ in jobs.too_many)
                self._result = dataclasses.replace(
                    self.early, totals=totals, notes=notes, signed_rank_left_out=left_out
                )
                self._jobs = None  # (the weights and differences are no longer needed)
            return self._result


def _sizes(too_many: list[tuple[int, int]]) -> list[int]:
    """The numbers of data sets of the learners left out of the signed-rank test, each once."""
    return sorted({m for _, m in too_many})


def _too_many_note(m: int, nsamples: int, limit: int) -> str:
    """Why the signed-rank probabilities over ``m`` data sets are not given (NaN): more than
    ``limit`` weights (:data:`stats.folds._signed_rank_jobs.MAX_WEIGHTS`)."""
    gib = (m + 1) * nsamples * 8 / 2**30
    return (
        f"the Bayesian signed-rank test across data sets is not computed over {m:,} data sets: its Monte Carlo "
        f"would hold {m + 1:,} x {nsamples:,} Dirichlet weights ({gib:,.1f} GiB); the limit is "
        f"{limit:,} weights ({limit // nsamples - 1:,} data sets at {nsamples:,} samples)"
    )
