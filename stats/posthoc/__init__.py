"""Post-hoc procedures: which learners differ, with the p-values adjusted for the family.

* :mod:`stats.posthoc.ztests`: z tests on average ranks, against a control and for all pairs.
* :mod:`stats.posthoc.apv`: adjusted p-values (Bonferroni, Holm, Hochberg, Hommel, Holland,
  Rom, Finner, Li, Shaffer, Bergmann-Hommel, Nemenyi).
* :mod:`stats.posthoc.shaffer_bergmann`: logically related hypotheses: Shaffer's t_i and
  Bergmann-Hommel's exhaustive sets (its exact search: :mod:`stats.posthoc._cluster_deletion`).
* :mod:`stats.posthoc.multiple_sign`: the multiple sign test against a control.
* :mod:`stats.posthoc.contrast`: contrast estimation based on medians.
* :mod:`stats.posthoc.pairwise_two_sample`: all pairs by a paired two-sample test (Wilcoxon or
  sign), adjusted (the columns at once: :mod:`stats.posthoc._paired_columns`).

Imports are lazy (PEP 562): this ``__init__`` names what the other parts of :mod:`stats` import
from here; the public names are :mod:`stats`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each name the other parts of stats import from here, and the module that defines it.
_EXPORTS: dict[str, str] = {
    "adjust": "stats.posthoc.apv",
    "pairwise_wilcoxon": "stats.posthoc.pairwise_two_sample",
    "BergmannLimitWarning": "stats.posthoc.ztests",
    "PairwiseTest": "stats.posthoc.ztests",
    "pairwise_test": "stats.posthoc.ztests",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.posthoc.apv import adjust  # noqa: F401
    from stats.posthoc.pairwise_two_sample import pairwise_wilcoxon  # noqa: F401
    from stats.posthoc.ztests import BergmannLimitWarning, PairwiseTest, pairwise_test  # noqa: F401


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
