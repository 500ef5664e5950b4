"""The keys that change the selection: control, direction, include/exclude, alpha, procedure,
rope (cycled or typed), deltas, criterion and pair (from the sidebar and the pairs table), and the
filter.

Each changes the app's one ``selection`` reactive (``dataclasses.replace``); the app analyses it.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from textual.actions import SkipAction
from textual.widgets import Input

from tui import registry
from tui.app._screens import AskScreen
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
#: The ropes ``o`` cycles through, in units of the criterion's scale (``stats.rope_unit``: 0.01 on
#: [0, 1], so 0, 0.005, 0.01, 0.02, 0.05; 1 on [0, 100], so 0, 0.5, 1, 2, 5); one unit is the
#: default rope (``stats.default_rope``). ``O``, a spec and ``report --rope`` take any value >= 0.
ROPE_STEPS = (0.0, 0.5, 1.0, 2.0, 5.0)


def rope_cycle(unit: float | None, *ropes: float | None) -> tuple[float, ...]:
    """The ropes ``o`` cycles through, ascending: ``unit`` times :data:`ROPE_STEPS` (rounded to 12
    significant digits: 0.005, not 0.005000000000000001), only 0 when the scale is unknown (None);
    and each of ``ropes`` (the one in use, one from a spec or typed) in its sorted place when it is
    none of them (None: left out)."""
    cycle = {0.0} if unit is None else {float(f"{unit * step:.12g}") for step in ROPE_STEPS}
    return tuple(sorted(cycle | {float(r) + 0.0 for r in ropes if r is not None}))  # (+ 0.0: -0.0 is 0.0)


def next_rope(unit: float | None, current: float, kept: float | None = None) -> float:
    """The rope after ``current`` in :func:`rope_cycle` of ``current`` and ``kept`` (after the
    largest: the smallest, 0)."""
    cycle = rope_cycle(unit, current, kept)
    return next((r for r in cycle if r > current), cycle[0])


def plain_number(x: float) -> str:
    """``x`` as typed: ``1``, ``0.005``, ``0.0123456789`` (the shortest text that reads back as ``x``)."""
    short = f"{x:.15g}"
    return short if float(short) == x else repr(x)


class SelectionActions(_Base):
    """Mixed into the app: needs ``selection``, ``model`` and ``view``."""

    selection: Selection | None
    view: str
    focused: Widget | None
    #: Per criterion, the last rope in use that is not one of ``o``'s multiples of the unit (from a
    #: spec, typed with ``O``): ``o`` keeps it in its cycle after moving on from it.
    _kept_ropes: dict[str, float] | None = None

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

    def choose_criterion(self, criterion: str) -> None:
        """The palette's "criterion: NAME": as Enter on it in the sidebar, and a notice says so."""
        self._choose_criterion(criterion)
        if self.selection is not None:
            better = "higher" if self.selection.higher_is_better else "lower"
            self.notify(f"criterion {criterion} ({better} is better; d flips)")

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
        self.choose_control(current[1])

    def choose_control(self, name: str) -> None:
        """Make learner ``name`` the control (``c``, the palette's "control: NAME"); an excluded
        learner is included again: the analysis takes its control among the included learners only
        (an excluded one would be ignored, the best-ranked learner staying the control)."""
        if self.selection is None or self.model is None:
            self.notify("nothing loaded yet", severity="warning")
            return
        changes: dict[str, Any] = {"control": name}
        message = f"control {name}"
        if name not in self.selection.learners:
            chosen = {*self.selection.learners, name}
            changes["learners"] = tuple(n for n in self.model.learners if n in chosen)
            message += " (included again)"
        self._change(**changes)
        self.notify(message)

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
        self.toggle_name(kind, name)

    def toggle_name(self, kind: str, name: str) -> None:
        """Include or exclude ``name`` of ``kind`` ("datasets" or "learners"), with a notice saying
        which (space, and the palette's "data set: NAME")."""
        if self.selection is None or self.model is None:
            self.notify("nothing loaded yet", severity="warning")
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

    def _rope_in_use(self) -> tuple[float, float | None, float | None] | None:
        """(the rope of the selection, its criterion's unit ``stats.rope_unit``, the rope kept in
        ``o``'s cycle); None (with a notice) before anything is loaded. A rope in use that is not
        among the unit's multiples becomes the kept one."""
        if self.selection is None or self.model is None:
            self.notify("nothing loaded yet", severity="warning")
            return None
        criterion, rope = self.selection.criterion, self.selection.rope
        current = self.model.default_rope(criterion) if rope is None else float(rope) + 0.0
        unit = self.model.rope_unit(criterion)
        if self._kept_ropes is None:
            self._kept_ropes = {}
        if current not in rope_cycle(unit):
            self._kept_ropes[criterion] = current
        return current, unit, self._kept_ropes.get(criterion)

    def _unknown_scale(self) -> str:
        criterion = self.selection.criterion if self.selection is not None else ""
        return f"the scale of {criterion} is unknown (its values are not all within [0, 1] nor [0, 100])"

    def action_rope(self) -> None:
        """o: the next rope after the one in use (the criterion's default at first), among 0, 0.5,
        1, 2 and 5 units of the criterion's scale and the rope in use (:func:`rope_cycle`)."""
        known = self._rope_in_use()
        if known is None:
            return
        current, unit, kept = known
        rope = next_rope(unit, current, kept)
        if unit is None and rope == current:  # 0, and nothing else to cycle to
            self.notify(f"rope {rope:g}: {self._unknown_scale()}; O types a rope in its units", severity="warning")
            return
        self._change(rope=rope)
        more = f"; {self._unknown_scale()}: O types one" if unit is None else "; O types any"
        self.notify(f"rope {rope:g} (Bayesian tests of the folds view{more})")

    def action_type_rope(self) -> None:
        """O: a dialog asks for any rope (a finite number >= 0, in the criterion's units)."""
        known = self._rope_in_use()
        if known is None:
            return
        current, unit, _ = known
        criterion = self.selection.criterion if self.selection is not None else ""
        scale = (
            f"; {self._unknown_scale()}"
            if unit is None
            else f" (its values lie in [0, {1 if unit < 1 else 100}]: the default is {unit:g})"
        )
        prompt = f"Rope of the Bayesian tests: a number >= 0, in {criterion}'s units{scale}"
        self.push_screen(AskScreen(plain_number(current), prompt), self._typed_rope)

    def _typed_rope(self, text: str | None) -> None:
        """The rope typed in the dialog: set when it is a finite number >= 0, else a notice and no change."""
        if text is None or self.selection is None:  # (esc)
            return
        try:
            rope = float(text)
        except ValueError:
            rope = math.nan
        if not (math.isfinite(rope) and rope >= 0.0):
            was = self.selection.rope
            if was is None and self.model is not None:
                was = self.model.default_rope(self.selection.criterion)
            self.notify(
                f"rope {text!r} refused: a rope is a finite number >= 0, in the criterion's units; "
                f"it stays {plain_number(float(was or 0.0))}",
                severity="error",
                markup=False,
            )
            return
        rope += 0.0  # (-0 is 0)
        self._change(rope=rope)  # (the next o keeps it in its cycle: _rope_in_use)
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
        """y: the bare value under the cursor at full precision to the clipboard (Textual's OSC 52);
        the line under the table keeps the sentence that says what it is."""
        table = self.table_under_cursor()
        text = table.value_under_cursor() if table is not None else None
        if text is None:
            where = "a number in a table" if table is not None else "a table (views 2, 3, 4 and 6)"
            self.notify(f"nothing to copy here: move the cursor to {where} first", severity="warning")
            return
        self.copy_to_clipboard(text)
        self.notify(f"copied: {text}", markup=False)  # (the line under the table says what it is)

    def action_filter(self) -> None:
        # a priority binding (the keys typed after `/` reach the filter): on a dialog, or typed
        # into the filter itself, the key goes on to the focused widget as usual ("/" in a name)
        if self.screen is not self.screen_stack[0] or isinstance(self.focused, Input):
            raise SkipAction()
        self.query_one(Sidebar).open_filter()
