"""View 1: quartile charts, one text bar per learner on an axis shared by every chart.

The lines are built once per analysis (in the analysis worker thread, see
:func:`quartile_lines`) as plain-text segments with their styles -- names from the
logs are never parsed as markup -- and shown by a virtualized :class:`QuartilesPanel`
(a ``ScrollView`` drawing only the visible lines with ``render_line``).
"""

from __future__ import annotations

import math
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


def _table(header: Sequence[str], rows: list[list[list[Run]]], gap: int = 1) -> list[list[Run]]:
    """Like :func:`tui.widgets.text_table`: first column left-aligned, others right-aligned, header bold."""
    widths = [cell_len(h) for h in header]
    cell_widths = [[sum(cell_len(t) for t, _ in c) for c in row] for row in rows]
    for cw in cell_widths:
        for i, w in enumerate(cw):
            if i < len(widths):
                widths[i] = max(widths[i], w)
            else:
                widths.append(w)
    lines: list[list[Run]] = []
    head: list[Run] = []
    for i, h in enumerate(header):
        pad = " " * (widths[i] - cell_len(h))
        head.append((h + pad, "bold") if i == 0 else (" " * gap + pad + h, "bold"))
    lines.append(head)
    for row, cw in zip(rows, cell_widths):
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
def _bar_at(pmin: int, pq1: int, pmed: int, pq3: int, pmax: int, pctrl: int) -> tuple[Run, ...]:
    """The bar's runs for these cell positions (``pctrl`` -1: no control): few distinct bars, cached."""
    chars = [" "] * BAR
    styles = [""] * BAR
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


def quartile_runs(view: QuartilesView) -> list[list[Run]]:
    """The quartiles view as lines of (text, style) runs; rows grouped by scope in one pass."""
    arrow = "higher is better -->" if view.higher_is_better else "<-- lower is better"
    lines: list[list[Run]] = [
        [
            (_literal(view.criterion), "bold"),
            (f"  {arrow}   axis {num(view.lo)} .. {num(view.hi)}   ", ""),
            ("= quartiles  | median  : control median", "dim"),
        ]
    ]
    if view.warning:
        lines.append([(_literal(view.warning), "bold yellow")])
    by_scope: dict[str, list] = {}
    for r in view.rows:
        by_scope.setdefault(r.scope, []).append(r)
    lo, hi = view.lo, view.hi
    span = (hi - lo) or 1.0
    scale = (BAR - 1) / span
    last = BAR - 1

    def pos(x: float) -> int:
        return min(last, max(0, round((x - lo) * scale)))

    header = ["learner", "", "n", "min", "q1", "median", "q3", "max"]
    names: dict[str, str] = {}
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
        for r in rows:
            learner = names.get(r.learner)
            if learner is None:
                learner = names[r.learner] = _literal(r.learner)
            runs = _bar_at(pos(r.min), pos(r.q1), pos(r.median), pos(r.q3), pos(r.max), pctrl)
            table.append(
                [
                    [(learner, "")],
                    [(str(r.n), "")],
                    [(_num3(r.min), "")],
                    [(_num3(r.q1), "")],
                    [(_num3(r.median), "")],
                    [(_num3(r.q3), "")],
                    [(_num3(r.max), "")],
                    runs,
                ]
            )
        lines.extend(_table(header, table))
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


def _strips(runs: list[list[Run]]) -> QuartileLines:
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
        widths.append(cell_len(text))
    return QuartileLines(tuple(texts), tuple(all_spans), tuple(widths), max(widths, default=0))


def quartile_lines(view: QuartilesView | None) -> QuartileLines:
    """Everything the panel shows for ``view`` (call it off the event loop: the analysis worker does)."""
    if view is None:
        return _strips([[(EMPTY, "")]])
    return _strips([*quartile_runs(view), []])  # the trailing newline of the text the panel used to show


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

    lines: reactive[QuartileLines | None] = reactive(None, always_update=True, layout=False)

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self._lines: QuartileLines | None = None
        self.plain = ""
        self._base_style: Style | None = None

    def watch_lines(self, lines: QuartileLines | None) -> None:
        if lines is None:
            lines = quartile_lines(None)
        self._lines = lines
        self.plain = lines.plain
        self.virtual_size = Size(lines.width, len(lines))
        self.refresh()

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
