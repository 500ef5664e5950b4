"""How the ranks view is made: medians and ranks per data set, average ranks (Demsar 2006), and the
compact letters of the pairs procedure shown with them (Piepho 2004)."""

from __future__ import annotations

from typing import Any

from tui.model import Basis, RanksView, rank_letters, ranks_view


def make(b: Basis) -> RanksView:
    return ranks_view(b.scores, b.selection.higher_is_better, b.ranked)


def letters(b: Basis) -> Any:
    sel = b.selection
    assert b.average is not None  # (registered with requires=("testable",))
    return rank_letters(b.average, b.n, sel.procedure, sel.test, sel.alpha, b.procedure_table)
