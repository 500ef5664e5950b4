"""Issue 16 in the explorer and the reports: the pairs procedures wilcoxon-holm and sign-holm
drive the matrix, the verdict, the CD bars, the marks and the compact letters, which must agree
(issue 11's rule: one procedure drives the conclusion); the pair's effect sizes are shown.

The data: Garcia & Herrera (2008)'s five classifiers on 30 data sets (tests/data/reference),
written as a log. Expected values are computed here independently: scipy's exact Wilcoxon
signed-rank test with Holm's step-down written out, A12 by counting pairs, Cliff's delta by
counting signs, Hodges-Lehmann as the median of the Walsh averages.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from rich.text import Text

import stats
from tests.test_app import make_app, press, screen_lines, settle, status
from tui.cli import main
from tui.model import PROCEDURES, Model, load_spec, save_spec, selection_from_spec
from tui.render._report import render_report
from tui.views.pairs.panel import PairsPanel
from tui.views.ranks.panel import RanksPanel

TWO_SAMPLE = ("wilcoxon-holm", "sign-holm")


@pytest.fixture(scope="module")
def gh2008_log(tmp_path_factory: pytest.TempPathFactory, gh2008_module: pd.DataFrame) -> Path:
    path = tmp_path_factory.mktemp("gh2008") / "gh2008.dat"
    lines = [f"{d},1,1,{learner},accuracy,{v!r}" for d, row in gh2008_module.iterrows() for learner, v in row.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def gh2008_module() -> pd.DataFrame:
    from tests.conftest import REFERENCE

    return pd.read_csv(REFERENCE / "garcia_herrera_2008_accuracy.csv", index_col=0)


@pytest.fixture(scope="module")
def model(gh2008_log: Path) -> Model:
    return Model(stats.read_logs(gh2008_log))


def hand_holm(p: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, written out (Holm 1979)."""
    m, order = len(p), sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def rejected_of(matrix: pd.DataFrame, alpha: float) -> set[frozenset[str]]:
    names = [str(x) for x in matrix.index]
    return {frozenset((a, b)) for a, b in itertools.combinations(names, 2) if float(matrix.loc[a, b]) <= alpha}


def test_wilcoxon_holm_matrix_is_scipys_exact_wilcoxon_with_a_hand_holm(model: Model) -> None:
    sel = replace(model.default_selection(), procedure="wilcoxon-holm")
    analysis = model.analyze(sel)
    scores = analysis.ranks.medians
    names = list(scores.columns)
    pairs = list(itertools.combinations(names, 2))
    # zero_method="zsplit" is Demsar's split of the zero differences (rankboard's "demsar" when
    # the zeros are even in number); scipy's exact distribution needs no ties or zeros, so the
    # pairs here are compared with the normal approximation when they have any.
    raw = []
    for a, b in pairs:
        d = (scores[a] - scores[b]).round(9)
        exact = (d != 0).all() and d.abs().nunique() == len(d)
        if exact:
            raw.append(sps.wilcoxon(scores[a], scores[b], method="exact").pvalue)
        else:
            raw.append(np.nan)
    apv = analysis.pairs.matrix
    want_table = stats.pairwise_wilcoxon(scores)  # the stats function the view must show, unchanged
    for (a, b), q in zip(pairs, want_table["wilcoxon-holm"]):
        assert apv.loc[a, b] == apv.loc[b, a] == q
    clean = [i for i, p in enumerate(raw) if np.isfinite(p)]
    assert clean, "the table has pairs without ties or zeros"
    for i in clean:  # the unadjusted p of a clean pair is scipy's exact one
        assert want_table["p"].iloc[i] == pytest.approx(raw[i], rel=1e-12)
    # Holm over the whole family, from the stats p-values (checked against scipy above where exact)
    assert want_table["wilcoxon-holm"].tolist() == pytest.approx(hand_holm(want_table["p"].tolist()), rel=1e-12)


@pytest.mark.parametrize("procedure", [p for p in PROCEDURES if p != "nemenyi"])
def test_verdict_bars_and_letters_agree_with_the_matrix(model: Model, procedure: str) -> None:
    sel = replace(model.default_selection(), procedure=procedure)
    analysis = model.analyze(sel)
    matrix, alpha = analysis.pairs.matrix, sel.alpha
    rejected = rejected_of(matrix, alpha)
    assert rejected, "the table has rejected pairs under every procedure"
    names = [str(x) for x in matrix.index]
    # the verdict: losers are the learners whose pair with the best-ranked one is rejected
    order = [str(x) for x in analysis.cd.ranks.index]
    tests = analysis.tests
    assert tests.outcome == "different"
    assert set(tests.losers) == {x for x in names if frozenset((order[0], x)) in rejected}
    assert set(tests.winners) == set(names) - set(tests.losers)
    assert f"{stats.PROCEDURE_NAMES[procedure]} APVs" in tests.verdict
    # the bars: maximal runs of the rank order with no rejected pair inside
    bars = [list(c) for c in analysis.cd.cliques]
    for bar in bars:
        assert not any(frozenset(p) in rejected for p in itertools.combinations(bar, 2))
        i, j = order.index(bar[0]), order.index(bar[-1])
        assert bar == order[i : j + 1]
        for grown in (order[max(i - 1, 0) : j + 1], order[i : j + 2]):  # one more breaks it
            if grown != bar:
                assert any(frozenset(p) in rejected for p in itertools.combinations(grown, 2))
    assert stats.PROCEDURE_NAMES[procedure] in analysis.cd.basis
    # the letters: two learners share a letter iff their pair is not rejected
    letters = analysis.letters.letters
    assert analysis.letters.procedure == procedure
    for a, b in itertools.combinations(names, 2):
        assert bool(set(letters[a]) & set(letters[b])) == (frozenset((a, b)) not in rejected), (a, b)
    assert letters[order[0]].startswith("a")


def test_two_sample_procedures_differ_from_the_rank_ones_here(model: Model) -> None:
    # Not a tautology: on this table Wilcoxon-Holm rejects CN2 vs C4.5, Holm on mean ranks does not
    # (Benavoli et al.'s point: the pairs' own tests do not depend on the other learners).
    sel = model.default_selection()
    holm = rejected_of(model.analyze(sel).pairs.matrix, 0.05)
    wh = rejected_of(model.analyze(replace(sel, procedure="wilcoxon-holm")).pairs.matrix, 0.05)
    assert frozenset(("C4.5", "CN2")) in wh - holm


def brute_a12(a: list[float], b: list[float]) -> float:
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b) / (len(a) * len(b))


def test_the_pairs_effect_sizes_are_counted_by_hand(model: Model) -> None:
    sel = replace(model.default_selection(), pair=("Kernel", "C4.5"))
    effects = model.analyze(sel).pairs.effects
    assert (effects.a, effects.b) == ("C4.5", "Kernel")  # as the view names it: "C4.5 vs Kernel"
    scores = model.analyze(sel).ranks.medians
    a, b = scores["C4.5"].tolist(), scores["Kernel"].tolist()
    assert effects.a12.value == pytest.approx(brute_a12(a, b), abs=1e-12)
    gt = sum(x > y for x in a for y in b)
    lt = sum(x < y for x in a for y in b)
    assert effects.delta.value == pytest.approx((gt - lt) / (len(a) * len(b)), abs=1e-12)
    d = np.round(np.array(a) - np.array(b), 9)
    walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
    assert effects.hodges_lehmann.estimate == pytest.approx(float(np.median(walsh)), abs=1e-9)
    assert effects.mann_whitney.pvalue == pytest.approx(
        sps.mannwhitneyu(a, b, alternative="two-sided").pvalue, rel=1e-9
    )
    lines = effects.lines()
    assert lines[1] == f"A12 = {effects.a12.value:.3f} ({effects.a12.magnitude}), delta = " + (
        f"{effects.delta.value:.3f} ({effects.delta.magnitude})"
    )
    assert all(len(line) <= 58 for line in lines)


def test_spec_and_command_carry_the_procedure(model: Model, gh2008_log: Path, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    sel = replace(model.default_selection(), procedure="sign-holm")
    path = tmp_path / "view.toml"
    save_spec(sel, path)
    assert selection_from_spec(model, dict(load_spec(path))).procedure == "sign-holm"
    assert main(["report", str(gh2008_log), "--procedure", "wilcoxon-holm", "--view", "tests"]) == 0
    out = capsys.readouterr().out
    assert "Wilcoxon-Holm APVs" in out
    assert main(["report", str(gh2008_log), "--spec", str(path), "--view", "cd"]) == 0
    assert "bars join learners that sign-Holm does not separate" in capsys.readouterr().out


def test_reports_mark_only_the_rejected_adjusted_p_values(model: Model) -> None:
    sel = replace(model.default_selection(), procedure="wilcoxon-holm")
    text = render_report(model, sel, view="pairs")
    table = stats.pairwise_wilcoxon(model.analyze(sel).ranks.medians)
    body = text.split("Wilcoxon-Holm: each pair's")[1].split("\n\n")[0].splitlines()[2:]
    assert len(body) == len(table)
    for line, (_, row) in zip(body, table.iterrows()):
        cells = line.split()
        assert cells[-1].endswith("*") == (row["wilcoxon-holm"] <= 0.05)  # the APV, marked at alpha
        assert not cells[-2].endswith("*")  # the raw p never


# ---------------------------------------------------------------- the app at 80x24


def cell_text(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


async def to_procedure(pilot, procedure: str) -> None:  # noqa: ANN001
    for _ in range(len(PROCEDURES)):
        if pilot.app.selection.procedure == procedure:
            return
        await press(pilot, "m")
    raise AssertionError(f"m never reached {procedure}")


@pytest.mark.parametrize("procedure", TWO_SAMPLE)
async def test_pairs_view_shows_the_procedure_marks_and_effect_sizes_at_80x24(gh2008_log: Path, procedure: str) -> None:
    app = make_app([str(gh2008_log)])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "4")
        await to_procedure(pilot, procedure)
        assert procedure in status(app)
        view = app.query_one(PairsPanel).view
        assert view is not None and view.procedure == procedure
        assert view.matrix.equals(app.analysis.pairs.matrix)
        table = app.query_one("#pairs-table")
        alpha = view.alpha
        for row_key in table.rows:
            for col_key in table.columns:
                a, b = str(row_key.value), str(col_key.value)
                if b == "" or a == b:
                    continue
                shown = cell_text(table.get_cell(row_key, col_key))
                assert shown.endswith("*") == (float(view.matrix.loc[a, b]) <= alpha), (a, b, shown)
        assert f"{stats.PROCEDURE_NAMES[procedure]} adjusted p-values" in "\n".join(screen_lines(app))
        app.query_one(PairsPanel).scroll_to(y=4, animate=False)  # the pair's lines (the pane scrolls)
        await settle(pilot)
        lines = screen_lines(app)
        for line in view.effects.lines():  # whole on screen: a number cut off is a number not shown
            assert any(line in shown for shown in lines), line
        await press(pilot, "3")
        verdict = app.analysis.tests.verdict
        assert f"{stats.PROCEDURE_NAMES[procedure]} APVs" in verdict
        await press(pilot, "5")
        legend = f"bars join learners that {stats.PROCEDURE_NAMES[procedure]} does not separate"
        assert legend in "\n".join(screen_lines(app))


async def test_ranks_view_letters_row_at_80x24(gh2008_log: Path) -> None:
    app = make_app([str(gh2008_log)])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "2")
        await to_procedure(pilot, "wilcoxon-holm")
        table = app.query_one("#ranks-table")
        keys = [str(k.value) for k in table.rows]
        assert keys[-2:] == ["\0average", "\0letters"]  # under the average ranks
        letters = app.analysis.letters.letters
        learners = [str(c.value) for c in table.columns][1:]
        row = [cell_text(c) for c in table.get_row("\0letters")]
        assert row == ["letters", *(letters[x] for x in learners)]
        # the letters of the pairs matrix's rejections (independent of the letters' code)
        matrix = stats.pairwise_wilcoxon(app.analysis.ranks.medians)
        rejected = {
            frozenset((a, b)) for a, b, q in zip(matrix["a"], matrix["b"], matrix["wilcoxon-holm"]) if q <= 0.05
        }
        for a, b in itertools.combinations(learners, 2):
            assert bool(set(letters[a]) & set(letters[b])) == (frozenset((a, b)) not in rejected)
        table.focus()
        await press(pilot, "ctrl+end", "end")  # the last row and the last column, scrolled into view
        shown = [line for line in screen_lines(app) if "letters" in line]
        assert shown, "the letters row is on screen"
        tokens = [t for t in shown[0].split("letters", 1)[1].split() if t.isalpha()]
        row_letters = [letters[x] for x in learners]
        # the cells on screen (the table may be scrolled sideways) are consecutive cells of the row
        assert any(row_letters[i : i + len(tokens)] == tokens for i in range(len(row_letters))), tokens
        exact = app.query_one(RanksPanel).exact_under_cursor()
        assert exact.startswith("letters, ") and "(Wilcoxon-Holm, alpha = 0.05)" in exact


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json", "csv"])
def test_hostile_names_in_the_two_sample_and_effect_tables(fmt: str) -> None:
    from tests.conftest import DATA

    log = stats.read_logs(DATA / "hostile_names.dat")
    model = Model(log)
    sel = replace(model.default_selection(), procedure="wilcoxon-holm")
    text = render_report(model, sel, view="pairs", fmt=fmt)
    assert "Wilcoxon-Holm" in text or "wilcoxon-holm" in text
    assert not any(ch in text for ch in ("\x1b", "\x07", "\x9b", "\u202e"))
    if fmt == "csv":
        assert "wilcoxon-holm" in text.splitlines()[0]
        for line in text.splitlines()[1:]:  # no cell a spreadsheet would evaluate
            assert not any(cell.startswith(("=", "+", "@")) for cell in line.split(","))
    if fmt == "latex":
        assert "\\begin{tabular}{l l r l r r}" in text  # the two-sample table
