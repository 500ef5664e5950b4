"""The quartile charts as a publication figure (``rankboard report --format svg|pdf|png --view
quartiles [--deltas]``, the app's ``e``): box plots drawn from :class:`QuartilesView`, the object
the screen, the text, Markdown, LaTeX and JSON reports read.

One panel per chart, in the view's order (overall first, then the flagged data sets, most
discordant first, then the others); within a panel one row per learner in the view's order (best
first): its Scott-Knott group rank as text (the ``SK`` column of the screen, the ``Rank`` column of
Menzies' lecture notes' tables) and a horizontal box plot -- a whisker from min to max, a box from
q1 to q3 filled by the group, the median a thick mark (Tukey 1977; the five numbers of the view,
no outliers drawn apart, as the charts of the text report). Every panel shares the view's axis
(``lo`` to ``hi``), so that charts can be compared.

A group's fill is a colour of the Okabe & Ito (2008) palette paired with a hatch, so that it
survives greyscale printing; the legend says which group each fill is, and the rank column says it
in words as well (fills repeat after seven groups). The control is marked by its name in bold and a
dotted line at its median in each panel. With ``--deltas`` (``QuartilesView.deltas`` set) the
boxes are the per-fold differences against the control: a dashed zero line in each panel, and the
axis label says that positive is better than the control.

With many data sets (more than :data:`ALL_UP_TO`) the figure draws the overall panel and the
flagged data sets only (at most :data:`MAX_FLAGGED`), and a line says how many charts are not
drawn; the panels drawn never hold more than :data:`MAX_ROWS` rows in all (the overall panel is
always drawn). Names are fitted as on the CD figure: smaller type down to :data:`MIN_FONT` points
first, then cut in the middle by the rule of every view (:func:`tui.formats.names.fit_names`).

Every element the tests read back has a ``gid``, with ``<s>`` the index of the chart's scope in
``QuartilesView.scopes`` (scopes are names from a log: not fit for an id) and ``<i>`` the row's
index within its chart: ``box-<s>-<i>`` (q1 to q3), ``whisker-<s>-<i>`` (min to max),
``median-<s>-<i>``, ``rank-<s>-<i>``, ``name-<s>-<i>``, ``title-<s>``, ``axis-<s>`` (the axis line
and ticks), ``tick-<s>-<j>``, ``control-<s>``, ``zero-<s>``, ``legend-group-<k>`` (the swatch of
fill k: groups k, k + 7, ...), ``axis-label-<n>`` and ``note-<n>`` (lines of text).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.formats.figure import (
    HATCHES,
    PALETTE,
    TEXT_KW,
    FigureOptions,
    label,
    matplotlib_figure,
    text_width,
    wrap,
)
from tui.formats.names import Fitted, fit_names, middle_ellipsis
from tui.model import GROUPING_NAMES, QuartileRow, QuartilesView
from tui.views.quartiles.shared import overall_note, scope_rows

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tui.model import Analysis

#: Name sizes tried in turn (points) before any name is cut; the last is the smallest readable.
FONTS = (7.0, 6.5, 6.0, 5.5, 5.0)
MIN_FONT = FONTS[-1]
SMALL_FONT = 6.0  # tick numbers, legend and notes (never larger than the names)
#: Every chart is drawn when the view has no more data sets than this; else overall and the flagged.
ALL_UP_TO = 6
MAX_FLAGGED = 6
MAX_ROWS = 60
#: The box plots take at least this many inches, and this share of the width, before names are cut.
MIN_PLOT, MIN_PLOT_SHARE = 1.2, 0.35
MIN_NAME = 6  # names are never cut below this many characters (as on screen)
MARGIN = 0.06  # inches round the figure
GAP = 0.08  # inches between columns
ROW = 1.5  # a row's pitch, in lines of the names' font
TIGHT_ROW = 1.25  # the least pitch, when the rows would make the figure taller than MAX_HEIGHT
MAX_HEIGHT = 9.0  # inches: a page less its margins
BOX = 0.62  # a box's height, as a share of the row's pitch
#: Fills repeat after this many groups (the palette's colours less black, each with its hatch).
FILLS = len(PALETTE) - 1


def fill(group: int | None) -> tuple[str, str]:
    """The (colour, hatch) of Scott-Knott group ``group`` (1 = best): the palette's colours after
    black, each with its own hatch, repeating after :data:`FILLS` groups; white without a group."""
    if group is None:
        return "#FFFFFF", ""
    k = 1 + (group - 1) % FILLS
    return PALETTE[k], HATCHES[k]


def chosen_scopes(view: QuartilesView) -> tuple[list[str], str | None]:
    """The charts drawn, in the view's order, and a line saying which are not (None: all are).

    Every chart when the view has at most :data:`ALL_UP_TO` data sets; else the overall chart
    and the flagged data sets (at most :data:`MAX_FLAGGED`); then no more charts than hold
    :data:`MAX_ROWS` rows (the first chart always)."""
    counts = {s: 0 for s in view.scopes}
    for r in view.rows:
        counts[r.scope] = counts.get(r.scope, 0) + 1
    scopes = [s for s in view.scopes if counts.get(s)]
    datasets = [s for s in scopes if s != "overall"]
    wanted = scopes
    if len(datasets) > ALL_UP_TO:
        flagged = [s for s in view.flagged if counts.get(s)][:MAX_FLAGGED]
        wanted = [s for s in scopes if s == "overall" or s in flagged]
    drawn: list[str] = []
    rows = 0
    for s in wanted:
        if drawn and rows + counts[s] > MAX_ROWS:
            break
        drawn.append(s)
        rows += counts[s]
    left = [s for s in datasets if s not in drawn]
    if not left:
        return drawn, None
    flagged_left = sum(1 for s in left if s in view.flagged)
    which = f"{flagged_left} of them flagged" if flagged_left else "none of them flagged"
    return drawn, (
        f"not drawn: the charts of {len(left)} data set{'s' * (len(left) != 1)} ({which}); "
        "rankboard report --view quartiles prints every chart"
    )


def control_of(view: QuartilesView, analysis: Analysis) -> str | None:
    """The control the view's marks are of: the one the deltas are against, else the analysis'
    control when its medians are the view's ``control_median`` (None: no control is marked)."""
    if view.deltas is not None:
        return view.deltas
    control = analysis.control
    medians = {r.scope: r.median for r in view.rows if r.learner == control}
    shown = [s for s, m in view.control_median.items() if not math.isnan(m)]
    return control if shown and all(medians.get(s) == view.control_median[s] for s in shown) else None


@dataclass(frozen=True)
class _Columns:
    """Where things go across (inches): the rank column, the names, the box plots' axis."""

    shown: Fitted
    size: float
    rank: float  # the rank column's centre (no rank column: 0)
    names: float  # the names' right edge
    lo: float  # the axis' ends
    hi: float


def _columns(view: QuartilesView, learners: Sequence[str], width: float, ranked: bool, bold: str | None) -> _Columns:
    """Whole names at the largest of :data:`FONTS` that leaves the box plots their room; else
    names cut (:func:`fit_names`) to the longest that fits at :data:`MIN_FONT`, or to
    :data:`MIN_NAME` characters."""
    printed = [label(n) for n in learners]
    tick = max(text_width(_tick_text(view.lo, 3), SMALL_FONT), text_width(_tick_text(view.hi, 3), SMALL_FONT))
    least = max(MIN_PLOT, MIN_PLOT_SHARE * width)

    def room(size: float) -> float:
        rank = text_width("SK", min(SMALL_FONT, size)) + GAP if ranked else 0.0
        return width - 2 * MARGIN - rank - GAP - tick / 2 - least

    def widest(shown: Fitted, size: float) -> float:
        return max(text_width(shown[p], size) * (1.08 if p == bold else 1.0) for p in printed)

    whole = Fitted({p: p for p in printed})
    chosen: tuple[Fitted, float] | None = None
    for size in FONTS:
        if widest(whole, size) <= room(size):
            chosen = (whole, size)
            break
    if chosen is None:
        longest = max(len(p) for p in printed)
        for chars in range(longest - 1, MIN_NAME - 1, -1):
            shown = fit_names(printed, chars)
            if widest(shown, MIN_FONT) <= room(MIN_FONT):
                chosen = (shown, MIN_FONT)
                break
    shown, size = chosen or (fit_names(printed, MIN_NAME), MIN_FONT)
    rank_w = text_width("SK", min(SMALL_FONT, size)) if ranked else 0.0
    names = MARGIN + (rank_w + GAP if ranked else 0.0) + widest(shown, size)
    hi = width - MARGIN - tick / 2
    return _Columns(shown, size, MARGIN + rank_w / 2, names, min(names + GAP, hi - 0.3), hi)


def _tick_text(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def _ticks(lo: float, hi: float, inches: float) -> tuple[list[float], int]:
    """Round values between ``lo`` and ``hi`` for an axis ``inches`` long (about one per half
    inch, matplotlib's MaxNLocator), and the decimals their step needs."""
    from matplotlib.ticker import MaxNLocator

    if not hi > lo:
        return [lo], 3
    values = MaxNLocator(nbins=max(2, int(inches / 0.4)), steps=[1, 2, 2.5, 5, 10]).tick_values(lo, hi)
    inside = [float(v) for v in values if lo - 1e-9 * (hi - lo) <= v <= hi + 1e-9 * (hi - lo)]
    step = inside[1] - inside[0] if len(inside) > 1 else hi - lo
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 3
    if any(round(v * 10**decimals) != round(v * 10**decimals, 6) for v in inside):  # steps of 2.5
        decimals += 1
    return inside, decimals


def _legend(view: QuartilesView, control: str | None) -> list[tuple[str, str]]:
    """The lines above the panels (gid, text): the criterion and its direction, what the marks mean."""
    crit = label(view.criterion)
    if view.deltas is not None:
        head = f"{crit}: deltas against {label(view.deltas)} (the control)"
        marks = "box q1 to q3, whisker min to max, thick mark the median; dashed line: 0, no difference"
    else:
        head = f"{crit}: {'higher' if view.higher_is_better else 'lower'} is better"
        marks = "box q1 to q3, whisker min to max, thick mark the median"
        if control is not None:
            marks += f"; bold: the control ({label(control)}), dotted line: its median"
    return [("head", head), ("marks", marks)]


def _notes(view: QuartilesView, names: Fitted, omitted: str | None, drawn: Sequence[str]) -> list[str]:
    """The lines under the panels: why the pooled groups may differ from the verdict, which charts
    are not drawn, how names were cut."""
    out = []
    note = overall_note(view)
    if note and "overall" in drawn:
        out.append(note)
    if any(not math.isnan(view.tau.get(s, math.nan)) for s in drawn if s != "overall"):
        out.append("tau: Kendall's tau between a data set's learner medians and overall's; flagged: discordant")
    if view.warning:
        out.append(f"warning: {view.warning}")
    if omitted:
        out.append(omitted)
    legend = names.legend("learners", "")
    if legend:
        out.append(legend)
    return out


def _axis_label(view: QuartilesView) -> str:
    """What the axis shows; with deltas, which difference and that positive is better than the
    control (as :func:`tui.views.quartiles.shared.deltas_title` says it)."""
    crit = label(view.criterion)
    if view.deltas is None:
        return f"{crit} ({'higher' if view.higher_is_better else 'lower'} is better)"
    sign = "learner - control" if view.higher_is_better else "control - learner"
    return f"{crit}: {sign} on the same (repeat, fold); positive = better than the control"


def draw(analysis: Analysis, options: FigureOptions) -> Figure:
    """The box plots of ``analysis.part("quartiles")`` (:class:`tui.model.QuartilesView`),
    ``options.width`` inches wide, as tall as the panels drawn make them."""
    view: QuartilesView = analysis.part("quartiles")
    width = options.width
    drawn, omitted = chosen_scopes(view)
    ranked = view.groups is not None and view.deltas is None
    control = control_of(view, analysis)
    rows_of = {s: scope_rows(view, s) for s in drawn}
    learners = list(dict.fromkeys(r.learner for s in drawn for r in rows_of[s]))
    bold = label(control) if control is not None and view.deltas is None else None
    cols = _columns(view, learners, width, ranked, bold)
    size, line = cols.size, cols.size / 72.0
    small_font = min(SMALL_FONT, size)
    small = small_font / 72.0
    n_rows = sum(len(rows_of[s]) for s in drawn)
    pitch = max(TIGHT_ROW * line, min(ROW * line, (MAX_HEIGHT - 1.5 - 0.5 * len(drawn)) / max(n_rows, 1)))
    ticks, decimals = _ticks(view.lo, view.hi, cols.hi - cols.lo)

    head = [  # (the first line is bold: a tenth wider)
        (g, part)
        for g, text in _legend(view, control)
        for part in wrap(text, (width - 2 * MARGIN) / (1.1 if g == "head" else 1.0), small_font)
    ]
    groups = sorted({g for s in drawn for g in (view.groups or {}).get(s, {}).values()}) if ranked else []
    notes = [
        part for text in _notes(view, cols.shown, omitted, drawn) for part in wrap(text, width - 2 * MARGIN, small_font)
    ]
    axis_label = wrap(_axis_label(view), cols.hi - cols.lo + 0.3, small_font)

    # heights: the legend, then each panel (title, rows, axis and its numbers), the axis label, notes
    y = MARGIN + 0.8 * small
    head_y = [y + n * 1.3 * small for n in range(len(head))]
    items = _swatches(view, groups, small_font, width) if groups else []
    swatch_lines = 1 + max((line for *_, line in items), default=0) if groups else 0
    swatch_y = head_y[-1] + 1.3 * small
    y = head_y[-1] + 0.6 * small + swatch_lines * 1.5 * small
    panel_tops = []
    for s in drawn:
        y += 1.6 * small  # the title's baseline
        panel_tops.append(y)
        y += 0.35 * pitch + len(rows_of[s]) * pitch + 0.05 + 1.5 * small  # rows, the axis, its numbers
        y += 0.08
    label_y = [y + 1.1 * small + n * 1.3 * small for n in range(len(axis_label))]
    y = (label_y[-1] if label_y else y) + 0.4 * small
    note_y = [y + (n + 1) * 1.3 * small for n in range(len(notes))]
    height = (note_y[-1] if note_y else y) + MARGIN

    figure = matplotlib_figure(width, height)
    ax = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0.0, width)
    ax.set_ylim(height, 0.0)  # inches, y down

    def x(value: float) -> float:
        if not view.hi > view.lo:
            return (cols.lo + cols.hi) / 2
        return cols.lo + (value - view.lo) / (view.hi - view.lo) * (cols.hi - cols.lo)

    common: dict[str, Any] = {"clip_on": False}
    for n, ((gid, part), yy) in enumerate(zip(head, head_y)):
        weight = "bold" if gid == "head" else "normal"
        ax.text(
            MARGIN,
            yy,
            part,
            fontsize=small_font,
            weight=weight,
            va="baseline",
            gid=f"legend-{gid}-{n}",
            **common,
            **TEXT_KW,
        )
    if items:
        _draw_swatches(ax, view, items, swatch_y, small_font)

    start = cols.rank * 2 - MARGIN + GAP if ranked else MARGIN  # the names column's left edge
    titles = _titles(view, drawn, size, width - MARGIN - start)
    for s_drawn, top in zip(drawn, panel_tops):
        _panel(
            ax,
            view,
            view.scopes.index(s_drawn),
            rows_of[s_drawn],
            cols,
            top,
            pitch,
            x,
            ticks,
            decimals,
            control,
            small_font,
            ranked,
            titles[s_drawn],
        )

    for n, (part, yy) in enumerate(zip(axis_label, label_y)):
        ax.text(
            (cols.lo + cols.hi) / 2,
            yy,
            part,
            ha="center",
            va="baseline",
            fontsize=small_font,
            gid=f"axis-label-{n}",
            **common,
            **TEXT_KW,
        )
    for n, (part, yy) in enumerate(zip(notes, note_y)):
        ax.text(MARGIN, yy, part, fontsize=small_font, va="baseline", gid=f"note-{n}", **common, **TEXT_KW)
    return figure


def _swatches(
    view: QuartilesView, groups: Sequence[int], size: float, width: float
) -> list[tuple[int, str, float, int]]:
    """The fills' legend after its intro (:func:`_swatch_intro`): ``(fill, numbers, x, line)`` of
    each fill drawn -- a swatch and the groups it stands for (``1, 8``: fills repeat after
    :data:`FILLS` groups) -- wrapped onto more lines when the width asks."""
    h = 0.9 * size / 72.0
    at = MARGIN + text_width(_swatch_intro(view), size) + 0.08
    line = 0
    out = []
    for k in sorted({1 + (g - 1) % FILLS for g in groups}):
        numbers = ", ".join(str(g) for g in groups if 1 + (g - 1) % FILLS == k)
        need = 1.6 * h + 0.03 + text_width(numbers, size)
        if at + need > width - MARGIN and at > MARGIN:
            at, line = MARGIN, line + 1
        out.append((k, numbers, at, line))
        at += need + 0.08
    return out


def _swatch_intro(view: QuartilesView) -> str:
    return f"fill and SK: {GROUPING_NAMES.get(view.grouping or '', 'Scott-Knott')} rank (1 = best)"


def _draw_swatches(
    ax: Axes, view: QuartilesView, items: Sequence[tuple[int, str, float, int]], y: float, size: float
) -> None:
    """The fills' legend at baseline ``y`` (its further lines below), ``legend-group-<fill>``."""
    from matplotlib.patches import Rectangle

    ax.text(MARGIN, y, _swatch_intro(view), fontsize=size, va="baseline", gid="legend-groups", clip_on=False, **TEXT_KW)
    h = 0.9 * size / 72.0
    for k, numbers, at, line in items:
        yy = y + line * 1.5 * size / 72.0
        colour, hatch = fill(k)
        ax.add_patch(
            Rectangle(
                (at, yy - h),
                1.6 * h,
                h,
                facecolor=colour,
                hatch=hatch,
                edgecolor="black",
                lw=0.4,
                gid=f"legend-group-{k}",
                clip_on=False,
            )
        )
        ax.text(at + 1.6 * h + 0.03, yy, numbers, fontsize=size, va="baseline", clip_on=False, **TEXT_KW)


def _tau_text(view: QuartilesView, scope: str, short: bool) -> str:
    """What a data set's title says after its name: Kendall's tau of its medians against overall's,
    and whether it is flagged (discordant, :attr:`QuartilesView.flagged`); "" for overall."""
    tau = view.tau.get(scope)
    if tau is None or math.isnan(tau):
        return ""
    flag = "  (flagged)" if scope in view.flagged else ""
    return f"   tau {tau:.2f}{flag}" if short else f"   Kendall tau {tau:.2f} against overall{flag}"


def _titles(view: QuartilesView, scopes: Sequence[str], size: float, room: float) -> dict[str, str]:
    """Each chart's title in bold within ``room`` inches: its scope and :func:`_tau_text`, the
    words shortened in every title when one asks, then a scope cut in the middle if still too long."""
    fits = all(1.1 * text_width(label(s) + _tau_text(view, s, False), size) <= room for s in scopes)
    out = {}
    for scope in scopes:
        name, tail = label(scope), _tau_text(view, scope, not fits)
        out[scope] = middle_ellipsis(name, MIN_NAME) + tail
        for chars in range(len(name), MIN_NAME - 1, -1):
            cut = middle_ellipsis(name, chars)
            if 1.1 * text_width(cut + tail, size) <= room:
                out[scope] = cut + tail
                break
    return out


def _panel(
    ax: Axes,
    view: QuartilesView,
    s: int,
    rows: Sequence[QuartileRow],
    cols: _Columns,
    top: float,
    pitch: float,
    x: Any,
    ticks: Sequence[float],
    decimals: int,
    control: str | None,
    small_font: float,
    ranked: bool,
    title: str,
) -> None:
    """One chart: its title, a row per learner (rank, name, box plot), the control's or zero's line
    and the axis with its numbers."""
    from matplotlib.patches import Rectangle

    scope = view.scopes[s]
    size = cols.size
    common: dict[str, Any] = {"clip_on": False}
    start = cols.rank * 2 - MARGIN + GAP if ranked else MARGIN  # the names column's left edge
    ax.text(start, top, title, fontsize=size, weight="bold", va="baseline", gid=f"title-{s}", **common, **TEXT_KW)
    if ranked:
        ax.text(
            cols.rank,
            top,
            "SK",
            fontsize=small_font,
            ha="center",
            va="baseline",
            weight="bold",
            gid=f"sk-{s}",
            **common,
        )
    first = top + 0.35 * pitch + 0.5 * pitch  # the first row's centre
    groups = (view.groups or {}).get(scope, {}) if ranked else {}
    h = BOX * pitch
    for i, r in enumerate(rows):
        y = first + i * pitch
        is_control = control is not None and r.learner == control and view.deltas is None
        if ranked:
            g = groups.get(r.learner)
            ax.text(
                cols.rank,
                y,
                "-" if g is None else str(g),
                fontsize=size,
                ha="center",
                va="center",
                gid=f"rank-{s}-{i}",
                **common,
            )
        ax.text(
            cols.names,
            y,
            cols.shown[label(r.learner)],
            fontsize=size,
            ha="right",
            va="center",
            weight="bold" if is_control else "normal",
            gid=f"name-{s}-{i}",
            **common,
            **TEXT_KW,
        )
        if any(math.isnan(v) for v in (r.min, r.q1, r.median, r.q3, r.max)):
            continue  # (no box for a learner without results here: the name alone)
        colour, hatch = fill(groups.get(r.learner) if ranked else None)
        ax.plot([x(r.min), x(r.max)], [y, y], color="black", lw=0.6, gid=f"whisker-{s}-{i}", zorder=1, **common)
        ax.add_patch(
            Rectangle(
                (x(r.q1), y - h / 2),
                x(r.q3) - x(r.q1),
                h,
                facecolor=colour,
                hatch=hatch,
                edgecolor="black",
                lw=0.5,
                gid=f"box-{s}-{i}",
                zorder=2,
                **common,
            )
        )
        ax.plot(
            [x(r.median)] * 2,
            [y - 0.7 * h, y + 0.7 * h],
            color="black",
            lw=1.6,
            solid_capstyle="butt",
            gid=f"median-{s}-{i}",
            zorder=3,
            **common,
        )
    y0, y1 = first - 0.5 * pitch, first + (len(rows) - 0.5) * pitch
    if view.deltas is not None and view.lo <= 0.0 <= view.hi:
        ax.plot([x(0.0)] * 2, [y0, y1], color="black", lw=0.7, ls=(0, (4, 2)), gid=f"zero-{s}", zorder=4, **common)
    median = view.control_median.get(scope, math.nan)
    if view.deltas is None and control is not None and not math.isnan(median):
        ax.plot(
            [x(median)] * 2, [y0, y1], color="black", lw=0.7, ls=(0, (1, 1.5)), gid=f"control-{s}", zorder=4, **common
        )
    # the axis: a line under the rows, a tick at each round value, its number under it
    ya = y1 + 0.05
    xs: list[float] = [cols.lo, cols.hi, math.nan]
    ys: list[float] = [ya, ya, math.nan]
    for t in ticks:
        xs += [x(t), x(t), math.nan]
        ys += [ya, ya + 0.035, math.nan]
    ax.plot(xs, ys, color="black", lw=0.6, gid=f"axis-{s}", **common)
    for j, t in enumerate(ticks):
        ax.text(
            x(t),
            ya + 0.04 + small_font / 72.0,
            _tick_text(t, decimals),
            fontsize=small_font,
            ha="center",
            va="baseline",
            gid=f"tick-{s}-{j}",
            **common,
        )
