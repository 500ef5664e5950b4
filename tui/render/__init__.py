"""The headless renderers of an :class:`~tui.model.Analysis`: text, Markdown, LaTeX, JSON and CSV,
and the atomic, never-overwriting output of ``rankboard report``.
"""

from tui.output import OutputRefused, check_output, write_output
from tui.render._csv import FILTERED_BY, as_shown, default_export_name, export_frame, stamped_name, write_csv
from tui.render._curves import curves_lines
from tui.render._json_schema import SCHEMA
from tui.render._report import FORMATS, render_report
from tui.render._text import NO_FOLDS, chart_decimals, prob, value_decimals

__all__ = [
    "FILTERED_BY",
    "FORMATS",
    "NO_FOLDS",
    "OutputRefused",
    "chart_decimals",
    "curves_lines",
    "check_output",
    "default_export_name",
    "as_shown",
    "export_frame",
    "prob",
    "render_report",
    "SCHEMA",
    "stamped_name",
    "value_decimals",
    "write_csv",
    "write_output",
]
