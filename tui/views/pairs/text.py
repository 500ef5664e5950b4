"""The pairs view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

import textwrap

import pandas as pd

from stats import fmt_p
from tui.formats.cells import column, each_float
from tui.formats.text import fitted_grid
from tui.model import Analysis, fragility_note
from tui.registry import RenderOptions
from tui.views.pairs.shared import (
    EFFECT_HEADER,
    PAIR_PROCEDURES,
    effect_note,
    effects_cells,
    fragility_column,
    reversals,
    tukey_columns,
    tukey_note,
    two_sample_cells,
    two_sample_title,
)


def pairs_text(analysis: Analysis, width: int | None = None) -> list[str]:
    """Every pair's z, p and APVs, the pair's two-sample tests and effect sizes; with a terminal's
    ``width``, names fitted and wide tables wrapped (:func:`fitted_grid`; without, its :func:`grid`)."""
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    out = [f"all pairs ({sel.test} z statistics); adjusted p-values <= {sel.alpha:g} are marked *"]
    both = tukey_note(pairs)  # under Nemenyi: its two columns
    if both is not None:
        out += textwrap.wrap(both, min(width or 100, 100))
    tukey = tukey_columns(pairs)
    r = analysis.robustness  # (computed now when the app has not: a report prints it whole)
    fragile = None if r is None else fragility_column(pairs.table, r)
    if r is not None:
        out += textwrap.wrap(fragility_note(r), min(width or 100, 100))
    if width is None:
        lines = _apv_lines(analysis)
        if tukey is not None:  # after the APVs: the procedure's decisions, then their fragility
            marked = _tukey_cells(tukey)
            lines = [f"{line}{cell:>15}" for line, cell in zip(lines, ["nemenyi_tukey", *marked])]
        if fragile is not None:  # the column after the APVs
            lines = [f"{line}{mark:>11}" for line, mark in zip(lines, ["fragility", *fragile])]
        out += lines
    else:
        table = pairs.table
        columns = [
            [str(x) for x in column(table, "a")],
            [str(x) for x in column(table, "b")],
            each_float(table["z"], lambda z: f"{z:.3f}"),
            each_float(table["p"], fmt_p),
            *(each_float(table[c], lambda q: fmt_p(q) + ("*" if q <= sel.alpha else " ")) for c in PAIR_PROCEDURES),
        ]
        header = ["a", "b", "z", "p", *PAIR_PROCEDURES]
        if tukey is not None:
            columns.append(_tukey_cells(tukey))
            header.append("nemenyi_tukey")
        if fragile is not None:
            columns.append(fragile)
            header.append("fragility")
        rows = [list(row) for row in zip(*columns)]
        out += fitted_grid(header, rows, width, left=2, names=(0, 1), keep=3)
    if r is not None:
        out += ["", f"reversed by removing data sets ({r.procedure_name}):"]
        out += [f"  {line}" for line in reversals(r, str)] or ["  no pair: no removal found reverses any decision"]
    if pairs.two_sample is not None:
        header, cells = two_sample_cells(pairs, sel.alpha, str, lambda text, on: text + ("*" if on else " "))
        out += ["", two_sample_title(pairs, sel.alpha), *fitted_grid(header, cells, width, left=4, names=(0, 1))]
    a, b = pairs.pair
    out += ["", f"{b} against {a}:", f"  {pairs.wilcoxon}", f"  {pairs.sign}"]
    if analysis.effects is not None:
        note = textwrap.wrap(effect_note(analysis.effects, analysis.n_datasets), min(width or 100, 100))
        cells = effects_cells(analysis.effects, str)
        out += ["", *note, *fitted_grid(["a", "b", *EFFECT_HEADER], cells, width, left=2, names=(0, 1))]
    return out


def _tukey_cells(tukey: pd.DataFrame) -> list[str]:
    """The ``nemenyi_tukey`` cells, marked ``*`` where the CD separates the pair (not by p <= alpha:
    the same decision but within rounding of the CD)."""
    p = each_float(tukey["nemenyi_tukey"], fmt_p)
    return [text + ("*" if on else " ") for text, on in zip(p, tukey["nemenyi_tukey_rejected"].tolist())]


def _apv_lines(analysis: Analysis) -> list[str]:
    """The pairs' table with whole names, in the fixed columns of the report (12 cells an APV).

    A column at a time, each distinct number formatted once (:func:`each_float`): a row at a time
    took minutes for the 499,500 pairs of 1,000 learners."""
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    table = pairs.table
    a_names, b_names = [str(x) for x in column(table, "a")], [str(x) for x in column(table, "b")]
    aw = max(len(x) for x in [*a_names, "a"])
    bw = max(len(x) for x in [*b_names, "b"])
    out = ["a".ljust(aw) + "  " + "b".ljust(bw) + "        z         p" + "".join(f"{c:>12}" for c in PAIR_PROCEDURES)]
    z = each_float(table["z"], lambda v: f"{v:8.3f}")
    p = each_float(table["p"], lambda v: f"{fmt_p(v):>9}")

    def marked(q: float) -> str:
        return f"{fmt_p(q) + ('*' if q <= sel.alpha else ' '):>12}"

    apvs = [each_float(table[c], marked) for c in PAIR_PROCEDURES]
    cells = ["".join(row) for row in zip(*apvs)]
    out += [f"{a.ljust(aw)}  {b.ljust(bw)} {zz} {pp}{cc}" for a, b, zz, pp, cc in zip(a_names, b_names, z, p, cells)]
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """Every pair's APVs, the pair's two-sample tests, the effect sizes."""
    return pairs_text(analysis, options.width)  # type: ignore[arg-type]
