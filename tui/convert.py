"""``rankboard convert LOGS -o FILE``: the logs' tidy long table as Parquet or Arrow IPC (Feather v2).

Read the logs once (text, gzip, Parquet or Arrow: :func:`stats.read_logs`), then write the six
long-format columns ``dataset, repeat, fold, learner, criterion, value`` -- duplicates resolved,
bad lines left out only when the logs have no errors (else nothing is written) -- so that the
next ``rankboard check``, ``report`` or the app reads a table instead of parsing text. The names
are dictionary-encoded (pandas' categories), repeat and fold int32, value float64. The file is
written atomically and an existing one is refused without ``--force`` (as ``report -o``).

The wide format's metadata (``goal``, ``train``, ``test``) is not written: the long table has no
place for it, and nothing in the statistics reads it.

Reading the file back gives the logs' data sets, learners and criteria in the order the text
gave them (issue 30, item 11): a reader numbers the names in the order the rows first use them,
and a rerun's later line, which replaces an earlier one, may be where a name is first used once
the earlier line is gone; the rows are then put in an order that uses each name first where
the text did (:func:`appearance_order`). The temporary file is removed on SIGTERM, SIGHUP and
SIGINT, and one a SIGKILL left is removed by the next write into the folder (:mod:`tui.atomic`).
"""

from __future__ import annotations

import heapq
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

COLUMNS = ("dataset", "repeat", "fold", "learner", "criterion", "value")
FORMATS = ("parquet", "feather")
SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".feather": "feather", ".arrow": "feather", ".ipc": "feather"}


def output_format(path: str, given: str | None) -> str:
    """The format asked for (``--format``), else the one the suffix names; ValueError if neither.

    >>> output_format("out/results.parquet", None), output_format("r.bin", "feather")
    ('parquet', 'feather')
    """
    if given is not None:
        return given
    found = SUFFIXES.get(Path(path).suffix.lower())
    if found is None:
        raise ValueError(
            f"cannot tell the format from the name {path!r}: end it in .parquet or .feather, or give --format"
        )
    return found


def long_table(frame: pd.DataFrame) -> Any:
    """The tidy long table of a log's frame as a ``pyarrow.Table`` (six columns), its rows in
    order, or in :func:`appearance_order` when the order would renumber the names."""
    import numpy as np
    import pyarrow as pa

    order = appearance_order(frame)

    def rows(values: np.ndarray) -> np.ndarray:
        return values if order is None else values[order]

    arrays = []
    for name in COLUMNS:
        column = frame[name]
        if name in ("repeat", "fold"):  # the reader's bound is 2**31 - 1: int32 holds every value
            arrays.append(pa.array(rows(column.to_numpy(np.int32))))
        elif name == "value":
            arrays.append(pa.array(rows(column.to_numpy(np.float64))))
        else:
            codes = rows(column.cat.codes.to_numpy(np.int32))
            names = pa.array(list(column.cat.categories), pa.string())
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes), names))
    return pa.Table.from_arrays(arrays, names=list(COLUMNS))


NAMES = ("dataset", "learner", "criterion")


def appearance_order(frame: pd.DataFrame) -> np.ndarray | None:
    """An order of the rows in which each name column first uses its names in the order of its
    categories (the order the text first gave them); None when the rows' own order does.

    Reading a log resolves a rerun by dropping the earlier line of a key (the later one wins,
    :mod:`stats.logs._duplicates`) but names are numbered by the whole text, dropped lines
    included: ``A x, B x, A x`` keeps ``B x, A x`` with A before B. A row order that works always
    exists: each key at its first line, with its last value. The rows are kept in their order
    but for those that would bring in a name too early: such a row waits until the names before
    it are in, then comes right after the row that brought in the last of them (greedily: at each
    step the earliest row whose names are all in, or next in their column). The names of a row are
    its (dataset, learner, criterion), so the work is done once per distinct triple, the rows then
    put in place by one sort (:func:`_triple_order`).

    >>> import pandas as pd
    >>> names = lambda *v: pd.Categorical(v, categories=["A", "B"])
    >>> frame = pd.DataFrame({"dataset": names("B", "A"), "learner": names("A", "A"), "criterion": names("A", "A")})
    >>> appearance_order(frame).tolist()
    [1, 0]
    """
    import numpy as np

    codes = [frame[name].cat.codes.to_numpy(np.int64) for name in NAMES]
    if len(frame) < 2 or all(_first_use_sorted(c) for c in codes):
        return None
    ranks = [np.unique(c, return_inverse=True)[1].reshape(-1) for c in codes]  # codes of used names, 0..
    spans = [int(r.max()) + 1 for r in ranks]
    packed = (ranks[0] * spans[1] + ranks[1]) * spans[2] + ranks[2]  # < rows**3: fits in int64 below 2 million rows
    if spans[0] * spans[1] * spans[2] >= 2**62:  # pragma: no cover - needs millions of distinct names
        packed = np.unique(np.column_stack(ranks), axis=0, return_inverse=True)[1].reshape(-1)
    _, first, which = np.unique(packed, return_index=True, return_inverse=True)
    anchor, seq = _triple_order(np.column_stack([r[first] for r in ranks]), first)
    row = np.arange(len(frame))
    waits = (anchor[which] >= 0) & (row < anchor[which])  # rows of a triple before it could come
    key = np.where(waits, anchor[which], row)
    return np.lexsort((row, np.where(waits, seq[which], 0), key))


def _first_use_sorted(codes: np.ndarray) -> bool:
    """Whether the rows first use the codes in increasing order (the names in category order)."""
    import numpy as np

    used, first = np.unique(codes, return_index=True)
    return bool(np.all(np.diff(used[np.argsort(first)]) > 0))


def _triple_order(triples: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each distinct triple of name ranks (rows of ``triples``, first used at row ``first``):
    the row after which its waiting rows come and its place among the triples let in there
    (-1 and 0 for a triple that never waits). Ranks are numbered by the order of the names; a
    triple can come once each of its ranks is at most the number of names of its column in."""
    import numpy as np

    count = len(triples)
    anchor = np.full(count, -1, np.int64)
    seq = np.zeros(count, np.int64)
    ranks, firsts = triples.tolist(), first.tolist()
    known = [0, 0, 0]  # names of each column in so far
    waiting: list[dict[int, list[int]]] = [{}, {}, {}]  # column -> rank -> triples waiting for it
    ready: list[tuple[int, int]] = []  # (first row, triple): triples let in, earliest first

    def wait_or_ready(t: int) -> None:
        for column, rank in enumerate(ranks[t]):
            if rank > known[column]:
                waiting[column].setdefault(rank, []).append(t)
                return
        heapq.heappush(ready, (firsts[t], t))

    def bring_in(t: int) -> None:
        for column, rank in enumerate(ranks[t]):
            if rank == known[column]:
                known[column] += 1
                for u in waiting[column].pop(known[column], ()):
                    wait_or_ready(u)

    for t in np.argsort(first, kind="stable").tolist():
        a, b, c = ranks[t]
        if a < known[0] and b < known[1] and c < known[2]:
            continue  # its names are in: nothing to do (most triples)
        if a > known[0] or b > known[1] or c > known[2]:
            wait_or_ready(t)
            continue
        bring_in(t)
        step = 0
        while ready:
            _, u = heapq.heappop(ready)
            step += 1
            anchor[u], seq[u] = firsts[t], step
            bring_in(u)
    late = [u for column in waiting for group in column.values() for u in group]
    for step, u in enumerate(sorted(late, key=firsts.__getitem__), start=1):  # pragma: no cover - none is left
        anchor[u], seq[u] = np.iinfo(np.int64).max, step  # after every row
    return anchor, seq


def writer(table: Any, fmt: str) -> Any:
    """A function writing ``table`` in ``fmt`` to a binary handle (zstd-compressed Parquet, or
    lz4-compressed Arrow IPC: pyarrow's Feather default)."""

    def write(handle: BinaryIO) -> None:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, handle, compression="zstd", row_group_size=1 << 20)
        else:
            import pyarrow.feather as feather

            feather.write_feather(table, handle, chunksize=1 << 20)

    return write


def run_convert(paths: list[str], output: str, fmt: str | None, force: bool) -> int:
    """The ``convert`` command; returns the exit status (1: errors in the logs or a refused file,
    2: the format cannot be told)."""
    from stats import read_logs
    from stats.core.names import printable_lines
    from tui.model import format_problem
    from tui.render import OutputRefused, check_output, write_output

    def say(text: str) -> None:  # messages quote names from untrusted logs: escaped (stats.core.names)
        print(printable_lines(text), file=sys.stderr)

    try:
        fmt = output_format(output, fmt)
    except ValueError as exc:
        say(f"rankboard: {exc}")
        return 2
    try:
        check_output(output, force=force)  # before reading the logs, not after
    except OutputRefused as exc:
        say(f"rankboard: {exc}")
        return 1
    log = read_logs(*paths, on_error="skip")
    for problem in log.problems:
        say(format_problem(problem))
    if any(p.severity == "error" for p in log.problems):
        say("rankboard: the logs have errors (see above); nothing written: fix them first")
        return 1
    table = long_table(log.table)
    try:
        done = write_output(writer(table, fmt), output, force=force)  # a signal leaves no temporary file
    except OutputRefused as exc:
        say(f"rankboard: {exc}")
        return 1
    say(f"rankboard: {done}: {len(log):,} results from {len(log.files)} file(s), {fmt}")
    return 0
