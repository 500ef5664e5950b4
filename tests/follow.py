"""A consumer of a LogWatcher's updates that keeps every row (the watcher keeps none): what
``LogWatcher.frame()`` gave before the rows had one owner, built from the updates alone.

It checks the updates' contract: the rows handed on, less the rows of the files reloaded or
removed and the rows superseded, are the log as ``stats.read_logs`` reads it now.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from stats import LogError, LogWatcher, WatchUpdate

KEY = ["dataset", "repeat", "fold", "learner", "criterion"]


class Follow:
    """``Follow(paths)`` is a ``LogWatcher(paths)`` whose updates are applied as they come:
    ``poll()`` polls and applies; ``frame()`` is every row held, in (file first seen, line) order,
    labels as strings, with ``file`` and ``line``. Other attributes are the watcher's.
    """

    def __init__(self, paths: Any, **options: Any) -> None:
        self.watcher = LogWatcher(paths, **options)
        self.rows = pd.DataFrame()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.watcher, name)

    def frame(self) -> pd.DataFrame:
        return self.rows

    def poll(self, **options: Any) -> WatchUpdate:
        try:
            update = self.watcher.poll(**options)
        except LogError as error:
            if error.update is not None:
                self.apply(error.update)
            raise
        self.apply(update)
        return update

    def apply(self, update: WatchUpdate) -> None:
        frame = self.rows
        rows = update.rows.copy()
        for name in rows.columns:
            if isinstance(rows[name].dtype, pd.CategoricalDtype):
                rows[name] = rows[name].astype(str)
        if len(frame):
            gone = frame["file"].isin([*update.reloaded, *update.removed])
            # A superseded row is at its (file, line) and has the key of a new row (a wide line
            # has several rows, one per criterion: only the one with that key is replaced).
            at = pd.MultiIndex.from_frame(frame[["file", "line"]]).isin(update.superseded)
            replaced = at & pd.MultiIndex.from_frame(frame[KEY]).isin(pd.MultiIndex.from_frame(rows[KEY]))
            assert replaced.sum() == len(update.superseded), "a superseded row is not held"
            frame = frame[~(gone | replaced)]
        frame = pd.concat([frame, rows], ignore_index=True) if len(frame) else rows.reset_index(drop=True)
        rank = frame["file"].map({name: i for i, name in enumerate(self.watcher._names)})
        frame = frame.assign(_rank=rank).sort_values(["_rank", "line"], kind="stable").drop(columns="_rank")
        self.rows = frame.reset_index(drop=True)


def held(watcher: LogWatcher | Follow) -> tuple[list[int], list[int], dict[str, list[int]]]:
    """What a watcher's key index holds (keys and locations), comparable with ``==``."""
    inner = watcher.watcher if isinstance(watcher, Follow) else watcher
    keys, locs, odd = inner._held.items()
    return keys.tolist(), locs.tolist(), {name: v.tolist() for name, v in odd.items()}
