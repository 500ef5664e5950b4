"""Export a view's raw numbers as CSV (full precision, never the formatted strings).

Columns per view (:func:`export_frame`):

``quartiles``
    criterion, scope, learner, n, min, q1, median, q3, max (rows in view order).
``ranks``
    dataset, then per learner ``<learner> median`` and ``<learner> rank``; a
    last row with dataset = "average rank", the average ranks in the rank
    columns and empty (NaN) medians.
``tests``
    one row per hypothesis "control vs learner": learner, z, p,
    bonferroni, holm, hochberg, hommel, holland, rom, finner, li (the APVs of
    ``stats.control_test``).
``pairs``
    one row per pair: a, b, z, p, nemenyi, holm, shaffer, bergmann.
``cd``
    learner, average_rank (best first), then one boolean column
    ``clique <i>`` (i = 1, 2, ...) per maximal clique, True for its members.
"""

from __future__ import annotations

import os
import re
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tui.viewtypes import Analysis

VIEWS = ("quartiles", "ranks", "tests", "pairs", "cd")


def _check_view(view: str) -> None:
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(map(repr, VIEWS))}; got {view!r}")


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
        why = analysis.problem or "it has no results"
        raise ValueError(f"nothing to export in the {view} view: {why}")
    if view == "quartiles":
        rows = [(part.criterion, r.scope, r.learner, r.n, r.min, r.q1, r.median, r.q3, r.max) for r in part.rows]
        cols = ["criterion", "scope", "learner", "n", "min", "q1", "median", "q3", "max"]
        return pd.DataFrame(rows, columns=cols).astype({"n": np.int64})
    if view == "ranks":
        out: dict[str, list[Any]] = {"dataset": [*map(str, part.medians.index), "average rank"]}
        for name in part.medians.columns:
            out[f"{name} median"] = [*part.medians[name].to_numpy(np.float64), np.nan]
            out[f"{name} rank"] = [*part.ranks[name].to_numpy(np.float64), float(part.average[name])]
        return pd.DataFrame(out)
    if view == "tests":
        table = part.control_table
        frame = table.reset_index(names="learner")
        frame["learner"] = frame["learner"].astype(str)
        return frame
    if view == "pairs":
        cols = ["a", "b", "z", "p", "nemenyi", "holm", "shaffer", "bergmann"]
        return part.table[cols].reset_index(drop=True)
    frame = pd.DataFrame(
        {"learner": [str(x) for x in part.ranks.index], "average_rank": part.ranks.to_numpy(np.float64)}
    )
    for i, clique in enumerate(part.cliques, start=1):
        frame[f"clique {i}"] = frame["learner"].isin(clique)
    return frame


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


def write_csv(frame: pd.DataFrame, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``frame`` as CSV atomically and return the absolute path.

    The CSV goes to a temporary file in the target's directory (flushed and
    fsynced), which then takes the target's name in one step: ``os.replace``
    when ``overwrite``, else a hard link that fails if the name exists (so a
    file created meanwhile is never clobbered). A reader never sees a partial
    file and no temporary file is left behind, whatever happens.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is False.
    """
    target = Path(path).expanduser().absolute()
    if not overwrite and target.exists():
        raise FileExistsError(f"{target} exists; choose another name or allow overwriting")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            frame.to_csv(handle, index=False, lineterminator="\n", float_format=None)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise FileExistsError(f"{target} exists; choose another name or allow overwriting") from None
            except OSError:  # no hard links on this file system: check, then rename
                if target.exists():
                    raise FileExistsError(f"{target} exists; choose another name or allow overwriting") from None
                os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
