"""Issue 11: the quartile view has a cursor on a learner row (c and space act on its learner), and
the focused pane carries a mark that survives NO_COLOR (a symbol on screen, not a colour)."""

from __future__ import annotations

from tests.test_app import SMALL, drive, focus_list, press, screen_lines
from tui.app._app import RankboardApp
from tui.views.quartiles.panel import QuartilesPanel

BAR = "\u258c"  # ▌ (Textual's "outer" border, left side)
CURSOR = "\u25b8"  # ▸ (tui.views.quartiles.panel.CURSOR)


def _cursor_line(app: RankboardApp) -> str:
    """The line of the screen with the quartile cursor's mark, from the mark on."""
    panel = app.query_one(QuartilesPanel)
    x = panel.region.x
    (line,) = [s[x:] for s in screen_lines(app)[panel.region.y : panel.region.bottom] if s[x:].startswith(CURSOR)]
    return line


def _bar(app: RankboardApp, selector: str) -> bool:
    """Whether the widget ``selector`` has the focus bar down its left edge on screen."""
    region = app.query_one(selector).region
    lines = screen_lines(app)[region.y : region.bottom]
    return all(line[region.x] == BAR for line in lines)


async def test_the_quartile_view_has_a_cursor_and_c_and_space_act_on_its_learner() -> None:
    """Before: no cursor in view 1; c and space there said "move the cursor ... first"."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        panel = app.query_one(QuartilesPanel)
        assert app.focused is panel
        overall = list(app.analysis.quartiles.rows)[:5]  # the overall chart, best first
        first, second = (str(r.learner) for r in overall[:2])

        def shows(name: str) -> bool:  # the name after the SK rank, whole or cut in the middle
            shown = _cursor_line(app)[1:].split()[1]
            return shown[:3] == name[:3] and shown[-3:] == name[-3:]

        assert panel.learner_under_cursor() == first and shows(first)
        await press(pilot, "j")
        assert panel.learner_under_cursor() == second and shows(second)
        await press(pilot, "c")
        assert app.selection.control == second
        for _ in range(4):  # past the overall chart's last row: into the next chart's first row
            await press(pilot, "j")
        scope = app.analysis.quartiles.scopes[1]
        assert panel._under_cursor() == (scope, str(app.analysis.quartiles.rows[5].learner))
        await press(pilot, "k", "k", "k")  # back in the overall chart, on its third learner
        third = str(overall[2].learner)
        assert panel.learner_under_cursor() == third
        await press(pilot, "space")
        assert third not in app.selection.learners
        assert panel.learner_under_cursor() != third  # the cursor stays in place, on the next row
        await press(pilot, "end")
        lines = panel._lines
        assert panel.cursor == lines.rows - 1 and CURSOR in "".join(screen_lines(app))  # scrolled to it
        await press(pilot, "home")
        assert panel.cursor == 0

    await drive(scenario, size=SMALL)


async def test_the_focused_pane_has_a_mark_without_colour() -> None:
    """Before: nothing but a colour told the focused pane (lost under NO_COLOR)."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        for view in ("1", "2", "3", "4", "5", "6"):
            await press(pilot, view)
            assert _bar(app, "#main"), view
        await focus_list(pilot, "learners", "KNN")
        assert not _bar(app, "#main") and _bar(app, "#learners") and not _bar(app, "#datasets")
        await press(pilot, "2")
        assert _bar(app, "#main") and not _bar(app, "#learners")
        await focus_list(pilot, "learners", "KNN")
        await press(pilot, "2")  # the view on screen already: its keys back from the sidebar
        assert app.focused is app.query_one("#ranks-table") and _bar(app, "#main")

    await drive(scenario, size=SMALL)
