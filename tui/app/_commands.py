"""The one registry of commands: it feeds the bindings, the footer, the help screen and the palette
(:mod:`tui.app._palette`). A view's command comes from the registry of views (:mod:`tui.registry`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tui import registry

if TYPE_CHECKING:
    from textual.binding import Binding

# No textual import at module level: `rankboard --help` lists the keys (help_rows) without loading
# Textual (issue 17). The palette's provider is in tui.app._palette.


@dataclass(frozen=True)
class Command:
    """One user command: ``key`` (Textual key names, comma-separated) runs ``action`` on the app."""

    id: str
    key: str
    description: str
    action: str
    show: bool = True  # shown in the footer (which must fit 80 columns; the help lists every command)
    display: str | None = None  # how the key is written in the footer and help
    short: str | None = None  # the footer's word (the description is the help's sentence)
    views: tuple[str, ...] = ()  # the views where it acts (and is in the footer and palette); () = all
    group: str | None = None  # commands of one group share one footer entry ("<> sort")
    # checked by the app before the focused widget sees the key (Textual's priority bindings): the
    # action runs while the keys typed after it are still queued, so they follow a focus it moves
    priority: bool = False

    @property
    def key_display(self) -> str:
        return self.display or self.key


def view_commands() -> tuple[Command, ...]:
    """One command per registered view (:mod:`tui.registry`): its key shows it."""
    return tuple(
        Command(v.name, v.key, v.title, f"view('{v.name}')", show=v.in_footer, display=v.key, short=v.short)
        for v in registry.views()
    )


#: The commands that are not views, in the help's order (after the views').
OTHER_COMMANDS: tuple[Command, ...] = (
    Command("control", "c", "make the learner under the cursor the control", "control", short="control"),
    # d is not in the footer (80 columns): the sidebar's heading says "d flips", the status line the direction
    Command("direction", "d", "flip the direction of the current criterion", "direction", show=False),
    Command(
        "toggle",
        "space",
        "include/exclude the data set or learner under the cursor",
        "toggle",
        show=False,
        display="space",
    ),
    Command(
        "sort_up",
        "less_than_sign",
        "ranks view: sort the rows by the column under the cursor, ascending (on the average-rank row: "
        "the learners by average rank, best first); again: back to the logs' order",
        "sort('ascending')",
        display="<",
        short="sort",
        views=("ranks",),
        group="sort",
    ),
    Command(
        "sort_down",
        "greater_than_sign",
        "ranks view: the same, descending (on the average-rank row: worst first)",
        "sort('descending')",
        display=">",
        short="sort",
        views=("ranks",),
        group="sort",
    ),
    Command("alpha", "a", "cycle alpha (0.10, 0.05, 0.01)", "alpha", show=False),
    Command(
        "procedure",
        "m",
        "cycle the pairs procedure (nemenyi, holm, shaffer, bergmann, wilcoxon-holm, sign-holm)",
        "procedure",
        show=False,
    ),
    Command(
        "deltas",
        "x",
        "quartile charts of deltas against the control (per fold), or of the values",
        "deltas",
        show=False,
    ),
    Command(
        "scott_knott",
        "g",
        "cycle the quartile charts' Scott-Knott ranks: ESD 2.x, ESD 1.x, ESD np 3.0, A12 (Menzies)",
        "scott_knott",
        show=False,
    ),
    Command(
        "rope",
        "o",
        "cycle the rope of the Bayesian tests: 0, 0.5, 1, 2, 5 units of the criterion's scale (0.01 on [0, 1], "
        "1 on [0, 100]), and the rope in use",
        "rope",
        show=False,
    ),
    Command(
        "names",
        "n",
        "names fitted to the screen (what all share dropped, cut in the middle) or whole; tables scroll sideways",
        "names",
        show=False,
    ),
    Command("rope_input", "O", "type the rope of the Bayesian tests (any number >= 0)", "type_rope", show=False),
    Command("export", "e", "export the current view to CSV (or as a figure: SVG, PDF, PNG)", "export", show=False),
    Command(
        "copy", "y", "copy the value under the cursor at full precision (OSC 52: works over SSH)", "copy", show=False
    ),
    Command(
        "spec",
        "s",
        "save the current selection as a view spec (TOML) for rankboard report --spec",
        "save_spec",
        show=False,
    ),
    Command(
        "problems",
        "w",
        "open or fold the problems found in the logs (folded: one line, how many and the last)",
        "problems",
        show=False,
    ),
    Command("reload", "r", "reload the logs from disk", "reload", show=False),
    Command("pause", "p", "pause/resume live updates", "pause", show=False),
    Command("filter", "slash", "filter data sets and learners", "filter", show=False, display="/", priority=True),
    Command("help", "question_mark,f1", "help: every key", "help", display="?", short="help"),
    Command("palette", "ctrl+p", "command palette", "command_palette", show=False, display="ctrl+p"),
    Command("cancel", "escape", "cancel loading", "cancel_load", show=False, display="esc"),
    Command("quit", "q", "quit", "quit", short="quit"),
)


def commands() -> tuple[Command, ...]:
    """Every command: the views' (as registered now), then the others."""
    return (*view_commands(), *OTHER_COMMANDS)


NAVIGATION = (
    ("arrows, j/k", "move the cursor"),
    (
        "tab, shift+tab",
        "next/previous pane, the same in every view: the sidebar's lists, then the view's tables top "
        "to bottom, then round again (the view's first table shows the view from its top)",
    ),
    ("enter", "choose the criterion under the cursor"),
)


def bindings() -> list[Binding]:
    """The app's BINDINGS, from the registry."""
    from textual.binding import Binding

    return [
        Binding(
            c.key,
            c.action,
            c.short or c.description.split(":")[0],
            show=c.show,
            key_display=c.display,
            id=c.id,
            group=Binding.Group(c.group, compact=True) if c.group else None,
            priority=c.priority,
        )
        for c in commands()
    ]


def acts_in(action: str, view: str) -> bool:
    """Whether the command of ``action`` (a name, without parameters) acts in ``view``."""
    return all(not c.views or view in c.views for c in commands() if c.action.split("(")[0] == action)


def help_rows() -> Iterator[tuple[str, str]]:
    """``(key, description)`` rows for the help screen and ``rankboard --help``."""
    for c in commands():
        yield ("?/F1" if c.id == "help" else c.key_display), c.description
    yield from NAVIGATION
