"""Issue 11: the `/` filter narrows the views' rows too (not only the sidebar lists), and the
palette's actions act on the item under the cursor of the view on screen."""

from __future__ import annotations

from textual.command import CommandList

from tests.test_app import SMALL, drive, press, screen_lines, settle, status, until
from tui.app._app import RankboardApp
from tui.views.quartiles.panel import QuartilesPanel


def _rows(app: RankboardApp, table_id: str) -> list[str]:
    return [str(r.value) for r in app.query_one(f"#{table_id}").rows]


async def _filter(pilot, text: str) -> None:  # noqa: ANN001
    await press(pilot, "slash")
    await pilot.press(*text)
    await press(pilot, "enter")


async def test_the_filter_narrows_the_rows_of_every_view() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        chosen = (app.selection.datasets, app.selection.learners)
        await _filter(pilot, "kn")
        assert "filter kn" in status(app) and "/kn" in screen_lines(app)[-2]  # on screen at 80 columns
        quartiles = app.query_one(QuartilesPanel)._lines
        learners = {quartiles.learner(r)[1] for r in range(quartiles.rows)}
        assert learners == {"KNN"}  # a row of KNN in every chart, nothing else
        assert quartiles.rows == 1 + len(app.analysis.quartiles.scopes) - 1
        await press(pilot, "3")
        assert app.analysis.tests.control != "KNN" and _rows(app, "control-table") == ["KNN"]
        await press(pilot, "4")
        assert _rows(app, "pairs-table") == ["KNN"] and _rows(app, "contrast-table") == ["KNN"]
        await press(pilot, "6")
        assert _rows(app, "folds-totals") == ["KNN"]
        assert {key.split("\0")[1] for key in _rows(app, "folds-table")} == {"KNN"}
        await press(pilot, "2")  # rows of data sets: none contains "kn", and the view says so
        assert _rows(app, "ranks-table") == ["\0average", "\0letters"]
        assert "no data set name contains the / filter" in app.query_one("#ranks-note").plain
        await press(pilot, "slash", "escape")  # Esc clears it
        await _filter(pilot, "iri")
        assert _rows(app, "ranks-table") == ["iris", "\0average", "\0letters"]
        assert (app.selection.datasets, app.selection.learners) == chosen  # the statistics use every name
        assert len(app.analysis.ranks.medians) == len(chosen[0])
        await press(pilot, "slash", "escape")
        assert len(_rows(app, "ranks-table")) == len(chosen[0]) + 2 and "filter" not in status(
            app
        )  # + average, letters

    await drive(scenario, size=SMALL)


async def _palette(pilot, text: str) -> None:  # noqa: ANN001
    app = pilot.app
    await press(pilot, "ctrl+p")
    await pilot.press(*text)
    await until(pilot, lambda: app.screen.query(CommandList).first().option_count > 0)
    await press(pilot, "enter")


async def test_palette_actions_act_on_the_item_under_the_cursor_of_the_view_on_screen() -> None:
    """Before: the palette's control and include/exclude worked only while a sidebar list had focus."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "j")  # the quartile view's cursor on its second learner
        second = app.query_one(QuartilesPanel).learner_under_cursor()
        await _palette(pilot, "make the learner under")
        assert app.selection.control == second
        await press(pilot, "3", "j")  # the control table's second row
        learner = _rows(app, "control-table")[1]
        await _palette(pilot, "include/exclude")
        assert learner not in app.selection.learners
        await press(pilot, "4", "j", "j")  # the pairs matrix's third row
        learner = _rows(app, "pairs-table")[2]
        await _palette(pilot, "make the learner under")
        assert app.selection.control == learner

    await drive(scenario, size=SMALL)


async def test_keys_typed_right_after_slash_reach_the_filter() -> None:
    """Typed fast (all queued before the app handles `/`), the letters after `/` went to the pane
    that had focus: `Input.focus()` moves the focus only after the queued keys, so "kn" typed on the
    quartile view made its learner the control... Now `/` moves the focus at once."""
    from textual import events

    from tui.widgets._sidebar import FilterInput

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "1")
        control, higher = app.selection.control, app.selection.higher_is_better
        for key, char in (("slash", "/"), ("d", "d"), ("i", "i"), ("g", "g"), ("c", "c")):
            app.post_message(events.Key(key, char))  # all queued before any is handled
        await settle(pilot)
        box = app.query_one(FilterInput)
        assert box.value == "digc" and app.focused is box
        assert (app.selection.control, app.selection.higher_is_better) == (control, higher)
        await press(pilot, "slash")  # in the filter, `/` is a character (`q2s/sonar` of Menzies' lecture notes)
        assert box.value == "digc/"

    await drive(scenario)
