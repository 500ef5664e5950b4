"""The formats of ``rankboard report`` and the app's export: text, Markdown, LaTeX, JSON and CSV,
each one driver looping over the registry of views (:mod:`tui.registry`), and the atomic,
never-overwriting output of ``rankboard report``.
"""

from tui.output import OutputRefused, check_output, write_output
from tui.render._csv import as_shown, default_export_name, export_frame, filters_rows, stamped_name, write_csv
from tui.render._figure import draw_figure, figure_views, render_figure
from tui.render._json_schema import schema
from tui.render._report import FORMATS, render_report

__all__ = [
    "FORMATS",
    "OutputRefused",
    "as_shown",
    "check_output",
    "default_export_name",
    "draw_figure",
    "export_frame",
    "figure_views",
    "filters_rows",
    "render_figure",
    "render_report",
    "schema",
    "stamped_name",
    "write_csv",
    "write_output",
]


def __getattr__(name: str) -> object:
    if name == "SCHEMA":  # the schema of every registered view, as of now
        return schema()
    raise AttributeError(name)
