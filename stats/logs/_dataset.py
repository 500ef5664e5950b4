"""Datasets as engines write them: a directory of part files read as one log.

Spark (``df.write.parquet``), Dask (``to_parquet``), DuckDB (``COPY ... TO 'dir' (FORMAT parquet,
PARTITION_BY (...))``), pyarrow (``write_dataset``) and Hive write a table as a directory of part
files beside their bookkeeping:

- part files: ``part-00000-<uuid>-c000.snappy.parquet`` (Spark), ``part.0.parquet`` (Dask),
  ``data_0.parquet`` (DuckDB), ``part-0.arrow`` (pyarrow's IPC format), ``000000_0`` (Hive: no
  suffix at all);
- bookkeeping: ``_SUCCESS`` (Hadoop's output committer), ``.part-....crc`` (Hadoop's checksum
  files), ``_metadata`` and ``_common_metadata`` (Parquet footers only, the rows of every part
  again), ``_temporary/`` (Spark's unfinished attempts), ``.ipynb_checkpoints``: every name that
  starts with ``.`` or ``_``, the rule of pyarrow's and Spark's own dataset discovery;
- hive partitions (Capriolo, Wampler and Rutherglen 2012, "Programming Hive", ch. 4):
  ``criterion=acc/dataset=iris/part-0.parquet``, the partition columns in the directories' names
  and not in the files, values percent-encoded (``%3D`` for ``=``, ``%2F`` for ``/``) and a null
  written as ``__HIVE_DEFAULT_PARTITION__``.

:func:`log_files` lists what a directory holds to read: its text logs (``*.dat``, ``*.dat.gz``,
wherever they are, as before) and its part files, known by a columnar suffix (``.parquet``,
``.arrow``, ``.feather``, ...: read even when corrupt, so that the problem is named) or by their
content (the whole magic of :mod:`stats.logs._magic`: Hive's part files have no suffix), the
bookkeeping left out without a word. All in sorted path order: the order pyarrow and DuckDB
discover a dataset in, zero-padded part numbers in the order written (Dask's ``part.10`` sorts
before ``part.2``: only the order names first appear in changes, never a number).

:func:`path_columns` gives a part file's hive partition (parsed by pyarrow's own
``HivePartitioning``, imported only for a file below a ``key=value`` directory: it imports
pandas); :class:`PathFill` turns it back into columns of every row of the file
(:mod:`stats.logs._columnar`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stats.logs._formats import BadField, LogSpec, parse_field
from stats.logs._magic import sniff_file

if TYPE_CHECKING:  # numpy and pyarrow are imported where a path's columns are read: not for listing
    import pyarrow as pa

#: Text logs a directory yields wherever they are below it (as before part files were read).
TEXT_SUFFIXES = (".dat", ".dat.gz")
#: Names of Parquet and Arrow IPC files: read whatever they hold (a corrupt part is named).
COLUMNAR_SUFFIXES = (".parquet", ".parq", ".pq", ".arrow", ".arrows", ".feather", ".ipc")
#: What a directory with nothing to read says it looked for.
LOOKED_FOR = "no logs in this directory (looked for *.dat, *.dat.gz and Parquet or Arrow files)"
#: How Hive and Spark write a null partition value.
HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"


def bookkeeping(name: str) -> bool:
    """Whether a file or directory ``name`` is an engine's bookkeeping, not data: hidden or
    starting with ``_`` (``_SUCCESS``, ``_metadata``, ``_common_metadata``, ``_temporary``,
    ``.part-0.parquet.crc``), or a Hadoop checksum (``*.crc``).

    >>> [bookkeeping(n) for n in ("_SUCCESS", ".part-0.parquet.crc", "part-0.parquet", "x.crc")]
    [True, True, False, True]
    """
    return name.startswith((".", "_")) or name.endswith(".crc")


def log_files(folder: str, onerror: Callable[[OSError], None] | None = None) -> list[str]:
    """Every log below ``folder`` in sorted path order: its ``*.dat`` / ``*.dat.gz`` files, and
    its Parquet and Arrow files (by suffix or by content) outside bookkeeping names (any
    directory between ``folder`` and the file included: Spark's ``_temporary/`` holds
    unfinished parts). ``onerror`` gets what stops a subdirectory's reading (``os.walk``'s)."""
    found = []
    for root, _, files in os.walk(folder, onerror=onerror):
        hidden = any(bookkeeping(d) for d in Path(os.path.relpath(root, folder)).parts if d != ".")
        for f in files:
            path = os.path.join(root, f)
            if f.endswith(TEXT_SUFFIXES):
                found.append(path)
            elif not hidden and not bookkeeping(f) and (f.endswith(COLUMNAR_SUFFIXES) or sniff_file(Path(path))):
                found.append(path)
    return sorted(found)


def bookkeeping_match(match: str, pattern: str) -> bool:
    """Whether a file that the glob ``pattern`` matched is bookkeeping: a name of it, or of a
    directory the pattern's wildcards went through (``out/**/*.parquet`` reaches into Spark's
    ``_temporary/``), that :func:`bookkeeping` names; text logs (``*.dat``) never are.

    >>> bookkeeping_match("out/_temporary/0/part-0.parquet", "out/**/*.parquet")
    True
    """
    if match.endswith(TEXT_SUFFIXES):
        return False
    literal = 0
    for part in Path(pattern).parts:
        if any(c in part for c in "*?["):
            break
        literal += 1
    return any(bookkeeping(part) for part in Path(match).parts[literal:])


@dataclass(frozen=True)
class PathColumn:
    """One ``key=value`` directory above a part file: the key and the value decoded (``value``
    None: the path says null), and the directory's name as written (for messages)."""

    key: str
    value: str | None
    segment: str


class PathRefused(Exception):
    """A file whose path's columns cannot be read (null or invalid where a result needs a value);
    the message is the reason."""


def path_columns(path: str | os.PathLike[str]) -> tuple[PathColumn, ...]:
    """The hive partition of the file at ``path``: the ``key=value`` directories directly above
    it (the run that ends at its directory; a directory without ``=`` ends it), outermost first,
    decoded by pyarrow's ``HivePartitioning`` (percent-decoding, ``__HIVE_DEFAULT_PARTITION__``
    -> None). The path is made absolute first, so that a part file read from inside its
    partition directory keeps its partition. No ``key=value`` directory: ``()`` (and pyarrow's
    dataset module is not imported).

    >>> path_columns("logs/iris.dat")
    ()
    """
    segments: list[str] = []
    for part in reversed(Path(os.path.abspath(path)).parent.parts):
        key, eq, _ = part.partition("=")
        if not (eq and key):
            break
        segments.append(part)
    if not segments:
        return ()
    segments.reverse()
    from urllib.parse import unquote

    import pyarrow as pa
    import pyarrow.dataset as ds  # lazily: 0.35-0.65 s here with the pandas it imports, for hive paths only

    keys = list(dict.fromkeys(unquote(s.partition("=")[0]) for s in segments))
    hive = ds.HivePartitioning(pa.schema([(k, pa.string()) for k in keys]), null_fallback=HIVE_NULL)
    try:
        values = ds.get_partition_keys(hive.parse("/".join([*segments, "part"])))
    except pa.ArrowException as exc:
        raise PathRefused(f"the path's partition directories do not read: {exc}") from exc
    by_key = {unquote(s.partition("=")[0]): s for s in segments}  # the innermost of a key named twice
    return tuple(PathColumn(k, values.get(k), by_key[k]) for k in keys)


class PathFill:
    """The columns of a file's path (``given``) beside the columns it holds (``names``): those it
    lacks are added to every row (:meth:`batches`); those it holds too are compared row by row,
    and a row that differs is an error naming it (which of the two is right is unclear)."""

    def __init__(self, given: tuple[PathColumn, ...], names: list[str]) -> None:
        lower = {n.lower(): n for n in names}
        self.added = [c for c in given if c.key.lower() not in lower]
        self.both = [(lower[c.key.lower()], c) for c in given if c.key.lower() in lower]
        self._constant: dict[str, tuple[PathColumn, str, Any]] = {}  # column -> (given, kind, value)
        self._compared: list[tuple[str, PathColumn, str, Any]] = []  # (column, given, kind, value)

    @property
    def names(self) -> list[str]:
        """The columns the path adds (those the file lacks), in the path's order."""
        return [c.key for c in self.added]

    def prepare(self, spec: LogSpec, columns: list[str]) -> list[str]:
        """Each path column the format reads judged as a text field of its kind (``repeat=x``:
        not a whole number); a null (``__HIVE_DEFAULT_PARTITION__``) where a result needs a value
        refuses the file (:class:`PathRefused`), as each of its rows would be an error. Returns
        the path's directories that name no column read (for a warning)."""
        kinds = dict(zip(columns, spec.kinds))
        unread = []
        for column, given in [(c.key, c) for c in self.added] + self.both:
            if column not in kinds:
                unread.append(given.segment)
                continue
            value = _judged(given, kinds[column], spec.labels[columns.index(column)])
            if any(given is c for c in self.added):
                self._constant[column] = (given, kinds[column], value)
            else:
                self._compared.append((column, given, kinds[column], value))
        return unread

    def file_columns(self, columns: list[str]) -> list[str]:
        """The columns to read from the file: ``columns`` but those the path adds."""
        return [c for c in columns if c not in self._constant]

    def batches(
        self, batches: Iterator[pa.RecordBatch], columns: list[str]
    ) -> Iterator[tuple[pa.RecordBatch, dict[int, str]]]:
        """Each batch of the file's columns with the path's added, in ``columns`` order, and the
        rows (numbered in the batch) whose own value differs from the path's, with the reason."""
        import pyarrow as pa

        for batch in batches:
            n = batch.num_rows
            arrays = [_constant(*self._constant[c][1:], n) if c in self._constant else batch.column(c) for c in columns]
            differ: dict[int, str] = {}
            for column, given, kind, value in self._compared:
                _differ(batch.column(column), given, kind, value, differ)
            yield pa.RecordBatch.from_arrays(arrays, names=columns), differ


def _judged(given: PathColumn, kind: str, label: str) -> Any:
    """The path's value of a column of ``kind``, judged as the text reader judges a field."""
    if given.value is None:
        if kind in ("meta", "metaint"):
            return None
        raise PathRefused(
            f"the path's {given.segment} is a null {label} (how Spark and Hive write a missing value): "
            f"every result needs a {label}; the file is not read"
        )
    try:
        return parse_field(given.value, kind, label)  # type: ignore[arg-type]
    except BadField as exc:
        raise PathRefused(f"the path's {given.segment} does not read: {exc}; the file is not read") from None


def _constant(kind: str, value: Any, n: int) -> pa.Array:
    """``value`` on ``n`` rows as the column of a file would hold it: a one-entry dictionary of
    text (its names judged once), whole numbers, or doubles."""
    import numpy as np
    import pyarrow as pa

    if kind in ("name", "meta"):
        if value is None:
            return pa.nulls(n, pa.string())
        return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([value], pa.string()))
    if kind in ("int", "metaint"):
        return pa.nulls(n, pa.int64()) if value is None else pa.array(np.full(n, value, np.int64))
    return pa.array(np.full(n, value, np.float64))


def _differ(column: pa.Array, given: PathColumn, kind: str, value: Any, differ: dict[int, str]) -> None:
    """Note in ``differ`` the rows of the file's ``column`` whose value is not the path's."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if value is None:
        other = pc.is_valid(column)
    else:
        target = pa.string() if kind in ("name", "meta") else pa.int64() if kind in ("int", "metaint") else pa.float64()
        other = pc.fill_null(pc.not_equal(pc.cast(column, target, safe=False), pa.scalar(value, target)), True)
    for row in np.flatnonzero(other.to_numpy(zero_copy_only=False)).tolist():
        held = column[row].as_py()
        differ.setdefault(
            row, f"{given.key} {held!r} differs from the path's {given.segment}: which is right is unclear"
        )
