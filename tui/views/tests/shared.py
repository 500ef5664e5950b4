"""What the tests view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from stats import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, fmt_stat, p_is
from tui.model import TestsView


def df_text(df: Any) -> str:
    """``3`` or ``3, 39`` (the F tests' two degrees of freedom)."""
    parts = df if isinstance(df, tuple) else (df,)
    return ", ".join(f"{float(d):g}" for d in parts)


def omnibus_line(name: str, row: pd.Series) -> str:
    sym = OMNIBUS_SYMBOLS[name]
    return f"{OMNIBUS_NAMES[name]} {sym}({df_text(row['df'])}) = {fmt_stat(row['statistic'])}, {p_is(row['pvalue'])}"


def apv_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in table.columns if c not in ("z", "p")]


#: The name the views print for ``stats.skillings_mack`` (Skillings & Mack 1981).
SM_NAME = "Skillings-Mack"


def _names(names: tuple[str, ...], most: int = 5) -> str:
    """``a, b, c``; past ``most`` names, the first ones and how many in all."""
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most]) + f", ... ({len(names)} in all)"


def sm_line(tests: TestsView) -> str:
    """Skillings-Mack's statistic as the text report prints an omnibus test (``tests.incomplete`` set)."""
    assert tests.incomplete is not None
    r = tests.incomplete.result
    return f"{SM_NAME} chi2({r.df}) = {fmt_stat(r.statistic)}, {p_is(r.pvalue)} (keeps data sets with missing results)"


def uses_sentence(tests: TestsView) -> str:
    """How many data sets each test uses, when some miss results (``tests.incomplete`` set):
    Skillings-Mack the complete ones and those with at least two results, every other test and table
    of the view the complete ones only; when it is the only test (``tests.skillings_mack_only``),
    that the others need at least 2 complete data sets."""
    inc = tests.incomplete
    assert inc is not None
    r, m = inc.result, len(inc.kept)
    alone = tests.skillings_mack_only
    cells = f"{r.missing} result{'s' * (r.missing != 1)} missing"
    complete = f"the {inc.complete} complete and " if inc.complete or not alone else ""
    out = f"data sets used: {SM_NAME} {r.n} ({complete}{m} with missing results: {_names(inc.kept)}; {cells}); "
    if alone:
        out += "every other test needs at least 2 complete data sets"
    else:
        out += f"Friedman and every other test and table here the {inc.complete} complete ones"
    if inc.dropped:
        n = len(inc.dropped)
        out += f"; left out{'' if alone else ' of both'}: {n} with a single result ({_names(inc.dropped)})"
    return out
