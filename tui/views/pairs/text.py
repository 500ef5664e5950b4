"""The pairs view's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

import textwrap

from stats import fmt_p
from tui.formats.text import fitted_grid
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.pairs.shared import (
    EFFECT_HEADER,
    PAIR_PROCEDURES,
    effect_note,
    effects_cells,
    two_sample_cells,
    two_sample_title,
)


def pairs_text(analysis: Analysis, width: int | None = None) -> list[str]:
    """Every pair's z, p and APVs, the pair's two-sample tests and effect sizes; with a terminal's
    ``width``, names fitted and wide tables wrapped (:func:`fitted_grid`; without, its :func:`grid`)."""
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    out = [f"all pairs ({sel.test} z statistics); adjusted p-values <= {sel.alpha:g} are marked *"]
    if width is None:
        out += _apv_lines(analysis)
    else:
        rows = [
            [str(row.a), str(row.b), f"{row.z:.3f}", fmt_p(float(row.p))]
            + [fmt_p(q) + ("*" if q <= sel.alpha else " ") for q in (float(getattr(row, c)) for c in PAIR_PROCEDURES)]
            for row in pairs.table.itertuples(index=False)
        ]
        out += fitted_grid(["a", "b", "z", "p", *PAIR_PROCEDURES], rows, width, left=2, names=(0, 1), keep=3)
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


def _apv_lines(analysis: Analysis) -> list[str]:
    """The pairs' table with whole names, in the fixed columns of the report (12 cells an APV)."""
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    table = pairs.table
    aw = max(len(str(x)) for x in [*table["a"].astype(str), "a"])
    bw = max(len(str(x)) for x in [*table["b"].astype(str), "b"])
    out = ["a".ljust(aw) + "  " + "b".ljust(bw) + "        z         p" + "".join(f"{c:>12}" for c in PAIR_PROCEDURES)]
    for row in table.itertuples(index=False):
        apvs = [float(getattr(row, c)) for c in PAIR_PROCEDURES]
        cells = "".join(f"{fmt_p(q) + ('*' if q <= sel.alpha else ' '):>12}" for q in apvs)
        out.append(f"{str(row.a).ljust(aw)}  {str(row.b).ljust(bw)} {row.z:8.3f} {fmt_p(float(row.p)):>9}{cells}")
    return out


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """Every pair's APVs, the pair's two-sample tests, the effect sizes."""
    return pairs_text(analysis, options.width)  # type: ignore[arg-type]
