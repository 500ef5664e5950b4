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
from tui.formats.cells import column, each_float, each_value
from tui.model import PairsView, Robustness, fragility_mark, listed

PAIR_PROCEDURES = ("nemenyi", "holm", "shaffer", "bergmann")


#: The columns of Nemenyi's p-values as Demsar (2006) tests them (Tukey's studentized range on
#: Friedman's ranks) and their decision (the CD's), after the APVs: under Nemenyi only.
TUKEY_COLUMNS = ("nemenyi_tukey", "nemenyi_tukey_rejected")


def tukey_columns(pairs: PairsView) -> pd.DataFrame | None:
    """Under Nemenyi, each pair of the table (its order) with its Tukey p-value (the matrix's) and
    whether the CD separates it (:attr:`PairsView.rejected`); else None (the other procedures'
    reports are as they were, and their path never imports ``scipy.stats``)."""
    if pairs.rejected is None:
        return None
    rows, columns = {str(x): i for i, x in enumerate(pairs.matrix.index)}, pairs.matrix.columns
    ia = np.array([rows[str(a)] for a in column(pairs.table, "a")], dtype=np.intp)
    ib = np.array([rows[str(b)] for b in column(pairs.table, "b")], dtype=np.intp)
    p = pairs.matrix.to_numpy(np.float64)[ia, ib]
    rejected = pairs.rejected.reindex(index=pairs.matrix.index, columns=columns).to_numpy(bool)[ia, ib]
    return pd.DataFrame({TUKEY_COLUMNS[0]: p, TUKEY_COLUMNS[1]: rejected})


def tukey_note(pairs: PairsView) -> str | None:
    """Under Nemenyi, what the two Nemenyi columns hold and which one the procedure's decisions
    follow, in a sentence for every format; else None."""
    if pairs.cd is None:
        return None
    return (
        "nemenyi: García & Herrera's (2008) Nemenyi APV, Bonferroni's m p of the z test (m = k(k-1)/2); "
        "nemenyi_tukey: Nemenyi's p as Demšar (2006) tests it, Tukey's studentized range on Friedman's "
        f"average ranks, marked where the ranks are at least CD = {pairs.cd:.4f} apart (alpha = {pairs.alpha:g}): "
        "the decisions of the CD diagram, the verdict and the fragility under Nemenyi"
    )


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
    """Header and rows of the two-sample table: a, b, statistic, better, p, APV (marked).

    A column at a time, each distinct value formatted once (:mod:`tui.formats.cells`)."""
    table = pairs.two_sample
    frame = table.table
    header = ["a", "b", "statistic", "better", "p", pairs.procedure]
    columns = [
        each_value(column(frame, "a"), esc),
        each_value(column(frame, "b"), esc),
        each_float(frame["statistic"], lambda s: f"{s:g}"),
        each_value(column(frame, "better"), lambda b: esc(b) if b else "-"),
        each_float(frame["p"], p),
        each_float(frame.iloc[:, 5], lambda apv: mark(p(apv), apv <= alpha)),
    ]
    return header, [list(row) for row in zip(*columns)]


def effects_cells(frame: pd.DataFrame, esc: Escape, p: Callable[[float], str] = fmt_p) -> list[list[str]]:
    """The rows of the effect-size table (header: ``a``, ``b`` and :data:`EFFECT_HEADER`).

    A column at a time, each distinct value formatted once (:mod:`tui.formats.cells`): a row at a
    time took over a minute for the 499,500 pairs of 1,000 learners."""
    short = _short(frame)
    high = each_float(frame["hl_high"], lambda x: _num(x, ".4g"))
    # a short interval: its attained level after it (effect_note says what it is)
    level = each_float(frame["hl_confidence"], lambda c: esc(f" ({level_text(c, HL_CONFIDENCE)})"))
    high = [h + lv if below else h for h, lv, below in zip(high, level, short.tolist())]
    columns = [
        each_value(column(frame, "a"), esc),
        each_value(column(frame, "b"), esc),
        each_float(frame["a12"], lambda x: _num(x, ".3f")),
        [m or "-" for m in column(frame, "a12_magnitude")],
        each_float(frame["delta"], lambda x: _num(x, ".3f")),
        [m or "-" for m in column(frame, "delta_magnitude")],
        each_float(frame["hl_estimate"], lambda x: _num(x, ".4g")),
        each_float(frame["hl_low"], lambda x: _num(x, ".4g")),
        high,
        each_float(frame["mann_whitney_p"], lambda x: p(x) if math.isfinite(x) else "-"),
    ]
    return [list(row) for row in zip(*columns)]


Escape = Callable[[Any], str]


Mark = Callable[[str, bool], str]


def fragility_column(table: Any, r: Robustness) -> list[str]:
    """The fragility of each pair of ``table`` (a, b: the pairs table's order), as a cell
    (:func:`tui.model.fragility_mark`); "" for a pair ``r`` does not hold."""
    frame = r.fragility.pairs
    marks = {
        (str(a), str(b)): fragility_mark(size, bool(exact), low)
        for a, b, size, exact, low in zip(frame["a"], frame["b"], frame["fragility"], frame["exact"], frame["at_least"])
    }
    return [marks.get((str(a), str(b)), "") for a, b in zip(column(table, "a"), column(table, "b"))]


def reversals(r: Robustness, esc: Escape) -> list[str]:
    """One line per pair that some removal of data sets reverses: the pair, its decision, its
    fragility and the data sets removed (names escaped by ``esc``), in the pairs' order."""
    out = []
    rows: list[Any] = list(r.fragility.pairs.itertuples(index=False))  # (typed Any: fields are columns)
    for x in rows:
        if pd.isna(x.fragility):
            continue
        what = "rejected" if x.rejected else "not rejected"
        mark = fragility_mark(x.fragility, bool(x.exact), x.at_least)
        out.append(f"{esc(x.a)} vs {esc(x.b)} ({what}): {mark}, without {listed(tuple(x.removed), esc, most=10)}")
    return out
