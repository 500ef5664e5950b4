"""The reports of ``rankboard report`` (numbers from :mod:`stats`, layout here).

:func:`render_report` renders any view of a :class:`~tui.model._model.Model`
selection as text, csv, markdown, LaTeX or JSON.
"""

from __future__ import annotations

from stats.core.names import printable_lines
from tui import registry
from tui.choices import FORMATS
from tui.model import LOWER_IS_BETTER, Model, Selection, default_higher_is_better
from tui.render._csv import csv_text, export_frame
from tui.render._json import render_json
from tui.render._latex import render_latex
from tui.render._markdown import render_markdown
from tui.render._text import check_view, render_text

__all__ = [
    "FORMATS",
    "LOWER_IS_BETTER",
    "csv_text",
    "default_higher_is_better",
    "render_report",
]


def render_report(
    model: Model,
    selection: Selection,
    *,
    view: str = "all",
    fmt: str = "text",
    ascii: bool = False,
    source: str = "",
    standalone: bool = False,
    raw_csv: bool = False,
    width: int | None = None,
) -> str:
    """Render ``view`` (a registered view's name, :mod:`tui.registry`, or "all") as ``fmt``.

    Parameters
    ----------
    model, selection
        The loaded log and what to look at (``model.analyze(selection)``).
    view : str, default "all"
        One view, or every view in order.
    fmt : {"text", "csv", "markdown", "latex", "json"}
        ``csv`` is the app's export of one view, byte for byte (``view="all"`` is refused).
    ascii : bool, default False
        Text and markdown: draw the CD diagram with ASCII instead of box drawing.
    source : str
        Where the log came from, printed in the header (not in csv).
    standalone : bool, default False
        LaTeX only: a whole document (packages and the ``\\boxplot`` macro) instead of a fragment.
    raw_csv : bool, default False
        CSV only: cells a spreadsheet would evaluate written as they are (not ``'``-prefixed).
    width : int, optional
        Text only: the terminal's columns; names are fitted and wide tables wrapped to it (the
        rule of the app's views, :func:`tui.formats.names.fit_names`). None: names whole.

    Raises
    ------
    ValueError
        Unknown ``fmt`` (naming --format) or ``view`` (naming --view); csv with
        ``view="all"``; csv of a view the selection cannot fill (the analysis'
        problem says why).
    """
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    views = check_view(view)
    if fmt == "csv" and view == "all":
        raise ValueError(f"--format csv writes one view: give --view {'|'.join(registry.names())}")
    # Only the views printed are computed (the ranks never run the pairs' all-pairs procedures),
    # and before the header, which names the problem of a view that a limit of stats left empty.
    analysis = model.analyze(selection).prepare(*views)
    for name in views:  # a view printed whole at once (the quartiles' every chart's ranks: one pass)
        whole = registry.view(name).whole
        if whole is not None:
            registry.resolve(whole)(analysis)
    if fmt == "csv":
        return csv_text(export_frame(analysis, view), raw=raw_csv)
    if fmt == "json":
        return render_json(analysis, view, source=source)  # the encoder escapes every control character
    if fmt == "latex":
        text = render_latex(analysis, view, standalone=standalone, source=source)
    elif fmt == "markdown":
        text = render_markdown(analysis, view, ascii=ascii, source=source)
    else:
        text = render_text(analysis, view, ascii=ascii, source=source, width=width)
    # Names are escaped where they are written; this last pass guarantees that no control
    # character or bidi override from a log reaches the terminal (stats.core.names).
    return printable_lines(text)
