"""LaTeX rendering of an :class:`~tui.model._types.Analysis`.

Per view:

``quartiles``
    the boxplot table of Menzies' lecture notes per scope: rank, learner and the ``\\boxplot``
    picture macro. The picture is 100 units wide and the scope's values are
    mapped onto it from the analysis' shared axis ``[lo, hi]`` (0 = lo, 100 =
    hi): a tick at q1, a line to the median's dot, a line to a tick at q3, and
    the notes' mark at 50 (the middle of the axis). The rank is the learner's
    Scott-Knott group in the scope (``stats.scott_knott``, the selection's
    variant; 1 = best); in the charts of deltas, which have no groups, its rank
    of medians within the scope (1 = best, ties averaged). Shaded rows:
    overall, the verdict's winners (not significantly worse than the best);
    per data set, the first Scott-Knott group (deltas: the best median).
``ranks``
    medians with ranks in parentheses, the best of each row in bold, and the
    average-rank row (the best in bold).
``tests``
    the omnibus tests, the CD, and the control table with z, p and every APV;
    rejected hypotheses (APV <= alpha) in bold. The verdict is a comment.
``pairs``
    every pair with z, p and the four all-pairs APVs; rejected in bold.
``cd``
    Demsar's diagram as a TikZ picture: the rank axis (1 = best, at the left),
    each learner joined to its average rank, a thick bar per clique.

Names are escaped (``& % $ # _ { } ~ ^ \\``, and ``< > |``, which the default
font encoding garbles). The fragment starts with ``% requires:`` lines;
``standalone=True`` gives a whole document instead (``\\documentclass``, the
packages and the ``\\boxplot`` definition of Menzies' lecture notes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pandas as pd

import stats
from stats import OMNIBUS_NAMES, fmt_p, fmt_stat
from stats.core.names import printable
from tui.render._effects import effect_note, effects_cells, letters_row, two_sample_cells, two_sample_title
from tui.render._tests_extra import extra_latex
from tui.render._text import (
    FOLDS_TABLE,
    FOLDS_TOTALS,
    NO_FOLDS,
    PAIR_PROCEDURES,
    apv_columns,
    chart_decimals,
    check_view,
    deltas_title,
    df_text,
    folds_intro,
    folds_table_rows,
    folds_totals_rows,
    scope_rows,
    sections,
    sk_legend,
    sk_rank,
)
from tui.model import Analysis

PACKAGES = ("colortbl", "tikz")
#: The picture macro of Menzies' lecture notes: #1 = q1, #2 = median - q1, #3 = median, #4 = q3 - median, #5 = q3.
BOXPLOT_MACRO = r"""\newcommand{\boxplot}[5]{%
\begin{picture}(100, 7)
\put(#1, 2){\line(0, 1){4}}
\put(#1, 4){\line(1, 0){#2}}
\put(#3, 4){\circle*{3}}
\put(#3, 4){\line(1, 0){#4}}
\put(#5, 2){\line(0, 1){4}}
\put(50, 3){\line(0, 1){4}}
\end{picture}%
}"""
SHADE = r"\rowcolor[rgb]{0.8,0.8,0.8}"

_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # A row of a tabular that begins with "[" after "\\" is read as \\[<length>] (and fails):
    # brackets are braced wherever a name puts them.
    "[": "{[}",
    "]": "{]}",
}


def tex_p(p: float) -> str:
    """:func:`fmt_p` for LaTeX text (``<1e-300`` needs math mode for its ``<``)."""
    return fmt_p(p).replace("<", "$<$")


def tex_escape(name: object) -> str:
    """``name`` with LaTeX's special characters escaped, brackets braced (``{[}``), control
    characters shown as escapes."""
    text = printable(name)  # control characters and bidi overrides escaped first (stats.core.names)
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def bf(text: str, on: bool) -> str:
    return rf"\textbf{{{text}}}" if on else text


def tabular(spec: str, header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None) -> list[str]:
    out = [rf"\begin{{tabular}}{{{spec}}}", r"\hline"]
    if title is not None:
        out += [rf"\multicolumn{{{len(header)}}}{{c}}{{{title}}} \\", r"\hline"]
    out += [" & ".join(header) + r" \\", r"\hline"]
    out += [" & ".join(r) + r" \\" for r in rows]
    out += [r"\hline", r"\end{tabular}"]
    return out


def _scale(x: float, lo: float, hi: float) -> float:
    return 50.0 if hi == lo else (x - lo) / (hi - lo) * 100.0


def _boxplot(r: object, lo: float, hi: float) -> str:
    q1, med, q3 = (_scale(getattr(r, f), lo, hi) for f in ("q1", "median", "q3"))
    nums = (q1, med - q1, med, q3 - med, q3)
    return r"\boxplot" + "".join(f"{{{v:.6f}}}" for v in nums)


def _quartiles(analysis: Analysis) -> list[str]:
    view = analysis.quartiles
    assert view is not None
    d = chart_decimals(view)
    winners = set(analysis.tests.winners) if analysis.tests is not None else set()
    out = [
        f"% quartiles of {tex_escape(view.criterion)}: \\boxplot axis from {view.lo:.{d}f} (0) "
        f"to {view.hi:.{d}f} (100); ticks at q1 and q3, dot at the median",
        r"{\scriptsize",
    ]
    if view.deltas is not None:  # the axis is centred at 0: the mark at 50 (Menzies) is no difference
        out.insert(1, f"% {tex_escape(deltas_title(view))}")
    higher = view.higher_is_better if view.deltas is None else True  # a delta is oriented: more is better
    legend = sk_legend(view)
    if legend:
        out.insert(1, f"% {tex_escape(legend)}")
    for scope in view.scopes:
        rows = scope_rows(view, scope)
        medians = pd.DataFrame([[r.median for r in rows]], columns=[r.learner for r in rows])
        ranks = stats.ranks(medians, higher_is_better=higher).iloc[0]
        top = min(ranks)
        body = []
        for r in rows:
            # the Rank column of Menzies' lecture notes: the Scott-Knott group (charts of deltas: the rank of medians)
            group = sk_rank(view, scope, r.learner) if legend else ranks[r.learner]
            top_group = group == 1 if legend else ranks[r.learner] == top
            shaded = r.learner in winners if scope == "overall" else top_group
            body.append(
                [
                    (SHADE if shaded else "") + ("-" if group is None else f"{group:g}"),
                    tex_escape(r.learner) + ",",
                    _boxplot(r, view.lo, view.hi),
                    f"{r.median:.{d}f}",
                ]
            )
        out += tabular("c r @{} c r", ["Rank", "Learner", r"q1, median, q3", "median"], body, tex_escape(scope))
        out.append("")
    out.append("}")
    return out


def _ranks(analysis: Analysis) -> list[str]:
    view = analysis.ranks
    assert view is not None
    cols = list(view.medians.columns)
    body = []
    for ds in view.medians.index:
        best = view.best[str(ds)]
        body.append(
            [tex_escape(ds)]
            + [bf(f"{view.medians.loc[ds, c]:.3f} ({view.ranks.loc[ds, c]:g})", str(c) in best) for c in cols]
        )
    low = view.average.min()
    avg_row = ["average rank"] + [bf(f"{view.average[c]:.3f}", view.average[c] == low) for c in cols]
    out = ["% ranks: median over repeats and folds, rank in parentheses (1 = best); the best of each row in bold"]
    table = tabular("l" + "r" * len(cols), ["Data set", *map(tex_escape, cols)], body)
    table.insert(-2, r"\hline")
    table.insert(-2, " & ".join(avg_row) + r" \\")
    letters = letters_row(analysis, cols)
    if letters is not None:
        table.insert(-2, " & ".join(["letters", *letters[0]]) + r" \\")
        out.append(f"% {tex_escape(letters[1])} (Piepho 2004)")
    out += table
    out += [f"% left out: {tex_escape(n)} ({tex_escape(why)})" for n, why in view.excluded.items()]
    return out


def _tests(analysis: Analysis) -> list[str]:
    tests, sel = analysis.tests, analysis.selection
    assert tests is not None
    out = [f"% verdict: {tex_escape(tests.verdict)}", f"% {tex_escape(tests.safety)}"]
    rows = [
        [OMNIBUS_NAMES[str(n)], fmt_stat(r["statistic"]), df_text(r["df"]), tex_p(r["pvalue"])]
        for n, r in tests.omnibus.iterrows()
    ]
    if tests.extra is not None:  # the tie-corrected Friedman statistic under Demsar's (2006) form
        f = tests.extra.friedman_ties
        rows.insert(1, ["Friedman, tie-corrected", fmt_stat(f.statistic), df_text(f.df), tex_p(f.pvalue)])
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


def _pairs(analysis: Analysis) -> list[str]:
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    out = [f"% all pairs ({sel.test} z); APV <= {sel.alpha:g} (rejected) in bold"]
    body = [
        [tex_escape(r.a), tex_escape(r.b), f"{r.z:.3f}", tex_p(float(r.p))]
        + [bf(tex_p(float(getattr(r, c))), getattr(r, c) <= sel.alpha) for c in PAIR_PROCEDURES]
        for r in pairs.table.itertuples(index=False)
    ]
    out += tabular("l l" + " r" * (2 + len(PAIR_PROCEDURES)), ["$a$", "$b$", "$z$", "$p$", *PAIR_PROCEDURES], body)
    if pairs.two_sample is not None:
        header, cells = two_sample_cells(pairs, sel.alpha, tex_escape, bf, tex_p)
        title = tex_escape(two_sample_title(pairs, sel.alpha)).replace("are marked", "in bold")
        out += ["", f"% {title}"]
        out += tabular("l l r l r r", ["$a$", "$b$", "statistic", "better", "$p$", pairs.procedure], cells)
    if analysis.effects is not None:
        out += ["", f"% {tex_escape(effect_note(analysis.effects, analysis.n_datasets))}"]
        header = ["$a$", "$b$", "$A_{12}$", "magnitude", r"$\delta$", "magnitude", "HL", "CI low", "CI high", "MW $p$"]
        out += tabular("l l r l r l r r r r", header, effects_cells(analysis.effects, tex_escape, tex_p))
    return out


def _cd(analysis: Analysis) -> list[str]:
    """Demsar's Fig. 1 in TikZ; x in cm: rank 1 at 0, rank k at ``AXIS_CM``."""
    cd = analysis.cd
    assert cd is not None
    names = [str(n) for n in cd.ranks.index]
    values = [float(v) for v in cd.ranks.to_numpy()]
    k = len(names)
    axis = 8.0

    def x(rank: float) -> float:
        return 0.0 if k == 1 else (rank - 1.0) / (k - 1) * axis

    out = [
        f"% critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        f"% {tex_escape(cd.basis + (f'; {cd.replaced}' if cd.replaced else ''))}",
        r"\begin{tikzpicture}[font=\small]",
        rf"\draw (0,0) -- ({axis:.3f},0);",
    ]
    for i in range(1, k + 1):
        out.append(rf"\draw ({x(i):.3f},0) -- ({x(i):.3f},0.15) node[above] {{{i}}};")
    if k > 1 and math.isfinite(cd.cd):
        end = x(1.0 + cd.cd)
        out.append(rf"\draw[|-|] (0,0.9) -- ({end:.3f},0.9) node[midway,above] {{CD = {cd.cd:.3f}}};")
    bars = len(cd.cliques)
    for b, clique in enumerate(cd.cliques):
        lo, hi = x(values[names.index(clique[0])]), x(values[names.index(clique[-1])])
        y = -0.25 * (b + 1)
        out.append(rf"\draw[line width=2pt] ({lo - 0.05:.3f},{y:.3f}) -- ({hi + 0.05:.3f},{y:.3f});")
    left_n = (k + 1) // 2
    for j, (n, v) in enumerate(zip(names, values)):
        row = j if j < left_n else k - 1 - j
        y = -0.25 * (bars + 1) - 0.4 * row
        if j < left_n:
            out.append(rf"\draw ({x(v):.3f},0) |- (-0.3,{y:.3f}) node[left] {{{tex_escape(n)} ({v:.2f})}};")
        else:
            out.append(
                rf"\draw ({x(v):.3f},0) |- ({axis + 0.3:.3f},{y:.3f}) node[right] {{({v:.2f}) {tex_escape(n)}}};"
            )
    out.append(r"\end{tikzpicture}")
    return out


def _folds(analysis: Analysis) -> list[str]:
    view = analysis.folds
    assert view is not None
    if view.table.empty:
        return [f"% fold-level comparison against {tex_escape(view.control)}: {NO_FOLDS}"]
    out = [f"% {tex_escape(line)}" for line in (*folds_intro(view), *view.sentences)]
    out += [f"% note: {tex_escape(n)}" for n in view.notes]
    header = [tex_escape(h) for h in FOLDS_TOTALS]
    out += tabular("l r r r r r", header, [[tex_escape(c) for c in r] for r in folds_totals_rows(view)])
    out.append("")
    header = [tex_escape(h) for h in FOLDS_TABLE]
    rows = [
        [tex_escape(c) for c in r[:5]] + [tex_p(p), tex_escape(r[6]), *r[7:]]
        for r, p in zip(folds_table_rows(view), view.table["pvalue"].tolist())
    ]
    out += tabular("l l r r r r c r r r", header, rows)
    return out


def preamble() -> list[str]:
    return [*(rf"\usepackage{{{p}}}" for p in PACKAGES), BOXPLOT_MACRO]


def render_latex(
    analysis: Analysis, view: str = "all", *, standalone: bool = False, source: str = "", ascii: bool = False
) -> str:
    """The report as LaTeX (a fragment, or a whole document with ``standalone=True``). ``ascii`` is unused."""
    from tui.render._curves import curves_latex  # it uses this module's helpers

    views = check_view(view)
    sel = analysis.selection
    head = [
        f"% rankboard report{': ' + tex_escape(source) if source else ''}",
        f"% criterion {tex_escape(sel.criterion)} ({'higher' if sel.higher_is_better else 'lower'} is better), "
        f"{analysis.n_datasets} data sets x {analysis.n_learners} learners, median over repeats and folds",
    ]
    if analysis.problem:
        head.append(f"% not tested: {tex_escape(analysis.problem)}")
    head += [f"% {tex_escape(note)}" for note in analysis.notes]
    if not standalone:
        head += [f"% requires: \\usepackage{{{p}}}" for p in PACKAGES]
        head += ["% requires: the \\boxplot macro of Menzies' lecture notes:"]
        head += ["% " + line for line in BOXPLOT_MACRO.splitlines()]
    make: dict[str, Callable[[], list[str]]] = {
        "quartiles": lambda: _quartiles(analysis),
        "ranks": lambda: _ranks(analysis),
        "tests": lambda: _tests(analysis),
        "pairs": lambda: _pairs(analysis),
        "cd": lambda: _cd(analysis),
        "folds": lambda: _folds(analysis),
        "curves": lambda: curves_latex(analysis),
    }
    body = sections(analysis, views, make)
    if standalone:
        doc = [r"\documentclass{article}", r"\usepackage[margin=1.5cm,landscape]{geometry}", *preamble()]
        doc += [r"\begin{document}", r"\noindent"]
        parts = [head + doc] + [[*b, "", r"\bigskip\noindent"] for b in body] + [[r"\end{document}"]]
        return "\n\n".join("\n".join(p) for p in parts) + "\n"
    return "\n\n".join("\n".join(b) for b in [head, *body]) + "\n"
