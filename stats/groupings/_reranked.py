"""Fragility where the procedure re-ranks what remains (:func:`stats.fragility`): the two-sample
rules (each pair's Wilcoxon or sign test ranks its own differences again) and Holm, Shaffer and
Bergmann-Hommel on aligned or Quade ranks (which rank all data sets together). No sum of the
removed data sets decides these, so removals are analysed in full, sizes in increasing order, up
to a budget; then a greedy removal gives an upper bound.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from stats.core import Table, pairs
from stats.groupings._removal import SLACK, Found, Rule, frame, go_on, pair_decisions
from stats.twosample.nonparametric import sign_test, wilcoxon


def _proxy_order(table: Table, h: int, current: bool) -> np.ndarray:
    """The order a greedy removal tries for a procedure that re-ranks what remains: by the pair's own
    differences, those favouring the side most data sets favour first for a rejection, last otherwise
    (for aligned or Quade ranks as much as for a two-sample test: a pair's aligned or Quade ranks
    differ most where its scores do)."""
    a, b = pairs(table.k)[h]
    d = table.values[:, b] - table.values[:, a]
    side = np.sign(np.sign(d).sum()) or np.sign(d.sum()) or 1.0
    return np.argsort(-side * d if current else side * d, kind="stable")


def full_search(
    table: Table, r: Rule, targets: list[bool], budget: int, limit: int, check: Callable[[], None] = go_on
) -> list[Found]:
    """Each pair's fragility where the procedure re-ranks what remains: every removal of 1, 2, ...
    data sets analysed in full (:func:`stats.groupings._removal.pair_decisions`), shared by all
    pairs, until each has its smallest reversal or ``budget`` analyses are spent; then, for those
    left, a greedy removal along :func:`_proxy_order` as the upper bound. ``check`` is called
    before each analysis and each step of a greedy removal (:func:`stats.groupings._removal.checker`)."""
    analyse = _Analyses(table, r, check)
    current = np.array(targets, dtype=bool)
    found: dict[int, tuple[int, ...]] = {}
    done, spent = 0, 0  # every removal of up to `done` data sets analysed
    for s in range(1, limit + 1):
        if len(found) == len(targets):
            break
        for rows in combinations(range(table.n), s):
            if spent >= budget:
                break
            spent += 1
            for hit in np.flatnonzero(analyse(rows) != current):
                found.setdefault(int(hit), rows)
        else:
            done = s
            continue
        break
    greedy = [budget]  # the greedy removals' own allowance of full analyses
    out = []
    for h, decided in enumerate(targets):
        if h in found:
            out.append(Found(len(found[h]), found[h], True, len(found[h])))
        elif done == limit:
            out.append(Found(None, (), True, None))
        else:
            path = _greedy_path(table, r, h, decided, range(done + 1, limit + 1), analyse, greedy)
            size = None if path is None else len(path)
            out.append(Found(size, path or (), size == done + 1, done + 1))
    return out


class _Analyses:
    """Each pair's decision without the data sets ``rows`` (a sorted tuple), analysed in full by
    :func:`stats.groupings._removal.pair_decisions` once per removal."""

    def __init__(self, table: Table, r: Rule, check: Callable[[], None]) -> None:
        self.table, self.rule, self.check = table, r, check
        self.cache: dict[tuple[int, ...], np.ndarray] = {}

    def __call__(self, rows: tuple[int, ...]) -> np.ndarray:
        if rows not in self.cache:
            self.check()
            keep = np.setdiff1d(np.arange(self.table.n), rows)
            self.cache[rows] = pair_decisions(frame(self.table, keep), self.rule)
        return self.cache[rows]


def _greedy_path(
    table: Table, r: Rule, h: int, current: bool, sizes: range, analyse: _Analyses, allowance: list[int]
) -> tuple[int, ...] | None:
    """The first removal along :func:`_proxy_order` that reverses pair h, or None. For a two-sample
    rule a removal is analysed in full only when the pair's own p-value (:func:`stats.wilcoxon` or
    :func:`stats.sign_test` of what remains) leaves its decision open (p <= APV <= m p under Holm);
    each full analysis spends one of ``allowance``."""
    order = _proxy_order(table, h, current)
    a, b = pairs(table.k)[h]
    m, alpha = table.k * (table.k - 1) // 2, r.alpha
    tests: dict[str, Callable[..., Any]] = {"wilcoxon-holm": wilcoxon, "sign-holm": sign_test}
    own = tests.get(r.procedure)
    for s in sizes:
        analyse.check()
        rows = tuple(sorted(order[:s].tolist()))
        if own is not None:
            keep = np.setdiff1d(np.arange(table.n), rows)
            p = own(table.raw[keep, a], table.raw[keep, b], higher_is_better=r.higher_is_better).pvalue
            if (m * p <= alpha * (1 - SLACK)) if current else (p > alpha * (1 + SLACK)):
                continue  # it cannot reverse there
        if rows not in analyse.cache:
            if allowance[0] <= 0:
                return None
            allowance[0] -= 1
        if analyse(rows)[h] != current:
            return rows
    return None
