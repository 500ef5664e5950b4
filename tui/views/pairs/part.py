"""How the pairs view is made: every pair's APVs under the rank procedures and the selected one
(under Nemenyi, Tukey's p-values), the two-sample tests of one pair, and every pair's effect sizes
(for the reports and the export)."""

from __future__ import annotations

from typing import Any

import pandas as pd

import stats
from tui.model import TWO_SAMPLE, Basis, effects_table, pairs_view


def make(b: Basis) -> Any:
    sel = b.selection
    two = b.two_sample() if sel.procedure in TWO_SAMPLE else None
    assert b.average is not None  # (registered with requires=("testable",))
    tukey = _tukey(b) if sel.procedure == "nemenyi" else None
    return pairs_view(b.scores, sel, b.average, b.pairwise(), two, b.ranked, tukey)


def _tukey(b: Basis) -> pd.DataFrame:
    """Nemenyi's p-values of Tukey's studentized range (``stats.nemenyi_tukey_p``), once per table
    and direction (alpha changes only which are rejected): made under Nemenyi only, since they
    import ``scipy.stats`` (0.5-0.9 s) and integrate once per distinct difference of ranks."""
    average, n = b.average, b.n
    key = (*b.table_key, b.selection.higher_is_better, "nemenyi-tukey")
    return b.cached("pairwise", key, lambda: stats.nemenyi_tukey_p(average, n))


def effects(b: Basis) -> pd.DataFrame:
    return effects_table(b.scores, b.selection.higher_is_better, b.ranked)
