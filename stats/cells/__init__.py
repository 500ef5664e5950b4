"""Per-cell summaries of a log (criterion x data set x learner): aggregate at once or keep up to
date as rows arrive, the raw values behind each cell, and which cells are complete.
"""

from stats.cells._aggregate import KEYS, aggregate
from stats.cells._completeness import Completeness, completeness, repeats_folds
from stats.cells._incremental import Aggregator
from stats.cells._scores import ScoresTable, scores_table
from stats.cells._values import CellValues

__all__ = [
    "Aggregator",
    "CellValues",
    "Completeness",
    "ScoresTable",
    "KEYS",
    "aggregate",
    "completeness",
    "repeats_folds",
    "scores_table",
]
