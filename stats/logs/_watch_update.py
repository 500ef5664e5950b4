"""What one poll of a :class:`~stats.logs._watch.LogWatcher` returns (:class:`WatchUpdate`), and
the helpers that make its rows: locations packed, keys checked distinct, the wide columns filled
in, the rows made a frame, problems put in file and line order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats.core import pack_location
from stats.logs._duplicates import KEY
from stats.logs._formats import LogProblem
from stats.logs._frame import Labels
from stats.logs._index import Consecutive, Locations
from stats.logs._read import to_frame


@dataclass(frozen=True)
class WatchUpdate:
    """What one :meth:`LogWatcher.poll` found.

    Attributes
    ----------
    rows : pandas.DataFrame
        The new rows, in the schema of :func:`stats.read_logs` plus ``file`` (category: the file
        the row came from) and ``line``, duplicates among them resolved. To hold a large poll in
        little memory the integer columns are as narrow as their numbers (``repeat`` and ``fold``
        int8 .. int64, ``line`` int32 or int64), not int64 as in :func:`stats.read_logs`.
    problems : tuple of LogProblem
        New problems (errors, warnings), in file and line order (a tuple, as
        :class:`stats.LogRead`'s ``problems``).
    added : list of str
        Files seen for the first time.
    reloaded : list of str
        Files that shrank or were replaced (another inode): read again from the start. Drop your
        earlier rows of these files; ``rows`` holds their rows now.
    removed : list of str
        Files that disappeared, or that are still listed but can no longer be read (no longer a
        regular file, or unreadable: see ``reasons``): drop your rows of these files.
    superseded : list of (str, int)
        ``(file, line)`` of earlier rows that a new row replaces (same dataset, repeat, fold,
        learner and criterion: the later line wins), in file and line order. Drop them.
    resolved : list of LogProblem
        Problems of whole paths reported by an earlier poll that hold no more (the directory
        has ``*.dat`` files again, the file is back, a file not read -- not a regular file, or
        unreadable -- is read now or is gone), and standing problems taken back (see
        :class:`~stats.logs._watch.LogWatcher`'s ``standing``): take them off your list.
    reasons : dict of str to str
        Why each file of ``reloaded`` was read again: ``"replaced"`` (another inode: renamed
        over, rotated), ``"emptied"``, ``"truncated"`` or ``"rewritten"`` (in place; or a gzip or
        columnar file that changed). And why each file of ``removed`` that is still listed was
        dropped: ``"not regular"`` (a FIFO, a device, a socket or a directory now, or a symbolic
        link to nothing) or ``"unreadable"`` (permission denied, an I/O error); its problem is in
        ``problems``. A file of ``removed`` without a reason is gone (deleted or moved).
    """

    rows: pd.DataFrame
    problems: tuple[LogProblem, ...] = ()
    added: list[str] = field(default_factory=list)
    reloaded: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    superseded: list[tuple[str, int]] = field(default_factory=list)
    resolved: list[LogProblem] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        """Whether anything (rows, problems, files) changed."""
        return bool(
            len(self.rows)
            or self.problems
            or self.added
            or self.reloaded
            or self.removed
            or self.superseded
            or self.resolved
        )


WIDE = ("goal", "train", "train_na", "test", "test_na")
_MISSING = {"goal": -1, "train_na": True, "test_na": True}


def pack_locations(file: np.ndarray, line: np.ndarray) -> Locations:
    """:func:`stats.core._keys.pack_location` of narrow columns: a :class:`Consecutive` when the rows
    are consecutive lines of one file (no array), else packed a chunk at a time (no int64 copies
    of the whole columns)."""
    n = len(file)
    if n and int(line[-1]) - int(line[0]) == n - 1:
        first = file[0]
        same = all((file[s : s + _CHUNK] == first).all() for s in range(0, n, _CHUNK))
        rising = all(
            (np.diff(line[s : s + _CHUNK + 1]) > 0).all() for s in range(0, n, _CHUNK)
        )  # ends n - 1 apart: consecutive iff rising
        if same and rising:
            return Consecutive(int(pack_location(file[:1], line[:1])[0]), n)
    out = np.empty(n, np.int64)
    for s in range(0, len(file), _CHUNK):
        out[s : s + _CHUNK] = pack_location(file[s : s + _CHUNK], line[s : s + _CHUNK])
    return out


_CHUNK = 1 << 20


def distinct(keys: np.ndarray, fits: np.ndarray, columns: dict[str, np.ndarray]) -> bool:
    """Whether the rows' keys are distinct (packed keys sorted, or seen to increase; the keys that
    do not pack compared with pandas)."""
    packed = keys[fits] if not fits.all() else keys
    if len(packed) > 1 and not (packed[1:] > packed[:-1]).all():  # the loop of Menzies' notes writes them increasing
        ordered = np.sort(packed)
        if (ordered[1:] == ordered[:-1]).any():
            return False
    if fits.all():
        return True
    odd = pd.MultiIndex.from_arrays([np.asarray(columns[k])[~fits] for k in KEY])
    return not odd.has_duplicates


def widen(batch: dict[str, np.ndarray], key: str) -> np.ndarray:
    """A batch's column; a long-only batch gets the wide metadata columns as missing."""
    if key in batch:
        return batch[key]
    n = len(batch["file"])
    return np.full(n, _MISSING.get(key, 0), np.bool_ if key.endswith("_na") else np.int64)


def rows_frame(rows: dict[str, np.ndarray], labels: Labels, names: list[str], *, wide: bool) -> pd.DataFrame:
    """A poll's rows as a frame: the schema of :func:`stats.read_logs` (with the wide columns when
    ``wide``), then ``file`` (a category of the file ``names``) and ``line``."""
    columns = {k: widen(rows, k) for k in [*KEY, "value", *(WIDE if wide else ()), "file", "line"]}
    names_index = pd.Index(names, dtype="str")
    files = pd.Categorical.from_codes(columns["file"], categories=names_index, validate=False)
    labeled = {k: v for k, v in columns.items() if k not in ("file", "line")}
    return to_frame(labels, labeled, narrow=True, more={"file": files, "line": columns["line"]})


def in_file_order(problems: list[LogProblem], names: list[str]) -> list[LogProblem]:
    rank = {name: i for i, name in enumerate(names)}
    return sorted(problems, key=lambda p: (rank.get(p.file, -1), p.line or 0))
