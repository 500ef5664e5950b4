"""The logs behind the app: poll them (all of them on reload), build a Model when they changed.

No Textual here: the app calls :meth:`Loader.load` in a thread worker and turns what it
returns into messages. Progress and cancellation go through ``stats.LogWatcher.poll``'s
``progress`` callback (raise ``stats.LoadCancelled`` from it to stop at the next block).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from stats import Aggregator, LogWatcher, aggregate_logs
from stats.logs import Progress
from tui.memory import bounded_mode, bounded_note, tune_allocator
from tui.model._early import EarlyLoad
from tui.model._model import Model
from tui.model._types import Selection
from tui.problems import format_problem

if TYPE_CHECKING:
    from stats.logs import WatchUpdate


@dataclass(frozen=True)
class LoadResult:
    """A new Model of the logs, its default selection, and what the poll found."""

    model: Model
    default: Selection | None  # None: the logs hold no results
    problems: tuple[str, ...]  # "file:line: reason" of this poll
    files: int  # files read so far
    lines: int  # results in the model
    resolved: tuple[str, ...] = ()  # problems of earlier polls that hold no more
    bounded: str | None = None  # the logs exceed the memory budget: aggregated by blocks (why, in words)
    #: (file, how) of each file read before that was read again whole or is gone: "emptied",
    #: "truncated", "replaced", "rewritten" (stats.WatchUpdate.reasons) or "gone"
    changes: tuple[tuple[str, str], ...] = ()


class Loader:
    """A ``stats.LogWatcher`` over ``paths``, the files it has seen, and a lock (one load at a time).

    ``shown``: the Model the caller shows (:meth:`show`); while it is not the last one built (the
    caller dropped a load's result, e.g. on Esc), a Model is owed even if the next poll finds
    nothing new. The loader alone decides: the caller only says what it shows.
    """

    def __init__(self, paths: Sequence[str], memory: str | None = None) -> None:
        tune_allocator()  # the memory freed while a large log is summarised goes back to the system
        self.paths = [str(p) for p in paths]
        self.memory = memory  # the budget (--memory), None: half of the available memory
        self.bounded: str | None = None  # set while the logs are aggregated by blocks (bounded_note)
        self.watcher: LogWatcher | None = None
        self.files: set[str] = set()
        self.shown: Model | None = None  # the Model the caller shows (written by the caller's thread)
        self.aggregator: Aggregator | None = None  # the rows of the logs, following each poll
        self.model: Model | None = None  # the last Model built (its caches carry over to the next)
        self._lock = threading.Lock()
        # per file, the problems listed of it (LoadResult.problems' strings: the caller's list holds
        # the same objects): they hold no more once the file is read again whole or is gone
        self._listed: dict[str, list[str]] = {}
        self._early: EarlyLoad | None = None  # the first load, begun by start() and not yet asked for

    def show(self, result: LoadResult) -> Model:
        """The caller shows ``result`` (of :meth:`load`) from now on; returns its Model."""
        self.shown = result.model
        return result.model

    def start(self) -> None:
        """Begin the first load (a reload) now, in a thread of its own: the next :meth:`load`,
        whatever it asks, returns its result (the ``rankboard`` command starts it before
        Textual is imported, so that the reading overlaps the app's start; tui.model._early)."""
        if self._early is None and self.watcher is None and self.model is None:
            self._early = EarlyLoad(lambda **callbacks: self._load(reload=True, **callbacks))

    def load(
        self,
        *,
        reload: bool,
        progress: Progress | None = None,
        phase: Callable[[str], None] | None = None,
    ) -> LoadResult | None:
        """Poll (a fresh watcher on ``reload``); the new Model, or None when nothing changed.

        ``progress(done, total)`` follows the bytes read (and may raise to cancel: the
        exception propagates and the watcher is left as it was); ``phase(text)`` is told when
        reading is over and the summarising starts.

        After :meth:`start`, the first call waits for the load it began (its progress and phases
        so far replayed to ``progress`` and ``phase``) and returns that.
        """
        early, self._early = self._early, None
        if early is not None:
            return early.join(progress, phase)  # a reload: what any first load is
        return self._load(reload=reload, progress=progress, phase=phase)

    def _load(
        self,
        *,
        reload: bool,
        progress: Progress | None = None,
        phase: Callable[[str], None] | None = None,
    ) -> LoadResult | None:
        with self._lock:
            if reload or (self.watcher is None and self.bounded is None):
                over, budget, size = bounded_mode(self.paths, self.memory)
                self.bounded = bounded_note(budget, size) if over else None
                if over:
                    return self._load_bounded(budget, progress, phase)
            elif self.bounded is not None:
                return None  # no live updates in bounded mode: r reads the logs again
            before = self.files
            if reload or self.watcher is None:
                # standing: an empty file and a binary last line are problems, as check says
                self.watcher = LogWatcher(self.paths, standing=True)
                self.files = set()
                self.aggregator = self.model = None  # they follow one watcher: its first poll builds them
            update = self.watcher.poll(progress=progress)
            self.files = (self.files | set(update.added)) - set(update.removed)
            changes = [(name, update.reasons.get(name, "rewritten")) for name in update.reloaded]
            changes += [(name, "gone") for name in update.removed]
            if reload:  # a fresh watcher: the files read before and not now are gone
                changes += [(name, "gone") for name in sorted(before - self.files)]
            if not (update.changed or reload or self.model is not self.shown):
                return None  # nothing new, and the caller shows the last Model built
            files = len(self.files)
            # The watcher keeps no rows: the aggregator holds them, once, and follows each poll's
            # update (rows added, rows of reloaded or removed files and superseded rows taken
            # out), re-summarising only the cells it touches.
            try:
                if self.aggregator is None or self.model is None:
                    if phase is not None:
                        phase(f"summarising {len(update.rows):,} lines")
                    # The rows have one owner, the aggregator: the update lets go of them, and
                    # the aggregator frees each column as soon as it is done with it.
                    rows, update = update.rows, replace(update, rows=update.rows.head(0).copy())  # not a view of them
                    self.aggregator = Aggregator(rows, take=True)
                    del rows
                    model = Model.from_aggregator(self.aggregator)
                else:
                    # Only the criteria whose cells changed are computed afresh: the new model
                    # keeps the last one's cached views of the others.
                    touched = self.aggregator.apply(update)
                    model = self.model.updated(self.aggregator, touched.unique("criterion").astype(str))
            except BaseException:
                self.watcher = self.aggregator = self.model = None  # out of step: the next load reads all again
                raise
            self.model = model
            lines = int(self.aggregator.table["count"].sum())
            problems, resolved = self._problems(update, [name for name, _ in changes], reload)
        default = model.default_selection() if model.criteria else None
        return LoadResult(model, default, problems, files, lines, resolved, changes=tuple(changes))

    def _problems(self, update: WatchUpdate, void: list[str], reload: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The poll's problems and those of earlier polls that hold no more: the watcher's
        ``resolved``, and every problem of a file read again whole or gone (``void``)."""
        if reload:
            self._listed = {}
        resolved = [format_problem(p) for p in update.resolved]
        for problem, text in zip(update.resolved, resolved):  # a few whole-file problems
            listed = self._listed.get(problem.file, [])
            if text in listed:
                listed.remove(text)
        for name in void:
            resolved.extend(self._listed.pop(name, ()))
        problems = tuple(format_problem(p) for p in update.problems)
        for problem, text in zip(update.problems, problems):
            self._listed.setdefault(problem.file, []).append(text)
        return problems, tuple(dict.fromkeys(resolved))

    def _load_bounded(self, budget: int, progress: Progress | None, phase: Callable[[str], None] | None) -> LoadResult:
        """Read and aggregate the logs by blocks (``stats.aggregate_logs``), the model from the
        aggregate; no watcher (live updates are off in this mode)."""
        note = self.bounded
        assert note is not None
        self.watcher = self.aggregator = self.model = None
        if phase is not None:
            phase(note)
        shown = [-1]

        def partitions(done: int, total: int) -> None:  # a phase per per cent of the partitions
            if phase is not None and (100 * done) // max(total, 1) > shown[0]:
                shown[0] = (100 * done) // max(total, 1)
                phase(f"bounded: {done:,} of {total:,} partitions")  # as short as the reading's label

        got = aggregate_logs(*self.paths, memory=budget, progress=progress, partitions=partitions)
        model = Model.from_aggregate(got.table)
        self.model, self.files = model, set(got.files)
        default = model.default_selection() if model.criteria else None
        problems = tuple(format_problem(p) for p in got.problems)
        lines = int(got.table["count"].sum())
        return LoadResult(model, default, problems, len(self.files), lines, (), note)
