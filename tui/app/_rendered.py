"""What the panels draw for one analysis, built once and only when needed (each view's panel says
how: :meth:`tui.widgets.ViewPanel.prepare`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from tui import registry
from tui.model import Analysis


class Ahead:
    """What panels drew ahead of time for other controls (the app's idle worker), by the part they
    show (the very object the model's cache hands out again): a toggle to one of those controls
    finds it drawn. Thread-safe; the last :data:`SIZE` kept."""

    SIZE = 24

    def __init__(self) -> None:
        self._data: OrderedDict[int, tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, part: Any, data: Any) -> None:
        with self._lock:
            self._data[id(part)] = (part, data)
            self._data.move_to_end(id(part))
            while len(self._data) > self.SIZE:
                self._data.popitem(last=False)

    def get(self, part: Any) -> Any:
        with self._lock:
            kept = self._data.get(id(part))
        return kept[1] if kept is not None and kept[0] is part else None


@dataclass
class Rendered:
    """The panels' render data for one analysis, built lazily: for the view on screen in the
    analysis worker (off the event loop), for another view when it is first shown. ``data`` maps a
    view to what its panel draws; ``whole`` are the views whose data shows the whole view (not the
    part it shows first)."""

    analysis: Analysis
    data: dict[str, Any] = field(default_factory=dict)
    whole: set[str] = field(default_factory=set)

    def build(
        self, view: str, previous: Rendered | None = None, width: int | None = None, ahead: Ahead | None = None
    ) -> Rendered:
        """Build the render data of ``view`` if it is not built (the panel reuses ``previous``'s when
        it shows the same, or what ``ahead`` holds for the same part).

        ``width``: the cells the panel fits its content to.
        """
        if view in self.whole:
            return self
        analysis = self.analysis
        declared = registry.view(view)
        # the whole view when it is made (or nothing is: then made now), else the part shown first
        whole = not analysis.early_ready(view)
        shown = view if whole or declared.early is None else declared.early
        made = [(r.analysis, r.data[view]) for r in (self, previous) if r is not None and r.data.get(view) is not None]
        if ahead is not None:
            kept = ahead.get(analysis.part(shown))
            if kept is not None:
                made.append((analysis, kept))
        self.data[view] = declared.ref("panel").prepare(analysis, shown, width, made)
        if whole:
            self.whole.add(view)
        return self

    def take(self, other: Rendered) -> Rendered:
        """Adopt what ``other`` (of the same analysis, e.g. built in a worker) has built and this has not."""
        if other.analysis is self.analysis:
            for view, data in other.data.items():
                if view not in self.whole and (view in other.whole or view not in self.data):
                    self.data[view] = data
                    if view in other.whole:
                        self.whole.add(view)
        return self
