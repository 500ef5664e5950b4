"""The tests view's additions (issue 16): the tie-corrected Friedman statistic beside Demsar's (2006)
form (on baycomp's log: 14.42 uncorrected, 19.94 corrected, the figures the issue quotes), the multiple
sign test against the control and the win/loss/tie table of Menzies' lecture notes, in the view model, every report
format and the app at 80x24."""

from __future__ import annotations

import dataclasses
import json
import re
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

import stats
from tests.conftest import REFERENCE
from tests.test_app import SMALL, drive, make_app, press, screen_lines
from tui.model import Model, default_selection
from tui.render import render_report
from tui.views.tests.panel import TestsPanel


@pytest.fixture(scope="module")
def baycomp() -> tuple[Model, object]:
    log = stats.read_logs(REFERENCE / "baycomp_accuracies.dat")
    model = Model(log)
    return model, default_selection(log, "accuracy")


def test_tie_corrected_friedman_beside_the_seeds_form(baycomp) -> None:  # noqa: ANN001
    model, sel = baycomp
    tests = model.analyze(sel).tests
    assert round(float(tests.omnibus.loc["friedman", "statistic"]), 2) == 14.42
    assert round(tests.extra.friedman_ties.statistic, 2) == 19.94
    text = render_report(model, sel, view="tests", fmt="text")
    assert re.search(r"^Friedman chi2\(4\) = 14\.42\d*, p = ", text, re.M)
    tied = r"^Friedman, tie-corrected chi2\(4\) = 19\.94\d*, p = .*Demsar's \(2006\) uncorrected form\)$"
    assert re.search(tied, text, re.M)
    doc = json.loads(render_report(model, sel, view="tests", fmt="json"))
    assert round(doc["friedman"]["statistic"], 2) == 14.42
    assert round(doc["friedman_tie_corrected"]["statistic"], 2) == 19.94 and doc["friedman_tie_corrected"]["df"] == 4
    assert "| Friedman, tie-corrected (chi2) | 19.94" in render_report(model, sel, view="tests", fmt="markdown")
    assert "Friedman, tie-corrected & 19.94" in render_report(model, sel, view="tests", fmt="latex")


def _sign_by_hand(scores: pd.DataFrame, control: str, alpha: float) -> tuple[dict[str, tuple[int, int, int]], int]:
    """(+, -, =) counts of every learner against ``control`` and r* for k = 2 learners, where the
    minimum of the plus counts is one Binomial(n, 1/2) count: r* is its largest alpha-quantile."""
    counts = {}
    for name in scores.columns:
        if name != control:
            d = scores[name] - scores[control]
            counts[name] = (int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()))
    n = len(scores)
    r_star = max((r for r in range(n + 1) if sps.binom.cdf(r, n, 0.5) <= alpha), default=-1)
    return counts, r_star


def test_multiple_sign_test_against_the_control() -> None:
    # two learners, 12 data sets: the multiple sign test is the one-sided sign test, r* from Binomial(12, 1/2)
    rng = np.random.default_rng(7)
    best = rng.uniform(0.8, 0.9, size=12)
    worse = best - np.r_[np.full(10, 0.05), -0.01, 0.0]  # loses 10, wins 1, ties 1
    rows = [(f"d{i}", 1, 1, name, "acc", v) for name, vals in (("a", best), ("b", worse)) for i, v in enumerate(vals)]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    model = Model(log)
    sel = default_selection(log)
    extra = model.analyze(sel).tests.extra
    counts, r_star = _sign_by_hand(pd.DataFrame({"a": best, "b": worse}), "a", 0.05)
    assert counts == {"b": (1, 10, 1)} and r_star == 2
    sign = extra.sign
    assert sign.control == "a" and sign.alternative == "worse" and sign.critical_value == r_star
    row = sign.table.loc["b"]
    assert (row["plus"], row["minus"], row["ties"]) == counts["b"]
    assert row["statistic"] == 2 and bool(row["rejected"])  # plus + ties = 2 <= r*: b is worse than a
    # a control that is not the best-ranked: H1 "differs" (two-sided)
    other = model.analyze(dataclasses.replace(sel, control="b")).tests.extra.sign
    assert other.alternative == "two-sided" and other.control == "b"
    text = render_report(model, sel, view="tests", fmt="text")
    assert "multiple sign test (Steel 1959) against the control a: H1 the learner is worse than the control" in text
    assert re.search(r"^b +1 +10 +1 +2\*$", text, re.M)


def test_win_loss_tie_table_is_menzies() -> None:
    table = pd.read_csv(REFERENCE / "garcia_2010_accuracy.csv", index_col=0)
    rows = [(str(d), 1, 1, str(c), "acc", float(table.loc[d, c])) for d in table.index for c in table.columns]
    frame = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    model = Model(frame)
    sel = default_selection(frame)
    wlt = model.analyze(sel).tests.extra.win_loss_tie
    # by hand: scipy's paired t-test for every pair, the better mean difference wins when p <= 0.05
    expect = {c: [0, 0, 0] for c in table.columns}
    for a, b in combinations(table.columns, 2):
        t = sps.ttest_rel(table[a], table[b])
        if t.pvalue <= 0.05:
            winner, loser = (a, b) if t.statistic > 0 else (b, a)
            expect[winner][0] += 1
            expect[loser][1] += 1
        else:
            expect[a][2] += 1
            expect[b][2] += 1
    got = {str(n): [int(r["win"]), int(r["loss"]), int(r["tie"])] for n, r in wlt.iterrows()}
    assert got == expect
    keys = [w - lo for w, lo, _ in (got[str(n)] for n in wlt.index)]
    assert keys == sorted(keys, reverse=True) and (wlt["win_minus_loss"].tolist() == keys)
    md = render_report(model, sel, view="tests", fmt="markdown")
    assert "| learner | win | loss | tie | win-loss |" in md
    doc = json.loads(render_report(model, sel, view="tests", fmt="json"))
    assert [r["learner"] for r in doc["win_loss_tie"]] == [str(n) for n in wlt.index]
    assert {r["learner"]: [r["win"], r["loss"], r["tie"]] for r in doc["win_loss_tie"]} == expect


async def test_tests_view_at_80x24_shows_them_and_tab_reaches_the_tables() -> None:
    async def scenario(app, pilot) -> None:  # noqa: ANN001
        await press(pilot, "3")
        screen = "\n".join(screen_lines(app))
        assert re.search(r"Friedman tie-corrected +\d+\.\d+ +\d+ +0\.\d{4}", screen)
        panel = app.query_one(TestsPanel)
        assert "multiple sign test (Steel 1959) vs" in panel.plain and "win/loss/tie (Menzies)" in panel.plain
        for _ in range(3):  # tab from the control table to the sign table, then to the win/loss/tie table
            await press(pilot, "tab")
            if app.focused is not None and app.focused.id == "wlt-table":
                break
        assert app.focused is not None and app.focused.id == "wlt-table"
        screen = "\n".join(screen_lines(app))
        assert re.search(r"win +loss +tie +win-loss", screen)  # scrolled into view at 80x24
        extra = app.analysis.tests.extra
        for name, row in extra.win_loss_tie.iterrows():
            assert re.search(rf"{re.escape(str(name)[:10])}.* {row['win']} +{row['loss']} +{row['tie']} ", screen)

    await drive(scenario, size=SMALL, app=make_app())


def _wlt_loop(x: np.ndarray, alpha: float) -> dict[int, tuple[int, int, int]]:
    """The table of Menzies' lecture notes pair by pair with scipy (constant differences: a win unless zero)."""
    k = x.shape[1]
    counts = {j: [0, 0, 0] for j in range(k)}
    for u, v in combinations(range(k), 2):
        d = np.round(x[:, u] - x[:, v], 9)
        if np.ptp(d) == 0:
            significant, better = d[0] != 0, d[0]
        else:
            significant, better = sps.ttest_rel(x[:, u], x[:, v]).pvalue <= alpha, d.mean()
        if significant and better != 0:
            w, lo = (u, v) if better > 0 else (v, u)
            counts[w][0] += 1
            counts[lo][1] += 1
        else:
            counts[u][2] += 1
            counts[v][2] += 1
    return {j: tuple(c) for j, c in counts.items()}


@pytest.mark.parametrize("seed", range(12))
def test_win_loss_tie_all_pairs_at_once_equals_pair_by_pair(seed: int) -> None:
    # ttest_win_loss_tie tests every pair at once (issue 16's benchmark); the counts must be the loop's
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 30)), int(rng.integers(2, 9))
    x = np.round(rng.normal(0.7, 0.05, size=(n, k)) + rng.normal(0, 0.05, size=(1, k)), int(rng.integers(1, 4)))
    x[:, -1] = x[:, 0] + 0.25  # a constant difference: a win without a test
    out = stats.ttest_win_loss_tie(x, alpha=0.1)
    got = {int(str(j).lstrip("L")) - 1: (int(r["win"]), int(r["loss"]), int(r["tie"])) for j, r in out.iterrows()}
    assert got == _wlt_loop(x, 0.1)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_pair_cdf_of_the_multiple_sign_bounds_by_enumeration(n: int) -> None:
    # P(A_1 <= s, A_2 <= s) for n i.i.d. pairs with P(01) = P(10) = disc / 2, every 4^n outcome summed
    from itertools import product

    from stats.posthoc.multiple_sign import _pair_cdf

    for disc in (1 / 3, 2 / 3):
        p = {(0, 1): disc / 2, (1, 0): disc / 2, (0, 0): (1 - disc) / 2, (1, 1): (1 - disc) / 2}
        for s in range(n + 1):
            total = 0.0
            for outcome in product(p, repeat=n):
                if sum(a for a, _ in outcome) <= s and sum(b for _, b in outcome) <= s:
                    total += float(np.prod([p[o] for o in outcome]))
            assert _pair_cdf(n, s, disc) == pytest.approx(total, rel=1e-12, abs=1e-15)
