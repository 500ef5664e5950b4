"""View 7 of the explorer: the learning curves of Menzies' lecture notes (``rankboard report --view curves``'s
lines).

Menzies' lecture notes ("Incremental M*N-way"): "report 'plateau' (where learning improvement stops)".
"""

from __future__ import annotations

from tests.conftest import SAMPLES
from tests.test_app import SMALL, make_app, settle
from tui.app._commands import commands
from tui.views.curves.panel import CurvesPanel


def test_key_7_is_the_curves_view() -> None:
    assert {c.key: c.action for c in commands()}["7"] == "view('curves')"


async def test_view_7_shows_the_plateau_per_learner() -> None:
    app = make_app([str(SAMPLES / "sequence")])
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert app.view == "curves"
        text = app.query_one(CurvesPanel).plain
        for learner in ("GaussianNB", "DecisionTree", "KNN", "LogisticRegression"):
            assert f"----| breast_cancer / {learner} |----- plateau" in text
        assert text.count(" plateau,") == text.count("----| breast_cancer /") - text.count("plateau not reached:")
        # issue 28: at 80 columns the notes' short rows (min .. max and a bar that fits), said so;
        # before, the long rows left the bar 6 cells, cut off as "...."
        assert "rows: size, min, q1, median, q3, max" in " ".join(text.split())
        rows = [line for line in text.splitlines() if line.count(", ") == 6 and "[" in line]
        assert rows and all(line.endswith("]") and line.index("]") - line.index("[") > 8 for line in rows)


async def test_view_7_shows_the_lecture_notes_long_rows_when_they_fit() -> None:
    app = make_app([str(SAMPLES / "sequence")])
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert "#rx," in app.query_one(CurvesPanel).plain  # the chart of Menzies' lecture notes


async def test_view_7_says_so_without_a_sequence_study() -> None:
    app = make_app()  # the bundled cross-validation logs: no 'train' lines
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        assert " ".join(app.query_one(CurvesPanel).plain.split()) == (  # wrapped to the pane at 80 columns
            "learning curves: this log holds no sequence study (no 'train' lines, which stats.run_sequence writes)"
        )
