"""How the pairs view is made: every pair's APVs under the rank procedures and the selected one, the
two-sample tests of one pair, and every pair's effect sizes (for the reports and the export)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from tui.model import TWO_SAMPLE, Basis, effects_table, pairs_view


def make(b: Basis) -> Any:
    sel = b.selection
    two = b.two_sample() if sel.procedure in TWO_SAMPLE else None
    assert b.average is not None  # (registered with requires=("testable",))
    return pairs_view(b.scores, sel, b.average, b.pairwise(), two, b.ranked)


def effects(b: Basis) -> pd.DataFrame:
    return effects_table(b.scores, b.selection.higher_is_better, b.ranked)
