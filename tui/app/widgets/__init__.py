"""The widgets of the explorer: the sidebar, the seven view panels, the load bar and the status line."""

from tui.app.widgets._base import Plain, cell, literal, matches, num, text_table
from tui.app.widgets._curves import CurvesPanel
from tui.app.widgets._folds import FoldsPanel, FoldsRows, folds_rows
from tui.app.widgets._loading import LoadBar, stopped_label
from tui.app.widgets._pairs import PairsPanel
from tui.app.widgets._problems import ProblemsPanel
from tui.app.widgets._quartile_lines import QuartileLines, quartile_lines
from tui.app.widgets._quartiles import QuartilesPanel
from tui.app.widgets._ranks import RanksPanel, RanksRows, ranks_rows
from tui.app.widgets._report import CDPanel, TestsPanel
from tui.app.widgets._sidebar import NameList, Sidebar
from tui.app.widgets._status import StatusLine
from tui.app.widgets._table import ExactLine, VimTable

__all__ = [
    "Plain",
    "cell",
    "literal",
    "matches",
    "num",
    "text_table",
    "QuartileLines",
    "quartile_lines",
    "CDPanel",
    "CurvesPanel",
    "FoldsPanel",
    "FoldsRows",
    "folds_rows",
    "LoadBar",
    "stopped_label",
    "NameList",
    "PairsPanel",
    "ProblemsPanel",
    "QuartilesPanel",
    "RanksPanel",
    "RanksRows",
    "Sidebar",
    "StatusLine",
    "TestsPanel",
    "ExactLine",
    "VimTable",
    "ranks_rows",
]
