"""The learning curves's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from tui.formats.markdown import md_escape, table
from tui.formats.text import value_decimals
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.curves.shared import _each, _title


def curves_markdown(analysis: Analysis) -> list[str]:
    """A heading, the definition, and per data set a pipe table (the plateau's row in bold)."""

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


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    return curves_markdown(analysis)
