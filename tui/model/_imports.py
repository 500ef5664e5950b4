"""The modules the analyses import, named so that the app can import them ahead of time.

``stats`` imports lazily (PEP 562): a module is imported when one of its names is first used.
In the app that moment is the first analysis, which comes right after the logs are read, on the
path to the first view. So the app imports :data:`FIRST_VIEW` in a worker while the logs are read,
and :data:`OTHER_VIEWS` in a worker once the first view is shown
(:meth:`tui.app.RankboardApp.import_statistics`): the first analysis finds its modules imported,
and the reading and the first view do not share the two cores with imports they do not need
(``scipy.stats`` alone takes 0.5-0.9 s, most of it scipy building its distributions and parsing
their docstrings; ``scipy.special``, all the first view needs of scipy, 0.2-0.3 s).

No Textual here, and nothing is imported when this module is: only the names.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

#: What the first view (the quartile view of the default selection) imports beyond the readers:
#: the table ranked once for every view (``stats.ranking.ranks``), the overall chart
#: (``stats.charts.quartiles``), the Kendall tau of each data set against it (``stats.ranking.agreement``),
#: the Scott-Knott ranks (``stats.groupings.scott_knott``, with ``stats.twosample.effect_size`` and
#: ``scipy.special``), pandas' ``unstack`` (``pandas.core.reshape``, which pandas imports
#: lazily) and the scores table of a selection (``stats.cells._scores``: ``stats.cells`` imports
#: lazily too). No ``scipy.stats``.
FIRST_VIEW = (
    "stats.cells._scores",
    "stats.ranking.ranks",
    "stats.charts.quartiles",
    "stats.ranking.agreement",
    "stats.groupings.scott_knott",
    "pandas.core.reshape.reshape",
)
#: What the other views' statistics import: the omnibus tests, post hoc procedures and
#: adjustments (``stats.posthoc.ztests``), and ``scipy.stats``, which the ranks, tests, pairs and
#: folds views no longer need (issue 32: their distributions come from ``scipy.special``) but for
#: the tests view's parametric notice (Shapiro-Wilk, D'Agostino-Pearson, Levene: only scipy.stats
#: has them), Nemenyi's q outside its table (stats.ranking._nemenyi_q) and the curves view.
OTHER_VIEWS = ("stats.posthoc.ztests", "scipy.stats")


def import_modules(names: Iterable[str]) -> None:
    """Import ``names`` in order (for a thread: a module being imported by another thread is
    waited for, not imported twice: Python's import lock).

    A pandas module missing here (pandas moves its internals) costs only the time it would have saved.
    """
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:  # pragma: no cover - a pandas without this module path
            if not name.startswith("pandas."):
                raise
