"""How the tests view is made: the verdict, the omnibus tests, Nemenyi's CD, the control table,
the parametric-safety notice and, when selected data sets miss results, Skillings-Mack's test."""

from __future__ import annotations

from tui.model import Basis, TestsView, safety_message, tests_view


def make(b: Basis) -> TestsView:
    sel = b.selection
    safety = b.cached("safety", (*b.table_key, sel.alpha), lambda: safety_message(b.ranked, sel.alpha))
    assert b.average is not None  # (registered with requires=("testable",))
    return tests_view(b.scores, sel, b.average, safety, b.procedure_table, b.ranked, b.incomplete())
