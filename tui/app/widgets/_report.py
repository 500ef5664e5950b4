"""Views 3 and 5: the tests (verdict first) and the critical-difference diagram."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

import stats
from stats import OMNIBUS_NAMES, fmt_p
from tui.app.widgets._base import Plain, literal, num, text_table
from tui.app.widgets._pairs import frame_text
from tui.view import CDView, TestsView
from tui.view import render_cd as draw_cd


def render_tests(view: TestsView) -> Text:
    """Everything below the verdict sentence (which wraps, so it is shown on its own)."""
    alpha = view.alpha
    out = Text(no_wrap=True)
    rows = []
    for name, row in view.omnibus.iterrows():
        df = row["df"]
        df_text = ", ".join(str(int(d)) for d in df) if isinstance(df, tuple) else str(df)
        name_text = OMNIBUS_NAMES.get(str(name), str(name))
        rows.append([name_text, num(row["statistic"]), df_text, fmt_p(float(row["pvalue"]))])
    # "stat", not "statistic": the longest name (Friedman aligned ranks) and every p fit 48 columns
    out.append_text(text_table(["omnibus test", "stat", "df", "p"], rows))
    out.append(f"\nNemenyi critical difference (alpha = {alpha:.2f}): CD = {num(view.cd)}\n\n")
    out.append("control ", style="bold")
    out.append_text(literal(view.control, "bold"))
    out.append(f"; adjusted p-values rejected at alpha = {alpha:g} are marked * (z and raw p never)\n")
    table = view.control_table.drop(columns=[c for c in ("rank", "ranks") if c in view.control_table.columns])
    out.append_text(frame_text(table, alpha, marked=stats.CONTROL_METHODS))
    out.append("\n")
    out.append_text(literal(view.safety, "italic"))
    return out


def render_cd(view: CDView, width: int | None = None) -> Text:
    """The diagram drawn ``width`` columns wide (the view model's 78-column lines when None)."""
    out = Text(f"CD = {num(view.cd)} (Nemenyi)\n{view.basis}\n", no_wrap=True)
    if view.replaced:
        out.append(f"{view.replaced}\n", style="bold yellow")
    out.append("\n")
    lines = view.lines if width is None else draw_cd(view.ranks, view.cd, width=width, cliques=view.cliques)
    for line in lines:
        out.append_text(literal(line))
        out.append("\n")
    return out


class Body(Plain, Static):
    pass


class TestsPanel(ScrollableContainer):
    """The verdict sentence first (wrapped), then the tables (scrolling sideways when wide)."""

    __test__ = False  # not a pytest class

    view: reactive[TestsView | None] = reactive(None, always_update=True, init=False)

    def compose(self) -> ComposeResult:
        yield Body(id="verdict")
        yield Body(id="tests-body", classes="body")

    @property
    def plain(self) -> str:
        return self.query_one("#verdict", Body).plain + "\n" + self.query_one("#tests-body", Body).plain

    def watch_view(self, view: TestsView | None) -> None:
        verdict, body = self.query_one("#verdict", Body), self.query_one("#tests-body", Body)
        if view is None:
            verdict.show(Text("no tests for this selection"))
            body.show(Text(""))
            return
        verdict.show(literal(view.verdict, "bold").copy())
        body.show(render_tests(view))


class CDPanel(Widget):
    """The CD diagram, drawn in ``render`` to the panel's current width (so it follows resizes)."""

    # layout=True: the panel's height follows the drawing (set while on screen, it kept the old height)
    view: reactive[CDView | None] = reactive(None, always_update=True, init=False, layout=True)

    @property
    def plain(self) -> str:
        """The text as drawn at the current width (tests read it)."""
        return self._text().plain

    def _text(self) -> Text:
        view = self.view
        if view is None:
            return Text("no diagram for this selection")
        width = self.content_size.width
        return render_cd(view, width if width >= 40 else None)

    def render(self) -> Text:
        return self._text()
