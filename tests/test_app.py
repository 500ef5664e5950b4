"""The rankboard app driven by its real keys (Textual Pilot), at 80x24 and 120x40."""

from __future__ import annotations

import io
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console
from textual.command import CommandList
from textual.widgets import Static

from tui.app._app import RankboardApp, create_app
from tui.app._commands import commands
from tui.app._screens import ConfirmScreen, ExportScreen, HelpScreen
from tui.cli import bundled_cv
from tui.render._csv import export_frame, write_csv
from tui.views.cd.panel import CDPanel
from tui.views.quartiles.panel import QuartilesPanel
from tui.views.tests.panel import TestsPanel
from tui.widgets._loading import LoadBar
from tui.widgets._problems import ProblemsPanel
from tui.widgets._sidebar import NameList, middle_ellipsis
from tui.widgets._status import StatusLine

CLOCK = datetime(2026, 1, 2, 3, 4, 5)
SMALL, LARGE = (80, 24), (120, 40)


def make_app(paths: list[str] | None = None, **options) -> RankboardApp:  # noqa: ANN003
    options.setdefault("live", False)
    return create_app(paths or [str(bundled_cv())], clock=lambda: CLOCK, **options)


async def settle(pilot, guard: float = 120.0) -> None:  # noqa: ANN001
    """Wait until the workers (loading, analysis) are done and their messages handled.

    Driven by the workers' completion, not by time; ``guard`` seconds only turn a hang into a failure.
    """
    app = pilot.app
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        # a worker still pending counts too (one started after a refresh, e.g. the import of the
        # other views' modules once the first view is painted, may not be running yet)
        busy = app.loading is not None or any(not w.is_finished for w in app.workers)
        current = app.selection is None or (app.analysis is not None and app.analysis.selection == app.selection)
        if not busy and current:
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the app did not settle")


async def drive(
    scenario: Callable[[RankboardApp, object], Awaitable[None]],
    *,
    size=SMALL,
    app=None,  # noqa: ANN001
) -> RankboardApp:
    """Run ``scenario(app, pilot)`` on ``app`` (the bundled logs by default) once it has settled."""
    app = app or make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await scenario(app, pilot)
    return app


async def poll(pilot) -> None:  # noqa: ANN001
    """One live tick, run to its end (the tests drive polls themselves: apps made with interval=None)."""
    pilot.app.poll_logs()
    await settle(pilot)


async def until(pilot, done: Callable[[], bool], guard: float = 120.0) -> None:  # noqa: ANN001
    """Let the app run until ``done()`` holds: driven by the condition, not by a fixed sleep
    (``guard`` seconds only turn a hang into a failure)."""
    deadline = time.monotonic() + guard
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await pilot.pause(0.01)
    await pilot.pause()


async def press(pilot, *keys: str) -> None:  # noqa: ANN001
    await pilot.press(*keys)
    await settle(pilot)


def screen_lines(app: RankboardApp) -> list[str]:
    """The text on screen, line by line, as the terminal would show it (every layer composed)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def status(app: RankboardApp) -> str:
    """Every field of the status line in its long form (the screen shortens and drops some when narrow)."""
    return app.query_one(StatusLine).full_text()


async def focus_list(pilot, list_id: str, name: str) -> None:  # noqa: ANN001
    """Tab back from the view into the sidebar list ``list_id`` and move down to ``name``."""
    app = pilot.app
    for _ in range(4):
        if app.focused is not None and app.focused.id == list_id:
            break
        await press(pilot, "shift+tab")
    lst = app.query_one(f"#{list_id}", NameList)
    assert app.focused is lst
    for _ in range(lst.option_count):
        if lst.current() == name:
            return
        await press(pilot, "j")
    assert lst.current() == name


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_views_switch_with_number_keys(size: tuple[int, int]) -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert "10 data sets x 5 learners | 6250 lines | 10 files | updated 03:04:05 | paused" in status(app)
        quartiles = app.query_one(QuartilesPanel).plain
        assert "higher is better -->" in quartiles and "overall" in quartiles and "tau" in quartiles
        await press(pilot, "2")
        assert app.query_one("#views").current == "ranks"
        table = app.query_one("#ranks-table")
        assert table.row_count == 12 and app.focused is table  # 10 data sets, the average ranks, the letters
        assert str(table.get_row_at(10)[0]) == "average rank"
        assert str(table.get_row_at(11)[0]) == "letters"
        await press(pilot, "3")
        tests = app.query_one(TestsPanel).plain
        assert tests.startswith("no significant difference among the 5 learners at alpha = 0.05")
        assert "Iman-Davenport" in tests and "CD = 1.929" in tests and "control LogisticRegression" in tests
        await press(pilot, "4")
        assert app.query_one("#pairs-table").row_count == 5
        assert "Holm adjusted p-values" in app.query_one("#pairs-head").plain
        detail = app.query_one("#pairs-detail").plain
        assert "\nWilcoxon T = " in detail and "\nSign test: " in detail
        assert "sign test: Sign test" not in detail  # each result names its test once
        await press(pilot, "m")
        assert "Shaffer adjusted p-values" in app.query_one("#pairs-head").plain
        await press(pilot, "5")
        assert "CD" in app.query_one(CDPanel).plain and "LogisticRegression (2.25)" in app.query_one(CDPanel).plain
        await press(pilot, "1")
        assert app.query_one("#views").current == "quartiles"

    await drive(scenario, size=size)


async def test_sidebar_collapses_at_80_columns() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert app.query_one("#body").has_class("-narrow")
        assert app.query_one("#sidebar").size.width < 20
        await focus_list(pilot, "learners", "KNN")
        assert app.query_one("#sidebar").size.width > 30  # opens while a list has focus

    await drive(scenario, size=SMALL)
    await drive(lambda app, pilot: _not_narrow(app), size=LARGE)


async def _not_narrow(app: RankboardApp) -> None:
    assert not app.query_one("#body").has_class("-narrow")


async def test_c_makes_the_learner_under_the_cursor_the_control() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        before = app.query_one(TestsPanel).plain
        assert "control LogisticRegression" in before
        await focus_list(pilot, "learners", "KNN")
        await press(pilot, "c")
        after = app.query_one(TestsPanel).plain
        assert app.selection.control == "KNN" and "control KNN" in after
        assert list(app.analysis.tests.control_table.index) != list(before)
        assert "KNN" not in app.analysis.tests.control_table.index
        option = app.query_one("#learners", NameList).get_option("KNN")
        assert "(control)" in str(option.prompt)

    await drive(scenario)


async def test_d_flips_the_direction() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert app.selection.higher_is_better
        await press(pilot, "d")
        assert not app.selection.higher_is_better
        assert "<-- lower is better" in app.query_one(QuartilesPanel).plain
        assert "pd lower-better" in str(app.query_one("#criteria", NameList).get_option("pd").prompt)
        await press(pilot, "d")
        assert app.selection.higher_is_better

    await drive(scenario)


async def test_space_excludes_and_includes_a_data_set() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await focus_list(pilot, "datasets", "anes96")
        await press(pilot, "space")
        assert "anes96" not in app.selection.datasets
        assert "9 data sets x 5 learners" in status(app)
        assert "anes96" not in app.query_one(QuartilesPanel).plain  # the view on screen follows at once
        assert str(app.query_one("#datasets", NameList).get_option("anes96").prompt).startswith("[ ] ")
        await press(pilot, "2")  # a hidden view is filled when it is shown
        assert app.query_one("#ranks-table").row_count == 11  # 9 data sets, the average ranks, the letters
        await focus_list(pilot, "datasets", "anes96")
        await press(pilot, "space")
        assert "anes96" in app.selection.datasets and "10 data sets x 5 learners" in status(app)

    await drive(scenario)


async def test_a_cycles_alpha_and_the_tests_follow() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3", "a")
        assert app.selection.alpha == 0.01
        assert "alpha = 0.01" in app.query_one(TestsPanel).plain
        await press(pilot, "a")
        assert app.selection.alpha == 0.10 and "alpha 0.10" in str(app.query_one("#settings").render())
        await press(pilot, "a")
        assert app.selection.alpha == 0.05

    await drive(scenario)


async def test_enter_on_a_criterion_chooses_it() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await focus_list(pilot, "criteria", "pf")
        await press(pilot, "enter")
        assert app.selection.criterion == "pf" and not app.selection.higher_is_better
        assert app.query_one(QuartilesPanel).plain.startswith("pf  <-- lower is better")

    await drive(scenario)


async def test_filter_narrows_the_lists() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "slash", "i", "r", "i")
        datasets = app.query_one("#datasets", NameList)
        assert [datasets.get_option_at_index(i).id for i in range(datasets.option_count)] == ["iris"]
        await press(pilot, "enter")  # closes the filter and keeps it
        box = app.query_one("#filter")
        assert app.focused is datasets and box.has_class("-hidden") and datasets.option_count == 1
        assert "filter: iri" in str(app.query_one("#settings").render())
        await press(pilot, "space")
        assert "iris" not in app.selection.datasets
        await press(pilot, "slash")  # opens again with its text; Esc clears it and closes
        assert not box.has_class("-hidden") and box.value == "iri"
        await press(pilot, "escape")
        assert box.has_class("-hidden") and datasets.option_count == 10 and app.focused is datasets

    await drive(scenario)


async def _export(view_key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, view: str) -> None:
    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, view_key, "e")
        assert isinstance(app.screen, ExportScreen)
        await press(pilot, "enter")
        written = sorted(tmp_path.glob("*.csv"))
        assert len(written) == 1 and view in written[0].name
        expected = write_csv(export_frame(app.analysis, view), tmp_path / "expected" / "x.csv")
        assert written[0].read_text() == expected.read_text()
        assert any(str(written[0].resolve()) in n.message for n in app._notifications)

    await drive(scenario)


@pytest.mark.parametrize(("key", "view"), [("2", "ranks"), ("3", "tests")])
async def test_e_exports_the_current_view(key: str, view: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "expected").mkdir()
    await _export(key, tmp_path, monkeypatch, view)


async def test_export_asks_before_overwriting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2", "e", "enter")
        (path,) = tmp_path.glob("*.csv")
        path.write_text("old\n")
        await press(pilot, "e", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")
        assert path.read_text() == "old\n"
        await press(pilot, "e", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert path.read_text() != "old\n"
        assert pd.read_csv(path).shape[0] > 0

    await drive(scenario)


def _weird_log(tmp_path: Path) -> Path:
    rows = []
    for j, dataset in enumerate(["bad\x1b[31m", "iris", "wine", "[b]x"]):
        for i, learner in enumerate(["[red]boom", "nb", "tree"]):
            for fold in (1, 2):
                rows.append(f"{dataset},1,{fold},{learner},accuracy,{0.5 + 0.1 * i + 0.01 * fold + 0.02 * j}\n")
    path = tmp_path / "weird.dat"
    path.write_text("".join(rows) + "oops [bold]\n")
    return path


async def test_names_from_the_logs_are_shown_literally(tmp_path: Path) -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        learners = app.query_one("#learners", NameList)
        assert str(learners.get_option("[red]boom").prompt) == "[x] [red]boom"
        datasets = app.query_one("#datasets", NameList)
        shown = str(datasets.get_option("bad\x1b[31m").prompt)  # escaped, then cut to the strip's width
        assert "\x1b" not in shown and shown in (
            "[x] bad\\x1b[31m",
            "[x] " + middle_ellipsis("bad\\x1b[31m", len(shown) - 4),
        )
        assert "[red]boom" in app.query_one(QuartilesPanel).plain
        await press(pilot, "2")
        table = app.query_one("#ranks-table")
        labels = [str(c.label) for c in table.columns.values()]
        assert "[red]boom" in labels
        assert str(table.get_row_at(0)[0]) == "bad\\x1b[31m"
        await press(pilot, "3")
        assert "[red]boom" in app.query_one(TestsPanel).plain
        problems = str(app.query_one(ProblemsPanel).render())
        assert "weird.dat:25: expected 6 fields, found 1" in problems
        screen = app.export_screenshot()
        assert "[red]boom" in screen.replace("&#160;", " ")

    await drive(scenario, app=make_app([str(_weird_log(tmp_path))]))


async def test_an_untestable_selection_shows_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "one.dat"
    path.write_text("iris,1,1,a,accuracy,0.9\niris,1,1,b,accuracy,0.8\n")

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        problem = app.query_one("#problem")
        assert app.analysis is not None, [n.message for n in app._notifications]
        assert not problem.has_class("-empty") and app.analysis.problem
        assert app.analysis.problem in str(problem.render())
        await press(pilot, "3")
        assert app.query_one(TestsPanel).plain.startswith("no tests")

    await drive(scenario, app=make_app([str(path)]))


async def test_help_lists_every_command_and_the_palette_runs_them() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=300, record=True, file=io.StringIO())
        console.print(app.screen.keys_table)  # the table of keys the dialog shows, unwrapped
        text = console.export_text()
        assert all(c.description in text for c in commands())
        await press(pilot, "escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape")
        await press(pilot, "ctrl+p")
        await pilot.press(*"cycle alpha")
        await until(pilot, lambda: app.screen.query(CommandList).first().option_count > 0)
        await press(pilot, "enter")
        assert app.selection.alpha == 0.01

    await drive(scenario, size=LARGE)


def test_bindings_come_from_the_registry() -> None:
    keys = {b.key: b.action for b in RankboardApp.BINDINGS}
    assert {c.key: c.action for c in commands()} == keys


async def test_p_pauses_and_live_updates_pick_up_new_rows(tmp_path: Path) -> None:
    """Live polls are driven here by calling the tick (``poll_logs``) explicitly: no timer."""
    log = tmp_path / "live.dat"
    lines = [
        f"{d},1,1,{lrn},accuracy,{v}\n"
        for d, v0 in (("d1", 0.5), ("d2", 0.6))
        for lrn, v in (("a", v0), ("b", v0 + 0.1), ("c", v0 + 0.2))
    ]
    log.write_text("".join(lines))

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert "| live" in status(app) and "2 data sets x 3 learners" in status(app)
        with log.open("a") as f:
            f.write("d3,1,1,a,accuracy,0.1\nd3,1,1,b,accuracy,0.2\nd3,1,1,c,accuracy,0.3\n")
        await poll(pilot)
        assert "3 data sets x 3 learners" in status(app) and "9 lines" in status(app)
        await press(pilot, "p")
        assert "| paused" in status(app)
        with log.open("a") as f:
            f.write("d4,1,1,a,accuracy,0.1\nd4,1,1,b,accuracy,0.2\nd4,1,1,c,accuracy,0.3\n")
        await poll(pilot)  # the tick does nothing while paused
        assert "3 data sets" in status(app) and app.loading is None
        await press(pilot, "r")
        assert "4 data sets x 3 learners" in status(app)

    await drive(scenario, app=make_app([str(log)], live=True, interval=None))


async def test_esc_cancels_a_slow_load(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import tui.model._loader

    release = threading.Event()
    real = tui.model._loader.Aggregator

    class SlowAggregator(real):  # the summarising step, after the reading
        def __init__(self, log, **options) -> None:  # noqa: ANN001, ANN003  (the loader passes take=True)
            release.wait(120)  # the test sets it; 120 s only turn a hang into a failure
            super().__init__(log, **options)

    monkeypatch.setattr(tui.model._loader, "Aggregator", SlowAggregator)
    app = make_app()

    async def main() -> None:
        async with app.run_test(size=SMALL) as pilot:
            deadline = time.monotonic() + 120  # a guard: the reading reaches the held step
            while not app.query_one(LoadBar).label.startswith("summarising") and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert not app.query_one(LoadBar).has_class("-hidden") and "loading..." in status(app)
            assert app.query_one(LoadBar).label.startswith("summarising 6,250 lines")
            await pilot.press("escape")
            await pilot.pause()
            assert app.query_one(LoadBar).has_class("-hidden") and "| paused" in status(app)
            assert any("loading cancelled" in n.message for n in app._notifications)
            release.set()
            await settle(pilot)
            assert app.model is None  # the cancelled load's result is dropped
            monkeypatch.setattr(tui.model._loader, "Aggregator", real)
            await press(pilot, "r")
            assert app.model is not None and "10 data sets x 5 learners" in status(app)

    await main()


@pytest.mark.parametrize("paused_by", ["esc", "p"])
async def test_r_after_esc_resumes_the_live_updates_esc_paused(monkeypatch: pytest.MonkeyPatch, paused_by: str) -> None:
    """Issue 28: after esc (which pauses live updates, else the next tick would start the load
    again) r reloaded but live updates stayed paused. Now r resumes them, unless p paused them."""
    import threading

    import tui.model._loader

    release = threading.Event()
    real = tui.model._loader.Aggregator

    class SlowAggregator(real):
        def __init__(self, log, **options) -> None:  # noqa: ANN001, ANN003
            release.wait(120)  # the test sets it; 120 s only turn a hang into a failure
            super().__init__(log, **options)

    monkeypatch.setattr(tui.model._loader, "Aggregator", SlowAggregator)
    app = make_app(live=True, interval=None)  # live, no timer: the test drives the app itself

    async def main() -> None:
        async with app.run_test(size=SMALL) as pilot:
            deadline = time.monotonic() + 120  # a guard: the reading reaches the held step
            while not app.query_one(LoadBar).label.startswith("summarising") and time.monotonic() < deadline:
                await pilot.pause(0.02)
            await pilot.press("escape")
            await pilot.pause()
            assert not app.live and "| paused" in status(app)
            assert any("r reloads (and resumes them)" in n.message for n in app._notifications)
            release.set()
            await settle(pilot)
            monkeypatch.setattr(tui.model._loader, "Aggregator", real)
            if paused_by == "p":
                await press(pilot, "p", "p")  # resumed, paused again: the user's choice
                assert not app.live
            await press(pilot, "r")
            assert app.model is not None and app.live == (paused_by == "esc")
            assert ("| live" in status(app)) == (paused_by == "esc")

    await main()


class _Held:
    """A LogWatcher whose poll reports ``first`` bytes read of 4 MB, then waits for ``go_on``,
    then reports 2 MB (which raises once the load is cancelled); ``outcome`` records that."""

    def __init__(self, first: int) -> None:
        import threading

        from stats import LogWatcher

        self.reached, self.go_on = threading.Event(), threading.Event()
        self.outcome: list[BaseException | None] = []
        held = self

        class Watcher(LogWatcher):
            def poll(self, *, progress=None):  # noqa: ANN001, ANN202
                progress(0, 4_000_000)
                if first:
                    progress(first, 4_000_000)
                held.reached.set()
                held.go_on.wait(120)  # the test sets it; 120 s only turn a hang into a failure
                try:
                    progress(2_000_000, 4_000_000)
                except BaseException as exc:
                    held.outcome.append(exc)
                    raise
                held.outcome.append(None)
                return super().poll(progress=progress)

        self.watcher = Watcher

    async def wait(self, pilot) -> None:  # noqa: ANN001
        """Until the poll has reported its first bytes."""
        await until(pilot, self.reached.is_set)


async def test_the_load_bar_shows_the_fraction_read_and_esc_stops_the_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress callback the app gives LogWatcher.poll: the bar follows it; after Esc it raises."""
    import tui.model._loader
    from stats import LoadCancelled, LogWatcher

    held = _Held(first=1_000_000)
    go_on, outcome = held.go_on, held.outcome
    monkeypatch.setattr(tui.model._loader, "LogWatcher", held.watcher)
    app = make_app()

    async def main() -> None:
        async with app.run_test(size=LARGE) as pilot:
            await held.wait(pilot)
            bar = app.query_one(LoadBar)
            await until(pilot, lambda: bar.bar.progress == 1_000_000)
            assert not bar.has_class("-hidden")
            assert bar.bar.total == 4_000_000 and bar.bar.progress == 1_000_000  # 25 %
            assert bar.label == "reading 1.0 MB of 4.0 MB"
            assert "esc cancels" in str(app.query_one("#load-hint", Static).content)
            await pilot.press("escape")
            go_on.set()
            await settle(pilot)
            assert len(outcome) == 1 and isinstance(outcome[0], LoadCancelled)
            assert bar.has_class("-hidden") and app.model is None and "| paused" in status(app)
            monkeypatch.setattr(tui.model._loader, "LogWatcher", LogWatcher)
            await press(pilot, "r")
            assert app.model is not None and "10 data sets x 5 learners" in status(app)

    await main()


async def test_analysis_errors_become_notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        def boom(selection):  # noqa: ANN001, ANN202
            raise RuntimeError("boom [red]x")

        monkeypatch.setattr(app.model, "analyze", boom)
        await pilot.press("a")
        await until(pilot, lambda: any(n.severity == "error" for n in app._notifications))
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "boom [red]x" in errors[-1].message
        assert app.is_running

    await drive(scenario)


async def test_enter_on_a_pairs_cell_chooses_the_pair() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "4")
        assert app.focused is app.query_one("#pairs-table")
        await press(pilot, "j", "j", "right", "enter")  # row KNN, column GaussianNB
        assert app.selection.pair == ("KNN", "GaussianNB")
        assert app.analysis.pairs.pair == ("KNN", "GaussianNB")
        assert "pair: GaussianNB vs KNN" in app.query_one("#pairs-detail").plain

    await drive(scenario)


async def test_reload_does_not_repeat_the_problems(tmp_path: Path) -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert len(app.problems) == 1
        await press(pilot, "r")
        assert len(app.problems) == 1 and "weird.dat:25" in app.problems[0]

    await drive(scenario, app=make_app([str(_weird_log(tmp_path))]))


@pytest.mark.parametrize(("key", "view"), [("1", "quartiles"), ("2", "ranks"), ("3", "tests"), ("4", "pairs")])
async def test_export_equals_report_csv_byte_for_byte(
    key: str, view: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The app's export and `rankboard report --format csv` share one code path (issue 5)."""
    from tui.cli import main

    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, key, "d", "e", "enter")  # flip the direction too: the CLI must follow
        assert not app.selection.higher_is_better

    app = await drive(scenario)
    (written,) = tmp_path.glob("*.csv")
    sel = app.selection
    argv = ["report", str(bundled_cv()), "--criterion", sel.criterion, "--direction", "lower"]
    assert main([*argv, "--format", "csv", "--view", view]) == 0
    assert capsys.readouterr().out.encode() == written.read_bytes()


async def test_s_saves_a_view_spec_that_report_reproduces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2", "a", "d", "s", "enter")  # alpha 0.05 -> 0.01, direction flipped, save

    app = await drive(scenario)
    (spec,) = tmp_path.glob("*.toml")
    assert "rankboard-pd-view-" in spec.name
    assert any(spec.name in n.message for n in app._notifications)
    assert main(["report", str(bundled_cv()), "--spec", str(spec), "--format", "csv", "--view", "ranks"]) == 0
    from tui.render._csv import export_frame, write_csv

    expected = write_csv(export_frame(app.analysis, "ranks"), tmp_path / "expected.csv")
    assert capsys.readouterr().out.encode() == expected.read_bytes()
    assert 'direction = "lower"' in spec.read_text() and "alpha = 0.01" in spec.read_text()
    assert 'view = "ranks"' in spec.read_text()  # the view on screen (a view of the registry)


@pytest.mark.parametrize("size", [SMALL, (100, 30)])
async def test_cd_diagram_fits_the_pane(size: tuple[int, int]) -> None:
    """The diagram is drawn to the pane's width: every learner's name is on screen (it was cut off
    when the 78-column drawing met a narrower pane)."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "5")
        panel = app.query_one(CDPanel)
        lines = panel.plain.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= panel.parent.content_size.width  # the pane
        for learner in app.selection.learners:
            assert learner in panel.plain

    await drive(scenario, size=size)


async def test_choosing_a_criterion_some_learners_lack_keeps_the_others(tmp_path: Path) -> None:
    """Learner c has no runtime results and d3 none at all: choosing runtime leaves both out and
    says so, instead of failing; back on acc, both are in again (the selection never changed)."""
    lines = [f"{d},1,1,{x},acc,0.{i}{j}\n" for i, d in enumerate(("d1", "d2", "d3"), 1) for j, x in enumerate("abc")]
    lines += [f"{d},1,1,{x},runtime,{i}.{j}\n" for i, d in enumerate(("d1", "d2"), 1) for j, x in enumerate("ab")]
    log = tmp_path / "mixed.dat"
    log.write_text("".join(lines))

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert app.selection.criterion == "acc" and app.selection.learners == ("a", "b", "c")
        await focus_list(pilot, "criteria", "runtime")
        await press(pilot, "enter")
        assert app.selection.criterion == "runtime" and app.selection.learners == ("a", "b", "c")
        assert app.analysis.problem is None and "2 data sets x 2 learners" in status(app)
        assert "left out: no runtime results for learner c" in str(app.query_one("#problem", Static).content)
        await press(pilot, "2")
        assert "left out: d3: no runtime results" in app.query_one("#ranks-note").plain
        await focus_list(pilot, "criteria", "acc")
        await press(pilot, "enter")
        assert "3 data sets x 3 learners" in status(app)
        assert app.query_one("#problem", Static).has_class("-empty")

    await drive(scenario, size=LARGE, app=make_app([str(log)]))


async def test_results_appended_to_existing_cells_update_the_views(tmp_path: Path) -> None:
    """New folds of the data sets and learners already shown change no name, so the selection
    stays equal: the views must still be recomputed from the new model (regression: they kept
    showing the old numbers)."""
    log = tmp_path / "grow.dat"
    log.write_text(
        "".join(
            f"{d},1,1,{x},accuracy,0.{i}{j}\n" for i, d in enumerate(("d1", "d2", "d3"), 1) for j, x in enumerate("abc")
        )
    )

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        overall = {r.learner: r.n for r in app.analysis.quartiles.rows if r.scope == "overall"}
        assert overall == {"a": 3, "b": 3, "c": 3}
        before = app.selection
        with log.open("a") as f:
            f.write("".join(f"{d},1,2,{x},accuracy,0.9\n" for d in ("d1", "d2", "d3") for x in "abc"))
        await poll(pilot)
        assert "18 lines" in status(app) and app.selection == before
        await settle(pilot)
        overall = {r.learner: r.n for r in app.analysis.quartiles.rows if r.scope == "overall"}
        assert overall == {"a": 6, "b": 6, "c": 6}
        chart = app.query_one(QuartilesPanel).plain.splitlines()
        header = next(i for i, line in enumerate(chart) if line.startswith("SK learner "))  # SK: Scott-Knott rank
        assert chart[header - 1] == "overall" and chart[header + 1].split()[2] == "6"  # on screen too

    await drive(scenario, size=LARGE, app=make_app([str(log)], live=True, interval=None))


async def test_r_during_a_load_stops_that_load_at_its_next_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reload started while a load reads: the running one stops (its progress callback raises)
    instead of reading on to the end while the new one waits for it."""
    import tui.model._loader
    from stats import LoadCancelled

    held = _Held(first=0)
    go_on, outcome = held.go_on, held.outcome
    monkeypatch.setattr(tui.model._loader, "LogWatcher", held.watcher)
    app = make_app()

    async def main() -> None:
        async with app.run_test(size=SMALL) as pilot:
            await held.wait(pilot)
            await pilot.press("r")  # handled when press returns: the running load's cancel is set
            go_on.set()
            await settle(pilot)
            assert isinstance(outcome[0], LoadCancelled) and outcome[1:] == [None]
            assert app.model is not None and "10 data sets x 5 learners" in status(app)

    await main()


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_status_line_keeps_the_state_and_the_selection_and_toasts_leave_it_free(
    size: tuple[int, int],
) -> None:
    """Issue 11 item 4: at 80 columns the status line lost live/paused; toasts covered it."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        line = app.query_one(StatusLine)
        shown = str(line.render())
        assert len(shown) <= line.content_size.width
        for part in ("pd higher", "LogisticRegression", "0.05", "holm", "paused"):
            assert part in shown, (part, shown)
        await press(pilot, "p", "a", "m")
        shown = str(line.render())
        assert shown.endswith("| live") and "0.01" in shown and "shaffer" in shown

    await drive(scenario, size=size)


async def test_toasts_stand_above_the_status_line() -> None:
    from textual.widgets._toast import Toast

    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "x")  # a toggle says what it did in a toast
        toasts = list(app.query(Toast))
        line = app.query_one(StatusLine)
        assert toasts and all(t.region.bottom <= line.region.y for t in toasts)


def _long_names_log(tmp_path: Path) -> Path:
    """20 learners with 20-character names sharing a 10-character prefix, 3 data sets, 2 folds."""
    log = tmp_path / "long.dat"
    names = [f"classifier_{chr(97 + i)}_{i * 37 % 101:07d}" for i in range(20)]
    log.write_text(
        "".join(
            f"{d},1,{f},{n},acc,{(i + f) % 10 / 10 + 0.05}\n"
            for d in ("d1", "d2", "d3")
            for f in (1, 2)
            for i, n in enumerate(names)
        )
    )
    return log


async def test_at_80_columns_names_stay_distinguishable_and_the_full_name_is_shown(tmp_path: Path) -> None:
    """Issue 11 item 4: the collapsed sidebar read `[x] lear…` for all 20 learners of a big log."""
    log = _long_names_log(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        learners = app.query_one("#learners", NameList)
        shown = [str(learners.get_option_at_index(i).prompt) for i in range(learners.option_count)]
        assert len(shown) == 20 and len(set(shown)) == 20, shown  # cut in the middle: the ends differ
        assert all(len(s) <= learners.size.width for s in shown)
        await focus_list(pilot, "learners", app.model.learners[3])
        assert str(app.query_one("#fullname").render()) == app.model.learners[3]
        await press(pilot, "c")
        control = str(learners.get_option(app.model.learners[3]).prompt)
        assert control.startswith("[c] ")  # the control's mark survives any width

    await drive(scenario, app=make_app([str(log)]))


async def test_quartile_charts_of_large_values_fit_80_columns() -> None:
    """Accuracies in per cent printed 100.000 and pushed the bars off the right edge at 80 columns."""
    from tests.conftest import REFERENCE

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        panel = app.query_one(QuartilesPanel)
        lines = panel.plain.splitlines()
        assert any("100.0 [" in line for line in lines)  # one decimal for values of 10 or more
        assert max(len(line) for line in lines) <= panel.fit_width

    await drive(scenario, app=make_app([str(REFERENCE / "baycomp_accuracies.dat")]))


async def test_space_in_the_ranks_table_toggles_the_rows_data_set_and_the_cursor_stays() -> None:
    """Issue 11 item 6: on a row header space said "move the cursor ... first"; on a cell it
    excluded the column's learner, and the cursor jumped back to the first row."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2", "j", "j")  # the third row (diabetes_high), in the data set column
        table = app.query_one("#ranks-table")
        assert table.cursor_row == 2 and table.cursor_column == 0
        await press(pilot, "space")
        assert "diabetes_high" not in app.selection.datasets and len(app.selection.learners) == 5
        assert table.cursor_row == 2  # now on the next data set, digits
        await press(pilot, "right", "space")  # on a cell: still the row's data set
        assert table.cursor_column == 1
        assert "digits" not in app.selection.datasets and len(app.selection.learners) == 5
        for _ in range(10):
            await press(pilot, "j")
        assert str(list(table.rows)[table.cursor_row].value).startswith("\0")  # the average-rank row
        await press(pilot, "space")  # there: the column's learner
        assert len(app.selection.learners) == 4

    await drive(scenario)


async def test_toggles_say_what_they_did_and_excluding_the_control_names_the_new_one() -> None:
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        said = []  # each notice replaces the last one on screen: read it after each key
        for key in ("a", "m", "d"):
            await press(pilot, key)
            said.append(list(app._notifications)[-1].message)
        assert said[-3:] == [
            "alpha 0.01",
            "pairs procedure shaffer: the verdict, the marks, the CD bars and the letters follow it",
            "pd: lower is better",
        ]
        await focus_list(pilot, "learners", "KNN")
        for key in ("c", "space"):
            await press(pilot, key)
            said.append(list(app._notifications)[-1].message)
        assert said[-2:] == [
            "control KNN",
            "excluded learner KNN (it was the control: the best-ranked learner is the control now)",
        ]
        assert app.selection.control is None and app.analysis.control != "KNN"


async def test_wide_tables_keep_their_names_and_scroll_a_column_at_a_time() -> None:
    """Issue 11 item 4: scrolling right removed the row names and cut numbers; End did nothing."""
    from tests.conftest import REFERENCE

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2")
        table = app.query_one("#ranks-table")
        assert table.fixed_columns == 1
        widths = [c.get_render_width(table) for c in table.ordered_columns]
        left = widths[0]
        starts = {sum(widths[1:i]) for i in range(1, len(widths) + 1)}  # scroll offsets at column edges
        for _ in range(3):
            await press(pilot, "right")
            assert table.scroll_x in starts
        await press(pilot, "end")
        assert table.cursor_column == len(table.columns) - 1 and table.scroll_x > 0
        assert table.scroll_x in starts  # a column's start at the names' edge, not the table's end
        await press(pilot, "home")
        assert table.cursor_column == 0 and table.scroll_x == 0
        assert left > 0

    await drive(scenario, app=make_app([str(REFERENCE / "baycomp_accuracies.dat")]))


async def test_the_app_opens_on_a_saved_spec_and_says_when_it_does_not_fit(tmp_path: Path) -> None:
    """Issue 11: `rankboard --spec view.toml [LOGS]` opens the app on a saved selection."""
    from tui.cli import main
    from tui.model._spec import load_spec

    path = tmp_path / "view.toml"
    path.write_text(
        'criterion = "pf"\ncontrol = "KNN"\nalpha = 0.01\nprocedure = "shaffer"\n'
        'learners = ["KNN", "GaussianNB", "DecisionTree"]\n'
    )

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        sel = app.selection
        assert (sel.criterion, sel.control, sel.alpha, sel.procedure) == ("pf", "KNN", 0.01, "shaffer")
        assert not sel.higher_is_better and len(sel.learners) == 3

    await drive(scenario, app=make_app(spec=load_spec(path)))

    async def wrong(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        assert app.selection.criterion == "pd"  # the default, and a toast says why

    await drive(wrong, app=make_app(spec={"criterion": "nonsense"}))
    (tmp_path / "bad.toml").write_text("criterion = \n")
    assert main(["--spec", str(tmp_path / "bad.toml")]) == 2


async def test_the_ranks_table_gives_the_exact_value_under_the_cursor_and_y_copies_it() -> None:
    """Issue 11 item 7: full precision of the value under the cursor, and y copies it (OSC 52):
    the bare value (issue 28), the sentence staying on the line under the table."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2", "right")
        medians = app.analysis.ranks.medians
        exact = f"median {float(medians.iloc[0, 0])!r}"
        line = str(app.query_one("#ranks-exact").render())
        assert line.startswith(f"{medians.index[0]}, {medians.columns[0]}: {exact}")
        copied: list[str] = []
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        await press(pilot, "y")
        assert copied == [repr(float(medians.iloc[0, 0]))]
        assert str(app.query_one("#ranks-exact").render()).startswith(f"{medians.index[0]}, ")

    await drive(scenario)


async def test_the_export_dialogs_box_shows_its_state_without_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under NO_COLOR the "formulas as written" box read [X] whether it was on or off."""
    monkeypatch.chdir(tmp_path)

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "e")
        box = app.screen.query_one("#raw-csv")
        assert not box.value and "X" not in str(box.render())
        box.value = True
        await pilot.pause()
        assert "X" in str(box.render())

    await drive(scenario)
