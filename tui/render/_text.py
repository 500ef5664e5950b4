"""Plain-text rendering of an :class:`~tui.model._types.Analysis` (the layouts of Menzies'
notes on comparing learners).

Every number comes from the analysis (hence from :mod:`stats`); this module
only lays it out. The helpers at the top are shared by the markdown and LaTeX
renderers.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pandas as pd

from stats import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, Quartiles, fmt_p, fmt_stat, p_is, quartile_chart
from tui.choices import REPORT_VIEWS
from tui.render._effects import (
    EFFECT_HEADER,
    effect_note,
    effects_cells,
    letters_row,
    two_sample_cells,
    two_sample_title,
)
from tui.model import GROUPING_NAMES, Analysis, FoldsView, QuartileRow, QuartilesView, TestsView, render_cd

PAIR_PROCEDURES = ("nemenyi", "holm", "shaffer", "bergmann")


def check_view(view: str) -> tuple[str, ...]:
    """The views ``view`` stands for; ``ValueError`` naming --view for an unknown one."""
    if view == "all":
        return REPORT_VIEWS
    if view not in REPORT_VIEWS:
        raise ValueError(f"--view must be one of {', '.join((*REPORT_VIEWS, 'all'))}; got {view!r}")
    return (view,)


def value_decimals(largest: float, smallest: float | None = None) -> int:
    """Decimals of a criterion's values, from the largest magnitude it takes: as in Menzies'
    notes on comparing learners, 1 for values of 10 or more, 3 down to 0.1, and below that as many
    as keep 3 significant digits (runtimes of 0.0006 to 0.005 s print 0.00065 .. 0.00500, not
    0.000652 beside 0.001); with ``smallest`` (the least non-zero magnitude) and a largest below
    0.1, also as many as keep 2 significant digits of it (runtimes of 0.0004 to 0.014 s: 0.00045 ..
    0.01400, not 0.0004 or 0.000445 beside 0.0011). At most 8.

    >>> value_decimals(98.9), value_decimals(0.97), value_decimals(0.005), value_decimals(0.0)
    (1, 3, 5, 3)
    >>> value_decimals(0.014), value_decimals(0.014, 0.000445), value_decimals(0.97, 0.004)
    (4, 5, 3)
    """
    big = abs(largest)
    if not math.isfinite(big) or big >= 10:
        return 1
    decimals = 3 if big >= 0.1 or big == 0 else min(8, 2 - math.floor(math.log10(big)))
    small = abs(smallest) if smallest is not None else 0.0
    if big < 0.1 and 0 < small and math.isfinite(small):  # rates in [0, 1] keep Menzies' 3
        decimals = max(decimals, min(8, 1 - math.floor(math.log10(small))))
    return decimals


@lru_cache(maxsize=16)  # per view (hashed by identity: frozen, eq=False); asked once per part drawn
def chart_decimals(view: QuartilesView) -> int:
    """Decimals of the quartile numbers: :func:`value_decimals` of the chart's axis and of the
    least non-zero magnitude charted (one rule for the whole criterion, every chart alike)."""
    values = [abs(v) for r in view.rows for v in (r.min, r.q1, r.median, r.q3, r.max) if v == v and v != 0]
    return value_decimals(max(abs(view.lo), abs(view.hi)), min(values, default=None))


def scope_rows(view: QuartilesView, scope: str) -> list[QuartileRow]:
    return [r for r in view.rows if r.scope == scope]


def sk_rank(view: QuartilesView, scope: str, learner: str) -> int | None:
    """The Scott-Knott group rank of ``learner`` in the chart of ``scope`` (None: no ranks, or none
    computable there)."""
    return None if view.groups is None else view.groups.get(scope, {}).get(learner)


def sk_legend(view: QuartilesView) -> str | None:
    """What the rank column holds, in words; None for charts without ranks (deltas)."""
    if view.groups is None or view.grouping is None:
        return None
    return f"rank: {GROUPING_NAMES[view.grouping]} group of the charted values (1 = best)"


def df_text(df: Any) -> str:
    """``3`` or ``3, 39`` (the F tests' two degrees of freedom)."""
    parts = df if isinstance(df, tuple) else (df,)
    return ", ".join(f"{float(d):g}" for d in parts)


def omnibus_line(name: str, row: pd.Series) -> str:
    sym = OMNIBUS_SYMBOLS[name]
    return f"{OMNIBUS_NAMES[name]} {sym}({df_text(row['df'])}) = {fmt_stat(row['statistic'])}, {p_is(row['pvalue'])}"


def apv_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in table.columns if c not in ("z", "p")]


def header_lines(analysis: Analysis, source: str) -> list[str]:
    sel = analysis.selection
    direction = "higher" if sel.higher_is_better else "lower"
    out = [f"rankboard report: {source}"] if source else []
    out.append(
        f"criterion {sel.criterion} ({direction} is better), {analysis.n_datasets} data sets x "
        f"{analysis.n_learners} learners, median over repeats and folds"
    )
    if analysis.problem:
        out.append(f"not tested: {analysis.problem}")
    out += list(analysis.notes)
    return out


def _quartiles(r: QuartileRow) -> Quartiles:
    # the chart of Menzies' notes on comparing learners prints min, q1, median, q3, max only: without
    # a mean and sd (rows of raw values), they are placeholders; the rows of deltas carry both (the
    # chart of Menzies' lecture notes prints them)
    if math.isnan(r.mean):
        return Quartiles(r.n, r.min, r.q1, r.median, r.q3, r.max, r.median, 0.0)
    return Quartiles(r.n, r.min, r.q1, r.median, r.q3, r.max, r.mean, r.sd)


def deltas_title(view: QuartilesView) -> str:
    """What a chart of deltas shows, in words (positive is always better than the control)."""
    sign = "learner - control" if view.higher_is_better else "control - learner"
    return f"deltas against {view.deltas}: {sign} on the same (repeat, fold), positive = better"


def deltas_text(view: QuartilesView) -> list[str]:
    """The charts of deltas of Menzies' lecture notes: ``#rx, mean, sd, n, min, q1, median, q3,
    max`` and a bar on an axis centred at 0, one chart per scope."""
    out = ["=====", f"Criteria {view.criterion}: {deltas_title(view)}"]
    decimals = chart_decimals(view)
    for scope in view.scopes:
        rows = {r.learner: _quartiles(r) for r in scope_rows(view, scope)}
        out += ["", f"----| {scope} |-----", ""]
        out += quartile_chart(rows, style="seed004", lo=view.lo, hi=view.hi, decimals=decimals)
    return out


def quartiles_text(view: QuartilesView) -> list[str]:
    """As in Menzies' notes on comparing learners: ``=====`` / ``Criteria X`` then one
    ``----| scope |-----`` chart per scope."""
    if view.deltas is not None:
        return deltas_text(view)
    out = ["=====", f"Criteria {view.criterion}"]
    if view.warning:
        out.append(f"warning: {view.warning}")
    legend = sk_legend(view)
    if legend:
        out.append(legend + ", under each chart")
    decimals = chart_decimals(view)
    for scope in view.scopes:
        rows = scope_rows(view, scope)
        flag = ""
        if scope in view.flagged:
            flag = f" (Kendall tau {view.tau[scope]:.2f} against overall)"
        out += ["", f"----| {scope} |-----{flag}", ""]
        chart = quartile_chart({r.learner: _quartiles(r) for r in rows}, lo=view.lo, hi=view.hi, decimals=decimals)
        out += chart
        if legend:  # the lines of Menzies' notes stay as they are; the groups follow, best first
            groups: dict[int, list[str]] = {}
            for r in rows:
                rank = sk_rank(view, scope, r.learner)
                if rank is not None:
                    groups.setdefault(rank, []).append(r.learner)
            out += [f"rank {k}: {', '.join(groups[k])}" for k in sorted(groups)]
    return out


def rank_cell(value: float, rank: float) -> str:
    return f"{value:.3f} ({rank:g})"


def ranks_text(analysis: Analysis) -> list[str]:
    """The rank table of ``rankboard report``: medians with ranks in parentheses, average ranks last."""
    view = analysis.ranks
    assert view is not None
    scores, ranks, avg = view.medians, view.ranks, view.average
    width = max(len(str(d)) for d in [*map(str, scores.index), "average rank"])
    cols = [str(c) for c in scores.columns]
    cw = [max(len(c), 13) for c in cols]
    lines = [" " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, cw))]
    for name in scores.index:
        cells = [rank_cell(scores.loc[name, c], ranks.loc[name, c]) for c in scores.columns]
        lines.append(str(name).ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(cells, cw)))
    lines.append(
        "average rank".ljust(width) + "  " + "  ".join(f"{avg[c]:.3f}".rjust(w) for c, w in zip(scores.columns, cw))
    )
    letters = letters_row(analysis, list(scores.columns))
    if letters is not None:
        lines.append("letters".ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(letters[0], cw)))
    lines += [f"left out: {name} ({why})" for name, why in view.excluded.items()]
    if letters is not None:
        lines.append(letters[1])
    return lines


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
    from tui.render._tests_extra import extra_text, friedman_ties_text  # it imports this module's helpers

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


def pairs_text(analysis: Analysis) -> list[str]:
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    table = pairs.table
    aw = max(len(str(x)) for x in [*table["a"].astype(str), "a"])
    bw = max(len(str(x)) for x in [*table["b"].astype(str), "b"])
    out = [f"all pairs ({sel.test} z statistics); adjusted p-values <= {sel.alpha:g} are marked *"]
    out.append(
        "a".ljust(aw) + "  " + "b".ljust(bw) + "        z         p" + "".join(f"{c:>12}" for c in PAIR_PROCEDURES)
    )
    for row in table.itertuples(index=False):
        apvs = [float(getattr(row, c)) for c in PAIR_PROCEDURES]
        cells = "".join(f"{fmt_p(q) + ('*' if q <= sel.alpha else ' '):>12}" for q in apvs)
        out.append(f"{str(row.a).ljust(aw)}  {str(row.b).ljust(bw)} {row.z:8.3f} {fmt_p(float(row.p)):>9}{cells}")
    if pairs.two_sample is not None:
        header, rows = two_sample_cells(pairs, sel.alpha, str, lambda text, on: text + ("*" if on else " "))
        out += ["", two_sample_title(pairs, sel.alpha), *grid(header, rows, left=4)]
    a, b = pairs.pair
    out += ["", f"{b} against {a}:", f"  {pairs.wilcoxon}", f"  {pairs.sign}"]
    if analysis.effects is not None:
        note = textwrap.wrap(effect_note(analysis.effects, analysis.n_datasets), 100)
        out += ["", *note, *grid(["a", "b", *EFFECT_HEADER], effects_cells(analysis.effects, str), left=2)]
    return out


def cd_text(analysis: Analysis, ascii: bool = False) -> list[str]:
    cd = analysis.cd
    assert cd is not None
    out = [
        f"critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        cd.basis + (f"; {cd.replaced}" if cd.replaced else ""),
    ]
    lines = list(cd.lines) if not ascii else render_cd(cd.ranks, cd.cd, ascii=True, cliques=cd.cliques)
    return out + lines


#: Columns of the fold-level tables (text, markdown and LaTeX share them).
FOLDS_TOTALS = ("learner", "w/t/l", "P(better)", "P(equivalent)", "P(worse)", "data sets")
FOLDS_TABLE = ("data set", "learner", "runs", "mean diff", "t", "p", "mark", "P(better)", "P(equiv.)", "P(worse)")


def folds_intro(view: FoldsView) -> list[str]:
    """What the fold-level tables hold, in words: which procedure each number comes from."""
    direction = "higher" if view.higher_is_better else "lower"
    return [
        f"every learner against {view.control} on the folds of each data set ({view.criterion}, {direction} is better)",
        f"per data set: corrected resampled t (Nadeau & Bengio 2003), marks v (better) and * (worse) at "
        f"alpha = {view.alpha:g}; Bayesian correlated t-test (Corani & Benavoli 2015), rope {view.rope:g}",
        f"across data sets: wins/ties/losses of those marks; Bayesian signed-rank test (Benavoli et al. 2017) "
        f"on the per-data-set means, rope {view.rope:g}",
    ]


def prob(p: float) -> str:
    return "-" if not finite(p) else f"{p:.3f}"


def folds_totals_rows(view: FoldsView) -> list[list[str]]:
    return [
        [str(r.Index), f"{r.wins}/{r.ties}/{r.losses}", prob(r.p_better), prob(r.p_equivalent), prob(r.p_worse)]
        + [str(r.datasets)]
        for r in view.totals.itertuples()
    ]


def folds_table_rows(view: FoldsView) -> list[list[str]]:
    return [
        [
            str(r.Index[0]),
            str(r.Index[1]),
            str(r.runs),
            f"{r.mean_difference:+.4g}",
            fmt_stat(r.statistic),
            fmt_p(r.pvalue),
            str(r.mark),
            prob(r.p_better),
            prob(r.p_equivalent),
            prob(r.p_worse),
        ]
        for r in view.table.itertuples()
    ]


def grid(header: tuple[str, ...] | list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Fixed-width text columns: the first ``left`` left-aligned, the others right-aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]

    def line(cells: list[str] | tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(header), *(line(r) for r in rows)]


#: What the fold-level views say when no pair of learners shares 2 (repeat, fold) results.
NO_FOLDS = (
    "no data set has 2 (repeat, fold) results shared by a learner and the control: the fold-level "
    "tests need the results of R x N cross-validation, not one result per data set"
)


def folds_text(view: FoldsView) -> list[str]:
    if view.table.empty:
        return ["fold-level comparison", f"against {view.control}: {NO_FOLDS}"]
    out = ["fold-level comparison", *folds_intro(view), "", *view.sentences, ""]
    out += grid(FOLDS_TOTALS, folds_totals_rows(view))
    out += ["", *grid(FOLDS_TABLE, folds_table_rows(view), left=2)]
    out += [f"note: {n}" for n in view.notes]
    return out


def sections(analysis: Analysis, views: tuple[str, ...], make: dict[str, Callable[[], list[str]]]) -> list[list[str]]:
    """The non-empty sections of ``views`` (a view without results is skipped)."""
    out = []
    for v in views:
        if getattr(analysis, v) is not None:
            out.append(make[v]())
    return out


def render_text(analysis: Analysis, view: str = "all", *, ascii: bool = False, source: str = "") -> str:
    """The report as plain text (box-drawing CD diagram; ``ascii=True`` for plain terminals)."""
    from tui.render._curves import curves_text  # it uses this module's helpers

    views = check_view(view)
    make: dict[str, Callable[[], list[str]]] = {
        "quartiles": lambda: quartiles_text(analysis.quartiles),  # type: ignore[arg-type]
        "ranks": lambda: ranks_text(analysis),
        "tests": lambda: tests_text(analysis),
        "pairs": lambda: pairs_text(analysis),
        "cd": lambda: cd_text(analysis, ascii),
        "folds": lambda: folds_text(analysis.folds),  # type: ignore[arg-type]
        "curves": lambda: curves_text(analysis),
    }
    blocks = [header_lines(analysis, source), *sections(analysis, views, make)]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def finite(x: float) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)
