"""The learning curves's section of the report as plain text (the layouts of Menzies' notes on comparing learners)."""

from __future__ import annotations

from tui.model import Analysis
from tui.registry import RenderOptions
from tui.views.curves.shared import curves_lines


def curves_text(analysis: Analysis) -> list[str]:
    """The text section: :func:`curves_lines` of the analysis' curves."""
    return curves_lines(analysis.curves)


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """The learning curves."""
    return curves_text(analysis)  # type: ignore[arg-type]
