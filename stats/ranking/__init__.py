"""Ranks and the tests on them: is there any difference among the learners?

* :mod:`stats.ranking.ranks`: within-data-set ranks, average ranks, aligned ranks and Quade's
  weights, computed once per table (:func:`stats.ranked_table`).
* :mod:`stats.ranking.omnibus`: the omnibus tests (Friedman, Iman-Davenport, Friedman aligned
  ranks, Quade).
* :mod:`stats.ranking.skillings_mack`: Skillings & Mack's (1981) Friedman-type test for data sets
  with missing results (:func:`stats.skillings_mack`).
* :mod:`stats.ranking.critical`: critical values and critical differences (Nemenyi, Bonferroni-Dunn)
  and the p-values of Nemenyi's CD rule (Tukey's studentized range).
* :mod:`stats.ranking.agreement`: Kendall's tau-b of many orderings against one.
* :mod:`stats.ranking.assumptions`: the conditions for the safe use of parametric tests.

Imports are lazy (PEP 562): this ``__init__`` names what the other parts of :mod:`stats` import
from here; the public names are :mod:`stats`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each name the other parts of stats import from here, and the module that defines it.
_EXPORTS: dict[str, str] = {
    "critical_difference": "stats.ranking.critical",
    "nemenyi_tukey_p": "stats.ranking.critical",
    "friedman": "stats.ranking.omnibus",
    "iman_davenport": "stats.ranking.omnibus",
    "AverageRanks": "stats.ranking.ranks",
    "aligned_rank_matrix": "stats.ranking.ranks",
    "check_average_ranks": "stats.ranking.ranks",
    "mean_ranks": "stats.ranking.ranks",
    "quade_components": "stats.ranking.ranks",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.ranking.critical import critical_difference, nemenyi_tukey_p  # noqa: F401
    from stats.ranking.omnibus import friedman, iman_davenport  # noqa: F401
    from stats.ranking.ranks import (  # noqa: F401
        AverageRanks,
        aligned_rank_matrix,
        check_average_ranks,
        mean_ranks,
        quade_components,
    )


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
