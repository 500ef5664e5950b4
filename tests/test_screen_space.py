"""Issue 28, item 7 and the control mark of item 8/9: screen space at 80x24 and 120x40.

* The problems panel is one line until ``w`` opens it (it took 5 of 24 lines, pushing the end of
  the views off the screen).
* With a long control name the status line keeps the criterion, its direction, the control, alpha
  and the procedure, cutting the name in the middle instead of dropping fields.
* The default control (the best-ranked learner, before any ``c``) is marked ``[c]`` in the
  sidebar, as a control chosen with ``c`` is.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.test_app import LARGE, SMALL, drive, focus_list, make_app, press, screen_lines
from tui.cli import main
from tui.formats.names import middle_ellipsis
from tui.widgets._problems import ProblemsPanel, summary
from tui.widgets._sidebar import NameList
from tui.widgets._status import StatusLine

SWEEP = Path(__file__).resolve().parent / "data" / "sweep.dat"
#: The control the sweep's accuracies make the default (the best average rank): the long name of
#: the issue. Checked against the log itself in test_the_default_control_is_marked_in_the_sidebar.
LONG = "GradientBoosting-learning_rate=0.1-max_depth=3"
#: A second log: one good line, then three bad ones (a line too short, a value that is not a
#: number, a fold that is not an integer).
BAD_LINES = [
    f"adult,1,11,{LONG},acc,0.93",
    "adult,1,12,SVC-kernel=rbf-C=10.0,acc",
    "adult,1,12,SVC-kernel=rbf-C=10.0,acc,high",
    "adult,1,x,SVC-kernel=rbf-C=10.0,acc,0.5",
]


@pytest.fixture
def bad_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The second log, named relative to the working directory (short problem lines)."""
    monkeypatch.chdir(tmp_path)
    path = Path("extra.dat")
    path.write_text("\n".join(BAD_LINES) + "\n")
    return path


def _checked(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The problems ``rankboard check`` names for ``path`` (the app lists the same lines)."""
    assert main(["check", str(path)]) == 1
    return capsys.readouterr().out.split("\n\n", 1)[0].splitlines()


def _row_of(app, widget) -> str:  # noqa: ANN001
    """The screen line a one-line widget is drawn on."""
    return screen_lines(app)[widget.region.y]


async def test_the_problems_panel_is_one_line_until_w_opens_it(
    bad_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = _checked(bad_log, capsys)
    assert len(problems) == 3 and all(p.startswith(f"{bad_log}:") for p in problems)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        width, height = SMALL
        panel = app.query_one(ProblemsPanel)
        body, status = app.query_one("#body"), app.query_one(StatusLine)
        await press(pilot, "2")  # the ranks table: one row a data set, as many as the body holds
        table = app.query_one("#ranks-table")
        assert panel.region.height == 1  # folded: one line ...
        assert body.region.height == height - 3  # ... and the views keep every other (status, footer)
        assert panel.region.bottom == status.region.y
        folded, whole = _row_of(app, panel).strip(), f"3 problems in 1 file (w shows them); last: {problems[-1]}"
        assert folded == whole or (folded.endswith("…") and whole.startswith(folded[:-1])), folded  # (cut at the edge)
        rows_folded = table.region.height
        await press(pilot, "w")
        assert panel.has_class("-open") and panel.region.height == 1 + len(problems)
        screen = "\n".join(screen_lines(app))
        assert all(p in screen for p in problems)  # every problem, one a line
        await press(pilot, "w")
        assert panel.region.height == 1 and body.region.height == height - 3
        assert table.region.height == rows_folded

    await drive(scenario, size=SMALL, app=make_app([str(SWEEP), str(bad_log)]))


def test_the_folded_line_counts_problems_and_files() -> None:
    problems = ["a.dat:3: value 'x' is not a number", "a.dat:9: expected 6 fields, found 5", "b: c.dat: empty file"]
    assert summary(problems) == "3 problems in 2 files"  # a.dat, and the file "b" (whole-file problem)
    assert summary(problems[:1]) == "1 problem in 1 file"
    folded = ProblemsPanel.folded(["x.dat:1: [red]boom"]).plain
    assert folded.endswith("last: x.dat:1: [red]boom")  # literal: a name is never markup


def _shown_status(app) -> str:  # noqa: ANN001
    line = app.query_one(StatusLine)
    return _row_of(app, line)[line.region.x :].strip()


def _assert_keeps_the_selection(shown: str, width: int, procedure: str) -> None:
    """The line fits and holds the criterion, its direction, the control (whole or cut in the
    middle, never below 7 characters), alpha, the procedure and the state."""
    assert len(shown) <= width, shown
    fields = shown.split(" | ")
    assert fields[0] == "acc higher" and fields[-1] == "paused", shown
    controls = [f[3:] for f in fields if f.startswith("vs ")]
    assert len(controls) == 1, shown
    cut = controls[0]
    assert cut == LONG or (len(cut) >= 7 and cut == middle_ellipsis(LONG, len(cut))), shown
    assert "a=0.05" in fields or "alpha 0.05" in fields, shown
    assert procedure in fields, shown


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_the_status_line_cuts_a_long_control_instead_of_dropping_fields(size: tuple[int, int]) -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        width = size[0] - 2  # (the line's padding)
        assert app.analysis.control == LONG
        _assert_keeps_the_selection(_shown_status(app), width, "holm")
        await press(pilot, "m", "m", "m")  # the longest procedure name leaves less room
        assert app.selection.procedure == "wilcoxon-holm"
        _assert_keeps_the_selection(_shown_status(app), width, "wilcoxon-holm")
        if size == SMALL:
            assert LONG not in _shown_status(app)  # cut: it cannot fit whole at 80 columns
            return
        # at 120 columns a filter (never dropped) leaves less room still
        await press(pilot, "slash", *"GradientBoosting", "enter")
        shown = _shown_status(app)
        _assert_keeps_the_selection(shown, width, "wilcoxon-holm")
        assert "/GradientBoosting" in shown.split(" | ")

    await drive(scenario, size=size, app=make_app([str(SWEEP)]))


def _best_ranked(path: Path, criterion: str) -> str:
    """The learner of the best average rank (Demsar 2006): per data set the median over the folds,
    ranked best = 1 (higher is better, ties averaged), averaged over the data sets."""
    log = pd.read_csv(path, header=None, names=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    table = log[log.criterion == criterion].pivot_table("value", "dataset", "learner", aggfunc="median")
    return str(table.rank(axis=1, ascending=False).mean().idxmin())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_the_default_control_is_marked_in_the_sidebar(size: tuple[int, int]) -> None:
    best = _best_ranked(SWEEP, "acc")
    assert best == LONG

    def marked(app) -> list[str]:  # noqa: ANN001
        learners = app.query_one("#learners", NameList)
        prompts = {
            learners.get_option_at_index(i).id: str(learners.get_option_at_index(i).prompt)
            for i in range(learners.option_count)
        }
        return [name for name, prompt in prompts.items() if prompt.startswith("[c] ")]

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        assert app.selection.control is None  # nothing chosen with c: the default control
        assert marked(app) == [best]
        other = next(n for n in app.model.learners if n != best)
        await focus_list(pilot, "learners", other)
        await press(pilot, "c")
        assert marked(app) == [other]
        await press(pilot, "space")  # the control excluded: the best-ranked learner is the control again
        assert app.selection.control is None and marked(app) == [best]

    await drive(scenario, size=size, app=make_app([str(SWEEP)]))
