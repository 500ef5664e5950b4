"""The pairs view's CSV: one row per pair: a, b, z, p, nemenyi, holm, shaffer, bergmann; with a
two-sample procedure (wilcoxon-holm, sign-holm) its ``statistic``, ``better``, ``<test> p`` and
APVs (a column named after the procedure); then the effect sizes of a over b: a12, a12_magnitude,
delta, delta_magnitude, hl_estimate, hl_low, hl_high, hl_confidence (the level the interval
attains: 0.95 or more, less only where 95% is not attainable, N <= 5 data sets), mann_whitney_p."""

from __future__ import annotations

import pandas as pd

from tui.model import Analysis


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.pairs
    assert part is not None
    cols = ["a", "b", "z", "p", "nemenyi", "holm", "shaffer", "bergmann"]
    out = part.table[cols].reset_index(drop=True)
    if part.two_sample is not None:
        two = part.two_sample.table.reset_index(drop=True)
        out["statistic"], out["better"] = two["statistic"], two["better"].astype(str)
        out[f"{part.two_sample.test} p"], out[part.procedure] = two["p"], two[part.procedure]
    effects = analysis.effects
    if effects is not None:
        out = pd.concat([out, effects.drop(columns=["a", "b"]).reset_index(drop=True)], axis=1)
    return out
