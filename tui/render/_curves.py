"""The learning-curve section of ``rankboard report`` (``--view curves``): text, markdown, JSON, CSV.

Menzies' lecture notes ("Incremental M*N-way"): per learner, the criterion's quartiles at each training size
of a sequence study, drawn as the notes' quartile chart (``#rx, mean, sd, n, min, q1, median,
q3, max`` and a bar; :func:`stats.quartile_chart` with ``style="seed004"``), the plateau
(:func:`stats.plateau`) marked on its row and said in words. A log without a sequence study
gets one line saying so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from stats import Quartiles, quartile_chart
from stats.charts.quartiles import DEFAULT_WIDTH
from tui.render._text import value_decimals
from tui.model import Analysis

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


def curves_text(analysis: Analysis) -> list[str]:
    """The text section: :func:`curves_lines` of the analysis' curves."""
    return curves_lines(analysis.curves)


def curves_lines(view: Any, width: int = DEFAULT_WIDTH) -> list[str]:
    """The charts of Menzies' lecture notes, one per data set and learner, the rows labelled by training size (the
    plateau's row ``<size> plateau``); one line when there are no curves (the report and view 7).
    ``width``: the cells of the charts' axis (view 7 fits it to the pane)."""
    if view.message:
        return [f"learning curves: {view.message}"]
    out = ["=====", _title(view), view.definition]
    for dataset, learners in _each(view):
        rows = view.rows[view.rows["dataset"] == dataset]
        lo, hi = float(rows["min"].min()), float(rows["max"].max())
        decimals = value_decimals(max(abs(lo), abs(hi)))
        for learner, curve, words in learners:
            out += ["", f"----| {dataset} / {learner} |----- {words}", ""]
            charts = {
                _label(r.train, r.plateau): Quartiles(r.n, r.min, r.q1, r.median, r.q3, r.max, r.mean, r.sd)
                for r in curve.itertuples(index=False)
            }
            out += quartile_chart(charts, style="seed004", width=width, lo=lo, hi=hi, decimals=decimals)
    out += [f"note: {n}" for n in view.notes]
    return out


def curves_markdown(analysis: Analysis) -> list[str]:
    """A heading, the definition, and per data set a pipe table (the plateau's row in bold)."""
    from tui.render._markdown import md_escape, table

    view = analysis.curves
    if view.message:
        return ["## Learning curves", "", md_escape(view.message[:1].upper() + view.message[1:]) + "."]
    out = ["## Learning curves", "", md_escape(_title(view)[:1].upper() + _title(view)[1:]) + ".", ""]
    out.append(md_escape(view.definition[:1].upper() + view.definition[1:]) + ".")
    for dataset, learners in _each(view):
        rows = view.rows[view.rows["dataset"] == dataset]
        d = value_decimals(max(abs(float(rows["min"].min())), abs(float(rows["max"].max()))))
        out += ["", f"### {md_escape(dataset)}", ""]
        out += [f"- {md_escape(learner)}: {words}" for learner, _, words in learners] + [""]
        cells = []
        for learner, curve, _ in learners:
            for r in curve.itertuples(index=False):
                nums = [f"{getattr(r, k):.{d}f}" for k in ("min", "q1", "median", "q3", "max")]
                mark = "**plateau**" if r.plateau else ""
                cells.append([md_escape(learner), f"{r.train:g}", str(r.n), *nums, mark])
        out += table(["learner", "train", "n", "min", "q1", "median", "q3", "max", "plateau"], "lrrrrrrrc", cells)
    out += [f"- note: {md_escape(n)}" for n in view.notes]
    return out


def curves_dict(view: Any, num: Any) -> dict[str, Any]:
    """The JSON value of the view (``num`` makes JSON numbers)."""
    rows = [
        {
            "dataset": str(r.dataset),
            "learner": str(r.learner),
            "train": num(r.train),
            "plateau": bool(r.plateau),
            **{k: num(int(r.n) if k == "n" else getattr(r, k)) for k in CURVE_NUMBERS},
        }
        for r in view.rows.itertuples(index=False)
    ]
    plateaus = [
        {
            "dataset": str(p.dataset),
            "learner": str(p.learner),
            "size": num(p.size),
            "reached": bool(p.reached),
            "sizes": int(p.sizes),
        }
        for p in view.plateaus.itertuples(index=False)
    ]
    return {
        "definition": view.definition,
        "message": view.message,
        "rows": rows,
        "plateaus": plateaus,
        "notes": list(view.notes),
    }


def curves_frame(view: Any) -> pd.DataFrame:
    """CSV columns: criterion, dataset, learner, train, n, mean, sd, min, q1, median, q3, max, plateau
    (True on the plateau's row), plateau_size and reached (the learner's plateau, on each of its rows)."""
    if view.message:
        raise ValueError(f"nothing to export in the curves view: {view.message}")
    frame = view.rows.merge(
        view.plateaus.rename(columns={"size": "plateau_size"})[["dataset", "learner", "plateau_size", "reached"]],
        on=["dataset", "learner"],
        how="left",
    )
    frame.insert(0, "criterion", view.criterion)
    frame["reached"] = frame["reached"].astype("boolean")
    return frame.astype({"n": np.int64, "dataset": str, "learner": str})


def curves_latex(analysis: Analysis) -> list[str]:
    """The ``\\boxplot`` table (Menzies' lecture notes) per data set and learner: training size, box, median,
    plateau."""
    from tui.render._latex import _boxplot, tabular, tex_escape

    view = analysis.curves
    if view.message:
        return [f"% learning curves: {tex_escape(view.message)}"]
    out = [f"% {tex_escape(_title(view))}", f"% {tex_escape(view.definition)}", r"{\scriptsize"]
    for dataset, learners in _each(view):
        rows = view.rows[view.rows["dataset"] == dataset]
        lo, hi = float(rows["min"].min()), float(rows["max"].max())
        d = value_decimals(max(abs(lo), abs(hi)))
        out.append(f"% {tex_escape(dataset)}: \\boxplot axis from {lo:.{d}f} (0) to {hi:.{d}f} (100)")
        for learner, curve, words in learners:
            body = [
                [f"{r.train:g}", _boxplot(r, lo, hi), f"{r.median:.{d}f}", r"\textbf{plateau}" if r.plateau else ""]
                for r in curve.itertuples(index=False)
            ]
            title = f"{tex_escape(dataset)} / {tex_escape(learner)}: {tex_escape(words)}"
            out += tabular("r c r c", ["Train", r"q1, median, q3", "median", ""], body, title)
            out.append("")
    out.append("}")
    return out
