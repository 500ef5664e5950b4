"""The cross-validation runner of seed 000 (and seed 004's sequence studies): run learners on data
sets and write the long-format log, crash-safe and resumable.
"""

from stats.runner._cv import RunSummary, run_cv
from stats.runner._sequence import run_sequence

__all__ = [
    "RunSummary",
    "run_cv",
    "run_sequence",
]
