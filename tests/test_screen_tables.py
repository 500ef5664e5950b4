"""Issue 11: every number of every table view is reachable on screen at 80x24, never cut off.

Read from the composed screen (what the terminal shows), not from the widgets' data.
"""

from __future__ import annotations

from tests.test_app import SMALL, drive, make_app, press, screen_lines, settle
from tui.app._app import RankboardApp
from tui.widgets._table import VimTable

MARKS = "\u2039\u203a"  # VimTable.MORE_LEFT, MORE_RIGHT: more columns to the left / right


def _cells_on_screen(app: RankboardApp, table: VimTable) -> dict[tuple[int, int], str]:
    """What the screen shows at each (row, column) cell of ``table`` that lies whole inside the
    table's region (a cell running past the region's right edge is not there; only the last
    column's right padding may be cut)."""
    lines = screen_lines(app)
    region = table.scrollable_content_region
    widths = [c.get_render_width(table) for c in table.ordered_columns]
    starts = [sum(widths[:i]) for i in range(len(widths))]
    sx, sy = int(table.scroll_x), int(table.scroll_y)
    shown = {}
    for row in range(-1, table.row_count):  # -1: the header
        y = region.y + (0 if row < 0 else table.header_height + row - sy)
        if not region.y <= y < region.bottom:
            continue
        for col in range(len(widths)):
            x = region.x + starts[col] - (0 if col < table.fixed_columns else sx)
            if x >= region.x + sum(widths[: table.fixed_columns]) or col < table.fixed_columns:
                pad = table.cell_padding if col == len(widths) - 1 else 0  # the last one's may be cut
                if x + widths[col] - pad <= region.right:
                    shown[(row, col)] = lines[y][x : min(x + widths[col], region.right)]
    return shown


def _expected(table: VimTable, row: int, col: int) -> str:
    if row < 0:
        return table.ordered_columns[col].label.plain.strip()
    value = table.get_row_at(row)[col]
    return getattr(value, "plain", str(value)).strip()


async def assert_every_cell_reachable(pilot, table: VimTable) -> None:  # noqa: ANN001
    """Move the cursor from the first column to the last: every cell of every column is shown
    whole at its place at some point, the name column always; no part of a column is drawn."""
    app = pilot.app
    assert app.focused is table
    await press(pilot, "home")
    seen: set[tuple[int, int]] = set()
    for _ in range(len(table.columns)):
        shown = _cells_on_screen(app, table)
        rows = {r for r, _ in shown}
        for (row, col), text in shown.items():
            text = text.strip(" " + MARKS).strip() if row < 0 else text.strip()
            assert text == _expected(table, row, col), (row, col, text)
            seen.add((row, col))
        assert all((r, 0) in shown for r in rows)  # the names stay
        header = screen_lines(app)[table.scrollable_content_region.y]
        labels = {_expected(table, -1, c) for c in range(len(table.columns))}
        inside = header[table.scrollable_content_region.x : table.scrollable_content_region.right]
        for word in inside.translate({ord(m): " " for m in MARKS}).split():
            assert any(word in label.split() for label in labels), word  # no label cut
        await press(pilot, "right")
    every = {(r, c) for r in range(-1, table.row_count) for c in range(len(table.columns))}
    assert every <= seen, sorted(every - seen)


async def test_every_column_of_the_control_table_is_reachable_at_80x24() -> None:
    """Before: the control table was text in a pane 64 columns wide: hommel .. li never on screen."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        table = app.query_one("#control-table", VimTable)
        columns = [table.ordered_columns[c].label.plain for c in range(len(table.columns))]
        assert columns[1:] == ["z", "p", "bonferroni", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li"]
        await assert_every_cell_reachable(pilot, table)

    await drive(scenario, size=SMALL)


async def test_every_column_of_the_ranks_and_pairs_tables_is_reachable_at_80x24() -> None:
    """Before: the rightmost column was drawn cut (`LogisticRe`), and End showed part of a column
    at the left edge (`ree  KNN`)."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "2")
        await assert_every_cell_reachable(pilot, app.query_one("#ranks-table", VimTable))
        await press(pilot, "end")
        await assert_every_cell_reachable(pilot, app.query_one("#ranks-table", VimTable))
        await press(pilot, "4")
        await assert_every_cell_reachable(pilot, app.query_one("#pairs-table", VimTable))
        await press(pilot, "tab")
        await assert_every_cell_reachable(pilot, app.query_one("#contrast-table", VimTable))

    await drive(scenario, size=SMALL)


def _text_in(app: RankboardApp, selector: str) -> str:
    """The words shown inside the widget ``selector``'s region, lines joined by a space."""
    region = app.query_one(selector).region
    lines = screen_lines(app)[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right].split()) for line in lines)


async def test_the_lines_around_the_tables_wrap_at_80_columns() -> None:
    """Before: `Wilcoxon T = 13.500 (R+ = 13.5, R- = 31.5, N = 9), z = -1.067, p` -- the p cut off;
    the control table's legend and the safety notice ran off the right edge too."""

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "4")
        pairs = app.analysis.pairs
        detail = _text_in(app, "#pairs-detail")
        for result in (pairs.wilcoxon, pairs.sign):
            assert " ".join(str(result).split()) in detail, detail
        await press(pilot, "3")
        tests = app.analysis.tests
        assert _text_in(app, "#control-head").endswith("are marked * (z and raw p never)")
        # the omnibus table's tie-corrected row (issue 16) leaves the notice's last line below 24 rows:
        # scrolled into view, it must be whole (wrapped, not cut at the right edge)
        app.query_one("#tests-safety").scroll_visible(animate=False)
        await settle(pilot)
        assert " ".join(tests.safety.split()) in _text_in(app, "#tests-safety")

    await drive(scenario, size=SMALL)


async def test_y_copies_the_value_under_the_cursor_in_every_table_view() -> None:
    """Before: y copied only in the ranks view ("move the cursor to a cell of the ranks table").
    Issue 28: y copies the bare value at full precision; the sentence saying what it is stays on
    the line under the table (before, y copied the sentence)."""
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        copied: list[str] = []
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]

        async def copy(line: str) -> tuple[str, str]:
            """(what y copied, the line under the table)."""
            await press(pilot, "y")
            return copied[-1], app.query_one(line).plain

        await press(pilot, "3", "right", "right", "right", "right")  # KNN's holm APV
        tests = app.analysis.tests
        learner = str(tests.control_table.index[0])
        holm = float(tests.control_table.loc[learner, "holm"])
        sentence = f"{learner} vs {tests.control}: holm APV {holm!r}"
        assert await copy("#control-exact") == (repr(holm), sentence + "   (y copies the value)")
        await press(pilot, "left", "left", "left")  # z: a statistic, named as such
        z = float(tests.control_table.loc[learner, "z"])
        sentence = f"{learner} vs {tests.control}: z {z!r}"
        assert await copy("#control-exact") == (repr(z), sentence + "   (y copies the value)")

        await press(pilot, "4", "j", "right")  # the matrix: row 2, column 1
        pairs = app.analysis.pairs
        a, b = (str(x) for x in pairs.matrix.index[:2])
        apv = float(pairs.matrix.iloc[1, 0])
        value, line = await copy("#pairs-exact")
        assert (value, line) == (repr(apv), f"{b} vs {a}: Holm APV {apv!r}   (y copies the value)")
        await press(pilot, "tab", "right")  # the contrast table, row 1, column 1
        assert app.focused is app.query_one("#contrast-table")
        contrast = float(pairs.contrast.iloc[0, 0])
        value, line = await copy("#contrast-exact")
        assert value == repr(contrast) and line.startswith(f"{a} - {a}: contrast (median of differences) {contrast!r}")

        await press(pilot, "6")  # the folds totals: a learner's row, its numbers tab-separated
        folds = app.analysis.folds
        first = folds.totals.iloc[0]
        value, line = await copy("#folds-detail")
        assert value.split("\t") == [
            *(str(int(first[c])) for c in ("wins", "ties", "losses", "datasets")),
            *(repr(float(first[c])) for c in ("p_better", "p_equivalent", "p_worse")),
        ]
        assert line.startswith(f"{folds.totals.index[0]} vs {folds.control}: w/t/l ")
        assert f"P(better) {float(first['p_better'])!r}" in line
        await press(pilot, "tab")  # the per-data-set table: every number of the row
        row = folds.table.iloc[0]
        value, line = await copy("#folds-detail")
        assert value.split("\t")[0] == repr(float(row["mean_difference"]))
        assert value.split("\t")[2] == repr(float(row["pvalue"]))
        assert f"mean diff {float(row['mean_difference'])!r}" in line and f"p {float(row['pvalue'])!r}" in line

        await press(pilot, "1")  # no table here: it says so
        before = len(copied)
        await press(pilot, "y")
        assert len(copied) == before
        assert list(app._notifications)[-1].message.startswith("nothing to copy here")


async def test_a_pane_follows_its_tables_cursor_and_a_view_opens_at_its_top(tmp_path) -> None:  # noqa: ANN001
    """20 learners: the control table is taller than the pane; moving down its rows scrolls the
    pane with the cursor (the table has no scroll of its own), and the pairs view, shown, opens at
    its top (a layout-time scroll to a stale position hid its header: 1 run in 2 before)."""
    from tests.test_app import _long_names_log

    app = make_app([str(_long_names_log(tmp_path))])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "3")
        table = app.query_one("#control-table", VimTable)
        for _ in range(table.row_count - 1):
            await press(pilot, "j")
        learner = str(list(table.rows)[table.cursor_row].value)
        assert learner in "\n".join(screen_lines(app)), learner
        await press(pilot, "4")
        assert app.query_one("#pairs").scroll_y == 0
        assert "adjusted p-values (APVs)" in "\n".join(screen_lines(app))


async def test_row_tables_scroll_a_whole_column_at_a_time_with_their_names_frozen(tmp_path) -> None:  # noqa: ANN001
    """The folds view's tables have a row cursor: Right scrolled them by a few cells, so the
    learner column went off screen and the first column shown was a part of one (20-character
    names at 80 columns)."""
    from tests.test_app import _long_names_log

    app = make_app([str(_long_names_log(tmp_path))])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "6")
        for table_id, names in (("folds-totals", 1), ("folds-table", 2)):
            table = app.query_one(f"#{table_id}", VimTable)
            if app.focused is not table:
                await press(pilot, "tab")
            assert app.focused is table
            labels = [c.label.plain for c in table.ordered_columns]
            seen: set[str] = set()
            for _ in range(len(labels)):
                region = table.scrollable_content_region
                header = screen_lines(app)[region.y][region.x : region.right]
                words = header.translate({ord(m): " " for m in MARKS}).split()
                assert all(any(w in label.split() for label in labels) for w in words), header  # none cut
                assert all(label in header for label in labels[:names]), header  # the names stay
                seen |= {label for label in labels if label and label in header}
                await press(pilot, "right")
            assert seen == {label for label in labels if label}, (labels, seen)


def _cut_of(shown: str, name: str) -> bool:
    """Whether ``shown`` is ``name`` or ``name`` cut in the middle (its start, an ellipsis, its end)."""
    head, cut, tail = shown.partition("\N{HORIZONTAL ELLIPSIS}")
    return shown == name or bool(cut) and name.startswith(head) and name.endswith(tail) and len(shown) < len(name)


async def test_the_cd_diagram_and_quartile_names_of_20_long_names_fit_80_columns(tmp_path) -> None:  # noqa: ANN001
    """20 learners with 20-character names sharing a prefix, at 80x24 with the sidebar open: the
    CD diagram was drawn 99 columns wide, so each of its lines folded in two ("12.104" alone on a
    line, the name rows broken); the quartile view cut names at the end (``classifier_t…``), where
    a family's names do not differ. Now the diagram's names are cut in the middle, distinct, and
    every line fits the pane; the quartile view's names too."""
    import re

    from tests.test_app import _long_names_log
    from tui.views.cd.panel import CDPanel

    app = make_app([str(_long_names_log(tmp_path))])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        learners = list(app.model.learners)
        await press(pilot, "5")
        panel = app.query_one(CDPanel)
        lines = panel.plain.splitlines()
        assert max(len(line) for line in lines) <= panel.parent.content_size.width
        assert panel.size.width <= panel.parent.content_size.width  # no sideways scroll needed
        name = r"([\w\N{HORIZONTAL ELLIPSIS}]+)"
        shown = re.findall(rf"{name} \(\d+\.\d\d\)|\(\d+\.\d\d\) {name}", "\n".join(lines))
        names = [a or b for a, b in shown]
        assert len(names) == 20 and len(set(names)) == 20, names  # one row per learner, none folded
        # issue 28: the prefix all share ("classifier_") is dropped and said once, the rest cut in
        # the middle when it must be: each shown name is the start and the end of its name's rest
        stripped = {n[len("classifier_") :] for n in learners}
        assert all(any(_cut_of(shown, rest) for rest in stripped) for shown in names), names
        assert "learners: 'classifier_' before each" in panel.plain
        screen = "\n".join(screen_lines(app))
        assert all(n in screen for n in names)  # what the panel draws is what the screen shows
        await press(pilot, "1")
        from tui.views.quartiles.panel import QuartilesPanel

        lines = app.query_one(QuartilesPanel).plain.splitlines()
        start = next(i for i, line in enumerate(lines) if line.split()[:3] == ["SK", "learner", "n"]) + 1
        first = [line.lstrip("\u25b8 ").split()[1] for line in lines[start : start + 20]]  # after the SK rank
        assert len(set(first)) == 20 and all(any(_cut_of(n, rest) for rest in stripped) for n in first), first
        assert {n[-4:] for n in first} == {name[-4:] for name in learners}  # the ends that differ are kept
