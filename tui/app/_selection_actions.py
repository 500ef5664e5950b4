"""The keys that change the selection: control, direction, include/exclude, alpha, procedure,
rope, deltas, criterion and pair (from the sidebar and the pairs table), and the filter.

Each changes the app's one ``selection`` reactive (``dataclasses.replace``); the app analyses it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from textual.actions import SkipAction
from textual.widgets import Input

from tui import registry
from tui.model import GROUPING_NAMES, GROUPINGS, PROCEDURES, default_higher_is_better
from tui.widgets import Sidebar, ViewPanel, VimTable

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from tui.model import Model, Selection

    _Base = App[None]
else:
    _Base = object

ALPHAS = (0.10, 0.05, 0.01)
#: The ropes ``o`` cycles through (a spec or ``report --rope`` takes any value >= 0).
ROPES = (0.0, 0.005, 0.01, 0.02, 0.05)


class SelectionActions(_Base):
    """Mixed into the app: needs ``selection``, ``model`` and ``view``."""

    selection: Selection | None
    view: str
    focused: Widget | None

    if TYPE_CHECKING:

        @property
        def model(self) -> Model | None: ...  # the loader's (LoadActions.model)

    def _change(self, **changes: Any) -> None:
        if self.selection is None:
            self.notify("nothing loaded yet", severity="warning")
            return
        self.selection = replace(self.selection, **changes)

    def on_sidebar_criterion_chosen(self, message: Sidebar.CriterionChosen) -> None:
        self._choose_criterion(message.criterion)

    def _choose_criterion(self, criterion: str) -> None:
        """Switch to ``criterion`` with its default direction (the chosen data sets and learners stay
        chosen; the analysis leaves out, with a note, those without results for it)."""
        # the rope is the criterion's: a new criterion starts from its own default
        self._change(criterion=criterion, higher_is_better=default_higher_is_better(criterion), rope=None)

    def _cursor(self) -> tuple[str, str] | None:
        """The sidebar's name under the cursor, else the learner under the cursor of the view on
        screen (the row's learner in the quartiles, tests, pairs and folds views; the column's in
        the ranks view). The palette's actions come here too: they act on the view on screen."""
        current = self.query_one(Sidebar).current()
        if current is None:
            under = cast(ViewPanel, self.query_one(f"#{self.view}")).learner_under_cursor()
            current = ("learners", under) if under else None
        return current

    def action_control(self) -> None:
        current = self._cursor()
        if current is None or current[0] != "learners":
            self.notify("move the cursor to a learner (the sidebar, or a view's rows) first", severity="warning")
            return
        self._change(control=current[1])
        self.notify(f"control {current[1]}")

    def action_direction(self) -> None:
        if self.selection is not None:
            higher = not self.selection.higher_is_better
            self._change(higher_is_better=higher)
            self.notify(f"{self.selection.criterion}: {'higher' if higher else 'lower'} is better")

    def _toggle_target(self) -> tuple[str, str] | None:
        """What space toggles: the sidebar's name under the cursor; in the ranks table the row's
        data set (on the average-rank row, the column's learner)."""
        current = self.query_one(Sidebar).current()
        if current is None:
            current = cast(ViewPanel, self.query_one(f"#{self.view}")).toggle_under_cursor()
        return current

    def action_toggle(self) -> None:
        current = self._toggle_target()
        if current is None or self.selection is None or self.model is None:
            self.notify("move the cursor to a data set or learner first", severity="warning")
            return
        kind, name = current
        if kind == "criteria":
            self._choose_criterion(name)
            return
        chosen = set(getattr(self.selection, kind))
        chosen ^= {name}
        what = "data set" if kind == "datasets" else "learner"
        message = f"{'included' if name in chosen else 'excluded'} {what} {name}"
        changes: dict[str, Any] = {kind: tuple(n for n in getattr(self.model, kind) if n in chosen)}
        if kind == "learners" and name == self.selection.control and name not in chosen:
            changes["control"] = None  # say so: the best-ranked learner becomes the control
            message += " (it was the control: the best-ranked learner is the control now)"
        self._change(**changes)
        self.notify(message)

    def action_alpha(self) -> None:
        if self.selection is not None:
            alpha = self.selection.alpha
            i = min(range(len(ALPHAS)), key=lambda j: abs(ALPHAS[j] - alpha))
            self._change(alpha=ALPHAS[(i + 1) % len(ALPHAS)])
            self.notify(f"alpha {ALPHAS[(i + 1) % len(ALPHAS)]:g}")

    def action_procedure(self) -> None:
        if self.selection is not None:
            i = PROCEDURES.index(self.selection.procedure)
            procedure = PROCEDURES[(i + 1) % len(PROCEDURES)]
            self._change(procedure=procedure)
            self.notify(f"pairs procedure {procedure}: the verdict, the marks, the CD bars and the letters follow it")

    def action_deltas(self) -> None:
        """x: the quartile charts show the per-fold differences against the control, or the values."""
        if self.selection is not None:
            deltas = not self.selection.deltas
            self._change(deltas=deltas)
            self.notify("quartiles: deltas against the control" if deltas else "quartiles: values")

    def action_scott_knott(self) -> None:
        """g: the quartile charts' rank column by the next Scott-Knott variant (esd, esd-v1, np, a12, esd...)."""
        if self.selection is not None:
            i = GROUPINGS.index(self.selection.scott_knott)
            method = GROUPINGS[(i + 1) % len(GROUPINGS)]
            self._change(scott_knott=method)
            self.notify(f"quartile ranks: {GROUPING_NAMES[method]}")

    def action_rope(self) -> None:
        """o: the next rope of :data:`ROPES` after the one in use (the criterion's default at first)."""
        if self.selection is None:
            return
        current = self.selection.rope
        if current is None:
            current = self.model.default_rope(self.selection.criterion) if self.model is not None else -1.0
        rope = next((r for r in ROPES if r > current + 1e-12), ROPES[0])
        self._change(rope=rope)
        self.notify(f"rope {rope:g} (Bayesian tests of the folds view)")

    def table_under_cursor(self) -> VimTable | None:
        """The table of the view on screen whose cursor the keys act on: the focused one, else
        the view's first (None: a view without a table)."""
        focused = self.focused
        if isinstance(focused, VimTable) and self.query_one(f"#{self.view}") in focused.ancestors:
            return focused
        name = registry.view(self.view).focus
        return self.query_one(f"#{name}", VimTable) if name else None

    def action_copy(self) -> None:
        """y: the value under the cursor at full precision to the clipboard (Textual's OSC 52)."""
        table = self.table_under_cursor()
        text = table.exact_under_cursor() if table is not None else None
        if text is None:
            where = "a number in a table" if table is not None else "a table (views 2, 3, 4 and 6)"
            self.notify(f"nothing to copy here: move the cursor to {where} first", severity="warning")
            return
        self.copy_to_clipboard(text)
        self.notify(f"copied: {text}")

    def action_filter(self) -> None:
        # a priority binding (the keys typed after `/` reach the filter): on a dialog, or typed
        # into the filter itself, the key goes on to the focused widget as usual ("/" in a name)
        if self.screen is not self.screen_stack[0] or isinstance(self.focused, Input):
            raise SkipAction()
        self.query_one(Sidebar).open_filter()
