"""Duplicate results of a log: which rows a later row replaces, and one warning per run of them.

A result is keyed by (dataset, repeat, fold, learner, criterion); when a key appears twice, the
later row wins (it is the rerun). The five key columns are packed into one integer per row
(mixed radix, :func:`stats.core._keys.pack_radix`), a chunk of rows at a time. Keys that only
increase (the loop of Menzies' notes writes them so) have no duplicates, and that is checked first, without
sorting. Otherwise each row's previous occurrence is found chunk by chunk against a table of the
last row seen per key, so the work space is one chunk plus that table whatever the number of
duplicates: 20 million copies of one line cost no more memory than 20 million distinct lines
(issue 13, item 5).

Two files whose keys coincide because they are two studies, not a rerun -- a sequence study of
Menzies' lecture notes (:func:`stats.run_sequence`: ``fold`` = the test bucket I = 2..N, with
``train`` lines) and a cross-validation of the same data set (folds 1..N) -- get one warning for
the pair of files that says so, not one per run of lines (opening ``sample_logs/`` whole gave 100).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from stats.core import pack_radix, radix_dtype, radix_space
from stats.core.criteria import is_bookkeeping
from stats.core.import_ahead import wait
from stats.logs._formats import LogProblem

KEY = ("dataset", "repeat", "fold", "learner", "criterion")
LABELS = ("dataset", "learner", "criterion", "goal")
#: Rows per chunk: the work space of the search is a few arrays of this length (about 50 MB).
CHUNK = 1 << 19

Locate = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
Pairs = tuple[np.ndarray, np.ndarray]


def duplicate_chunks(
    columns: dict[str, np.ndarray], locate: Locate | None = None, chunk: int | None = None
) -> Iterator[Pairs]:
    """(earlier, later) rows with the same key, a chunk of later rows at a time, sorted by later row:
    each later row is paired with the previous row of its key.

    With ``locate`` (rows -> file index, line), a chunk never ends inside a line (a wide line's
    rows, one per criterion, come in the same chunk). ``chunk``: rows per chunk (:data:`CHUNK`).

    >>> cols = {k: np.array(v) for k, v in zip(KEY, ([0, 0, 0], [1, 1, 1], [1, 2, 1], [0, 0, 0], [0, 0, 0]))}
    >>> [(e.tolist(), later.tolist()) for e, later in duplicate_chunks(cols)]
    [([0], [2])]
    """
    n = len(columns[KEY[0]])
    if n < 2:
        return
    key, space = _keys(columns, n)
    bounds = _bounds(n, chunk or CHUNK, locate)
    if _increasing(key, bounds):
        return
    if space > max(4 * n, 1 << 20):  # a sparse key space: number the keys that occur instead
        codes = wait("pandas").factorize(key(0, n))[0]
        space = int(codes.max()) + 1

        def key(s: int, e: int) -> np.ndarray:
            return codes[s:e]

    dtype = np.int32 if n < 2**31 else np.int64
    last = np.empty(space, dtype)
    if not _any_repeated(key, bounds, last):
        return
    last.fill(-1)
    for s, e in bounds:
        k = key(s, e)
        order = np.argsort(k, kind="stable")
        ks = k[order]
        rows = (order + s).astype(dtype)
        new = np.empty(len(ks), bool)
        new[:1] = True
        np.not_equal(ks[1:], ks[:-1], out=new[1:])
        prev_sorted = np.empty_like(rows)
        prev_sorted[1:] = rows[:-1]
        prev_sorted[new] = last[ks[new]]
        ends = np.empty_like(new)
        ends[:-1] = new[1:]
        ends[-1:] = True
        last[ks[ends]] = rows[ends]
        prev = np.empty_like(rows)
        prev[order] = prev_sorted
        later = np.flatnonzero(prev >= 0)
        if len(later):
            yield prev[later].astype(np.int64), later + s


def _keys(columns: dict[str, np.ndarray], n: int) -> tuple[Callable[[int, int], np.ndarray], int]:
    """A function giving the packed keys of rows ``s:e`` (:func:`stats.core._keys.pack_radix`), and the
    size of the key space."""
    lows, spans = [], []
    for k in KEY:
        low, high = (0, int(columns[k].max())) if k in LABELS else (int(columns[k].min()), int(columns[k].max()))
        lows.append(low)
        spans.append(high - low + 1)
    space = radix_space(spans)
    dtype = radix_dtype(space)
    if dtype is None:  # pragma: no cover - needs absurd repeat or fold numbers
        frame = wait("pandas").DataFrame({k: columns[k] for k in KEY})
        codes = frame.groupby(list(KEY), sort=False).ngroup().to_numpy()
        return (lambda s, e: codes[s:e]), int(codes.max()) + 1
    arrays = [columns[k] for k in KEY]

    def packed(s: int, e: int) -> np.ndarray:
        return pack_radix(arrays, lows, spans, dtype, s, e)

    return packed, space


def _bounds(n: int, chunk: int, locate: Locate | None) -> list[tuple[int, int]]:
    """Chunks of rows ``[s, e)``; with ``locate``, each end moved forward to a line's start."""
    cuts = [0]
    for b in range(chunk, n, chunk):
        if b <= cuts[-1]:
            continue
        if locate is not None:
            while b < n:
                rows = np.arange(b - 1, min(b + 255, n))
                f, line = locate(rows)
                other = np.flatnonzero((f[1:] != f[0]) | (line[1:] != line[0]))
                if len(other):
                    b = int(rows[other[0] + 1])
                    break
                b = int(rows[-1]) + 1
        if b < n:
            cuts.append(b)
    return list(zip(cuts, [*cuts[1:], n]))


def _increasing(key: Callable[[int, int], np.ndarray], bounds: list[tuple[int, int]]) -> bool:
    previous = None
    for s, e in bounds:
        k = key(s, e)
        if (previous is not None and k[0] <= previous) or (k[1:] <= k[:-1]).any():
            return False
        previous = k[-1]
    return True


def _any_repeated(key: Callable[[int, int], np.ndarray], bounds: list[tuple[int, int]], last: np.ndarray) -> bool:
    """Whether a key occurs twice: row numbers scattered by key, then read back (no sort)."""
    for s, e in bounds:
        last[key(s, e)] = np.arange(s, e)
    return any((last[key(s, e)] != np.arange(s, e)).any() for s, e in bounds)


class DuplicateReport:
    """Warnings for duplicated rows, fed a chunk of (earlier, later) pairs at a time.

    One warning per duplicated line, or per run of consecutive lines repeating consecutive
    lines (``lines 2-9 repeat the results of lines 1-8``); a wide line repeats all its criteria
    at once (one pair of lines, several rows). Chunks must not split a line (see
    :func:`duplicate_chunks`' ``locate``).

    ``sequences``: the indices of the files that hold a sequence study (``train`` lines), asked
    once, when two files first share a key. Lines of one file repeating another's where exactly
    one of the two is a sequence study are counted, and said in one warning per pair of files
    (:func:`study_clash`), at the first such line.
    """

    def __init__(
        self,
        describe: Callable[[int, int], str],
        locate: Locate,
        files: list[str],
        sequences: Callable[[], frozenset[int]] | None = None,
    ) -> None:
        self._describe, self._locate, self._files = describe, locate, files
        self._sequences = sequences
        self._known: frozenset[int] | None = None
        # The run being built: [file, first line, earlier file, first earlier line, last line, last earlier line]
        self._run: list[int] | None = None
        self._single = ""  # the words of a run of one pair
        self._clashes: dict[tuple[int, int], list[int]] = {}  # (file, earlier file) -> [first line, lines]
        self.problems: list[LogProblem] = []

    def add(self, earlier: np.ndarray, later: np.ndarray) -> None:
        ef, el = self._locate(earlier)
        lf, ll = self._locate(later)
        both = np.column_stack([lf, ll, ef, el])
        if ((lf[1:] == lf[:-1]) & (ll[1:] == ll[:-1])).any():  # wide lines: several rows a line
            pairs, first, count = np.unique(both, axis=0, return_index=True, return_counts=True)
        else:  # one row a line, in line order: every pair is distinct already
            pairs, first, count = both, np.arange(len(both)), np.ones(len(both), np.int64)
        # A run continues while the file stays and both lines step by one.
        step = np.diff(pairs, axis=0)
        breaks = np.flatnonzero(~((step[:, 0] == 0) & (step[:, 2] == 0) & (step[:, 1] == 1) & (step[:, 3] == 1))) + 1
        starts = np.r_[0, breaks]
        stops = np.r_[breaks, len(pairs)] - 1
        for start, stop in zip(starts.tolist(), stops.tolist()):
            f, l1, g, e1 = pairs[start].tolist()
            l2, e2 = int(pairs[stop, 1]), int(pairs[stop, 3])
            run = self._run
            if run is not None and (f, g) == (run[0], run[2]) and l1 == run[4] + 1 and e1 == run[5] + 1:
                run[4], run[5] = l2, e2
                continue
            self._flush()
            self._run = [f, l1, g, e1, l2, e2]
            self._single = self._describe(int(later[first[start]]), int(count[start])) if start == stop else ""

    def _is_sequence(self, f: int) -> bool:
        if self._known is None:
            self._known = self._sequences() if self._sequences is not None else frozenset()
        return f in self._known

    def _flush(self) -> None:
        if self._run is None:
            return
        f, l1, g, e1, l2, e2 = self._run
        if f != g and self._is_sequence(f) != self._is_sequence(g):
            clash = self._clashes.setdefault((f, g), [l1, 0])
            clash[0], clash[1] = min(clash[0], l1), clash[1] + l2 - l1 + 1
            self._run = None
            return
        where = "" if f == g else f"{self._files[g]}:"
        if l1 == l2:
            reason = f"duplicate of {where or 'line '}{e1} ({self._single}): the later line wins"
        else:
            reason = f"lines {l1}-{l2} repeat the results of {where or 'lines '}{e1}-{e2}: the later lines win"
        self.problems.append(LogProblem(self._files[f], l1, reason, "warning"))
        self._run = None

    def finish(self) -> list[LogProblem]:
        self._flush()
        for (f, g), (first, lines) in self._clashes.items():
            reason = study_clash(lines, self._is_sequence(f), self._files[g])
            self.problems.append(LogProblem(self._files[f], first, reason, "warning"))
        self._clashes = {}
        return self.problems


def study_clash(lines: int, sequence: bool, other: str) -> str:
    """Why ``lines`` lines of a file repeat keys of the file ``other`` when one of the two is a
    sequence study (``sequence``: this file is) and the other is not: two studies, not a rerun.

    >>> study_clash(2, True, "cv/a.dat").split(" have ")[0]
    "2 lines of this sequence study (stats.run_sequence, with its 'train' lines; fold = the test bucket)"
    >>> study_clash(1, False, "seq/a.dat").split(" has ")[0]
    "1 line of this log without 'train' lines (e.g. a cross-validation)"
    """
    seq = "sequence study (stats.run_sequence, with its 'train' lines; fold = the test bucket)"
    plain = "log without 'train' lines (e.g. a cross-validation)"
    these, have = f"{lines} line{'s' * (lines != 1)} of this", "has" if lines == 1 else "have"
    if sequence:
        who = f"{these} {seq} {have} the keys of results in {other}, a {plain}"
    else:
        who = f"{these} {plain} {have} the keys of results in the {seq} {other}"
    return (
        f"{who}: two studies of one data set, not a rerun, whose keys (dataset, repeat, fold, learner, "
        "criterion) coincide; the later lines win, so this file's results replace that file's: open the two apart"
    )


def describer(names: dict[str, list[str]], columns: dict[str, np.ndarray]) -> Callable[[int, int], str]:
    """The key of a row in words; for a wide line's several criteria, how many."""

    def describe(row: int, criteria: int) -> str:
        label = {k: names[k][columns[k][row]] for k in names}
        what = f"{label['dataset']}, repeat {columns['repeat'][row]}, fold {columns['fold'][row]}, {label['learner']}"
        return f"{what}, {label['criterion']}" if criteria == 1 else f"{what}, {criteria} criteria"

    return describe


def sequence_files(columns: dict[str, np.ndarray], names: dict[str, list[str]], locate: Locate) -> frozenset[int]:
    """The indices of the files with a row of a bookkeeping criterion (:mod:`stats.core.criteria`:
    a sequence study's ``train`` lines) among the rows ``columns``."""
    codes = [i for i, name in enumerate(names["criterion"]) if is_bookkeeping(name)]
    rows = np.flatnonzero(np.isin(columns["criterion"], codes)) if codes else np.empty(0, np.int64)
    return frozenset(np.unique(locate(rows)[0]).tolist()) if len(rows) else frozenset()


def resolve(
    columns: dict[str, np.ndarray], names: dict[str, list[str]], locate: Locate, files: list[str]
) -> tuple[np.ndarray | None, list[LogProblem]]:
    """Mask of the rows kept (None when no row is replaced) and the duplicate warnings."""
    keep: np.ndarray | None = None
    report = DuplicateReport(describer(names, columns), locate, files, lambda: sequence_files(columns, names, locate))
    for earlier, later in duplicate_chunks(columns, locate):
        if keep is None:
            keep = np.ones(len(columns[KEY[0]]), bool)
        keep[earlier] = False
        report.add(earlier, later)
    return keep, report.finish()


def compact(columns: dict[str, np.ndarray], keep: np.ndarray, chunk: int | None = None) -> None:
    """Drop the rows not kept, in place (each array is shifted down a chunk at a time and shrunk:
    no second copy of the columns)."""
    n, m, chunk = len(keep), 0, chunk or CHUNK
    for s in range(0, n, chunk):
        sel = keep[s : s + chunk]
        c = int(np.count_nonzero(sel))
        for v in columns.values():
            v[m : m + c] = v[s : s + chunk][sel]
        m += c
    for v in columns.values():
        v.resize(m, refcheck=False)
