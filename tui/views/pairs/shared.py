"""What the pairs view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from stats import PROCEDURE_NAMES, fmt_p
from stats.core.labels import HL_CONFIDENCE
from stats.twosample.effect_size import level_text
from tui.model import PairsView

PAIR_PROCEDURES = ("nemenyi", "holm", "shaffer", "bergmann")


#: The effect-size table's header (after the names ``a`` and ``b``).
EFFECT_HEADER = ("A12", "magnitude", "delta", "magnitude", "HL", "CI low", "CI high", "Mann-Whitney p")


#: What the effect-size table holds, in a sentence for every format.
EFFECT_NOTE = (
    "effect sizes of a over b across the data sets: A12 = P(a better than b) + P(tie)/2 "
    "(Vargha & Delaney 2000; magnitudes at 0.56, 0.64, 0.71), Cliff's delta = 2 A12 - 1 "
    "(Romano et al. 2006; at 0.147, 0.33, 0.474), HL = Hodges-Lehmann estimate of the median "
    "paired difference a - b with its 95% interval (positive: a better), Mann-Whitney p two-sided"
)


def _short(frame: pd.DataFrame) -> np.ndarray:
    """Which rows' Hodges-Lehmann interval attains less than the nominal :data:`HL_CONFIDENCE`."""
    return frame["hl_confidence"].to_numpy(np.float64) < HL_CONFIDENCE  # NaN: not computed, not short


def effect_note(frame: pd.DataFrame, n: int) -> str:
    """:data:`EFFECT_NOTE`, and when some pair's interval falls short of 95% (N = ``n`` <= 5 data
    sets: even [min, max] of the differences covers only 1 - 2^(1-N)), what its marked level means."""
    if not _short(frame).any():
        return EFFECT_NOTE
    nominal, attained = level_text(HL_CONFIDENCE), level_text(float(frame["hl_confidence"].min()), HL_CONFIDENCE)
    return (
        f"{EFFECT_NOTE}; {nominal} is not attainable with N = {n} data sets: the level an interval "
        f"attains follows its CI high, e.g. ({attained})"
    )


def _num(x: float, spec: str) -> str:
    return format(float(x), spec) if math.isfinite(float(x)) else "-"


def two_sample_title(pairs: PairsView, alpha: float) -> str:
    """The sentence above the two-sample procedure's table."""
    table = pairs.two_sample
    kind = "Wilcoxon signed-ranks" if table.test == "wilcoxon" else "sign"
    what = "T = min(R+, R-)" if table.test == "wilcoxon" else "wins of b"
    return (
        f"{PROCEDURE_NAMES[pairs.procedure]}: each pair's {kind} test over the {table.n} data sets "
        f"({what}; {table.test} option {table.option}), Holm's adjusted p-values <= {alpha:g} are marked"
    )


def two_sample_cells(
    pairs: PairsView, alpha: float, esc: Escape, mark: Mark, p: Callable[[float], str] = fmt_p
) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the two-sample table: a, b, statistic, better, p, APV (marked)."""
    table = pairs.two_sample
    header = ["a", "b", "statistic", "better", "p", pairs.procedure]
    rows = []
    for r in table.table.itertuples(index=False):
        apv = float(r[5])
        better = esc(r.better) if r.better else "-"
        rows.append([esc(r.a), esc(r.b), f"{float(r.statistic):g}", better, p(float(r.p)), mark(p(apv), apv <= alpha)])
    return header, rows


def effects_cells(frame: pd.DataFrame, esc: Escape, p: Callable[[float], str] = fmt_p) -> list[list[str]]:
    """The rows of the effect-size table (header: ``a``, ``b`` and :data:`EFFECT_HEADER`)."""
    rows = []
    short = _short(frame)
    for r, below in zip(frame.itertuples(index=False), short.tolist()):
        high = _num(r.hl_high, ".4g")
        if below:  # the attained level, after the interval (effect_note says what it is)
            high += esc(f" ({level_text(float(r.hl_confidence), HL_CONFIDENCE)})")
        rows.append(
            [
                esc(r.a),
                esc(r.b),
                _num(r.a12, ".3f"),
                r.a12_magnitude or "-",
                _num(r.delta, ".3f"),
                r.delta_magnitude or "-",
                _num(r.hl_estimate, ".4g"),
                _num(r.hl_low, ".4g"),
                high,
                p(float(r.mann_whitney_p)) if math.isfinite(float(r.mann_whitney_p)) else "-",
            ]
        )
    return rows


Escape = Callable[[Any], str]


Mark = Callable[[str, bool], str]
