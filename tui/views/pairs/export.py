"""The pairs view's CSV: one row per pair: a, b, z, p, nemenyi (García & Herrera's 2008 Nemenyi APV,
Bonferroni's m p), holm, shaffer, bergmann; under Nemenyi, nemenyi_tukey (Nemenyi's p as Demšar 2006
tests it, Tukey's studentized range on Friedman's average ranks) and nemenyi_tukey_rejected (the
ranks at least Demšar's critical difference apart: the CD diagram's and the verdict's decision); with a
two-sample procedure (wilcoxon-holm, sign-holm) its ``statistic``, ``better``, ``<test> p`` and
APVs (a column named after the procedure); then the effect sizes of a over b: a12, a12_magnitude,
delta, delta_magnitude, hl_estimate, hl_low, hl_high, hl_confidence (the level the interval
attains: 0.95 or more, less only where 95% is not attainable, N <= 5 data sets), mann_whitney_p;
then the robustness of the pair's decision under the selected procedure (issue 31):
fragility (the fewest data sets whose removal reverses it; empty where none was found),
fragility_exact, fragility_at_least (a proven lower bound), fragility_removed (those data sets,
separated by "; "), and from the analyses leaving one data set or other learner out,
stability_held, stability_analyses and stability_reversed_by (those whose removal alone reverses it)."""

from __future__ import annotations

import pandas as pd

from tui.model import Analysis, Robustness
from tui.views.pairs.shared import tukey_columns


def frame(analysis: Analysis) -> pd.DataFrame:
    part = analysis.pairs
    assert part is not None
    cols = ["a", "b", "z", "p", "nemenyi", "holm", "shaffer", "bergmann"]
    out = part.table[cols].reset_index(drop=True)
    tukey = tukey_columns(part)
    if tukey is not None:  # computed under Nemenyi only (scipy.stats: not on the default procedure's path)
        out = pd.concat([out, tukey], axis=1)
    if part.two_sample is not None:
        two = part.two_sample.table.reset_index(drop=True)
        out["statistic"], out["better"] = two["statistic"], two["better"].astype(str)
        out[f"{part.two_sample.test} p"], out[part.procedure] = two["p"], two[part.procedure]
    effects = analysis.effects
    if effects is not None:
        out = pd.concat([out, effects.drop(columns=["a", "b"]).reset_index(drop=True)], axis=1)
    r = analysis.robustness
    if r is not None:
        out = pd.concat([out, _robustness(r, out)], axis=1)
    return out


def _robustness(r: Robustness, pairs: pd.DataFrame) -> pd.DataFrame:
    """The robustness columns of the pairs ``pairs`` (a, b), in their order."""
    rows = r.pairs()
    at = {(str(a), str(b)): i for i, (a, b) in enumerate(zip(rows["a"], rows["b"]))}
    pick = [at[(str(a), str(b))] for a, b in zip(pairs["a"], pairs["b"])]
    rows = rows.iloc[pick].reset_index(drop=True)

    def joined(names: pd.Series) -> list[str]:
        return ["; ".join(map(str, x)) for x in names]

    return pd.DataFrame(
        {
            "fragility": rows["fragility"].astype("Int64"),
            "fragility_exact": rows["exact"].astype(bool),
            "fragility_at_least": rows["at_least"].astype("Int64"),
            "fragility_removed": joined(rows["removed"]),
            "stability_held": rows["held"].astype("Int64"),
            "stability_analyses": rows["analyses"].astype("Int64"),
            "stability_reversed_by": joined(rows["reversed_by"]),
        }
    )
