"""pandas imported beside the reading, not in its way (issue 17).

pyarrow's ``to_numpy`` and ``fill_null`` import pandas the first time they run (~0.3 s in a
parse thread, the others waiting on the import lock). The readers now view the arrays' buffers
(:mod:`stats.logs._arrow_numpy`) and :func:`stats.read_logs` imports pandas in a thread of its own
(:mod:`stats.core.import_ahead`), waited for only when the frame is built.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from stats.core import import_ahead as _import_ahead
from stats.logs._arrow_numpy import numpy_of

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_logs" / "c45_demsar.dat"

_PRIMITIVE = [
    pa.int8(),
    pa.int16(),
    pa.int32(),
    pa.int64(),
    pa.uint8(),
    pa.uint32(),
    pa.uint64(),
    pa.float32(),
    pa.float64(),
]


@pytest.mark.parametrize("kind", _PRIMITIVE, ids=str)
def test_numpy_of_equals_to_numpy_for_slices_and_chunks(kind: pa.DataType) -> None:
    values = pa.array(np.arange(40) % 7 + 1, kind)
    for array in (
        values,
        values.slice(3, 11),
        values.slice(40),
        pa.chunked_array([values.slice(0, 5), values.slice(9, 4)]),
    ):
        got, want = numpy_of(array), array.to_numpy()
        assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_numpy_of_leaves_nulls_and_other_types_to_pyarrow() -> None:
    with_null = pa.array([1.5, None, 2.5])
    assert np.isnan(numpy_of(with_null)[1]) and numpy_of(with_null)[2] == 2.5
    assert numpy_of(pa.array([True, False, True])).tolist() == [True, False, True]
    assert numpy_of(pa.chunked_array([], pa.int32())).tolist() == []


_READ_WITHOUT_PANDAS = textwrap.dedent(
    """
    import sys
    from stats.core import import_ahead as _import_ahead
    _import_ahead.start = lambda name: None  # no thread: whatever imports pandas now is the reading
    from stats.logs import _read
    seen = []
    def to_frame(*args, **kwargs):
        seen.append("pandas" in sys.modules)
        raise SystemExit(0 if seen == [False] else 1)
    _read.to_frame = to_frame
    _read.read_logs(sys.argv[1])
    """
)


def test_reading_text_and_parquet_needs_no_pandas_until_the_frame(tmp_path: Path) -> None:
    """Fails before: the first block's ``to_numpy`` in a parse thread imported pandas."""
    import pyarrow.parquet as pq

    from stats import read_logs

    table = tmp_path / "c45.parquet"
    frame = read_logs(SAMPLE).table
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), table)
    for path in (SAMPLE, table):
        run = subprocess.run(
            [sys.executable, "-c", _READ_WITHOUT_PANDAS, str(path)], cwd=ROOT, capture_output=True, text=True
        )
        assert run.returncode == 0, (path, run.stderr)


def test_start_then_wait_gives_the_module_and_raises_its_error() -> None:
    _import_ahead.start("json")  # imported already: no thread
    assert "json" not in _import_ahead._threads
    assert _import_ahead.wait("json").dumps([1]) == "[1]"
    _import_ahead.start("stats._no_such_module_")
    _import_ahead.start("stats._no_such_module_")  # one thread per name
    thread = _import_ahead._threads["stats._no_such_module_"]
    with pytest.raises(ModuleNotFoundError, match="_no_such_module_"):
        _import_ahead.wait("stats._no_such_module_")  # the error is raised where the module is needed
    assert not thread.is_alive()
