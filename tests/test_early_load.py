"""Issue 17, the first view sooner: the app's first load begins before Textual is imported
(``Loader.start``, tui.model._early) and gives what a load begun by the app gives: the same
model, the same progress and phases, Esc the same. Driven by events, never by timing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from stats import LoadCancelled
from stats.logs._sources import BLOCK
from tests.test_app import SMALL, make_app, press, screen_lines, settle, status, until
from tests.test_load_screen import _big_log
from tui.cli import bundled_cv
from tui.model._early import EarlyLoad
from tui.model._loader import Loader, LoadResult

ROOT = Path(__file__).resolve().parents[1]
GUARD = 120  # seconds: only turn a hang into a failure


class _Gate:
    """Holds every load of a Loader (``Loader._load``) before it reads, until ``go`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.go = threading.Event()
        real = Loader._load

        def held(loader: Loader, **options: object) -> LoadResult | None:
            assert self.go.wait(GUARD)
            return real(loader, **options)  # type: ignore[arg-type]

        monkeypatch.setattr(Loader, "_load", held)


def _same(a: LoadResult | None, b: LoadResult | None) -> None:
    assert a is not None and b is not None
    pd.testing.assert_frame_equal(a.model._agg, b.model._agg)
    names = (a.model.criteria, a.model.datasets, a.model.learners)
    assert names == (b.model.criteria, b.model.datasets, b.model.learners)
    assert (a.default, a.problems, a.files, a.lines, a.resolved, a.bounded) == (
        b.default,
        b.problems,
        b.files,
        b.lines,
        b.resolved,
        b.bounded,
    )


def _recorder() -> tuple[list[tuple[object, ...]], Callable[[int, int | None], None], Callable[[str], None]]:
    calls: list[tuple[object, ...]] = []

    def progress(done: int, total: int | None) -> None:
        calls.append(("progress", done, total))

    def phase(text: str) -> None:
        calls.append(("phase", text))

    return calls, progress, phase


def _joined(early: EarlyLoad) -> bool:
    return early._progress is not None


def _held_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, _Gate, Loader, EarlyLoad]:
    """A loader of a 4-block log whose early load is started and held at its gate (``gate.go``)."""
    log = _big_log(tmp_path)
    gate = _Gate(monkeypatch)
    loader = Loader([str(log)])
    loader.start()
    early = loader._early
    assert early is not None
    return log, gate, loader, early


def test_a_started_load_finished_before_it_is_asked_for_gives_the_same_result() -> None:
    paths = [str(bundled_cv())]
    loader = Loader(paths)
    loader.start()
    early = loader._early
    assert early is not None and early._done.wait(GUARD)  # read and summarised before anyone asks
    calls, progress, phase = _recorder()
    got = loader.load(reload=True, progress=progress, phase=phase)
    plain_calls, plain_progress, plain_phase = _recorder()
    _same(got, Loader(paths).load(reload=True, progress=plain_progress, phase=plain_phase))
    # what the bar needs: the last of the progress calls made meanwhile, then the phase
    assert calls == [plain_calls[-2], plain_calls[-1]] and calls[-1][0] == "phase"
    assert calls[0][1] == calls[0][2]  # everything read
    loader.show(got)  # (the caller shows it)
    assert loader._early is None and loader.load(reload=False) is None  # then polls as usual


def test_joined_before_the_reading_the_caller_gets_every_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log, gate, loader, early = _held_start(tmp_path, monkeypatch)  # 4 reading blocks
    calls, progress, phase = _recorder()
    out: list[LoadResult | None] = []
    asker = threading.Thread(target=lambda: out.append(loader.load(reload=True, progress=progress, phase=phase)))
    asker.start()
    while not _joined(early):  # the asker is waiting for the early load: now let it read
        assert asker.is_alive()
        threading.Event().wait(0.001)
    gate.go.set()
    asker.join(GUARD)
    plain_calls, plain_progress, plain_phase = _recorder()
    _same(out[0], Loader([str(log)]).load(reload=True, progress=plain_progress, phase=plain_phase))
    assert calls == plain_calls and len([c for c in calls if c[0] == "progress"]) >= 4


def test_what_the_callers_progress_raises_stops_the_early_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log, gate, loader, early = _held_start(tmp_path, monkeypatch)
    total = log.stat().st_size
    seen: list[int] = []

    def progress(done: int, total: int | None) -> None:  # Esc after the first block
        seen.append(done)
        if done >= BLOCK:
            raise LoadCancelled("cancelled by the user")

    gate.go.set()
    with pytest.raises(LoadCancelled):
        loader.load(reload=True, progress=progress)
    assert early._done.wait(GUARD) and isinstance(early._error, LoadCancelled)
    assert max(seen) < total  # the reading stopped there ...
    again = loader.load(reload=True)  # ... and the next load reads everything
    _same(again, Loader([str(log)]).load(reload=True))


def test_an_error_of_the_early_load_is_raised_to_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(loader: Loader, **options: object) -> None:
        raise MemoryError("out of memory")

    monkeypatch.setattr(Loader, "_load", broken)
    loader = Loader([str(bundled_cv())])
    loader.start()
    with pytest.raises(MemoryError):
        loader.load(reload=True)


async def test_the_app_on_a_started_loader_shows_what_it_shows_by_itself() -> None:
    screens = []
    for started in (False, True):
        loader = Loader([str(bundled_cv())])
        if started:
            loader.start()
        app = make_app(loader=loader)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            assert app.model is loader.model and app.analysis is not None
            screens.append((screen_lines(app), status(app)))
    assert screens[0] == screens[1]
    assert any("is better" in line for line in screens[1][0])


async def test_esc_stops_an_early_load_as_any_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log, gate, loader, early = _held_start(tmp_path, monkeypatch)
    total = log.stat().st_size
    app = make_app([str(log)], loader=loader)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: _joined(early))  # the app's load worker waits for the early load
        await press(pilot, "escape")  # before it has read a block
        gate.go.set()
        await settle(pilot)
        assert early._done.wait(GUARD) and isinstance(early._error, LoadCancelled)
        assert app.model is None and app.analysis is None
        problem = str(app.query_one("#problem").render())
        assert problem.startswith("load stopped by esc at ") and f"of {total / 1e6:,.1f} MB" in problem
        await press(pilot, "r")
        await settle(pilot)
        assert app.model is not None and str(app.query_one("#problem").render()) == ""


_CLI_SCRIPT = r"""
import json, sys
import tui.app
import tui.model._loader as loader_module

seen = {}
start = loader_module.Loader.start


def started(self):
    seen["textual_at_start"] = "textual" in sys.modules
    start(self)


loader_module.Loader.start = started


class FakeApp:
    def run(self):
        seen["ran"] = True


def create_app(paths, **options):
    loader = options["loader"]
    seen["same_paths"] = loader.paths == list(paths)
    seen["result_lines"] = loader.load(reload=True).lines
    return FakeApp()


tui.app.create_app = create_app
from tui.cli import main

code = main([sys.argv[1]])
print(json.dumps({**seen, "code": code}))
"""


def test_the_command_starts_reading_before_textual_is_imported() -> None:
    """``rankboard LOGS``: the first load begins (Loader.start) before Textual is imported, and
    the app is handed that loader (here a stand-in app, in a fresh interpreter)."""
    run = subprocess.run(
        [sys.executable, "-c", _CLI_SCRIPT, str(bundled_cv())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out == {"textual_at_start": False, "same_paths": True, "result_lines": 6250, "ran": True, "code": 0}, out
