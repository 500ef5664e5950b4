"""Views 3 and 5: the tests (verdict first) and the critical-difference diagram."""

from __future__ import annotations

import pandas as pd
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

import stats
from stats import OMNIBUS_NAMES, fmt_p
from tui.app.widgets._base import Plain, literal, matches, num, text_table
from tui.app.widgets._pairs import fill_table, frame_text
from tui.app.widgets._table import ExactLine, VimTable
from tui.view import CDView, TestsView
from tui.view import render_cd as draw_cd


def render_tests(view: TestsView) -> Text:
    """The omnibus tests, below the verdict sentence (which wraps, so it is shown on its own)."""
    out = Text(no_wrap=True)
    rows = []
    for name, row in view.omnibus.iterrows():
        df = row["df"]
        df_text = ", ".join(str(int(d)) for d in df) if isinstance(df, tuple) else str(df)
        name_text = OMNIBUS_NAMES.get(str(name), str(name))
        rows.append([name_text, num(row["statistic"]), df_text, fmt_p(float(row["pvalue"]))])
    # "stat", not "statistic": the longest name (Friedman aligned ranks) and every p fit 48 columns
    out.append_text(text_table(["omnibus test", "stat", "df", "p"], rows))
    out.rstrip()
    return out


def control_head(view: TestsView) -> Text:
    """The CD and the line above the control table (they wrap: nothing is cut at the right edge)."""
    out = Text(f"Nemenyi critical difference (alpha = {view.alpha:.2f}): CD = {num(view.cd)}\n\n")
    out.append("control ", style="bold")
    out.append_text(literal(view.control, "bold"))
    out.append(f"; adjusted p-values rejected at alpha = {view.alpha:g} are marked * (z and raw p never)")
    return out


def control_frame(view: TestsView) -> pd.DataFrame:
    """The control table as shown: z, p and the eight APVs (the ranks are in the ranks view)."""
    return view.control_table.drop(columns=[c for c in ("rank", "ranks") if c in view.control_table.columns])


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
    """The verdict sentence first (wrapped), the omnibus tests, then the control table (its
    learner column frozen, scrolling sideways a whole column at a time) and the safety notice."""

    __test__ = False  # not a pytest class
    can_focus = False  # the control table gets the keys (and scrolls the pane to its cursor)

    view: reactive[TestsView | None] = reactive(None, always_update=True, init=False)
    needle = ""  # the / filter (case-folded): the control table's learners whose name contains it

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        self.watch_view(self.view)

    def _frame(self, view: TestsView) -> pd.DataFrame:
        frame = control_frame(view)
        return frame[[matches(self.needle, x) for x in frame.index]]

    def compose(self) -> ComposeResult:
        yield Body(id="verdict")
        yield Body(id="tests-body", classes="body")
        yield Body(id="control-head")
        table = VimTable(id="control-table", zebra_stripes=True, fixed_columns=1)
        table.exact, table.exact_line = self._exact, ExactLine(id="control-exact")
        yield table
        yield table.exact_line
        yield Body(id="tests-safety")

    def _exact(self, learner: str, column: str) -> str | None:
        """A cell of the control table at full precision ("KNN: holm APV 0.0288..., rejected ...")."""
        view = self.view
        if view is None or column == "":
            return None
        names = {str(x): x for x in view.control_table.index}
        value = float(view.control_table.loc[names[learner], column])
        if column in stats.CONTROL_METHODS:
            rejected = f", rejected at alpha = {view.alpha:g}" if value <= view.alpha else ""
            return f"{learner} vs {view.control}: {column} APV {value!r}{rejected}"
        what = "raw p (unadjusted)" if column == "p" else column
        return f"{learner} vs {view.control}: {what} {value!r}"

    @property
    def plain(self) -> str:
        """The text of the view, the control table as a text table (tests read it)."""
        parts = [self.query_one(f"#{name}", Body).plain for name in ("verdict", "tests-body", "control-head")]
        if self.view is not None:
            parts.append(frame_text(self._frame(self.view), self.view.alpha, marked=stats.CONTROL_METHODS).plain)
        parts.append(self.query_one("#tests-safety", Body).plain)
        return "\n".join(parts)

    def watch_view(self, view: TestsView | None) -> None:
        bodies = [
            self.query_one(f"#{name}", Body) for name in ("verdict", "tests-body", "control-head", "tests-safety")
        ]
        table = self.query_one("#control-table", VimTable)
        if view is None:
            table.clear(columns=True)
            for body, line in zip(bodies, ("no tests for this selection", "", "", "")):
                body.show(Text(line))
            return
        verdict, body, head, safety = bodies
        verdict.show(literal(view.verdict, "bold").copy())
        body.show(render_tests(view))
        head.show(control_head(view))
        fill_table(table, self._frame(view), view.alpha, marked=stats.CONTROL_METHODS)  # the cursor stays
        text = literal(view.safety, "italic")  # stats' sentence may quote names from the logs
        text.no_wrap = False
        safety.show(text)


class CDPanel(Widget):
    """The CD diagram, drawn in ``render`` to the panel's current width (so it follows resizes)."""

    # layout=True: the panel's height follows the drawing (set while on screen, it kept the old height)
    view: reactive[CDView | None] = reactive(None, always_update=True, init=False, layout=True)

    @property
    def plain(self) -> str:
        """The text as drawn at the current width (tests read it)."""
        return self._text().plain

    def _text(self, width: int | None = None) -> Text:
        view = self.view
        if view is None:
            return Text("no diagram for this selection")
        width = self.content_size.width if width is None else width
        return render_cd(view, width if width >= 40 else None)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The pane's width, or the drawing's when even cut names do not fit it (many learners
        in a narrow pane): the pane then scrolls sideways instead of folding the diagram's lines."""
        return max(container.width, _widest(self._text(container.width)))

    def render(self) -> Text:
        return self._text()


def _widest(text: Text) -> int:
    return max((line.cell_len for line in text.split("\n")), default=0)
