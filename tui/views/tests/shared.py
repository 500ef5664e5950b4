"""What the tests view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from stats import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, fmt_stat, p_is


def df_text(df: Any) -> str:
    """``3`` or ``3, 39`` (the F tests' two degrees of freedom)."""
    parts = df if isinstance(df, tuple) else (df,)
    return ", ".join(f"{float(d):g}" for d in parts)


def omnibus_line(name: str, row: pd.Series) -> str:
    sym = OMNIBUS_SYMBOLS[name]
    return f"{OMNIBUS_NAMES[name]} {sym}({df_text(row['df'])}) = {fmt_stat(row['statistic'])}, {p_is(row['pvalue'])}"


def apv_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in table.columns if c not in ("z", "p")]
