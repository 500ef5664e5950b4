"""Issue 11: `<` / `>` sort the ranks table by the column under the cursor; on the average-rank row
they sort the learners by average rank; the same key again restores the logs' order."""

from __future__ import annotations

from tests.test_app import SMALL, make_app, press, screen_lines, settle
from tui.app._commands import help_rows


def _rows(table) -> list[str]:  # noqa: ANN001
    return [str(r.value) for r in table.rows]


def _columns(table) -> list[str]:  # noqa: ANN001
    return [str(c.value) for c in table.columns]


async def test_lt_and_gt_sort_the_ranks_table_and_say_by_what() -> None:
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "2", "right")  # the GaussianNB column
        table = app.query_one("#ranks-table")
        medians = app.analysis.ranks.medians
        logs_order = _rows(table)
        assert screen_lines(app)[-1].rstrip().endswith("<> sort ? help q quit")  # the footer, at 80 columns
        await press(pilot, "less_than_sign")
        ascending = list(medians["GaussianNB"].sort_values(kind="stable").index)
        assert _rows(table) == [*ascending, "\0average", "\0letters"]  # the average and letters rows stay last
        assert list(app._notifications)[-1].message == "rows by GaussianNB's median, ascending (< again: logs' order)"
        assert "GaussianNB \u2191" in table.ordered_columns[1].label.plain  # the mark survives NO_COLOR
        assert table.get_row_at(table.cursor_row)[0].plain == logs_order[0]  # the cursor stays on its cell
        await press(pilot, "greater_than_sign")
        assert [r for r in _rows(table) if not r.startswith("\0")] == [
            d for d, _ in sorted(medians["GaussianNB"].items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        await press(pilot, "greater_than_sign")  # the same key again: the logs' order
        assert _rows(table) == logs_order
        assert list(app._notifications)[-1].message == "rows in the logs' order"
        await press(pilot, "end")  # to the average-rank row: the learners by average rank
        for _ in range(table.row_count):
            await press(pilot, "j")
        await press(pilot, "k")  # the letters row is last; the average ranks above it
        assert _rows(table)[table.cursor_row] == "\0average"
        await press(pilot, "less_than_sign")
        average = app.analysis.ranks.average
        assert _columns(table)[1:] == list(average.sort_values(kind="stable").index)  # best first
        assert list(app._notifications)[-1].message == "learners by average rank, best first"
        assert _columns(table)[table.cursor_column] == list(medians.columns)[-1]  # the cursor's learner
        await press(pilot, "2")  # a new analysis (here: none) keeps the order
        app.selection = app.selection
        await settle(pilot)
        assert _columns(table)[1:] == list(average.sort_values(kind="stable").index)
        await press(pilot, "3")  # another view: the keys are neither shown nor active
        assert "sort" not in screen_lines(app)[-1]
        await press(pilot, "less_than_sign")  # (in the ranks view it would restore the logs' order)
        assert _columns(table)[1:] == list(average.sort_values(kind="stable").index)
    assert any(key == "<" and "sort the rows" in text for key, text in help_rows())


async def test_export_follows_the_sort_and_the_filter(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """`e` wrote every data set in the logs' order whatever the view showed: the export is of the
    current view, so it keeps the `/` filter's rows and the `<` / `>` order (and says so)."""
    import pandas as pd

    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "2", "right", "greater_than_sign")  # rows by GaussianNB's median, descending
        await press(pilot, "slash", "a", "n", "enter")  # the data sets whose name contains "an"
        medians = app.analysis.ranks.medians
        shown = [d for d, _ in sorted(medians["GaussianNB"].items(), key=lambda kv: (-kv[1], kv[0])) if "an" in d]
        assert 0 < len(shown) < len(medians.index)
        await press(pilot, "e")
        dialog = " ".join(" ".join(screen_lines(app)).split())  # the prompt wraps
        assert "as shown: the rows that contain" in dialog and "'an')" in dialog
        await press(pilot, "enter")
    (path,) = tmp_path.glob("*.csv")
    frame = pd.read_csv(path)
    assert frame["dataset"].tolist() == [*shown, "average rank"]
    assert frame.loc[0, "GaussianNB median"] == medians.loc[shown[0], "GaussianNB"]
    kinds = ("median", "rank", "letters")
    by = ["letters_procedure", "letters_alpha", "letters_basis"]  # what made the letters, last (issue 28 item 5)
    assert set(frame.columns) == {"dataset", *by} | {f"{n} {k}" for n in medians.columns for k in kinds}
    assert list(frame.columns[-3:]) == by
