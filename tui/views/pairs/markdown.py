"""The pairs view's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

from stats import fmt_p
from tui.formats.markdown import bold, md_escape, table
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


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    pairs, sel = analysis.pairs, analysis.selection
    assert pairs is not None
    out = ["## All pairs", "", f"{sel.test} z statistics; adjusted p-values <= {sel.alpha:g} (rejected) in bold.", ""]
    rows = [
        [md_escape(r.a), md_escape(r.b), f"{r.z:.3f}", fmt_p(float(r.p))]
        + [bold(fmt_p(float(getattr(r, c))), getattr(r, c) <= sel.alpha) for c in PAIR_PROCEDURES]
        for r in pairs.table.itertuples(index=False)
    ]
    header, align = ["a", "b", "z", "p", *PAIR_PROCEDURES], "llrr" + "r" * len(PAIR_PROCEDURES)
    tukey = tukey_columns(pairs)
    if tukey is not None:  # under Nemenyi: Tukey's p, in bold where the CD separates the pair
        out += [md_escape(tukey_note(pairs)) + ".", ""]
        marked = [bold(fmt_p(p), on) for p, on in zip(tukey["nemenyi_tukey"], tukey["nemenyi_tukey_rejected"])]
        rows = [row + [cell] for row, cell in zip(rows, marked)]
        header, align = [*header, md_escape("nemenyi_tukey")], align + "r"
    robust = analysis.robustness  # (computed now when the app has not: a report prints it whole)
    if robust is not None:  # issue 31: the fragility of each pair's decision under the procedure
        out += [md_escape(fragility_note(robust)) + ".", ""]
        rows = [row + [mark] for row, mark in zip(rows, fragility_column(pairs.table, robust))]
        header, align = [*header, "fragility"], align + "r"
    out += table(header, align, rows)
    if robust is not None:
        lines = reversals(robust, md_escape)
        out += ["", f"Reversed by removing data sets ({robust.procedure_name}):", ""]
        out += [f"- {line}" for line in lines] or ["- no pair: no removal found reverses any decision"]
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
