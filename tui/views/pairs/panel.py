"""View 4: the all-pairs APV matrix of one procedure, two-sample tests of one pair, contrast estimation."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import DataTable

from stats import PROCEDURE_NAMES
from tui.formats.names import MIN_NAME, fit_names, fit_table
from tui.model import (
    COMPUTING,
    COMPUTING_TEXT,
    PairsView,
    Robustness,
    fragility_mark,
    fragility_note,
    listed,
    robustness_now,
)
from tui.widgets import (
    ExactLine,
    Note,
    SelectionWanted,
    ViewPanel,
    VimTable,
    apv_cell,
    fill_table,
    learner_in_row,
    literal,
    matches,
    panel_room,
)


def _result(name: str, result: object) -> Text:
    """A test's result as it prints itself ("Sign test: 3 wins of 9, ..."); a string (why the test
    could not run) after the test's name."""
    if isinstance(result, str):
        return Text(f"{name}: ", style="bold", no_wrap=True) + literal(result)
    return literal(str(result))


def _cell(frame: pd.DataFrame, row: str, column: str) -> float:
    """``frame``'s number by the table's keys (the names as strings)."""
    rows = {str(x): x for x in frame.index}
    columns = {str(x): x for x in frame.columns}
    return float(frame.loc[rows[row], columns[column]])


def _marked(value: float, rejected: bool) -> Text:
    """:func:`~tui.widgets.apv_cell`'s cell of ``value``, marked when ``rejected`` (the view's
    decision: under Nemenyi the CD's, which p <= alpha equals but within rounding of the CD)."""
    return apv_cell(value, math.inf if rejected else -math.inf)


def _decisions(view: PairsView, frame: pd.DataFrame) -> Any:
    """Which cells of ``frame`` (the matrix or a block of it) are shown rejected, as an array."""
    if view.rejected is not None:
        return view.rejected.loc[frame.index, frame.columns].to_numpy(bool)
    return frame.to_numpy(float) <= view.alpha  # (NaN: never)


def head_lines(view: PairsView) -> str:
    """What the matrix holds and what its ``*`` means: under Nemenyi, the rule it follows and the
    other rule of that name (the reports' ``nemenyi`` column), naming both."""
    name = PROCEDURE_NAMES[view.procedure]
    if view.cd is None:
        return f"{name} adjusted p-values (APVs); * rejected at alpha = {view.alpha:g}"
    return (  # (three lines at 80 columns: the matrix keeps its rows)
        f"{name} p (Tukey's range, Demšar 2006); * rejected, ranks >= CD = {view.cd:.3f} apart "
        f"(alpha = {view.alpha:g}), as the CD diagram and the verdict; García & Herrera's m p: "
        "reports' nemenyi column"
    )


#: The most learners the matrix and the contrast table show (rows and columns): a Textual table of
#: 1,000 x 1,000 cells held the event loop for a minute and a half. Beyond, a block of them.
MAX_SHOWN = 60


def _block(view: PairsView, needle: str) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """The matrix and the contrast table of the first :data:`MAX_SHOWN` learners the ``/`` filter
    keeps (all of them without one), as rows and columns, and the line saying so."""
    names = [x for x in view.matrix.index if matches(needle, x)]
    keep = names[:MAX_SHOWN]
    k = len(view.matrix.columns)
    if not needle:
        picked = f"the first {len(keep)}"
    elif len(names) > MAX_SHOWN:
        picked = f"the first {len(keep)} of the {len(names):,} the / filter keeps"
    else:
        picked = f"the {len(keep)} the / filter keeps"
    note = (
        f"{k:,} learners: the tables show {picked} (rows and columns), not {k:,} x {k:,} cells; "
        "/ picks learners by name; rankboard report --view pairs lists every pair"
    )
    if needle and not names:
        note = f"{k:,} learners: no learner name contains the / filter"
    return view.matrix.loc[keep, keep], view.contrast.loc[keep, keep], note


class PairsPanel(ViewPanel, VerticalScroll):
    """Shows ``view`` (a PairsView or None); Enter on a matrix cell asks for that pair
    (:class:`~tui.widgets.SelectionWanted`)."""

    view: reactive[PairsView | None] = reactive(None, always_update=True, init=False)
    #: The robustness of the pairs' decisions: a :class:`~tui.model.Robustness`, ``COMPUTING``
    #: while the app computes it (the view is shown at once without it), or None (none).
    robust: Any = None
    can_focus = False  # the tables get the keys (and scroll the pane to their cursor)
    needle = ""  # the / filter (case-folded): the rows of the learners whose name contains it

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        self.watch_view(self.view)

    def compose(self) -> ComposeResult:
        yield Note(id="pairs-head")
        matrix = VimTable(id="pairs-table", fixed_columns=1)  # names stay when scrolled
        matrix.exact, matrix.exact_line = self._exact_apv, ExactLine(id="pairs-exact")
        yield matrix
        yield matrix.exact_line
        yield Note(id="pairs-detail")
        contrast = VimTable(id="contrast-table", fixed_columns=1)
        contrast.exact, contrast.exact_line = self._exact_contrast, ExactLine(id="contrast-exact")
        yield contrast
        yield contrast.exact_line
        # issue 31: each pair's fragility under the procedure (last: the pair's lines stay where they were)
        head = Note(id="fragility-head")
        head.styles.width = "1fr"  # (wrapped: the note is a sentence)
        head.styles.margin = (1, 0, 0, 0)
        yield head
        fragile = VimTable(id="fragility-table", fixed_columns=1, zebra_stripes=True)
        fragile.exact, fragile.exact_line = self._exact_fragility, ExactLine(id="fragility-exact")
        yield fragile
        yield fragile.exact_line

    def _exact_apv(self, a: str, b: str) -> tuple[str, str] | None:
        """A cell of the matrix at full precision and its sentence ("KNN vs NB: Holm APV
        0.0288..., rejected at ...")."""
        view = self.view
        if view is None or b == "" or a == b:
            return None
        value = _cell(view.matrix, a, b)
        rows, columns = {str(x): x for x in view.matrix.index}, {str(x): x for x in view.matrix.columns}
        if view.cd is None:
            rejected = f", rejected at alpha = {view.alpha:g}" if view.marks(rows[a], columns[b]) else ""
            return repr(value), f"{a} vs {b}: {PROCEDURE_NAMES[view.procedure]} APV {value!r}{rejected}"
        on = view.marks(rows[a], columns[b])
        what = "rejected: ranks >=" if on else "not rejected: ranks <"
        return repr(value), f"{a} vs {b}: Nemenyi (Tukey) p {value!r}, {what} CD = {view.cd:.4f} apart"

    def _exact_contrast(self, a: str, b: str) -> tuple[str, str] | None:
        view = self.view
        if view is None or b == "":
            return None
        value = _cell(view.contrast, a, b)
        return repr(value), f"{a} - {b}: contrast (median of differences) {value!r}"

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Any) -> Any:
        """The view and its robustness as computed so far (never waiting for it)."""
        view = analysis.part(part)
        return None if view is None else (view, robustness_now(analysis))

    def _fragility_rows(self) -> list[Any]:
        """The rows of the fragility table: every pair the / filter keeps (either name), in order."""
        frame = self._robust_pairs()
        return [] if frame is None else [x for x in frame.itertuples() if matches(self.needle, x.a, x.b)]

    _robust_frame: tuple[Any, pd.DataFrame] | None = None

    def _robust_pairs(self) -> pd.DataFrame | None:
        """``Robustness.pairs()`` of the robustness shown, made once for it."""
        robust, kept = self.robust, self._robust_frame
        if not isinstance(robust, Robustness):
            return None
        if kept is None or kept[0] is not robust:
            kept = self._robust_frame = (robust, robust.pairs())
        return kept[1]

    def _exact_fragility(self, key: str, column: str) -> tuple[str, str] | None:
        """A row of the fragility table in a sentence: the pair, its decision and every data set of
        the smallest removal found that reverses it."""
        robust, rows = self.robust, self._robust_pairs()
        if not isinstance(robust, Robustness) or rows is None or not key.isdigit():
            return None
        x = rows.iloc[int(key)]
        mark = fragility_mark(x.fragility, bool(x.exact), x.at_least)
        what = "rejected" if x.rejected else "not rejected"
        if pd.isna(x.fragility):
            how = "no removal of data sets found reverses it"
        else:
            how = f"reversed without {listed(tuple(x.removed), str, most=len(x.removed))}"
        held = f"holds in {x.held} of {x.analyses} analyses leaving one out"
        return mark, f"{x.a} vs {x.b} {what} ({robust.procedure_name}): fragility {mark}, {how}; {held}"

    def _show_fragility(self, view: PairsView | None) -> None:
        """The fragility table under the matrix: one row per pair ("a vs b", the names fitted so
        that the APV and the fragility stay on screen), its APV, fragility and the data sets whose
        removal reverses it; or that it is computing."""
        head, table = self.query_one("#fragility-head", Note), self.query_one("#fragility-table", VimTable)
        robust = self.robust
        at = table.cursor_coordinate
        table.clear(columns=True)
        head.display = robust is not None
        table.display = isinstance(robust, Robustness)
        if table.exact_line is not None:
            table.exact_line.display = table.display
        if robust is None or view is None:
            return
        if robust is COMPUTING:
            head.show(Text(COMPUTING_TEXT, style="italic"))
            return
        rows = self._fragility_rows()
        keys = {str(x): x for x in view.matrix.index}
        apvs = [
            _marked(_cell(view.matrix, str(x.a), str(x.b)), view.marks(keys[str(x.a)], keys[str(x.b)])) for x in rows
        ]
        marks = [Text(fragility_mark(x.fragility, bool(x.exact), x.at_least) + " ", justify="right") for x in rows]
        without = [Text(listed(tuple(x.removed), lambda n: literal(n).plain, most=3)) for x in rows]
        apv_w = max([c.cell_len for c in apvs] + [3])
        mark_w = max([c.cell_len for c in marks] + [len("fragility")])
        names = sorted({literal(n).plain for x in rows for n in (x.a, x.b)})
        # the pair's two names, " vs " and the two number columns (each 2 cells of padding) fit
        room = self._room or 0
        cap = (room - 2 - 4 - (apv_w + 2) - (mark_w + 2) - 2) // 2  # (2: the table's own scrollbar)
        fitted = fit_names(names, max(cap, MIN_NAME) if self._room else None, full=self.full_names)
        table.add_column(Text(""), key="")
        table.add_column(Text("APV" if view.cd is None else "p", justify="right"), key="apv")
        table.add_column(Text("fragility", justify="right"), key="fragility")
        table.add_column(Text("without"), key="without")
        for x, apv, mark, out in zip(rows, apvs, marks, without):
            label = f"{fitted[literal(x.a).plain]} vs {fitted[literal(x.b).plain]}"
            table.add_row(Text(label), apv, mark, out, key=str(x.Index))
        legend = fitted.legend("learners")
        note = fragility_note(robust) + "; without: the data sets of that removal (all of them under the table)"
        head.show(Text(note + (f"\n{legend}" if legend else ""), style="dim"))
        table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
        table.show_exact()

    def watch_view(self, view: PairsView | None) -> None:
        table, contrast = self.query_one("#pairs-table", VimTable), self.query_one("#contrast-table", VimTable)
        at = table.cursor_coordinate
        table.clear(columns=True)
        contrast.clear(columns=True)
        head, detail = self.query_one("#pairs-head", Note), self.query_one("#pairs-detail", Note)
        if view is None:
            head.show(Text("no pairs for this selection"))
            detail.show(Text(""))
            self.robust = None
            self._show_fragility(view)
            return
        # the lines wrap (a number cut off at the right edge is a number not shown)
        head_text = Text(head_lines(view))
        if view.two_sample is not None:
            kind = "Wilcoxon signed-ranks" if view.two_sample.test == "wilcoxon" else "sign"
            head_text.append(f"\neach pair's own {kind} test over the data sets, Holm-adjusted")
        if view.replaced:
            head_text.append(f"\n{view.replaced}", style="bold yellow")
        head_text.append("\nenter picks the pair, m cycles the procedure")
        matrix, contrast_frame = view.matrix, view.contrast
        if len(matrix.columns) > MAX_SHOWN:  # a block of the matrix, not k x k cells (1,000,000 for 1,000)
            matrix, contrast_frame, note = _block(view, self.needle)
            head_text.append("\n" + note, style="bold yellow")
        head.show(head_text)
        shown = [(learner, values) for learner, values in matrix.iterrows() if matches(self.needle, learner)]
        marked = dict(zip(matrix.index, _decisions(view, matrix)))
        cells = {learner: [_marked(v, on) for v, on in zip(values, marked[learner])] for learner, values in shown}
        widths = [max((row[j].cell_len for row in cells.values()), default=0) for j in range(len(matrix.columns))]
        self._room = panel_room(self, self)
        names, heads = fit_table(
            [literal(x).plain for x, _ in shown],
            [literal(x).plain for x in matrix.columns],
            widths,
            self._room,
            full=self.full_names,
        )
        table.add_column(Text(""), key="")
        for learner in matrix.columns:  # right-aligned over the numbers, as in the contrast table
            table.add_column(Text(heads[literal(learner).plain], justify="right"), key=str(learner))
        for learner, _ in shown:
            table.add_row(Text(names[literal(learner).plain]), *cells[learner], key=str(learner))
        a, b = view.pair
        legend = (heads if heads.cut and not names.cut else names).legend("learners")
        text = Text(f"{legend}\n" if legend else "", style="dim")
        text.append("\npair: ", style="bold")
        text.append_text(literal(b))
        text.append(" vs ")
        text.append_text(literal(a))
        text.append("\n")
        text.append_text(_result("Wilcoxon signed-ranks", view.wilcoxon) + "\n")
        text.append_text(_result("sign test", view.sign) + "\n")
        if view.effects is not None:  # how large: positive favours the first named
            text.append("effect sizes", style="bold")
            text.append(" (positive: ")
            text.append_text(literal(view.effects.a))
            text.append(" better; delta is Cliff's)\n")
            for line in view.effects.lines():
                text.append("  " + line + "\n")
        text.append("\ncontrast estimation (row - column, medians of differences)", style="bold")
        detail.show(text)
        fill_table(
            contrast,
            contrast_frame[[matches(self.needle, x) for x in contrast_frame.index]],
            room=self._room,
            full=self.full_names,
            learner_columns=True,
        )
        # the cursors stay where they were (a new procedure or alpha does not send them home)
        table.move_cursor(row=min(at.row, table.row_count - 1), column=min(at.column, len(table.columns) - 1))
        table.show_exact()
        contrast.show_exact()
        self._show_fragility(view)

    _room: int | None = None  # the width the names were fitted to

    def on_resize(self) -> None:
        """Names fitted again to the new width."""
        if self.view is not None and panel_room(self, self) != self._room:
            self.watch_view(self.view)

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        if self.view is None:
            return
        names = {str(x): x for x in self.view.matrix.columns}
        a, b = str(event.cell_key.row_key.value), str(event.cell_key.column_key.value)
        if a in names and b in names and a != b:  # (by the keys: the filter may leave out rows)
            self.post_message(SelectionWanted({"pair": (names[a], names[b])}))

    def show(self, data: Any) -> None:
        """``data``: :meth:`prepare`'s (the view, its robustness so far), or a view, or None."""
        self.robust = data[1] if isinstance(data, tuple) else None
        self.view = data[0] if isinstance(data, tuple) else data

    def learner_under_cursor(self) -> str | None:
        return learner_in_row(self, "#pairs-table")


#: The panel of the registry (:mod:`tui.registry`).
Panel = PairsPanel
