"""``rankboard convert LOGS -o FILE``: the logs' tidy long table as Parquet or Arrow IPC (Feather v2).

Read the logs once (text, gzip, Parquet or Arrow: :func:`stats.read_logs`), then write the six
long-format columns ``dataset, repeat, fold, learner, criterion, value`` -- duplicates resolved,
bad lines left out only when the logs have no errors (else nothing is written) -- so that the
next ``rankboard check``, ``report`` or the app reads a table instead of parsing text. The names
are dictionary-encoded (pandas' categories), repeat and fold int32, value float64. The file is
written atomically and an existing one is refused without ``--force`` (as ``report -o``).

The wide format's metadata (``goal``, ``train``, ``test``) is not written: the long table has no
place for it, and nothing in the statistics reads it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
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
    """The tidy long table of a log's frame as a ``pyarrow.Table`` (six columns, rows in order)."""
    import numpy as np
    import pyarrow as pa

    arrays = []
    for name in COLUMNS:
        column = frame[name]
        if name in ("repeat", "fold"):  # the reader's bound is 2**31 - 1: int32 holds every value
            arrays.append(pa.array(column.to_numpy(np.int32)))
        elif name == "value":
            arrays.append(pa.array(column.to_numpy(np.float64)))
        else:
            codes = column.cat.codes.to_numpy(np.int32)
            names = pa.array(list(column.cat.categories), pa.string())
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes), names))
    return pa.Table.from_arrays(arrays, names=list(COLUMNS))


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
        done = write_output(writer(table, fmt), output, force=force)
    except OutputRefused as exc:
        say(f"rankboard: {exc}")
        return 1
    say(f"rankboard: {done}: {len(log):,} results from {len(log.files)} file(s), {fmt}")
    return 0
