"""The logs behind the app: poll them (all of them on reload), build a Model when they changed.

No Textual here: the app calls :meth:`Loader.load` in a thread worker and turns what it
returns into messages. Progress and cancellation go through ``stats.LogWatcher.poll``'s
``progress`` callback (raise ``stats.LoadCancelled`` from it to stop at the next block).
"""

from __future__ import annotations

import gc
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
    #: "truncated", "replaced", "rewritten" (stats.WatchUpdate.reasons), "gone", or, of a file
    #: still there whose rows were dropped, "not regular" or "unreadable"
    changes: tuple[tuple[str, str], ...] = ()
    #: Every problem that holds now, in the order first found: the list to show, whole (the
    #: problems of loads whose result was dropped included, those that hold no more left out)
    listed: tuple[str, ...] = ()


class Loader:
    """A ``stats.LogWatcher`` over ``paths``, the files it has seen, and a lock (one load at a time).

    ``shown``: the Model the caller shows (:meth:`show`); while it is not the last one built (the
    caller dropped a load's result, e.g. on Esc), a Model is owed even if the next poll finds
    nothing new. The loader alone decides: the caller only says what it shows.

    The problems: the loader keeps the list of those that hold (``LoadResult.listed``): a poll's
    new ones are added, those the watcher takes back (``WatchUpdate.resolved``) and every one of a
    file read again whole or gone are dropped, and a fresh watcher's first poll (a reload, or the
    load after one that failed or was cancelled) starts the list afresh -- it says every problem
    again, so a problem fixed meanwhile is not kept.
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
        # the problems that hold (LoadResult.problems' strings), in the order found, each with its
        # file: a file's hold no more once it is read again whole or is gone
        self._listed: dict[str, str] = {}
        self._early: EarlyLoad | None = None  # the first load, begun by start() and not yet asked for

    def show(self, result: LoadResult | None) -> Model | None:
        """The caller shows ``result`` (of :meth:`load`) from now on; returns its Model.

        None: the caller has let go of the Model it showed (before a reload: the old rows and the
        new are then not held at once, and the reload peaks near the first load's memory).
        """
        self.shown = result.model if result is not None else None
        return self.shown

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
            if reload:
                self._let_go()
            if reload or (self.watcher is None and self.bounded is None):
                over, budget, size = bounded_mode(self.paths, self.memory)
                self.bounded = bounded_note(budget, size) if over else None
                if over:
                    return self._load_bounded(budget, progress, phase)
            elif self.bounded is not None:
                return None  # no live updates in bounded mode: r reads the logs again
            before = self.files  # the files of the last load that went through
            if reload or self.watcher is None:
                # standing: an empty file and a binary last line are problems, as check says
                self.watcher = LogWatcher(self.paths, standing=True)
                self.aggregator = self.model = None  # they follow one watcher: its first poll builds them
            # The watcher's first poll (a reload, or the load after one that failed or was
            # cancelled): every file and problem is said afresh, as by a reload.
            fresh = self.aggregator is None or self.model is None
            update = self.watcher.poll(progress=progress)
            self.files = set(update.added) if fresh else (self.files | set(update.added)) - set(update.removed)
            changes = [(name, update.reasons.get(name, "rewritten")) for name in update.reloaded]
            changes += [(name, update.reasons.get(name, "gone")) for name in update.removed]
            if fresh:  # the files read before and not now are gone
                changes += [(name, "gone") for name in sorted(before - self.files)]
            if not (update.changed or fresh or self.model is not self.shown):
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
            problems, resolved = self._problems(update, [name for name, _ in changes], fresh)
            listed = tuple(self._listed)
        default = model.default_selection() if model.criteria else None
        return LoadResult(model, default, problems, files, lines, resolved, changes=tuple(changes), listed=listed)

    def _let_go(self) -> None:
        """Before a reload: drop the watcher, the rows (the aggregator) and the Model of the last
        read, and collect them now -- a Model's caches hold reference cycles, which the app
        collects only when idle (tui.app._gc) -- so that the new read does not hold them too.
        (The Model the caller shows stays until it lets go of it: :meth:`show` with None.)"""
        held = self.watcher is not None or self.aggregator is not None or self.model is not None
        self.watcher = self.aggregator = self.model = None
        if held:
            gc.collect()

    def _problems(self, update: WatchUpdate, void: list[str], fresh: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The poll's problems and those of earlier polls that hold no more: the watcher's
        ``resolved``, and every problem of a file read again whole or gone (``void``); the list of
        those that hold (``_listed``) follows. ``fresh``: the watcher's first poll says them all."""
        if fresh:
            self._listed = {}
        resolved = [format_problem(p) for p in update.resolved]
        for text in resolved:  # a few whole-file problems
            self._listed.pop(text, None)
        void_files = set(void)
        gone = [text for text, name in self._listed.items() if name in void_files]
        for text in gone:
            del self._listed[text]
        problems = tuple(format_problem(p) for p in update.problems)
        for problem, text in zip(update.problems, problems):
            self._listed.setdefault(text, problem.file)
        return problems, tuple(dict.fromkeys(resolved + gone))

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
        self._listed = {text: p.file for p, text in zip(got.problems, problems)}
        lines = int(got.table["count"].sum())
        return LoadResult(model, default, problems, len(self.files), lines, (), note, listed=tuple(self._listed))
