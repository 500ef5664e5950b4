"""Demsar's critical-difference diagram in text (box drawing, or ASCII for plain terminals).

Layout (Demsar 2006, Fig. 1)::

           CD ├──────────┤
              1         2         3         4
              └────┬────┴───┬┬────┴─────────┘
                   ┿━━━━━━━━┿┿              │
           ...     │        ││              │
    best (1.50) ───┘        ││              └─── worst (4.00)

The average-rank axis runs from 1 (left) to k with a tick at each integer;
the better half of the learners hangs to the left, the rest to the right, each
name joined to its rank position by a line. Each heavy bar joins a maximal
group of learners, consecutive in rank order, with no significant pair among
them (:mod:`stats.groupings.groups`: by Nemenyi's CD, or by an all-pairs procedure's APVs).
"""

from __future__ import annotations

import math

import pandas as pd

import stats
from tui.formats.names import Fitted, fit_names

_BOX = {
    frozenset("LR"): "─",
    frozenset("L"): "─",
    frozenset("R"): "─",
    frozenset("UD"): "│",
    frozenset("U"): "│",
    frozenset("D"): "│",
    frozenset("UDLR"): "┼",
    frozenset("UL"): "┘",
    frozenset("UR"): "└",
    frozenset("DL"): "┐",
    frozenset("DR"): "┌",
    frozenset("UDL"): "┤",
    frozenset("UDR"): "├",
    frozenset("ULR"): "┴",
    frozenset("DLR"): "┬",
}
_HEAVY, _HEAVY_CROSS, _CD_ENDS = "━", "┿", ("├", "┤")
_ASCII_HEAVY, _ASCII_CROSS, _ASCII_CD_ENDS = "=", "+", ("|", "|")


def _ascii(dirs: frozenset[str]) -> str:
    horizontal, vertical = bool(dirs & {"L", "R"}), bool(dirs & {"U", "D"})
    return "+" if horizontal and vertical else "-" if horizontal else "|"


def _sorted(ranks: pd.Series) -> pd.Series:
    r = pd.Series(ranks, dtype=float)
    r.index = [str(x) for x in r.index]
    return r.sort_values(kind="stable")


#: Names are cut (in the middle, :func:`tui.formats.names.fit_names`) to no fewer characters than this.
MIN_NAME = 6


def _fit_names(names: list[str], values, left_n: int, width: int, whole: bool = False) -> tuple[Fitted, int]:
    """The names as drawn and the narrowest axis, so that the diagram fits ``width`` if it can.

    Whole names and two cells per rank when they fit; else names fitted by the rule of every
    view (:func:`tui.formats.names.fit_names`: what all share dropped, cut in the middle, kept
    distinct), first with two cells per rank, then with one (the tick labels then skip numbers
    that would touch). A name is never cut below :data:`MIN_NAME`; none is cut when ``whole``.
    """
    k = len(names)
    tags = [len(f" ({v:.2f})") + 3 for v in values]  # " (1.25)" and the line to the axis
    kept = Fitted({n: n for n in names})

    def total(shown: Fitted, axis: int) -> int:
        sides = [len(shown[n]) + t for n, t in zip(names, tags)]
        return max(sides[:left_n]) + max(sides[left_n:], default=0) + axis

    label = max(tags)
    wide, narrow = max(2 * (k - 1) + 1, 11), max(k, 11)
    if total(kept, wide) <= width or whole:
        return kept, wide
    for axis in (wide, narrow):
        room = (width - axis) // 2 - label
        if room >= MIN_NAME:
            shown = fit_names(names, room)
            if total(shown, axis) <= width:
                return shown, axis
    return fit_names(names, MIN_NAME), narrow


def render_cd(
    ranks: pd.Series,
    cd: float,
    *,
    width: int = 78,
    ascii: bool = False,
    cliques: tuple[tuple[str, ...], ...] | None = None,
    hint: str = "",
    whole: bool = False,
) -> list[str]:
    """Draw the critical-difference diagram as lines of text.

    Parameters
    ----------
    ranks : Series
        Average rank per learner (1 = best).
    cd : float
        Nemenyi's critical difference (the bracket on the top line).
    width : int, default 78
        Target width; the axis takes what the names leave (two cells per rank, one
        when crowded), names are cut in the middle (kept distinct) to make room, and
        the lines grow past ``width`` only when names of :data:`MIN_NAME` characters
        and one cell per rank still do not fit.
    ascii : bool, default False
        Draw with ``-``, ``|``, ``+`` and ``=`` (clique bars) instead of box drawing.
    cliques : tuple of tuples of str, optional
        The groups to join with bars (:func:`stats.apv_groups` for an all-pairs
        procedure); Nemenyi's, :func:`stats.cd_groups`, when omitted.
    hint : str, default ""
        Said after the legend line (under the diagram) when names were shortened: how to see
        them whole ("n: full names" in the app).
    whole : bool, default False
        Names whole, the lines as wide as they make them (the app's full names, a report to a file).

    Returns
    -------
    list of str
        The lines, without newlines, right-stripped. Names are written
        literally (no markup escaping: a caller that renders Rich markup must
        escape them).
    """
    r = _sorted(ranks)
    k = len(r)
    names, values = list(r.index), r.to_numpy()
    if k == 0:
        return []
    left_n = (k + 1) // 2
    shown, min_axis = _fit_names(names, values, left_n, width, whole)
    left = [f"{shown[n]} ({v:.2f})" for n, v in zip(names[:left_n], values[:left_n])]
    right = [f"({v:.2f}) {shown[n]}" for n, v in zip(names[left_n:], values[left_n:])]
    m_left = max(len(s) for s in left) + 3
    m_right = max((len(s) for s in right), default=0) + 3
    axis_w = max(width - m_left - m_right, min_axis)
    total = m_left + axis_w + m_right

    def x(rank: float) -> int:
        if k == 1:
            return m_left
        t = (min(max(rank, 1.0), float(k)) - 1.0) / (k - 1) * (axis_w - 1)
        return m_left + math.floor(t + 0.5)

    pos = [x(v) for v in values]
    cliques = tuple(tuple(str(x) for x in c) for c in stats.cd_groups(r, cd)) if cliques is None else cliques
    n_rows = max(left_n, k - left_n)
    grid_h = 1 + len(cliques) + n_rows  # axis, clique bars, learner rows
    dirs: list[list[set[str]]] = [[set() for _ in range(total)] for _ in range(grid_h)]
    heavy: set[tuple[int, int]] = set()
    # the axis: ticks up at integers, a learner hangs down from its position
    for c in range(x(1), x(k) + 1):
        if c > x(1):
            dirs[0][c].add("L")
        if c < x(k):
            dirs[0][c].add("R")
    for i in range(1, k + 1):
        dirs[0][x(i)].add("U")
    # learner rows: left half best first (top), right half worst first (top)
    row_of = {j: 1 + len(cliques) + j for j in range(left_n)}
    row_of.update({j: 1 + len(cliques) + (k - 1 - j) for j in range(left_n, k)})
    for j in range(k):
        dirs[0][pos[j]].add("D")
        for row in range(1, row_of[j]):
            dirs[row][pos[j]].update("UD")
        row = row_of[j]
        dirs[row][pos[j]].update("UL" if j < left_n else "UR")
        span = range(len(left[j]) + 1, pos[j]) if j < left_n else range(pos[j] + 1, total - m_right + 2)
        for c in span:
            dirs[row][c].update("LR")
    for b, clique in enumerate(cliques):
        lo, hi = pos[names.index(clique[0])], pos[names.index(clique[-1])]
        heavy.update((1 + b, c) for c in range(lo, hi + 1))
    lines = []
    if k > 1:
        ends = _ASCII_CD_ENDS if ascii else _CD_ENDS
        a, z = x(1), max(x(1 + cd), x(1) + 1)
        bar = ("-" if ascii else "─") * (z - a - 1)
        lines.append(f"{'CD'.rjust(a - 1)} {ends[0]}{bar}{ends[1]} {cd:.3f}")
    ticks = [" "] * total
    for i in range(1, k + 1):
        label, c = str(i), x(i)
        start = c - (len(label) - 1) // 2
        if all(ch == " " for ch in ticks[max(start - 1, 0) : start + len(label) + 1]):
            ticks[start : start + len(label)] = label
    lines.append("".join(ticks))
    for row in range(grid_h):
        cells = []
        for c in range(total):
            d = frozenset(dirs[row][c])
            if (row, c) in heavy:
                ch = (_ASCII_CROSS if ascii else _HEAVY_CROSS) if d else (_ASCII_HEAVY if ascii else _HEAVY)
            elif d:
                ch = _ascii(d) if ascii else _BOX[d]
            else:
                ch = " "
            cells.append(ch)
        lines.append("".join(cells))
    offset = len(lines) - grid_h  # the CD bracket and the tick numbers come first
    for j in range(k):  # the names, written over the blank ends of their rows
        row = offset + row_of[j]
        text = list(lines[row].ljust(total))
        if j < left_n:
            text[0 : len(left[j])] = left[j]
        else:
            s = total - m_right + 3
            text[s : s + len(right[j - left_n])] = right[j - left_n]
        lines[row] = "".join(text)
    legend = shown.legend("learners", hint)
    return [line.rstrip() for line in lines] + ([legend] if legend else [])
