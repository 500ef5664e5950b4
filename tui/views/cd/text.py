"""The CD diagram's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

import textwrap

from tui.formats.names import fit_names
from tui.model import Analysis, Robustness, cd_sentence
from tui.registry import RenderOptions
from tui.views.cd.diagram import render_cd


def cd_text(analysis: Analysis, ascii: bool = False, width: int | None = None) -> list[str]:
    """The diagram, ``width`` columns wide (a terminal's: names fitted to it, distinct), else 78
    columns or wider with whole names."""
    cd = analysis.cd
    assert cd is not None
    out = [
        f"critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        cd.basis + (f"; {cd.replaced}" if cd.replaced else ""),
    ]
    hint, whole = "a wider terminal or a pipe: whole names", width is None
    lines = render_cd(cd.ranks, cd.cd, width=width or 78, ascii=ascii, cliques=cd.cliques, hint=hint, whole=whole)
    r = analysis.robustness  # (computed now when the app has not: a report prints it whole)
    return out + lines + (fragility_lines(r, [str(x) for x in cd.ranks.index], width) if r is not None else [])


def fragility_lines(r: Robustness, learners: list[str], width: int | None, full: bool = False) -> list[str]:
    """The line under the diagram (:func:`tui.model.cd_sentence`); fitted to a terminal's ``width``:
    the learners' names cut by the rule of every view (a quarter of the width each; the diagram's
    legend says so), the sentence wrapped."""
    if width is None or full:
        return [cd_sentence(r)]
    fitted = fit_names(learners, max(width // 4, 6))
    return textwrap.wrap(cd_sentence(r, lambda name: fitted[str(name)]), width, break_on_hyphens=False)


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The CD diagram."""
    return cd_text(analysis, options.ascii, options.width)  # type: ignore[arg-type]
