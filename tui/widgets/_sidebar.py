"""The sidebar: criteria with their direction, data sets and learners to include, control, alpha.

Names longer than a list is wide are cut in the middle (the end, where names of a family differ,
stays), and the whole name under the cursor is shown on a line below the lists. ``[x]`` marks an
included name, ``[ ]`` an excluded one, ``[c]`` the control: the one chosen with ``c``, else the
best-ranked learner the analysis made the control (the default control, marked the same way).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.formats.names import middle_ellipsis
from tui.widgets._base import literal, matches


class NameList(OptionList):
    """An option list that also moves with j/k."""

    BINDINGS = [Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]

    def on_resize(self) -> None:
        parent = self.parent
        if isinstance(parent, Sidebar):
            parent.call_after_refresh(parent.refresh_lists)  # names are cut to the new width

    def current(self) -> str | None:
        """The name (option id) under the cursor."""
        if self.highlighted is None or self.option_count == 0:
            return None
        return self.get_option_at_index(self.highlighted).id

    def fill(self, options: list[Option]) -> None:
        """Replace the options, keeping the cursor on the same name when it is still there.

        When the names are the same (a toggle changes only marks), only the prompts that differ
        are replaced: no rebuild of the list, no new layout, and nothing at all when none differ.
        """
        if [o.id for o in options] == [o.id for o in self.options]:
            for index, (old, new) in enumerate(zip(self.options, options)):
                if old.prompt != new.prompt:
                    self.replace_option_prompt_at_index(index, new.prompt)
            return
        keep = self.current()
        self.clear_options()
        self.add_options(options)
        ids = [o.id for o in options]
        if options:
            self.highlighted = ids.index(keep) if keep in ids else 0


class FilterInput(Input):
    """The `/` filter: Enter closes it keeping the filter (the settings line says it is on), Esc
    closes it clearing the filter."""

    BINDINGS = [Binding("escape", "clear", "clear and close the filter", show=False)]

    def action_clear(self) -> None:
        self.value = ""
        self.post_message(Input.Submitted(self, ""))


class Sidebar(VerticalScroll, can_focus=False):
    """Renders from ``names`` and ``selection`` (set by the app); posts :class:`CriterionChosen`."""

    @dataclass
    class CriterionChosen(Message):
        criterion: str

    @dataclass
    class Filtered(Message):
        """The ``/`` filter changed: the views narrow their rows to it too."""

        text: str

    names: reactive[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = reactive(((), (), ()))
    selection = reactive(None)
    #: The control the analysis used (the selection's, else the best-ranked learner), set by the app.
    control: reactive[str | None] = reactive(None)
    filter_text: reactive[str] = reactive("")

    def compose(self) -> ComposeResult:
        yield Label("Criteria (d flips)", classes="heading")
        yield NameList(id="criteria")
        yield FilterInput(placeholder="filter", id="filter", classes="-hidden")
        yield Label("Data sets (space)", classes="heading")
        yield NameList(id="datasets")
        yield Label("Learners (space, c)", classes="heading")
        yield NameList(id="learners")
        yield Static(id="fullname")
        yield Static(id="settings")

    def current(self) -> tuple[str, str] | None:
        """``(list id, name)`` under the cursor of the focused list, if a list has focus."""
        for lst in self.query(NameList):
            if lst.has_focus:
                name = lst.current()
                return None if name is None else (lst.id or "", name)
        return None

    def open_filter(self) -> None:
        box = self.query_one(FilterInput)
        box.remove_class("-hidden")
        # At once, not `box.focus()`: that moves the focus after the keys already queued, so
        # letters typed fast after `/` went to the pane that had focus (`c`, `d`, `space` acting).
        self.screen.set_focus(box)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        box = self.query_one(FilterInput)
        box.add_class("-hidden")  # closed either way; `/` opens it again with its text
        self.filter_text = box.value
        self.query_one("#datasets", NameList).focus()

    @on(OptionList.OptionSelected, "#criteria")
    def _criterion(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.CriterionChosen(event.option.id))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_fullname()

    def on_descendant_focus(self) -> None:
        self._show_fullname()

    def on_descendant_blur(self) -> None:
        self._show_fullname()

    def _show_fullname(self) -> None:
        """The whole name under the cursor of the focused list, on its own line (the lists cut names)."""
        current = self.current()
        box = self.query_one("#fullname", Static)
        text = Text(no_wrap=False)
        if current is not None:
            text.append_text(literal(current[1], "bold"))
        box.update(text)
        box.set_class(current is None, "-empty")

    def watch_names(self) -> None:
        self.refresh_lists()

    def watch_selection(self) -> None:
        self.refresh_lists()

    def watch_control(self) -> None:
        self.refresh_lists()

    def control_in_use(self) -> str | None:
        """The learner marked ``[c]``: the selection's control while it is included (at once, before
        its analysis comes), else the analysis's (the best-ranked learner, until ``c`` chooses one)."""
        sel = self.selection
        if sel is not None and sel.control is not None and sel.control in sel.learners:
            return str(sel.control)
        return self.control

    def watch_filter_text(self, text: str) -> None:
        self.refresh_lists()
        self.post_message(self.Filtered(text))

    def refresh_lists(self) -> None:
        if not self.is_mounted:
            return
        from tui.model import default_higher_is_better

        criteria, datasets, learners = self.names
        sel = self.selection
        in_use = self.control_in_use()
        crit_opts = []
        for c in criteria:
            current = sel is not None and c == sel.criterion
            higher = sel.higher_is_better if current else default_higher_is_better(c)
            text = Text("> " if current else "  ", style="bold" if current else "", no_wrap=True, overflow="ellipsis")
            text.append_text(literal(c, "bold" if current else ""))
            text.append(" higher-better" if higher else " lower-better", style="dim")
            crit_opts.append(Option(text, id=c))
        self.query_one("#criteria", NameList).fill(crit_opts)
        needle = self.filter_text.casefold()
        for list_id, names, chosen in (
            ("datasets", datasets, sel.datasets if sel else ()),
            ("learners", learners, sel.learners if sel else ()),
        ):
            lst = self.query_one(f"#{list_id}", NameList)
            # after "[x] ", less a scrollbar's 2 columns when the names will not all fit in the height
            scrollbar = 2 if len(names) > lst.size.height else 0
            room = lst.content_region.width - 4 - scrollbar if lst.size.width else 10_000
            opts = []
            for name in names:
                if not matches(needle, name):
                    continue
                control = list_id == "learners" and name == in_use and name in chosen
                mark = "[c] " if control else "[x] " if name in chosen else "[ ] "
                text = Text(mark, style="" if name in chosen else "dim", no_wrap=True, overflow="ellipsis")
                shown = literal(name)
                suffix = " (control)" if control and room - shown.cell_len >= len(" (control)") else ""
                text.append_text(literal(middle_ellipsis(shown.plain, max(room, 3))))
                if suffix:
                    text.append(suffix, style="bold")
                opts.append(Option(text, id=name))
            lst.fill(opts)
        settings = Text(f"alpha {sel.alpha:.2f} (a)\npairs: {sel.procedure} (m)" if sel else "")
        if self.filter_text:
            settings.append("\nfilter: ")
            settings.append_text(literal(self.filter_text))
        box = self.query_one("#settings", Static)
        old = box.content
        if settings != old:  # lay the screen out again only when the number of lines changes
            lines = str(old).count("\n") if isinstance(old, (str, Text)) else -1
            box.update(settings, layout=settings.plain.count("\n") != lines)
