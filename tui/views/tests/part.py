"""How the tests view is made: the verdict, the omnibus tests, Nemenyi's CD, the control table,
the parametric-safety notice and, when selected data sets miss results, Skillings-Mack's test."""

from __future__ import annotations

from tui.model import Basis, Robustness, TestsView, robustness_part, safety_message, tests_view


def make(b: Basis) -> TestsView:
    sel = b.selection
    safety = b.cached("safety", (*b.table_key, sel.alpha), lambda: safety_message(b.ranked, sel.alpha))
    assert b.average is not None  # (registered with requires=("testable",))
    return tests_view(b.scores, sel, b.average, safety, b.procedure_table, b.ranked, b.incomplete())


def robustness(b: Basis) -> Robustness | None:
    """The fragility and stability of the conclusions (the part the tests, pairs and CD views share)."""
    return robustness_part(b)
