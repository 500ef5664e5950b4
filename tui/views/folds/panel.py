"""View 6: every learner against the control from the fold-level results (``stats.fold_comparison``).

At the top, the settings and the verdict sentence of the learner under the cursor (Bayesian
signed-rank across data sets); then the totals per learner (Weka's wins/ties/losses of the
corrected resampled t, and the signed-rank probabilities); then a row per data set and learner:
the mean difference against the control, the corrected t's p and its mark (``v`` better, ``*``
worse at alpha) and a bar of the Bayesian correlated t-test's probabilities (``+`` better, ``=``
equivalent, ``-`` worse: symbols, so they survive NO_COLOR). The line under the tables gives
every number of the row under the cursor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Static

from stats import fmt_p
from stats.core.names import printable
from tui.formats.names import distinct_cuts
from tui.formats.text import prob
from tui.model import FoldsView
from tui.views.folds.shared import NO_FOLDS
from tui.widgets import COPY_HINT, Plain, PreparedRows, ViewPanel, VimTable, literal, matches, prepare_rows, subset_rows

BAR = 6  # cells of the probability bar
PENDING = "\u2026"  # a signed-rank probability still being computed
MARK_STYLE = {"v": "bold green", "*": "bold red"}


def prob_bar(better: float, equivalent: float, worse: float, width: int = BAR) -> str:
    """Three probabilities as ``width`` cells of ``+``, ``=`` and ``-`` (largest remainders, so the
    cells add up to ``width``; a probability >= 1/(2 width) gets at least its rounded share).

    >>> prob_bar(0.5, 0.25, 0.25, 4), prob_bar(1.0, 0.0, 0.0, 6), prob_bar(0.02, 0.0, 0.98, 6)
    ('++=-', '++++++', '------')
    """
    if not all(math.isfinite(p) for p in (better, equivalent, worse)):
        return "?" * width
    shares = [better * width, equivalent * width, worse * width]
    cells = [int(s) for s in shares]
    for i in sorted(range(3), key=lambda k: shares[k] - cells[k], reverse=True)[: width - sum(cells)]:
        cells[i] += 1
    return "+" * cells[0] + "=" * cells[1] + "-" * cells[2]


def detail(view: FoldsView, dataset: str, learner: str) -> str:
    """Every number of one data set and learner against the control at full precision, in one
    line (the line under the tables, and what ``y`` copies)."""
    names = f"{dataset}, {learner} vs {view.control}"  # (shown through literal: escaped)
    key = (dataset, learner)
    if key not in view.table.index:
        return f"{names}: not compared (see the notes)"
    r = view.table.loc[key]
    mark = {"v": " v (better)", "*": " * (worse)"}.get(str(r["mark"]), "")
    return (
        f"{names}: mean diff {float(r['mean_difference'])!r} ({int(r['runs'])} runs, {int(r['folds'])} folds), "
        f"corrected t {float(r['statistic'])!r}, p {float(r['pvalue'])!r}{mark}, "
        f"P(better) {float(r['p_better'])!r}, P(equiv.) {float(r['p_equivalent'])!r}, P(worse) {float(r['p_worse'])!r}"
    )


#: What ``y`` copies of a row of the per-data-set table and of the totals, tab-separated (pasted
#: into a spreadsheet: one row of numbers at full precision, in this order).
ROW_VALUES = ("mean_difference", "statistic", "pvalue", "p_better", "p_equivalent", "p_worse")
TOTALS_VALUES = ("wins", "ties", "losses", "datasets", "p_better", "p_equivalent", "p_worse")


def _values(row: Any, columns: tuple[str, ...]) -> str:
    """``row``'s ``columns`` at full precision, tab-separated (counts as integers)."""
    return "\t".join(repr(float(row[c])) if c.startswith(("p", "mean", "stat")) else str(int(row[c])) for c in columns)


def totals_detail(view: FoldsView, learner: str) -> str:
    """A learner's totals against the control at full precision, in one line."""
    r = view.totals.loc[learner]
    return (
        f"{learner} vs {view.control}: w/t/l {int(r['wins'])}/{int(r['ties'])}/{int(r['losses'])} of "
        f"{int(r['datasets'])} data sets, P(better) {float(r['p_better'])!r}, "
        f"P(equiv.) {float(r['p_equivalent'])!r}, P(worse) {float(r['p_worse'])!r}"
    )


#: A folds view of at least this many rows (data sets x learners) has the views of the other
#: controls made while the app is idle.
WARM_MIN_ROWS = 2000


class Body(Plain, Static):
    pass


def _right(text: str, style: str = "") -> Text:
    return Text(text, justify="right", style=style)


class Cell:
    """A cell of the per-data-set table, made into rich ``Text`` only when its row is drawn (the
    table has a row per data set and learner: 9,500 for 500 x 20). ``str()`` is its text."""

    __slots__ = ("text", "style", "justify", "no_wrap")

    def __init__(self, text: str, style: str = "", justify: str | None = None, no_wrap: bool | None = None) -> None:
        self.text, self.style, self.justify, self.no_wrap = text, style, justify, no_wrap

    def __rich__(self) -> Text:
        return Text(self.text, style=self.style, justify=self.justify, no_wrap=self.no_wrap)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self.text


TABLE_COLUMNS = ("data set", "learner", "mean diff", "p", "", "Bayes")

#: The right-aligned cells :func:`folds_rows` has made, by text (shared by the views: a cell is
#: never changed); emptied beyond :data:`_RIGHT_CELLS_MAX`.
_RIGHT_CELLS: dict[str, Cell] = {}
_RIGHT_CELLS_MAX = 100_000


@dataclass(frozen=True, eq=False)
class FoldsRows:
    """What :class:`FoldsPanel` shows for one :class:`FoldsView`, built off the event loop
    (:func:`folds_rows`): the per-data-set table's rows, ready for :meth:`VimTable.load`; ``fit``:
    the cells they were fitted to (names cut to fit), None: not fitted."""

    view: FoldsView
    table: PreparedRows
    fit: int | None = None


#: Names in the folds tables are cut (in the middle, kept distinct) to no fewer cells than this.
MIN_NAME = 6
#: The cells DataTable adds to each column (a cell's padding on either side).
PADDING = 2
#: The totals' rows shown without scrolling when ``#folds-totals`` has no cap of its own (app.tcss:
#: at most 7 lines high with its header, 4 on a short screen).
TOTALS_SHOWN = 6


def name_cap(names: list[int], others: int, width: int | None) -> int | None:
    """The widest cap c (at least :data:`MIN_NAME`) such that name columns of the widths ``names``,
    each cut to c, fit in ``width`` cells beside ``others`` cells of other columns (each column
    with its padding, the names' columns first; the last column's right padding may be cut:
    :meth:`VimTable.visible_columns`); None when the names fit whole, or nothing is to be fitted
    (no width).

    >>> name_cap([14, 18], 40, 80), name_cap([14, 18], 40, 63), name_cap([14, 18], 40, 40)
    (None, 10, 6)
    """
    if width is None:
        return None
    room = width - others - PADDING * len(names) + 1
    if sum(names) <= room:
        return None
    cap = max(names)
    while cap > MIN_NAME and sum(min(w, cap) for w in names) > room:
        cap -= 1
    return cap


def _fitted(texts: list[str], cap: int | None) -> dict[str, str]:
    """Each text cut to ``cap`` cells (:func:`distinct_cuts`), or whole (no cap)."""
    return {t: t for t in texts} if cap is None else distinct_cuts(texts, cap)


def prob_bars(better: Any, equivalent: Any, worse: Any, width: int = BAR) -> list[str]:
    """:func:`prob_bar` of each triple, vectorised: the same cells (the remainders compared as
    ``prob_bar`` sorts them: descending, the first of equal ones first).

    >>> prob_bars([0.5, 1.0, 0.02, float("nan")], [0.25, 0.0, 0.0, 0.0], [0.25, 0.0, 0.98, 1.0], 4)
    ['++=-', '++++', '----', '????']
    """
    p = np.column_stack([np.asarray(x, dtype=float) for x in (better, equivalent, worse)])
    ok = np.isfinite(p).all(axis=1)
    shares = np.where(ok[:, None], p, 0.0) * width
    cells = np.trunc(shares).astype(np.int64)  # int() of each share
    rest = shares - cells
    extra = width - cells.sum(axis=1)  # cells left for the largest remainders: 0, 1 or 2 when ok
    rows = np.arange(len(p))
    first = np.argmax(rest, axis=1)  # the largest remainder, the first of equal ones
    last = 2 - np.argmin(rest[:, ::-1], axis=1)  # the smallest, the last of equal ones: sorted last
    one, two = extra == 1, extra == 2
    cells[rows[one], first[one]] += 1  # one cell: to the first in that order
    cells[two] += 1  # two cells: to all but the last in that order
    cells[rows[two], last[two]] -= 1
    if (ok & ((extra < 0) | (extra > 2))).any():  # not three probabilities: as prob_bar does, one by one
        return [prob_bar(*row, width=width) for row in p.tolist()]
    # each distinct triple of cells made into text once, found by a code per row (not a tuple)
    base = width + 1
    code = np.where(ok, (cells[:, 0] * base + cells[:, 1]) * base + cells[:, 2], -1)
    distinct, inverse = np.unique(code, return_inverse=True)
    texts = [
        "?" * width if c < 0 else "+" * (c // base // base) + "=" * (c // base % base) + "-" * (c % base)
        for c in distinct.tolist()
    ]
    return [texts[i] for i in inverse.ravel().tolist()]


def _p_texts(p: np.ndarray) -> list[str]:
    """``stats.fmt_p`` of each p-value; the common case (four decimals) formatted in one pass.

    >>> _p_texts(np.array([0.01234, 3.2e-7, 0.0, np.nan, 1.0]))
    ['0.0123', '3.200e-07', '<1e-300', 'nan', '1.0000']
    """
    plain = p >= 1e-4  # (NaN: False) fmt_p's last case: f"{p:.4f}"
    if plain.all():
        return [f"{x:.4f}" for x in p.tolist()]
    return [f"{x:.4f}" if ok else fmt_p(x) for x, ok in zip(p.tolist(), plain.tolist())]


def folds_rows(view: FoldsView | None, width: int | None = None) -> FoldsRows | None:
    """The per-data-set table of ``view`` as cells (from the table's columns, not row by row through
    pandas; one cell object per distinct name, mark and bar), with the widths the table would
    measure. ``width``: the cells the table may take; data set and learner names too long for it
    are cut in the middle (kept distinct; the line under the table gives them whole)."""
    if view is None:
        return None
    table = view.table
    index = table.index
    level0, level1 = index.get_level_values(0).tolist(), index.get_level_values(1).tolist()
    diffs = [f"{d:+.3g}" for d in table["mean_difference"].tolist()]
    ps = _p_texts(table["pvalue"].to_numpy(dtype=float))
    marks = {m: Cell(m or " ", style=MARK_STYLE.get(m, "")) for m in ("v", "*", "")}
    bar_texts = prob_bars(table["p_better"], table["p_equivalent"], table["p_worse"])
    bars = {b: Cell(b) for b in set(bar_texts)}
    bar_cells = [bars[b] for b in bar_texts]
    mark_cells = [marks[str(m)] for m in table["mark"].tolist()]
    # a cell per distinct text (many rows share a rounded difference or p), kept for the next view
    # (another control's shows mostly the same texts: p to 4 decimals, differences to 3 digits)
    kept = _RIGHT_CELLS
    if len(kept) > _RIGHT_CELLS_MAX:
        kept.clear()
    right = {t: kept.get(t) or kept.setdefault(t, Cell(t, justify="right")) for t in {*diffs, *ps}}
    numbers = [
        max(map(len, diffs), default=0),  # ASCII: a character is a cell
        max(map(len, ps), default=0),
        max((cell_len(marks[str(m)].text) for m in set(table["mark"].tolist())), default=0),
        max((cell_len(b) for b in bars), default=0),
    ]
    # one cell per distinct name (cut to fit ``width``), found by the index's codes (not one dict
    # look-up per row)
    if not isinstance(index, pd.MultiIndex):  # (stats.fold_comparison's table always has one)
        index = pd.MultiIndex.from_tuples(list(index))
    distinct = [level.tolist() for level in index.levels[:2]]
    codes = [index.codes[0].tolist(), index.codes[1].tolist()]
    texts = [[printable(x) for x in level] for level in distinct]
    whole = [max((cell_len(t) for t in level), default=0) for level in texts]
    # the number columns as wide as DataTable makes them: their widest cell or their label
    others = sum(max(w, cell_len(label)) + PADDING for w, label in zip(numbers, TABLE_COLUMNS[2:]))
    cap = name_cap(whole, others, width)
    shown = [_fitted(level, cap) for level in texts]
    by_code = [[Cell(shown[i][t], no_wrap=True) for t in texts[i]] for i in range(2)]
    datasets = [by_code[0][c] for c in codes[0]]
    learners = [by_code[1][c] for c in codes[1]]
    cells = [
        (dataset, learner, right[diff], right[p], mark, bar)
        for dataset, learner, diff, p, mark, bar in zip(datasets, learners, diffs, ps, mark_cells, bar_cells)
    ]
    keys = [f"{d}\0{x}" for d, x in zip(level0, level1)]
    used = [set(codes[0]), set(codes[1])]
    widths = [max((cell_len(by_code[i][c].text) for c in used[i]), default=0) for i in range(2)] + numbers
    return FoldsRows(view, prepare_rows(TABLE_COLUMNS, cells, keys, widths), width)


def filtered(view: FoldsView, needle: str) -> list[int]:
    """The positions of the per-data-set rows whose data set or learner matches the ``/`` filter
    (:func:`matches`), each distinct name tested once (500 data sets and 20 learners, not 9,500
    rows; the table's rows and :func:`folds_rows`'s are in the same order)."""
    index = view.table.index
    if not isinstance(index, pd.MultiIndex):
        return [i for i, (d, x) in enumerate(index) if matches(needle, d, x)]
    hit = [np.array([matches(needle, x) for x in level.tolist()] + [False]) for level in index.levels[:2]]
    return np.flatnonzero(hit[0][index.codes[0]] | hit[1][index.codes[1]]).tolist()


class FoldsPanel(ViewPanel, Vertical):
    """Shows ``rows`` (a :class:`FoldsRows`, made by :func:`folds_rows` of a :class:`FoldsView`,
    or None)."""

    rows: reactive[FoldsRows | None] = reactive(None, always_update=True, init=False)

    @property
    def view(self) -> FoldsView | None:
        """The :class:`FoldsView` shown."""
        return self.rows.view if self.rows is not None else None

    needle = ""  # the / filter (case-folded): the rows whose data set or learner contains it

    def set_filter(self, needle: str) -> None:
        self.needle = needle
        self.watch_rows(self.rows)

    def compose(self) -> ComposeResult:
        yield Body(id="folds-head")
        totals = VimTable(id="folds-totals", zebra_stripes=True, cursor_type="row", fixed_columns=1)
        totals.exact = self._exact_totals
        yield totals
        table = VimTable(id="folds-table", zebra_stripes=True, cursor_type="row", fixed_columns=2)
        table.exact = self._exact_row
        yield table
        yield Body(id="folds-detail")  # the focused table's row at full precision (y copies it)

    def _exact_totals(self, learner: str, _column: str) -> tuple[str, str] | None:
        """A learner's totals: their numbers tab-separated (:data:`TOTALS_VALUES`), the sentence."""
        view = self.view
        names = {str(x): x for x in view.totals.index} if view is not None else {}
        if view is None or learner not in names:
            return None
        return _values(view.totals.loc[names[learner]], TOTALS_VALUES), totals_detail(view, names[learner])

    def _exact_row(self, key: str, _column: str) -> tuple[str, str] | None:
        """A row: its numbers tab-separated (:data:`ROW_VALUES`), the sentence."""
        dataset, _, learner = key.partition("\0")
        view = self.view
        if view is None:
            return None
        index = {(str(d), str(x)): (d, x) for d, x in view.table.index}
        at = index.get((dataset, learner), (dataset, learner))
        sentence = detail(view, *at)
        return (_values(view.table.loc[at], ROW_VALUES), sentence) if at in view.table.index else (sentence, sentence)

    @property
    def plain(self) -> str:
        out = [self.query_one("#folds-head", Body).plain]
        for table in self.query(VimTable):
            out.append(" | ".join(str(c.label.plain) for c in table.columns.values()))
            out += [
                " | ".join(c.plain if isinstance(c, Text) else str(c) for c in table.get_row_at(i))
                for i in range(table.row_count)
            ]
        out.append(self.query_one("#folds-detail", Body).plain)
        return "\n".join(out)

    #: The per-data-set rows the table holds (the whole view, shown after its first part, brings the
    #: same rows: then only the totals and the sentences change, and the table keeps its cursor).
    _loaded: PreparedRows | None = None
    _loaded_needle = ""

    @property
    def fit_width(self) -> int | None:
        """The cells the per-data-set table may take (None before the first layout): the panel's
        width inside its padding, less the table's vertical scrollbar (shown or not: it almost always is)."""
        return self._room(True)

    def _room(self, scrollbar: bool) -> int | None:
        if self.full_names:
            return None  # names whole (n): the tables scroll sideways
        # the container's width less this panel's padding: known while the panel is hidden (another
        # view on screen), so that the rows a worker makes then are made for the width they show at
        container = self.parent if isinstance(self.parent, Widget) else self
        inner = container.content_region.width - self.styles.gutter.width
        table = self.query_one("#folds-table", VimTable)
        width = inner - (table.styles.scrollbar_size_vertical if scrollbar else 0)
        return width if inner > 0 and width > 0 else None

    def on_resize(self) -> None:
        if self.rows is not None and self.rows.view is not None and self.rows.fit != self.fit_width:
            self.rows = folds_rows(self.rows.view, self.fit_width)  # names cut for the new width

    def watch_rows(self, rows: FoldsRows | None) -> None:
        totals, table = self.query_one("#folds-totals", VimTable), self.query_one("#folds-table", VimTable)
        view = rows.view if rows is not None else None
        fit = self.fit_width
        if rows is not None and view is not None and fit is not None and rows.fit != fit:
            # made for another width (e.g. before the first layout): the names cut again, here
            rows = self.rows = folds_rows(view, fit)
            return  # (the assignment above calls this again)
        if rows is None or view is None:
            totals.clear(columns=True)
            table.clear(columns=True)
            self._loaded = None
            self.query_one("#folds-head", Body).show(
                Text("no fold-level comparison for this selection (2 learners needed)")
            )
            self.query_one("#folds-detail", Body).show(Text(""))
            return
        self._fill_totals(view)
        if rows.table is not self._loaded or self.needle != self._loaded_needle:
            table.clear(columns=True)
            for label in TABLE_COLUMNS:
                table.add_column(Text(label), key=label)
            prepared = rows.table
            if self.needle:  # the / filter: the rows whose data set or learner matches, of those made
                prepared = subset_rows(prepared, filtered(view, self.needle))
            table.load(prepared)  # 9,500 rows for 500 x 20: at once
            self._loaded, self._loaded_needle = rows.table, self.needle
        self._refresh_text()

    def _fill_totals(self, view: FoldsView) -> None:
        """The totals per learner (the cursor stays on its row when the table is filled again)."""
        totals = self.query_one("#folds-totals", VimTable)
        row = totals.cursor_row if totals.row_count else 0
        totals.clear(columns=True)
        shown = [r for r in view.totals.itertuples() if matches(self.needle, r.Index)]
        waiting = PENDING if view.pending else None
        labels = ("learner", "w/t/l", "P(better)", "P(equiv.)", "P(worse)", "data sets")
        numbers = [
            (
                _right(f"{r.wins}/{r.ties}/{r.losses}"),
                *(_right(waiting or prob(p)) for p in (r.p_better, r.p_equivalent, r.p_worse)),
                _right(str(r.datasets)),
            )
            for r in shown
        ]
        # learner names cut in the middle (kept distinct) so that every column fits the panel
        others = sum(
            max([len(label), *(row[i].cell_len for row in numbers)]) + PADDING for i, label in enumerate(labels[1:])
        )
        texts = [printable(r.Index) for r in shown]
        cap = totals.styles.max_height  # (its height is capped: app.tcss; less on a short screen)
        rows_shown = int(cap.value) - 1 if cap is not None and cap.is_cells else TOTALS_SHOWN
        scrolls = len(shown) > rows_shown
        cut = _fitted(texts, name_cap([max(map(cell_len, texts), default=0)], others, self._room(scrolls)))
        totals_rows = [(Text(cut[t], no_wrap=True), *row) for t, row in zip(texts, numbers)]
        # Columns as wide as their widest cell, given before the rows: with automatic widths the
        # header could be drawn at an empty column's width (the 80x24 snapshot failed 1 run in 3).
        for i, label in enumerate(labels):
            width = max([len(label), *(row[i].cell_len for row in totals_rows)])
            totals.add_column(Text(label), key=label, width=width)
        for cells, r in zip(totals_rows, shown):
            totals.add_row(*cells, key=str(r.Index))
        if 0 < row < totals.row_count:
            totals.move_cursor(row=row)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._refresh_text()

    def on_descendant_focus(self) -> None:
        self._refresh_text()  # the sentence and the detail follow the focused table's cursor

    def learner_under_cursor(self) -> str | None:
        """The learner of the row under the cursor of the focused table (the totals' by default),
        for the sentence shown and for ``c`` and ``space``."""
        view = self.view
        if view is None or view.totals.empty:
            return None
        cell = self.cell_under_cursor()
        if cell is not None:
            return cell[1]
        totals = self.query_one("#folds-totals", VimTable)
        if not totals.row_count:  # (the filter left none)
            return None
        return str(totals.coordinate_to_cell_key(Coordinate(totals.cursor_row, 0)).row_key.value)

    def _refresh_text(self) -> None:
        view = self.view
        if view is None:
            return
        learner = self.learner_under_cursor()
        head = Text(no_wrap=False)
        direction = "higher" if view.higher_is_better else "lower"
        head.append("against ")
        head.append_text(literal(view.control, "bold"))
        head.append(f" ({view.criterion}, {direction} is better) rope {view.rope:g} (o) alpha {view.alpha:g}")
        if view.table.empty:
            head.append(f"\n{NO_FOLDS}", style="bold yellow")
            self.query_one("#folds-head", Body).show(head)
            self.query_one("#folds-detail", Body).show(Text(""))
            return
        names = [str(x) for x in view.totals.index]
        if learner in names:
            head.append("\n")
            head.append_text(literal(view.sentences[names.index(learner)], "bold"))
        self.query_one("#folds-head", Body).show(head)
        focused = self.query_one("#folds-table", VimTable)
        if not focused.has_focus:
            focused = self.query_one("#folds-totals", VimTable)
        exact = focused.exact_under_cursor()
        line = literal(exact + COPY_HINT) if exact else Text()
        line.no_wrap = False
        if focused.id == "folds-totals":  # (the legend of the table below; a row's numbers take its place)
            line.append("\nv/* corrected t better/worse at alpha; Bayes: + better = equiv. - worse", style="dim")
        if view.notes:
            more = f" (+{len(view.notes) - 1} more: report --view folds)" if len(view.notes) > 1 else ""
            line.append("\nnote: ", style="yellow")
            line.append_text(literal(view.notes[0] + more))
        self.query_one("#folds-detail", Body).show(line)

    def cell_under_cursor(self) -> tuple[str, str] | None:
        """(data set, learner) of the per-data-set row under the cursor when that table has focus."""
        table = self.query_one("#folds-table", VimTable)
        if not table.row_count or not table.has_focus:
            return None
        key = str(list(table.rows)[table.cursor_row].value)
        dataset, _, learner = key.partition("\0")
        return dataset, learner

    PREPARED_AHEAD = True

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Sequence[tuple[Any, Any]]) -> Any:
        """The rows of the folds view (or of the part shown first) fitted to ``width``: those made
        already for it, those of the same table under another view object (the view shown first
        and the whole one share the table: only the totals differ), or made now."""
        view = analysis.part(part)
        if view is None:
            return None
        fitted = [rows for _, rows in made if rows is not None and rows.fit == width]
        for rows in fitted:
            if rows.view is view:
                return rows
        for rows in fitted:
            if rows.view is not None and rows.view.table is view.table:
                return FoldsRows(view, rows.table, width)
        return folds_rows(view, width)

    @staticmethod
    def warms_other_controls(view: Any) -> bool:
        """A view this large has the views of the other controls made while the app is idle (a
        toggle of the control then shows at once; issue 14)."""
        return view is not None and len(view.table) >= WARM_MIN_ROWS

    def show(self, data: Any) -> None:
        self.rows = data


#: The panel of the registry (:mod:`tui.registry`).
Panel = FoldsPanel
