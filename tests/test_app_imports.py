"""Issue 17, item 1: the app paints its first frame (the load bar) before scipy is imported, and
imports scipy in the background (never on the event loop's thread) while the logs are read.

Run in a fresh interpreter (this one has scipy already): an import hook holds every import of
scipy made off the main thread until the first frame with the load bar is on screen, and notes
any made on the main thread. If anything before the first paint needed scipy on the main thread,
the note says so (and the paint would wait for it); if the load needed it first, the load waits.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = r"""
import asyncio, importlib.abc, json, sys, threading

released = threading.Event()
on_main, off_main = [], []


class Gate(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "scipy":
            if threading.current_thread() is threading.main_thread():
                on_main.append(name)
            else:
                off_main.append(threading.current_thread().name)
                released.wait(120)  # the test releases it; 120 s only turn a hang into a failure
        return None


sys.meta_path.insert(0, Gate())
from tests.test_app import make_app, screen_lines, settle, until
from tui.widgets._loading import LoadBar


async def main():
    app = make_app()
    out = {}
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.query_one(LoadBar)
        await until(pilot, lambda: not bar.has_class("-hidden") and any("esc cancels" in s for s in screen_lines(app)))
        out["first_frame_scipy"] = "scipy" in sys.modules
        out["first_frame_on_main"] = list(on_main)
        out["first_frame_bar"] = [s for s in screen_lines(app) if "esc cancels" in s][0]
        released.set()
        await settle(pilot)
        out["analysed"] = app.analysis is not None
    out["scipy"] = "scipy" in sys.modules
    out["on_main"] = on_main
    out["off_main"] = bool(off_main)
    print(json.dumps(out))


asyncio.run(main())
"""


def test_first_frame_with_the_load_bar_comes_before_scipy_which_is_imported_in_the_background() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["first_frame_scipy"] is False and out["first_frame_on_main"] == []
    assert "reading" in out["first_frame_bar"]
    assert out["analysed"] and out["scipy"] and out["off_main"]
    assert out["on_main"] == []  # never imported on the event loop's thread


_FIRST_VIEW_SCRIPT = r"""
import asyncio, json, sys, threading
import tui.model._loader as loader_module

go = threading.Event()
load = loader_module.Loader.load


def gated(self, **options):
    go.wait(120)  # the test releases it once the import worker is done; 120 s only turn a hang into a failure
    return load(self, **options)


loader_module.Loader.load = gated
from tests.test_app import make_app, settle, until
from tui.app._app import RankboardApp
from tui.views.quartiles.panel import QuartilesPanel

workers, modules, at_view = [], [], []
start_imports = RankboardApp.import_statistics
analyzed = RankboardApp.on_analyzed


def import_statistics(self, names, after=None):
    modules.append(list(names))
    workers.append(start_imports(self, names, after=after))
    return workers[-1]


def on_analyzed(self, message):
    if not at_view:  # the first analysis, computed and its chart lines built: the first view
        at_view.append(set(sys.modules))
    analyzed(self, message)


RankboardApp.import_statistics = import_statistics
RankboardApp.on_analyzed = on_analyzed
HEAVY = ("scipy", "stats", "pandas", "numpy")


async def main():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: bool(workers) and workers[0].is_finished)
        before = set(sys.modules)
        go.set()
        await settle(pilot)
        drawn = app.query_one(QuartilesPanel).lines is not None
        await until(pilot, lambda: len(workers) == 2 and workers[1].is_finished)
    out = {
        "drawn": drawn,
        "view": app.view,
        "new": sorted(m for m in at_view[0] - before if m.split(".")[0] in HEAVY),
        "at_view": [m in at_view[0] for m in ("scipy.stats", "stats.posthoc.ztests")],
        "after": [m in sys.modules for m in ("scipy.stats", "stats.posthoc.ztests")],
        "modules": modules,
    }
    print(json.dumps(out))


asyncio.run(main())
"""


def test_the_first_view_imports_nothing_the_import_worker_could_have_imported() -> None:
    """The first analysis (the quartile view) comes right after the logs are read, on the path to
    the first view: everything it imports must have been imported by the app's import worker
    while the logs were read (tui.model._imports.FIRST_VIEW; before, the worker imported
    stats.posthoc.ztests, and the Scott-Knott ranks imported scipy.stats after the load). Here the load
    waits until that worker is done; then nothing of scipy, stats, pandas or numpy may be imported
    until the first analysis is back. Neither scipy.stats nor stats.posthoc.ztests is imported for the
    first view (they share the two cores with the reading for nothing): a second worker imports
    them once it is shown."""
    from tui.model import FIRST_VIEW, OTHER_VIEWS

    run = subprocess.run(
        [sys.executable, "-c", _FIRST_VIEW_SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["drawn"] and out["view"] == "quartiles"
    assert out["new"] == []
    assert out["at_view"] == [False, False] and out["after"] == [True, True]
    assert out["modules"] == [list(FIRST_VIEW), list(OTHER_VIEWS)]
