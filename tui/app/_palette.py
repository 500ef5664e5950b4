"""The command palette's provider: every command of the registry (:mod:`tui.app._commands`)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.app._commands import Command, commands


class RegistryProvider(Provider):
    """The command palette's entries: every registry command, with its key."""

    def _entries(self) -> Iterator[tuple[str, str, Command]]:
        view = getattr(self.app, "view", "")
        for c in commands():
            if c.id in ("palette",) or (c.views and view not in c.views):
                continue  # (a command of another view: it would do nothing here)
            yield f"{c.description} ({c.key_display})", c.id, c

    def _runner(self, c: Command):  # noqa: ANN202
        return partial(self.app.run_action, c.action)

    async def discover(self) -> Hits:
        for text, _, c in self._entries():
            yield DiscoveryHit(text, self._runner(c), text=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, _, c in self._entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), self._runner(c), text=text)
