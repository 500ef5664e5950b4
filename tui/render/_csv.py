"""Export a view's raw numbers as CSV (full precision, never the formatted strings).

The columns of each view are its ``export`` (:mod:`tui.registry`), documented in the view's
``tui/views/<name>/export.py``. Cells a spreadsheet would evaluate are ``'``-prefixed
(``stats.core.names.spreadsheet_safe``) unless asked otherwise; files are written atomically and
never over an existing one unless asked.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pandas as pd

from stats.core.names import spreadsheet_safe
from tui import registry
from tui.atomic import write_text_atomic
from tui.model import BOUNDED, Analysis


def export_frame(analysis: Analysis, view: str) -> pd.DataFrame:
    """The raw numbers of ``view``: its ``export`` (:mod:`tui.registry`; the columns are in each
    view's ``tui/views/<name>/export.py``).

    Raises
    ------
    ValueError
        Unknown ``view``, or the view is empty (the analysis' ``problem`` says why).
    """
    declared = _declared(view)
    if analysis.part(view) is None:
        bounded = [note for note in analysis.notes if BOUNDED in note]  # logs bigger than memory
        why = analysis.problem or (bounded[0] if bounded else "it has no results")
        raise ValueError(f"nothing to export in the {view} view: {why}")
    return declared.ref("export")(analysis)


def filters_rows(view: str) -> bool:
    """Whether the ``/`` filter narrows the rows of ``view``'s export (:func:`as_shown`)."""
    declared = _declared(view)
    return bool(declared.filtered_by) or declared.shown is not None


def _declared(view: str) -> registry.View:
    try:
        return registry.view(view)
    except ValueError:
        raise ValueError(f"view must be one of {', '.join(map(repr, registry.names()))}; got {view!r}") from None


def as_shown(
    frame: pd.DataFrame,
    view: str,
    *,
    needle: str = "",
    datasets: list[str] | None = None,
    learners: list[str] | None = None,
) -> pd.DataFrame:
    """``frame`` (:func:`export_frame` of ``view``) as the view shows it: only the rows the ``/``
    filter ``needle`` keeps (case-insensitive, the views' rule: a row is kept when one of the view's
    ``filtered_by`` columns contains it), or as the view's own ``shown`` says (the ranks view: its
    data sets and learners in the order shown, ``datasets`` and ``learners``, the sort of ``<`` /
    ``>``). Summary rows (average ranks, letters; the folds' totals) stay, after the data sets.

    >>> f = pd.DataFrame({"dataset": ["iris", "wine", "average rank"], "a rank": [1, 2, 1.5], "b rank": [2, 1, 1.5]})
    >>> as_shown(f, "ranks", datasets=["wine", "iris"], learners=["b", "a"]).values.tolist()
    [['wine', 1.0, 2.0], ['iris', 2.0, 1.0], ['average rank', 1.5, 1.5]]
    >>> as_shown(f, "ranks", needle="IR")["dataset"].tolist()
    ['iris', 'average rank']
    """
    declared = _declared(view)
    needle = needle.casefold()
    if declared.shown is not None:
        out = declared.ref("shown")(frame, needle, datasets, learners)
    else:
        columns = [c for c in declared.filtered_by if c in frame.columns]
        out = frame
        if columns and needle:
            keep = pd.Series(False, index=frame.index)
            for c in columns:
                keep |= frame[c].astype(str).str.casefold().str.contains(needle, regex=False)
            out = frame[keep]
    return out.reset_index(drop=True)


def default_export_name(criterion: str, view: str, now: datetime | None = None) -> str:
    """``rankboard-<criterion>-<view>-<YYYYmmdd-HHMMSS>.csv``; the criterion keeps only [A-Za-z0-9._-].

    >>> default_export_name("pd/pf ratio", "ranks", datetime(2026, 1, 2, 3, 4, 5))
    'rankboard-pd_pf_ratio-ranks-20260102-030405.csv'
    """
    _declared(view)
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
