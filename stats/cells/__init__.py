"""Per-cell summaries of a log (criterion x data set x learner): aggregate at once or keep up to
date as rows arrive, the raw values behind each cell, and which cells are complete.

Imports are lazy (PEP 562), as in :mod:`stats`: :mod:`stats.cells._cell_counts` (numpy alone, for
``rankboard check``) is importable without pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    "Aggregator": "stats.cells._incremental",
    "CellCounts": "stats.cells._cell_counts",
    "CellValues": "stats.cells._values",
    "Completeness": "stats.cells._completeness",
    "KEYS": "stats.cells._aggregate",
    "ScoresTable": "stats.cells._scores",
    "aggregate": "stats.cells._aggregate",
    "completeness": "stats.cells._completeness",
    "repeats_folds": "stats.cells._completeness",
    "scores_table": "stats.cells._scores",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.cells._aggregate import KEYS, aggregate  # noqa: F401
    from stats.cells._cell_counts import CellCounts  # noqa: F401
    from stats.cells._completeness import Completeness, completeness, repeats_folds  # noqa: F401
    from stats.cells._incremental import Aggregator  # noqa: F401
    from stats.cells._scores import ScoresTable, scores_table  # noqa: F401
    from stats.cells._values import CellValues  # noqa: F401


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
