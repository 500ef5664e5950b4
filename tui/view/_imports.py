"""The modules the analyses import, named so that the app can import them ahead of time.

``stats`` imports lazily (PEP 562): a module is imported when one of its names is first used.
In the app that moment is the first analysis, which comes right after the logs are read, on the
path to the first view: ``stats.scott_knott_ranking`` (the quartile view's group ranks) imports
``stats.effect_size``, which imports ``scipy.stats`` (0.5-0.8 s on the benchmark machine, most of
it scipy parsing its docstrings). The app imports these in a worker while the logs are read
(:meth:`tui.app.RankboardApp.import_statistics`), so that the first analysis finds them imported.

No Textual here, and nothing is imported when this module is: only the names.
"""

from __future__ import annotations

import importlib

#: What the first view (the quartile view of the default selection) imports beyond the readers:
#: its overall chart (``stats.quartile_charts``), the Kendall tau of each data set against it
#: (``stats.agreement``), its Scott-Knott ranks (``stats.scott_knott_ranking``, with
#: ``stats.effect_size`` and ``scipy.stats``) and pandas' ``unstack`` (``pandas.core.reshape``,
#: itself imported lazily by pandas). Listed first: the first view waits for them.
FIRST_VIEW = (
    "stats.quartile_charts",
    "stats.agreement",
    "stats.scott_knott_ranking",
    "pandas.core.reshape.reshape",
)
#: What the other views' statistics import (omnibus tests, post hoc procedures, adjustments):
#: imported after, as they are not needed before a key is pressed.
OTHER_VIEWS = ("stats.posthoc",)


def import_statistics() -> None:
    """Import :data:`FIRST_VIEW`, then :data:`OTHER_VIEWS` (for a thread: a module imported
    meanwhile by another thread is waited for, not imported twice; Python's import lock).

    A module missing here (pandas moves its internals) costs only the time it would have saved.
    """
    for name in (*FIRST_VIEW, *OTHER_VIEWS):
        try:
            importlib.import_module(name)
        except ImportError:  # pragma: no cover - a pandas without this module path
            if not name.startswith("pandas."):
                raise
