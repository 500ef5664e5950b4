"""The quartiles view's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from tui.formats.markdown import md_escape, table
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.quartiles.shared import chart_decimals, deltas_title, overall_note, scope_rows, sk_legend, sk_rank


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    view = analysis.quartiles
    assert view is not None
    d = chart_decimals(view)
    out = [f"## Quartiles of {md_escape(view.criterion)}"]
    if view.deltas is not None:
        out += ["", md_escape(deltas_title(view)[:1].upper() + deltas_title(view)[1:]) + "."]
    if view.warning:
        out += ["", f"> warning: {md_escape(view.warning)}"]
    legend = sk_legend(view)
    if legend:
        out += ["", md_escape(legend[:1].upper() + legend[1:]) + "."]
    flagged = set(view.flagged)  # (a scan of the flagged tuple per chart was quadratic)
    for scope in view.scopes:
        note = f" (Kendall tau {view.tau[scope]:.2f} against overall)" if scope in flagged else ""
        out += ["", f"### {md_escape(scope)}{note}", ""]
        rows = [
            [md_escape(r.learner), str(r.n), *(f"{getattr(r, f):.{d}f}" for f in ("min", "q1", "median", "q3", "max"))]
            for r in scope_rows(view, scope)
        ]
        if legend:  # Scott-Knott's group rank first, as in Menzies' lecture notes' tables
            rows = [[str(sk_rank(view, scope, r.learner) or "-"), *x] for r, x in zip(scope_rows(view, scope), rows)]
            out += table(["rank", "learner", "n", "min", "q1", "median", "q3", "max"], "rlrrrrrr", rows)
            pooled = overall_note(view, scope)  # why the pooled chart's groups may differ from the verdict
            if pooled:
                out += ["", md_escape(pooled) + "."]
        else:
            out += table(["learner", "n", "min", "q1", "median", "q3", "max"], "lrrrrrr", rows)
    return out
