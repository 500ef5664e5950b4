"""Marks mean one thing on screen (issue 11, items 1-3): ``*`` only on an adjusted p-value that
its procedure rejects at alpha; the verdict and the CD bars follow the chosen procedure; a
procedure replaced above its exact limit is named where its values are shown."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

import stats
from tests.test_app import drive, focus_list, make_app, press
from tui.app._app import RankboardApp
from tui.views.cd.panel import CDPanel
from tui.views.pairs.panel import PairsPanel
from tui.views.tests.panel import TestsPanel

NUMBER = re.compile(r"-?\d+\.\d+\*?|-")


def control_rows(plain: str, learners: tuple[str, ...]) -> dict[str, list[str]]:
    """The control table's cells (as printed, marks included) by learner."""
    rows = {}
    plain = plain.split("\nmultiple sign test")[0]  # the tables below it (issue 16) also start with names
    for line in plain.splitlines():
        for learner in learners:
            if line.startswith(learner + " "):
                rows[learner] = NUMBER.findall(line[len(learner) :])
    return rows


async def test_the_tests_view_marks_only_rejected_adjusted_p_values() -> None:
    # Before: every float <= alpha was marked, so negative z values and raw p-values were too
    # ("LogisticRegression  -1.7678*  0.0771  0.3084" on the bundled logs).
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        worst = str(app.analysis.ranks.average.idxmax())
        seen_z_below_alpha = False
        for control in (None, worst):  # the best-ranked control, then the worst (negative z)
            if control is not None:
                await focus_list(pilot, "learners", control)
                await press(pilot, "c", "3")
                assert app.analysis.tests.control == control
            view = app.analysis.tests
            table = view.control_table
            rows = control_rows(app.query_one(TestsPanel).plain, tuple(str(x) for x in table.index))
            assert set(rows) == {str(x) for x in table.index}
            columns = [c for c in table.columns if c not in ("rank", "ranks")]
            for learner, cells in rows.items():
                assert len(cells) == len(columns)
                for column, text in zip(columns, cells):
                    value = float(table.loc[learner, column])
                    if column in ("z", "p"):
                        assert not text.endswith("*"), (learner, column, text)
                        seen_z_below_alpha |= column == "z" and value <= 0.05
                    else:
                        assert text.endswith("*") == (value <= 0.05), (learner, column, text)
        assert seen_z_below_alpha  # the case that was marked before is on screen

    await drive(scenario, size=(200, 40))


async def test_the_pairs_matrix_marks_what_its_procedure_rejects(tmp_path: Path) -> None:
    log = tmp_path / "clear.dat"
    rows = [
        (f"d{i}", 1, 1, learner, "acc", 0.5 + 0.1 * j + 0.001 * i)
        for i in range(12)
        for j, learner in enumerate("abcd")
    ]
    log.write_text("".join(",".join(map(str, r)) + "\n" for r in rows))

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "4")
        panel = app.query_one(PairsPanel)
        matrix = panel.view.matrix
        table = app.query_one("#pairs-table")
        marked = 0
        for i, a in enumerate(matrix.index):
            for j, b in enumerate(matrix.columns):
                cell = table.get_cell_at((i, j + 1)).plain
                value = matrix.loc[a, b]
                assert cell.endswith("*") == bool(pd.notna(value) and value <= 0.05), (a, b, cell)
                marked += cell.endswith("*")
        assert marked > 0

    await drive(scenario, app=make_app([str(log)]), size=(120, 40))


async def test_bergmann_replaced_by_shaffer_is_said_where_it_is_shown(tmp_path: Path) -> None:
    # Before: above the exact limit (then 12 learners, now 16) the pairs header still said "bergmann adjusted p-values"
    # over Shaffer's values, and the user was not told.
    k = stats.MAX_EXACT_K + 1
    log = tmp_path / "wide.dat"
    rows = [
        (f"d{i}", 1, 1, f"L{j:02d}", "acc", round(0.5 + 0.01 * ((i * 5 + j * 3) % 13) + 0.002 * j, 4))
        for i in range(6)
        for j in range(k)
    ]
    log.write_text("".join(",".join(map(str, r)) + "\n" for r in rows))

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "4", "m", "m")  # holm -> shaffer -> bergmann
        assert app.selection.procedure == "bergmann"
        head = app.query_one("#pairs-head").plain
        assert "Bergmann-Hommel adjusted p-values" in head
        assert "Shaffer stands in for Bergmann-Hommel (exact up to 16 learners)" in head
        await press(pilot, "5")
        assert "Shaffer stands in for Bergmann-Hommel" in app.query_one(CDPanel).plain
        await press(pilot, "3")
        verdict = app.analysis.tests.verdict
        if app.analysis.tests.outcome == "different":
            assert "Bergmann-Hommel APVs" in verdict and "k <= 16" in verdict

    await drive(scenario, app=make_app([str(log)]), size=(120, 40))


async def test_the_cd_panel_says_which_procedure_draws_its_bars() -> None:
    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "5")
        panel = app.query_one(CDPanel)
        assert "bars join learners that Holm does not separate (alpha = 0.05)" in panel.plain
        assert panel.size.height >= len(panel.plain.splitlines())  # the whole drawing has room
        await press(pilot, "m", "m", "m")  # holm -> shaffer -> bergmann -> wilcoxon-holm
        assert app.selection.procedure == "wilcoxon-holm"
        assert "bars join learners that Wilcoxon-Holm does not separate (alpha = 0.05); axis: average ranks" in (
            " ".join(app.query_one(CDPanel).plain.splitlines())  # the legend wraps to the pane
        )
        await press(pilot, "m", "m")  # -> sign-holm -> nemenyi
        assert app.selection.procedure == "nemenyi"
        assert "bars join learners whose average ranks are closer than the CD (Nemenyi)" in " ".join(
            app.query_one(CDPanel).plain.splitlines()
        )

    await drive(scenario)


async def test_the_tests_view_names_the_omnibus_tests_as_the_reports_do() -> None:
    # Before: the screen said "aligned ranks" where every report said "Friedman aligned ranks";
    # the names now live once, in stats.OMNIBUS_NAMES.
    from tui.render import render_report

    async def scenario(app: RankboardApp, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        plain = app.query_one(TestsPanel).plain
        report = render_report(app.model, app.selection, view="tests", fmt="text")
        for name in ("Friedman", "Iman-Davenport", "Friedman aligned ranks", "Quade"):
            assert re.search(rf"^{re.escape(name)}\s+\d", plain, re.M), name  # a row of the screen's table
            assert name in report
        assert set(stats.OMNIBUS_NAMES.values()) == {"Friedman", "Iman-Davenport", "Friedman aligned ranks", "Quade"}

    await drive(scenario, size=(120, 40))
