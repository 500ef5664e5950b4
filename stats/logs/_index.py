"""The watcher's key index: for each result passed on and not replaced, where it came from.

:class:`stats.LogWatcher` hands each poll's new rows on (``WatchUpdate.rows``) and keeps none of
them; to say which earlier row a new one replaces (``WatchUpdate.superseded``) it keeps, per row
passed on, its key (dataset, repeat, fold, learner, criterion) and its location (file, line):
16 bytes a row, in :class:`KeyIndex`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from stats.core import location_file
from stats.logs._duplicates import KEY


class KeyIndex:
    """Key -> location (:func:`stats.core._keys.pack_location`) of the rows held, each key once.

    Keys that pack (:func:`stats.core._keys.pack_row`: every row of a sane log) are kept as sorted
    runs of (key, location) pairs, each run under half the size of the one before, so there are
    O(log n) runs and a look-up costs O(log n) binary searches; a new run is merged into the
    last ones when it outgrows half of one (merging two sorted runs: linear). Keys that do not
    pack (negative repeats, 2**16 data sets and more, ...) are kept apart as columns and found
    with pandas: slower, and only as many as there are such rows.

    Whether a key packs depends on the key alone, so the two parts never hold the same key.

    A run whose locations are consecutive (``loc, loc + 1, ...``: a file written in key order,
    as the loop of Menzies' notes writes it, read in one poll) keeps them as a :class:`Consecutive` (its
    first location and length) instead of an array: 8 bytes a row instead of 16. It becomes an
    array when a location in it changes or it is merged with another run.
    """

    def __init__(self) -> None:
        self._runs: list[tuple[np.ndarray, Locations]] = []  # (uint64 keys, sorted; int64 locations)
        self._odd: dict[str, np.ndarray] = {name: np.empty(0, np.int64) for name in (*KEY, "loc")}

    def __len__(self) -> int:
        return sum(len(keys) for keys, _ in self._runs) + len(self._odd["loc"])

    @property
    def runs(self) -> int:
        """How many sorted runs hold the keys that pack."""
        return len(self._runs)

    @property
    def odd(self) -> int:
        """How many keys held do not pack."""
        return len(self._odd["loc"])

    def items(self) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Everything held, for tests and comparisons: the packed keys and their locations (in key
        order), and the keys that do not pack as columns with their locations (``loc``)."""
        keys = np.concatenate([k for k, _ in self._runs]) if self._runs else np.empty(0, np.uint64)
        locs = np.concatenate([as_array(v) for _, v in self._runs]) if self._runs else np.empty(0, np.int64)
        order = np.argsort(keys, kind="stable")
        return keys[order], locs[order], {name: v.copy() for name, v in self._odd.items()}

    def find(self, keys: np.ndarray, fits: np.ndarray, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """The location of the row held with each row's key, or -1.

        ``keys`` and ``fits`` are :func:`stats.core._keys.pack_row`'s; ``columns`` the rows' key columns
        (read for the rows whose keys do not pack).
        """
        out = np.full(len(keys), -1, np.int64)
        if fits.any() and self._runs:
            packed = keys[fits] if not fits.all() else keys
            found = np.full(len(packed), -1, np.int64)
            for run, locs in self._runs:
                at, hit = _search(run, packed)
                found[hit] = locs[at[hit]]
            out[fits] = found
        odd = ~fits
        if odd.any() and self.odd:
            at = self._odd_positions({name: np.asarray(columns[name])[odd] for name in KEY})
            out[odd] = np.where(at >= 0, self._odd["loc"][at], -1)
        return out

    def put(self, keys: np.ndarray, fits: np.ndarray, columns: Mapping[str, np.ndarray], locs: Locations) -> None:
        """Hold these rows (their keys distinct): a key held already moves to the row's location."""
        if fits.any():
            packed, where = (keys, locs) if fits.all() else (keys[fits], locs[fits])
            fresh = np.ones(len(packed), bool)
            for i, (run, run_locs) in enumerate(self._runs):
                at, hit = _search(run, packed)
                if hit.any():
                    if isinstance(run_locs, Consecutive):  # a location changes: an array from now on
                        run_locs = as_array(run_locs)
                        self._runs[i] = (run, run_locs)
                    run_locs[at[hit]] = where[hit]
                fresh &= ~hit
            if not fresh.all():  # all new (a first poll): the arrays are held as they are, no copy
                packed, where = packed[fresh], where[fresh]
            self._add_run(packed, where)
        odd = ~fits
        if odd.any():
            rows = {name: np.asarray(columns[name])[odd].astype(np.int64) for name in KEY}
            where = locs[odd]
            at = self._odd_positions(rows)
            self._odd["loc"][at[at >= 0]] = where[at >= 0]
            fresh = at < 0
            for name in KEY:
                self._odd[name] = np.concatenate([self._odd[name], rows[name][fresh]])
            self._odd["loc"] = np.concatenate([self._odd["loc"], where[fresh]])

    def drop_files(self, files: list[int]) -> None:
        """Forget the rows of these files (a pass over every location held)."""
        if not files or not len(self):
            return
        gone = np.array(files, np.int64)
        runs, self._runs = self._runs, []
        for keys, locs in runs:
            if isinstance(locs, Consecutive):  # in one file: a line has 39 bits, never overflows into the file's
                keep = np.full(len(keys), not np.isin(location_file(np.array([locs.start])), gone)[0])
            else:
                keep = ~np.isin(location_file(locs), gone)
            if keep.all():
                self._push(keys, locs)
            elif keep.any():
                self._push(keys[keep], as_array(locs)[keep])  # still sorted: merged as runs are
        keep = ~np.isin(location_file(self._odd["loc"]), gone)
        self._odd = {name: v[keep] for name, v in self._odd.items()}

    def _add_run(self, keys: np.ndarray, locs: Locations) -> None:
        if not len(keys):
            return
        if len(keys) > 1 and not (keys[1:] > keys[:-1]).all():  # the loop of Menzies' notes writes them in order
            order = np.argsort(keys, kind="stable")
            keys, locs = keys[order], locs[order]
        self._push(keys, locs)

    def _push(self, keys: np.ndarray, locs: Locations) -> None:
        """Add a sorted run; merge the last runs while one is not under half the one before."""
        runs = self._runs
        runs.append((keys, Consecutive.of(locs)))
        while len(runs) > 1 and 2 * len(runs[-1][0]) >= len(runs[-2][0]):
            (k2, l2), (k1, l1) = runs.pop(), runs.pop()
            keys, locs = np.concatenate([k1, k2]), np.concatenate([as_array(l1), as_array(l2)])
            order = np.argsort(keys, kind="stable")  # two sorted runs: timsort merges them
            runs.append((keys[order], locs[order]))

    def _odd_positions(self, rows: Mapping[str, np.ndarray]) -> np.ndarray:
        """Position in the odd part of each row's key, or -1."""
        if not self.odd:
            return np.full(len(rows[KEY[0]]), -1, np.int64)
        held = pd.MultiIndex.from_arrays([self._odd[name] for name in KEY])
        want = pd.MultiIndex.from_arrays([np.asarray(rows[name], np.int64) for name in KEY])
        return np.asarray(held.get_indexer(want), np.int64)


class Consecutive:
    """The locations ``start, start + 1, ..., start + size - 1`` of a run, without an array:
    what :meth:`KeyIndex.find` reads of a run's locations (``locs[at]``), and its length."""

    __slots__ = ("size", "start")

    def __init__(self, start: int, size: int) -> None:
        self.start, self.size = start, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, at: np.ndarray) -> np.ndarray:
        at = np.asarray(at)
        return (np.flatnonzero(at) if at.dtype == np.bool_ else at.astype(np.int64)) + self.start

    @staticmethod
    def of(locs: Locations) -> Locations:
        """``locs`` as a :class:`Consecutive` when they are consecutive (checked a chunk at a
        time), else as they are."""
        if isinstance(locs, Consecutive) or len(locs) < _CONSECUTIVE_MIN:
            return locs
        start = int(locs[0])
        if int(locs[-1]) - start != len(locs) - 1:
            return locs
        for s in range(0, len(locs), _CHUNK):  # ends differ by size - 1: consecutive iff increasing
            part = locs[s : s + _CHUNK + 1]
            if not (part[1:] > part[:-1]).all():
                return locs
        return Consecutive(start, len(locs))


Locations = np.ndarray | Consecutive
_CHUNK = 1 << 20
_CONSECUTIVE_MIN = 1 << 10  # shorter runs are kept as arrays: too small to matter


def as_array(locs: Locations) -> np.ndarray:
    """A run's locations as an int64 array."""
    if isinstance(locs, Consecutive):
        return np.arange(locs.start, locs.start + locs.size, dtype=np.int64)
    return locs


def _search(run: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each key would be in the sorted ``run``, and whether it is there."""
    at = np.searchsorted(run, keys)
    np.minimum(at, len(run) - 1, out=at)
    return at, run[at] == keys
