"""How the tests view is made: the verdict, the omnibus tests, Nemenyi's CD, the control table,
the parametric-safety notice and, when selected data sets miss results, Skillings-Mack's test (the
only one when fewer than 2 data sets are complete)."""

from __future__ import annotations

from tui.model import Basis, Robustness, TestsView, alone_view, robustness_part, safety_message, tests_view


def make(b: Basis) -> TestsView:
    sel = b.selection
    if b.alone is not None:  # fewer than 2 complete data sets: Skillings-Mack's test alone
        return alone_view(b.alone, sel.alpha)
    safety = b.cached("safety", (*b.table_key, sel.alpha), lambda: safety_message(b.ranked, sel.alpha))
    assert b.average is not None  # (registered with requires=("has_tests",): testable, or alone)
    return tests_view(b.scores, sel, b.average, safety, b.procedure_table, b.ranked, b.incomplete())


def robustness(b: Basis) -> Robustness | None:
    """The fragility and stability of the conclusions (the part the tests, pairs and CD views share);
    None for Skillings-Mack's test alone (no post-hoc procedure: no decision to reverse)."""
    return robustness_part(b) if b.testable else None
