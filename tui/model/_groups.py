"""Scott-Knott ranks of the quartile view (issue 16): one group rank per learner and chart.

The samples ranked are the very values a chart summarises: per data set, the learner's results
on that data set (every repeat and fold); "overall", every result of the learner pooled over the
data sets of the overall chart. ``stats.scott_knott`` groups them (``esd``: ScottKnott-ESD 2.x,
Tantithamthavorn et al., IEEE TSE 2019; ``esd-v1``: ScottKnott-ESD 1.x, Tantithamthavorn et al.,
IEEE TSE 2017; ``np``: ScottKnott-ESD 3.0's non-parametric form; ``a12``: the variant of Menzies'
group); 1 is the best group in the criterion's direction. A data set's ranks are computed when
first asked for (a log of 500 data sets has 501 charts, of which a screen shows two), once; the
overall chart's with the view.

The charts of deltas (``x``) get no ranks: their rows are differences against the control, which
has no row of its own, so a group rank there would not rank the learners the chart names.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

import stats
from stats.cells import CellValues
from tui.model._types import GROUPINGS, QuartilesView

__all__ = ["GROUPINGS", "GROUPING_NAMES", "ScottKnottRanks", "rank_every_chart", "with_groups"]
#: How each variant is named on screen and in the reports.
GROUPING_NAMES = {
    "esd": "Scott-Knott ESD 2.x",
    "esd-v1": "Scott-Knott ESD 1.x",
    "np": "Scott-Knott ESD np 3.0",
    "a12": "Scott-Knott A12",
}
OVERALL = "overall"


class ScottKnottRanks(Mapping[str, Mapping[str, int]]):
    """scope -> {learner: group rank}, each scope computed on first access (thread-safe).

    A scope whose samples ``stats.scott_knott`` refuses (a limit of stats) maps to ``{}``.
    """

    def __init__(
        self,
        raw: CellValues,
        criterion: str,
        higher: bool,
        method: str,
        learners: Mapping[str, Sequence[str]],
        overall_datasets: Sequence[str],
    ) -> None:
        self.method = method
        self._raw, self._criterion, self._higher = raw, criterion, higher
        self._learners = dict(learners)  # scope -> the learners of its chart
        self._overall = tuple(overall_datasets)
        self._done: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def __getitem__(self, scope: str) -> Mapping[str, int]:
        done = self._done.get(scope)
        if done is not None:
            return done
        if scope not in self._learners:
            raise KeyError(scope)
        with self._lock:
            if scope not in self._done:
                self._done[scope] = self._compute(scope)
            return self._done[scope]

    def __iter__(self) -> Iterator[str]:
        return iter(self._learners)

    def __len__(self) -> int:
        return len(self._learners)

    def fill(self) -> None:
        """Compute every scope's ranks now (a report shows them all): each learner's results are
        gathered once for all the data sets (:meth:`stats.cells.CellValues.gather_each`) instead of
        once per data set; the ranks are those each scope would get on first access."""
        scopes = [s for s in self._learners if s != OVERALL and s not in self._done]
        names = list(dict.fromkeys(name for s in scopes for name in self._learners[s]))
        each = {
            name: self._raw.gather_each(self._criterion, name, [s for s in scopes if name in self._learners[s]])
            for name in names
        }
        # every chart at once (stats.scott_knott_ranks: the charts of one shape in one pass), not a
        # call per chart: 100,000 data sets took minutes
        samples = [self._samples({name: each[name][scope] for name in self._learners[scope]}) for scope in scopes]
        ranked = stats.scott_knott_ranks([s for s in samples if s], higher_is_better=self._higher, method=self.method)
        found = iter(ranked)
        for scope, sample in zip(scopes, samples):
            got: dict[str, int] | None = next(found) if sample else None
            ranks = got or {}
            with self._lock:
                self._done.setdefault(scope, ranks)

    def _compute(self, scope: str) -> dict[str, int]:
        datasets = self._overall if scope == OVERALL else (scope,)
        return self._rank({name: self._raw.gather(self._criterion, name, datasets) for name in self._learners[scope]})

    @staticmethod
    def _samples(gathered: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Each learner's finite values, the learners without any left out."""
        samples: dict[str, np.ndarray] = {}
        for name, values in gathered.items():
            values = values[np.isfinite(values)]
            if values.size:
                samples[name] = values
        return samples

    def _rank(self, gathered: Mapping[str, np.ndarray]) -> dict[str, int]:
        samples = self._samples(gathered)
        if not samples:
            return {}
        try:
            return stats.scott_knott(samples, higher_is_better=self._higher, method=self.method).ranks
        except ValueError:
            return {}


def with_groups(
    view: QuartilesView | None, raw: CellValues, method: str, overall_datasets: Sequence[str]
) -> QuartilesView | None:
    """``view`` with its Scott-Knott ranks (lazy, :class:`ScottKnottRanks`); a chart of deltas as it is."""
    if view is None or view.deltas is not None:
        return view
    learners: dict[str, list[str]] = {}
    for r in view.rows:
        learners.setdefault(r.scope, []).append(r.learner)
    ranks = ScottKnottRanks(raw, view.criterion, view.higher_is_better, method, learners, overall_datasets)
    # The overall chart pools every result (a second for 20 learners x 5000 results): computed here,
    # where the view is made (the app's worker), not when the chart is first drawn (the event loop).
    ranks.get(OVERALL)
    return dataclasses.replace(view, groups=ranks, grouping=method)


def rank_every_chart(view: QuartilesView | None) -> None:
    """Compute the Scott-Knott ranks of every chart of ``view`` now (:meth:`ScottKnottRanks.fill`):
    what a report that prints every chart does, rather than one data set at a time."""
    if view is not None and isinstance(view.groups, ScottKnottRanks):
        view.groups.fill()
