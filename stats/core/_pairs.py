"""The pairs of learners in the library's order, shared by every all-pairs result.

The post-hoc procedures (:mod:`stats.posthoc.ztests`), the all-pairs two-sample tests and the all-pairs
effect sizes (:mod:`stats.twosample`) list the k(k-1)/2 pairs of learners in this one order, so
that their tables line up row for row.
"""

from __future__ import annotations

from itertools import combinations


def pairs(k: int) -> list[tuple[int, int]]:
    """The k(k-1)/2 pairs of learners in the library's order (0,1), (0,2), ..., (1,2), ..."""
    return list(combinations(range(k), 2))
