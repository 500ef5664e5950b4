"""Columnar logs: Parquet and Arrow IPC (Feather v2 file, or stream) tables with the long or the
wide format's columns, read with pyarrow into the same parts as the text logs.

A file's kind comes from its whole magic (:mod:`stats.logs._magic`: the start and the end of a
Parquet or Arrow IPC file, which Feather v2 is; the schema message opening an Arrow IPC stream),
never from a prefix a text log's first data set could have. The table's columns say its format:

- long: ``dataset, repeat, fold, learner, criterion, value`` (lower case or not; other columns are
  not read, with a warning);
- wide: ``data, learner, repeats, bin`` (and ``goal, train, test`` if present), every other
  column a criterion, as the text logs' ``#`` header names them.

Row ``i`` (counted from 1) of the table is "line" ``i`` in problems. Each value is judged as the
text reader judges a field (:func:`stats.logs._formats.parse_field` on each distinct name; a
missing (null) or non-finite value, a negative, out-of-range or missing repeat or fold):
a bad row is an error naming it, and is left out. A column of the wrong type (text where numbers
belong, numbers where names belong) is an error of the whole file.

Bounds: a file's table is read one row group (Parquet) or record batch (Arrow) at a time. What the
file declares is checked against the :class:`~stats.logs._paths.Decompression` limits before it is
decoded: its rows and dictionary entries as if each were the shortest text line (12 bytes), and the
bytes its compressed parts take once decompressed as a gzip log's are. A Parquet file is judged
whole from its footer; an Arrow file or stream batch by batch from its messages' metadata
(:mod:`stats.logs._ipc_limits`), each batch with the dictionaries read before it, so the batches
within the limits are kept. A 1 kB Parquet file declaring a billion run-length-encoded rows, or a
185 kB Feather file declaring 100 million dictionary-encoded ones, is refused (a "Parquet/Arrow
bomb") before anything is decompressed.

A part file of a hive-partitioned dataset (``criterion=acc/part-0.parquet``, as Spark, Dask and
DuckDB write them: :mod:`stats.logs._dataset`) gets the columns its directories name and it lacks
on every row, judged as text fields are (a null, ``__HIVE_DEFAULT_PARTITION__``, where a result
needs a value refuses the file); a column both in the path and in the file must agree on each row
(a row that differs is an error naming it).

Duplicate column names the reader would read (``value`` twice, or ``Value`` and ``value``) are an
error of the file naming the column: which to read is unclear.
"""

from __future__ import annotations

import csv
import io
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from stats.logs._arrow_numpy import filled, nulls, numpy_of
from stats.logs._columnar_limits import Refused as _Refused
from stats.logs._columnar_limits import bound_rows as _bound
from stats.logs._columnar_limits import bound_unpacked as _bound_unpacked
from stats.logs._dataset import PathFill, PathRefused, path_columns
from stats.logs._dictionaries import Judgements, Validated, coded_field
from stats.logs._formats import LONG, LONG_COLUMNS, MAX_INT, MAX_VALUE, LogProblem, LogSpec, out_of_range, parse_header
from stats.logs._ipc_limits import CorruptIPC, Declared, scan_file, scan_stream
from stats.logs._magic import ARROW_FILE, ARROW_STREAM, PARQUET, sniff, sniff_file  # noqa: F401 - re-exported
from stats.logs._parse import Coded, Part, _first_seen
from stats.logs._paths import Decompression

#: Rows per batch read from a Parquet file.
BATCH = 1 << 18
#: pandas' index, written by ``DataFrame.to_parquet``: not a column of the log, never warned about.
_INDEX = "__index_level_0__"


@dataclass
class ColumnarRead:
    """What reading one columnar file found (the text reader's ``FileRead`` fields)."""

    problems: list[LogProblem] = field(default_factory=list)
    spec: LogSpec | None = None
    next_line: int = 1
    rows: int = 0


def read_columnar(
    name: str,
    path: Path,
    kind: str,
    sink: Callable[[int, LogSpec, Part], None],
    *,
    stop_at_error: bool,
    progress: Callable[[int], None] | None,
    limits: Decompression,
) -> ColumnarRead:
    """Read one columnar file into ``sink`` (one :class:`Part` per row group or record batch).

    ``progress(n)`` gets the file's bytes "read" so far (in proportion to its rows); what it raises
    propagates. Problems of the whole file (corrupt or truncated, wrong columns or types, too
    many rows for the limits, a path whose partition columns do not read) are errors naming the
    file; rows already handed on are kept.
    """
    out = ColumnarRead()
    size = path.stat().st_size

    def check(declared: Declared) -> None:
        _bound(declared.rows, size, limits, declared.entries)
        _bound_unpacked(declared.unpacked, size, limits)

    try:
        with _open(path, kind, size) as table:
            fill = PathFill(path_columns(path), table.schema.names)  # its hive partition, if any
            spec, columns, ignored = _spec(table.schema, fill.names)
            unread = fill.prepare(spec, columns)
            out.spec = spec
            if ignored:
                shown = ", ".join(repr(c) for c in ignored)
                out.problems.append(
                    LogProblem(name, None, f"column(s) {shown} not read (not part of the format)", "warning")
                )
            if unread:
                shown = ", ".join(unread)
                out.problems.append(
                    LogProblem(name, None, f"the path's {shown} not read (not a column of the format)", "warning")
                )
            declared = table.rows
            if table.whole is not None:
                check(table.whole)

            def hand(rows: int, done: int, part: Part) -> bool:
                """Hand a batch's part on (True: stop, at an error in strict mode)."""
                out.problems.extend(LogProblem(name, out.next_line + i, r, s) for i, r, s in part.problems)
                out.rows += part.n_rows
                if part.n_rows:
                    sink(out.next_line, spec, part)
                out.next_line += rows
                if progress is not None:
                    progress(size if declared is None or not declared else size * min(done, declared) // declared)
                return stop_at_error and bool(part.problems)

            batches = fill.batches(table.batches(fill.file_columns(columns), check), columns)
            if _pipelined(batches, spec, size, limits, hand):
                return out
            if progress is not None:
                progress(size)
    except (_Refused, PathRefused) as exc:
        kept = f"; the {out.rows:,} results before are kept" if out.rows else ""
        out.problems.append(LogProblem(name, None, f"{exc}{kept}"))
    except (pa.ArrowException, OSError, ValueError) as exc:
        kept = f"; the {out.rows:,} results before are kept" if out.rows else ""
        out.problems.append(
            LogProblem(name, None, f"unreadable {kind} file (truncated or corrupt?): {_short(exc)}{kept}")
        )
    return out


def _pipelined(
    batches: Iterator[tuple[pa.RecordBatch, dict[int, str]]],
    spec: LogSpec,
    size: int,
    limits: Decompression,
    hand: Callable[[int, int, Part], bool],
) -> bool:
    """Each batch made a part (:func:`_part`) in a thread of its own while the next batch is
    decoded and the one before handed on (``hand(rows, rows so far, part)``) on this thread: the
    three overlap (pyarrow's decoding and most of numpy's work release the GIL). In file order;
    True when ``hand`` stops. When the file fails part-way (too many rows, a corrupt page), the
    batches made before are handed on first, and a stop among them wins (strict mode: the first
    error), as when the batches were read one at a time."""
    waiting: deque[tuple[int, int, Future[Part]]] = deque()
    judgements = Judgements()  # the pool's one thread makes the parts, in order

    def hand_first() -> bool:
        rows, upto, future = waiting.popleft()
        return hand(rows, upto, future.result())

    failed: Exception | None = None
    with ThreadPoolExecutor(1) as pool:
        try:
            done = 0
            for batch, differ in batches:
                done += batch.num_rows
                _bound(done, size, limits)
                waiting.append((batch.num_rows, done, pool.submit(_part, batch, spec, judgements, differ)))
                if len(waiting) > 1 and hand_first():
                    return True
        except (_Refused, pa.ArrowException, OSError, ValueError) as exc:
            failed = exc
        while waiting:
            if hand_first():
                return True
    if failed is not None:
        raise failed
    return False


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:300]


_Check = Callable[[Declared], None]


class _Table:
    """A columnar file opened: its schema, its declared rows (for progress), what it declares
    whole (Parquet's footer: checked before any batch; None: checked batch by batch) and its
    batches (``batches(columns, check)`` calls ``check`` before decoding each, when it can)."""

    def __init__(
        self,
        schema: pa.Schema,
        rows: int,
        batches: Callable[[list[str], _Check], Iterator[pa.RecordBatch]],
        whole: Declared | None = None,
    ):
        self.schema, self.rows, self._batches, self.whole = schema, rows, batches, whole

    def batches(self, columns: list[str], check: _Check) -> Iterator[pa.RecordBatch]:
        return self._batches(columns, check)


class _open:
    """Context manager: the file opened as a :class:`_Table` by its kind."""

    def __init__(self, path: Path, kind: str, size: int) -> None:
        self.path, self.kind, self.size = path, kind, size
        self.file: Any = None

    def __enter__(self) -> _Table:
        self.file = open(self.path, "rb")  # noqa: SIM115 - closed by __exit__
        if self.kind == PARQUET:
            return _parquet(self.file)
        # What each batch declares, from the metadata, read beside pyarrow's reading (os.pread).
        if self.kind == ARROW_FILE:
            scan = scan_file(self.file.fileno(), self.size)
            ipc = pa.ipc.open_file(self.file)

            def batches(columns: list[str], check: _Check) -> Iterator[pa.RecordBatch]:
                if ipc.num_record_batches != len(scan.before):
                    raise CorruptIPC("the footer lists batches pyarrow does not see")
                valid = Validated()
                for i, declared in enumerate(scan.before):
                    check(declared)
                    yield valid(ipc.get_batch(i).select(columns))

            return _Table(ipc.schema, scan.total.rows, batches)
        scan = scan_stream(self.file.fileno(), self.size)
        stream = pa.ipc.open_stream(self.file)

        def streamed(columns: list[str], check: _Check) -> Iterator[pa.RecordBatch]:
            valid = Validated()
            for declared in scan.before:
                check(declared)
                yield valid(stream.read_next_batch().select(columns))
            if scan.cut is not None:  # never handed to pyarrow: its reader trusts the lengths
                raise CorruptIPC(scan.cut)

        return _Table(stream.schema, scan.total.rows, streamed)

    def __exit__(self, *exc: object) -> None:
        self.file.close()


def _parquet(file: Any) -> _Table:
    """A Parquet file as a table, with what its footer declares: the rows (the most of the file's
    count and its row groups' sum, which a forged footer may disagree on) and the bytes of its
    compressed column chunks once decompressed (their pages' sizes, dictionaries included)."""
    import pyarrow.parquet as pq

    reader = pq.ParquetFile(file)
    meta = reader.metadata
    whole = Declared()
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        whole.rows += max(0, group.num_rows)
        for c in range(group.num_columns):
            chunk = group.column(c)
            if chunk.compression != "UNCOMPRESSED":
                whole.unpacked += max(0, chunk.total_uncompressed_size)
    whole.rows = max(whole.rows, meta.num_rows)

    def groups(columns: list[str], check: _Check) -> Iterator[pa.RecordBatch]:
        # Batches of BATCH rows, not whole row groups (a million rows each as pyarrow writes
        # them): the work space of a batch's columns is a quarter of a group's. The footer was
        # checked whole (``check`` is not needed).
        empty = True
        for batch in reader.iter_batches(batch_size=BATCH, columns=columns):
            empty = False
            yield batch
        if empty:
            yield _empty(reader, columns)

    return _Table(reader.schema_arrow, whole.rows, groups, whole)


def _empty(reader: Any, columns: list[str]) -> pa.RecordBatch:
    schema = pa.schema([reader.schema_arrow.field(c) for c in columns])
    return pa.RecordBatch.from_pylist([], schema=schema)


def _spec(schema: pa.Schema, added: list[str] | None = None) -> tuple[LogSpec, list[str], list[str]]:
    """The spec of a table (long or wide format) from its column names and types, the columns
    to read (in spec order) and the columns left out (long format). ``added``: columns its path
    gives (hive partitions, :mod:`stats.logs._dataset`), typed by the spec, not the file."""
    names = [n for n in schema.names if n != _INDEX] + (added or [])
    lower = {n.lower(): n for n in names}
    if all(c in lower for c in LONG_COLUMNS):
        _unique(names, LONG_COLUMNS)
        columns = [lower[c] for c in LONG_COLUMNS]
        spec = LONG
        ignored = [n for n in names if n not in columns]
    elif all(c in lower for c in ("data", "learner", "repeats", "bin")):
        header = io.StringIO()
        csv.writer(header, quoting=csv.QUOTE_ALL, lineterminator="").writerow(names)
        wide = parse_header(b"#" + header.getvalue().encode("utf-8", "surrogatepass"))
        if isinstance(wide, str):
            raise _Refused(wide.replace("wide header", "the wide table's columns"))
        spec, columns, ignored = wide, names, []
    else:
        missing = [c for c in LONG_COLUMNS if c not in lower]
        raise _Refused(
            f"missing column(s) {', '.join(missing)}: a long table has the columns {', '.join(LONG_COLUMNS)}; "
            "a wide one data, learner, repeats, bin and one column per criterion"
        )
    for column, kind in zip(columns, spec.kinds):
        if column not in (added or []):
            _check_type(column, schema.field(column).type, kind)
    return spec, columns, [n for n in ignored if n not in (added or [])]


def _unique(names: list[str], wanted: tuple[str, ...]) -> None:
    """Refuse a table naming a column it should hold twice (in any case): pyarrow's lookup by
    name fails on it (a KeyError, before), and which of them to read is unclear."""
    for column in wanted:
        same = [n for n in names if n.lower() == column]
        if len(same) > 1 and len(set(same)) == 1:
            raise _Refused(f"column {same[0]!r} appears {len(same)} times: which one to read is unclear")
        if len(same) > 1:
            shown = ", ".join(repr(n) for n in same)
            raise _Refused(f"columns {shown} all name the {column!r} column: which one to read is unclear")


def _base(t: pa.DataType) -> pa.DataType:
    return t.value_type if pa.types.is_dictionary(t) else t


def _check_type(column: str, t: pa.DataType, kind: str) -> None:
    base = _base(t)
    text = pa.types.is_string(base) or pa.types.is_large_string(base) or pa.types.is_string_view(base)
    whole = pa.types.is_integer(base)
    number = whole or pa.types.is_floating(base) or pa.types.is_decimal(base)
    ok = {
        "name": text,
        "meta": text or pa.types.is_null(base),
        "int": whole,
        "metaint": whole or pa.types.is_null(base),
    }
    if not ok.get(kind, number):
        want = {"name": "text", "meta": "text", "int": "whole numbers", "metaint": "whole numbers"}.get(kind, "numbers")
        raise _Refused(f"column {column!r} has type {t}: it should hold {want}")


def _part(
    batch: pa.RecordBatch, spec: LogSpec, judgements: Judgements | None = None, found: dict[int, str] | None = None
) -> Part:
    """One batch's rows as a part; bad rows (``found``: known before, with their reasons) left
    out, each an error (its first reason)."""
    n = batch.num_rows
    reasons: dict[int, str] = dict(found or {})
    fields = []
    for i, (kind, label) in enumerate(zip(spec.kinds, spec.labels)):
        fields.append(_field(batch.column(i), kind, label, reasons, judgements, i))
    if not reasons:
        return Part(fields, None, n)
    bad = np.zeros(n, bool)
    bad[list(reasons)] = True
    keep = np.flatnonzero(~bad)
    fields = [_first_seen(f.values, f.codes[keep]) if isinstance(f, Coded) else f[keep] for f in fields]
    problems = [(row, reasons[row], "error") for row in sorted(reasons)]
    return Part(fields, keep, n, problems)  # type: ignore[arg-type]


def _note(reasons: dict[int, str], rows: np.ndarray, reason: Callable[[int], str]) -> None:
    for row in rows.tolist():
        reasons.setdefault(row, reason(row))


def _field(
    column: pa.Array,
    kind: str,
    label: str,
    reasons: dict[int, str],
    judgements: Judgements | None = None,
    index: int = 0,
) -> Any:
    """One column (the ``index``-th) as the text parser's field: :class:`Coded` names/metadata
    (each dictionary judged once per file: ``judgements``), int64 repeat/fold, float64 values;
    bad rows noted in ``reasons``."""
    if kind in ("int", "value"):
        if pa.types.is_dictionary(column.type):
            column = column.dictionary_decode()
        _note(reasons, np.flatnonzero(nulls(column)), lambda _: f"{label} is missing (null)")
        if kind == "value":
            floats = numpy_of(filled(pc.cast(column, pa.float64(), safe=False), 0.0))
            finite = np.isfinite(floats)
            _note(reasons, np.flatnonzero(~finite), lambda r: f"{label} {float(floats[r])!r} is not finite")
            huge = np.flatnonzero(np.abs(floats) > MAX_VALUE)  # 1e308: the statistics would overflow
            _note(reasons, huge, lambda r: out_of_range(label, repr(float(floats[r]))))
            return floats
        ints = numpy_of(filled(pc.cast(column, pa.int64(), safe=False), 0))
        if pa.types.is_uint64(column.type):  # wraps to negative as int64: say what it was
            raw = numpy_of(filled(column, 0))
            _note(reasons, np.flatnonzero(raw > MAX_INT), lambda r: f"{label} {int(raw[r])} is out of range")
        _note(reasons, np.flatnonzero(ints < 0), lambda r: f"{label} {int(ints[r])} is negative")
        _note(reasons, np.flatnonzero(ints > MAX_INT), lambda r: f"{label} {int(ints[r])} is out of range")
        return ints
    return coded_field(column, kind, label, lambda rows, why: _note(reasons, rows, why), judgements, index)
