"""The app's loading: polls and reloads in a thread worker, their progress, their results, Esc.

``RankboardApp.loading`` is the one loading state (see its comment); only the methods here change
it, from the worker's messages and state events, and the widgets follow it.

A reload (``r``) of large logs lets go of the model and the analysis shown before it reads (the
views are cleared, as before a first load; only the names and the selection are kept), so that
the old rows and the new are never held together: it peaks near the first load's memory, not
twice it.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from textual import work
from textual.message import Message
from textual.worker import get_current_worker

from stats import LoadCancelled
from tui.app._rendered import Ahead
from tui.app._tokens import Token, Tokens
from tui.model import LoadResult, selection_from_spec, spec_view
from tui.problems import change_notice, first_problem, no_results
from tui.widgets import LoadBar, ProblemsPanel, Sidebar, StatusLine, stopped_label

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from textual.app import App
    from textual.worker import Worker

    from tui.app._gc import IdleCollector
    from tui.app._rendered import Rendered
    from tui.model import Analysis, Loader, Model, Selection

    _Base = App[None]
else:
    _Base = object

_T = TypeVar("_T")

#: A live poll (quiet) shows the load bar only when it reads at least this many bytes.
QUIET_BYTES = 16 << 20
#: A reload of logs of at least this many results lets go of the views shown before it reads (their
#: model, held twice, would double the reload's peak memory); a smaller one keeps them on screen
#: until the new ones come, and on Esc (about 40 MB of log: its model held twice is some 50 MB).
RELEASE_LINES = 1_000_000
#: A progress message at most per this many seconds, or per per cent read.
PROGRESS_EVERY = 0.05


class FreshContexts(ThreadPoolExecutor):
    """The app's thread pool (its event loop's default executor, where Textual runs its thread
    workers): each call runs in a new, empty context.

    Textual sets its ``active_worker`` context variable -- the worker, and with it the arguments
    it was started with: a model, an analysis -- in the context of the pool thread that runs it,
    where it stays until another worker runs in that thread: an idle thread kept the last model
    it analysed alive, and a reload held the old rows beside the new. In a context of its own,
    a worker is let go of when it ends (as with :func:`asyncio.to_thread`'s copied context).
    """

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        return super().submit(contextvars.Context().run, fn, *args, **kwargs)


_POOLED: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def use_fresh_contexts() -> None:
    """Make :class:`FreshContexts` the running event loop's default executor (once per loop)."""
    loop = asyncio.get_running_loop()
    if loop not in _POOLED:
        loop.set_default_executor(FreshContexts(thread_name_prefix="rankboard-worker"))
        _POOLED.add(loop)


class Before(NamedTuple):
    """What a reload keeps of the model and the selection it let go of: what the next load shown
    compares its own names with (the notice of what left the view, the selection's new names) and
    the selection it restores."""

    criteria: tuple[str, ...]
    datasets: tuple[str, ...]
    learners: tuple[str, ...]
    selection: Selection | None


@dataclass
class Loaded(Message):
    result: LoadResult
    reload: bool
    token: Token  # the load that made it (tui.app._tokens: taken only while current)


@dataclass
class LoadStopped(Message):
    """From the load worker: the load of ``token`` stopped after reading ``done`` of ``total``
    bytes (``summarising``: everything was read; the summary was under way)."""

    done: int
    total: int | None
    summarising: bool
    token: Token


@dataclass
class LoadProgress(Message):
    """From the load worker: ``done`` of ``total`` bytes read, or a ``phase`` after reading."""

    done: int = 0
    total: int | None = None
    quiet: bool = False
    phase: str | None = None
    token: Token | None = None  # as in Loaded


class LoadActions(_Base):
    """Mixed into :class:`~tui.app._app.RankboardApp`: everything that reads the logs."""

    _closed: bool
    _problem: str | None
    _stopped: str | None
    _stopped_by_esc: Token | None
    _resume_live: bool
    tokens: Tokens
    # the app's state this mixin reads and changes (set in RankboardApp.__init__ or as reactives)
    loader: Loader
    problems: list[str]
    spec: dict[str, Any] | None
    clock: Callable[[], datetime]
    live: bool
    loading: str | None
    selection: Selection | None
    analysis: Analysis | None
    view: str
    _load_worker: Worker[None] | None
    _gc: IdleCollector
    _rendered: Rendered | None
    _finishing: dict[str, Analysis]
    _ahead: Ahead
    #: What a reload let go of, until a load is shown (see :meth:`_let_go`).
    _before: Before | None = None

    if TYPE_CHECKING:

        def _show_problem(self, problem: str | None) -> None: ...

    @property
    def model(self) -> Model | None:
        """The model the views show: the loader's (it owns it, :meth:`Loader.show`)."""
        return self.loader.shown

    def poll_logs(self) -> None:
        """The live tick: a quiet poll of the logs, unless paused or a load is under way."""
        if self.live and self.loading is None:
            self.start_load(reload=False, quiet=True)

    def start_load(self, *, reload: bool, quiet: bool = False) -> None:
        use_fresh_contexts()  # before the first worker: no finished worker is kept by a pool thread
        # a load still running (r pressed during a load) is stale now, and stops at its next block
        token = self.tokens.start("load")
        self.loading = "poll" if quiet else "load"
        self._load_worker = self.load(reload, quiet, token)

    def watch_loading(self, loading: str | None) -> None:
        # query, not query_one: a live poll can start while the app is being torn down, when the
        # widgets are already gone (as in watch_live)
        for bar in self.query(LoadBar):
            if loading == "load" and bar.has_class("-hidden"):
                bar.start()
            elif loading is None:
                bar.stop()
        for status in self.query(StatusLine):
            status.loading = loading == "load"

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def load(self, reload: bool, quiet: bool, token: Token) -> None:
        """:meth:`Loader.load` in a thread: progress as :class:`LoadProgress`, the result as
        :class:`Loaded`, each with ``token``. Stops at the next block once ``token`` is cancelled (a
        cancelled poll leaves the watcher as it was, see ``stats.LogWatcher.poll``)."""
        worker = get_current_worker()
        last = [0.0, 0]  # time and bytes of the last message
        read: list[int | None] = [0, None]  # bytes read and the total, as last reported

        def progress(done: int, total: int | None) -> None:
            read[:] = [done, total]
            if token.cancelled:  # the block just read is not parsed: the reading stops here
                raise LoadCancelled("cancelled by the user")
            now = time.monotonic()
            step = total is not None and done - last[1] >= total / 100  # another per cent
            if step or done == total or now - last[0] >= PROGRESS_EVERY:
                last[:] = [now, done]
                self.post_message(LoadProgress(done, total, quiet, token=token))

        def phase(text: str) -> None:
            self.post_message(LoadProgress(quiet=quiet, phase=text, token=token))

        try:
            result = self.loader.load(reload=reload, progress=progress, phase=phase)
        except LoadCancelled:
            # action_cancel_load has already put the screen back; say where the reading stopped
            self.post_message(LoadStopped(read[0] or 0, read[1], False, token))
            return
        if token.cancelled:  # Esc after the reading (while summarising): the result is dropped
            self.post_message(LoadStopped(read[0] or 0, read[1], True, token))
            return
        # Nothing changed (None): the worker just ends, and its end clears `loading`.
        if result is not None and not (worker.is_cancelled or token.cancelled):
            self.post_message(Loaded(result, reload, token))

    def _current(self, token: Token | None) -> bool:
        """A message of the current load (not of one cancelled or replaced since), app running."""
        return not self._closed and self.tokens.current(token)

    def on_load_progress(self, message: LoadProgress) -> None:
        if self.loading is None or not self._current(message.token):
            return
        if self.loading == "poll":
            if (message.total or 0) < QUIET_BYTES:
                return  # a live poll of a few lines: no bar flashing every second
            self.loading = "load"
        bar = self.query_one(LoadBar)
        if message.phase is not None:
            bar.phase(message.phase)
        else:
            bar.reading(message.done, message.total)

    def on_loaded(self, message: Loaded) -> None:
        if not self._current(message.token):
            return
        self._gc.touch()
        result = message.result
        if self._stopped is not None:  # a load went through: the views show the logs again
            self._stopped = None
            self._show_problem(self._problem)
        self.query_one(LoadBar).stop()  # `loading` is cleared when the worker has ended
        if result.bounded is not None:  # logs bigger than the budget: no live updates, said once
            if self.live:
                self.live = False
            self.notify(
                f"{result.bounded}: quartiles and fold-level views unavailable; live updates off (r reads again)",
                timeout=10,
            )
        before, self._before = self._before, None
        old: Model | Before | None = self.model if self.model is not None else before
        model = self.loader.show(result)  # the loader owns the model shown: self.model is it from now on
        assert model is not None
        # The problems that hold now, whole: the loader keeps the list (a problem fixed since, a
        # file become readable, those of a file read again whole or gone leave it; a reload's
        # list starts afresh).
        self.problems = list(result.listed)
        self.query_one(ProblemsPanel).problems = tuple(self.problems)
        if old is not None:
            self._notice_changes(result.changes, old, model)
        status = self.query_one(StatusLine)
        status.loading, status.files, status.lines = False, result.files, result.lines
        status.updated = self.clock().strftime("%H:%M:%S")
        if old is None or (old.datasets, old.learners) != (model.datasets, model.learners):
            status.shape = None  # the lists get new names now, the table's shape comes with the analysis
        self.query_one(Sidebar).names = (model.criteria, model.datasets, model.learners)
        sel = self.selection if before is None else before.selection
        if not model.criteria:  # the logs shrank to nothing or vanished: no old result stays on screen
            # the load ends here, and says why: the status line never waits on an analysis
            status.no_results, status.shape = no_results(self.problems), (0, 0)
            self.selection = None
            self.analysis = None
            why = f": {first_problem(self.problems)}" if self.problems else ""
            self._show_problem(f"no results in the logs{why}")
            return
        status.no_results = None
        if sel is None and self.spec is not None:
            spec, self.spec = self.spec, None
            try:
                self.selection = selection_from_spec(model, spec)
                view = spec_view(spec)
                if view is not None:
                    self.view = view  # the view the spec was saved on
                return
            except ValueError as exc:  # the spec does not fit these logs: say why, show the default
                self.notify(f"view spec not applied: {exc}", severity="error")
        if sel is None or sel.criterion not in model.criteria:
            self.selection = result.default
            return
        # sets, not a scan of the selection's tuples per name: quadratic on 100,000 data sets
        chosen_d, chosen_l = set(sel.datasets), set(sel.learners)
        had_d, had_l = (set(), set()) if old is None else (set(old.datasets), set(old.learners))
        new_d = [d for d in model.datasets if d in chosen_d or (old is None or d not in had_d)]
        new_l = [x for x in model.learners if x in chosen_l or (old is None or x not in had_l)]
        self.selection = replace(sel, datasets=tuple(new_d), learners=tuple(new_l))

    def _notice_changes(self, changes: tuple[tuple[str, str], ...], old: Model | Before, new: Model) -> None:
        """A notice of the files a poll found emptied, truncated, replaced or gone, and of what left
        the view with them (the data sets, learners and criteria no longer in the logs), or that
        nothing did. A file rewritten whole (a gzip or columnar log that changed) is said only
        when something left the view: that is how such a log grows."""
        if not changes:
            return  # (names leave the logs only with the rows of a file read again or gone)
        left = [_left(before, after) for before, after in _names(old, new)]
        if not any(left) and all(how == "rewritten" for _, how in changes):
            return
        notice = change_notice(changes, left)
        if any(left):
            self.notify(notice, severity="warning", timeout=10, markup=False)
        else:
            self.notify(notice, severity="information", timeout=10, markup=False)

    def action_cancel_load(self) -> None:
        """Esc: stop the load at its next block; live updates pause (else the next tick would
        start it again)."""
        if self.loading is not None:
            # its worker says where the reading stopped (LoadStopped); the loader owes the model it
            # built meanwhile, if any (it is not the one shown)
            self._stopped_by_esc = self.tokens.cancel("load")
            self.workers.cancel_group(self, "load")
            self._load_worker, self.loading = None, None
            self._resume_live = self.live  # r resumes them (unless p is pressed meanwhile)
            self.live = False
            resume = " (and resumes them)" if self._resume_live else ""
            self.notify(f"loading cancelled, live updates paused; r reloads{resume}")

    def on_load_stopped(self, message: LoadStopped) -> None:
        """Esc stopped a load: what it read is dropped, and a line above the views says so, where
        it stopped and why (until a load goes through).

        Dropped, not shown as a partial view: logs are written run by run, so the part read is
        an arbitrary part of the runs -- some data sets with every fold, others with a few or
        none -- and its medians, ranks and tests are not the logs' but look the same; copied (y),
        exported (e) or saved as a spec (s), nothing would say they were partial. The watcher's
        poll is all or nothing for the same reason (a cancelled poll changes nothing), so r and
        the live updates go on from a consistent state."""
        if self._closed or message.token is not self._stopped_by_esc:
            return  # a load replaced by r, not stopped by Esc
        where = (
            f"after reading all {stopped_label(message.done, message.total).split(' of ')[-1]} (while summarising)"
            if message.summarising
            else f"at {stopped_label(message.done, message.total)}"
        )
        if self.model is None:
            shown = (
                "nothing read is shown: a part of a log is an arbitrary part of the runs, "
                "and its ranks and tests would not be the logs'"
            )
        else:
            updated = self.query_one(StatusLine).updated
            shown = f"the views still show the logs as read at {updated} (the part read is dropped)"
        self._stopped = f"load stopped by esc {where}; {shown}; r loads again"
        self._show_problem(self._problem)

    def action_reload(self) -> None:
        if self._resume_live:  # live updates Esc paused go on with the reload
            self._resume_live, self.live = False, True
        if self.model is not None and self.query_one(StatusLine).lines >= RELEASE_LINES:
            self._let_go()
        self.start_load(reload=True)

    def _let_go(self) -> None:
        """Before a reload: let go of everything that holds the model shown -- the selection and
        its analysis, the views (cleared: a panel keeps what it draws, and that holds the model's
        results), the render data, what was drawn ahead, the analysis workers (their results are
        stale) and the loader's ``shown`` -- keeping only the names and the selection
        (:class:`Before`: the next load shown restores it). The loader drops its rows and collects
        them before reading (``Loader._let_go``), so the old and the new are not held at once.
        Until a load is shown the app is as during a first load: the keys that need a model do
        nothing, and Esc leaves nothing on screen."""
        model = self.model
        assert model is not None
        self._before = Before(model.criteria, model.datasets, model.learners, self.selection)
        self.tokens.cancel("analysis")  # an analysis under way (of the old model) is stale
        for group in ("analysis", "prepare", "finish", "warm"):
            self.workers.cancel_group(self, group)
        for worker in list(self.workers):  # the groups finishing parts shown later (finish-robustness)
            if worker.group.startswith("finish-"):
                worker.cancel()
        # (no model: nothing analysed; nor any robustness wanted: a finishing worker computing one
        # stops at its next check, RankboardApp._robustness_stop)
        self.selection = None
        self.analysis = None  # the views cleared (RankboardApp.watch_analysis)
        self._rendered, self._finishing = None, {}
        self._ahead = Ahead()
        self.loader.show(None)

    def action_pause(self) -> None:
        self._resume_live = False  # the user's choice from now on
        self.live = not self.live

    def watch_live(self, live: bool) -> None:
        for status in self.query(StatusLine):  # none before the app is composed
            status.live = live


def _names(old: Model | Before, new: Model) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The data sets, learners and criteria of two models, each kind a pair (old, new)."""
    return [(old.datasets, new.datasets), (old.learners, new.learners), (old.criteria, new.criteria)]


def _left(before: tuple[str, ...], after: tuple[str, ...]) -> list[str]:
    """The names of ``before`` not in ``after``, in their order."""
    kept = set(after)
    return [name for name in before if name not in kept]
