"""The lines of the quartile charts (view 1): one text bar per learner on an axis shared by every chart.

:func:`quartile_lines` lays the charts out for a width -- the bar size, the cut of long names,
how many lines each chart takes -- and :class:`QuartileLines` makes a chart's lines only when one
of them is drawn: a log of 500 data sets has 10,000 chart lines, of which a screen shows 40.
Lines are plain text with styled spans; names from the logs are never parsed as markup.

(350 lines: the layout and the lazy lines share the layout's private state -- widths, cuts,
line offsets per chart -- and are one unit; split, each half would reach into the other.)
"""

from __future__ import annotations

import bisect
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from stats import scale_position
from tui.formats.names import fit_names
from tui.model import GROUPING_NAMES, QuartileRow, QuartilesView
from tui.views.quartiles.shared import chart_decimals, overall_note
from tui.widgets import literal, num

#: The bar's cells when no width is given; the narrowest and the widest bar when one is.
BAR, MIN_BAR, MAX_BAR = 24, 12, 48
#: The bar's last resort, when names are as short as they go and the numbers are wide (runtimes at 80
#: columns): whole numbers and a short bar rather than a bar that runs off the pane.
TINY_BAR = 4
#: Names are cut (with an ellipsis) to no fewer cells than this when the chart must fit.
MIN_NAME = 6
HEADER = ("learner", "n", "min", "q1", "median", "q3", "max", "")
#: With Scott-Knott ranks (issue 16): the group rank first, as in Menzies' lecture notes' tables; headed "SK"
#: (the title's legend says what it is): "rank" would cost 80 columns the last cells of the bar.
RANKED = ("SK", *HEADER)
EMPTY = "no results for this selection"
#: The styles a line may use; a line stores indices into this table.
STYLES: tuple[str, ...] = ("", "bold", "dim", "cyan", "yellow", "bold yellow", "bold underline")
_STYLE_INDEX = {spec: i for i, spec in enumerate(STYLES)}

Run = tuple[str, str]  # (plain text, style spec)


@lru_cache(maxsize=64)
def _style(spec: str) -> Style | None:
    return Style.parse(spec) if spec else None


def _literal(name: object) -> str:
    """The plain text of :func:`tui.widgets.literal` (control characters escaped, no markup)."""
    return literal(name).plain


def _width(text: str) -> int:
    """Cells of ``text`` on screen (``len`` for ASCII, the common case)."""
    return len(text) if text.isascii() else cell_len(text)


def _tiny(digits: int) -> float:
    """Below this a value is written with 3 significant digits, not ``digits`` decimals (which
    would keep fewer than 2 of it): 0.001 for 3 decimals, 0.0001 for the 5 of runtimes in ms."""
    return min(1e-3, 10.0 ** (1 - digits))


def _num3(x: float, digits: int = 3) -> str:
    """:func:`tui.widgets.num` with ``digits`` decimals, for the floats of a QuartileRow (the hot path)."""
    if x != x:  # noqa: PLR0124 - NaN
        return "-"
    if x != 0 and (abs(x) < _tiny(digits) or abs(x) >= 1e6):
        return f"{x:.3g}"
    return f"{x:.{digits}f}"


def _numbers(r: QuartileRow, digits: int = 3) -> tuple[str, ...]:
    return (str(r.n), *(_num3(x, digits) for x in (r.min, r.q1, r.median, r.q3, r.max)))


def _number_widths(rows: Sequence[QuartileRow], digits: int = 3) -> list[int]:
    """The widest text of each number column (n, min .. max) over ``rows``, without formatting all.

    ``f"{x:.3f}"`` grows with ``|x|`` (and a minus sign), so only each column's largest and
    smallest values need formatting; the few values :func:`_num3` writes in ``g`` format
    (``|x|`` below :func:`_tiny` or ``>= 1e6``) and NaN are formatted one by one.
    """
    widths = [len(str(max((r.n for r in rows), default=0)))]
    for field in ("min", "q1", "median", "q3", "max"):
        values = [getattr(r, field) for r in rows]
        tiny = _tiny(digits)
        odd = [x for x in values if x != x or (x != 0 and (abs(x) < tiny or abs(x) >= 1e6))]  # noqa: PLR0124
        plain = [x for x in values if x == x and not (x != 0 and (abs(x) < tiny or abs(x) >= 1e6))]  # noqa: PLR0124
        ends = [max(plain), min(plain)] if plain else []
        widths.append(max((len(_num3(x, digits)) for x in [*ends, *odd]), default=1))
    return widths


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


def _table(
    rows: list[list[list[Run]]], widths_of: list[list[int]], header: Sequence[str] = HEADER, gap: int = 1
) -> list[list[Run]]:
    """Like :func:`tui.widgets.text_table` with ``header``: the learner column left-aligned, the
    others right-aligned, header bold. ``widths_of[r][i]``: the cells of cell ``i`` of row ``r``."""
    left = list(header).index("learner")
    widths = [_width(h) for h in header]
    for cw in widths_of:
        for i, w in enumerate(cw):
            if w > widths[i]:
                widths[i] = w
    head: list[Run] = []
    for i, h in enumerate(header):
        pad = " " * (widths[i] - _width(h))
        lead = " " * gap if i else ""
        head.append((lead + h + pad, "bold") if i == left else (lead + pad + h, "bold"))
    lines = [head]
    for row, cw in zip(rows, widths_of):
        line: list[Run] = []
        for i, (c, w) in enumerate(zip(row, cw)):
            pad = " " * (widths[i] - w)
            lead = " " * gap if i else ""
            if i == left:
                line.append((lead, ""))
                line.extend(c)
                line.append((pad, ""))
            else:
                line.append((lead + pad, ""))
                line.extend(c)
        lines.append(line)
    return lines


@dataclass(frozen=True)
class _Layout:
    """What every chart of a view shares: the axis, the bar size, the names as shown."""

    lo: float
    hi: float
    size: int
    names: dict[str, tuple[str, int]]  # learner -> (shown name, its cells)
    legend: str = ""  # how the names were shortened (tui.formats.names.Fitted.legend), if they were

    def pos(self, x: float) -> int:
        """The cell of ``x``: the one mapping of the reports (``stats.scale_position``, half up)."""
        return scale_position(x, self.lo, self.hi, self.size)


def _layout(view: QuartilesView, width: int | None) -> tuple[_Layout, int]:
    """The shared layout, fitted to ``width`` cells, and the widest table line it makes.

    The bar grows into the free width (:data:`MIN_BAR` to :data:`MAX_BAR` cells); when even the
    narrowest bar leaves too little room, names are cut in the middle (kept distinct), down to
    :data:`MIN_NAME` characters, then the bar shrinks to :data:`TINY_BAR`. Without a width: the
    nominal :data:`BAR` and whole names.
    """
    literals = {r.learner: _literal(r.learner) for r in view.rows}
    name_w = max([_width(n) for n in literals.values()] + [len(HEADER[0])])
    num_w = [max(w, len(h)) for w, h in zip(_number_widths(view.rows, chart_decimals(view)), HEADER[1:7])]
    rest = sum(1 + w for w in num_w) + 1 + 2  # gaps, the numbers, the gap and brackets of the bar
    if view.groups is not None:
        rest += max(len(RANKED[0]), len(str(len(literals)))) + 1  # the rank column (<= learners) and its gap
    size, cut = BAR, None
    if width is not None:
        size = min(MAX_BAR, max(MIN_BAR, width - name_w - rest))
        over = name_w + rest + size - width
        if over > 0:
            cut = max(MIN_NAME, name_w - over)
    legend = ""
    if cut is not None:  # the rule of every view: what all share dropped, cut in the middle, distinct
        fitted = fit_names(literals.values(), cut)
        literals, legend = {k: fitted[n] for k, n in literals.items()}, fitted.legend("learners")
    names = literals
    shown = {k: (n, _width(n)) for k, n in names.items()}
    table_w = max(w for _, w in shown.values()) if shown else 0
    if width is not None:  # names at their shortest and still too wide: a shorter bar, not one cut off
        size = max(TINY_BAR, min(size, width - max(table_w, len(HEADER[0])) - rest))
    return _Layout(view.lo, view.hi, size, shown, legend), max(table_w, len(HEADER[0])) + rest + size


def _head(view: QuartilesView, width: int | None, names: str = "") -> list[list[Run]]:
    """The title lines: criterion, direction, axis and legend, how the ``names`` were shortened;
    the warning, wrapped."""
    arrow = "higher is better -->" if view.higher_is_better else "<-- lower is better"
    head: list[Run] = [
        (_literal(view.criterion), "bold"),
        (f"  {arrow}   axis {_num3(view.lo, chart_decimals(view))} .. {_num3(view.hi, chart_decimals(view))}", ""),
    ]
    legend: Run = ("= quartiles  | median  : control median", "dim")
    if view.deltas is not None:  # per-fold differences against the control (x): positive is better
        title: list[Run] = [(_literal(view.criterion), "bold"), ("  deltas vs ", ""), (_literal(view.deltas), "bold")]
        axis: Run = (
            f"better -->  axis {_num3(view.lo, chart_decimals(view))} .. {_num3(view.hi, chart_decimals(view))}",
            "",
        )
        legend = ("= quartiles  | median  : 0 (no difference)", "dim")
        named = [[(part, "dim")] for part in textwrap.wrap(_literal(names), max(width or len(names), 20))]
        if width is not None and _width(axis[0]) + 3 + len(legend[0]) > width:
            return [title, [axis], [legend], *named]
        return [title, [axis, ("   ", ""), legend], *named]
    if width is not None and sum(_width(t) for t, _ in head) + 3 + len(legend[0]) > width:
        lines: list[list[Run]] = [head, [legend]]
    else:
        lines = [[*head, ("   ", ""), legend]]
    if view.groups is not None and view.grouping is not None:
        lines.append([(f"SK: {GROUPING_NAMES[view.grouping]} rank (group), 1 = best  (g: next)", "dim")])
        note = overall_note(view)  # above the overall chart, the first: why its SK may differ from the verdict
        if note:
            for part in [note] if width is None else textwrap.wrap(note, max(width, 20)):
                lines.append([(part, "dim")])
    if names:
        lines.extend([[(part, "dim")] for part in textwrap.wrap(_literal(names), max(width or len(names), 20))])
    if view.warning:
        warning = _literal(view.warning)
        for part in [warning] if width is None else textwrap.wrap(warning, max(width, 20)):
            lines.append([(part, "bold yellow")])
    return lines


def _title(view: QuartilesView, scope: str) -> list[Run]:
    title: list[Run] = [(_literal(scope), "bold underline")]
    tau = view.tau.get(scope)
    if tau is not None:
        title.append((f"  tau {num(tau, 2)}", ""))
        if scope in view.flagged:
            title.append(("  flagged", "bold yellow"))
    return title


def _chart(view: QuartilesView, layout: _Layout, scope: str, rows: Sequence[QuartileRow]) -> list[list[Run]]:
    """One scope's chart: a blank line, its title, the table of its learners with their bars."""
    control = view.control_median.get(scope)
    pctrl = layout.pos(control) if control is not None and not math.isnan(control) else -1
    pos, size = layout.pos, layout.size
    digits = chart_decimals(view)  # the reports' rule: 1 decimal for values of 10 or more, else 3
    groups = view.groups.get(scope, {}) if view.groups is not None else None  # computed on first use
    table, widths = [], []
    for r in rows:
        name, name_w = layout.names[r.learner]
        cells = _numbers(r, digits)
        runs = _bar_at(pos(r.min), pos(r.q1), pos(r.median), pos(r.q3), pos(r.max), pctrl, size)
        table.append([[(name, "")], *([(x, "")] for x in cells), list(runs)])
        widths.append([name_w, *map(len, cells), size + 2])  # numbers are ASCII; the bar is [size]
        if groups is not None:
            rank = str(groups.get(r.learner, "-"))
            table[-1].insert(0, [(rank, "bold" if rank == "1" else "")])
            widths[-1].insert(0, len(rank))
    return [[], _title(view, scope), *_table(table, widths, HEADER if groups is None else RANKED)]


def quartile_runs(view: QuartilesView, width: int | None = None) -> list[list[Run]]:
    """Every line of the view as (text, style) runs (:func:`quartile_lines` makes them lazily)."""
    layout, _ = _layout(view, width)
    lines = _head(view, width, layout.legend)
    for scope, rows in _by_scope(view):
        lines.extend(_chart(view, layout, scope, rows))
    return lines


def _by_scope(view: QuartilesView) -> list[tuple[str, list[QuartileRow]]]:
    by: dict[str, list[QuartileRow]] = {}
    for r in view.rows:
        by.setdefault(r.scope, []).append(r)
    return [(s, by[s]) for s in view.scopes if by.get(s)]


@dataclass(frozen=True)
class _Line:
    """One line: its text, styled spans ``(end, style index, end, style index, ...)``, cells."""

    text: str
    spans: tuple[int, ...]
    width: int

    @staticmethod
    def of(runs: list[Run]) -> _Line:
        parts: list[str] = []
        spans: list[int] = []
        end = 0
        for t, s in runs:
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
        return _Line(text, tuple(spans), _width(text))

    def strip(self) -> Strip:
        segments = []
        start = 0
        for k in range(0, len(self.spans), 2):
            end = self.spans[k]
            segments.append(Segment(self.text[start:end], _style(STYLES[self.spans[k + 1]])))
            start = end
        return Strip(segments, self.width)


class QuartileLines:
    """The lines :class:`tui.views.quartiles.panel.QuartilesPanel` shows; a chart's lines are made when
    first asked for (:meth:`strip`, :attr:`texts`), then kept.

    ``view``: what they draw (None: the empty message); ``fit``: the width they were fitted to
    (None: nominal); ``width``: the widest line (the panel's scrollable width); ``len()``: lines.
    """

    def __init__(self, view: QuartilesView | None, fit: int | None = None) -> None:
        self.view, self.fit = view, fit
        if view is None:
            self._head = [_Line.of([(EMPTY, "")])]
            self._charts: list[tuple[str, list[QuartileRow]]] = []
            self._layout: _Layout | None = None
            table_w = 0
        else:
            self._layout, table_w = _layout(view, fit)
            self._head = [_Line.of(line) for line in _head(view, fit, self._layout.legend)]
            self._charts = _by_scope(view)
        # Line numbers where each chart starts (a chart: blank, title, header, one line per row),
        # and the number of learner rows before each chart (the cursor moves over these rows).
        self._starts = [len(self._head)]
        self._row_starts = [0]
        for _, rows in self._charts:
            self._starts.append(self._starts[-1] + 3 + len(rows))
            self._row_starts.append(self._row_starts[-1] + len(rows))
        self._built: dict[int, list[_Line]] = {}
        titles = [_width("".join(t for t, _ in _title(view, s))) for s, _ in self._charts] if view else []
        self.width = max([line.width for line in self._head] + titles + [table_w])

    def __len__(self) -> int:
        return self._starts[-1] + 1  # and a last, empty line

    def line(self, index: int) -> _Line:
        if index < len(self._head):
            return self._head[index]
        chart = bisect.bisect_right(self._starts, index) - 1
        if chart >= len(self._charts):
            return _Line("", (), 0)
        lines = self._built.get(chart)
        if lines is None:
            scope, rows = self._charts[chart]
            assert self.view is not None and self._layout is not None
            lines = self._built[chart] = [_Line.of(x) for x in _chart(self.view, self._layout, scope, rows)]
        return lines[index - self._starts[chart]]

    def strip(self, index: int) -> Strip:
        return self.line(index).strip()

    # -- the learner rows, numbered 0 .. rows - 1 over every chart (the panel's cursor) -----------

    @property
    def rows(self) -> int:
        return self._row_starts[-1]

    def line_of(self, row: int) -> int:
        """The line of learner row ``row``."""
        chart = bisect.bisect_right(self._row_starts, row) - 1
        return self._starts[chart] + 3 + row - self._row_starts[chart]

    def row_of(self, index: int) -> int | None:
        """The learner row on line ``index``, or None (a title, a header, a blank line)."""
        if index < len(self._head):
            return None
        chart = bisect.bisect_right(self._starts, index) - 1
        if chart >= len(self._charts):
            return None
        k = index - self._starts[chart] - 3
        return self._row_starts[chart] + k if 0 <= k < len(self._charts[chart][1]) else None

    def first_in_chart(self, row: int) -> bool:
        return row in self._row_starts

    def learner(self, row: int) -> tuple[str, str]:
        """``(scope, learner)`` of learner row ``row``."""
        chart = bisect.bisect_right(self._row_starts, row) - 1
        scope, rows = self._charts[chart]
        return scope, rows[row - self._row_starts[chart]].learner

    def find(self, scope: str, learner: str) -> int | None:
        """The row of ``learner`` in the chart of ``scope``, or None."""
        for chart, (s, rows) in enumerate(self._charts):
            if s == scope:
                for k, r in enumerate(rows):
                    if r.learner == learner:
                        return self._row_starts[chart] + k
                return None
        return None

    @property
    def texts(self) -> tuple[str, ...]:
        """Every line's text (makes every chart)."""
        return tuple(self.line(i).text for i in range(len(self)))

    @property
    def widths(self) -> tuple[int, ...]:
        return tuple(self.line(i).width for i in range(len(self)))

    @property
    def plain(self) -> str:
        return "\n".join(self.texts)


def quartile_lines(view: QuartilesView | None, width: int | None = None) -> QuartileLines:
    """The panel's lines for ``view``, fitted to ``width`` cells (see :func:`_layout`)."""
    return QuartileLines(view, width)
