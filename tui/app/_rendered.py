"""What the quartiles, ranks and folds panels draw for one analysis, built once and only when needed."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from tui.app.widgets import FoldsRows, QuartileLines, RanksRows, folds_rows, quartile_lines, ranks_rows
from tui.model import Analysis, FoldsView


class WarmRows:
    """The folds view's rows made ahead of time for other controls (the app's idle worker), by the
    :class:`~tui.model.FoldsView` they show (the very object the model's cache hands out again):
    a toggle to one of those controls finds its rows made. Thread-safe; the last :data:`SIZE` kept."""

    SIZE = 24

    def __init__(self) -> None:
        self._rows: OrderedDict[int, FoldsRows] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, rows: FoldsRows) -> None:
        with self._lock:
            self._rows[id(rows.view)] = rows
            self._rows.move_to_end(id(rows.view))
            while len(self._rows) > self.SIZE:
                self._rows.popitem(last=False)

    def get(self, view: object) -> FoldsRows | None:
        with self._lock:
            rows = self._rows.get(id(view))
        return rows if rows is not None and rows.view is view else None

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()


@dataclass
class Rendered:
    """The panels' render data for one analysis, built lazily: for the view on screen in the
    analysis worker (off the event loop), for another view when it is first shown."""

    analysis: Analysis
    quartiles: QuartileLines | None = None
    ranks: RanksRows | None = None
    has_ranks: bool = False
    folds: FoldsRows | None = None  # the whole folds view's rows, or (has_folds False) those shown first
    has_folds: bool = False

    def build(
        self, view: str, previous: Rendered | None = None, width: int | None = None, warm: WarmRows | None = None
    ) -> Rendered:
        """Build the render data of ``view`` if it is not built (reusing ``previous``'s when the same,
        or the rows ``warm`` holds for the same folds view).

        ``width``: the cells the quartile chart or the folds tables are fitted to.
        """
        analysis = self.analysis
        if view == "quartiles" and self.quartiles is None:
            old = previous.quartiles if previous is not None else None
            if old is not None and old.view is analysis.quartiles and old.fit == width:
                self.quartiles = old
            else:
                self.quartiles = quartile_lines(analysis.quartiles, width)
        elif view == "ranks" and not self.has_ranks:
            same = previous is not None and previous.has_ranks and previous.analysis.ranks is analysis.ranks
            if same and previous is not None and previous.analysis.letters is analysis.letters:
                self.ranks = previous.ranks
            else:
                self.ranks = ranks_rows(analysis.ranks, analysis.letters)
            self.has_ranks = True
        elif view == "folds" and not self.has_folds:
            # the whole view when it is made (or nothing is: then made now), else the part shown first
            # (its signed-rank test pending: the app's analysis worker makes only that part)
            whole = analysis.ready("folds") or not analysis.parts.done("folds_early")
            shown = analysis.folds if whole else analysis.folds_early
            made = (self.folds, previous.folds if previous is not None else None)
            self.folds = _folds_rows(shown, width, *made, warm=warm)
            self.has_folds = whole
        return self

    def take(self, other: Rendered) -> Rendered:
        """Adopt what ``other`` (of the same analysis, e.g. built in a worker) has built and this has not."""
        if other.analysis is self.analysis:
            if other.quartiles is not None and self.quartiles is None:
                self.quartiles = other.quartiles
            if other.has_ranks and not self.has_ranks:
                self.ranks, self.has_ranks = other.ranks, True
            if other.folds is not None and not self.has_folds:
                self.folds, self.has_folds = other.folds, other.has_folds
        return self


def _folds_rows(
    view: FoldsView | None, width: int | None, *made: FoldsRows | None, warm: WarmRows | None = None
) -> FoldsRows | None:
    """The rows of ``view`` fitted to ``width``: those made already for it (``made``, or ``warm``'s),
    those of the same table under another view object (the view shown first and the whole one
    share the table: only the totals differ), or made now."""
    if view is None:
        return None
    fitted = [rows for rows in made if rows is not None and rows.fit == width]
    for rows in fitted:
        if rows.view is view:
            return rows
    ahead = warm.get(view) if warm is not None else None
    if ahead is not None and ahead.fit == width:
        return ahead
    for rows in fitted:
        if rows.view is not None and rows.view.table is view.table:
            return FoldsRows(view, rows.table, width)
    return folds_rows(view, width)
