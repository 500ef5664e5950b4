"""The learning-curve view of a sequence study ("Incremental M*N-way" in Menzies' lecture notes).

Menzies' lecture notes: "Learn on more and more of the data; report
'plateau' (where learning improvement stops)". A log written by :func:`stats.run_sequence`
has, per unit (dataset, repeat, fold = test bucket I, learner), a ``train`` line: the number of
training instances (buckets 1..I-1). :func:`curves_view` pairs the selected criterion with
that line, summarises it per data set, learner and training size (the notes' quartiles: n,
mean, sd, min, q1, median, q3, max) and marks each learner's plateau (:func:`stats.plateau`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import stats
from stats.core.criteria import TRAINING_SIZE

#: The criterion that holds the training size (stats.run_sequence's encoding): bookkeeping, not a
#: criterion (stats.core.criteria), so the model's criteria leave it out and only this view reads it.
TRAIN = TRAINING_SIZE

#: The one line shown for a log without a sequence study.
NO_SEQUENCE = "this log holds no sequence study (no 'train' lines, which stats.run_sequence writes)"

#: Columns of :attr:`CurvesView.rows`.
CURVE_COLUMNS = ("dataset", "learner", "train", "n", "mean", "sd", "min", "q1", "median", "q3", "max", "plateau")


def plateau_definition(alpha: float, effect: float = 0.56) -> str:
    """How :func:`stats.plateau` defines the plateau, in one sentence."""
    return (
        "plateau: the smallest training size that no larger size improves on, an improvement being "
        f"a one-sided Mann-Whitney test significant at alpha = {alpha:g} after Holm's adjustment over "
        f"the larger sizes with Vargha-Delaney A12 >= {effect:g} (stats.plateau); "
        "'not reached' when every size but the largest is improved on"
    )


@dataclass(frozen=True, eq=False)
class CurvesView:
    """Per data set and learner, the criterion's quartiles at each training size, and the plateau.

    ``rows``: one row per (dataset, learner, train) in :data:`CURVE_COLUMNS` order, training
    sizes ascending; ``plateau`` is True on the row of the learner's plateau size (when it was
    reached). ``plateaus``: one row per (dataset, learner): size (the plateau, or the largest
    size when not reached), reached, sizes (how many distinct training sizes). ``message``:
    :data:`NO_SEQUENCE` (or why there is no curve) when ``rows`` is empty, else None.
    """

    criterion: str
    higher_is_better: bool
    alpha: float
    rows: pd.DataFrame
    plateaus: pd.DataFrame
    definition: str
    message: str | None = None
    notes: tuple[str, ...] = ()

    def curve(self, dataset: str, learner: str) -> pd.DataFrame:
        """The rows of one learner on one data set."""
        r = self.rows
        return r[(r["dataset"] == dataset) & (r["learner"] == learner)]


def empty_curves(criterion: str, higher_is_better: bool, alpha: float, message: str) -> CurvesView:
    """A view without curves that says why in one line."""
    rows = pd.DataFrame({c: pd.Series(dtype=object) for c in CURVE_COLUMNS})
    plateaus = pd.DataFrame({c: pd.Series(dtype=object) for c in ("dataset", "learner", "size", "reached", "sizes")})
    return CurvesView(criterion, higher_is_better, alpha, rows, plateaus, plateau_definition(alpha), message)


def curves_view(
    results: pd.DataFrame,
    train: pd.DataFrame,
    criterion: str,
    higher_is_better: bool,
    alpha: float,
    datasets: tuple[str, ...] | list[str],
    learners: tuple[str, ...] | list[str],
) -> CurvesView:
    """The learning curves of ``criterion`` from its fold-level ``results`` and the ``train`` results.

    Both frames are tidy (dataset, repeat, fold, learner, value, ...), as
    ``stats.cells.CellValues.results`` gives them. A result without a ``train`` line of its unit is
    not on a curve; a learner with fewer than two training sizes has no plateau (a note says so).
    """
    if criterion == TRAIN:
        return empty_curves(criterion, higher_is_better, alpha, "the 'train' criterion is the training size itself")
    if train.empty:
        return empty_curves(criterion, higher_is_better, alpha, NO_SEQUENCE)
    keys = ["dataset", "repeat", "fold", "learner"]
    left = results[keys + ["value"]].astype({"dataset": str, "learner": str})
    right = train[keys + ["value"]].astype({"dataset": str, "learner": str}).rename(columns={"value": "train"})
    both = left.merge(right, on=keys, how="inner")
    both = both[both["dataset"].isin(datasets) & both["learner"].isin(learners)]
    if both.empty:
        why = f"no {criterion} result of the selection has a 'train' line (no sequence study)"
        return empty_curves(criterion, higher_is_better, alpha, why)
    rows, plateaus, notes = [], [], []
    for dataset in [d for d in datasets if d in set(both["dataset"])]:
        mine = both[both["dataset"] == dataset]
        for learner in [x for x in learners if x in set(mine["learner"])]:
            curve = mine[mine["learner"] == learner]
            sizes, values = curve["train"].to_numpy(float), curve["value"].to_numpy(float)
            found = None
            if np.unique(sizes).size >= 2:
                found = stats.plateau(sizes, values, higher_is_better=higher_is_better, alpha=alpha)
                plateaus.append((dataset, learner, found.size, found.reached, len(found.sizes)))
            else:
                notes.append(f"{dataset} / {learner}: one training size only, no plateau")
            for size in np.unique(sizes):
                q = stats.quartiles(values[sizes == size])
                mark = found is not None and found.reached and found.size == size
                rows.append(
                    (dataset, learner, float(size), q.n, q.mean, q.sd, q.min, q.q1, q.median, q.q3, q.max, mark)
                )
    frame = pd.DataFrame(rows, columns=list(CURVE_COLUMNS)).astype({"n": np.int64, "plateau": bool})
    table = pd.DataFrame(plateaus, columns=["dataset", "learner", "size", "reached", "sizes"])
    table = table.astype({"size": float, "reached": bool, "sizes": np.int64})
    return CurvesView(criterion, higher_is_better, alpha, frame, table, plateau_definition(alpha), None, tuple(notes))
