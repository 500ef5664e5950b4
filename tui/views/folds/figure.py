"""The folds view as a figure (``rankboard report --view folds --format svg|pdf|png``, the app's ``e``):
the Bayesian probabilities of the screen's tables, drawn from the same :class:`~tui.model.FoldsView`.

Without ``--pair``: every learner against the control, one small panel per learner and in it one
bar per data set, the Bayesian correlated t-test's P(control better), P(equivalent) and
P(learner better) (Corani & Benavoli 2015; ``FoldsView.table``) stacked left to right, so each bar
spans the panel. Many learners: as many columns of panels as the width takes (each at least
:data:`MIN_PANEL` inches), the names wrapped over a few lines above their panels, and as many rows
of panels as a page's height (:data:`MAX_HEIGHT`) takes; the learners left out are named in a line
below (the tables have them all). Likewise a long list of data sets is cut at the page's height.

With ``--pair LEARNER``: the posterior of the Bayesian signed-rank test across data sets
(Benavoli, Corani, Demsar & Zaffalon 2017, Sec. 5) laid out as there and in baycomp: the simplex of (theta of
control better, theta of the rope, theta of learner better), its samples as points, the regions
where each theta is the largest split by dashed lines from the centre, and the three
probabilities (the shares of the samples in each region: ``FoldsView.totals``). The samples are
redrawn from the table's per-data-set mean differences with the Monte Carlo of the view
(:func:`stats.folds.signed_rank_samples.signed_rank_thetas`: same weights, seed and sums); of its
50,000 samples (whose shares are the view's probabilities exactly) the first :data:`SIMPLEX_POINTS`
of each region in proportion to its probability are drawn (largest remainders), so that the points'
shares are the printed probabilities to within 1 / points (a 5 MB SVG of every sample would not be).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tui.formats.figure import (
    HATCHES,
    MARKERS,
    PALETTE,
    TEXT_KW,
    cut_middle,
    label,
    line_height,
    matplotlib_figure,
    put_lines,
    text_width,
    wrap,
)
from tui.formats.text import prob
from tui.views.folds.shared import NO_FOLDS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tui.formats.figure import FigureOptions
    from tui.model import Analysis, FoldsView

#: The three outcomes, in the order of the bars (left to right) and of the simplex's corners:
#: (key, the view's column, words, colour, hatch, marker). Okabe-Ito colours, each with a hatch
#: and a marker, so that greyscale keeps them apart.
OUTCOMES = (
    ("worse", "p_worse", "control better", PALETTE[6], HATCHES[6], MARKERS[0]),
    ("equivalent", "p_equivalent", "equivalent (within the rope)", PALETTE[4], HATCHES[4], MARKERS[1]),
    ("better", "p_better", "learner better", PALETTE[5], HATCHES[5], MARKERS[2]),
)
#: Font sizes (points): captions, names and tick labels.
CAPTION, NAME = 7.0, 6.5
#: Inches: the page's usable height, margins, a data set's row, the narrowest panel, gaps.
MAX_HEIGHT, MARGIN, PITCH, MIN_PANEL, GAP = 9.0, 0.08, 0.11, 1.25, 0.14
#: Inches: the widest data set name beside the bars (longer ones are cut in the middle).
MAX_LABEL = 1.3
#: Lines a learner's or data set's name may wrap over before it is cut in the middle.
MAX_LINES = 3
#: Posterior samples drawn as points in the simplex (of the view's 50,000).
SIMPLEX_POINTS = 2000
#: Inches under the last row of panels for the tick labels.
TICKS = 0.17
#: Inches between two rows of the key.
KEY_ROW = 0.14


def draw(analysis: Analysis, options: FigureOptions) -> Figure:
    """The folds view of ``analysis`` as a figure ``options.width`` inches wide: the per-data-set
    bars of every learner, or with ``options.pair`` the posterior simplex of that learner."""
    view = analysis.part("folds")
    if view is None or view.table.empty:
        raise ValueError(f"nothing to draw in the folds view: {NO_FOLDS}")
    if options.pair is not None:
        return _simplex(view, _learner(view, options.pair), options.width)
    return _bars(view, options.width)


# -- text: measured in inches, wrapped, one Text per line (each with its gid and anchor point) ----


# -- the bars: every learner against the control, per data set --------------------------------


@dataclass(frozen=True)
class _Grid:
    """Where the bars go (inches): columns of panels, their width, the rows of panels drawn."""

    label_width: float
    columns: int
    panel: float
    titles: list[list[str]]  # per learner drawn: its name's lines
    shown: int  # learners drawn (the first ones of the totals)
    datasets: int  # data sets drawn (the first ones of the table)


def _bar_grid(names: list[str], datasets: list[str], width: float, header: float) -> _Grid:
    """The layout of the panels for ``names`` (learners) over ``datasets`` within ``width`` and
    :data:`MAX_HEIGHT` less ``header`` (see the module's text)."""
    label_width = max(text_width(cut_middle(d, MAX_LABEL, NAME), NAME) for d in datasets) + 0.06
    room = width - 2 * MARGIN - label_width
    columns = max(1, min(len(names), int((room + GAP) // (MIN_PANEL + GAP))))
    panel = (room - (columns - 1) * GAP) / columns
    titles = [wrap(n, panel, NAME, lines=MAX_LINES, words=False) for n in names]
    body = MAX_HEIGHT - header - 3 * line_height(CAPTION)  # (and a note naming the learners left out)
    rows = min(len(datasets), max(4, int((body - TICKS - MAX_LINES * line_height(NAME) - 0.03) // PITCH)))
    shown, used = 0, TICKS
    while shown < len(names):
        chunk = titles[shown : shown + columns]
        need = max(len(t) for t in chunk) * line_height(NAME) + 0.03 + rows * PITCH + GAP
        if shown and used + need > body:
            break
        used += need
        shown += len(chunk)
    return _Grid(label_width, columns, panel, titles[:shown], shown, rows)


def _bar_caption(view: FoldsView) -> str:
    """What the bars are, from which test, in words (the first lines of the figure)."""
    direction = "higher" if view.higher_is_better else "lower"
    return (
        f"Each learner against the control {label(view.control)}: per data set, the Bayesian correlated "
        f"t-test (Corani & Benavoli 2015) on the folds, {label(view.criterion)} ({direction} is better), "
        f"rope {view.rope:g}. Bars: P(control better), P(equivalent), P(learner better), summing to 1."
    )


def _legend_rows(width: float) -> list[list[tuple[float, int]]]:
    """The key's items (x in inches, outcome) in rows: left to right, a new row when the width is
    used up."""
    rows: list[list[tuple[float, int]]] = [[]]
    x = MARGIN
    for k, (_, _, words, *_) in enumerate(OUTCOMES):
        item = 0.22 + text_width(words, CAPTION) + 0.18
        if rows[-1] and x + item > width - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append((x, k))
        x += item
    return rows


def legend(figure: Any, top: float, rows: list[list[tuple[float, int]]]) -> None:
    """The key of the three fills (swatch ``key-<outcome>``, words ``key-text-<outcome>``), its
    first row's baseline ``top`` inches from the figure's top."""
    from matplotlib.patches import Rectangle

    width, height = figure.get_size_inches()
    for r, row in enumerate(rows):
        y = top + r * KEY_ROW
        for x, k in row:
            key, _, words, colour, hatch, _ = OUTCOMES[k]
            corner = (x / width, 1 - (y + 0.005) / height)
            swatch = Rectangle(corner, 0.18 / width, 0.09 / height, transform=figure.transFigure, gid=f"key-{key}")
            swatch.set(facecolor=colour, hatch=hatch, edgecolor="black", linewidth=0.4)
            figure.add_artist(swatch)
            put_lines(figure, x + 0.22, y, [words], CAPTION, f"key-text-{key}")


def _bars(view: FoldsView, width: float) -> Figure:
    """One panel per learner (the first that fit), one stacked bar per data set."""
    names = [str(n) for n in view.totals.index]
    datasets = [str(d) for d in dict.fromkeys(view.table.index.get_level_values(0))]
    caption = wrap(_bar_caption(view), width - 2 * MARGIN, CAPTION, lines=8)
    key = _legend_rows(width)
    header = MARGIN + len(caption) * line_height(CAPTION) + len(key) * KEY_ROW + 0.08
    grid = _bar_grid([label(n) for n in names], [label(d) for d in datasets], width, header)
    notes = []
    if grid.shown < len(names):
        notes.append(
            f"Not drawn (the page's height: {grid.shown} of {len(names)} learners; the tables have all): "
            + ", ".join(label(n) for n in names[grid.shown :])
        )
    if grid.datasets < len(datasets):
        notes.append(
            f"Data sets: the first {grid.datasets} of {len(datasets)} (the page's height; the tables have all)."
        )
    note_lines = [line for n in notes for line in wrap(n, width - 2 * MARGIN, CAPTION, lines=12)]
    blocks = []  # per row of panels: (the height of its titles, its bars' height)
    for start in range(0, grid.shown, grid.columns):
        lines = max(len(t) for t in grid.titles[start : start + grid.columns])
        blocks.append((lines * line_height(NAME) + 0.03, grid.datasets * PITCH))
    body = sum(t + b for t, b in blocks) + GAP * (len(blocks) - 1) + TICKS
    height = header + body + len(note_lines) * line_height(CAPTION) + MARGIN
    figure = matplotlib_figure(width, height)
    first = MARGIN + 0.8 * line_height(CAPTION)
    put_lines(figure, MARGIN, first, caption, CAPTION, "caption")
    legend(figure, first + len(caption) * line_height(CAPTION) + 0.02, key)
    frame: dict[Any, Any] = {n: f for n, f in view.table.groupby(level="learner", sort=False)}
    for index in range(grid.shown):
        row, column = divmod(index, grid.columns)
        title_h, bars_h = blocks[row]
        y0 = header + sum(t + b + GAP for t, b in blocks[:row])
        x0 = MARGIN + grid.label_width + column * (grid.panel + GAP)
        ax = figure.add_axes(
            (x0 / width, 1 - (y0 + title_h + bars_h) / height, grid.panel / width, bars_h / height),
            gid=f"axes-{index}",
        )
        put_lines(figure, x0, y0 + 0.8 * line_height(NAME), grid.titles[index], NAME, f"title-{index}")
        last_row = index + grid.columns >= grid.shown
        _panel(ax, frame.get(names[index]), datasets[: grid.datasets], index, column == 0, last_row)
    if note_lines:
        put_lines(figure, MARGIN, header + body + 0.8 * line_height(CAPTION), note_lines, CAPTION, "left-out")
    return figure


def stacked(lefts: list[float], widths: list[float], rows: list[int], height: float) -> Any:
    """One path of the rectangles [left, left + width] x [row - height / 2, row + height / 2]
    (drawn and hatched at once: 720 hatched patches would take seconds)."""
    from matplotlib.path import Path

    verts: list[tuple[float, float]] = []
    for left, w, y in zip(lefts, widths, rows):
        lo, hi = y - height / 2, y + height / 2
        verts += [(left, lo), (left + w, lo), (left + w, hi), (left, hi), (left, lo)]
    codes = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY] * len(rows)
    return Path(verts, codes)


def _panel(ax: Any, rows: Any, datasets: list[str], index: int, labels: bool, ticks: bool) -> None:
    """One learner's bars: data set j's on row j from the top, the three probabilities stacked
    from 0 to 1 (their sum); one path per outcome (gid ``bars-<learner>-<outcome>``, a rectangle
    per data set compared, in the data sets' order); the data sets' names left of the first
    column's panels (``dataset-<learner>-<j>``)."""
    from matplotlib.patches import PathPatch

    ax.patch.set_gid(f"panel-{index}")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(len(datasets) - 0.5, -0.5)
    ax.set_yticks([])
    ax.set_xticks([0.0, 0.5, 1.0], ["0", "0.5", "1"])
    ax.tick_params(axis="x", length=2, pad=1, labelsize=NAME, labelbottom=ticks)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    by_dataset = {} if rows is None else {str(k[0]): r for k, r in zip(rows.index, rows.itertuples())}
    drawn = [j for j, d in enumerate(datasets) if d in by_dataset]
    probs = np.array([[float(getattr(by_dataset[datasets[j]], o[1])) for o in OUTCOMES] for j in drawn]).reshape(-1, 3)
    lefts = np.hstack([np.zeros((len(drawn), 1)), np.cumsum(probs, axis=1)[:, :2]])
    for k, (key, _, _, colour, hatch, _) in enumerate(OUTCOMES):
        path = stacked(lefts[:, k].tolist(), probs[:, k].tolist(), drawn, 0.72)
        bars = PathPatch(
            path, facecolor=colour, hatch=hatch, edgecolor="black", linewidth=0.3, gid=f"bars-{index}-{key}"
        )
        ax.add_artist(bars)  # (not add_patch: the limits are set, and updating them costs a pass over every bar)
    for j, dataset in enumerate(datasets):
        if labels:
            ax.annotate(
                cut_middle(label(dataset), MAX_LABEL, NAME),
                xy=(0.0, j),
                xycoords=ax.get_yaxis_transform(),
                xytext=(-3.0, 0.0),
                textcoords="offset points",
                ha="right",
                va="center",
                fontsize=NAME,
                gid=f"dataset-{index}-{j}",
                **TEXT_KW,
            )
        if dataset not in by_dataset:  # the learner and the control share no 2 folds there
            grey: dict[str, Any] = {"ha": "center", "va": "center", "fontsize": NAME - 1, "color": "#555555"}
            ax.text(0.5, j, "not compared", gid=f"none-{index}-{j}", **grey, **TEXT_KW)


# -- the simplex: the posterior of the Bayesian signed-rank test of one learner ----------------


def _learner(view: FoldsView, pair: str) -> str:
    """``pair`` when it is a learner compared with the control on some data set; ValueError naming
    the learners otherwise."""
    names = [str(n) for n in view.totals.index]
    if pair in names and int(view.totals["datasets"].to_dict()[pair]) > 0:
        if np.isnan(view.totals.loc[pair, [o[1] for o in OUTCOMES]].to_numpy(float)).any():
            # left out above the Monte Carlo's size limit (the view's notes say why), or still computing
            raise ValueError(f"--pair {label(pair)}: the signed-rank test's probabilities were not computed")
        return pair
    if pair == view.control:
        why = "is the control itself"
    elif pair in names:
        why = f"shares no data set with the control {label(view.control)}"
    else:
        why = f"is not a learner compared with the control {label(view.control)}"
    raise ValueError(f"--pair {label(pair)} {why}; the learners are: {', '.join(label(n) for n in names)}")


def corners() -> np.ndarray:
    """The simplex's corners (x, y), as baycomp places them: control better bottom left, the rope
    on top, learner better bottom right (an equilateral triangle of side 1)."""
    return np.array([[0.0, 0.0], [0.5, math.sqrt(3) / 2], [1.0, 0.0]])


def posterior_points(view: FoldsView, learner: str, points: int = SIMPLEX_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(samples, outcome) of ``learner`` against the control: ``points`` posterior samples of the
    signed-rank test (rows: theta of control better, rope, learner better) and which is the
    largest (0, 1, 2, the order of :data:`OUTCOMES`), each outcome's samples as many as its
    probability in ``view.totals`` of ``points`` (largest remainders), the first ones drawn."""
    from stats.core import snap
    from stats.folds.signed_rank_samples import signed_rank_thetas, winners

    z = snap(view.table.xs(learner, level="learner")["mean_difference"].to_numpy(float))
    thetas = signed_rank_thetas(z, view.rope)[:, ::-1]  # (a better, rope, b better) -> control first
    outcome = 2 - winners(thetas[:, ::-1], view.rope)
    probs = view.totals.loc[learner, [o[1] for o in OUTCOMES]].to_numpy(float)
    quota = probs * min(points, thetas.shape[0])
    counts = np.floor(quota).astype(int)
    for k in np.argsort(-(quota - counts), kind="stable")[: int(round(quota.sum())) - counts.sum()]:
        counts[k] += 1
    keep = np.concatenate([np.flatnonzero(outcome == k)[: counts[k]] for k in range(3)])
    keep.sort()
    return thetas[keep], outcome[keep]


def _simplex(view: FoldsView, learner: str, width: float) -> Figure:
    """The posterior simplex of ``learner`` against the control (see the module's text)."""
    from stats.folds.signed_rank import DEFAULT_PRIOR
    from stats.folds.signed_rank_samples import FOLD_NSAMPLES

    samples, outcome = posterior_points(view, learner)
    probs = view.totals.loc[learner, [o[1] for o in OUTCOMES]].to_numpy(float)
    n = int(view.totals["datasets"].to_dict()[learner])
    direction = "higher" if view.higher_is_better else "lower"
    caption = (
        f"{label(learner)} against the control {label(view.control)}: the posterior of the Bayesian signed-rank "
        f"test (Benavoli et al. 2017) on the mean differences over {n} data sets, {label(view.criterion)} "
        f"({direction} is better), rope {view.rope:g}, prior {DEFAULT_PRIOR:g}. Points: {len(samples):,} of its "
        f"{FOLD_NSAMPLES:,} posterior samples, each region's in proportion to its probability; dashed: where two "
        "thetas are equal."
    )
    if view.rope == 0:
        caption += " With rope 0 no sample has weight on the rope: all lie on the bottom edge."
    lines = wrap(caption, width - 2 * MARGIN, CAPTION, lines=10)
    side = min(width - 2 * MARGIN - 1.0, 3.6)
    header = MARGIN + len(lines) * line_height(CAPTION) + 0.1
    below = 2 * line_height(NAME) + 0.12  # the bottom corners' labels
    above = 2 * line_height(NAME) + 0.08
    tri = side * math.sqrt(3) / 2
    height = header + above + tri + below + MARGIN
    figure = matplotlib_figure(width, height)
    put_lines(figure, MARGIN, MARGIN + 0.8 * line_height(CAPTION), lines, CAPTION, "caption")
    left = (width - side) / 2
    ax = figure.add_axes((left / width, (below + MARGIN) / height, side / width, tri / height), gid="simplex-axes")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, math.sqrt(3) / 2)
    ax.set_axis_off()
    c = corners()
    ax.plot([*c[:, 0], 0.0], [*c[:, 1], 0.0], color="black", linewidth=0.8, gid="simplex", clip_on=False)
    centre = c.mean(axis=0)
    for k in range(3):  # from the centre to each edge's middle: where two thetas are equal
        middle = (c[k] + c[(k + 1) % 3]) / 2
        dashed: dict[str, Any] = {"color": "black", "linewidth": 0.6, "linestyle": (0, (3, 2))}
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], gid=f"boundary-{k}", **dashed)
    xy = samples @ c  # barycentric to Cartesian: the corners weighted by the thetas
    for k, (key, _, _, colour, _, marker) in enumerate(OUTCOMES):
        mine = xy[outcome == k]
        dots: dict[str, Any] = {
            "linestyle": "none",
            "markersize": 1.6,
            "markeredgewidth": 0,
            "alpha": 0.7,
            "clip_on": False,
        }
        ax.plot(mine[:, 0], mine[:, 1], marker=marker, color=colour, gid=f"samples-{key}", **dots)
    _corner_labels(ax, c, probs)
    return figure


def _corner_labels(ax: Any, c: np.ndarray, probs: np.ndarray) -> None:
    """Each corner's words and probability (two lines, gids ``corner-<key>`` and ``prob-<key>``)
    outside the triangle, with the marker of its region's points before the words."""
    from matplotlib.transforms import offset_copy

    words = ("control better", "equivalent (rope)", "learner better")
    step = line_height(NAME) * 72.0
    # (horizontal alignment, the first line's offset in points from the corner)
    places = (("left", -step), ("center", 1.2 * step + 2), ("right", -step))
    for k, ((key, _, _, colour, _, marker), text) in enumerate(zip(OUTCOMES, words)):
        ha, dy = places[k]
        for line, (gid, content) in enumerate(((f"corner-{key}", text), (f"prob-{key}", f"P = {prob(probs[k])}"))):
            ax.annotate(
                content,
                xy=c[k],
                xytext=(0, dy - line * step),
                textcoords="offset points",
                ha=ha,
                va="baseline",
                fontsize=NAME,
                gid=gid,
                annotation_clip=False,
                **TEXT_KW,
            )
        width = text_width(text, NAME) * 72.0  # points
        begin = {"left": 0.0, "center": -width / 2, "right": -width}[ha]  # where the words begin
        dx = begin - 4 if ha == "right" else begin + width + 4  # the marker: on the side away from the corner
        at = offset_copy(ax.transData, fig=ax.figure, x=dx, y=dy + 2, units="points")
        glyph: dict[str, Any] = {"linestyle": "none", "markersize": 3.5, "transform": at, "clip_on": False}
        ax.plot([c[k][0]], [c[k][1]], marker=marker, color=colour, gid=f"marker-{key}", **glyph)
