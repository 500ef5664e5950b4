"""The widgets the views share: the sidebar, the load bar, the status line, the problems panel,
tables and text helpers, and the protocol of a view's panel (:class:`ViewPanel`). Each view's own
panel is in its folder (``tui/views/<name>/panel.py``)."""

from tui.widgets._base import Note, Plain, cell, literal, matches, num, text_table
from tui.widgets._frames import apv_cell, fill_table, frame_text
from tui.widgets._loading import LoadBar, stopped_label
from tui.widgets._panel import SelectionWanted, ViewPanel, learner_in_row, panel_room
from tui.widgets._problems import ProblemsPanel
from tui.widgets._sidebar import NameList, Sidebar
from tui.widgets._status import StatusLine
from tui.widgets._table import COPY_HINT, ExactLine, PreparedRows, VimTable, prepare_rows, subset_rows

__all__ = [
    "apv_cell",
    "cell",
    "COPY_HINT",
    "ExactLine",
    "fill_table",
    "frame_text",
    "learner_in_row",
    "panel_room",
    "literal",
    "LoadBar",
    "matches",
    "NameList",
    "Note",
    "num",
    "Plain",
    "prepare_rows",
    "PreparedRows",
    "ProblemsPanel",
    "SelectionWanted",
    "Sidebar",
    "StatusLine",
    "stopped_label",
    "subset_rows",
    "text_table",
    "ViewPanel",
    "VimTable",
]
