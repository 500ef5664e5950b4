"""The learning curves's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

from tui.formats.latex import _boxplot, tabular, tex_escape
from tui.formats.text import value_decimals
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.curves.shared import _each, _title


def curves_latex(analysis: Analysis) -> list[str]:
    """The ``\\boxplot`` table (Menzies' lecture notes) per data set and learner: training size, box, median,
    plateau."""

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


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    return curves_latex(analysis)
