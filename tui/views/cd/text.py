"""TODO docstring."""

from __future__ import annotations

from tui.model import Analysis, render_cd
from tui.registry import RenderOptions


def cd_text(analysis: Analysis, ascii: bool = False) -> list[str]:
    cd = analysis.cd
    assert cd is not None
    out = [
        f"critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        cd.basis + (f"; {cd.replaced}" if cd.replaced else ""),
    ]
    lines = list(cd.lines) if not ascii else render_cd(cd.ranks, cd.cd, ascii=True, cliques=cd.cliques)
    return out + lines


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The CD diagram."""
    return cd_text(analysis, options.ascii)  # type: ignore[arg-type]
