"""Issue 28, item 8/9: Tab means the same in every view.

Tab and shift+Tab go round one cycle: the sidebar's three lists, then the view's tables top to
bottom, then the lists again. Coming round to a view's first table shows the view from its top,
as the view's key does (in the tests view Tab came back to the first table with the verdict above
it scrolled away; elsewhere it went to the sidebar, so that Tab seemed to mean two things).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_app import LARGE, SMALL, drive, make_app, press, screen_lines
from tui.app._commands import help_rows

SWEEP = Path(__file__).resolve().parent / "data" / "sweep.dat"
LISTS = ["criteria", "datasets", "learners"]
#: Each view's key and the tables Tab visits in it, top to bottom (what the panels lay out).
VIEWS = {
    "tests": ("3", ["control-table", "sign-table", "wlt-table"]),
    "ranks": ("2", ["ranks-table"]),
    "folds": ("6", ["folds-totals", "folds-table"]),
    "pairs": ("4", ["pairs-table", "contrast-table", "fragility-table"]),
}


def _view_lines(app) -> list[str]:  # noqa: ANN001
    """The screen's lines of the view pane (not the sidebar, which scrolls to the list in focus)."""
    main = app.query_one("#main").region
    return [line[main.x : main.right] for line in screen_lines(app)[main.y : main.bottom]]


async def _round(pilot, key: str, count: int) -> list[str]:  # noqa: ANN001
    """Press ``key`` ``count`` times; the id of the widget in focus after each."""
    seen = []
    for _ in range(count):
        await press(pilot, key)
        seen.append(pilot.app.focused.id)
    return seen


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_tab_goes_round_the_same_cycle_in_every_view(size: tuple[int, int]) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        for name, (key, tables) in VIEWS.items():
            await press(pilot, key)
            assert app.focused.id == tables[0], name
            top = _view_lines(app)
            cycle = tables[1:] + LISTS + tables[:1]
            assert await _round(pilot, "tab", len(cycle)) == cycle, name
            assert app.query_one(f"#{name}").scroll_y == 0, name  # the view from its top, as its key shows it
            assert _view_lines(app) == top, name
            await pilot.press(*["tab"] * (len(cycle) - 1))  # typed fast: each Tab moves on from the last
            await press(pilot)
            assert app.focused.id == cycle[-2], name

    await drive(scenario, size=size, app=make_app([str(SWEEP)]))


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_shift_tab_goes_round_it_backwards(size: tuple[int, int]) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        for name, (key, tables) in VIEWS.items():
            await press(pilot, key)
            top = _view_lines(app)
            cycle = LISTS[::-1] + tables[::-1]
            assert await _round(pilot, "shift+tab", len(cycle)) == cycle, name
            assert app.query_one(f"#{name}").scroll_y == 0, name
            assert _view_lines(app) == top, name

    await drive(scenario, size=size, app=make_app([str(SWEEP)]))


def test_the_help_says_what_tab_does() -> None:
    rows = dict(help_rows())
    says = rows["tab, shift+tab"]
    assert "the same in every view" in says
    assert "sidebar's lists" in says and "view's tables" in says
