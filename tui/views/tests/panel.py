"""Views 3 and 5: the tests (verdict first) and the critical-difference diagram.

The tests view (issue 16) also shows the tie-corrected Friedman statistic under Demsar's (2006) form,
the multiple sign test against the control and the win/loss/tie table of Menzies' lecture notes, each in a table that
tab reaches (the pane follows the focused table's cursor); when selected data sets miss results (issue 31),
Skillings-Mack's test under Friedman's and how many data sets each uses; when fewer than 2 are
complete, Skillings-Mack's test alone (no CD, control table, notice or post-hoc tables)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.reactive import reactive
from textual.widgets import Static

import stats
from stats import OMNIBUS_NAMES, fmt_p
from tui.model import COMPUTING, COMPUTING_TEXT, Robustness, TestsView, robustness_now, tests_sentence
from tui.views.tests.shared import SM_NAME, uses_sentence
from tui.widgets import (
    ExactLine,
    Plain,
    ViewPanel,
    VimTable,
    fill_table,
    frame_text,
    learner_in_row,
    literal,
    matches,
    num,
    panel_room,
    text_table,
)


def render_tests(view: TestsView) -> Text:
    """The omnibus tests, below the verdict sentence (which wraps, so it is shown on its own)."""
    out = Text(no_wrap=True)
    rows = []
    if view.skillings_mack_only and view.incomplete is not None:  # fewer than 2 complete data sets: its row alone
        sm = view.incomplete.result
        rows.append([SM_NAME, num(sm.statistic), str(sm.df), fmt_p(float(sm.pvalue))])
    for name, row in view.omnibus.iterrows():
        df = row["df"]
        df_text = ", ".join(str(int(d)) for d in df) if isinstance(df, tuple) else str(df)
        name_text = OMNIBUS_NAMES.get(str(name), str(name))
        rows.append([name_text, num(row["statistic"]), df_text, fmt_p(float(row["pvalue"]))])
        if name == "friedman" and view.extra is not None:  # beside Demsar's (2006) uncorrected form
            tied = view.extra.friedman_ties
            rows.append(["Friedman tie-corrected", num(tied.statistic), str(tied.df), fmt_p(float(tied.pvalue))])
        if name == "friedman" and view.incomplete is not None:  # issue 31: it keeps the incomplete data sets
            sm = view.incomplete.result
            rows.append([SM_NAME, num(sm.statistic), str(sm.df), fmt_p(float(sm.pvalue))])
    # "stat", not "statistic": the longest name (Friedman aligned ranks) and every p fit 48 columns
    out.append_text(text_table(["omnibus test", "stat", "df", "p"], rows))
    out.rstrip()
    return out


def sign_head(view: TestsView) -> Text:
    """The line above the multiple sign test's table: H1, the critical value and what is marked."""
    assert view.extra is not None
    sign = view.extra.sign
    h1 = "worse than" if sign.alternative == "worse" else "different from"
    out = Text("\n")
    out.append("multiple sign test", style="bold")
    out.append(" (Steel 1959) vs ")
    out.append_text(literal(view.control, "bold"))
    out.append(f": H1 learner {h1} the control; +, -, = data sets it wins, loses, ties; ")
    if sign.critical_value is None:
        out.append(f"no count is rejectable at alpha = {view.alpha:g} with {sign.n} data sets")
    else:
        out.append(f"r* = {sign.critical_value}, statistic <= r* marked * (FWER {view.alpha:g})")
    return out


def sign_frame(view: TestsView) -> pd.DataFrame:
    """The multiple sign test's counts: ``+`` data sets where the learner beats the control, ``-``
    where it loses, ``=`` ties, and the statistic (marked in :func:`sign_cells`)."""
    assert view.extra is not None
    table = view.extra.sign.table
    frame = pd.DataFrame(
        {"+": table["plus"], "-": table["minus"], "=": table["ties"], "stat": table["statistic"]}, index=table.index
    )
    return frame.astype(object).assign(
        stat=[f"{int(s)}{'*' if r else ' '}" for s, r in zip(table["statistic"], table["rejected"])]
    )


def wlt_head(view: TestsView) -> Text:
    out = Text("\n")
    out.append("win/loss/tie", style="bold")
    out.append(f" (Menzies): paired t-tests across data sets at alpha = {view.alpha:g}, each learner against")
    out.append(" every other, no multiplicity correction; sorted by win - loss")
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


class Body(Plain, Static):
    pass


class TestsPanel(ViewPanel, ScrollableContainer):
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

    #: The robustness shown under the verdict: a :class:`~tui.model.Robustness`, ``COMPUTING``
    #: while the app computes it (the view is shown at once without it), or None (none).
    robust: Any = None

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Any) -> Any:
        """The view and its robustness as computed so far (never waiting for it)."""
        view = analysis.part(part)
        return None if view is None else (view, robustness_now(analysis))

    def compose(self) -> ComposeResult:
        yield Body(id="verdict")
        robust = Body(id="tests-robustness")  # how fragile and stable the verdict is (issue 31)
        robust.styles.width = "1fr"  # wrapped to the pane, as the verdict
        robust.styles.margin = (0, 0, 1, 0)
        yield robust
        yield Body(id="tests-body", classes="body")
        counts = Body(id="tests-incomplete")  # how many data sets each test uses, when some miss results
        counts.styles.width = "1fr"  # wrapped to the pane, as the verdict
        yield counts
        yield Body(id="control-head")
        table = VimTable(id="control-table", zebra_stripes=True, fixed_columns=1)
        table.exact, table.exact_line = self._exact, ExactLine(id="control-exact")
        yield table
        yield table.exact_line
        yield Body(id="tests-safety")  # the control table's caveat stays under it
        yield Body(id="sign-head")
        yield VimTable(id="sign-table", zebra_stripes=True, fixed_columns=1)
        yield Body(id="wlt-head")
        yield VimTable(id="wlt-table", zebra_stripes=True, fixed_columns=1)

    def _exact(self, learner: str, column: str) -> tuple[str, str] | None:
        """A cell of the control table at full precision and its sentence ("KNN vs NB: holm APV
        0.0288..., rejected ...")."""
        view = self.view
        if view is None or column == "":
            return None
        names = {str(x): x for x in view.control_table.index}
        value = float(view.control_table.loc[names[learner], column])
        if column in stats.CONTROL_METHODS:
            rejected = f", rejected at alpha = {view.alpha:g}" if value <= view.alpha else ""
            return repr(value), f"{learner} vs {view.control}: {column} APV {value!r}{rejected}"
        what = "raw p (unadjusted)" if column == "p" else column
        return repr(value), f"{learner} vs {view.control}: {what} {value!r}"

    @property
    def plain(self) -> str:
        """The text of the view, the control table as a text table (tests read it)."""
        parts = [self.query_one(f"#{name}", Body).plain for name in ("verdict", "tests-robustness", "tests-body")]
        if self.view is not None and self.view.incomplete is not None:
            parts.append(self.query_one("#tests-incomplete", Body).plain)
        if self.view is not None and self.view.skillings_mack_only:  # no CD, control table nor notice
            return "\n".join(parts)
        parts.append(self.query_one("#control-head", Body).plain)
        if self.view is not None:
            parts.append(frame_text(self._frame(self.view), self.view.alpha, marked=stats.CONTROL_METHODS).plain)
        parts.append(self.query_one("#tests-safety", Body).plain)
        if self.view is not None and self.view.extra is not None:
            parts.append(self.query_one("#sign-head", Body).plain)
            parts.append(frame_text(self._rows(sign_frame(self.view))).plain)
            parts.append(self.query_one("#wlt-head", Body).plain)
            parts.append(frame_text(self._rows(self._wlt(self.view))).plain)
        return "\n".join(parts)

    def _rows(self, frame: pd.DataFrame) -> pd.DataFrame:
        return frame[[matches(self.needle, x) for x in frame.index]]

    @staticmethod
    def _wlt(view: TestsView) -> pd.DataFrame:
        assert view.extra is not None
        return view.extra.win_loss_tie.rename(columns={"win_minus_loss": "win-loss"})

    def watch_view(self, view: TestsView | None) -> None:
        bodies = [
            self.query_one(f"#{name}", Body) for name in ("verdict", "tests-body", "control-head", "tests-safety")
        ]
        table = self.query_one("#control-table", VimTable)
        alone = view is not None and view.skillings_mack_only  # fewer than 2 complete data sets
        # no CD, control table nor notice (the table stays, empty, to take the view's focus as when untestable)
        for hidden in (bodies[2], table.exact_line, bodies[3]):
            if hidden is not None:
                hidden.display = not alone
        self._show_incomplete(view)
        self._show_robustness(view)
        if view is None or alone:
            table.clear(columns=True)
            for name in ("sign-head", "sign-table", "wlt-head", "wlt-table"):
                self.query_one(f"#{name}").display = False
        if view is None:
            for body, line in zip(bodies, ("no tests for this selection", "", "", "")):
                body.show(Text(line))
            return
        verdict, body, head, safety = bodies
        verdict.show(literal(view.verdict, "bold").copy())
        body.show(render_tests(view))
        if alone:
            return
        head.show(control_head(view))
        self._room = room = panel_room(self, self)
        full = self.full_names  # names fitted to the room: three number columns on screen
        names = fill_table(table, self._frame(view), view.alpha, marked=stats.CONTROL_METHODS, room=room, full=full)
        extra = [self.query_one(f"#{name}") for name in ("sign-head", "sign-table", "wlt-head", "wlt-table")]
        for widget in extra:
            widget.display = view.extra is not None
        if view.extra is not None:
            self.query_one("#sign-head", Body).show(sign_head(view))
            fill_table(self.query_one("#sign-table", VimTable), self._rows(sign_frame(view)), room=room, full=full)
            self.query_one("#wlt-head", Body).show(wlt_head(view))
            fill_table(self.query_one("#wlt-table", VimTable), self._rows(self._wlt(view)), room=room, full=full)
        legend = names.legend("learners")
        text = literal(view.safety, "italic")  # names from the logs: literal, each line on its own
        if legend:  # (one literal of both would show the line break escaped, as \x0a)
            text = Text.assemble(literal(legend, "italic"), "\n", text)
        text.no_wrap = False
        safety.show(text)

    def _show_robustness(self, view: TestsView | None) -> None:
        """The sentence on the verdict's fragility and stability under it, or that it is computing."""
        body, robust = self.query_one("#tests-robustness", Body), self.robust
        body.display = shown = view is not None and robust is not None
        # right under the verdict, the blank line after both
        self.query_one("#verdict", Body).styles.margin = (0, 0, 0 if shown else 1, 0)
        if view is None or robust is None:
            body.show(Text(""))
            return
        if robust is COMPUTING:
            text = Text(COMPUTING_TEXT, style="italic")
        else:
            assert isinstance(robust, Robustness)
            text = literal("robustness: " + tests_sentence(robust), "italic")  # names from the logs
        text.no_wrap = False
        body.show(text)

    def _show_incomplete(self, view: TestsView | None) -> None:
        """The data sets each test uses, under the omnibus tests (wrapped), when some miss results."""
        body = self.query_one("#tests-incomplete", Body)
        body.display = view is not None and view.incomplete is not None
        if view is not None and view.incomplete is not None:
            text = literal(uses_sentence(view), "italic")  # names from the logs
            text.no_wrap = False
            body.show(text)

    _room: int | None = None  # the width the names were fitted to

    def on_resize(self) -> None:
        """Names fitted again to the new width."""
        if self.view is not None and panel_room(self, self) != self._room:
            self.watch_view(self.view)

    PANEL_CLASSES = "view-scroll"

    def show(self, data: Any) -> None:
        """``data``: :meth:`prepare`'s (the view, its robustness so far), or a view, or None."""
        self.robust = data[1] if isinstance(data, tuple) else None
        self.view = data[0] if isinstance(data, tuple) else data

    def learner_under_cursor(self) -> str | None:
        return learner_in_row(self, "#control-table")


#: The panel of the registry (:mod:`tui.registry`).
Panel = TestsPanel
