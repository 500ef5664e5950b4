"""The tests view's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from stats import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, fmt_p, fmt_stat
from tui.formats.markdown import bold, md_escape, table
from tui.model import Analysis, tests_sentence
from tui.registry import RenderOptions
from tui.views.tests.extra import extra_markdown
from tui.views.tests.shared import SM_NAME, apv_columns, df_text, uses_sentence


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None
    out = ["## Tests", "", f"**Verdict:** {md_escape(tests.verdict)}", ""]
    r = analysis.robustness
    if r is not None:  # issue 31: how fragile and how stable the verdict's decisions are
        out += [f"**Robustness:** {md_escape(tests_sentence(r))}", ""]
    rows = [
        [
            f"{OMNIBUS_NAMES[str(n)]} ({OMNIBUS_SYMBOLS[str(n)]})",
            fmt_stat(r["statistic"]),
            df_text(r["df"]),
            fmt_p(r["pvalue"]),
        ]
        for n, r in tests.omnibus.iterrows()
    ]
    if tests.extra is not None:  # the tie-corrected Friedman statistic under Demsar's (2006) form
        f = tests.extra.friedman_ties
        rows.insert(1, ["Friedman, tie-corrected (chi2)", fmt_stat(f.statistic), df_text(f.df), fmt_p(f.pvalue)])
    if tests.incomplete is not None:  # issue 31: after the Friedman rows, with the counts under the table
        sm = tests.incomplete.result
        at = 2 if tests.extra is not None else 1  # (alone: the only row)
        rows.insert(at, [f"{SM_NAME} (chi2)", fmt_stat(sm.statistic), df_text(sm.df), fmt_p(sm.pvalue)])
    out += table(["test", "statistic", "df", "p"], "lrrr", rows)
    if tests.incomplete is not None:
        out += ["", md_escape(uses_sentence(tests)) + "."]
    if tests.skillings_mack_only:  # fewer than 2 complete data sets: no CD, safety notice nor control table
        return out
    out += ["", f"Nemenyi critical difference (alpha = {sel.alpha:g}): CD = {tests.cd:.3f}", ""]
    out += [md_escape(tests.safety), ""]
    out += [
        f"Control **{md_escape(tests.control)}** ({sel.test} z statistics); adjusted p-values "
        f"<= {sel.alpha:g} (rejected) in bold.",
        "",
    ]
    procs = apv_columns(tests.control_table)
    rows = [
        [md_escape(name), f"{row['z']:.3f}", fmt_p(row["p"])]
        + [bold(fmt_p(row[c]), row[c] <= sel.alpha) for c in procs]
        for name, row in tests.control_table.iterrows()
    ]
    out += table(["learner", "z", "p", *procs], "lrr" + "r" * len(procs), rows)
    if tests.extra is not None:
        out += extra_markdown(tests, sel.alpha, table, md_escape)
    return out
