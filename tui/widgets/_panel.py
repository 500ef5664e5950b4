"""The protocol of a view's panel in the app (a registry view's ``panel``, :mod:`tui.registry`).

A panel is a Textual widget; the app composes one per registered view (its ``id`` the view's
name), gives it what to show with :meth:`ViewPanel.show` and never looks inside. What a panel draws
may be made ahead, off the event loop (:meth:`ViewPanel.prepare`, in the app's workers), from the
analysis and what was made for earlier analyses (reused when it shows the same thing)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.coordinate import Coordinate
from textual.message import Message
from textual.widget import Widget

from tui.widgets._table import VimTable


@dataclass
class SelectionWanted(Message):
    """From a panel: show another selection, ``changes`` applied to the current one (Enter on a
    cell of the pairs matrix: ``{"pair": (a, b)}``)."""

    changes: dict[str, Any]


class ViewPanel:
    """Mixed into a view's widget. Defaults: the panel shows the view's part itself."""

    #: CSS classes the app gives the panel ("view-scroll": a scrolling pane with padding).
    PANEL_CLASSES: ClassVar[str] = ""
    #: Whether :meth:`prepare` is worth running in a worker before the view is shown (it builds rows).
    PREPARED_AHEAD: ClassVar[bool] = False
    #: Names whole (``n``), else fitted to the panel (:func:`tui.formats.names.fit_names`): the app
    #: sets it on every panel, then shows each its view again.
    full_names: bool = False

    @classmethod
    def prepare(cls, analysis: Any, part: str, width: int | None, made: Sequence[tuple[Any, Any]]) -> Any:
        """What the panel draws for ``part`` of ``analysis`` (the view, or the part it shows first),
        fitted to ``width`` cells; ``made``: (analysis, data) made before for this view, to reuse."""
        return analysis.part(part)

    def show(self, data: Any) -> None:
        """Show ``data`` (from :meth:`prepare`; None: nothing for this selection)."""
        raise NotImplementedError

    def set_filter(self, needle: str) -> None:
        """The / filter (case-folded): the rows whose names contain ``needle``."""

    @property
    def fit_width(self) -> int | None:
        """The cells the panel fits its content to (None: it does not, or not yet laid out)."""
        return None

    def learner_under_cursor(self) -> str | None:
        """The learner of the row (or column) under the cursor, None where there is none."""
        return None

    def toggle_under_cursor(self) -> tuple[str, str] | None:
        """What space toggles here when the sidebar has no cursor: ("datasets" or "learners", name)."""
        learner = self.learner_under_cursor()
        return ("learners", learner) if learner else None

    def shown_order(self) -> tuple[list[str], list[str]] | None:
        """The data sets and learners in the order shown, when the panel sorts them (the export
        follows it), else None."""
        return None


def panel_room(panel: Widget, *scrolling: Widget) -> int | None:
    """The cells ``panel`` can give its content: inside its padding, less the vertical scrollbar of
    the ``scrolling`` widgets (shown or not: the panel itself, its tables). Known while the panel
    is hidden (its container's width: the rows a worker makes then are fitted to the width they
    show at); None before the first layout."""
    container = panel.parent if isinstance(panel.parent, Widget) else panel
    inner = container.content_region.width - panel.styles.gutter.width
    inner -= sum(w.styles.scrollbar_size_vertical for w in scrolling)
    return inner if inner > 0 else None


def learner_in_row(panel: Widget, first: str) -> str | None:
    """The learner of the row under the cursor of ``panel``'s focused table (else of its table
    ``first``), for panels whose tables have a row per learner (the tests and pairs views)."""
    focused = panel.app.focused
    table = focused if isinstance(focused, VimTable) and panel in focused.ancestors else None
    table = table or panel.query_one(first, VimTable)
    if not table.row_count:
        return None
    return str(table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value)
