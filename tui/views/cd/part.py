"""How the CD diagram is made: average ranks, Nemenyi's CD and the cliques of the selected procedure."""

from __future__ import annotations

from tui.model import Basis, CDView, cd_view


def make(b: Basis) -> CDView:
    assert b.average is not None  # (registered with requires=("testable",))
    return cd_view(b.average, b.n, b.selection, b.procedure_table)
