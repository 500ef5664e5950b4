"""Markdown rendering of an :class:`~tui.model._types.Analysis`: GitHub pipe tables for a README or a paper.

Names from the logs appear literally: ``\\``, ``|``, ``*`` and backquotes are
backslash-escaped (``|`` would end a cell; the others would start markup).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import stats
from stats import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, fmt_p, fmt_stat
from stats.core.names import printable
from tui.render._effects import (
    EFFECT_HEADER,
    effect_note,
    effects_cells,
    letters_row,
    two_sample_cells,
    two_sample_title,
)
from tui.render._tests_extra import extra_markdown
from tui.render._text import (
    FOLDS_TABLE,
    FOLDS_TOTALS,
    NO_FOLDS,
    PAIR_PROCEDURES,
    apv_columns,
    cd_text,
    chart_decimals,
    check_view,
    deltas_title,
    df_text,
    folds_intro,
    folds_table_rows,
    folds_totals_rows,
    rank_cell,
    scope_rows,
    sections,
    sk_legend,
    sk_rank,
)
from tui.model import Analysis

_SPECIAL = re.compile(r"([\\|*`])")


def md_escape(name: object) -> str:
    """``name`` with ``\\ | * ``` backslash-escaped (newlines become spaces: a cell is one line)."""
    return _SPECIAL.sub(r"\\\1", printable(name))  # control characters escaped first (stats.core.names)


def table(header: Sequence[str], align: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A pipe table; ``align`` holds "l" or "r" per column."""
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks[a] for a in align) + " |"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def bold(text: str, on: bool) -> str:
    return f"**{text}**" if on else text


def _quartiles(analysis: Analysis) -> list[str]:
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
    for scope in view.scopes:
        note = f" (Kendall tau {view.tau[scope]:.2f} against overall)" if scope in view.flagged else ""
        out += ["", f"### {md_escape(scope)}{note}", ""]
        rows = [
            [md_escape(r.learner), str(r.n), *(f"{getattr(r, f):.{d}f}" for f in ("min", "q1", "median", "q3", "max"))]
            for r in scope_rows(view, scope)
        ]
        if legend:  # Scott-Knott's group rank first, as in Menzies' lecture notes' tables
            rows = [[str(sk_rank(view, scope, r.learner) or "-"), *x] for r, x in zip(scope_rows(view, scope), rows)]
            out += table(["rank", "learner", "n", "min", "q1", "median", "q3", "max"], "rlrrrrrr", rows)
        else:
            out += table(["learner", "n", "min", "q1", "median", "q3", "max"], "lrrrrrr", rows)
    return out


def _ranks(analysis: Analysis) -> list[str]:
    view = analysis.ranks
    assert view is not None
    cols = [str(c) for c in view.medians.columns]
    rows = []
    for d in view.medians.index:
        best = view.best[str(d)]
        rows.append(
            [md_escape(d)]
            + [
                bold(rank_cell(view.medians.loc[d, c], view.ranks.loc[d, c]), str(c) in best)
                for c in view.medians.columns
            ]
        )
    low = view.average.min()
    rows.append(
        ["**average rank**"] + [bold(f"{view.average[c]:.3f}", view.average[c] == low) for c in view.medians.columns]
    )
    letters = letters_row(analysis, list(view.medians.columns))
    if letters is not None:
        rows.append(["letters", *letters[0]])
    out = [
        "## Ranks",
        "",
        "Median over repeats and folds, rank in parentheses (1 = best); the best of each row in bold.",
        "",
    ]
    out += table(["data set", *map(md_escape, cols)], "l" + "r" * len(cols), rows)
    if letters is not None:
        out += ["", md_escape(letters[1]) + " (Piepho 2004)."]
    if view.excluded:
        out += [""] + [f"- left out: {md_escape(n)} ({md_escape(why)})" for n, why in view.excluded.items()]
    return out


def _tests(analysis: Analysis) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None
    out = ["## Tests", "", f"**Verdict:** {md_escape(tests.verdict)}", ""]
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
    out += table(["test", "statistic", "df", "p"], "lrrr", rows)
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


def _pairs(analysis: Analysis) -> list[str]:
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    out = ["## All pairs", "", f"{sel.test} z statistics; adjusted p-values <= {sel.alpha:g} (rejected) in bold.", ""]
    rows = [
        [md_escape(r.a), md_escape(r.b), f"{r.z:.3f}", fmt_p(float(r.p))]
        + [bold(fmt_p(float(getattr(r, c))), getattr(r, c) <= sel.alpha) for c in PAIR_PROCEDURES]
        for r in pairs.table.itertuples(index=False)
    ]
    out += table(["a", "b", "z", "p", *PAIR_PROCEDURES], "llrr" + "r" * len(PAIR_PROCEDURES), rows)
    if pairs.two_sample is not None:
        header, cells = two_sample_cells(pairs, sel.alpha, md_escape, bold)
        out += ["", md_escape(two_sample_title(pairs, sel.alpha)).replace("are marked", "are in bold") + ".", ""]
        out += table(header, "lllrrr", cells)
    a, b = pairs.pair
    out += [
        "",
        f"{md_escape(b)} against {md_escape(a)}:",
        "",
        f"- {md_escape(pairs.wilcoxon)}",
        f"- {md_escape(pairs.sign)}",
    ]
    if analysis.effects is not None:
        out += ["", md_escape(effect_note(analysis.effects, analysis.n_datasets)) + ".", ""]
        out += table(["a", "b", *EFFECT_HEADER], "ll" + "rlrlrrrr", effects_cells(analysis.effects, md_escape))
    return out


def _cd(analysis: Analysis, ascii: bool) -> list[str]:
    cd = analysis.cd
    assert cd is not None
    lines = cd_text(analysis, ascii)
    out = ["## Critical difference", "", md_escape(lines[0]), "", md_escape(lines[1]), "", "```", *lines[2:], "```"]
    if cd.cliques:
        out += ["", f"Not significantly different ({stats.PROCEDURE_NAMES[cd.procedure]}):", ""]
        out += ["- " + ", ".join(md_escape(n) for n in clique) for clique in cd.cliques]
    return out


def _folds(analysis: Analysis) -> list[str]:
    view = analysis.folds
    assert view is not None
    if view.table.empty:
        return ["## Fold-level comparison", "", f"Against {md_escape(view.control)}: {NO_FOLDS}."]
    intro = folds_intro(view)
    out = ["## Fold-level comparison", "", *(f"- {md_escape(line[:1].upper() + line[1:])}" for line in intro), ""]
    out += [f"**{md_escape(line)}**  " for line in view.sentences] + [""]
    out += table(FOLDS_TOTALS, "lrrrrr", [[md_escape(r[0]), *r[1:]] for r in folds_totals_rows(view)])
    out.append("")
    rows = [[md_escape(r[0]), md_escape(r[1]), *r[2:6], md_escape(r[6]), *r[7:]] for r in folds_table_rows(view)]
    out += table(FOLDS_TABLE, "llrrrrcrrr", rows)
    if view.notes:
        out += ["", *(f"- note: {md_escape(n)}" for n in view.notes)]
    return out


def render_markdown(analysis: Analysis, view: str = "all", *, ascii: bool = False, source: str = "") -> str:
    """The report as markdown: a heading per view, pipe tables, the CD diagram in a code block."""
    from tui.render._curves import curves_markdown  # it imports this module

    views = check_view(view)
    sel = analysis.selection
    head = [f"# rankboard report: {md_escape(sel.criterion)}", ""]
    if source:
        head += [f"Source: {md_escape(source)}", ""]
    head.append(
        f"Criterion {md_escape(sel.criterion)} ({'higher' if sel.higher_is_better else 'lower'} is better), "
        f"{analysis.n_datasets} data sets x {analysis.n_learners} learners, median over repeats and folds."
    )
    if analysis.problem:
        head += ["", f"Not tested: {md_escape(analysis.problem)}"]
    head += [line for note in analysis.notes for line in ("", md_escape(note[:1].upper() + note[1:]) + ".")]
    make: dict[str, Callable[[], list[str]]] = {
        "quartiles": lambda: _quartiles(analysis),
        "ranks": lambda: _ranks(analysis),
        "tests": lambda: _tests(analysis),
        "pairs": lambda: _pairs(analysis),
        "cd": lambda: _cd(analysis, ascii),
        "folds": lambda: _folds(analysis),
        "curves": lambda: curves_markdown(analysis),
    }
    blocks = [head, *sections(analysis, views, make)]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"
