"""View 1: quartile charts, one text bar per learner on an axis shared by every chart."""

from __future__ import annotations

import math

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.viewtypes import QuartilesView
from tui.widgets import Plain, literal, num, text_table

BAR = 24


def bar(row, lo: float, hi: float, control: float | None) -> Text:  # noqa: ANN001
    """Whiskers (min..max), the quartile box, the median and the control's median as a reference."""
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
    text = Text("[", no_wrap=True)
    for ch, st in zip(chars, styles):
        text.append(ch, st)
    text.append("]")
    return text


def render_quartiles(view: QuartilesView) -> Text:
    arrow = "higher is better -->" if view.higher_is_better else "<-- lower is better"
    out = Text(no_wrap=True)
    out.append_text(literal(view.criterion, "bold"))
    out.append(f"  {arrow}   axis {num(view.lo)} .. {num(view.hi)}   ")
    out.append("= quartiles  | median  : control median\n", style="dim")
    if view.warning:
        out.append_text(literal(view.warning, "bold yellow"))
        out.append("\n")
    for scope in view.scopes:
        rows = [r for r in view.rows if r.scope == scope]
        if not rows:
            continue
        title = Text("\n", no_wrap=True)
        title.append_text(literal(scope, "bold underline"))
        tau = view.tau.get(scope)
        if tau is not None:
            title.append(f"  tau {num(tau, 2)}")
            if scope in view.flagged:
                title.append("  flagged", style="bold yellow")
        out.append_text(title)
        out.append("\n")
        control = view.control_median.get(scope)
        table = [
            [
                literal(r.learner),
                r.n,
                num(r.min),
                num(r.q1),
                num(r.median),
                num(r.q3),
                num(r.max),
                bar(r, view.lo, view.hi, control),
            ]
            for r in rows
        ]
        out.append_text(text_table(["learner", "", "n", "min", "q1", "median", "q3", "max"], table, gap=1))
    return out


class QuartilesPanel(Plain, Static):
    """Shows ``view`` (a QuartilesView, or None)."""

    view: reactive[QuartilesView | None] = reactive(None, always_update=True)

    def watch_view(self, view: QuartilesView | None) -> None:
        self.show(render_quartiles(view) if view is not None else Text("no results for this selection"))
