"""The rankboard terminal app: a sidebar to choose, six views to read, live logs.

State flows down as attributes (the app owns the :class:`Selection` in one reactive) and up as
messages; every computation runs in a thread worker. Keys come from :mod:`tui.commands`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Footer, Static
from textual.worker import Worker, WorkerState, get_current_worker

from stats import LoadCancelled
from stats.names import printable_lines
from tui.commands import RegistryProvider, bindings
from tui.file_actions import FileActions
from tui.gcpolicy import IdleCollector
from tui.loader import Loader, LoadResult
from tui.rendered import Rendered
from tui.screens import HelpScreen
from tui.selection_actions import SelectionActions
from tui.spec import selection_from_spec
from tui.viewmodel import Model
from tui.viewtypes import VIEWS, Analysis, Selection
from tui.widgets import literal
from tui.widgets.folds import FoldsPanel
from tui.widgets.loading import LoadBar
from tui.widgets.pairs import PairsPanel
from tui.widgets.problems import ProblemsPanel
from tui.widgets.quartiles import QuartilesPanel
from tui.widgets.ranks import RanksPanel
from tui.widgets.report import CDPanel, TestsPanel
from tui.widgets.sidebar import Sidebar
from tui.widgets.status import StatusLine

NARROW = 100  # below this many columns the sidebar collapses
#: A live poll (quiet) shows the load bar only when it reads at least this many bytes.
QUIET_BYTES = 16 << 20
#: A progress message at most per this many seconds, or per per cent read.
PROGRESS_EVERY = 0.05


@dataclass
class Loaded(Message):
    result: LoadResult
    reload: bool
    token: threading.Event  # the cancel event of the load that made it (stale when not current)


@dataclass
class LoadProgress(Message):
    """From the load worker: ``done`` of ``total`` bytes read, or a ``phase`` after reading."""

    done: int = 0
    total: int | None = None
    quiet: bool = False
    phase: str | None = None
    token: threading.Event | None = None  # as in Loaded


@dataclass
class Analyzed(Message):
    analysis: Analysis
    rendered: Rendered | None = None


@dataclass
class Prepared(Message):
    """From the prepare worker: ``view`` of ``analysis`` is computed and can be shown (with what
    its panel draws, when the worker built that too)."""

    analysis: Analysis
    view: str
    rendered: Rendered | None = None


class RankboardApp(SelectionActions, FileActions, App[None]):
    """Explore R x N cross-validation logs: ``paths`` as for :func:`stats.read_logs`."""

    CSS_PATH = "app.tcss"
    TITLE = "rankboard"
    BINDINGS = bindings()
    COMMANDS = App.COMMANDS | {RegistryProvider}

    selection: reactive[Selection | None] = reactive(None, always_update=True)
    analysis: reactive[Analysis | None] = reactive(None)
    view: reactive[str] = reactive("quartiles")
    live: reactive[bool] = reactive(True)
    #: The one loading state: None (idle), "poll" (a quiet live poll) or "load" (shown with the
    #: load bar). Set when a load starts (or a big poll turns out to be a load), cleared when
    #: the current load's worker ends (on_worker_state_changed) or on Esc; the widgets follow it.
    loading: reactive[str | None] = reactive(None, init=False)

    def __init__(
        self,
        paths: Sequence[str],
        *,
        live: bool = True,
        clock: Callable[[], datetime] = datetime.now,
        interval: float | None = 0.25,
        spec: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec  # a view spec to open on (rankboard --spec): applied to the first model
        self.paths = [str(p) for p in paths]
        self.clock = clock
        self.interval = interval
        self.model: Model | None = None
        self.loader = Loader(self.paths)
        self.problems: list[str] = []
        self._load_worker: Worker[None] | None = None  # the current load; older ones are stale
        self._cancel = threading.Event()  # set by Esc: the running load stops at its next block
        self._closed = False  # after unmount, late messages from workers are dropped
        self._gc = IdleCollector()
        self._rendered: Rendered | None = None
        self._stale_views: set[str] = set()
        self.set_reactive(RankboardApp.live, live)

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield Sidebar(id="sidebar")
            with Vertical(id="main"):
                yield LoadBar(id="loading", classes="-hidden")
                yield Static(id="problem", classes="-empty")
                with ContentSwitcher(initial="quartiles", id="views"):
                    yield QuartilesPanel(id="quartiles", classes="view-scroll")
                    yield RanksPanel(id="ranks")
                    yield TestsPanel(id="tests", classes="view-scroll")
                    yield PairsPanel(id="pairs")
                    with ScrollableContainer(id="cd", classes="view-scroll"):
                        yield CDPanel(classes="body")
                    yield FoldsPanel(id="folds")
        yield ProblemsPanel(id="problems", classes="-empty")
        yield StatusLine(id="status")
        yield Footer(show_command_palette=False, compact=True)  # ctrl+p is in the help: the keys get the room

    # -- loading -----------------------------------------------------------------------------

    def on_mount(self) -> None:
        self._gc.start()  # full collections only when idle (see tui.gcpolicy)
        self._narrow(self.size.width)
        self.query_one(StatusLine).live = self.live
        self.start_load(reload=True)
        if self.interval is not None:  # None: no timer (tests call poll_logs themselves)
            self.set_interval(self.interval, self.poll_logs)
        self.set_interval(0.5, self._gc.tick)

    def on_unmount(self) -> None:
        self._closed = True
        self._gc.stop()

    def notify(self, message: str, **options: Any) -> None:  # type: ignore[override]
        """Every toast literal and escaped: messages quote names and errors from untrusted logs
        (no markup, no control character; stats.names)."""
        options["markup"] = False
        super().notify(printable_lines(str(message)), **options)

    def poll_logs(self) -> None:
        """The live tick: a quiet poll of the logs, unless paused or a load is under way."""
        if self.live and self.loading is None:
            self.start_load(reload=False, quiet=True)

    def start_load(self, *, reload: bool, quiet: bool = False) -> None:
        self._cancel.set()  # a load still running (r pressed during a load) stops at its next block
        self._cancel = threading.Event()
        self.loading = "poll" if quiet else "load"
        self._load_worker = self.load(reload, quiet, self._cancel)

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
    def load(self, reload: bool, quiet: bool, cancel: threading.Event) -> None:
        """:meth:`Loader.load` in a thread: progress as :class:`LoadProgress`, the result as
        :class:`Loaded`. Stops at the next block once ``cancel`` is set (a cancelled poll leaves
        the watcher as it was, see ``stats.LogWatcher.poll``)."""
        worker = get_current_worker()
        last = [0.0, 0]  # time and bytes of the last message

        def progress(done: int, total: int | None) -> None:
            if cancel.is_set():
                raise LoadCancelled("cancelled by the user")
            now = time.monotonic()
            step = total is not None and done - last[1] >= total / 100  # another per cent
            if step or done == total or now - last[0] >= PROGRESS_EVERY:
                last[:] = [now, done]
                self.post_message(LoadProgress(done, total, quiet, token=cancel))

        def phase(text: str) -> None:
            self.post_message(LoadProgress(quiet=quiet, phase=text, token=cancel))

        try:
            result = self.loader.load(reload=reload, progress=progress, phase=phase)
        except LoadCancelled:
            return  # action_cancel_load has already put the screen back
        # Nothing changed (None): the worker just ends, and its end clears `loading`.
        if result is not None and not (worker.is_cancelled or cancel.is_set()):
            self.post_message(Loaded(result, reload, cancel))

    def _current(self, token: threading.Event | None) -> bool:
        """A message of the current load (not of one cancelled or replaced since), app running."""
        return not self._closed and token is self._cancel and not token.is_set()

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
        self.loader.stale = False
        self.query_one(LoadBar).stop()  # `loading` is cleared when the worker has ended
        old = self.model
        self.model = model = result.model
        # A problem a poll finds again (a FIFO, a bad line still there) is listed once.
        kept = [] if message.reload else [p for p in self.problems if p not in result.resolved]
        self.problems = list(dict.fromkeys(kept + list(result.problems)))
        self.query_one(ProblemsPanel).problems = tuple(self.problems)
        status = self.query_one(StatusLine)
        status.loading, status.files, status.lines = False, result.files, result.lines
        status.updated = self.clock().strftime("%H:%M:%S")
        self.query_one(Sidebar).names = (model.criteria, model.datasets, model.learners)
        sel = self.selection
        if not model.criteria:  # the logs shrank to nothing or vanished: no old result stays on screen
            self.selection = None
            self.analysis = None
            self._show_problem("no results in the logs")
            return
        if sel is None and self.spec is not None:
            spec, self.spec = self.spec, None
            try:
                self.selection = selection_from_spec(model, spec)
                return
            except ValueError as exc:  # the spec does not fit these logs: say why, show the default
                self.notify(f"view spec not applied: {exc}", severity="error")
        if sel is None or sel.criterion not in model.criteria:
            self.selection = result.default
            return
        new_d = [d for d in model.datasets if d in sel.datasets or (old is None or d not in old.datasets)]
        new_l = [x for x in model.learners if x in sel.learners or (old is None or x not in old.learners)]
        self.selection = replace(sel, datasets=tuple(new_d), learners=tuple(new_l))

    def action_cancel_load(self) -> None:
        """Esc: stop the load at its next block; live updates pause (else the next tick would
        start it again)."""
        if self.loading is not None:
            self._cancel.set()
            self.workers.cancel_group(self, "load")
            self._load_worker, self.loading, self.loader.stale = None, None, True
            self.live = False
            self.notify("loading cancelled, live updates paused; r reloads")

    def action_reload(self) -> None:
        self.start_load(reload=True)

    def action_pause(self) -> None:
        self.live = not self.live

    def watch_live(self, live: bool) -> None:
        for status in self.query(StatusLine):  # none before the app is composed
            status.live = live

    # -- analysis ----------------------------------------------------------------------------

    def watch_selection(self, selection: Selection | None) -> None:
        """Analyse ``selection`` on the current model in the worker (the result comes as Analyzed).

        Every assignment analyses (``always_update``): a new model with an equal selection (new
        folds of the cells shown) must be analysed too."""
        self.query_one(Sidebar).selection = selection
        self._gc.touch()
        if selection is not None and self.model is not None:
            self.analyze(self.model, selection, self.view, self.query_one(QuartilesPanel).fit_width)

    @work(thread=True, exclusive=True, exit_on_error=False, group="analysis")
    def analyze(self, model: Model, selection: Selection, view: str, width: int | None) -> None:
        worker = get_current_worker()
        analysis = model.analyze(selection)
        if worker.is_cancelled:
            return
        analysis.prepare(view)  # only the view on screen: another is computed when it is shown
        if worker.is_cancelled:
            return
        rendered = Rendered(analysis).build(view, self._rendered, width)
        if not worker.is_cancelled:
            self.post_message(Analyzed(analysis, rendered))

    def on_analyzed(self, message: Analyzed) -> None:
        if not self._closed and message.analysis.selection == self.selection:
            self._rendered = message.rendered
            self.analysis = message.analysis

    @work(thread=True, exclusive=True, exit_on_error=False, group="prepare")
    def prepare_view(self, analysis: Analysis, view: str) -> None:
        """Compute ``view`` of ``analysis`` off the event loop (it was not on screen when analysed),
        and the rows of a table view (the quartile chart needs the panel's width: built when shown)."""
        analysis.prepare(view)
        rendered = Rendered(analysis).build(view) if view in ("ranks", "folds") else None
        if not get_current_worker().is_cancelled:
            self.post_message(Prepared(analysis, view, rendered))

    def on_prepared(self, message: Prepared) -> None:
        if message.analysis is self.analysis:
            if message.rendered is not None:  # the rows built off the event loop
                if self._rendered is None or self._rendered.analysis is not message.analysis:
                    self._rendered = message.rendered
                else:
                    self._rendered.take(message.rendered)
            self._show_problem(_problem_line(message.analysis))  # a view a limit of stats left empty
            if message.view == self.view:
                self._fill_view(message.view)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if self._closed:
            return
        if event.worker is self._load_worker and event.worker.is_finished:
            self._load_worker, self.loading = None, None
        if event.state == WorkerState.ERROR:
            self.notify(f"{event.worker.name}: {event.worker.error}", severity="error", markup=False)

    def watch_analysis(self, analysis: Analysis | None) -> None:
        if analysis is None:
            self._clear_views()
            return
        status = self.query_one(StatusLine)
        status.shape = (analysis.n_datasets, analysis.n_learners)
        status.selection, status.control = analysis.selection, analysis.control
        self._show_problem(_problem_line(analysis))
        # Only the view on screen is filled now; a hidden one is filled when it is shown
        # (watch_view), so a toggle costs the event loop one view, not five.
        self._stale_views = set(VIEWS)
        self._fill_view(self.view)

    def _clear_views(self) -> None:
        """Every panel empty (each then says there is nothing for this selection)."""
        self._stale_views = set()
        self._rendered = None
        status = self.query_one(StatusLine)
        status.shape, status.selection, status.control = (0, 0), None, None
        self.query_one(QuartilesPanel).lines = None
        self.query_one(RanksPanel).rows = None
        self.query_one(TestsPanel).view = None
        self.query_one(PairsPanel).view = None
        self.query_one(CDPanel).view = None
        self.query_one(FoldsPanel).rows = None

    def _fill_view(self, name: str) -> None:
        """Give the panel of view ``name`` the current analysis, if it does not show it yet."""
        analysis = self.analysis
        if analysis is None or name not in self._stale_views:
            return
        if not analysis.ready(name):  # computed in a worker; Prepared comes back here
            self.prepare_view(analysis, name)
            return
        self._stale_views.discard(name)
        if name in ("quartiles", "ranks", "folds"):
            rendered = self._rendered
            if rendered is None or rendered.analysis is not analysis:
                rendered = self._rendered = Rendered(analysis)
            rendered.build(name, None, self.query_one(QuartilesPanel).fit_width)  # built unless the worker did
            if name == "quartiles":
                self.query_one(QuartilesPanel).lines = rendered.quartiles
            elif name == "ranks":
                self.query_one(RanksPanel).rows = rendered.ranks
            else:
                self.query_one(FoldsPanel).rows = rendered.folds
        elif name == "tests":
            tests = self.query_one(TestsPanel)
            tests.alpha = analysis.selection.alpha
            tests.view = analysis.tests
        elif name == "pairs":
            pairs = self.query_one(PairsPanel)
            pairs.alpha = analysis.selection.alpha
            pairs.view = analysis.pairs
        elif name == "cd":
            self.query_one(CDPanel).view = analysis.cd

    def _show_problem(self, problem: str | None) -> None:
        box = self.query_one("#problem", Static)
        text = literal(problem or "", "bold yellow")
        box.set_class(problem is None, "-empty")
        if text != box.content:  # an update lays the screen out again: only when it changed
            box.update(text)

    # -- views --------------------------------------------------------------------------------

    def action_view(self, name: str) -> None:
        self.view = name

    def watch_view(self, name: str) -> None:
        self._fill_view(name)
        self.query_one(ContentSwitcher).current = name
        target = {"ranks": "#ranks-table", "pairs": "#pairs-table", "folds": "#folds-totals"}.get(name, f"#{name}")
        self.query_one(target).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    # -- layout ------------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self._narrow(event.size.width)

    def _narrow(self, width: int) -> None:
        # (App.is_mounted is a method, always true as a condition: query, which finds nothing early.)
        for body in self.query("#body"):
            body.set_class(width < NARROW, "-narrow")


def create_app(paths: Sequence[str], **options: Any) -> RankboardApp:
    """The app factory (the command and the tests build the app here)."""
    return RankboardApp(paths, **options)


def _problem_line(analysis: Analysis) -> str | None:
    """The problem and the notes of ``analysis`` in one line, or None."""
    return "; ".join(filter(None, (analysis.problem, *analysis.notes))) or None
