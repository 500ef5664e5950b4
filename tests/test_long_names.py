"""Issue 28 item 1: names as hyperparameter sweeps write them (``GradientBoosting-learning_rate=0.1-
max_depth=3``) leave every table's numbers on screen at 80x24 and 120x40; ``n`` shows them whole.

The log is ``tests/data/sweep.dat`` (12 learners, 30 data sets; ``tests/data/make_sweep.py``).
Before, at 80x24: the ranks table showed one learner column, whose header was the whole name over
blank cells; the pairs matrix showed no p-value; the tests view's control table only ``z``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_app import LARGE, SMALL, make_app, press, screen_lines, settle
from tui.widgets import VimTable

SWEEP = Path(__file__).parent / "data" / "sweep.dat"
LONGEST = "GradientBoosting-learning_rate=0.01-max_depth=5"
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
NUMBER = re.compile(r"\d\.\d{3} \(\d+(\.5)?\)")  # a ranks cell: "0.925 (3)"
P_VALUE = re.compile(r"(\d\.\d{4}|\d\.\d{3}e-\d\d)\*?")


def _cut_of(shown: str, name: str) -> bool:
    """Whether ``shown`` is ``name`` or ``name`` cut in the middle (its start, an ellipsis, its end)."""
    head, cut, tail = shown.partition(ELLIPSIS)
    return shown == name or bool(cut) and name.startswith(head) and name.endswith(tail) and len(shown) < len(name)


def _shown_columns(table: VimTable) -> list[str]:
    """The headers of the scrolled columns shown whole (the fixed name column left out)."""
    first, last = table.visible_columns()
    return [table.ordered_columns[c].label.plain for c in range(first, last)]


# -- the rule -----------------------------------------------------------------------------------


def test_shared_beginnings_and_ends_are_dropped_at_separators_only() -> None:
    from tui.formats.names import shared_ends

    assert shared_ends(["RandomForest-n_estimators=100", "RandomForest-n_estimators=1000"]) == (
        "RandomForest-n_estimators=",
        "",
    )
    assert shared_ends(["knn-k=3-scaled", "knn-k=15-scaled"]) == ("knn-k=", "-scaled")
    assert shared_ends(["nb", "nbc"]) == ("", "")  # "nb" is not a separator's end
    assert shared_ends(["x-1", "x-1-y"]) == ("x-", "")  # every name keeps a character
    assert shared_ends(["only-one"]) == ("", "")


def test_fitted_names_stay_distinct_and_say_what_was_dropped() -> None:
    from tui.formats.names import fit_names

    names = [line.split(",")[3] for line in SWEEP.read_text().splitlines()[:24:2]]
    assert len(set(names)) == 12
    for width in range(6, 30):
        fitted = fit_names(names, width)
        assert len(set(fitted.shown.values())) == 12  # never two names alike
        assert all(_cut_of(fitted[n], n) for n in names)
        assert all(len(fitted[n]) <= max(width, 6) or fitted[n] == n for n in names) or width < 10
    family = fit_names(["RandomForest-n_estimators=100", "RandomForest-n_estimators=1000"], 10)
    assert family.shown == {"RandomForest-n_estimators=100": "100", "RandomForest-n_estimators=1000": "1000"}
    assert family.legend("learners") == "learners: 'RandomForest-n_estimators=' before each (n: full names)"
    assert fit_names(names, 200).legend() == ""  # whole: nothing to say
    assert fit_names(names, 10, full=True).shown == {n: n for n in names}


def test_table_headers_take_no_more_than_their_numbers_and_three_columns_fit() -> None:
    from tui.formats.names import fit_table

    names = [f"GradientBoosting-learning_rate=0.{i}-max_depth={i}" for i in range(1, 7)]
    rows, heads = fit_table(names, names, [11] * 6, 60)
    assert all(len(heads[n]) <= 12 for n in names)  # the numbers' width, or 12 (a DecisionTree)
    label = max(len(rows[n]) for n in names)
    assert label + 3 * (12 + 2) + 2 <= 60  # the labels and three number columns
    assert fit_table(["x"], ["DecisionTree", "RandomForest", "nb"], [6, 6, 6], 30)[1]["DecisionTree"] == "DecisionTree"
    whole_rows, whole_heads = fit_table(names[:2], names[:2], [11, 11], 200)
    assert whole_heads[names[0]] == names[0] and whole_rows[names[1]] == names[1]  # room: whole


# -- the app at 80x24 and 120x40 -------------------------------------------------------------------


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_ranks_table_shows_three_learner_columns_of_numbers(size: tuple[int, int]) -> None:
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "2")
        table = app.query_one("#ranks-table", VimTable)
        headers = _shown_columns(table)
        assert len(headers) >= (3 if size == SMALL else 5), headers
        screen = "\n".join(screen_lines(app))
        row = next(line for line in screen.splitlines() if "adult" in line and "(" in line)
        assert len(NUMBER.findall(row)) >= len(headers) >= 3, row  # a number under each header
        # `<` on the average-rank row, then Home: the header is a name over numbers, not blank cells
        keys = [str(key.value) for key in table.rows]
        table.move_cursor(row=keys.index("\0average"), column=1)
        await press(pilot, "less_than_sign", "home")
        headers = _shown_columns(table)
        learners = list(app.analysis.ranks.medians.columns)
        assert len(headers) >= 3 and all(any(_cut_of(h.rstrip(" ↑↓"), n) for n in learners) for h in headers)
        rows = [line for line in screen_lines(app) if NUMBER.search(line)]  # the data sets' rows shown
        assert len(rows) >= 10 and all(len(NUMBER.findall(row)) >= 3 for row in rows), rows


async def test_the_pairs_matrix_shows_p_values_at_80x24() -> None:
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "4")
        table = app.query_one("#pairs-table", VimTable)
        assert len(_shown_columns(table)) >= 3
        screen = screen_lines(app)
        row = next(line for line in screen if "SVC" in line and "*" in line)  # a rejected pair's row
        assert len(P_VALUE.findall(row.split("▕▌")[-1])) >= 3, row
        await press(pilot, "right", "right", "right")  # a column at a time: still three shown
        assert len(_shown_columns(table)) >= 3


async def test_the_tests_control_table_shows_apv_columns_and_their_marks_at_80x24() -> None:
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "3")
        table = app.query_one("#control-table", VimTable)
        headers = _shown_columns(table)
        assert headers[:3] == ["z", "p", "bonferroni"], headers  # an APV column and its * on screen
        assert any(cell.plain.endswith("*") for cell in table.get_column_at(3))


async def test_n_shows_names_whole_and_fitted_again() -> None:
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "2")
        table = app.query_one("#ranks-table", VimTable)
        labels = [c.label.plain for c in table.ordered_columns[1:]]
        assert LONGEST not in labels and any(ELLIPSIS in label for label in labels)
        await press(pilot, "n")
        await settle(pilot)
        labels = [c.label.plain for c in app.query_one("#ranks-table", VimTable).ordered_columns[1:]]
        assert LONGEST in labels  # whole (the table scrolls sideways)
        await press(pilot, "5")
        await settle(pilot)
        assert LONGEST in app.query_one("#cd").query_one("CDPanel").plain  # every view: whole
        await press(pilot, "n")
        await settle(pilot)
        assert LONGEST not in app.query_one("#cd").query_one("CDPanel").plain
        await press(pilot, "2")
        labels = [c.label.plain for c in app.query_one("#ranks-table", VimTable).ordered_columns[1:]]
        assert LONGEST not in labels


async def test_cd_labels_are_distinct_on_screen() -> None:
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "5")
        plain = app.query_one("#cd").query_one("CDPanel").plain
        shown = re.findall(r"^ *(\S+) \(\d+\.\d\d\)|\(\d+\.\d\d\) (\S+)$", plain, flags=re.M)
        names = [a or b for a, b in shown]
        assert len(names) == 12 and len(set(names)) == 12, names


# -- text reports ----------------------------------------------------------------------------------


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from tui.cli import main

    assert main(["report", str(SWEEP), *args]) == 0
    return capsys.readouterr().out


def _cd_names(text: str) -> list[str]:
    shown = re.findall(r"^ *(\S+) \(\d+\.\d\d\) ─|─ \(\d+\.\d\d\) (\S+)$", text, flags=re.M)
    return [a or b for a, b in shown]


@pytest.mark.parametrize("view", ["ranks", "pairs", "tests", "folds", "quartiles", "cd"])
def test_a_text_report_fits_its_tables_to_the_terminal(view: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--width 80`` (a terminal's): every table line fits (the sentences are prose: the terminal
    wraps them); names fitted by the app's rule and said so; wide tables wrapped into blocks."""
    text = _report(capsys, "--view", view, "--width", "80")
    tables = [line for line in text.splitlines() if "  " in line.strip() or line.endswith("]") or "─" in line]
    assert tables and all(len(line) <= 80 for line in tables), [line for line in tables if len(line) > 80]
    assert "learners: cut in the middle to fit" in text or view == "tests"  # (its names fit 80 columns)
    if view == "cd":
        names = _cd_names(text)
        assert len(names) == 12 and len(set(names)) == 12, names


def test_a_text_report_to_a_pipe_or_a_wide_terminal_keeps_names_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the CD diagram cut names to 16 characters even with COLUMNS=200."""
    piped = _report(capsys, "--view", "cd")  # (captured: not a terminal)
    assert sorted(_cd_names(piped)) == sorted(n.split(",")[3] for n in SWEEP.read_text().splitlines()[:24:2])
    assert LONGEST in _report(capsys, "--view", "ranks")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "200")
    wide = _report(capsys, "--view", "cd")
    assert LONGEST in _cd_names(wide) and max(len(line) for line in wide.splitlines()) <= 200
    monkeypatch.setenv("COLUMNS", "80")
    narrow = _report(capsys, "--view", "cd")
    assert LONGEST not in narrow and len(set(_cd_names(narrow))) == 12


async def test_the_quartile_chart_scrolls_sideways_by_a_column_with_full_names() -> None:
    """Before: Right scrolled the chart one cell a press."""
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        await settle(pilot)
        panel = app.query_one("#quartiles")
        assert panel.max_scroll_x > 0 and LONGEST in panel.plain  # whole names: wider than the pane
        header = next(line for line in panel.plain.splitlines() if line.split()[:2] == ["SK", "learner"])
        starts = [i for i, ch in enumerate(header) if ch != " " and (i == 0 or header[i - 1] == " ")]
        await press(pilot, "right")
        assert int(panel.scroll_x) == min(starts[1], panel.max_scroll_x) > 1  # the learner column's start
        await press(pilot, "right")
        assert int(panel.scroll_x) == min(starts[2], panel.max_scroll_x)
        await press(pilot, "left", "left")
        assert int(panel.scroll_x) == 0


async def test_the_folds_table_keeps_five_rows_at_80x24() -> None:
    """Before: the per-data-set table of the folds view got one row at 80x24 (0 in the issue's
    log), under the totals and above the row's sentence."""
    app = make_app([str(SWEEP)])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "6")
        await settle(pilot)
        table = app.query_one("#folds-table", VimTable)
        assert table.row_count > 5 and table.region.height - 1 >= 5  # (the header's line)
        shown = [line for line in screen_lines(app) if re.search(r"-?\d\.\d{4} +\d\.\d{4}", line)]
        assert len(shown) >= 5, screen_lines(app)
