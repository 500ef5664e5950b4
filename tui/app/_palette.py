"""The command palette's provider: every command of the registry (:mod:`tui.app._commands`), and the
names of the logs: a criterion (chooses it), a learner (makes it the control), a data set
(includes or excludes it), each by the app's own selection actions (:mod:`tui.app._selection_actions`).

Names come from untrusted logs: every entry is plain text (no Rich or Textual markup is read from
it) with control characters shown escaped (:func:`stats.core.names.printable`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from stats.core.names import printable
from tui.app._commands import Command, commands

Entry = tuple[str, Callable[[], Any]]  # (the entry's plain text, what choosing it does)


def highlighted(matcher: Matcher, text: str) -> Content:
    """``text`` as plain content with the letters the query matched highlighted (Textual's
    ``Matcher.highlight`` reads markup: a name like ``[red]boom`` would be styled, not shown)."""
    content = Content(text)
    _, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class RegistryProvider(Provider):
    """The command palette's entries: every registry command, with its key; and, for a query,
    the criteria, learners and data sets of the logs whose entry it matches."""

    def _entries(self) -> Iterator[tuple[str, str, Command]]:
        view = getattr(self.app, "view", "")
        for c in commands():
            if c.id in ("palette",) or (c.views and view not in c.views):
                continue  # (a command of another view: it would do nothing here)
            yield f"{c.description} ({c.key_display})", c.id, c

    def _runner(self, c: Command):  # noqa: ANN202
        return partial(self.app.run_action, c.action)

    def _names(self) -> Iterator[Entry]:
        """``criterion: NAME``, ``control: NAME`` and ``data set: NAME (exclude it)`` entries of
        the logs shown, each saying what choosing it does when that is not plain."""
        app: Any = self.app
        model, sel = getattr(app, "model", None), getattr(app, "selection", None)
        if model is None or sel is None:
            return
        analysis = getattr(app, "analysis", None)
        control = analysis.control if analysis is not None else sel.control
        for name in model.criteria:
            now = " (the criterion now)" if name == sel.criterion else ""
            yield f"criterion: {printable(name)}{now}", partial(app.choose_criterion, name)
        for name in model.learners:
            now = " (the control now)" if name == control else "" if name in sel.learners else " (include it)"
            yield f"control: {printable(name)}{now}", partial(app.choose_control, name)
        for name in model.datasets:
            what = "exclude it" if name in sel.datasets else "include it"
            yield f"data set: {printable(name)} ({what})", partial(app.toggle_name, "datasets", name)

    async def discover(self) -> Hits:
        for text, _, c in self._entries():
            yield DiscoveryHit(Content(text), self._runner(c), text=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        entries: list[Entry] = [(text, self._runner(c)) for text, _, c in self._entries()]
        for text, run in [*entries, *self._names()]:
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlighted(matcher, text), run, text=text)
