"""View 1: quartile charts, one text bar per learner on an axis shared by every chart.

The lines are built once per analysis (in the analysis worker thread, see
:func:`quartile_lines`) as plain-text segments with their styles -- names from the
logs are never parsed as markup -- and shown by a virtualized :class:`QuartilesPanel`
(a ``ScrollView`` drawing only the visible lines with ``render_line``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.viewtypes import QuartilesView
from tui.widgets import literal, num

BAR = 24
EMPTY = "no results for this selection"


@lru_cache(maxsize=64)
def _style(spec: str) -> Style | None:
    return Style.parse(spec) if spec else None


def _literal(name: object) -> str:
    """The plain text of :func:`tui.widgets.literal` (control characters escaped, no markup)."""
    return literal(name).plain


def bar_cells(row, lo: float, hi: float, control: float | None) -> list[tuple[str, str]]:  # noqa: ANN001
    """Whiskers (min..max), the quartile box, the median and the control's median, as (text, style) runs."""
    span = (hi - lo) or 1.0

    def pos(x: float) -> int:
        return min(BAR - 1, max(0, round((x - lo) / span * (BAR - 1))))

    chars = [" "] * BAR
    styles = [""] * BAR
    for i in range(pos(row.min), pos(row.max) + 1):
        chars[i] = "-"
    for i in range(pos(row.q1), pos(row.q3) + 1):
        chars[i], styles[i] = "=", "cyan"
    if control is not None and not math.isnan(control):
        chars[pos(control)], styles[pos(control)] = ":", "yellow"
    chars[pos(row.median)], styles[pos(row.median)] = "|", "bold"
    runs: list[tuple[str, str]] = [("[", "")]
    for ch, st in [*zip(chars, styles), ("]", "")]:
        if runs[-1][1] == st:
            runs[-1] = (runs[-1][0] + ch, st)
        else:
            runs.append((ch, st))
    return runs


def bar(row, lo: float, hi: float, control: float | None) -> Text:  # noqa: ANN001
    """The bar as rich Text (kept for callers outside the app)."""
    text = Text(no_wrap=True)
    for chunk, style in bar_cells(row, lo, hi, control):
        text.append(chunk, style)
    return text


Run = tuple[str, str]  # (plain text, style spec)


def _width(text: str) -> int:
    """Cells of ``text`` on screen (``len`` for ASCII, the common case)."""
    return len(text) if text.isascii() else cell_len(text)


def _table(
    header: Sequence[str], rows: list[list[list[Run]]], widths_of: list[list[int]], gap: int = 1
) -> list[list[Run]]:
    """Like :func:`tui.widgets.text_table`: first column left-aligned, others right-aligned, header bold.

    ``widths_of[r][i]``: the width on screen of cell ``i`` of row ``r`` (known by the caller).
    """
    widths = [_width(h) for h in header]
    for cw in widths_of:
        for i, w in enumerate(cw):
            if w > widths[i]:
                widths[i] = w
    lines: list[list[Run]] = []
    head: list[Run] = []
    for i, h in enumerate(header):
        pad = " " * (widths[i] - _width(h))
        head.append((h + pad, "bold") if i == 0 else (" " * gap + pad + h, "bold"))
    lines.append(head)
    for row, cw in zip(rows, widths_of):
        line: list[Run] = []
        for i, (c, w) in enumerate(zip(row, cw)):
            pad = " " * (widths[i] - w)
            if i == 0:
                line.extend(c)
                line.append((pad, ""))
            else:
                line.append((" " * gap + pad, ""))
                line.extend(c)
        lines.append(line)
    return lines


def _num3(x: float) -> str:
    """:func:`tui.widgets.num` with 3 digits, for the floats of a QuartileRow (the hot path)."""
    if x != x:  # noqa: PLR0124 - NaN
        return "-"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e6):
        return f"{x:.3g}"
    return f"{x:.3f}"


@lru_cache(maxsize=4096)
def _bar_at(pmin: int, pq1: int, pmed: int, pq3: int, pmax: int, pctrl: int, size: int = BAR) -> tuple[Run, ...]:
    """The bar's runs for these cell positions (``pctrl`` -1: no control): few distinct bars, cached."""
    chars = [" "] * size
    styles = [""] * size
    for i in range(pmin, pmax + 1):
        chars[i] = "-"
    for i in range(pq1, pq3 + 1):
        chars[i], styles[i] = "=", "cyan"
    if pctrl >= 0:
        chars[pctrl], styles[pctrl] = ":", "yellow"
    chars[pmed], styles[pmed] = "|", "bold"
    runs: list[Run] = [("[", "")]
    for ch, st in [*zip(chars, styles), ("]", "")]:
        if runs[-1][1] == st:
            runs[-1] = (runs[-1][0] + ch, st)
        else:
            runs.append((ch, st))
    return tuple(runs)


#: The narrowest and the widest bar when the chart is fitted to a width.
MIN_BAR, MAX_BAR = 12, 48
#: Names are cut (with an ellipsis) to no fewer cells than this when the chart must fit.
MIN_NAME = 8
HEADER = ("learner", "n", "min", "q1", "median", "q3", "max", "")


def _cut(name: str, cells: int) -> str:
    """``name`` cut to ``cells`` cells with an ellipsis (names are ASCII almost always)."""
    if _width(name) <= cells:
        return name
    out = name[: cells - 1]
    while _width(out) > cells - 1:
        out = out[:-1]
    return out + "\N{HORIZONTAL ELLIPSIS}"


def _fit(names: list[str], numbers: list[tuple[str, ...]], width: int | None) -> tuple[int, int | None]:
    """(bar cells, name cells or None for whole names) so that a table row fits ``width`` cells.

    The bar grows into the free width (from :data:`MIN_BAR` to :data:`MAX_BAR`); when even the
    narrowest bar leaves too little room, names are cut, down to :data:`MIN_NAME` cells. With
    ``width`` None: the nominal :data:`BAR` and whole names.
    """
    if width is None:
        return BAR, None
    name_w = max([_width(n) for n in names] + [len(HEADER[0])])
    num_w = [max([len(row[i]) for row in numbers] + [len(HEADER[i + 1])]) for i in range(6)]
    rest = sum(1 + w for w in num_w) + 1 + 2  # gaps, the numbers, the gap and brackets of the bar
    bar = min(MAX_BAR, max(MIN_BAR, width - name_w - rest))
    over = name_w + rest + bar - width
    if over <= 0:
        return bar, None
    return bar, max(MIN_NAME, name_w - over)


def quartile_runs(view: QuartilesView, width: int | None = None) -> list[list[Run]]:
    """The quartiles view as lines of (text, style) runs; rows grouped by scope in one pass.

    ``width``: the cells available; the bar and, if need be, the names are fitted to it
    (:func:`_fit`). None: the nominal bar of :data:`BAR` cells and whole names.
    """
    arrow = "higher is better -->" if view.higher_is_better else "<-- lower is better"
    head: list[Run] = [(_literal(view.criterion), "bold"), (f"  {arrow}   axis {num(view.lo)} .. {num(view.hi)}", "")]
    legend: Run = ("= quartiles  | median  : control median", "dim")
    if width is not None and sum(_width(t) for t, _ in head) + 3 + len(legend[0]) > width:
        lines: list[list[Run]] = [head, [legend]]
    else:
        lines = [[*head, ("   ", ""), legend]]
    if view.warning:
        warning = _literal(view.warning)
        for part in [warning] if width is None else textwrap.wrap(warning, max(width, 20)):
            lines.append([(part, "bold yellow")])
    by_scope: dict[str, list] = {}
    for r in view.rows:
        by_scope.setdefault(r.scope, []).append(r)
    numbers = {
        id(r): (str(r.n), _num3(r.min), _num3(r.q1), _num3(r.median), _num3(r.q3), _num3(r.max)) for r in view.rows
    }
    literals = {r.learner: _literal(r.learner) for r in view.rows}
    size, name_cells = _fit(list(literals.values()), list(numbers.values()), width)
    shown = {k: (v if name_cells is None else _cut(v, name_cells)) for k, v in literals.items()}
    names = {k: (v, _width(v)) for k, v in shown.items()}
    lo, hi = view.lo, view.hi
    span = (hi - lo) or 1.0
    scale = (size - 1) / span
    last = size - 1

    def pos(x: float) -> int:
        return min(last, max(0, round((x - lo) * scale)))

    for scope in view.scopes:
        rows = by_scope.get(scope)
        if not rows:
            continue
        lines.append([])
        title: list[Run] = [(_literal(scope), "bold underline")]
        tau = view.tau.get(scope)
        if tau is not None:
            title.append((f"  tau {num(tau, 2)}", ""))
            if scope in view.flagged:
                title.append(("  flagged", "bold yellow"))
        lines.append(title)
        control = view.control_median.get(scope)
        pctrl = pos(control) if control is not None and not math.isnan(control) else -1
        table = []
        widths = []
        for r in rows:
            name, name_w = names[r.learner]
            cells = numbers[id(r)]
            runs = _bar_at(pos(r.min), pos(r.q1), pos(r.median), pos(r.q3), pos(r.max), pctrl, size)
            table.append([[(name, "")], *([(x, "")] for x in cells), runs])
            widths.append([name_w, *map(len, cells), size + 2])  # numbers are ASCII; the bar is [size]
        lines.extend(_table(HEADER, table, widths))
    return lines


#: The styles a quartile line may use; a line stores indices into this table.
STYLES: tuple[str, ...] = ("", "bold", "dim", "cyan", "yellow", "bold yellow", "bold underline")
_STYLE_INDEX = {spec: i for i, spec in enumerate(STYLES)}


@dataclass(frozen=True)
class QuartileLines:
    """Render data for :class:`QuartilesPanel`: each line's text and styled spans, the widest line.

    ``spans[i]`` is a flat tuple ``(end, style index, end, style index, ...)`` over ``texts[i]``.
    Strings and tuples of ints only, so thousands of lines add nothing for the garbage collector
    to scan; Segments and a Strip are made only for a visible line (:meth:`strip`).
    """

    texts: tuple[str, ...]
    spans: tuple[tuple[int, ...], ...]
    widths: tuple[int, ...]
    width: int
    view: QuartilesView | None = None  # what the lines draw
    fit: int | None = None  # the width they were fitted to (None: nominal)

    @property
    def plain(self) -> str:
        return "\n".join(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def strip(self, index: int) -> Strip:
        text, spans = self.texts[index], self.spans[index]
        segments = []
        start = 0
        for k in range(0, len(spans), 2):
            end = spans[k]
            segments.append(Segment(text[start:end], _style(STYLES[spans[k + 1]])))
            start = end
        return Strip(segments, self.widths[index])


def _strips(runs: list[list[Run]], view: QuartilesView | None = None, fit: int | None = None) -> QuartileLines:
    texts = []
    all_spans = []
    widths = []
    for line in runs:
        parts: list[str] = []
        spans: list[int] = []
        end = 0
        for t, s in line:
            if not t:
                continue
            style = _STYLE_INDEX[s]
            end += len(t)
            parts.append(t)
            if spans and spans[-1] == style:  # adjacent runs of one style become one segment
                spans[-2] = end
            else:
                spans += (end, style)
        text = "".join(parts)
        texts.append(text)
        all_spans.append(tuple(spans))
        widths.append(_width(text))
    return QuartileLines(tuple(texts), tuple(all_spans), tuple(widths), max(widths, default=0), view, fit)


def quartile_lines(view: QuartilesView | None, width: int | None = None) -> QuartileLines:
    """Everything the panel shows for ``view``, fitted to ``width`` cells (see :func:`quartile_runs`).

    Call it off the event loop: the analysis worker does (about 10 ms for 50 x 20).
    """
    if view is None:
        return _strips([[(EMPTY, "")]])
    # the trailing empty line: the newline of the text the panel used to show
    return _strips([*quartile_runs(view, width), []], view, width)


def render_quartiles(view: QuartilesView) -> Text:
    """The whole view as one rich Text (for callers outside the app)."""
    out = Text(no_wrap=True)
    for line in quartile_runs(view):
        for t, s in line:
            out.append(t, s)
        out.append("\n")
    return out


class QuartilesPanel(ScrollView):
    """Shows ``lines`` (a :class:`QuartileLines`); only the visible lines are drawn."""

    lines: reactive[QuartileLines | None] = reactive(None, always_update=True, layout=False, init=False)

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self._lines: QuartileLines | None = None
        self.plain = ""
        self._base_style: Style | None = None

    def watch_lines(self, lines: QuartileLines | None) -> None:
        if lines is None:
            lines = quartile_lines(None)
        elif lines is self._lines:
            return  # the same chart (e.g. only alpha changed): nothing to draw again
        width = self.fit_width
        if lines.view is not None and width is not None and width != lines.fit:
            lines = quartile_lines(lines.view, width)  # built for another width (e.g. before the first layout)
        self._lines = lines
        self.plain = lines.plain
        self.virtual_size = Size(lines.width, len(lines))
        self.refresh()

    @property
    def fit_width(self) -> int | None:
        """The cells a chart line may take here (None before the first layout).

        The width inside the padding less a vertical scrollbar, shown or not: the chart is
        almost always taller than the pane, and the width must not depend on whether the
        scrollbar happens to be up when the chart is built.
        """
        width = self.content_region.width - self.styles.scrollbar_size_vertical
        return width if self.content_region.width > 0 and width > 0 else None

    def on_resize(self) -> None:
        """Fit the chart to the new width (the app fits it when it builds it; this follows resizes)."""
        lines, width = self._lines, self.fit_width
        if lines is not None and lines.view is not None and width is not None and width != lines.fit:
            self.lines = quartile_lines(lines.view, width)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style  # once per paint, not once per line
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        rich_style = self._base_style if self._base_style is not None else self.rich_style
        width = self.scrollable_content_region.width
        lines = self._lines
        if lines is None or index >= len(lines):
            return Strip.blank(width, rich_style)
        return lines.strip(index).crop_extend(scroll_x, scroll_x + width, rich_style).apply_style(rich_style)
