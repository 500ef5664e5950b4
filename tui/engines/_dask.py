"""The grouped median on Dask (Rocklin 2015): ``dask.dataframe`` on the local threads, or on a
``distributed`` cluster given by its scheduler's address.

Each file is its own ``read_csv`` (fsspec sorts a list of paths; one per file keeps the order
given), a whole line a row: the separator is the carriage return, so a CRLF line's end is an
empty second field and a carriage return inside a line a non-empty one (refused, as rankboard
refuses it); no quoting, no blank line skipped. The partitions are concatenated in file order, so
(partition, row) orders all rows. Parquet tables are read with ``read_parquet``.

The median: Dask's ``DataFrame.median`` and ``median_approximate`` are approximate (Dask's
documentation says so: a t-digest or per-partition estimates); this engine uses neither. The
rows are shuffled by cell (criterion, data set, learner), so each cell is whole in one partition,
where pandas drops the replaced rows (the later row of a key wins) and sorts the values: the
two middle order statistics are exact. The functions sent to the workers are pickled by value
(cloudpickle), so the workers need Dask and pandas, not rankboard.
"""

from __future__ import annotations

import csv
import sys
from typing import Any

from tui.engines._shared import (
    BLANK,
    LINE,
    MAX_INT,
    MAX_LINE,
    MAX_VALUE,
    NAME,
    NONZERO,
    REFUSED,
    Cells,
    EngineRefused,
    Problem,
    Source,
    refusal,
)

CELL = ["criterion", "dataset", "learner"]
KEY = ["dataset", "rep", "fold", "learner", "criterion"]
#: A row's position: its file's place (< 2^19) << 44 | its partition's number in the file (< 2^16) << 28 |
#: its row in the partition (< 2^28: a 64 MB block holds fewer than 2^23 lines).
FILE_SHIFT, PARTITION_SHIFT = 44, 28


def _positions(src: int, partition_info: Any, n: int) -> Any:
    import numpy as np

    return (src << FILE_SHIFT) + (partition_info["number"] << PARTITION_SHIFT) + np.arange(n, dtype=np.int64)


_TRIM = " \t"


def _frame(columns: dict[str, Any], index: Any) -> Any:
    import pandas as pd

    return pd.DataFrame(columns, index=index)


def _meta() -> Any:
    """The columns every partition of rows has (empty)."""
    import numpy as np
    import pandas as pd

    return pd.DataFrame(
        {
            "src": np.empty(0, np.int64),
            "pos": np.empty(0, np.int64),
            "reason": np.empty(0, np.int64),
            "text": pd.Series([], dtype=object),
            "dataset": pd.Series([], dtype=object),
            "rep": np.empty(0, np.int64),
            "fold": np.empty(0, np.int64),
            "learner": pd.Series([], dtype=object),
            "criterion": pd.Series([], dtype=object),
            "value": np.empty(0, np.float64),
        }
    )


def _first_reason(n: int, rules: list[tuple[int, Any]], skip: Any = None) -> Any:
    """Each row's first failing rule's code (0: skipped, -1: good); ``rules``: (code, failing mask)."""
    import numpy as np

    reason = np.full(n, -1, np.int64)
    for code, bad in reversed(rules):
        reason[np.asarray(bad, bool)] = code
    if skip is not None:
        reason[np.asarray(skip, bool)] = 0
    return reason


def judge_text(part: Any, src: int, partition_info: Any = None) -> Any:
    """The rows of one partition of a text log (a column ``line``, a column ``tail``: what
    follows a carriage return), judged by :mod:`tui.engines._shared`'s grammar: one regular
    expression a line, then the ranges of the numbers."""
    import numpy as np
    import pandas as pd

    n = len(part)
    line = part["line"].fillna("").astype(str)
    tail = part["tail"].fillna("").astype(str)
    ok = (line.str.len() <= MAX_LINE) & line.str.fullmatch(LINE) & (tail == "")
    ok = ok.fillna(False).to_numpy(bool)
    good = line[ok]
    fields = good.str.split(",", n=5, expand=True) if len(good) else pd.DataFrame(columns=range(6), dtype=object)
    trimmed = [fields[i].astype(str).str.strip(_TRIM) for i in range(6)]
    rep, fold, value = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n)
    if len(good):
        import pyarrow as pa
        import pyarrow.compute as pc

        rep[ok] = trimmed[1].astype(np.int64).to_numpy()
        fold[ok] = trimmed[2].astype(np.int64).to_numpy()
        value[ok] = pc.cast(pa.array(trimmed[5].tolist(), pa.string()), pa.float64()).to_numpy()
    zero = np.zeros(n, bool)
    zero[ok] = (value[ok] == 0) & trimmed[5].str.match(NONZERO).to_numpy(bool)
    bad = ~ok | (rep > MAX_INT) | (fold > MAX_INT) | (np.abs(value) >= MAX_VALUE) | zero
    reason = np.where(bad, REFUSED, -1)
    reason[~ok & line.str.fullmatch(BLANK).fillna(False).to_numpy(bool)] = 0
    names = [np.full(n, "", object) for _ in range(3)]
    for k, i in enumerate((0, 3, 4)):
        names[k][ok] = trimmed[i].to_numpy(object)
    text = np.where(tail.to_numpy(object) == "", line.to_numpy(object), (line + "\r" + tail).to_numpy(object))
    return _frame(
        {
            "src": np.full(n, src, np.int64),
            "pos": _positions(src, partition_info, n),
            "reason": reason.astype(np.int64),
            "text": text,
            "dataset": names[0],
            "rep": rep,
            "fold": fold,
            "learner": names[1],
            "criterion": names[2],
            "value": value,
        },
        part.index,
    )


def judge_parquet(part: Any, src: int, columns: tuple[str, ...], partition_info: Any = None) -> Any:
    """The rows of one partition of a long Parquet table (its columns ``columns``), judged."""
    import numpy as np
    import pandas as pd

    n = len(part)
    cols = [part[c] for c in columns]
    null = np.zeros(n, bool)
    for c in cols:
        null |= c.isna().to_numpy()
    names = [cols[i].astype(object).where(cols[i].notna(), "").astype(str) for i in (0, 3, 4)]
    ints = [pd.to_numeric(cols[i], errors="coerce").fillna(0).to_numpy(np.int64) for i in (1, 2)]
    value = pd.to_numeric(cols[5], errors="coerce").astype(np.float64).fillna(0).to_numpy()
    rules = [
        (10, null),
        (4, names[0].str.strip(_TRIM).str.startswith("#").to_numpy(bool)),
        (
            5,
            ~(names[0].str.fullmatch(NAME) & names[1].str.fullmatch(NAME) & names[2].str.fullmatch(NAME)).to_numpy(
                bool
            ),
        ),
        (6, (ints[0] < 0) | (ints[0] > MAX_INT) | (ints[1] < 0) | (ints[1] > MAX_INT)),
        (7, ~np.isfinite(value)),
        (8, np.abs(value) >= MAX_VALUE),
    ]
    with np.errstate(invalid="ignore"):
        reason = _first_reason(n, rules)
    text = pd.Series([",".join(map(str, row)) for row in zip(*(c.tolist() for c in cols))] if n else [], dtype=object)
    return _frame(
        {
            "src": np.full(n, src, np.int64),
            "pos": _positions(src, partition_info, n),
            "reason": reason,
            "text": text.to_numpy(object),
            "dataset": names[0].str.strip(_TRIM).to_numpy(object),
            "rep": ints[0],
            "fold": ints[1],
            "learner": names[1].str.strip(_TRIM).to_numpy(object),
            "criterion": names[2].str.strip(_TRIM).to_numpy(object),
            "value": value,
        },
        part.index,
    )


def cells_of(part: Any) -> Any:
    """The cells of one partition holding whole cells: first position, results kept, and the
    median's two order statistics (the later row of a key wins; values sorted within each cell)."""
    import numpy as np
    import pandas as pd

    if not len(part):
        return _cells_meta()
    first = part.groupby(CELL, sort=False)["pos"].min()
    kept = part.sort_values("pos", kind="stable").drop_duplicates(KEY, keep="last")
    kept = kept.sort_values([*CELL, "value"], kind="stable")
    size = kept.groupby(CELL, sort=False)["value"].transform("size").to_numpy()
    k = kept.groupby(CELL, sort=False).cumcount().to_numpy()
    lo = (size - 1) // 2
    a = kept[k == lo].set_index(CELL)
    b = kept[k == np.minimum(lo + 1, size - 1)].set_index(CELL)["value"]
    out = pd.DataFrame({"n": size[k == lo].astype(np.int64), "a": a["value"].to_numpy()}, index=a.index)
    out["b"] = b.reindex(out.index).to_numpy()
    out["first"] = first.reindex(out.index).to_numpy()
    return out.reset_index()[[*CELL, "first", "n", "a", "b"]]


def _cells_meta() -> Any:
    import numpy as np
    import pandas as pd

    return pd.DataFrame(
        {
            "criterion": pd.Series([], dtype=object),
            "dataset": pd.Series([], dtype=object),
            "learner": pd.Series([], dtype=object),
            "first": np.empty(0, np.int64),
            "n": np.empty(0, np.int64),
            "a": np.empty(0, np.float64),
            "b": np.empty(0, np.float64),
        }
    )


def _text(s: Source) -> Any:
    """One text log as a frame of (line, tail) rows: read_csv with the carriage return as the
    separator, no quoting, no blank line skipped, the file's own partitions in order."""
    import dask.dataframe as dd

    gz = s.absolute.endswith(".gz")
    return dd.read_csv(
        s.absolute,
        sep="\r",
        header=None,
        names=["line", "tail"],
        index_col=False,
        dtype=str,
        quoting=csv.QUOTE_NONE,
        skip_blank_lines=False,
        keep_default_na=False,
        na_filter=False,
        lineterminator="\n",
        engine="c",
        encoding="utf-8",
        blocksize=None if gz else "64MB",
        compression="gzip" if gz else None,
    )


def _read(files: list[Source]) -> tuple[Any, list[int]]:
    """All rows, judged, in file order; and each file's first partition number."""
    import dask.dataframe as dd

    frames, starts, at = [], [], 0
    for s in files:
        if s.kind == "text":
            rows = _text(s).map_partitions(judge_text, s.index, meta=_meta(), align_dataframes=False)
        else:
            raw = dd.read_parquet(s.absolute, columns=list(s.columns))
            rows = raw.map_partitions(judge_parquet, s.index, s.columns, meta=_meta(), align_dataframes=False)
        starts.append(at)
        at += rows.npartitions
        frames.append(rows)
    return (frames[0] if len(frames) == 1 else dd.concat(frames, interleave_partitions=False)), starts


def _failing(files: list[Source], compute: Any) -> str:
    """The first text log whose reading fails on its own (its name and the error), or ""."""
    for s in files:
        if s.kind != "text":
            continue
        try:
            _run(_text(s).map_partitions(len).sum(), compute)
        except Exception as exc:  # noqa: BLE001 - the reader's error, said with its file
            return f"{s.path}: {type(exc).__name__}: {str(exc).splitlines()[-1]}"
    return ""


def aggregate(files: list[Source], options: dict[str, Any]) -> Cells:
    """The cells of the logs ``files``, computed by Dask (``options["scheduler"]``: a
    distributed scheduler's address; default: the local threads)."""
    import contextlib

    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers need no rankboard
    client: Any = contextlib.nullcontext()
    if options.get("scheduler"):
        from distributed import Client

        try:
            client = Client(options["scheduler"], timeout="30s", set_as_default=False)
        except OSError as exc:
            raise EngineRefused(f"--engine dask cannot reach the scheduler {options['scheduler']}: {exc}") from None
    with client as c:
        compute = c.compute if options.get("scheduler") else None
        try:
            rows, starts = _read(files)
            problems, total = _bad(rows, starts, files, compute)
            if total:
                raise refusal(problems, total, files, "dask")
            good = rows[rows["reason"] < 0][[*KEY, "pos", "value"]]
            cells = good.shuffle(on=CELL).map_partitions(cells_of, meta=_cells_meta())
            result = _run(cells, compute)
        except EngineRefused:
            raise
        except Exception as exc:  # a parser's or a worker's error: said, with the file it is in, nothing written
            named = _failing(files, compute) or f"{type(exc).__name__}: {exc}"
            raise EngineRefused(
                f"--engine dask cannot read the logs: {named}\nthe engines read text lines ending in LF or CRLF, "
                "with no carriage return elsewhere; rankboard check names every problem"
            ) from None
    return Cells({name: result[name].to_numpy() for name in result.columns})


def _run(collection: Any, compute: Any) -> Any:
    return compute(collection).result() if compute is not None else collection.compute()


def _bad(rows: Any, starts: list[int], files: list[Source], compute: Any) -> tuple[list[Problem], int]:
    """The first bad rows (with their line numbers) and how many there are."""
    import numpy as np

    bad = rows[rows["reason"] > 0]
    total = int(_run(bad["reason"].count(), compute))
    if not total:
        return [], 0
    first = _run(bad.nsmallest(5, "pos"), compute)
    sizes = np.asarray(_run(rows.map_partitions(len), compute), np.int64)
    before = np.concatenate([[0], np.cumsum(sizes)])
    problems = []
    for _, r in first.sort_values("pos").iterrows():
        pos, src = int(r["pos"]), int(r["src"])
        partition, row = (pos >> PARTITION_SHIFT) & 0xFFFF, pos & ((1 << PARTITION_SHIFT) - 1)
        line = int(before[starts[src] + partition] - before[starts[src]]) + row + 1
        problems.append(Problem(int(r["src"]), line, int(r["reason"]), str(r["text"])))
    return problems, total
