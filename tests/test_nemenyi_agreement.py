"""Under Nemenyi the pairs view agrees with the CD diagram and the verdict.

Two rules are called "Nemenyi": Demšar (2006, Sec. 3.2.2)'s critical difference, i.e. Tukey's
single-step studentized range on Friedman's average ranks (Nemenyi 1963; scikit-posthocs'
``posthoc_nemenyi_friedman``), which the CD diagram, the letters, the verdict and the fragility
use; and García & Herrera (2008)'s APV min(1, m p), Bonferroni on the z tests (KEEL, STAC), the
``nemenyi`` column of the table of pairs. Before, the pairs matrix showed m p under Nemenyi, so a
pair the CD separates (a loss in the verdict) could show m p > alpha beside it. Now the matrix
shows Tukey's p (``stats.nemenyi_tukey_p``), marked where the CD separates the pair, and the
reports add ``nemenyi_tukey`` (m p stays as ``nemenyi``).

Expected values are computed here from scipy and scikit-posthocs, never from rankboard's output:
average ranks by ``scipy.stats.rankdata``, q by ``scipy.stats.studentized_range`` (df = inf), m p
by the normal distribution.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from hypothesis import given, settings
from hypothesis import strategies as st

import stats
from tests.conftest import REFERENCE
from tests.test_app import LARGE, SMALL, make_app, press, screen_lines, settle, status
from tui.formats.latex import tex_escape
from tui.formats.markdown import md_escape
from tui.model import Model, pairs_view
from tui.widgets import VimTable

SWEEP = Path(__file__).parent / "data" / "sweep.dat"
ALPHAS = (0.10, 0.05, 0.01)


def _friedman_ranks(table: pd.DataFrame) -> pd.Series:
    """Average ranks, 1 = best (highest), ties averaged: scipy's rankdata, row by row."""
    ranks = np.array([sps.rankdata(-row, method="average") for row in table.to_numpy(float)])
    return pd.Series(ranks.mean(axis=0), index=table.columns)


def _tukey(d: float, k: int, n: int) -> float:
    """P(Q_{k,inf} >= |d| sqrt(2) / sqrt(k(k+1)/(6N))), scipy's studentized range."""
    return float(sps.studentized_range.sf(abs(d) * math.sqrt(2.0) / math.sqrt(k * (k + 1) / (6.0 * n)), k, math.inf))


def _cd(k: int, n: int, alpha: float) -> float:
    """Demšar's CD from scipy's studentized range quantile (df = inf)."""
    q = float(sps.studentized_range.ppf(1.0 - alpha, k, math.inf)) / math.sqrt(2.0)
    return q * math.sqrt(k * (k + 1) / (6.0 * n))


def _bonferroni(d: float, k: int, n: int) -> float:
    """García & Herrera's Nemenyi APV: min(1, m p), p two-sided normal of z = d / SE."""
    z = abs(d) / math.sqrt(k * (k + 1) / (6.0 * n))
    return min(1.0, k * (k - 1) / 2 * 2.0 * float(sps.norm.sf(z)))


# -- stats.nemenyi_tukey_p -----------------------------------------------------------------------


def test_equals_scikit_posthocs_nemenyi_friedman_on_garcia_herrera_2008() -> None:
    """scikit-posthocs ranks each block ascending (the smallest accuracy ranks 1) and takes
    ``studentized_range.sf(q * sqrt(2), k, np.inf)`` (df = inf, as Demšar's CD): reversed ranks
    R' = k + 1 - R change no difference, so its p-values are ours in either direction."""
    sp = pytest.importorskip("scikit_posthocs")
    table = pd.read_csv(REFERENCE / "garcia_herrera_2008_accuracy.csv", index_col=0)
    theirs = sp.posthoc_nemenyi_friedman(table.to_numpy(float))
    theirs.index = theirs.columns = table.columns
    for higher in (True, False):
        ours = stats.nemenyi_tukey_p(stats.average_ranks(table, higher_is_better=higher))
        for a, b in itertools.combinations(table.columns, 2):
            assert ours.loc[a, b] == pytest.approx(theirs.loc[a, b], rel=1e-12, abs=1e-15), (a, b)
            assert ours.loc[b, a] == ours.loc[a, b]
        assert (np.diag(ours.to_numpy()) == 1.0).all()


def test_equals_scipys_studentized_range_and_below_its_digits_bonferronis_bound() -> None:
    """Where scipy's 1 - cdf holds its digits (p >= 1e-10) the value is scipy's (to the rounding of
    q's arithmetic); below, the
    Bonferroni bound m p (>= Tukey's p, and its limit in the tail), within scipy's ~1e-15."""
    rng = np.random.default_rng(7)
    for k, n in ((2, 5), (3, 30), (5, 14), (12, 30), (20, 60)):
        table = pd.DataFrame(rng.integers(0, 6, size=(n, k)), columns=[f"M{j}" for j in range(k)])
        ranks = _friedman_ranks(table)
        ours = stats.nemenyi_tukey_p(ranks, n)
        for a, b in itertools.combinations(table.columns, 2):
            d = ranks[a] - ranks[b]
            want = _tukey(d, k, n)
            if want >= 1e-10:
                assert ours.loc[a, b] == pytest.approx(want, rel=1e-12), (k, n, a, b)
            else:
                assert ours.loc[a, b] == pytest.approx(_bonferroni(d, k, n), rel=1e-9)
                assert abs(ours.loc[a, b] - want) < 1e-14
            assert ours.loc[a, b] <= _bonferroni(d, k, n) * (1 + 1e-9)  # Tukey <= Bonferroni's m p
    # k = 2: the studentized range of two normals is |Z1 - Z2|: the two-sided z test
    ranks = pd.Series([1.2, 1.8], index=["A", "B"])
    z = 0.6 / math.sqrt(2 * 3 / (6.0 * 20))
    assert stats.nemenyi_tukey_p(ranks, 20).loc["A", "B"] == pytest.approx(2 * sps.norm.sf(z), rel=1e-12)
    # the tail does not read 0: ranks 10 apart of 12 learners over 30 data sets
    far = pd.Series(np.linspace(1.0, 12.0, 12), index=[f"L{j}" for j in range(12)])
    p = stats.nemenyi_tukey_p(far, 30).loc["L0", "L11"]
    assert 0.0 < p == pytest.approx(_bonferroni(11.0, 12, 30), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 12),
    n=st.integers(2, 40),
    levels=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
)
def test_p_at_most_alpha_exactly_where_the_ranks_are_cd_apart(k: int, n: int, levels: int, seed: int) -> None:
    """Random tables with ties (a few levels per cell): {p <= alpha} = {|R_i - R_j| >= CD} at 0.10,
    0.05 and 0.01, but for pairs within 1e-9 of the CD, where the two computations' rounding
    decides and the views follow the CD (test_the_view_decides_at_the_boundary_by_the_cd)."""
    table = pd.DataFrame(
        np.random.default_rng(seed).integers(0, levels, size=(n, k)), columns=[f"L{j}" for j in range(k)]
    )
    ranks = _friedman_ranks(table)
    p = stats.nemenyi_tukey_p(stats.average_ranks(table))
    for alpha in ALPHAS:
        cd = stats.critical_difference(k, n, alpha=alpha)
        assert cd == pytest.approx(_cd(k, n, alpha), rel=1e-12)
        for a, b in itertools.combinations(table.columns, 2):
            d = abs(ranks[a] - ranks[b])
            if abs(d - cd) < 1e-9:
                continue
            assert (p.loc[a, b] <= alpha) == (d >= cd), (alpha, a, b, d, cd, p.loc[a, b])


def _four_learners(tmp_path: Path) -> stats.LogRead:
    rng = np.random.default_rng(3)
    lines = [f"d{i},1,1,L{j},acc,{v!r}" for i in range(30) for j, v in enumerate(rng.random(4).tolist())]
    path = tmp_path / "four.dat"
    path.write_text("\n".join(lines) + "\n")
    return stats.read_logs(path)


def test_the_view_decides_at_the_boundary_by_the_cd(tmp_path: Path) -> None:
    """Average ranks CD - 5e-13 apart are CD apart for the CD diagram and the verdict (their slack
    of 1e-12): the view marks that pair rejected whatever the last digits of its p; ranks
    CD - 1e-9 apart are not. (Here the average ranks are given: the rule, not a table, is tested.)"""
    log = _four_learners(tmp_path)
    sel = replace(Model(log).default_selection(), procedure="nemenyi")
    scores = stats.scores_table(log, "acc")
    cd = _cd(4, 30, 0.05)
    r1, r2, r3 = 1.5, 1.5 + (cd - 5e-13), 1.5 + (cd - 1e-9)
    average = pd.Series([r1, r2, r3, 10.0 - r1 - r2 - r3], index=scores.columns)
    view = pairs_view(scores, sel, average, stats.pairwise_test(scores, bergmann=False))
    assert view.cd == pytest.approx(cd, rel=1e-12)
    assert abs(view.matrix.loc["L0", "L1"] - 0.05) < 1e-9 and abs(view.matrix.loc["L0", "L2"] - 0.05) < 1e-8
    assert view.marks("L0", "L1") and view.marks("L1", "L0") and not view.marks("L0", "L2")
    from tui.views.pairs.shared import tukey_columns  # (every report format's Nemenyi columns)

    columns = tukey_columns(view)
    assert columns is not None
    rows = {(a, b): i for i, (a, b) in enumerate(zip(view.table["a"], view.table["b"]))}
    assert bool(columns["nemenyi_tukey_rejected"][rows[("L0", "L1")]])
    assert not bool(columns["nemenyi_tukey_rejected"][rows[("L0", "L2")]])


# -- the reports ----------------------------------------------------------------------------------


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from tui.cli import main

    assert main(["report", str(SWEEP), "--criterion", "acc", "--procedure", "nemenyi", *args]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def sweep() -> dict[str, object]:
    """sweep.dat's accuracy: the average ranks, CD, and the pairs CD apart whose m p > alpha."""
    table = stats.scores_table(stats.read_logs(SWEEP), "acc").table
    ranks = _friedman_ranks(table)
    k, n = table.shape[1], table.shape[0]
    cd = _cd(k, n, 0.05)
    split = [
        (a, b)
        for a, b in itertools.combinations(table.columns, 2)
        if abs(ranks[a] - ranks[b]) >= cd and _bonferroni(ranks[a] - ranks[b], k, n) > 0.05
    ]
    assert len(split) >= 2, split  # (three: SVC-kernel=rbf-C=10.0 vs SVC-kernel=linear-C=1.0, m p = 0.061, ...)
    return {"ranks": ranks, "k": k, "n": n, "cd": cd, "split": split}


def test_every_format_marks_a_pair_the_cd_separates_with_its_tukey_p(
    sweep: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each pair CD apart with m p > alpha: in text, Markdown, LaTeX, JSON and CSV its
    ``nemenyi_tukey`` is Tukey's p (<= alpha) and marked rejected, while ``nemenyi`` stays m p."""
    ranks, k, n = sweep["ranks"], sweep["k"], sweep["n"]
    text = _report(capsys, "--view", "pairs", "--format", "text")
    md = _report(capsys, "--view", "pairs", "--format", "markdown")
    tex = _report(capsys, "--view", "pairs", "--format", "latex")
    doc = json.loads(_report(capsys, "--view", "pairs", "--format", "json"))
    rows = list(csv.DictReader(io.StringIO(_report(capsys, "--view", "pairs", "--format", "csv"))))
    header = next(line for line in text.splitlines() if line.startswith("a ") and "nemenyi_tukey" in line).split()
    assert header[-2:] == ["nemenyi_tukey", "fragility"]
    md_header = next(line for line in md.splitlines() if line.startswith("| a | b |"))
    md_at = [c.strip() for c in md_header.strip("|").split("|")].index("nemenyi_tukey")
    tex_header = next(line for line in tex.splitlines() if line.startswith("$a$ & $b$"))
    tex_at = [c.strip() for c in tex_header.rstrip("\\ ").split("&")].index(r"nemenyi\_tukey")
    for a, b in sweep["split"]:
        d = ranks[a] - ranks[b]
        p, mp = _tukey(d, k, n), _bonferroni(d, k, n)
        assert p <= 0.05 < mp
        line = next(x.split() for x in text.splitlines() if x.split()[:2] in ([a, b], [b, a]))
        assert line[header.index("nemenyi")] == stats.fmt_p(mp)  # unmarked: > alpha
        assert line[header.index("nemenyi_tukey")] == stats.fmt_p(p) + "*"
        cells = next(
            [c.strip() for c in x.strip("|").split("|")]
            for x in md.splitlines()
            if x.startswith(f"| {md_escape(a)} | {md_escape(b)} |")
            or x.startswith(f"| {md_escape(b)} | {md_escape(a)} |")
        )
        assert cells[md_at] == f"**{stats.fmt_p(p)}**"
        cells = next(
            [c.strip() for c in x.rstrip("\\ ").split("&")]
            for x in tex.splitlines()
            if x.startswith(f"{tex_escape(a)} & {tex_escape(b)} &")
            or x.startswith(f"{tex_escape(b)} & {tex_escape(a)} &")
        )
        assert cells[tex_at] == rf"\textbf{{{stats.fmt_p(p)}}}"
        row = next(r for r in doc["pairs"]["rows"] if {r["a"], r["b"]} == {a, b})
        assert row["nemenyi"] == pytest.approx(mp, rel=1e-9)
        assert row["nemenyi_tukey"] == pytest.approx(p, rel=1e-12) and row["nemenyi_tukey_rejected"] is True
        line_csv = next(r for r in rows if {r["a"], r["b"]} == {a, b})
        assert float(line_csv["nemenyi"]) == pytest.approx(mp, rel=1e-9)
        assert float(line_csv["nemenyi_tukey"]) == pytest.approx(p, rel=1e-12)
        assert line_csv["nemenyi_tukey_rejected"] == "True"
    assert doc["pairs"]["critical_difference"] == pytest.approx(sweep["cd"], rel=1e-12)
    from tests.test_render import validate
    from tui.render._json_schema import schema

    full = schema()
    validate(doc, {**full, "required": []})  # (the pairs view's keys: the schema's types for the new ones too)
    row = full["properties"]["pairs"]["properties"]["rows"]["items"]["properties"]
    assert row["nemenyi_tukey_rejected"]["type"] == "boolean" and "Tukey" in row["nemenyi_tukey"]["description"]


def test_the_pairs_decisions_are_the_cd_views_and_the_verdicts(sweep: dict, capsys: pytest.CaptureFixture[str]) -> None:
    """For every pair: rejected in the pairs view (JSON) = CD apart = in no bar of the CD view
    together = rejected in the tests view's fragility; each split pair's worse learner is a loser
    of the verdict (and one split pair is a winner above a loser)."""
    ranks = sweep["ranks"]
    pairs = json.loads(_report(capsys, "--view", "pairs", "--format", "json"))
    cd_view = json.loads(_report(capsys, "--view", "cd", "--format", "json"))
    tests = json.loads(_report(capsys, "--view", "tests", "--format", "json"))
    assert cd_view["critical_difference"] == pytest.approx(pairs["pairs"]["critical_difference"], rel=1e-12)
    bars = [set(c) for c in cd_view["cd"]["cliques"]]
    fragility = {frozenset((r["a"], r["b"])): r["rejected"] for r in tests["robustness"]["pairs"]}
    for row in pairs["pairs"]["rows"]:
        a, b = row["a"], row["b"]
        apart = bool(abs(ranks[a] - ranks[b]) >= sweep["cd"])
        assert row["nemenyi_tukey_rejected"] is apart and (row["nemenyi_tukey"] <= 0.05) is apart
        assert (not any({a, b} <= bar for bar in bars)) is apart, (a, b)
        assert fragility[frozenset((a, b))] is apart, (a, b)
    verdict, winners = tests["verdict"], 0
    for a, b in sweep["split"]:
        better, worse = (a, b) if ranks[a] < ranks[b] else (b, a)
        assert worse in verdict["losers"], (better, worse)  # (the best is farther still from it: a loss)
        winners += better in verdict["winners"]
    assert winners >= 1  # SVC-kernel=rbf-C=10.0, a winner, above SVC-kernel=linear-C=1.0, a loser


# -- the app --------------------------------------------------------------------------------------

P_CELL = re.compile(r"^(\d\.\d{4}|\d\.\d{3}e-\d\d|-)\*?$")  # a whole p-value cell (or the diagonal's "-")


def _row(line: str, label: str) -> list[str] | None:
    """The cells of the matrix row ``label`` if ``line`` is that row on screen (after the pane's
    edge, the label first; the scrollbar's blocks left out), else None."""
    tail = line.split("\u2595\u258c")[-1].lstrip()  # (the pane's edge)
    if "\u2595\u258c" not in line or not tail.startswith(label + " "):
        return None
    return [t for t in tail[len(label) :].split() if not all("\u2580" <= ch <= "\u259f" for ch in t)]


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_pairs_view_under_nemenyi_shows_tukeys_p_whole_and_marked(size: tuple[int, int], sweep: dict) -> None:
    """sweep.dat, view 4, ``m`` until the status line says nemenyi: the head names both rules; the
    cell of each pair the CD separates (m p > alpha) is its Tukey p, marked, the line under the
    table says rejected; every number of the matrix on screen is whole."""
    ranks, k, n = sweep["ranks"], sweep["k"], sweep["n"]
    app = make_app([str(SWEEP)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "4")
        for _ in range(8):
            if "nemenyi" in status(app):
                break
            await press(pilot, "m")
        assert "nemenyi" in status(app)
        head = app.query_one("#pairs-head").plain  # type: ignore[attr-defined]
        assert "Tukey's range" in head and "García & Herrera's m p" in head and f"CD = {sweep['cd']:.3f}" in head
        table = app.query_one("#pairs-table", VimTable)
        rows = [str(x.value) for x in table.rows]
        columns = [str(c.key.value) for c in table.ordered_columns]
        for a, b in sweep["split"]:
            table.move_cursor(row=rows.index(a), column=columns.index(b))
            await pilot.pause()
            p = _tukey(ranks[a] - ranks[b], k, n)
            exact = app.query_one("#pairs-exact").plain  # type: ignore[attr-defined]
            assert f"Nemenyi (Tukey) p {p!r}, rejected" in exact, exact
            first, last = table.visible_columns()
            shown = [str(table.ordered_columns[c].key.value) for c in range(first, last)]
            assert b in shown  # the cell is on screen, whole
            label = table.get_cell(a, "").plain
            cells = next(c for c in (_row(x, label) for x in screen_lines(app)) if c is not None)
            assert cells[shown.index(b)] == stats.fmt_p(p) + "*", cells
        # every matrix row on screen: a whole number under each column shown (the cursor on a name:
        # the line under the table, which starts with a name too, is empty)
        table.move_cursor(column=0)
        await pilot.pause()
        assert app.query_one("#pairs-exact").plain == ""  # type: ignore[attr-defined]
        first, last = table.visible_columns()
        labels = [table.get_cell(key, "").plain for key in rows]
        found = [(lab, c) for x in screen_lines(app) for lab in labels if (c := _row(x, lab)) is not None]
        matrix = list({lab: c for lab, c in reversed(found)}.values())  # each label's first line: the
        # matrix's (the contrast table below it has the same labels)
        assert len(matrix) >= (8 if size == SMALL else 12), matrix
        for cells in matrix:
            assert len(cells) == last - first and all(P_CELL.match(c) for c in cells), cells
