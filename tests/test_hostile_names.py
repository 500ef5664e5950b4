"""Hostile names (issue 12): a malicious log must not drive the terminal or a spreadsheet, in any
output. tests/data/hostile_names.dat holds learners and data sets named with terminal escapes
(OSC title, clear screen, OSC 52 clipboard, SGR colour, a C1 CSI), Rich markup (colour, a link,
an app.quit action), spreadsheet formulas, LaTeX specials and a right-to-left override."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

import stats
from stats.core.names import printable, spreadsheet_safe
from tests.conftest import DATA
from tests.test_app import make_app, press, settle
from tui.cli import main
from tui.model import Model
from tui.registry import names
from tui.render._csv import csv_text, export_frame
from tui.render._report import render_report

#: The views every log has (the learning curves need a sequence study).
VIEWS = tuple(n for n in names() if n != "curves")

HOSTILE = DATA / "hostile_names.dat"
#: What must never be written: C0 controls but tab and newline, DEL, C1 controls, bidi overrides.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
FORMULAS = ("=cmd|'/c calc'!A1", "+SUM(A1)", "@x", "-2+3", '=HYPERLINK("http://x")')


@pytest.fixture(scope="module")
def model() -> Model:
    return Model(stats.read_logs(HOSTILE, on_error="skip"))


def test_the_log_is_as_hostile_as_it_says(model: Model) -> None:
    names = [*model.learners, *model.datasets]
    assert sum(bool(UNSAFE.search(n)) for n in names) == 7  # escapes, C1 CSI, the bidi override
    assert "[@click=app.quit]q[/]" in names and "=cmd|'/c calc'!A1" in names


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json"])
def test_no_report_writes_a_control_character(model: Model, fmt: str) -> None:
    # Before: 69 ESC and 38 BEL bytes in the text report (70/39 markdown, 69/38 LaTeX).
    out = render_report(model, model.default_selection(), view="all", fmt=fmt)
    assert not UNSAFE.search(out), UNSAFE.findall(out)[:5]
    if fmt == "json":  # for programs: the encoder escapes (\u001b), and the name round-trips
        assert "\x1b]0;pwned\x07" in json.loads(out)["learners"]
    elif fmt != "latex":  # (LaTeX: the next test)
        assert printable("\x1b]0;pwned\x07") in out


def test_latex_escapes_the_escape_sequences_as_text(model: Model) -> None:
    out = render_report(model, model.default_selection(), view="ranks", fmt="latex")
    assert r"\textbackslash{}x1b{]}0;pwned\textbackslash{}x07" in out  # shown, and no \x1b command


@pytest.mark.parametrize("view", VIEWS)
def test_csv_neutralises_formulas_and_control_characters(model: Model, view: str) -> None:
    # Before: =cmd|'/c calc'!A1, +SUM(A1) and @x were left as they are (CSV injection).
    text = render_report(model, model.default_selection(), view=view, fmt="csv")
    assert not UNSAFE.search(text)
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    for cell in cells:
        assert not (cell.startswith(("=", "+", "@")) or (cell.startswith("-") and not _number(cell))), cell
    raw = render_report(model, model.default_selection(), view=view, fmt="csv", raw_csv=True)
    assert not UNSAFE.search(raw)
    raw_cells = {c for row in csv.reader(io.StringIO(raw)) for c in row}
    present = [f for f in FORMULAS if any(f in c for c in raw_cells)]
    assert present  # every view names some learners or data sets
    for formula in present:
        assert any(c.startswith("'" + formula) for c in cells)  # neutralised by default ...
        assert any(c.startswith(formula) for c in raw_cells)  # ... as written with --raw-csv


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_spreadsheet_safe_leaves_numbers_alone() -> None:
    assert spreadsheet_safe("-0.5") == "-0.5" and spreadsheet_safe("+1e-3") == "+1e-3"
    assert spreadsheet_safe("\tx") == "'\\x09x" and spreadsheet_safe("\rx") == "'\\x0dx"
    assert spreadsheet_safe(0.5) == 0.5


def test_the_command_line_escapes_names_and_takes_raw_csv(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(HOSTILE), "--view", "ranks", "--format", "csv", "--raw-csv"]) == 0
    out, err = capsys.readouterr()
    assert "=cmd|'/c calc'!A1 median" in out and not UNSAFE.search(out + err)
    assert main(["report", str(HOSTILE), "--view", "ranks", "--learners", "\x1b[2Jnope"]) == 2
    out, err = capsys.readouterr()
    assert not UNSAFE.search(out + err) and "\\x1b[2Jnope" in err  # the error message quotes it escaped


def test_check_warns_about_each_name_with_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(HOSTILE)]) == 0  # warnings, not errors: the data are kept
    out = capsys.readouterr().out
    assert not UNSAFE.search(out)
    warned = [line for line in out.splitlines() if "warning: name contains control characters" in line]
    assert len(warned) == 7
    assert f"{HOSTILE}:1: warning: name contains control characters: learner '\\x1b]0;pwned\\x07'" in out
    assert "learner 'safe\\u202eexe.txt'" in out


async def test_the_app_shows_hostile_names_literally(tmp_path: Path) -> None:
    app = make_app([str(HOSTILE)])
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await press(pilot, "2", "n")  # whole names (n): 14 learners' columns do not fit 200 columns
        await settle(pilot)
        table = app.query_one("#ranks-table")
        headers = [str(c.label) for c in table.columns.values()]
        assert "[@click=app.quit]q[/]" in headers and "[red]x[/red]" in headers  # markup shown, not run
        assert "\\x1b]0;pwned\\x07" in headers and "safe\\u202eexe.txt" in headers
        for key in "12345":
            await press(pilot, key)
        await pilot.click("#ranks-table")  # a click on a cell holding [@click=app.quit] ...
        assert app.is_running  # ... quits nothing
        app.notify("export failed: \x1b]52;c;cHduZWQ=\x07 [b]x[/b]")
        await pilot.pause()
        message = list(app._notifications)[-1].message
        assert message == "export failed: \\x1b]52;c;cHduZWQ=\\x07 [b]x[/b]"
        frame = export_frame(app.analysis, "ranks")
        written = tmp_path / "x.csv"
        app._write(frame, written, overwrite=False)
        assert written.read_text() == csv_text(frame) and "'=cmd|" in written.read_text()
        app._write(frame, written, overwrite=True, raw=True)
        assert "\n" in written.read_text() and ",=cmd|" in written.read_text().replace('"', "")
        assert not UNSAFE.search(written.read_text())
