"""The pairs view's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

from tui.formats.latex import (
    bf,
    tabular,
    tex_escape,
    tex_p,
)
from tui.model import Analysis, fragility_note
from tui.registry import RenderOptions
from tui.views.pairs.shared import (
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
    out = [f"% all pairs ({sel.test} z); APV <= {sel.alpha:g} (rejected) in bold"]
    body = [
        [tex_escape(r.a), tex_escape(r.b), f"{r.z:.3f}", tex_p(float(r.p))]
        + [bf(tex_p(float(getattr(r, c))), getattr(r, c) <= sel.alpha) for c in PAIR_PROCEDURES]
        for r in pairs.table.itertuples(index=False)
    ]
    header, spec = ["$a$", "$b$", "$z$", "$p$", *PAIR_PROCEDURES], "l l" + " r" * (2 + len(PAIR_PROCEDURES))
    tukey = tukey_columns(pairs)
    if tukey is not None:  # under Nemenyi: Tukey's p, in bold where the CD separates the pair
        out.append(f"% {tex_escape(tukey_note(pairs))}")
        marked = [bf(tex_p(p), on) for p, on in zip(tukey["nemenyi_tukey"], tukey["nemenyi_tukey_rejected"])]
        body = [row + [cell] for row, cell in zip(body, marked)]
        header, spec = [*header, tex_escape("nemenyi_tukey")], spec + " r"
    robust = analysis.robustness  # (computed now when the app has not: a report prints it whole)
    if robust is not None:  # issue 31: the fragility of each pair's decision under the procedure
        out.append(f"% {tex_escape(fragility_note(robust))}")
        body = [row + [tex_escape(mark)] for row, mark in zip(body, fragility_column(pairs.table, robust))]
        header, spec = [*header, "fragility"], spec + " r"
    out += tabular(spec, header, body)
    if robust is not None:
        out.append(f"% reversed by removing data sets ({tex_escape(robust.procedure_name)}):")
        out += [f"%   {line}" for line in reversals(robust, tex_escape)] or ["%   no pair"]
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
