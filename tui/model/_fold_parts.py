"""The fold-level parts of the view model: view 6 (``stats.fold_comparison``) and the deltas charts
(``stats.fold_deltas``), from the raw results a :class:`~tui.model._model.Model` holds."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import stats
from tui.model._curves import TRAIN, CurvesView, curves_view
from tui.model._quartiles import deltas_view
from tui.model._types import FoldsView, Selection


class FoldParts:
    """Mixed into :class:`~tui.model._model.Model`: it brings ``_part``, ``_raw``, ``_cached`` and
    the caches with their lock."""

    _raw: Any
    _part: Callable[[str], tuple[pd.DataFrame, pd.DataFrame]]
    _cached: Callable[[str, Any, Callable[[], Any]], Any]
    _lock: threading.Lock
    _cache: dict[str, OrderedDict[Any, Any]]

    def _extremes(self, criterion: str) -> np.ndarray:
        """The criterion's per-cell min and max from the aggregate: every value lies in [0, 1] (or
        [0, 100]) exactly when every cell's min and max do, so ``stats.rope_unit`` and
        ``stats.default_rope`` of these are those of all the values, without a pass over the results."""
        sub = self._part(criterion)[0]
        return np.concatenate([sub["min"].to_numpy(float), sub["max"].to_numpy(float)])

    def rope_unit(self, criterion: str) -> float | None:
        """``stats.rope_unit`` of the criterion's values: 0.01 on [0, 1], 1 on [0, 100], None when
        the scale is unknown (the unit of the ropes ``o`` cycles through)."""
        return stats.rope_unit(self._extremes(criterion))

    def default_rope(self, criterion: str) -> float:
        """``stats.default_rope`` of the criterion's values (the rope of a selection whose rope is None)."""
        return stats.default_rope(self._extremes(criterion))

    def _results(self, criterion: str) -> pd.DataFrame:
        """Every fold-level result of ``criterion`` (``CellValues.results``), cached."""
        return self._cached("results", (criterion,), lambda: self._raw.results(criterion))

    def _cube(self, criterion: str, datasets: list[str], learners: tuple[str, ...]) -> stats.FoldCube:
        """``stats.fold_cube`` of the selection: the fold-level results as one array, made once per
        (criterion, data sets, learners) and kept, so that another control, rope, alpha or
        direction costs only the comparison, not a pass over the results."""
        key = (criterion, tuple(datasets), learners)
        return self._cached(
            "cube",
            key,
            lambda: stats.fold_cube(self._results(criterion), criterion, learners=learners, datasets=datasets),
        )

    def _folds_key(self, sel: Selection, datasets: list[str], learners: tuple[str, ...], control: str) -> tuple:
        return (sel.criterion, tuple(datasets), learners, sel.higher_is_better, control, sel.rope, sel.alpha)

    def _pending(
        self, sel: Selection, datasets: list[str], learners: tuple[str, ...], control: str, *, start: bool
    ) -> stats.PendingFoldComparison:
        """``stats.begin_fold_comparison`` of ``learners`` against ``control`` on ``datasets``, made
        once per key: the per-data-set part done, the signed-rank test started when ``start`` (or
        when the whole view is asked for)."""
        return self._cached(
            "folds-pending",
            self._folds_key(sel, datasets, learners, control),
            lambda: stats.begin_fold_comparison(
                self._cube(sel.criterion, datasets, learners),
                sel.criterion,
                control,
                higher_is_better=sel.higher_is_better,
                rope=sel.rope,
                alpha=sel.alpha,
                start=start,
            ),
        )

    def folds(self, sel: Selection, datasets: list[str], learners: tuple[str, ...], control: str) -> FoldsView:
        """``stats.fold_comparison`` of ``learners`` against ``control`` on ``datasets``: the whole
        view (waits for the signed-rank test of a view shown early, :meth:`_folds_early`)."""
        key = self._folds_key(sel, datasets, learners, control)
        return self._cached(
            "folds", key, lambda: folds_view(sel, self._pending(sel, datasets, learners, control, start=True).result())
        )

    def folds_early(self, sel: Selection, datasets: list[str], learners: tuple[str, ...], control: str) -> FoldsView:
        """The folds view to show first: the whole view when it is made, else its per-data-set part
        (``pending``: the signed-rank probabilities still to come, not started; the whole view,
        :meth:`_folds`, starts and waits for them, and shows the same table object)."""
        key = self._folds_key(sel, datasets, learners, control)
        with self._lock:
            made = self._cache["folds"].get(key)
        if made is not None:
            return made
        pending = self._pending(sel, datasets, learners, control, start=False)
        if pending.done:  # made meanwhile by another thread (not cached yet): the whole view
            return folds_view(sel, pending.result())
        return folds_view(sel, pending.early, pending=True)  # (its table is the whole view's: rows shared)

    def cancel_signed_ranks(self) -> None:
        """Take the signed-rank jobs of the folds views not yet whole out of the pool's queue (a new
        selection's view is wanted first); whoever waits for such a view runs them itself."""
        with self._lock:
            pending = list(self._cache["folds-pending"].values())
        for p in pending:
            p.cancel()

    def deltas(self, sel: Selection, datasets: list[str], learners: tuple[str, ...], control: str) -> Any:
        """The quartiles view of the per-fold differences against ``control`` (Menzies' lecture notes), cached."""
        key = (sel.criterion, tuple(datasets), learners, sel.higher_is_better, control, "deltas")

        def make() -> Any:
            cube = self._cube(sel.criterion, datasets, learners)
            deltas = stats.fold_deltas(cube, sel.criterion, control, higher_is_better=sel.higher_is_better)
            return deltas_view(deltas, sel.criterion, sel.higher_is_better, control, learners, datasets)

        return self._cached("q", key, make)

    def curves(self, sel: Selection, datasets: list[str], learners: tuple[str, ...]) -> CurvesView:
        """The learning curves of a sequence study (Menzies' lecture notes; ``stats.run_sequence``'s ``train`` lines).

        Not cached: it depends on the ``train`` results besides the criterion's, and a live poll
        may touch either.
        """
        train = self._raw.results(TRAIN)  # first: a log without a sequence study reads nothing more
        return curves_view(
            self._raw.results(sel.criterion) if len(train) else train,
            train,
            sel.criterion,
            sel.higher_is_better,
            sel.alpha,
            datasets,
            learners,
        )


#: Added to the first note of a folds view whose default rope is 0 because the scale is unknown.
SET_A_ROPE = ": O types one in the explorer (o cycles), --rope R in a report, rope = R in a view spec"


def folds_view(sel: Selection, result: stats.FoldComparison, *, pending: bool = False) -> FoldsView:
    """The :class:`FoldsView` of ``result`` (``pending``: its signed-rank probabilities are NaN,
    still to come). When the rope is the default and the criterion's scale is unknown, the first
    note (``stats.fold_comparison``'s, "rope 0: the scale of ... is unknown") says how to set one."""
    notes = result.notes
    if sel.rope is None and result.rope == 0.0 and notes and notes[0].startswith("rope 0: the scale of "):
        notes = (notes[0] + SET_A_ROPE, *notes[1:])
    return FoldsView(
        criterion=sel.criterion,
        higher_is_better=sel.higher_is_better,
        control=result.control,
        rope=result.rope,
        alpha=result.alpha,
        table=result.table,
        totals=result.totals,
        sentences=tuple(result.sentence().splitlines()),
        notes=notes,
        pending=pending,
    )
