"""The CD diagram's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.cd.diagram import render_cd


def cd_text(analysis: Analysis, ascii: bool = False) -> list[str]:
    cd = analysis.cd
    assert cd is not None
    out = [
        f"critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        cd.basis + (f"; {cd.replaced}" if cd.replaced else ""),
    ]
    lines = render_cd(cd.ranks, cd.cd, ascii=ascii, cliques=cd.cliques)
    return out + lines


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The CD diagram."""
    return cd_text(analysis, options.ascii)  # type: ignore[arg-type]
