"""``rankboard aggregate LOGS --engine duckdb|dask|spark -o medians.parquet``: the grouped median
handed to an engine built for the size of the logs (issue 33).

The only work that grows with the logs is the median of each (criterion, data set, learner) cell
over its repeats and folds; every statistic of the ranks, tests, pairs and CD views starts from
that table. An engine computes it -- DuckDB out of core on one node, Dask or Spark across nodes
-- and this command writes it as the long-format Parquet file rankboard opens (repeat 1, fold 1
per cell; the logs' order of first appearance kept), so that ``rankboard report medians.parquet``
prints what ``rankboard report LOGS`` prints for those views, to the last bit
(:mod:`tui.engines._shared` says how: which lines an engine reads, which rows count, the median).

Each engine is an optional extra (``rankboard[duckdb]``, ``rankboard[dask]``, ``rankboard[spark]``),
imported only by this command; a missing one is said with what to install (exit 1).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from tui.engines._shared import ENGINES, EngineMissing, EngineRefused

__all__ = ["ENGINES", "EngineMissing", "EngineRefused", "run_aggregate"]


def _engine(name: str) -> Callable[..., Any]:
    """The engine's ``aggregate(files, options)`` (its module imports the engine only when called)."""
    if name == "duckdb":
        from tui.engines import _duckdb as module
    elif name == "dask":
        from tui.engines import _dask as module  # type: ignore[no-redef]
    else:
        from tui.engines import _spark as module  # type: ignore[no-redef]
    return module.aggregate


def run_aggregate(
    paths: list[str],
    engine: str,
    output: str,
    *,
    force: bool = False,
    scheduler: str | None = None,
    master: str | None = None,
    say: Callable[[str], None] | None = None,
) -> int:
    """The ``aggregate`` command; the exit status: 0 written, 1 refused (a missing engine, bad
    logs, an existing output without ``force``), 2 options that do not go together."""
    from tui.engines import _shared
    from tui.output import OutputRefused, check_output

    def tell(text: str) -> None:
        (say or (lambda t: print(t, file=sys.stderr)))(f"rankboard: {text}")

    if scheduler is not None and engine != "dask":
        tell("--scheduler ADDRESS is a Dask scheduler's: give it with --engine dask")
        return 2
    if master is not None and engine != "spark":
        tell("--master URL is a Spark master's: give it with --engine spark")
        return 2
    try:
        check_output(output, force=force)  # before the work, not after it
        _shared.load(engine)
        files = _shared.sources(paths)
        started = time.perf_counter()
        cells = _engine(engine)(files, {"scheduler": scheduler, "master": master})
        table = _shared.medians(cells)
        done = _shared.write(table, output, force)
    except (EngineMissing, EngineRefused, OutputRefused) as exc:
        tell(str(exc))
        return 1
    tell(
        f"{done}: {table.num_rows:,} medians (criterion x data set x learner) of {len(files)} file(s) by {engine} "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return 0
