"""Issue 30, item 11: the app's reload (``r``) of large logs peaks near the first load's memory.

Before, a reload read the logs again while the old model (its aggregate and every result, through
the analysis, the views' panels, a module-level cache of quartile views and the last worker each
idle pool thread kept) was still held: 935 MB for a 196 MB log. Now nothing of the old read is
alive when the new one starts -- checked by weak references at the moment the reload's poll
begins, not by timing -- and the selection the user had comes back with the new model.

(Measured by hand on a generated 2,500,000-line, 102 MB log: first load peak 296 MB, reload 302
MB, 304 MB; before: 291 MB, then 331, 362 and 393 MB for three reloads, growing with each.)
"""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace

import pytest

import stats
import tui.app._loading
from tests.conftest import DATA
from tests.test_app import make_app, press, settle, status

SIZES = [(80, 24), (120, 40)]
SWEEP = DATA / "sweep.dat"


@pytest.mark.parametrize("size", SIZES)
async def test_a_reload_lets_go_of_the_old_results_before_it_reads(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sweep log stands for a large one: the threshold (about 40 MB of log) is lowered to it
    monkeypatch.setattr(tui.app._loading, "RELEASE_LINES", 1, raising=False)
    app = make_app([str(SWEEP)], live=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        model = app.model
        assert model is not None and app.selection is not None and app.loader.aggregator is not None
        dropped = model.datasets[0]
        app.selection = replace(app.selection, datasets=tuple(d for d in app.selection.datasets if d != dropped))
        await settle(pilot)
        chosen = app.selection
        old = {
            "model": weakref.ref(model),
            "results": weakref.ref(model._raw),  # every result (stats.cells CellValues)
            "aggregator": weakref.ref(app.loader.aggregator),
            "analysis": weakref.ref(app.analysis),
        }
        del model
        alive: list[list[str]] = []
        real = stats.LogWatcher.poll

        def poll(self, **options):  # noqa: ANN001, ANN003, ANN202 - the reload's read starts here
            alive.append([name for name, ref in old.items() if ref() is not None])  # no gc here: the app's own
            return real(self, **options)

        monkeypatch.setattr(stats.LogWatcher, "poll", poll)
        await press(pilot, "r")
        assert alive == [[]]
        # the new model, with the user's selection (the data set left out stays out) and no notice
        assert app.model is not None and app.selection == chosen and app.analysis is not None
        assert app.analysis.selection == chosen and dropped not in app.analysis.selection.datasets
        assert "29 data sets x 12 learners | 7200 lines" in status(app)
        assert list(app._notifications) == []


class _Big:
    """Stands for a model a worker was started with."""


async def test_a_finished_worker_keeps_nothing_alive() -> None:
    """Textual sets the worker (and with it its arguments) in the context of the pool thread that
    runs it; before, it stayed there until another worker ran in that thread, so an idle thread
    kept the last model it analysed alive through a reload."""
    app = make_app([str(SWEEP)], live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        big = _Big()
        ref = weakref.ref(big)
        worker = app.run_worker(lambda held=big: held, thread=True)
        await worker.wait()
        await settle(pilot)
        del big, worker
        gc.collect()
        assert ref() is None
