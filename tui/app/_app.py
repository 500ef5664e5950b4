"""The rankboard terminal app: a sidebar to choose, the registry's views to read, live logs.

State flows down as attributes (the app owns the :class:`Selection` in one reactive) and up as
messages; every computation runs in a thread worker. Keys come from :mod:`tui.app._commands`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any, cast

from textual import work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Footer, Static
from textual.worker import Worker, WorkerState, get_current_worker

import stats
from stats.core.names import printable_lines
from tui import registry
from tui.app._commands import acts_in, bindings, view_commands
from tui.app._file_actions import FileActions
from tui.app._gc import IdleCollector
from tui.app._loading import LoadActions
from tui.app._palette import RegistryProvider
from tui.app._rendered import Ahead, Rendered
from tui.app._screens import HelpScreen
from tui.app._selection_actions import SelectionActions
from tui.app._tokens import Token, Tokens
from tui.model import (
    FIRST_VIEW,
    OTHER_VIEWS,
    Analysis,
    Loader,
    Model,
    Selection,
    cancellable,
    import_modules,
    selection_robustness_key,
    take_known_robustness,
)
from tui.widgets import LoadBar, ProblemsPanel, SelectionWanted, Sidebar, StatusLine, ViewPanel, literal

NARROW = 100  # below this many columns the sidebar collapses
SHORT = 30  # below this many lines the views tighten (the folds view's totals take fewer lines)


@dataclass
class Analyzed(Message):
    """From the analysis worker: ``analysis`` of the selection ``token`` was started for."""

    analysis: Analysis
    token: Token
    rendered: Rendered | None = None


@dataclass
class Prepared(Message):
    """From the prepare worker: ``view`` of ``analysis`` is computed and can be shown (with what
    its panel draws, when the worker built that too)."""

    analysis: Analysis
    view: str
    token: Token  # the token of the analysis (its selection's)
    rendered: Rendered | None = None


class RankboardApp(LoadActions, SelectionActions, FileActions, App[None]):
    """Explore R x N cross-validation logs: ``paths`` as for :func:`stats.read_logs`."""

    CSS_PATH = "app.tcss"
    TITLE = "rankboard"
    BINDINGS = bindings()
    COMMANDS = App.COMMANDS | {RegistryProvider}

    selection: reactive[Selection | None] = reactive(None, always_update=True)
    analysis: reactive[Analysis | None] = reactive(None)
    view: reactive[str] = reactive(registry.views()[0].name)  # the first view of the registry
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
        memory: str | None = None,
        loader: Loader | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec  # a view spec to open on (rankboard --spec): applied to the first model
        self.paths = [str(p) for p in paths]
        self.clock = clock
        self.interval = interval
        # memory: the budget (--memory), None: half of what is available; ``loader``: one the
        # command made for ``paths`` and started (Loader.start) before the app was imported
        self.loader = loader if loader is not None else Loader(self.paths, memory)
        self.problems: list[str] = []
        self._load_worker: Worker[None] | None = None  # the current load; older ones are stale
        # the one rule of staleness: a worker's message is taken while its token is current (loads,
        # analyses and the views prepared from them; tui.app._tokens)
        self.tokens = Tokens()
        self._shown: Token | None = None  # the token of the analysis on screen
        self._closed = False  # after unmount, late messages from workers are dropped
        self._gc = IdleCollector()
        self._rendered: Rendered | None = None
        # what finish_view is making, by what it finishes (_finish_key): the analysis whose view shown
        # first in part it makes whole (the folds view's signed-rank test; the robustness the tests,
        # pairs and CD views share: one computation for the three)
        self._finishing: dict[str, Analysis] = {}
        # one robustness computation at a time: a new selection cancels the finishing workers; one
        # computing what the new selection no longer wants stops at its next check (stats.Cancelled,
        # _robustness_stop), one computing what it still wants (the same table and analysis: another
        # control) goes on into the model's cache, and any waiting one gives up
        self._finish_slots: dict[str, threading.Lock] = {}
        # what the selection's robustness depends on (its model and tui.model.selection_robustness_key)
        self._robustness_wanted: tuple[Any, ...] | None = None
        self._ahead = Ahead()  # what panels drew for other controls while idle
        self._views = registry.views()  # the views of this app (those registered when it was made)
        self._stale_views: set[str] = set()
        self._problem: str | None = None  # the analysis's problem line (see _show_problem)
        self._stopped: str | None = None  # why the views do not show the logs as they are (Esc)
        self._stopped_by_esc: Token | None = None  # the load Esc stopped (LoadStopped)
        self._resume_live = False  # Esc paused live updates: r resumes them
        self._imported_all = False  # whether the other views' modules are being imported (on_analyzed)
        self._painted = threading.Event()  # set once the first view is painted (or the app closes)
        self.set_reactive(RankboardApp.live, live)
        bound = {c.key for c in view_commands() if any(getattr(b, "key", b) == c.key for b in self.BINDINGS)}
        for c in view_commands():  # a view registered after this class was made (its key is its own)
            if c.key not in bound:
                self.bind(c.key, c.action, description=c.short or c.description, show=c.show, key_display=c.display)

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield Sidebar(id="sidebar")
            with Vertical(id="main"):
                yield LoadBar(id="loading", classes="-hidden")
                yield Static(id="problem", classes="-empty")
                with ContentSwitcher(initial=self._views[0].name, id="views"):
                    for view in self._views:
                        panel = view.ref("panel")
                        yield panel(id=view.name, classes=panel.PANEL_CLASSES)
        yield ProblemsPanel(id="problems", classes="-empty")
        yield StatusLine(id="status")
        yield Footer(show_command_palette=False, compact=True)  # ctrl+p is in the help: the keys get the room

    # -- mounting (the loading itself is in tui.app._loading) --------------------------------

    def on_mount(self) -> None:
        self._gc.start()  # full collections only when idle (see tui.app._gc)
        self._narrow(self.size.width, self.size.height)
        self.query_one(StatusLine).live = self.live
        self.start_load(reload=True)
        self.import_statistics(FIRST_VIEW)
        if self.interval is not None:  # None: no timer (tests call poll_logs themselves)
            self.set_interval(self.interval, self.poll_logs)
        self.set_interval(0.5, self._gc.tick)

    @work(thread=True, exit_on_error=False, group="imports")
    def import_statistics(self, modules: tuple[str, ...], after: threading.Event | None = None) -> None:
        """Import ``modules`` in the background: those of the first view while the logs are read
        (the first frame, with the load bar, is painted without them, and the first analysis does
        not wait for them), those of the other views once it is painted (``after``; the worker
        exists meanwhile, so that whoever waits for the workers waits for these imports too;
        tui.model._imports)."""
        if after is not None:
            after.wait()
            if self._closed:
                return
        import_modules(modules)

    def on_unmount(self) -> None:
        self._closed = True
        self._painted.set()  # an import worker waiting for the first view ends
        self._gc.stop()

    def notify(self, message: str, **options: Any) -> None:  # type: ignore[override]
        """Every toast literal and escaped: messages quote names and errors from untrusted logs
        (no markup, no control character; stats.core.names)."""
        options["markup"] = False
        if options.get("severity", "information") == "information":
            # one notice at a time: a burst of toggles (m m m m) stacked four toasts over the view;
            # warnings and errors stay until they time out
            for shown in [n for n in self._notifications if n.severity == "information"]:
                self._unnotify(shown, refresh=False)
        super().notify(printable_lines(str(message)), **options)

    # -- analysis ----------------------------------------------------------------------------

    def watch_selection(self, selection: Selection | None) -> None:
        """Analyse ``selection`` on the current model in the worker (the result comes as Analyzed).

        Every assignment analyses (``always_update``): a new model with an equal selection (new
        folds of the cells shown) must be analysed too."""
        self.query_one(Sidebar).selection = selection
        token = self.tokens.start("analysis")  # the analysis of the selection before is stale now
        self._gc.touch()
        self.workers.cancel_group(self, "warm")  # the foreground first
        self._cancel_finishing(selection)
        if self.model is not None:
            self.model.cancel_signed_ranks()  # (of views no longer wanted: the new one's go first)
        if selection is not None and self.model is not None:
            self.analyze(self.model, selection, self.view, self._fit(self.view), token)

    @work(thread=True, exclusive=True, exit_on_error=False, group="analysis")
    def analyze(self, model: Model, selection: Selection, view: str, width: int | None, token: Token) -> None:
        worker = get_current_worker()
        analysis = model.analyze(selection)
        if worker.is_cancelled:
            return
        # only the view on screen: another is computed when it is shown; of the folds view, the part
        # shown first (its signed-rank test across data sets follows: finish_view)
        analysis.prepare(analysis.first_part(view))
        # the robustness another control (pair, rope) of this table and analysis made: drawn at
        # once, without a "computing..." frame first
        take_known_robustness(analysis)
        if worker.is_cancelled:
            return
        rendered = Rendered(analysis).build(view, self._rendered, width, self._ahead)
        if not worker.is_cancelled:
            self.post_message(Analyzed(analysis, token, rendered))

    def on_analyzed(self, message: Analyzed) -> None:
        if not self._closed and self.tokens.current(message.token):
            self._shown = message.token
            self._rendered = message.rendered
            self.analysis = message.analysis
            if not self._imported_all:  # the other views' modules, once the first view is painted
                self._imported_all = True
                self.call_after_refresh(self._painted.set)
                self.import_statistics(OTHER_VIEWS, after=self._painted)
            self._warm_other_controls(message.analysis)

    def _warm_other_controls(self, analysis: Analysis) -> None:
        """With a large view on screen whose panel asks for it (the folds view), make that view
        for the other controls while idle."""
        name = self.view
        warms = getattr(self._panel_class(name), "warms_other_controls", None)
        if warms is None or not analysis.ready(name) or self.model is None:
            return
        if warms(analysis.part(name)):
            self.warm_controls(self.model, analysis.selection, analysis.control, name, self._fit(name))

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm")
    def warm_controls(
        self, model: Model, selection: Selection, control: str | None, name: str, width: int | None
    ) -> None:
        """View ``name`` and what its panel draws for each other control of ``selection`` (the
        learners after ``control`` first), into the model's cache and :class:`Ahead`, so that a
        toggle of the control shows its view at once. Any new selection cancels this (between two
        controls)."""
        worker = get_current_worker()
        panel = self._panel_class(name)
        learners = list(selection.learners)
        start = learners.index(control) + 1 if control in learners else 0
        for other in learners[start:] + learners[:start]:
            if worker.is_cancelled or self._closed:
                return
            if other == control:
                continue
            analysis = model.analyze(replace(selection, control=other)).prepare(name)
            part = analysis.part(name)
            if part is not None and self._ahead.get(part) is None and not worker.is_cancelled:
                data = panel.prepare(analysis, name, width, ())
                if data is not None:
                    self._ahead.put(part, data)

    @work(thread=True, exclusive=True, exit_on_error=False, group="prepare")
    def prepare_view(self, analysis: Analysis, view: str, width: int | None, token: Token | None) -> None:
        """Compute ``view`` of ``analysis`` off the event loop (it was not on screen when analysed),
        and the rows of a table view (the quartile chart needs the panel's width: built when shown).
        Of a view shown first in part (the folds view), that part (finish_view brings the rest); the
        robustness too when its model holds it already (another control's)."""
        analysis.prepare(analysis.first_part(view))
        take_known_robustness(analysis)
        ahead = self._panel_class(view).PREPARED_AHEAD
        rendered = Rendered(analysis).build(view, None, width, self._ahead) if ahead else None
        if not get_current_worker().is_cancelled and token is not None:
            self.post_message(Prepared(analysis, view, token, rendered))

    def finish_view(
        self, analysis: Analysis, name: str, early: Rendered, width: int | None, token: Token | None
    ) -> Worker[None]:
        """Make the whole view ``name`` of ``analysis``, whose first part is on screen (the folds
        view's signed-rank test across data sets; the robustness of the tests, pairs and CD views),
        then what its panel draws (from what it drew for the first part), in a worker of the group
        of what it finishes: a new one of that group (a new selection's) makes this one stale."""
        key = _finish_key(name)
        slot = self._finish_slots.setdefault(key, threading.Lock()) if key != "finish" else None
        inputs = self._robustness_inputs(analysis.model or self.model, analysis.selection)
        return self.run_worker(
            partial(self._finish, analysis, name, early, width, token, slot, inputs),
            name=f"finish_view({name})",
            group=key,
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _finish(
        self,
        analysis: Analysis,
        name: str,
        early: Rendered,
        width: int | None,
        token: Token | None,
        slot: threading.Lock | None,
        inputs: tuple[Any, ...] | None = None,
    ) -> None:
        """finish_view's work (in its thread): with ``slot``, one at a time (waiting for it, given up
        once a newer one of the group made this one stale), stopped between two units of work of
        ``stats`` once the selection no longer wants ``inputs`` (:meth:`_robustness_stop`)."""
        worker = get_current_worker()
        if slot is not None:
            while not slot.acquire(timeout=0.05):
                if worker.is_cancelled or self._closed:
                    return
        try:
            if worker.is_cancelled:
                return
            with cancellable(self._robustness_stop(worker, inputs)):
                analysis.finish(name)
        except stats.Cancelled:
            return  # nothing kept: the analysis's part and the model's cache are as before
        finally:
            if slot is not None:
                slot.release()
        if worker.is_cancelled:
            return
        rendered = Rendered(analysis).build(name, early, width, self._ahead)
        if not worker.is_cancelled and token is not None:
            self.post_message(Prepared(analysis, name, token, rendered))

    @staticmethod
    def _robustness_inputs(model: Model | None, selection: Selection | None) -> tuple[Any, ...] | None:
        """What the robustness of ``selection`` on ``model`` depends on: the model and
        :func:`tui.model.selection_robustness_key` (None: no robustness)."""
        if model is None or selection is None:
            return None
        return (model, selection_robustness_key(model, selection))

    def _robustness_stop(self, worker: Worker[None], inputs: tuple[Any, ...] | None) -> Callable[[], bool]:
        """The ``cancelled`` hook of the robustness ``worker`` computes (for ``inputs``): True once
        the worker is cancelled (a new selection, a reload, another finishing worker of its group)
        and the selection wants another robustness (another table, procedure, alpha, direction or
        rank test, or another model), or once the app closed. A toggle of the control cancels the
        worker but not its computation, which goes on into the model's cache: the new analysis
        takes it from there (:func:`tui.model.take_known_robustness`) instead of starting again."""

        def cancelled() -> bool:
            return self._closed or (worker.is_cancelled and self._robustness_wanted != inputs)

        return cancelled

    def _cancel_finishing(self, selection: Selection | None) -> None:
        """A new selection: what its robustness depends on (:attr:`_robustness_wanted`), and every
        finishing worker cancelled (the stale ones stop; see :meth:`_robustness_stop`)."""
        self._robustness_wanted = self._robustness_inputs(self.model, selection)
        for worker in list(self.workers):
            if worker.group.startswith("finish-") and not worker.is_finished:
                worker.cancel()

    def on_prepared(self, message: Prepared) -> None:
        if not self._closed and self.tokens.current(message.token):  # (the analysis on screen is its)
            if message.rendered is not None:  # the rows built off the event loop
                if self._rendered is None or self._rendered.analysis is not message.analysis:
                    self._rendered = message.rendered
                else:
                    self._rendered.take(message.rendered)
            self._show_problem(_problem_line(message.analysis))  # a view a limit of stats left empty
            # the view on screen: the one prepared, or one whose missing part this made (the
            # robustness that the tests, pairs and CD views share, finished for another of them)
            if message.view == self.view or message.analysis.complete(self.view):
                self._fill_view(self.view)
            if message.view == self.view:
                self._warm_other_controls(message.analysis)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if self._closed:
            return
        if event.worker is self._load_worker and event.worker.is_finished:
            self._load_worker, self.loading = None, None
        if event.state == WorkerState.ERROR:
            self.notify(f"{event.worker.name}: {event.worker.error}", severity="error", markup=False)
            if event.worker.group == "prepare":  # the view it computed will not come: not "loading" for ever
                for view in self._views:
                    self._computing(view.name, False)

    def watch_analysis(self, analysis: Analysis | None) -> None:
        if analysis is None:
            self._clear_views()
            return
        status = self.query_one(StatusLine)
        status.shape = (analysis.n_datasets, analysis.n_learners)
        status.selection, status.control = analysis.selection, analysis.control
        self.query_one(Sidebar).control = analysis.control  # (the default control is marked too)
        self._show_problem(_problem_line(analysis))
        # Only the view on screen is filled now; a hidden one is filled when it is shown
        # (watch_view), so a toggle costs the event loop one view, not five.
        self._stale_views = {view.name for view in self._views}
        self._fill_view(self.view)

    def _clear_views(self) -> None:
        """Every panel empty (each then says there is nothing for this selection)."""
        self._stale_views = set()
        self._rendered = None
        status = self.query_one(StatusLine)
        status.shape, status.selection, status.control = (0, 0), None, None
        self.query_one(Sidebar).control = None
        for view in self._views:
            self._computing(view.name, False)
            self._panel(view.name).show(None)

    def _fill_view(self, name: str) -> None:
        """Give the panel of view ``name`` the current analysis, if it does not show it yet."""
        analysis = self.analysis
        if analysis is None or name not in self._stale_views:
            return
        if analysis.early_ready(name):
            self._show_early(analysis, name)
            return
        if not analysis.ready(name):  # computed in a worker; Prepared comes back here
            # Textual's loading indicator meanwhile: neither "no ... for this selection" (what a panel
            # never shown says) nor the view of the selection before
            self._computing(name, True)
            self.prepare_view(analysis, name, self._fit(name), self._shown)
            return
        self._stale_views.discard(name)
        rendered = self._rendered_of(analysis)
        rendered.build(name, None, self._fit(name), self._ahead)  # unless a worker did
        self._computing(name, False)
        self._panel(name).show(rendered.data[name])

    def _computing(self, name: str, on: bool) -> None:
        """The panel of view ``name`` replaced by Textual's loading indicator (``Widget.loading``)
        while its view is computed in a worker, or shown again."""
        panel = cast(Widget, self._panel(name))
        was, panel.loading = panel.loading, on
        if was and not on and name == self.view and self.focused is None:
            # the indicator took the focus the view was given (watch_view): back to its table
            self.query_one(f"#{self._focus_target(name)}").focus(scroll_visible=False)

    def _show_early(self, analysis: Analysis, name: str) -> None:
        """Show the part of view ``name`` shown first (the folds view's, its signed-rank
        probabilities still computing; the tests, pairs and CD views without their robustness)
        and have finish_view bring the whole view: once per analysis and what it finishes, so the
        robustness the three views share is computed once (Prepared comes back to _fill_view,
        which fills whichever of them is on screen then)."""
        rendered = self._rendered_of(analysis)
        width = self._fit(name)
        rendered.build(name, None, width, self._ahead)  # unless a worker did
        self._computing(name, False)
        self._panel(name).show(rendered.data[name])
        key = _finish_key(name)
        if self._finishing.get(key) is not analysis:
            self._finishing[key] = analysis
            self.finish_view(analysis, name, Rendered(analysis, {name: rendered.data[name]}), width, self._shown)

    def _rendered_of(self, analysis: Analysis) -> Rendered:
        """The render data kept for ``analysis`` (new and kept when it is another analysis's)."""
        if self._rendered is None or self._rendered.analysis is not analysis:
            self._rendered = Rendered(analysis)
        return self._rendered

    def _panel(self, view: str) -> ViewPanel:
        """The panel of ``view``."""
        return cast(ViewPanel, self.query_one(f"#{view}"))

    def _panel_class(self, view: str) -> type[ViewPanel]:
        return registry.view(view).ref("panel")  # type: ignore[no-any-return]

    def _focus_target(self, view: str) -> str:
        """The id of the widget of ``view`` that takes the keys (its table), else the panel's."""
        return registry.view(view).focus or view

    def _fit(self, view: str) -> int | None:
        """The cells the panel of ``view`` fits its content to (the quartile chart's bars, the folds
        tables' names), None for the others or before the first layout."""
        return self._panel(view).fit_width

    def _show_problem(self, problem: str | None) -> None:
        """The line above the views: why a load was stopped (until one goes through), then
        ``problem`` (the analysis's)."""
        self._problem = problem
        problem = "; ".join(filter(None, (self._stopped, problem))) or None
        box = self.query_one("#problem", Static)
        text = literal(problem or "", "bold yellow")
        text.no_wrap = False  # (a long line wraps: nothing of it is cut off at 80 columns)
        box.set_class(problem is None, "-empty")
        if text != box.content:  # an update lays the screen out again: only when it changed
            box.update(text)

    # -- views --------------------------------------------------------------------------------

    def action_view(self, name: str) -> None:
        if name == self.view:  # (no change for watch_view) the view's keys back from the sidebar
            self.query_one(f"#{self._focus_target(name)}").focus(scroll_visible=False)
        self.view = name

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A command of one view (sort: the ranks view) is active, and in the footer, only there."""
        return acts_in(action, self.view)

    def watch_view(self, name: str) -> None:
        self.refresh_bindings()  # the footer shows the keys of the view on screen
        self._fill_view(name)
        self.query_one(ContentSwitcher).current = name
        # the table gets the keys; the pane stays where it is (the verdict above the table stays on screen)
        self.query_one(f"#{self._focus_target(name)}").focus(scroll_visible=False)

    def on_sidebar_filtered(self, message: Sidebar.Filtered) -> None:
        """The / filter narrows the views' rows too (the statistics still use every included name)."""
        needle = message.text.casefold()
        for view in self._views:
            self._panel(view.name).set_filter(needle)
        self.query_one(StatusLine).filter = message.text

    def action_sort(self, order: str) -> None:
        """< / >: sort the ranks table (see RanksPanel.sort); a notice says by what."""
        sort = getattr(self._panel(self.view), "sort", None)
        if sort is not None:  # (the commands registry keys it to the views that sort: the ranks)
            self.notify(sort(descending=order == "descending"))

    def on_selection_wanted(self, message: SelectionWanted) -> None:
        """A panel asks for another selection (Enter on a cell of the pairs matrix: that pair)."""
        self._change(**message.changes)

    def action_names(self) -> None:
        """``n``: every view's names whole, or fitted to its width again; the views drawn anew."""
        full = not self._panel(self.view).full_names
        for view in self._views:
            self._panel(view.name).full_names = full
        self.workers.cancel_group(self, "warm")
        self._rendered, self._ahead = None, Ahead()  # (drawn for the other names)
        self._stale_views = {view.name for view in self._views}
        self._fill_view(self.view)
        self.notify("full names (n: fitted to the screen)" if full else "names fitted to the screen (n: full names)")

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_problems(self) -> None:
        """``w``: open or fold the problems panel (folded it is one line, so that the views keep their rows)."""
        panel = self.query_one(ProblemsPanel)
        if not panel.problems:
            self.notify("no problems in the logs")
            return
        panel.opened = not panel.opened

    # -- focus: Tab and shift+Tab --------------------------------------------------------------

    def action_focus_next(self) -> None:
        """Tab (the screen's binding calls this): the next pane, see :meth:`_focus_pane`."""
        self._focus_pane(1)

    def action_focus_previous(self) -> None:
        """shift+Tab: the previous pane, see :meth:`_focus_pane`."""
        self._focus_pane(-1)

    def _panes(self) -> tuple[list[Widget], list[Widget]]:
        """What Tab cycles through, in the screen's focus order: the sidebar's lists (and the
        filter while it is open), and the focusable widgets of the view on screen (its tables, or
        the panel itself), top to bottom. Nothing else (a dialog has its own focus order)."""
        sidebar, panel = self.query_one(Sidebar), self._panel(self.view)
        chain = self.screen.focus_chain
        return (
            [w for w in chain if sidebar in w.ancestors],
            [w for w in chain if w is panel or panel in w.ancestors],
        )

    def _focus_pane(self, step: int) -> None:
        """Move the focus ``step`` panes along the one cycle of every view (issue 28: Tab moved
        between tables in the tests view but to the sidebar elsewhere, and came back to the tests
        view's first table with the verdict above it scrolled away): the sidebar's lists, then the
        view's tables top to bottom, then round again. The view's first table shows the view from
        its top, as the view's key does; another table is scrolled into view (a view that is one
        pane, the quartile charts or the CD diagram, stays where it was)."""
        if self.screen is not self.screen_stack[0]:  # a dialog: Textual's focus order
            (self.screen.focus_next if step > 0 else self.screen.focus_previous)()
            return
        lists, tables = self._panes()
        panes = lists + tables
        if not panes:
            return
        focused = self.focused
        if focused in panes:
            target = panes[(panes.index(focused) + step) % len(panes)]
        else:  # (nothing, or a widget outside the cycle): from the start, or from the end
            target = panes[0] if step > 0 else panes[-1]
        # At once, not `target.focus()` (which waits for the keys already queued): Tabs typed fast
        # each move on from where the one before moved the focus.
        panel = self.query_one(f"#{self.view}")
        if tables and target is tables[0] and target is not panel:
            panel.scroll_home(animate=False, immediate=True, x_axis=False)
            self.screen.set_focus(target, scroll_visible=False)
        else:
            self.screen.set_focus(target)

    # -- layout ------------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self._narrow(event.size.width, event.size.height)

    def _narrow(self, width: int, height: int) -> None:
        # (App.is_mounted is a method, always true as a condition: query, which finds nothing early.)
        for body in self.query("#body"):
            body.set_class(width < NARROW, "-narrow")
            body.set_class(height < SHORT, "-short")


def create_app(paths: Sequence[str], **options: Any) -> RankboardApp:
    """The app factory (the command and the tests build the app here)."""
    return RankboardApp(paths, **options)


def _finish_key(view: str) -> str:
    """The worker group that finishes ``view`` shown first in part: "finish" for a view with an
    early part (the folds view), else one named after the parts it shows later (the tests, pairs
    and CD views share "finish-robustness": one computation, one worker)."""
    declared = registry.view(view)
    if declared.early is not None or not declared.later:
        return "finish"
    return "finish-" + "-".join(declared.later)


def _problem_line(analysis: Analysis) -> str | None:
    """The problem and the notes of ``analysis`` in one line, or None."""
    return "; ".join(filter(None, (analysis.problem, *analysis.notes))) or None
