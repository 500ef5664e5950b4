"""A table whose rows arrive while a layout is pending is laid out at its new height.

Seen in CI (snapshot ``test_view[tests-120x40]``, under load): the tests view's sign and
win/loss/tie tables stayed 0 rows high. Textual caches a widget's box model under its
``_layout_updates``, which ``refresh(layout=True)`` bumps only when no layout is pending yet. A
table shown and filled (a layout pending, its rows not measured yet) that the screen happens to
lay out before its idle measures the rows cached its empty height; the measured height then came
with the same key, and the table stayed empty on screen. The test makes that order happen on
purpose instead of waiting for a busy machine to make it.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from tui.widgets._table import VimTable


class _OneTable(App):
    CSS = "VimTable { height: auto; }"

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield VimTable(id="t")


async def test_rows_measured_after_a_layout_that_saw_none_are_laid_out() -> None:
    app = _OneTable()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(VimTable)
        table.display = False  # as the tests view's sign table before its first view
        await pilot.pause()
        table.display = True  # shown and filled in one go (TestsPanel.watch_view): a layout pending
        table.clear(columns=True)
        table.add_columns("learner", "stat")
        table.add_rows([("KNN", "4"), ("RandomForest", "3"), ("GaussianNB", "5")])
        assert table._layout_required and table.virtual_size.height == 0  # a layout pending, rows unmeasured
        app.screen._refresh_layout()  # the screen lays out now, before the table's idle (the busy-machine order)
        assert table.size.height == 0
        for _ in range(3):  # the table's idle measures the rows; the screen lays out again
            await pilot.pause()
        assert table.virtual_size.height == 4
        assert table.size.height == 4  # the header and three rows: 0 before the fix
