"""JSON rendering of an :class:`~tui.model._types.Analysis`: one document, numbers as JSON numbers.

Numbers are the analysis' own floats (hence exactly :mod:`stats`'); they are
never strings. A number that is not finite becomes ``null``: NaN means "not
computed" (e.g. a quartile of a learner without results) and +/-inf means an
unbounded statistic (Iman-Davenport's F is +inf when every data set ranks the
learners identically; its p-value is then 0). ``SCHEMA`` is the JSON Schema
(draft 2020-12 subset) of the document for ``view="all"``; a single view keeps
the common keys (``criterion`` .. ``problem``) and that view's keys.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from tui.render._curves import curves_dict
from tui.render._json_schema import BAYES, COMMON, FOLD_NUMBERS, PAIR_APVS, SCHEMA, TWO_SAMPLE_NUMBERS, VIEW_KEYS
from tui.render._json_text import dumps_indented
from tui.render._tests_extra import extra_json
from tui.render._text import check_view
from tui.model import Analysis


def num(x: Any) -> float | int | None:
    """A JSON number: ints stay ints, floats stay floats, non-finite becomes None."""
    if x is None:
        return None
    if isinstance(x, (bool,)):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int):
        return x
    f = float(x)
    if f.is_integer() and not isinstance(x, float) and abs(f) < 2**53:
        return int(f)
    return f if math.isfinite(f) else None


def _df(df: Any) -> Any:
    return [num(d) for d in df] if isinstance(df, tuple) else num(df)


def _records(frame: pd.DataFrame, strings: tuple[str, ...]) -> list[dict[str, Any]]:
    """One dict per row: ``str`` of the ``strings`` columns, :func:`num` of the others.

    Column by column (:func:`_column`), the values ``frame.itertuples()`` would give row by row."""
    columns = list(frame.columns)
    values = [_column(frame.iloc[:, k], c in strings) for k, c in enumerate(columns)]
    return [dict(zip(columns, row)) for row in zip(*values)] if columns else [{} for _ in range(len(frame))]


def _column(series: pd.Series, string: bool) -> list[Any]:
    """``[str(v) ...]`` or ``[num(v) ...]`` of the values iterating ``series`` gives (as
    ``itertuples`` does), read in bulk where that is the same: a NumPy column's ``tolist()`` is
    its ``item()`` of each element (float64: Python floats, num's own, None where not finite;
    int64: Python ints, which num keeps); a string column's ``tolist()`` the Python strings with
    its NA value (``pd.StringDtype.na_value``) for missing ones, as its iteration yields. Any other
    dtype is iterated."""
    dtype = series.dtype
    if string:
        if isinstance(dtype, pd.StringDtype):
            return [str(v) for v in series.array.tolist()]
        return [str(v) for v in series]
    if isinstance(dtype, np.dtype) and dtype == np.float64:
        array = series.to_numpy()
        floats = array.tolist()
        return floats if np.isfinite(array).all() else [f if math.isfinite(f) else None for f in floats]
    if isinstance(dtype, np.dtype) and dtype == np.int64:
        return series.to_numpy().tolist()
    return [num(v) for v in series]


def two_sample_dict(table: Any, procedure: str) -> dict[str, Any]:
    """A two-sample procedure's table (``stats.pairwise_wilcoxon``) as the schema's ``two_sample``."""
    rows = table.table.rename(columns={procedure: "apv"})[["a", "b", "better", *TWO_SAMPLE_NUMBERS]]
    return {
        "test": table.test,
        "method": table.method,
        "option": table.option,
        "n": int(table.n),
        "rows": _records(rows, ("a", "b", "better")),
    }


def report_dict(analysis: Analysis, view: str = "all") -> dict[str, Any]:
    """The document as Python values (what :func:`render_json` serialises)."""
    views = check_view(view)
    sel = analysis.selection
    # Read only the views shown (each is computed when first read); the common keys need the ranks.
    r = analysis.ranks
    lt = analysis.letters if "ranks" in views else None
    t = analysis.tests if "tests" in views else None
    p = analysis.pairs if "pairs" in views else None
    e = analysis.effects if p is not None else None
    c = analysis.cd if "cd" in views else None
    q = analysis.quartiles if "quartiles" in views else None
    f = analysis.folds if "folds" in views else None
    g = analysis.curves if "curves" in views else None
    doc: dict[str, Any] = {
        "criterion": sel.criterion,
        "higher_is_better": sel.higher_is_better,
        "alpha": num(sel.alpha),
        "test": sel.test,
        "datasets": [str(d) for d in r.medians.index] if r is not None else list(sel.datasets),
        "learners": [str(x) for x in r.medians.columns] if r is not None else list(sel.learners),
        "excluded": [{"dataset": d, "reason": why} for d, why in r.excluded.items()] if r is not None else [],
        "notes": list(analysis.notes),
        "quartiles": None
        if q is None
        else [
            {
                "scope": x.scope,
                "learner": x.learner,
                "n": int(x.n),
                **{k: num(getattr(x, k)) for k in ("min", "q1", "median", "q3", "max")},
                **({k: num(getattr(x, k)) for k in ("mean", "sd")} if q.deltas is not None else {}),
                **({"rank": q.groups.get(x.scope, {}).get(x.learner)} if q.groups is not None else {}),
            }
            for x in q.rows
        ],
        "deltas": None if q is None else q.deltas,
        "scott_knott": None if q is None else q.grouping,
        "folds": None
        if f is None
        else {
            "control": f.control,
            "rope": num(f.rope),
            "alpha": num(f.alpha),
            "sentences": list(f.sentences),
            "totals": _records(
                f.totals.reset_index()[["learner", "wins", "ties", "losses", "datasets", *BAYES]],
                ("learner",),
            ),
            "rows": _records(
                f.table.reset_index()[["dataset", "learner", "mark", "runs", "folds", *FOLD_NUMBERS]],
                ("dataset", "learner", "mark"),
            ),
            "notes": list(f.notes),
        },
        "curves": None if g is None else curves_dict(g, num),
        "ranks": None if r is None else {str(k): num(v) for k, v in r.average.items()},
        "rank_table": None
        if r is None
        else [
            {
                "dataset": str(d),
                "median": {str(k): num(v) for k, v in r.medians.loc[d].items()},
                "rank": {str(k): num(v) for k, v in r.ranks.loc[d].items()},
            }
            for d in r.medians.index
        ],
        "letters": None
        if lt is None
        else {"procedure": lt.procedure, "alpha": num(lt.alpha), "basis": lt.basis, "letters": dict(lt.letters)},
        "critical_difference": num(t.cd) if t is not None else num(c.cd) if c is not None else None,
        "verdict": None
        if t is None
        else {
            "outcome": t.outcome,
            "winners": list(t.winners),
            "losers": list(t.losers),
            "procedure": sel.procedure,
            "message": t.verdict,
        },
        "control": None
        if t is None
        else {
            "name": t.control,
            "test": sel.test,
            "rows": _records(t.control_table.reset_index(names="learner"), ("learner",)),
        },
        "pairs": None
        if p is None
        else {
            "test": sel.test,
            "bergmann": p.table.bergmann,
            "rows": _records(p.table[["a", "b", "z", "p", *PAIR_APVS]], ("a", "b")),
            "procedure": p.procedure,
            "two_sample": None if p.two_sample is None else two_sample_dict(p.two_sample, p.procedure),
            "effects": None if e is None else _records(e, ("a", "b", "a12_magnitude", "delta_magnitude")),
        },
        "cd": None
        if c is None
        else {
            "ranks": {str(k): num(v) for k, v in c.ranks.items()},
            "procedure": c.procedure,
            "basis": c.basis + (f"; {c.replaced}" if c.replaced else ""),
            "cliques": [list(x) for x in c.cliques],
        },
    }
    for name in ("friedman", "iman_davenport", "aligned", "quade"):
        if t is None:
            doc[name] = None
        else:
            row = t.omnibus.loc[name]
            doc[name] = {"statistic": num(row["statistic"]), "pvalue": num(row["pvalue"]), "df": _df(row["df"])}
    doc.update(extra_json(t, num))  # issue 16: tie-corrected Friedman, multiple sign test, win/loss/tie
    doc["problem"] = analysis.problem  # after the views were read: a view a limit of stats left empty says why
    keep = {*COMMON, *(k for v in views for k in VIEW_KEYS[v])}
    out = {k: doc[k] for k in SCHEMA["required"] if k in keep}
    if "quartiles" in views and doc["deltas"] is not None:  # only when asked for: earlier documents stay as they were
        out["deltas"] = doc["deltas"]
    return out


def render_json(analysis: Analysis, view: str = "all", *, source: str = "", ascii: bool = False) -> str:
    """The document as indented JSON (``allow_nan=False``: a non-finite number can never slip through),
    written by :func:`tui.render._json_text.dumps_indented` (``json.dumps``'s bytes, faster)."""
    doc = report_dict(analysis, view)
    if source:
        doc = {"source": source, **doc}
    return dumps_indented(doc) + "\n"
