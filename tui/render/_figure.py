"""Figures of the views (``rankboard report --format svg|pdf|png``, the app's ``e``): the driver
over the registry's ``figure`` references (:mod:`tui.registry`), drawing each from the analysis
the screen and the other formats use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui import registry
from tui.formats.figure import FigureOptions, figure_bytes, rc

if TYPE_CHECKING:
    from tui.model import Analysis, Model, Selection


def figure_views() -> tuple[str, ...]:
    """The views that have a figure, in the registry's order."""
    return tuple(v.name for v in registry.views() if v.figure is not None)


def figure_view(view: str | None) -> str:
    """The view a figure is drawn of: ``view`` when it has a figure, the CD diagram when None;
    ``ValueError`` naming --view otherwise (``all``, or a view without a figure)."""
    if view is None:
        return "cd"
    choices = figure_views()
    if view not in choices:
        raise ValueError(f"a figure shows one view: --view {'|'.join(choices)} (got {view})")
    return view


def draw_figure(analysis: Analysis, view: str, options: FigureOptions) -> bytes:
    """``view`` of ``analysis`` as a figure in ``options.fmt``.

    Raises
    ------
    ValueError
        ``view`` has no figure, or nothing to show (the analysis' problem says why).
    tui.formats.figure.FiguresUnavailable
        matplotlib is not installed (the message says how to get it).
    """
    declared = registry.view(figure_view(view))
    if analysis.part(view) is None:
        why = analysis.problem or "it has no results"
        raise ValueError(f"nothing to draw in the {view} view: {why}")
    whole = declared.whole
    if whole is not None:
        registry.resolve(whole)(analysis)
    with rc():
        figure = declared.ref("figure")(analysis, options)
        return figure_bytes(figure, options.fmt, options.dpi)


def render_figure(model: Model, selection: Selection, view: str | None, options: FigureOptions) -> bytes:
    """``report --format svg|pdf|png``: the figure of ``view`` (default the CD diagram) for ``selection``."""
    name = figure_view(view)
    analysis = model.analyze(selection).prepare(name)
    return draw_figure(analysis, name, options)
