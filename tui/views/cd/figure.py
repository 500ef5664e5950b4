"""The CD diagram as a publication figure (``rankboard report --format svg|pdf|png --view cd``, the
app's ``e``): Demsar's (2006, Fig. 1) critical-difference diagram drawn from :class:`CDView`, the
object the screen, the text, Markdown, LaTeX and JSON reports read.

Layout (as the text and TikZ diagrams of this view, and Demsar's figure): average rank 1 (the best)
at the left of the axis, rank k at the right, a tick at each integer rank (numbered where the
numbers do not touch). The better half of the learners (``(k + 1) // 2``, best first) hangs to the
left, one row each, the best on the top row; the rest hang to the right, the worst on the top row;
a line joins each rank on the axis to its label, ``name (rank)`` as the text diagram writes it (the
name alone when names are long: the axis says the rank, as in Demsar's figures). Under the axis, one thick bar per
clique of :attr:`CDView.cliques` -- the procedure's, the same bars as the pairs and CD views (not
Nemenyi's whatever the procedure: the fault of scikit-posthocs #82, #86, #89 and autorank #10) --
packed into as few rows as do not overlap. Nemenyi's CD interval is drawn above the axis only when
the bars are Nemenyi's; the line under the figure says what the bars mean (:attr:`CDView.basis`,
and :attr:`CDView.replaced` when set).

Labels never overlap: each row is at least a line of text below the one above it
(:func:`tui.formats.figure.spread`) and the two sides are apart by the axis. When whole names do
not fit beside an axis of :data:`MIN_AXIS`, the labels are set smaller, down to :data:`MIN_FONT`
points, then without their ranks; only then are names cut in the middle by the rule of every view
(:func:`tui.formats.names.fit_names`: what all share dropped, cut in the middle, kept distinct),
and a line under the figure says so.

Every element the tests read back has a ``gid``: ``rank-axis`` (the axis and its ticks),
``tick-<r>`` (the number of rank r), ``cd-interval``, ``bar-<i>`` (clique i of ``cliques``),
``cd-label``, ``line-<j>`` and ``label-<j>`` (learner j of ``ranks``, best first; a line's first
vertex is its rank on the axis), and the lines under the figure ``basis-<n>`` and
``names-legend-<n>`` (n: the line's number under the figure).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tui.formats.figure import TEXT_KW, FigureOptions, label, matplotlib_figure, spread, text_width, wrap
from tui.formats.names import Fitted, fit_names

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tui.model import Analysis, CDView

#: Label sizes tried in turn (points) before any name is cut; the last is the smallest readable
#: at print size (journals ask for 5 to 7 points).
FONTS = (7.0, 6.5, 6.0, 5.5, 5.0)
MIN_FONT = FONTS[-1]
#: Tick numbers and the lines under the figure (points).
SMALL_FONT = 6.0
#: The axis is never narrower than this many inches, nor than this share of the figure's width,
#: unless names of :data:`MIN_NAME` characters at :data:`MIN_FONT` leave less.
MIN_AXIS, MIN_AXIS_SHARE = 1.0, 0.3
#: Names are never cut below this many characters (as on screen).
MIN_NAME = 6
MARGIN = 0.06  # inches round the figure
ELBOW = 0.12  # inches of horizontal line between a label and the axis' nearest end
PAD = 0.03  # inches between a label and its line
ROW = 1.45  # a label row's pitch, in lines of its font
TIGHT_ROW = 1.2  # the least pitch, when the figure would be taller than MAX_HEIGHT
MAX_HEIGHT = 9.0  # inches: a page less its margins
BAR_WIDTH = 2.2  # points: the clique bars' thickness
BAR_PITCH = 0.055  # inches between two rows of bars
BAR_GAP = 0.04  # inches between two bars of one row


@dataclasses.dataclass(frozen=True)
class _Names:
    """The learners' labels as drawn: the names (fitted), whether their average ranks are written
    beside them, their font size and the inches of the widest label on each side and of the axis."""

    shown: Fitted
    numbers: bool
    size: float
    left: float
    right: float
    axis: float


def _labels(names: Sequence[str], values: Sequence[float], shown: Fitted, left_n: int, numbers: bool) -> list[str]:
    """``name (rank)`` on the left, ``(rank) name`` on the right, as the text diagram writes them;
    the name alone without ``numbers``."""
    if not numbers:
        return [shown[label(n)] for n in names]
    return [
        f"{shown[label(n)]} ({v:.2f})" if j < left_n else f"({v:.2f}) {shown[label(n)]}"
        for j, (n, v) in enumerate(zip(names, values))
    ]


def _fit(names: Sequence[str], values: Sequence[float], width: float) -> _Names:
    """The largest of :data:`FONTS` at which whole names and their average ranks leave the axis its
    room (:data:`MIN_AXIS`, :data:`MIN_AXIS_SHARE`); else whole names without the ranks (the axis
    says them, as in Demsar's figures); else names cut (:func:`fit_names`) to the longest that fits
    at :data:`MIN_FONT`; else at :data:`MIN_NAME` characters, the axis taking what is left (never
    less than half an inch)."""
    k, left_n = len(names), (len(names) + 1) // 2
    room = width - 2 * MARGIN - 2 * (PAD + ELBOW)
    least = max(MIN_AXIS, MIN_AXIS_SHARE * width)
    printed = [label(n) for n in names]

    def fitted(shown: Fitted, numbers: bool, size: float) -> _Names:
        texts = _labels(names, values, shown, left_n, numbers)
        left = max(text_width(t, size) for t in texts[:left_n])
        right = max((text_width(t, size) for t in texts[left_n:]), default=0.0)
        return _Names(shown, numbers, size, left, right, room - left - right)

    whole = Fitted({p: p for p in printed})
    for numbers in (True, False):
        for size in FONTS:
            out = fitted(whole, numbers, size)
            if out.axis >= least:
                return out
    longest = max(len(p) for p in printed)
    for chars in range(longest - 1, MIN_NAME - 1, -1):
        out = fitted(fit_names(printed, chars), False, MIN_FONT)
        if out.axis >= least:
            return out
    out = fitted(fit_names(printed, MIN_NAME), False, MIN_FONT)
    return dataclasses.replace(out, axis=max(out.axis, 0.5 if k > 1 else 0.0))


def _bar_rows(spans: Sequence[tuple[float, float]]) -> list[int]:
    """The row of each bar (``(x0, x1)`` in inches): the first row whose bars end before it starts,
    so bars that do not overlap share a row (Demsar's figures draw them so)."""
    ends: list[float] = []
    rows = []
    for x0, x1 in spans:
        row = next((i for i, end in enumerate(ends) if end + BAR_GAP < x0), len(ends))
        if row == len(ends):
            ends.append(x1)
        else:
            ends[row] = x1
        rows.append(row)
    return rows


def _numbered(k: int, unit: float, size: float) -> list[int]:
    """The ranks whose ticks are numbered: every one when the numbers fit (``unit`` inches per
    rank), else 1 and every 2nd, 5th, 10th, 20th, ... rank, as many as do not touch."""
    need = text_width(str(k), size) + 0.04
    step = 1
    while step * unit < need:
        step = step * 5 // 2 if str(step).startswith("2") else step * 2
    kept: list[int] = []
    for r in [1, *range(step, k + 1, step)] if step > 2 else range(1, k + 1, step):
        if not kept or (r - kept[-1]) * unit >= need:
            kept.append(r)
    return kept


def _caption(view: CDView, names: _Names) -> list[tuple[str, str]]:
    """The lines under the figure, each with its gid: what the bars mean, how names were cut."""
    out = [("basis", view.basis + (f"; {view.replaced}" if view.replaced else ""))]
    legend = names.shown.legend("learners", "")
    if legend:
        out.append(("names-legend", legend))
    return out


def draw(analysis: Analysis, options: FigureOptions) -> Figure:
    """The CD diagram of ``analysis.part("cd")`` (:class:`tui.model.CDView`), ``options.width``
    inches wide, as tall as its rows make it."""
    view: CDView = analysis.part("cd")
    names = [str(n) for n in view.ranks.index]
    values = [float(v) for v in view.ranks.to_numpy()]
    k, left_n = len(names), (len(names) + 1) // 2
    width = options.width
    fitted = _fit(names, values, width)
    size = fitted.size
    line = size / 72.0
    small_font = min(SMALL_FONT, size)  # tick numbers and captions: never larger than the labels
    small = small_font / 72.0
    x0 = MARGIN + fitted.left + PAD + ELBOW
    x1 = x0 + fitted.axis

    def x(rank: float) -> float:
        return x0 if k == 1 else x0 + (rank - 1.0) / (k - 1) * (x1 - x0)

    nemenyi = view.procedure == "nemenyi" and k > 1 and math.isfinite(view.cd) and view.cd > 0
    y = MARGIN + (1.9 * small if nemenyi else 0.0)  # the CD interval's row
    y_axis = y + 1.5 * small + 0.05  # under the tick numbers
    spans = [(x(values[names.index(c[0])]), x(values[names.index(c[-1])])) for c in view.cliques]
    bar_rows = _bar_rows(spans)
    n_bar_rows = max(bar_rows, default=-1) + 1
    top = y_axis + 0.07 + n_bar_rows * BAR_PITCH + 0.5 * line
    rows = max(left_n, k - left_n)
    captions = _caption(view, fitted)
    wrapped = [(gid, part) for gid, text in captions for part in wrap(text, width - 2 * MARGIN, small_font)]
    below = 0.6 * line + len(wrapped) * 1.3 * small + MARGIN
    pitch = ROW * line
    if top + (rows - 1) * pitch + below > MAX_HEIGHT:  # closer rows, never closer than a line
        pitch = max(TIGHT_ROW * line, (MAX_HEIGHT - top - below) / max(rows - 1, 1))
    natural = [top + r * pitch for r in range(rows)]
    row_y = spread(natural, TIGHT_ROW * line, top, top + (rows - 1) * pitch)
    height = (row_y[-1] if row_y else top) + below

    figure = matplotlib_figure(width, height)
    ax = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0.0, width)
    ax.set_ylim(height, 0.0)  # inches, y down: positions read as the layout computes them
    common: dict[str, Any] = {"clip_on": False, "color": "black"}

    # the axis and its ticks (one path), the tick numbers above it
    ticks: list[float] = [x0, x1, math.nan]
    for r in range(1, k + 1):
        ticks += [x(r), x(r), math.nan]
    ys = [y_axis, y_axis, math.nan] + [v for _ in range(k) for v in (y_axis, y_axis - 0.05, math.nan)]
    ax.plot(ticks, ys, lw=0.7, gid="rank-axis", **common)
    for r in _numbered(k, (x1 - x0) / max(k - 1, 1), small_font):
        ax.text(x(r), y_axis - 0.07, str(r), ha="center", va="baseline", fontsize=small_font, gid=f"tick-{r}", **common)
    if nemenyi:
        end = x(min(1.0 + view.cd, float(k)))
        ax.plot([x0, x0, end, end], [y - 0.03, y, y, y - 0.03], lw=0.7, gid="cd-interval", **common)
        longer = " (longer than the axis)" if 1.0 + view.cd > k else ""
        cd_text = f"CD = {view.cd:.3f}{longer} (Nemenyi, alpha = {analysis.selection.alpha:g})"
        if end + 0.05 + text_width(cd_text, small_font) <= width - MARGIN:  # right of the interval
            ax.text(end + 0.05, y, cd_text, ha="left", va="center", fontsize=small_font, gid="cd-label", **common)
        else:  # left of it, over the left labels' column (nothing else is drawn there above the axis)
            cd_text = cd_text if text_width(cd_text, small_font) <= x0 - 0.05 - MARGIN else f"CD = {view.cd:.3f}"
            ax.text(x0 - 0.05, y, cd_text, ha="right", va="center", fontsize=small_font, gid="cd-label", **common)

    # the bars of the procedure's cliques
    for i, ((a, b), row) in enumerate(zip(spans, bar_rows)):
        yb = y_axis + 0.07 + row * BAR_PITCH
        ax.plot([a, b], [yb, yb], lw=BAR_WIDTH, solid_capstyle="projecting", gid=f"bar-{i}", zorder=3, **common)

    # each learner: a line from its rank down to its row, then out to its label
    texts = _labels(names, values, fitted.shown, left_n, fitted.numbers)
    for j, (v, text) in enumerate(zip(values, texts)):
        left = j < left_n
        yr = row_y[j] if left else row_y[k - 1 - j]
        end = x0 - ELBOW if left else x1 + ELBOW
        ax.plot([x(v), x(v), end], [y_axis, yr, yr], lw=0.6, gid=f"line-{j}", zorder=2, **common)
        anchor = end - PAD if left else end + PAD
        ax.text(
            anchor,
            yr,
            text,
            ha="right" if left else "left",
            va="center",
            fontsize=size,
            gid=f"label-{j}",
            **common,
            **TEXT_KW,
        )

    # what the bars mean, and how the names were cut
    yc = (row_y[-1] if row_y else top) + 0.6 * line + small
    for n, (gid, part) in enumerate(wrapped):
        ax.text(
            MARGIN,
            yc + n * 1.3 * small,
            part,
            ha="left",
            va="baseline",
            fontsize=small_font,
            gid=f"{gid}-{n}",
            **common,
            **TEXT_KW,
        )
    return figure
