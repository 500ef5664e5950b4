"""What the learning curves's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from stats import Quartiles, quartile_chart
from stats.charts.quartiles import DEFAULT_WIDTH
from tui.formats.text import value_decimals

#: The numbers of a row of the curves (JSON and CSV), after dataset, learner and train.
CURVE_NUMBERS = ("n", "mean", "sd", "min", "q1", "median", "q3", "max")


def _title(view: Any) -> str:
    direction = "higher" if view.higher_is_better else "lower"
    return (
        f"learning curves of {view.criterion} ({direction} is better): per learner, its quartiles at each "
        "training size (train = the instances of buckets 1..I-1 when bucket I is tested; Menzies' sequence study)"
    )


def plateau_words(row: Any) -> str:
    """``plateau at 114 (of 9 sizes)`` or ``plateau not reached: still improving at 513``."""
    if row.reached:
        return f"plateau at {row.size:g} (of {row.sizes} training sizes)"
    return f"plateau not reached: still improving at {row.size:g} (of {row.sizes} training sizes)"


def _label(size: float, plateau: bool) -> str:
    return f"{size:g} plateau" if plateau else f"{size:g}"


def _each(view: Any) -> list[tuple[str, list[tuple[str, pd.DataFrame, str]]]]:
    """Per data set: (learner, its rows, the plateau in words), in the view's order."""
    out = []
    plateaus = {(p.dataset, p.learner): plateau_words(p) for p in view.plateaus.itertuples(index=False)}
    for dataset in dict.fromkeys(view.rows["dataset"]):
        mine = view.rows[view.rows["dataset"] == dataset]
        learners = [
            (learner, mine[mine["learner"] == learner], plateaus.get((dataset, learner), "no plateau"))
            for learner in dict.fromkeys(mine["learner"])
        ]
        out.append((str(dataset), learners))
    return out


def curves_lines(view: Any, width: int = DEFAULT_WIDTH, style: str = "seed004", fit: int | None = None) -> list[str]:
    """The charts of Menzies' lecture notes, one per data set and learner, the rows labelled by training size (the
    plateau's row ``<size> plateau``); one line when there are no curves (the report and view 7).
    ``width``: the cells of the charts' axis (view 7 fits it to the pane); ``style``: the chart's
    (:func:`stats.quartile_chart`: ``seed000`` leaves out mean, sd and n, for a narrow pane);
    ``fit``: the cells a ``seed000`` row may take (its axis takes what the numbers leave)."""
    if view.message:
        return [f"learning curves: {view.message}"]
    labels = [_label(r.train, r.plateau) for r in view.rows.itertuples(index=False)]
    label_w = max(map(len, labels), default=0)  # (seed000 rows aligned as seed004's are)
    out = ["=====", _title(view), view.definition]
    for dataset, learners in _each(view):
        rows = view.rows[view.rows["dataset"] == dataset]
        lo, hi = float(rows["min"].min()), float(rows["max"].max())
        decimals = value_decimals(max(abs(lo), abs(hi)))
        for learner, curve, words in learners:
            out += ["", f"----| {dataset} / {learner} |----- {words}", ""]
            charts = {
                _label(r.train, r.plateau).rjust(label_w if style == "seed000" else 0): Quartiles(
                    r.n, r.min, r.q1, r.median, r.q3, r.max, r.mean, r.sd
                )
                for r in curve.itertuples(index=False)
            }
            axis = width
            if fit is not None and style == "seed000":  # the label, five numbers, their gaps, brackets
                numbers = 5 * (2 + max(len(f"{v:.{decimals}f}") for v in (lo, hi)))
                axis = max(8, min(DEFAULT_WIDTH, fit - label_w - numbers - 4))
            out += quartile_chart(charts, style=style, width=axis, lo=lo, hi=hi, decimals=decimals)
    out += [f"note: {n}" for n in view.notes]
    return out
