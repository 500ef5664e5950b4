"""The view model: a selection in, the tables and the verdict of every view out.

Nothing here imports textual or rich and nothing statistical is computed here:
every number comes from :mod:`stats`. The app and the headless report build
their screens from the same :class:`Analysis`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, cast

import pandas as pd

import stats
from tui import registry
from tui.model._basis import Basis
from tui.model._defaults import (
    check_criterion,
    criteria_of,
    default_higher_is_better,
    labels_in_index,
    labels_present,
)
from tui.model._fold_parts import FoldParts
from tui.model._tests import Incomplete, best_ranked, skillings_mack_alone, untestable
from tui.model._types import Analysis, Selection, ViewParts

#: Entries kept per cache of a Model (scores tables, safety sentences, quartile views).
CACHE_SIZE = 16
#: Entries kept of the caches whose entries are large: the fold cubes (``stats.fold_cube``: about
#: 35 MB for 500 data sets x 20 learners x 100 folds).
#: The folds views: one per control of a selection (the app makes the other controls' while idle).
LARGE_CACHE_SIZE = {"cube": 4, "folds": 48, "folds-pending": 48}


#: Why a model of logs aggregated in bounded memory has no raw results.
BOUNDED = (
    "unavailable in bounded memory mode (the logs exceed the memory budget, --memory): the per-fold "
    "results are not kept, only each cell's summary"
)


class NoResults:
    """The raw results of a model built from an aggregate: there are none; asking raises
    ``ValueError(reason)`` (a view's maker that raises it leaves the view empty with the reason)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def gather(self, criterion: str, learner: str, datasets: Any) -> Any:
        raise ValueError(self.reason)

    def results(self, criterion: str) -> pd.DataFrame:
        raise ValueError(self.reason)


class Model(FoldParts):
    """One loaded log and its aggregate (``stats.cells._aggregate``, computed once); cheap to query.

    Parameters
    ----------
    log : DataFrame
        What ``stats.read_logs`` returns.
    agg : DataFrame, optional
        Its aggregate when the caller already has it (e.g. from a ``stats.Aggregator``).

    Notes
    -----
    The scores table, the quartiles view and the safety sentence of the last
    :data:`CACHE_SIZE` selections are cached, so changing alpha, the control,
    the test, the procedure or the pair recomputes only the tests. An
    :class:`Analysis` computes each view when it is first read (the view on screen,
    the views a report prints). The frames of an :class:`Analysis` may be shared
    with that cache: treat them as read-only.
    """

    def __init__(self, log: pd.DataFrame, agg: pd.DataFrame | None = None) -> None:
        names = tuple(labels_present(log[k]) for k in ("criterion", "dataset", "learner"))
        aggregator = stats.Aggregator(log)  # its table is stats.cells._aggregate(log); its snapshot the raw results
        self._setup(aggregator.table if agg is None else agg, aggregator.snapshot(), names)

    @classmethod
    def from_aggregator(cls, aggregator: stats.Aggregator) -> Model:
        """The model of the log ``aggregator`` summarises, without the log itself.

        The aggregate is the aggregator's table and the raw results (pooled for the "overall"
        quartiles) come from :meth:`stats.Aggregator.snapshot`, so following a growing log
        needs no pass over all of its rows. Names come in the aggregator's label order.
        """
        agg = aggregator.table
        index = cast(pd.MultiIndex, agg.index)
        names = tuple(labels_in_index(index, k) for k in ("criterion", "dataset", "learner"))
        model = cls.__new__(cls)
        model._setup(agg, aggregator.snapshot(), names)
        return model

    @classmethod
    def from_aggregate(cls, agg: pd.DataFrame, reason: str = BOUNDED) -> Model:
        """The model of a log known only by its aggregate (``stats.aggregate_logs``: logs bigger
        than memory). The views of per-cell medians (ranks, tests, pairs, CD) are as from the
        log; those that need the raw results (the quartiles pooled over data sets, the fold-level
        views, the learning curves) are unavailable, each with ``reason`` as its problem."""
        index = cast(pd.MultiIndex, agg.index)
        names = tuple(labels_in_index(index, k) for k in ("criterion", "dataset", "learner"))
        model = cls.__new__(cls)
        model._setup(agg, NoResults(reason), names)
        return model

    def updated(self, aggregator: stats.Aggregator, touched: Iterable[str]) -> Model:
        """The model of ``aggregator`` after a change that touched only the criteria ``touched``
        (e.g. the criteria of the cells :meth:`stats.Aggregator.apply` re-summarised).

        A new model (as :meth:`from_aggregator`) that starts with this model's cached parts of the
        other criteria: its scores tables, quartile and fold views, safety sentences and pairwise
        tables, results and per-criterion rows and names (the very objects: a view showing one
        need not be drawn again). Every cache key begins with its criterion, and what is cached
        under it depends on that criterion's results and on the key alone (a selection's data sets
        and learners are in the key); the names of an untouched criterion keep their order, as
        labels only ever get appended. Touched criteria, and criteria no longer in the log, start
        empty. ``aggregator`` must be the one this model was made from, changed since.
        """
        model = Model.from_aggregator(aggregator)
        changed = {str(c) for c in touched}
        kept = {c for c in model._criteria if c not in changed}
        with self._lock:  # the app's workers may be filling this model's caches meanwhile
            for kind, cache in self._cache.items():
                model._cache[kind].update((key, value) for key, value in cache.items() if key[0] in kept)
            model._by_criterion = {c: part for c, part in self._by_criterion.items() if c in kept}
            model._by_measured = {c: names for c, names in self._by_measured.items() if c in kept}
        return model

    def _setup(self, agg: pd.DataFrame, raw: Any, names: tuple[tuple[str, ...], ...]) -> None:
        self._agg = agg
        self._raw = raw  # stats' CellValues: .gather(criterion, learner, datasets)
        self._criteria, self._datasets, self._learners = criteria_of(names[0]), names[1], names[2]
        self._by_criterion: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}
        self._by_measured: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._lock = threading.Lock()
        # Small caches keyed by what each part depends on, so that changing alpha, the
        # control, the test, the procedure or the pair does not recompute the rest. Every key is
        # a tuple that begins with the criterion (updated() keeps the untouched criteria's).
        self._cache: dict[str, OrderedDict[Any, Any]] = {
            "scores": OrderedDict(),
            "ranked": OrderedDict(),
            "safety": OrderedDict(),
            "pairwise": OrderedDict(),
            "q": OrderedDict(),
            "results": OrderedDict(),
            "folds": OrderedDict(),
            "folds-pending": OrderedDict(),
            "cube": OrderedDict(),
            "robustness": OrderedDict(),  # the fragility and stability of a table's conclusions
        }

    @property
    def criteria(self) -> tuple[str, ...]:
        return self._criteria

    @property
    def datasets(self) -> tuple[str, ...]:
        return self._datasets

    @property
    def learners(self) -> tuple[str, ...]:
        return self._learners

    def default_selection(self, criterion: str | None = None) -> Selection:
        """:func:`default_selection` of the log, from the aggregate (no pass over the log's rows).

        Learners come in the log's label order (category order, as ``read_logs`` gives them).
        """
        if not self._criteria:
            raise ValueError("the log holds no results")
        criterion = check_criterion(self._criteria, criterion)
        return Selection(
            criterion=criterion,
            higher_is_better=default_higher_is_better(criterion),
            datasets=self._datasets,
            learners=self.learners_for(criterion),
        )

    def datasets_for(self, criterion: str) -> tuple[str, ...]:
        """The data sets with a result for ``criterion``, in the log's order."""
        return self._measured(criterion)[0]

    def learners_for(self, criterion: str) -> tuple[str, ...]:
        """The learners with a result for ``criterion``, in the log's order."""
        return self._measured(criterion)[1]

    def _measured(self, criterion: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(data sets, learners) with a result for ``criterion``, once per criterion (each toggle asks)."""
        with self._lock:
            known = self._by_measured.get(criterion)
        if known is not None:
            return known
        index = self._part(criterion)[1].index
        if isinstance(index, pd.MultiIndex):  # the labels its rows use, from its codes (no string per row)
            datasets, learners = set(labels_in_index(index, "dataset")), set(labels_in_index(index, "learner"))
        else:
            datasets = set(index.get_level_values("dataset").astype(str))
            learners = set(index.get_level_values("learner").astype(str))
        names = (tuple(d for d in self._datasets if d in datasets), tuple(x for x in self._learners if x in learners))
        with self._lock:  # written under the lock that updated() reads them under (one made meanwhile wins)
            return self._by_measured.setdefault(criterion, names)

    def _scores(self, sub: pd.DataFrame, sel: Selection, learners: tuple[str, ...]) -> stats.ScoresTable:
        """``stats.scores_table`` of the selection; a selected data set without any result for the
        criterion (it is measured on some data sets only) is left out with that reason."""
        known = set(self.datasets_for(sel.criterion))
        absent = [d for d in sel.datasets if d not in known]
        if len(absent) == len(sel.datasets):
            raise ValueError(f"no {sel.criterion} results on the selected data sets")
        datasets = [d for d in sel.datasets if d in known]
        scores = stats.scores_table(sub, sel.criterion, datasets=datasets, learners=learners)
        if absent:
            excluded = {**scores.excluded, **{d: f"no {sel.criterion} results" for d in absent}}
            in_order = {d: excluded[d] for d in sel.datasets if d in excluded}  # selection order
            scores = dataclasses.replace(scores, excluded=in_order)
        return scores

    def _part(self, criterion: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(the aggregate's rows of ``criterion``, the same indexed by dataset, learner), cached."""
        with self._lock:
            known = self._by_criterion.get(criterion)
        if known is not None:
            return known
        sub = self._agg.loc[[criterion]]
        with self._lock:  # as _measured: never written while updated() iterates the dict
            return self._by_criterion.setdefault(criterion, (sub, sub.droplevel("criterion")))

    def _cached(self, kind: str, key: Any, make: Callable[[], Any]) -> Any:
        cache = self._cache[kind]
        with self._lock:  # views are computed in the app's workers, maybe two at once
            if key in cache:
                cache.move_to_end(key)
                return cache[key]
        value = make()
        with self._lock:
            value = cache.setdefault(key, value)  # one made meanwhile by another thread wins: one object per key
            cache.move_to_end(key)
            if len(cache) > LARGE_CACHE_SIZE.get(kind, CACHE_SIZE):
                cache.popitem(last=False)
        return value

    def cached_value(self, kind: str, key: Any) -> Any:
        """What cache ``kind`` holds at ``key`` (None: nothing yet), without making it."""
        with self._lock:
            return self._cache[kind].get(key)

    def analyze(self, selection: Selection) -> Analysis:
        """The views of ``selection``; an untestable selection gives ``problem``, never an exception.

        Only the scores table and the average ranks are computed here (the selection's
        :class:`~tui.model._basis.Basis`); each part of each registered view (:mod:`tui.registry`)
        is computed when it is first read (:class:`~tui.model._types.Analysis`), so showing the
        ranks never runs the all-pairs procedures of the pairs view.
        """
        sel = selection
        basis = self._basis(sel)
        if isinstance(basis, Analysis):
            return basis
        makers: dict[str, Callable[[], Any]] = {}
        notes = basis_notes(self, sel)
        bounded = isinstance(self._raw, NoResults)
        for view in registry.views():
            if (view.raw and bounded) or not all(getattr(basis, need) for need in view.requires):
                continue
            for part, ref in view.parts.items():
                makers[part] = partial(registry.resolve(ref), basis)
        if bounded:  # no raw results: said once in the notes
            notes = (*notes, f"quartiles, fold-level views and learning curves: {self._raw.reason}")
        n, k = basis.scores.shape
        return Analysis(sel, n, k, basis.untestable, notes, ViewParts(makers), basis.fold_control, self)

    def _basis(self, sel: Selection) -> Basis | Analysis:
        """The selection's :class:`Basis`, or the analysis saying why there is none."""

        def fail(problem: str, notes: tuple[str, ...] = ()) -> Analysis:
            return Analysis(sel, 0, len(sel.learners), problem, notes)

        if sel.criterion not in self._criteria:
            known = ", ".join(self._criteria) or "none"
            return fail(f"criterion {sel.criterion!r} is not in the log (criteria: {known})")
        if not sel.datasets:
            return fail("no data set is selected")
        if not sel.learners:
            return fail("no learner is selected")
        sub = self._part(sel.criterion)[0]
        learners = measured_learners(self, sel)
        if not learners:
            return fail(f"no {sel.criterion} results for the selected learners", basis_notes(self, sel))
        table_key = (sel.criterion, sel.datasets, learners)
        try:
            scores = self._cached("scores", table_key, lambda: self._scores(sub, sel, learners))
        except ValueError as exc:
            return fail(str(exc), basis_notes(self, sel))
        n, k = scores.shape
        alone = self._alone(scores, sel, table_key) if n < 2 <= k and scores.excluded else None
        problem = untestable(n, k, scores.excluded, alone)
        # validated, oriented and ranked once: every statistic of every view of this table reuses its ranks
        ranked = (
            None
            if problem
            else self._cached(
                "ranked",
                (*table_key, sel.higher_is_better),
                lambda: stats.ranked_table(scores, higher_is_better=sel.higher_is_better),
            )
        )
        average = None if ranked is None else stats.average_ranks(ranked, higher_is_better=sel.higher_is_better).ranks
        control = sel.control if sel.control in learners or average is None else best_ranked(average)
        # The fold-level views need neither complete data sets nor a testable table: every
        # selected data set with results, the control (or, untestable, the first learner).
        measured = set(self.datasets_for(sel.criterion))  # once: not per data set (500 x 10 ms)
        with_results = [d for d in sel.datasets if d in measured]
        fold_control = control if control in learners else learners[0]
        tests = alone if isinstance(alone, Incomplete) else None
        return Basis(self, sel, learners, scores, ranked, average, control, with_results, fold_control, problem, tests)

    def _alone(self, scores: stats.ScoresTable, sel: Selection, table_key: tuple[Any, ...]) -> Incomplete | str | None:
        """Skillings-Mack's test of a table with fewer than 2 complete data sets, or why it cannot
        test it either (:func:`~tui.model._tests.skillings_mack_alone`); cached where the ranks of a
        testable table would be (changing alpha or the procedure does not compute it again)."""
        higher = sel.higher_is_better
        cells = self.per_cell(sel.criterion)
        make = partial(skillings_mack_alone, scores, cells, higher)
        return cast("Incomplete | str | None", self._cached("ranked", (*table_key, higher, "skillings-mack"), make))

    @property
    def raw(self) -> Any:
        """The raw results (``stats.CellValues``: ``.gather(criterion, learner, datasets)``); asking a
        model built from an aggregate raises ``ValueError`` with the reason."""
        return self._raw

    def per_cell(self, criterion: str) -> pd.DataFrame:
        """The aggregate's rows of ``criterion``, indexed by dataset and learner."""
        return self._part(criterion)[1]


def measured_learners(model: Model, sel: Selection) -> tuple[str, ...]:
    """The selected learners with results for the criterion (a learner of the log without them is
    left out, with a note: :func:`basis_notes`; one not in the log at all is an error of the
    selection, which ``stats.scores_table`` names)."""
    have, known = set(model.learners_for(sel.criterion)), set(model.learners)  # (sets: no scan per learner)
    return tuple(x for x in sel.learners if x in have or x not in known)


def basis_notes(model: Model, sel: Selection) -> tuple[str, ...]:
    """What was left out of the selection and why: the learners without results for the criterion."""
    if sel.criterion not in model.criteria:
        return ()
    have, known = set(model.learners_for(sel.criterion)), set(model.learners)
    absent = [x for x in sel.learners if x not in have and x in known]
    if not absent:
        return ()
    return (f"left out: no {sel.criterion} results for learner{'s' * (len(absent) > 1)} {', '.join(absent)}",)
