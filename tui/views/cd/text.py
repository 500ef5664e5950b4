"""The CD diagram's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.model import Analysis
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
    return out + lines


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The CD diagram."""
    return cd_text(analysis, options.ascii, options.width)  # type: ignore[arg-type]
