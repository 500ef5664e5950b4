"""The tests view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from stats import fmt_p
from tui.formats.text import grid
from tui.model import Analysis, TestsView
from tui.registry import RenderOptions
from tui.views.tests.extra import extra_text, friedman_ties_text
from tui.views.tests.shared import apv_columns, omnibus_line


def control_text(tests: TestsView, alpha: float, test: str) -> list[str]:
    table = tests.control_table
    procs = apv_columns(table)
    out = [f"control {tests.control} ({test} z statistics); adjusted p-values <= {alpha:g} are marked *"]
    lw = max(len(str(x)) for x in [*map(str, table.index), "learner"])
    out.append("learner".ljust(lw) + "        z         p" + "".join(f"{c:>12}" for c in procs))
    for name, row in table.iterrows():
        cells = "".join(f"{fmt_p(row[c]) + ('*' if row[c] <= alpha else ' '):>12}" for c in procs)
        out.append(f"{str(name).ljust(lw)} {row['z']:8.3f} {fmt_p(row['p']):>9}{cells}")
    return out


def tests_text(analysis: Analysis) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None

    out = ["verdict: " + tests.verdict, ""]
    for name, row in tests.omnibus.iterrows():
        out.append(omnibus_line(str(name), row))
        if name == "friedman" and tests.extra is not None:
            out.append(friedman_ties_text(tests))
    out.append(f"Nemenyi critical difference (alpha = {sel.alpha:g}): CD = {tests.cd:.3f}")
    out.append(tests.safety)
    out.append("")
    out += control_text(tests, sel.alpha, sel.test)
    if tests.extra is not None:
        out += extra_text(tests, sel.alpha, grid)
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The verdict, the omnibus tests and the control table."""
    return tests_text(analysis)  # type: ignore[arg-type]
