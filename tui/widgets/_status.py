"""The status line: what is selected and what is loaded, live or paused always on screen.

When the line is too narrow, fields are shortened, then dropped from the least important up
(files, last update, rope, lines); before the selection's own fields (procedure, alpha, control)
would go, the long names in them are cut in the middle instead (the control's, then the
criterion's: a sweep's ``GradientBoosting-learning_rate=0.1-max_depth=3`` pushed alpha and the
procedure off 80 columns). Never dropped: the state (live, paused, loading) and the criterion
with its direction.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from stats.core.names import printable
from tui.formats.names import middle_ellipsis
from tui.model import Selection


class StatusLine(Static):
    """One line of facts about the selection and what is loaded; every field is an attribute set by the app."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    files: reactive[int] = reactive(0)
    lines: reactive[int] = reactive(0)
    #: data sets x learners in the table; None while a new model is analysed (the sidebar may
    #: list its names already: the line says "analysing", never the old or an empty shape)
    shape: reactive[tuple[int, int] | None] = reactive((0, 0))
    #: why the logs give nothing to show (long and short form; None: they hold results), said
    #: before the shape (0 x 0): a load that found no results ends here, never on "analysing"
    no_results: reactive[tuple[str, str] | None] = reactive(None)
    updated: reactive[str] = reactive("-")
    live: reactive[bool] = reactive(True)
    loading: reactive[bool] = reactive(False)
    selection: reactive[Selection | None] = reactive(None)
    control: reactive[str | None] = reactive(None)
    filter: reactive[str] = reactive("")  # the / filter: the views show only the rows it matches

    def fields(self) -> list[tuple[int, str, str]]:
        """(priority, long form, short form) in display order; :data:`STEPS` shortens and drops
        them until the line fits (the state, priority 0, is never dropped)."""
        out: list[tuple[int, str, str]] = []
        sel = self.selection
        if sel is not None:
            name = printable(sel.criterion)
            direction = "higher" if sel.higher_is_better else "lower"
            out.append((0, f"{name} {direction}-better", self._criterion(name)))
            if self.control:
                out.append((2, f"control {printable(self.control)}", self._versus(printable(self.control))))
            out.append((3, f"alpha {sel.alpha:g}", f"a={sel.alpha:g}"))
            out.append((4, sel.procedure, sel.procedure))
            if sel.rope is not None:
                out.append((6, f"rope {sel.rope:g}", f"rope {sel.rope:g}"))
        if self.filter:  # never dropped: it hides rows of the views while it is on
            out.append((0, f"filter {printable(self.filter)}", f"/{printable(self.filter)}"))
        if self.no_results is not None:
            out.append((1, *self.no_results))
        if self.shape is None:
            out.append((1, "analysing...", "analysing"))
        else:
            n, k = self.shape
            out.append((1, f"{n} data sets x {k} learners", f"{n}x{k}"))
        out.append((5, f"{self.lines} lines", f"{self.lines} lines"))
        out.append((8, f"{self.files} files", f"{self.files} files"))
        out.append((7, f"updated {self.updated}", self.updated))
        state = "loading..." if self.loading else ("live" if self.live else "paused")
        out.append((0, state, state))
        return out

    def _criterion(self, name: str) -> str:
        """The criterion's short form: ``acc higher``."""
        higher = self.selection is None or self.selection.higher_is_better
        return f"{name} {'higher' if higher else 'lower'}"

    @staticmethod
    def _versus(name: str) -> str:
        """The control's short form: ``vs nb``."""
        return f"vs {name}"

    def cut_names(self) -> list[tuple[int, str, Callable[[str], str]]]:
        """The fields whose name the line may cut in the middle, in the order :data:`STEPS` cuts
        them: (priority, the name as shown, the field's short form of a name)."""
        out: list[tuple[int, str, Callable[[str], str]]] = []
        if self.selection is not None:
            if self.control:
                out.append((2, printable(self.control), self._versus))
            out.append((0, printable(self.selection.criterion), self._criterion))
        return out

    def full_text(self) -> str:
        """Every field in its long form (what a wide terminal shows)."""
        return " | ".join(long for _, long, _ in self.fields())

    #: The fewest characters a name is cut to (both its ends show: ``Gra…h=3``).
    MIN_NAME = 7
    #: How the line is made to fit, step by step: ("short" | "cut" | "drop", priority); "cut" cuts
    #: the name in that field (:meth:`cut_names`) in the middle, just enough to fit, not below MIN_NAME.
    STEPS = (
        ("drop", 8),  # files
        ("drop", 7),  # last update
        ("short", 3),  # alpha
        ("short", 2),  # control
        ("short", 0),  # criterion and direction
        ("short", 1),  # data sets x learners
        ("drop", 6),  # rope
        ("drop", 5),  # lines
        ("cut", 2),  # the control's name
        ("cut", 0),  # the criterion's name
        ("drop", 4),  # procedure
        ("drop", 3),
        ("drop", 2),
        ("drop", 1),
    )

    def render(self) -> Text:
        fields = [list(f) for f in self.fields()]  # [priority, shown, short]
        width = self.content_size.width or 1000

        def text() -> str:
            return " | ".join(f[1] for f in fields)

        cuts = {p: (name, form) for p, name, form in self.cut_names()}
        for step, priority in self.STEPS:
            if len(text()) <= width:
                break
            if step == "drop":
                fields = [f for f in fields if f[0] != priority]
            elif step == "cut":
                if priority in cuts:
                    self._cut(fields, *cuts[priority], len(text()) - width)
            else:
                for f in fields:
                    if f[0] == priority:
                        f[1] = f[2]
        return Text(text(), no_wrap=True, overflow="ellipsis")

    def _cut(self, fields: list[list], name: str, form: Callable[[str], str], over: int) -> None:
        """Cut ``name`` in the field that shows it (its short form) by ``over`` characters, in the
        middle (:func:`tui.formats.names.middle_ellipsis`), keeping at least :data:`MIN_NAME`."""
        for f in fields:
            if f[1] == form(name):
                f[1] = form(middle_ellipsis(name, max(self.MIN_NAME, len(name) - over)))
                return
