"""The tests view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from functools import partial

from stats import fmt_p
from tui.formats.text import fitted_grid
from tui.model import Analysis, TestsView, tests_sentence
from tui.registry import RenderOptions
from tui.views.tests.extra import extra_text, friedman_ties_text
from tui.views.tests.shared import apv_columns, omnibus_line, sm_line, uses_sentence


def control_text(tests: TestsView, alpha: float, test: str, width: int | None = None) -> list[str]:
    """The control table; with a terminal's ``width``, names fitted and the APVs wrapped."""
    table = tests.control_table
    procs = apv_columns(table)
    out = [f"control {tests.control} ({test} z statistics); adjusted p-values <= {alpha:g} are marked *"]
    if width is not None:
        mark = {True: "*", False: " "}
        rows = [
            [str(name), f"{row['z']:.3f}", fmt_p(row["p"]), *(fmt_p(q) + mark[bool(q <= alpha)] for q in row[procs])]
            for name, row in table.iterrows()
        ]
        return out + fitted_grid(["learner", "z", "p", *procs], rows, width, keep=3)
    lw = max(len(str(x)) for x in [*map(str, table.index), "learner"])
    out.append("learner".ljust(lw) + "        z         p" + "".join(f"{c:>12}" for c in procs))
    for name, row in table.iterrows():
        cells = "".join(f"{fmt_p(row[c]) + ('*' if row[c] <= alpha else ' '):>12}" for c in procs)
        out.append(f"{str(name).ljust(lw)} {row['z']:8.3f} {fmt_p(row['p']):>9}{cells}")
    return out


def tests_text(analysis: Analysis, width: int | None = None) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None

    out = ["verdict: " + tests.verdict]
    r = analysis.robustness  # (computed now when the app has not: a report prints it whole)
    if r is not None:
        out.append("robustness: " + tests_sentence(r))
    out.append("")
    if tests.skillings_mack_only:  # fewer than 2 complete data sets: no other test, CD nor table
        return out + [sm_line(tests), uses_sentence(tests)]
    for name, row in tests.omnibus.iterrows():
        out.append(omnibus_line(str(name), row))
        if name == "friedman" and tests.extra is not None:
            out.append(friedman_ties_text(tests))
        if name == "friedman" and tests.incomplete is not None:  # issue 31: beside Friedman, with the counts
            out += [sm_line(tests), uses_sentence(tests)]
    out.append(f"Nemenyi critical difference (alpha = {sel.alpha:g}): CD = {tests.cd:.3f}")
    out.append(tests.safety)
    out.append("")
    out += control_text(tests, sel.alpha, sel.test, width)
    if tests.extra is not None:
        out += extra_text(tests, sel.alpha, partial(fitted_grid, width=width))  # (no width: grid)
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The verdict, the omnibus tests and the control table."""
    return tests_text(analysis, options.width)  # type: ignore[arg-type]
