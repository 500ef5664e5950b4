"""The folds tables at 80 columns (issue 14, a limit the previous stop left): a learner or data
set name too long for the panel is cut in the middle, kept distinct, so that every column of the
totals and of the per-data-set table is on screen (a number behind ``›`` is a number not shown);
the line under the tables still gives the whole name. Wider panels show the names whole."""

from __future__ import annotations

import pytest

from tui.views.folds.panel import name_cap


def test_the_cap_is_the_widest_that_fits_and_never_below_the_minimum() -> None:
    assert name_cap([10, 12], 30, None) is None  # nothing to fit to
    assert name_cap([10, 12], 30, 30 + 4 + 22 - 1) is None  # fits whole (the last padding may be cut)
    assert name_cap([10, 18], 30, 30 + 4 + 21) == 12  # 10 + 12 = 22 cells: one column is cut
    assert name_cap([30, 30], 30, 30 + 4 + 11) == 6  # no room: the minimum (the table scrolls)


async def test_at_80_columns_every_column_of_both_tables_is_on_screen() -> None:
    from tests.test_app import LARGE, drive, press
    from tui.views.folds.panel import FoldsPanel
    from tui.widgets._table import VimTable

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6", "c")  # GaussianNB (the first of the totals) becomes the control:
        panel = app.query_one(FoldsPanel)  # LogisticRegression (18 characters) is a row now
        assert app.selection.control == "GaussianNB"
        for name in ("#folds-totals", "#folds-table"):
            table = app.query_one(name, VimTable)
            assert table.visible_columns()[1] == len(table.columns), name  # the last column on screen
        # (on a screen under 30 lines the totals scroll in three rows: their scrollbar takes a cell)
        texts = [str(c) for i in range(4) for c in app.query_one("#folds-totals", VimTable).get_row_at(i)[:1]]
        assert "LogisticRegression" not in texts and any(t.startswith("Log") and "…" in t for t in texts)
        assert len(set(texts)) == len(texts)
        await press(pilot, "j", "j")  # the line under the tables: the whole name
        assert "LogisticRegression vs GaussianNB: w/t/l" in panel.plain

    await drive(scenario)

    async def wide(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "6", "c")
        # (on a screen under 30 lines the totals scroll in three rows: their scrollbar takes a cell)
        texts = [str(c) for i in range(4) for c in app.query_one("#folds-totals", VimTable).get_row_at(i)[:1]]
        assert "LogisticRegression" in texts  # room enough: whole

    await drive(wide, size=LARGE)


async def test_the_rows_are_made_once_off_the_event_loop_for_the_width_they_show_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Opened from another view, the folds panel is hidden while the worker makes its rows: they
    must be made for the width the panel will have (its container's), not made again on the
    event loop once it is shown."""
    import threading

    from tests.test_app import drive, press
    from tui.views.folds import panel as _folds

    made: list[tuple[str, int | None]] = []
    original = _folds.folds_rows

    def recorded(view, width=None):  # noqa: ANN001, ANN202
        made.append((threading.current_thread().name, width))
        return original(view, width)

    monkeypatch.setattr(_folds, "folds_rows", recorded)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        for keys in (("6",), ("1", "a", "6")):  # first from the quartiles; again after a toggle there
            made.clear()
            await press(pilot, *keys)
            panel = app.query_one(_folds.FoldsPanel)
            assert panel.rows is not None and panel.rows.fit == panel.fit_width is not None
            assert len(made) == 1 and made[0][0] != threading.main_thread().name, made

    await drive(scenario)


async def test_at_80_columns_every_column_is_on_screen_whichever_learner_is_the_control() -> None:
    """The number columns are as wide as their labels when their cells are narrower ("mean diff":
    9 cells over differences of 8): with DecisionTree as the control, the rows' Bayes column sat
    behind ``›`` (a user's run at 80x24)."""
    from dataclasses import replace

    from tests.test_app import drive, settle
    from tui.widgets._table import VimTable

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await pilot.press("6")
        for control in app.selection.learners:
            app.selection = replace(app.selection, control=control)
            await settle(pilot)
            for name in ("#folds-totals", "#folds-table"):
                table = app.query_one(name, VimTable)
                assert table.visible_columns()[1] == len(table.columns), (control, name)

    await drive(scenario)
