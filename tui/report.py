"""The text summary printed by ``rankboard report`` (numbers from :mod:`stats`, layout here)."""

from __future__ import annotations

import pandas as pd

import stats
from stats._format import fmt_p
from tui.viewmodel import LOWER_IS_BETTER, default_higher_is_better

__all__ = ["LOWER_IS_BETTER", "default_higher_is_better", "text_report"]


def _rank_table(scores: pd.DataFrame, ranks: pd.DataFrame, avg: pd.Series) -> list[str]:
    width = max(len(str(d)) for d in scores.index.tolist() + ["average rank"])
    cols = [str(c) for c in scores.columns]
    cw = [max(len(c), 13) for c in cols]
    lines = [" " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, cw))]
    for name, row in scores.iterrows():
        cells = [f"{v:.3f} ({ranks.loc[name, c]:g})" for c, v in row.items()]
        lines.append(str(name).ljust(width) + "  " + "  ".join(x.rjust(w) for x, w in zip(cells, cw)))
    lines.append(
        "average rank".ljust(width) + "  " + "  ".join(f"{avg[c]:.3f}".rjust(w) for c, w in zip(scores.columns, cw))
    )
    return lines


def text_report(
    log: pd.DataFrame,
    *,
    source: str,
    criterion: str | None = None,
    direction: str | None = None,
    control: str | None = None,
    alpha: float = 0.05,
    test: str = "friedman",
) -> str:
    if log.empty:
        raise ValueError("the logs hold no results")
    criterion = criterion or str(log["criterion"].iloc[0])
    scores = stats.scores_table(log, criterion)
    if len(scores) < 2:
        raise ValueError(f"{len(scores)} complete data set(s) for {criterion!r}: the tests need at least 2")
    higher = default_higher_is_better(criterion) if direction is None else direction == "higher"
    ranks = stats.ranks(scores, higher_is_better=higher)
    fr = stats.friedman(scores, higher_is_better=higher)
    avg = fr.ranks
    if control is None:
        control = str(avg.idxmin())
    k, n = scores.shape[1], scores.shape[0]
    cd = stats.critical_difference(k, n, alpha=alpha)
    out = [
        f"rankboard report: {source}",
        f"criterion {criterion} ({'higher' if higher else 'lower'} is better), "
        f"{n} data sets x {k} learners, median over repeats and folds",
        "",
        *_rank_table(scores, ranks, avg),
        *[f"left out: {name} ({why})" for name, why in scores.attrs.get("excluded", {}).items()],
        "",
        "verdict: " + str(stats.verdict(scores, alpha=alpha, higher_is_better=higher)),
        "",
        str(fr),
        str(stats.iman_davenport(scores, higher_is_better=higher)),
        str(stats.friedman_aligned(scores, higher_is_better=higher)),
        str(stats.quade(scores, higher_is_better=higher)),
        f"Nemenyi critical difference (alpha = {alpha:g}): CD = {cd:.3f}",
        "",
        f"control {control} ({test} z statistics); adjusted p-values <= {alpha:g} are marked *",
    ]
    table = stats.control_test(scores, control, test=test, alpha=alpha, higher_is_better=higher)
    procs = [c for c in table.columns if c not in ("z", "p")]
    lw = max(len(str(x)) for x in table.index.tolist() + ["learner"])
    out.append("learner".ljust(lw) + "        z         p" + "".join(f"{c:>12}" for c in procs))
    for name, row in table.iterrows():
        cells = "".join(f"{fmt_p(row[c]) + ('*' if row[c] <= alpha else ' '):>12}" for c in procs)
        out.append(f"{str(name).ljust(lw)} {row['z']:8.3f} {fmt_p(row['p']):>9}{cells}")
    return "\n".join(out) + "\n"
