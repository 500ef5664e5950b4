"""The learning curves as a figure (``rankboard report --view curves --format svg|pdf|png``, the
app's ``e``), drawn from the same :class:`~tui.model._curves.CurvesView` as the screen's charts.

Menzies' lecture notes ("Incremental M*N-way"): "Learn on more and more of the data; report
'plateau' (where learning improvement stops)". One panel per data set: x the training size, y the
criterion; per learner the median at each size (a line with the learner's marker) and the q1-q3
band of the repeats, and its plateau (:func:`stats.plateau`) as a larger open marker on the curve
at the plateau size, with a tick on the x axis under it. A key under each panel names each
learner's marker and line and says its plateau in words ("plateau at 114", "still improving at
513"); the caption gives the plateau's definition (the view's). Each learner keeps its colour,
marker and line style in every panel (Okabe-Ito colours, eight markers, four dash patterns: 56
learners before two look alike). Data sets beyond a page's height (:data:`MAX_HEIGHT`) are named
in a line instead of drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.formats.figure import (
    MARKERS,
    PALETTE,
    TEXT_KW,
    label,
    line_height,
    matplotlib_figure,
    put_lines,
    text_width,
    wrap,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tui.formats.figure import FigureOptions
    from tui.model import Analysis

#: Font sizes (points): captions and keys, tick labels and panel titles.
CAPTION, SMALL = 7.0, 6.5
#: Inches: the page's usable height, margins, a panel's plot area height, gaps, the y axis' labels.
MAX_HEIGHT, MARGIN, PLOT, GAP, AXIS = 9.0, 0.08, 1.9, 0.16, 0.55
#: The fewest inches of a column of panels (two columns from 2 x this).
MIN_PANEL = 2.8
#: The fewest inches of a column of a key, and of the line and marker before each learner's words.
MIN_KEY, KEY_SAMPLE = 1.2, 0.3
#: Dash patterns, one per seven learners (the palette's colours but black).
DASHES = ("-", (0, (4, 1.5)), (0, (1, 1.2)), (0, (4, 1.2, 1, 1.2)))


def draw(analysis: Analysis, options: FigureOptions) -> Figure:
    """The learning curves of ``analysis`` as a figure ``options.width`` inches wide."""
    view = analysis.part("curves")
    if view is None or view.message:
        why = "no learning curves for this selection" if view is None else view.message
        raise ValueError(f"nothing to draw in the curves view: {why}")
    return _curves(view, options.width)


#: The palette's colours for lines, yellow left out (too faint a line on white), black last.
COLOURS = tuple(c for c in PALETTE[1:] if c != "#F0E442") + (PALETTE[0],)


def style(index: int) -> tuple[str, str, Any]:
    """Learner ``index``'s colour, marker and line style: distinct for the first 56 learners
    (7 colours x 8 markers cycle with coprime periods; the dashes change every 7)."""
    return COLOURS[index % 7], MARKERS[index % 8], DASHES[(index // 7) % len(DASHES)]


# -- text: measured in inches, wrapped; one Text per line (each a <text> with its anchor) ------


# -- the curves ----------------------------------------------------------------------------------


def _caption(view: Any) -> str:
    direction = "higher" if view.higher_is_better else "lower"
    return (
        f"Learning curves of {label(view.criterion)} ({direction} is better): at each training size the median "
        "(line and marker) and q1 to q3 (band) of the repeats; open marker and tick: the learner's plateau. "
        f"{view.definition[:1].upper()}{view.definition[1:]}."
    )


def plateau_text(plateau: Any) -> str:
    """A learner's plateau in a few words: ``plateau at 114``, ``still improving at 513``, or
    ``no plateau`` (one training size only)."""
    if plateau is None:
        return "no plateau (one training size)"
    return f"plateau at {plateau.size:g}" if plateau.reached else f"still improving at {plateau.size:g}"


def _keys(view: Any, dataset: str, learners: list[str], width: float) -> tuple[int, list[list[str]]]:
    """The key of one panel: its columns and each learner's lines (``name: plateau at ...``)."""
    plateaus = {p.learner: p for p in view.plateaus.itertuples(index=False) if p.dataset == dataset}
    texts = [f"{label(n)}: {plateau_text(plateaus.get(n))}" for n in learners]
    widest = max(text_width(t, SMALL) for t in texts) + KEY_SAMPLE + 0.15
    columns = max(1, min(len(learners), int(width // max(widest, MIN_KEY))))
    room = width / columns - KEY_SAMPLE  # less the marker and line sample
    return columns, [wrap(t, room, SMALL) for t in texts]


def _key_height(columns: int, lines: list[list[str]]) -> float:
    rows = [lines[i : i + columns] for i in range(0, len(lines), columns)]
    return sum(max(len(x) for x in row) for row in rows) * line_height(SMALL) + 0.04 * len(rows)


def _curves(view: Any, width: float) -> Figure:
    """One panel per data set (those that fit a page), each with its key below."""
    rows = view.rows
    datasets = [str(d) for d in dict.fromkeys(rows["dataset"])]
    learners = [str(n) for n in dict.fromkeys(rows["learner"])]  # one style per learner in every panel
    caption = wrap(_caption(view), width - 2 * MARGIN, CAPTION)
    columns = 2 if width - 2 * MARGIN >= 2 * MIN_PANEL + GAP and len(datasets) > 1 else 1
    panel = (width - 2 * MARGIN - (columns - 1) * GAP) / columns
    plot = panel - AXIS  # the plot area's width, the y axis' labels left of it
    header = MARGIN + len(caption) * line_height(CAPTION) + 0.1
    keys = {}
    for name in datasets:
        mine = [n for n in learners if ((rows["dataset"] == name) & (rows["learner"] == n)).any()]
        keys[name] = (mine, *_keys(view, name, mine, panel))
    blocks, used, shown = [], header + MARGIN + 2 * line_height(CAPTION), 0
    while shown < len(datasets):  # rows of panels while they fit the page (at least one)
        chunk = datasets[shown : shown + columns]
        key = max(_key_height(keys[name][1], keys[name][2]) for name in chunk)
        need = line_height(SMALL) + 0.05 + PLOT + 0.38 + key + GAP
        if shown and used + need > MAX_HEIGHT:
            break
        blocks.append((chunk, key))
        used += need
        shown += len(chunk)
    left_out = datasets[shown:]
    note = (
        wrap(
            f"Not drawn (the page's height: {shown} of {len(datasets)} data sets; the report has all): "
            + ", ".join(label(d) for d in left_out),
            width - 2 * MARGIN,
            CAPTION,
        )
        if left_out
        else []
    )
    body = sum(line_height(SMALL) + 0.05 + PLOT + 0.38 + key + GAP for _, key in blocks) - GAP
    height = header + body + len(note) * line_height(CAPTION) + MARGIN
    figure = matplotlib_figure(width, height)
    put_lines(figure, MARGIN, MARGIN + 0.8 * line_height(CAPTION), caption, CAPTION, "caption")
    top = header
    for chunk, key in blocks:
        for c, dataset in enumerate(chunk):
            x0 = MARGIN + c * (panel + GAP)
            d = datasets.index(dataset)
            put_lines(
                figure,
                x0 + AXIS,
                top + 0.8 * line_height(SMALL),
                [label(dataset)],
                SMALL,
                f"dataset-{d}",
                fontweight="bold",
            )
            ax = figure.add_axes(
                (
                    (x0 + AXIS) / width,
                    1 - (top + line_height(SMALL) + 0.05 + PLOT) / height,
                    plot / width,
                    PLOT / height,
                ),
                gid=f"axes-{d}",
            )
            _panel(ax, view, dataset, d, learners, first=c == 0)
            mine, k_columns, k_lines = keys[dataset]
            _key(
                figure, x0, top + line_height(SMALL) + 0.05 + PLOT + 0.38, panel, d, mine, learners, k_columns, k_lines
            )
        top += line_height(SMALL) + 0.05 + PLOT + 0.38 + key + GAP
    if note:
        put_lines(figure, MARGIN, header + body + 0.8 * line_height(CAPTION), note, CAPTION, "left-out")
    return figure


def _panel(ax: Any, view: Any, dataset: str, d: int, learners: list[str], first: bool) -> None:
    """One data set's curves: per learner its band (``band-<d>-<i>``), medians (``curve-<d>-<i>``:
    a marker per training size) and plateau (``plateau-<d>-<i>``, ``plateau-tick-<d>-<i>``)."""
    rows = view.rows[view.rows["dataset"] == dataset]
    sizes = rows["train"].astype(float)
    lo, hi = float(rows["q1"].min()), float(rows["q3"].max())
    pad = (hi - lo) * 0.06 or max(abs(hi), 1.0) * 0.05
    span = float(sizes.max() - sizes.min()) or max(float(sizes.max()), 1.0)
    ax.set_xlim(float(sizes.min()) - 0.04 * span, float(sizes.max()) + 0.04 * span)
    ax.set_ylim(lo - pad, hi + pad)
    direction = "higher" if view.higher_is_better else "lower"
    ax.set_xlabel("training size (instances)", fontsize=SMALL, labelpad=2)
    if first:
        ax.set_ylabel(f"{label(view.criterion)} ({direction} is better)", fontsize=SMALL, labelpad=2, **TEXT_KW)
    ax.tick_params(labelsize=SMALL, length=2, pad=1)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for i, learner in enumerate(learners):
        curve = rows[rows["learner"] == learner].sort_values("train")
        if curve.empty:
            continue
        colour, marker, dash = style(i)
        x = curve["train"].to_numpy(float)
        q1, q3 = curve["q1"].to_numpy(float), curve["q3"].to_numpy(float)
        ax.fill([*x, *x[::-1]], [*q1, *q3[::-1]], color=colour, alpha=0.13, linewidth=0, gid=f"band-{d}-{i}")
        ax.plot(
            x,
            curve["median"].to_numpy(float),
            color=colour,
            marker=marker,
            markersize=3.2,
            linewidth=1.0,
            linestyle=dash,
            gid=f"curve-{d}-{i}",
        )
        at = curve[curve["plateau"]]
        if len(at):
            size, median = float(at["train"].iloc[0]), float(at["median"].iloc[0])
            ax.plot(
                [size],
                [median],
                linestyle="none",
                marker=marker,
                markersize=7.5,
                markerfacecolor="none",
                markeredgecolor=colour,
                markeredgewidth=1.0,
                gid=f"plateau-{d}-{i}",
                clip_on=False,
            )
            ax.plot(
                [size, size],
                [0.0, 0.07],
                transform=ax.get_xaxis_transform(),
                color=colour,
                linewidth=1.4,
                gid=f"plateau-tick-{d}-{i}",
                clip_on=False,
            )


def _key(
    figure: Any,
    x0: float,
    top: float,
    width: float,
    d: int,
    mine: list[str],
    learners: list[str],
    columns: int,
    lines: list[list[str]],
) -> None:
    """Each learner's line and marker and its plateau in words (``key-<d>-<i>``), in ``columns``
    columns, row by row, from ``top`` inches below the figure's top."""
    from matplotlib.lines import Line2D

    fig_w, fig_h = figure.get_size_inches()
    column = width / columns
    y = top
    for start in range(0, len(mine), columns):
        row = list(range(start, min(start + columns, len(mine))))
        for c, k in enumerate(row):
            i = learners.index(mine[k])
            colour, marker, dash = style(i)
            x = x0 + c * column
            baseline = y + 0.8 * line_height(SMALL)
            mid = 1 - (baseline - 0.025) / fig_h
            figure.add_artist(
                Line2D(
                    [x / fig_w, (x + 0.24) / fig_w],
                    [mid, mid],
                    transform=figure.transFigure,
                    color=colour,
                    linestyle=dash,
                    linewidth=1.0,
                    gid=f"key-line-{d}-{i}",
                )
            )
            figure.add_artist(
                Line2D(
                    [(x + 0.12) / fig_w],
                    [mid],
                    transform=figure.transFigure,
                    color=colour,
                    marker=marker,
                    markersize=3.2,
                    gid=f"key-marker-{d}-{i}",
                )
            )
            put_lines(figure, x + KEY_SAMPLE, baseline, lines[k], SMALL, f"key-{d}-{i}")
        y += max(len(lines[k]) for k in row) * line_height(SMALL) + 0.04
