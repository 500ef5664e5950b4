"""Views follow the data (issue 11, item 5): when the logs shrink to nothing or vanish, no old
result stays on screen; the views say there is nothing to show."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.test_app import make_app, poll, press, settle, status
from tui.views.cd.panel import CDPanel
from tui.views.pairs.panel import PairsPanel
from tui.views.quartiles.panel import QuartilesPanel
from tui.views.ranks.panel import RanksPanel
from tui.views.tests.panel import TestsPanel

ROWS = [
    (f"d{i}", 1, f, learner, "acc", 0.5 + 0.1 * j + 0.01 * i + 0.001 * f)
    for i in range(4)
    for j, learner in enumerate(("alpha", "beta", "gamma"))
    for f in (1, 2)
]


def write_log(path: Path) -> None:
    path.write_text("".join(",".join(map(str, r)) + "\n" for r in ROWS))


def on_screen(app) -> str:  # noqa: ANN001
    """Everything the five panels hold as text."""
    ranks = app.query_one(RanksPanel).query_one("#ranks-table")
    cells = [str(c) for row in range(ranks.row_count) for c in ranks.get_row_at(row)]
    return "\n".join(
        [
            app.query_one(QuartilesPanel).plain,
            *cells,
            app.query_one(TestsPanel).plain,
            app.query_one("#pairs-head").plain,
            app.query_one(CDPanel).plain,
        ]
    )


async def check_emptied(tmp_path: Path, empty) -> None:  # noqa: ANN001
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.dat")
    app = make_app([str(logs)], live=True, interval=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for key in "12345":  # every view filled once
            await press(pilot, key)
        assert "gamma" in on_screen(app) and app.query_one(PairsPanel).view is not None
        empty(logs)
        await poll(pilot)
        assert app.analysis is None and app.selection is None
        for key in "12345":
            await press(pilot, key)
            assert "gamma" not in on_screen(app), key
        assert "no tests for this selection" in app.query_one(TestsPanel).plain
        assert "0 data sets x 0 learners" in status(app)


async def test_a_log_truncated_to_nothing_empties_every_view(tmp_path: Path) -> None:
    await check_emptied(tmp_path, lambda logs: (logs / "a.dat").write_text(""))


async def test_a_directory_deleted_empties_every_view(tmp_path: Path) -> None:
    await check_emptied(tmp_path, shutil.rmtree)
