"""At 80 columns the sidebar opens as a drawer OVER the views (Textual Pilot, the real keys).

It widened in the layout before, and the views pane shrank to ~44 cells: the quartile chart did not
fit even at its narrowest, so the `max` column read `1.` instead of `1.000`, and the tables hid
columns. Now the views keep their place and width while a sidebar list has focus: what is right of
the drawer's edge is what was there before, whole, and all of it is back when the focus leaves.
"""

from __future__ import annotations

import re

import pytest
from textual.geometry import Region

from tests.test_app import LARGE, SMALL, RankboardApp, drive, press, screen_lines, until
from tui.views.quartiles.panel import GUTTER, QuartilesPanel
from tui.widgets._sidebar import NameList

VIEWS = {"1": "quartiles", "2": "ranks", "3": "tests", "4": "pairs", "5": "cd", "6": "folds"}
NUMBER = re.compile(r"-?\d+\.\d+")


async def open_sidebar(pilot) -> None:  # noqa: ANN001
    """shift+tab from the view into the sidebar's learners list, as a person does."""
    app = pilot.app
    await press(pilot, "shift+tab")
    assert isinstance(app.focused, NameList), app.focused
    await until(pilot, lambda: app.query_one("#sidebar").size.width > 30)


def body_text(app: RankboardApp, left: int = 0) -> list[str]:
    """The screen's lines of the sidebar and the views (not the status line or the footer), from column ``left``."""
    body = app.query_one("#body").region
    return [line[left:] for line in screen_lines(app)[body.y : body.bottom]]


def regions(app: RankboardApp, view: str) -> dict[str, Region]:
    """Where the views pane, the view and its content are laid out."""
    panel = app.query_one(f"#{view}")
    return {"main": app.query_one("#main").region, "view": panel.region, "content": panel.content_region}


async def test_the_open_sidebar_leaves_the_quartile_chart_whole_at_80x24() -> None:
    """The defect as reported: with a sidebar list focused, every chart line on screen right of the
    drawer is the chart's own line there, to its end (`max` reads `1.000`, the bar is whole), the
    chart is not fitted again, and the pane is not narrowed."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        panel = app.query_one(QuartilesPanel)
        before, fit = regions(app, "quartiles"), panel.fit_width
        chart = panel.plain.splitlines()
        assert app.query_one("#sidebar").size.width < 20
        await open_sidebar(pilot)
        edge = app.query_one("#sidebar").region.right  # the first column right of the drawer
        content = panel.scrollable_content_region
        left = content.x + GUTTER  # where the chart's lines start on screen
        start = max(edge, left)  # the first column of the chart's lines not under the drawer
        screen, drawn = screen_lines(app), panel.plain.splitlines()  # the chart's lines as drawn now
        shown = 0
        for row in range(content.height):
            index = panel.scroll_offset.y + row
            if index >= len(drawn):
                break
            line = drawn[index]
            assert left + len(line) <= content.right, line  # the line fits the pane
            on_screen = screen[content.y + row][start : left + len(line)]
            assert on_screen == line[start - left :], (on_screen, line)
            numbers = [m for m in NUMBER.finditer(line) if left + m.start() >= start]
            assert all(m.group() in on_screen for m in numbers), (on_screen, line)
            shown += len(numbers)
        assert shown >= 20  # (the chart's rows are on screen: q1 .. max of each learner)
        assert any(" 1.000 [" in line for line in screen)  # `max` of the overall chart, as reported: not `1.`
        assert regions(app, "quartiles") == before and left < edge  # not narrowed, not moved: under the drawer
        assert panel.fit_width == fit and drawn == chart  # not fitted again

    await drive(scenario, size=SMALL)


@pytest.mark.parametrize("key", list(VIEWS), ids=list(VIEWS.values()))
async def test_at_80x24_the_sidebar_opens_over_each_view_and_closes_leaving_it_as_it_was(key: str) -> None:
    """Views 1-6: the view keeps its place and width while the drawer is open, the screen right of
    the drawer is the same text as before (no column hidden, no number cut by a new layout), the
    drawer's right edge is marked on every line, and the focus back on the view closes the drawer
    to the strip with the views as before."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        view = VIEWS[key]
        await press(pilot, key)
        sidebar = app.query_one("#sidebar")
        strip = sidebar.region.width
        assert strip < 20
        where, before = regions(app, view), body_text(app)
        await open_sidebar(pilot)
        edge = sidebar.region.right
        assert edge - strip >= 15  # open: the lists' names have room
        assert regions(app, view) == where
        after = body_text(app)
        assert [line[edge:] for line in after] == [line[edge:] for line in before]
        marks = {line[edge - 1] for line in after}
        assert len(marks) == 1 and not marks.pop().isspace(), after  # the drawer's edge, top to bottom
        await press(pilot, key)  # the view's key: the focus back on the view
        assert not isinstance(app.focused, NameList)
        await until(pilot, lambda: sidebar.region.width == strip)
        assert regions(app, view) == where
        assert body_text(app, strip) == [line[strip:] for line in before]  # (the strip stays scrolled)

    await drive(scenario, size=SMALL)


@pytest.mark.parametrize("key", ["1", "2"], ids=["quartiles", "ranks"])
async def test_wide_terminals_keep_the_sidebar_in_the_layout(key: str) -> None:
    """At 120 columns (at least NARROW) nothing changes: the sidebar is beside the views, never over
    them, with the same width whether a list has focus or not."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, key)
        sidebar, main = app.query_one("#sidebar"), app.query_one("#main")
        assert not app.query_one("#body").has_class("-narrow")
        closed = (sidebar.region, main.region)
        assert sidebar.region.right <= main.region.x and sidebar.region.width == 32
        await press(pilot, "shift+tab")
        assert isinstance(app.focused, NameList)
        assert (sidebar.region, main.region) == closed

    await drive(scenario, size=LARGE)
