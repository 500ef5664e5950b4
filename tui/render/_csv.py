"""Export a view's raw numbers as CSV (full precision, never the formatted strings).

Columns per view (:func:`export_frame`):

``quartiles``
    criterion, scope, learner, n, min, q1, median, q3, max (rows in view order); for the charts
    of deltas, also mean, sd and ``against`` (the control the differences are taken against);
    for the charts of values, also ``rank`` (the learner's Scott-Knott group in the scope, 1 =
    best) and ``scott_knott`` (the variant: esd = ScottKnott-ESD 2.x, esd-v1 = 1.x, np = 3.0's
    non-parametric form, or a12 = Menzies' A12 variant).
``ranks``
    dataset, then per learner ``<learner> median`` and ``<learner> rank``; a
    last row with dataset = "average rank", the average ranks in the rank
    columns and empty (NaN) medians; then per learner ``<learner> letters``, the compact letters
    of the pairs procedure (Piepho 2004) on the average-rank row, empty on the others.
``tests``
    one row per hypothesis "control vs learner": learner, z, p,
    bonferroni, holm, hochberg, hommel, holland, rom, finner, li (the APVs of
    ``stats.control_test``), the multiple sign test against the control (sign_plus,
    sign_minus, sign_ties, sign_statistic, sign_rejected) and the win, loss, tie (Menzies' lecture notes) and
    win_minus_loss; then a row for the control with only the last four.
``pairs``
    one row per pair: a, b, z, p, nemenyi, holm, shaffer, bergmann; with a two-sample procedure
    (wilcoxon-holm, sign-holm) its ``statistic``, ``better``, ``<test> p`` and APVs (a column named
    after the procedure); then the effect sizes of a over b: a12, a12_magnitude, delta,
    delta_magnitude, hl_estimate, hl_low, hl_high, hl_confidence (the level the interval attains:
    0.95 or more, less only where 95% is not attainable, N <= 5 data sets), mann_whitney_p.
``cd``
    learner, average_rank (best first), then one boolean column
    ``clique <i>`` (i = 1, 2, ...) per maximal clique, True for its members.
``folds``
    one row per data set and learner against the control: dataset, learner, control, runs,
    folds, mean_difference, statistic, pvalue, mark, p_better, p_equivalent, p_worse; then one
    row per learner with dataset "all data sets": wins, ties, losses, datasets and the Bayesian
    signed-rank test's probabilities.
``curves`` (``rankboard report`` only; the sequence study of Menzies' lecture notes)
    criterion, dataset, learner, train, n, mean, sd, min, q1, median, q3, max, plateau (True on
    the learner's plateau row), plateau_size and reached (:func:`tui.render._curves.curves_frame`).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from stats.core.names import spreadsheet_safe
from tui.atomic import write_text_atomic
from tui.choices import REPORT_VIEWS
from tui.model import BOUNDED, VIEWS, Analysis  # noqa: F401  (VIEWS: the app's views; tests import it from here)


def _check_view(view: str) -> None:
    if view not in REPORT_VIEWS:
        raise ValueError(f"view must be one of {', '.join(map(repr, REPORT_VIEWS))}; got {view!r}")


def export_frame(analysis: Analysis, view: str) -> pd.DataFrame:
    """The raw numbers of ``view`` (see the module docstring for the columns).

    Raises
    ------
    ValueError
        Unknown ``view``, or the view is empty (the analysis' ``problem`` says why).
    """
    _check_view(view)
    part = getattr(analysis, view)
    if part is None:
        bounded = [note for note in analysis.notes if BOUNDED in note]  # logs bigger than memory
        why = analysis.problem or (bounded[0] if bounded else "it has no results")
        raise ValueError(f"nothing to export in the {view} view: {why}")
    if view == "quartiles":
        rows = [(part.criterion, r.scope, r.learner, r.n, r.min, r.q1, r.median, r.q3, r.max) for r in part.rows]
        cols = ["criterion", "scope", "learner", "n", "min", "q1", "median", "q3", "max"]
        frame = pd.DataFrame(rows, columns=cols).astype({"n": np.int64})
        if part.deltas is not None:
            frame = frame.assign(mean=[r.mean for r in part.rows], sd=[r.sd for r in part.rows], against=part.deltas)
        if part.groups is not None:  # the Scott-Knott group of each row (blank where none was computed)
            ranks = [part.groups.get(r.scope, {}).get(r.learner) for r in part.rows]
            frame = frame.assign(rank=pd.array(ranks, dtype="Int64"), scott_knott=part.grouping)
        return frame
    if view == "curves":
        from tui.render._curves import curves_frame  # it imports the text helpers

        return curves_frame(part)
    if view == "folds":
        per = part.table.reset_index().assign(control=part.control)
        totals = part.totals.reset_index().assign(dataset="all data sets", control=part.control)
        cols = ["dataset", "learner", "control", "runs", "folds", "mean_difference", "statistic", "pvalue", "mark"]
        cols += ["p_better", "p_equivalent", "p_worse", "wins", "ties", "losses", "datasets"]
        frame = pd.concat([per, totals], ignore_index=True).reindex(columns=cols)
        for c in ("runs", "folds", "wins", "ties", "losses", "datasets"):
            frame[c] = frame[c].astype("Int64")  # counts stay integers; blank where they do not apply
        frame[["dataset", "learner", "control"]] = frame[["dataset", "learner", "control"]].astype(str)
        frame["mark"] = frame["mark"].fillna("").astype(str)
        return frame
    if view == "ranks":
        out: dict[str, list[Any]] = {"dataset": [*map(str, part.medians.index), "average rank"]}
        for name in part.medians.columns:
            out[f"{name} median"] = [*part.medians[name].to_numpy(np.float64), np.nan]
            out[f"{name} rank"] = [*part.ranks[name].to_numpy(np.float64), float(part.average[name])]
        if analysis.letters is not None:
            blank = [""] * len(part.medians.index)
            for name in part.medians.columns:
                out[f"{name} letters"] = [*blank, analysis.letters.letters[str(name)]]
        return pd.DataFrame(out)
    if view == "tests":
        table = part.control_table
        frame = table.reset_index(names="learner")
        frame["learner"] = frame["learner"].astype(str)
        if part.extra is not None:  # issue 16: the multiple sign test and the win/loss/tie counts
            from tui.render._tests_extra import extra_csv

            frame = extra_csv(part, frame)
        return frame
    if view == "pairs":
        cols = ["a", "b", "z", "p", "nemenyi", "holm", "shaffer", "bergmann"]
        frame = part.table[cols].reset_index(drop=True)
        if part.two_sample is not None:
            two = part.two_sample.table.reset_index(drop=True)
            frame["statistic"], frame["better"] = two["statistic"], two["better"].astype(str)
            frame[f"{part.two_sample.test} p"], frame[part.procedure] = two["p"], two[part.procedure]
        effects = analysis.effects
        if effects is not None:
            frame = pd.concat([frame, effects.drop(columns=["a", "b"]).reset_index(drop=True)], axis=1)
        return frame
    frame = pd.DataFrame(
        {"learner": [str(x) for x in part.ranks.index], "average_rank": part.ranks.to_numpy(np.float64)}
    )
    for i, clique in enumerate(part.cliques, start=1):
        frame[f"clique {i}"] = frame["learner"].isin(clique)
    return frame


#: The name columns the ``/`` filter reads in each view's export (the views' own rule: a row is
#: shown when one of them contains the filter's text); the CD diagram and the curves are not filtered.
FILTERED_BY = {
    "quartiles": ("learner", "scope"),
    "tests": ("learner",),
    "pairs": ("a", "b"),
    "folds": ("dataset", "learner"),
    "ranks": ("dataset",),
}
SUMMARY_ROWS = {"ranks": ("dataset", "average rank"), "folds": ("dataset", "all data sets")}


def _kind(column: str) -> str:
    """A ranks column's block: medians and ranks go together, the letters after them."""
    return "letters" if column.endswith(" letters") else "values"


def as_shown(
    frame: pd.DataFrame,
    view: str,
    *,
    needle: str = "",
    datasets: list[str] | None = None,
    learners: list[str] | None = None,
) -> pd.DataFrame:
    """``frame`` (:func:`export_frame` of ``view``) as the view shows it: only the rows the ``/``
    filter ``needle`` keeps (case-insensitive, the views' rule), and for the ranks view its data
    sets and learners in the order shown (``datasets``, ``learners``: the sort of ``<`` / ``>``).
    Summary rows (average ranks, letters; the folds' totals) stay, after the data sets.

    >>> f = pd.DataFrame({"dataset": ["iris", "wine", "average rank"], "a rank": [1, 2, 1.5], "b rank": [2, 1, 1.5]})
    >>> as_shown(f, "ranks", datasets=["wine", "iris"], learners=["b", "a"]).values.tolist()
    [['wine', 1.0, 2.0], ['iris', 2.0, 1.0], ['average rank', 1.5, 1.5]]
    >>> as_shown(f, "ranks", needle="IR")["dataset"].tolist()
    ['iris', 'average rank']
    """
    needle = needle.casefold()
    columns = [c for c in FILTERED_BY.get(view, ()) if c in frame.columns]
    summary = pd.Series(False, index=frame.index)
    if view in SUMMARY_ROWS and SUMMARY_ROWS[view][0] in frame.columns:
        column, value = SUMMARY_ROWS[view]
        summary = frame[column].astype(str) == value
    if view == "ranks":
        keep = summary | frame["dataset"].astype(str).map(lambda d: not needle or needle in d.casefold())
    elif view == "folds" and needle:  # a totals row is a learner's: the views filter it by learner
        name = frame["learner"].astype(str).str.casefold().str.contains(needle, regex=False)
        pair = frame["dataset"].astype(str).str.casefold().str.contains(needle, regex=False) | name
        keep = (summary & name) | (~summary & pair)
    elif columns and needle:
        keep = pd.Series(False, index=frame.index)
        for c in columns:
            keep |= frame[c].astype(str).str.casefold().str.contains(needle, regex=False)
    else:
        keep = pd.Series(True, index=frame.index)
    out = frame[keep]
    if view == "ranks" and datasets is not None:
        position = {d: i for i, d in enumerate(datasets)}
        shown = out[~summary[keep]]
        order = sorted(range(len(shown)), key=lambda i: position.get(str(shown["dataset"].iloc[i]), len(position)))
        out = pd.concat([shown.iloc[order], out[summary[keep]]])
    if view == "ranks" and learners is not None:
        rank = {name: i for i, name in enumerate(learners)}
        cols = [c for c in out.columns if c != "dataset"]
        kinds = {c: i for i, c in enumerate(dict.fromkeys(_kind(c) for c in cols))}
        # learners in the order shown; the frame's layout kept (medians and ranks side by side, letters last)
        cols.sort(key=lambda c: (kinds[_kind(c)], rank.get(c.rsplit(" ", 1)[0], len(rank))))
        out = out[["dataset", *cols]]
    return out.reset_index(drop=True)


def default_export_name(criterion: str, view: str, now: datetime | None = None) -> str:
    """``rankboard-<criterion>-<view>-<YYYYmmdd-HHMMSS>.csv``; the criterion keeps only [A-Za-z0-9._-].

    >>> default_export_name("pd/pf ratio", "ranks", datetime(2026, 1, 2, 3, 4, 5))
    'rankboard-pd_pf_ratio-ranks-20260102-030405.csv'
    """
    _check_view(view)
    return stamped_name(criterion, view, ".csv", now)


def stamped_name(criterion: str, kind: str, suffix: str, now: datetime | None = None) -> str:
    """``rankboard-<criterion>-<kind>-<YYYYmmdd-HHMMSS><suffix>``, the criterion made filename-safe.

    >>> stamped_name("pd", "view", ".toml", datetime(2026, 1, 2, 3, 4, 5))
    'rankboard-pd-view-20260102-030405.toml'
    """
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", str(criterion)).strip("._") or "criterion"
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"rankboard-{safe}-{kind}-{stamp}{suffix}"


def csv_text(frame: pd.DataFrame, *, raw: bool = False) -> str:
    """``frame`` as the CSV an export writes: no index, LF line ends, floats at full precision.

    Names from the logs (string cells and column headers) pass :func:`stats.core.names.spreadsheet_safe`:
    control characters escaped, and a cell a spreadsheet would evaluate (``=``, ``+``, ``-``, ``@``,
    tab, CR, not a number) prefixed with ``'`` unless ``raw``.
    """
    safe = frame.rename(columns=lambda c: spreadsheet_safe(str(c), raw=raw))
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(lambda v: spreadsheet_safe(v, raw=raw))
    return safe.to_csv(index=False, lineterminator="\n", float_format=None)


def write_csv(frame: pd.DataFrame, path: str | Path, *, overwrite: bool = False, raw: bool = False) -> Path:
    """Write ``frame`` (:func:`csv_text`) to ``path`` atomically and return the absolute path.

    See :func:`tui.atomic.write_text_atomic`: a reader never sees a partial file, no temporary
    file is left behind, and without ``overwrite`` an existing file is never replaced.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is False.
    """
    return write_text_atomic(csv_text(frame, raw=raw), path, overwrite=overwrite)
