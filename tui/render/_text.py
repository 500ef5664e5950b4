"""The plain-text report: a header, then each view's section in the order of the registry (the
layouts of Menzies' notes on comparing learners; each view's own in ``tui/views/<name>/text.py``)."""

from __future__ import annotations

from tui import registry
from tui.formats.text import header_lines
from tui.model import Analysis
from tui.registry import RenderOptions


def check_view(view: str) -> tuple[str, ...]:
    """The names of the views ``view`` stands for; ``ValueError`` naming --view for an unknown one."""
    return tuple(v.name for v in registry.selected(view))


def sections(analysis: Analysis, view: str, fmt: str, options: RenderOptions) -> list[list[str]]:
    """The sections of the views ``view`` stands for ("all": every registered view, in order), each
    rendered by the view's ``fmt`` renderer (:mod:`tui.registry`); a view without results is skipped."""
    return [
        v.ref("formats", fmt)(analysis, options)
        for v in registry.selected(view)
        if fmt in v.formats and analysis.part(v.name) is not None
    ]


def render_text(
    analysis: Analysis, view: str = "all", *, ascii: bool = False, source: str = "", width: int | None = None
) -> str:
    """The report as plain text (box-drawing CD diagram; ``ascii=True`` for plain terminals);
    ``width``: the columns of the terminal it is printed to (names and wide tables fitted to it,
    :func:`tui.formats.names.fit_names`), None for whole names (a file, a pipe)."""
    options = RenderOptions(ascii=ascii, source=source, width=width)
    blocks = [header_lines(analysis, source), *sections(analysis, view, "text", options)]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"
