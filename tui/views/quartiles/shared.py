"""What the quartiles view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

import math
import weakref

from stats import Quartiles
from tui.formats.text import value_decimals
from tui.model import GROUPING_NAMES, QuartileRow, QuartilesView

#: chart_decimals per view (by identity: frozen, eq=False), held weakly: a view holds its model's
#: results (its Scott-Knott ranks are computed from them), which a cache must not keep alive.
_DECIMALS: weakref.WeakKeyDictionary[QuartilesView, int] = weakref.WeakKeyDictionary()


def chart_decimals(view: QuartilesView) -> int:
    """Decimals of the quartile numbers: :func:`value_decimals` of the chart's axis and of the
    least non-zero magnitude charted (one rule for the whole criterion, every chart alike).
    Cached per view: asked once per part drawn."""
    decimals = _DECIMALS.get(view)
    if decimals is None:
        values = [abs(v) for r in view.rows for v in (r.min, r.q1, r.median, r.q3, r.max) if v == v and v != 0]
        decimals = _DECIMALS[view] = value_decimals(max(abs(view.lo), abs(view.hi)), min(values, default=None))
    return decimals


#: Each view's rows by scope (weakly, as :data:`_DECIMALS`): a pass over every row for each chart
#: was quadratic (100,000 data sets: 100,000 passes over 300,000 rows).
_BY_SCOPE: weakref.WeakKeyDictionary[QuartilesView, dict[str, list[QuartileRow]]] = weakref.WeakKeyDictionary()


def scope_rows(view: QuartilesView, scope: str) -> list[QuartileRow]:
    """The rows of the chart of ``scope``, in the view's order."""
    by_scope = _BY_SCOPE.get(view)
    if by_scope is None:
        by_scope = {}
        for r in view.rows:
            by_scope.setdefault(r.scope, []).append(r)
        _BY_SCOPE[view] = by_scope
    return list(by_scope.get(scope, ()))


def sk_rank(view: QuartilesView, scope: str, learner: str) -> int | None:
    """The Scott-Knott group rank of ``learner`` in the chart of ``scope`` (None: no ranks, or none
    computable there)."""
    return None if view.groups is None else view.groups.get(scope, {}).get(learner)


def sk_legend(view: QuartilesView) -> str | None:
    """What the rank column holds, in words; None for charts without ranks (deltas)."""
    if view.groups is None or view.grouping is None:
        return None
    return f"rank: {GROUPING_NAMES[view.grouping]} group of the charted values (1 = best)"


#: The pooled chart's scope (:mod:`tui.model`'s first chart of values).
OVERALL = "overall"
#: Why the overall chart's Scott-Knott groups can differ from the tests' verdict: the overall chart
#: pools the results (every repeat and fold) of every data set into one sample per learner, while
#: the Friedman-type tests and their post-hoc procedures rank the learners within each data set and
#: compare the average ranks (Demsar 2006; Garcia & Herrera 2008).
OVERALL_NOTE = (
    "overall pools every fold of every data set: its groups compare the pooled values, "
    "not the per-data-set ranks the tests use"
)


def overall_note(view: QuartilesView, scope: str = OVERALL) -> str | None:
    """:data:`OVERALL_NOTE` for the overall chart of a view with Scott-Knott ranks; None for any
    other chart and for the charts of deltas (no ranks)."""
    return OVERALL_NOTE if scope == OVERALL and sk_legend(view) is not None and OVERALL in view.scopes else None


def _quartiles(r: QuartileRow) -> Quartiles:
    # the chart of Menzies' notes on comparing learners prints min, q1, median, q3, max only: without
    # a mean and sd (rows of raw values), they are placeholders; the rows of deltas carry both (the
    # chart of Menzies' lecture notes prints them)
    if math.isnan(r.mean):
        return Quartiles(r.n, r.min, r.q1, r.median, r.q3, r.max, r.median, 0.0)
    return Quartiles(r.n, r.min, r.q1, r.median, r.q3, r.max, r.mean, r.sd)


def deltas_title(view: QuartilesView) -> str:
    """What a chart of deltas shows, in words (positive is always better than the control)."""
    sign = "learner - control" if view.higher_is_better else "control - learner"
    return f"deltas against {view.deltas}: {sign} on the same (repeat, fold), positive = better"
