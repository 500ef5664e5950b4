"""The tests view's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

from stats import OMNIBUS_NAMES, fmt_stat
from tui.formats.latex import (
    bf,
    tabular,
    tex_escape,
    tex_p,
)
from tui.model import Analysis, tests_sentence
from tui.registry import RenderOptions
from tui.views.tests.extra import extra_latex
from tui.views.tests.shared import SM_NAME, apv_columns, df_text, uses_sentence


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None
    out = [f"% verdict: {tex_escape(tests.verdict)}"]
    r = analysis.robustness
    if r is not None:  # issue 31: how fragile and how stable the verdict's decisions are
        out.append(f"% robustness: {tex_escape(tests_sentence(r))}")
    if not tests.skillings_mack_only:  # (alone: no safety notice)
        out.append(f"% {tex_escape(tests.safety)}")
    rows = [
        [OMNIBUS_NAMES[str(n)], fmt_stat(r["statistic"]), df_text(r["df"]), tex_p(r["pvalue"])]
        for n, r in tests.omnibus.iterrows()
    ]
    if tests.extra is not None:  # the tie-corrected Friedman statistic under Demsar's (2006) form
        f = tests.extra.friedman_ties
        rows.insert(1, ["Friedman, tie-corrected", fmt_stat(f.statistic), df_text(f.df), tex_p(f.pvalue)])
    if tests.incomplete is not None:  # issue 31: after the Friedman rows; the counts as a comment
        sm = tests.incomplete.result
        rows.insert(
            2 if tests.extra is not None else 1, [SM_NAME, fmt_stat(sm.statistic), df_text(sm.df), tex_p(sm.pvalue)]
        )  # (alone: the only row)
        out.append(f"% {tex_escape(uses_sentence(tests))}")
    if tests.skillings_mack_only:  # fewer than 2 complete data sets: no CD nor control table
        return out + tabular("l r r r", ["Test", "Statistic", "df", "$p$"], rows)
    rows.append([f"Nemenyi CD ($\\alpha = {sel.alpha:g}$)", f"{tests.cd:.3f}", "", ""])
    out += tabular("l r r r", ["Test", "Statistic", "df", "$p$"], rows)
    out += ["", f"% control {tex_escape(tests.control)} ({sel.test} z); APV <= {sel.alpha:g} (rejected) in bold"]
    procs = apv_columns(tests.control_table)
    body = [
        [tex_escape(n), f"{r['z']:.3f}", tex_p(r["p"])] + [bf(tex_p(r[c]), r[c] <= sel.alpha) for c in procs]
        for n, r in tests.control_table.iterrows()
    ]
    title = f"control: {tex_escape(tests.control)}"
    out += tabular("l" + "r" * (2 + len(procs)), ["Learner", "$z$", "$p$", *procs], body, title)
    if tests.extra is not None:
        out += extra_latex(tests, sel.alpha, tabular, tex_escape)
    return out
