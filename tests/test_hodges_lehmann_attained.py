"""The Hodges-Lehmann interval's attained level (issue 26, item 4).

[W_(C), W_(M+1-C)] covers the shift with probability 1 - 2 P(V <= C - 1) under the signed-rank
null (Hollander & Wolfe 1999, Sec. 3.3; Bauer 1972). Here that probability is counted from all
2^N sign assignments (itertools.product), C is found the way R's ``wilcox.test`` finds it
(``qsignrank(alpha/2, N)``, 1 if 0), and R's documented behaviour at N = 4 (``requested
conf.level not achievable``; the interval is then [min, max] of the Walsh averages) is checked
against ``stats.hodges_lehmann``, ``stats.pairwise_effects``, the pairs view and the reports.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import stats
from tests.test_render import validate
from tui.model import Model, default_selection
from tui.render import SCHEMA
from tui.render._report import render_report

#: N -> differences with distinct nonzero magnitudes (the exact method), two of them negative.
DIFFS = {n: [(-1) ** (i % 3 == 1) * (0.5 + 1.25 * i + 0.01 * i * i) for i in range(n)] for n in range(1, 8)}


def enumerated_counts(n: int) -> list[int]:
    """How many of the 2^n sign assignments of the ranks 1..n give each V = sum of positive ranks."""
    counts = [0] * (n * (n + 1) // 2 + 1)
    for signs in itertools.product((False, True), repeat=n):
        counts[sum(r for r, positive in zip(range(1, n + 1), signs) if positive)] += 1
    return counts


def r_rank(counts: list[int], confidence: float) -> int:
    """R's qu = qsignrank(alpha/2, n), 1 when it is 0: the smallest q with P(V <= q) >= alpha/2."""
    total = sum(counts)
    target = Fraction(1 - confidence).limit_denominator(10**9) / 2
    cumulative = itertools.accumulate(Fraction(c, total) for c in counts)
    return max(1, next(q for q, p in enumerate(cumulative) if p >= target))


def coverage(counts: list[int], c: int) -> Fraction:
    """1 - 2 P(V <= C - 1), counted."""
    return 1 - Fraction(2 * sum(counts[:c]), sum(counts))


def walsh(d: list[float]) -> list[float]:
    return sorted((x + y) / 2 for x, y in itertools.combinations_with_replacement(d, 2))


# ---------------------------------------------------------------- stats.hodges_lehmann


@pytest.mark.parametrize("n", range(1, 8))
@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_exact_attained_level_is_counted_from_all_sign_assignments(n: int, confidence: float) -> None:
    counts = enumerated_counts(n)
    c = r_rank(counts, confidence)
    want = coverage(counts, c)
    res = stats.hodges_lehmann(DIFFS[n], [0.0] * n, confidence=confidence)
    assert res.method == "exact" and res.confidence == confidence
    assert res.attained == float(want)
    w = walsh(DIFFS[n])
    assert (res.low, res.high) == pytest.approx((w[c - 1], w[len(w) - c]))
    assert (res.note == "") == (want >= Fraction(confidence))


@pytest.mark.parametrize(
    ("n", "attained"),
    # 1 - 2 #(V <= C - 1) / 2^N, by hand: C = 1 up to N = 6 (a single assignment, all signs
    # negative, has V = 0), C = 3 at N = 7 (V <= 2: 0, 1, 2 -> 3 of 128)
    [(1, 0.0), (2, 0.5), (3, 0.75), (4, 0.875), (5, 0.9375), (6, 1 - 2 / 64), (7, 1 - 6 / 128)],
)
def test_95_percent_is_not_attainable_up_to_five_differences(n: int, attained: float) -> None:
    res = stats.hodges_lehmann(DIFFS[n], [0.0] * n)
    assert res.confidence == 0.95 and res.attained == attained
    if n <= 5:
        assert res.note == f"95% not attainable with N = {n}"
        assert (res.low, res.high) == (min(DIFFS[n]), max(DIFFS[n]))  # the widest interval
    else:
        assert res.note == ""


def test_str_prints_the_attained_level_only_when_short() -> None:
    short = str(stats.hodges_lehmann(DIFFS[4], [0.0] * 4))
    assert "87.5% CI (95% not attainable with N = 4) [" in short
    assert "93.8% CI (95% not attainable with N = 5) [" in str(stats.hodges_lehmann(DIFFS[5], [0.0] * 5))
    reached = str(stats.hodges_lehmann(DIFFS[7], [0.0] * 7))
    assert ", 95% CI [" in reached and "attainable" not in reached and "95.3" not in reached


def test_r_documented_behaviour_at_four_and_five_differences() -> None:
    """R's exact branch (wilcox.test.default, two-sided): qu = qsignrank(alpha/2, n), 1 if 0;
    achieved.alpha = 2 psignrank(qu - 1, n); it warns "requested conf.level not achievable" and
    relabels when achieved.alpha - alpha > alpha/2; the interval is (diffs[qu], diffs[M - qu + 1])."""
    alpha = Fraction(1, 20)
    for n in (4, 5):
        counts = enumerated_counts(n)
        qu = r_rank(counts, 0.95)
        achieved = Fraction(2 * sum(counts[:qu]), 2**n)
        res = stats.hodges_lehmann(DIFFS[n], [0.0] * n)
        w = walsh(DIFFS[n])
        assert qu == 1 and (res.low, res.high) == (w[0], w[-1])  # [min Walsh, max Walsh]
        assert res.attained == float(1 - achieved)
        r_warns = achieved - alpha > alpha / 2
        assert r_warns == (n == 4)  # 1/8 at N = 4; at N = 5, 1/16 - 1/20 < 1/40: R keeps "95 percent"
        assert "not attainable" in res.note  # rankboard says so at both


def test_approximate_case_levels() -> None:
    # N = 4 with a zero (approx): Hollander & Wolfe's C = round(5 - 1.96 sqrt(7.5)) = round(-0.37) -> 1,
    # the same widest interval and the same 1 - 2/16 for untied data
    res = stats.hodges_lehmann([0.0, 0.3, -0.1, 0.7], [0.0] * 4)
    assert res.method == "approx" and res.attained == 0.875 and res.note == "95% not attainable with N = 4"
    # N = 9 with ties at 80%: C = round(22.5 - z_0.9 sqrt(9 * 10 * 19 / 24)) = round(11.68) = 12, one
    # more than R's exact qsignrank(0.1, 9) + 1 would need: 1 - 2 P(V <= 11) < 0.8
    d = [0.2, 0.2, 0.5, -0.1, 0.4, 0.9, 0.4, 1.3, -0.3]
    c = math.floor(45 / 2 - sps.norm.ppf(0.9) * math.sqrt(9 * 10 * 19 / 24) + 0.5)
    assert c == 12
    want = coverage(enumerated_counts(9), c)
    res = stats.hodges_lehmann(d, [0.0] * 9, confidence=0.8)
    assert res.method == "approx" and res.attained == float(want) < 0.8
    assert res.note == "80% not reached by the rounded normal-approximation C = 12"
    assert "79.7% CI (80% not reached" in str(res)


@pytest.mark.parametrize("n", [50, 60, 97])
def test_normal_approximation_of_the_level_from_fifty_differences(n: int) -> None:
    d = np.random.default_rng(n).normal(0.2, 1.0, size=n)
    res = stats.hodges_lehmann(d, np.zeros(n))
    assert res.method == "approx"
    m, sigma = n * (n + 1) / 2, math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    c = math.floor(m / 2 - sps.norm.ppf(0.975) * sigma + 0.5)
    want = 1 - 2 * sps.norm.cdf((c - 0.5 - m / 2) / sigma)  # P(V <= C - 1), continuity-corrected
    assert res.attained == pytest.approx(want, rel=1e-12) and res.attained >= 0.95 and res.note == ""
    # and close to the exact level, from the generating function prod (1 + t^r) (not 2^n assignments)
    poly = np.array([1], dtype=object)
    for r in range(1, n + 1):
        poly = np.concatenate([poly, np.zeros(r, dtype=object)]) + np.concatenate([np.zeros(r, dtype=object), poly])
    assert abs(res.attained - float(coverage(list(poly), c))) < 2e-3


# ---------------------------------------------------------------- all pairs


def test_pairwise_effects_carry_each_pairs_attained_level() -> None:
    rng = np.random.default_rng(7)
    for n, want in ((4, 0.875), (7, 1 - 6 / 128)):
        scores = pd.DataFrame(rng.normal(0.8, 0.05, size=(n, 4)), columns=list("wxyz"))
        res = stats.pairwise_effects(scores)
        table = res.table
        assert list(table.columns[7:11]) == ["hl_low", "hl_high", "hl_confidence", "mann_whitney_p"]
        assert res.confidence == 0.95 and table["hl_confidence"].tolist() == [want] * 6
        for row in table.itertuples(index=False):
            assert row.hl_confidence == stats.hodges_lehmann(scores[row.a], scores[row.b]).attained


# ---------------------------------------------------------------- the pairs view and the reports

#: Three learners on four data sets: every pair's differences are distinct and nonzero.
FOUR = {"a": [0.91, 0.83, 0.77, 0.95], "b": [0.88, 0.84, 0.70, 0.90], "c": [0.85, 0.79, 0.72, 0.81]}


def four_data_sets(tmp_path: Path, scores: dict[str, list[float]] = FOUR) -> tuple[Model, object]:
    lines = [f"d{i},1,1,{name},accuracy,{v}\n" for name, vs in scores.items() for i, v in enumerate(vs)]
    path = tmp_path / "four.dat"
    path.write_text("".join(lines), encoding="utf-8")
    log = stats.read_logs(path)
    return Model(log), default_selection(log)


def test_the_pairs_view_prints_the_attained_level(tmp_path: Path) -> None:
    model, sel = four_data_sets(tmp_path)
    effects = model.analyze(sel).pairs.effects
    lines = effects.lines()
    assert len(lines) == 4 and all(len(line) <= 58 for line in lines)
    assert lines[2].startswith("Hodges-Lehmann ") and "95%" not in lines[2]
    assert lines[3] == "the CI's level: 87.5% (95% not attainable with N = 4)"


def test_reports_print_the_attained_level_and_say_why(tmp_path: Path) -> None:
    model, sel = four_data_sets(tmp_path)
    note = "95% is not attainable with N = 4 data sets"
    text = render_report(model, sel, fmt="text", view="pairs")
    assert " ".join(text.split()).count(note) == 1  # wrapped at 100 columns
    md = render_report(model, sel, fmt="markdown", view="pairs")
    tex = render_report(model, sel, fmt="latex", view="pairs")
    assert note in md and note.replace("%", r"\%") in tex
    for report, level in ((text, "(87.5%)"), (md, "(87.5%)"), (tex, r"(87.5\%)")):
        rows = [line for line in report.splitlines() if level in line]
        assert len(rows) == 3 + 1  # the three pairs' CI high, and the note's example
    doc = json.loads(render_report(model, sel, fmt="json"))
    validate(doc, SCHEMA)
    assert [row["hl_confidence"] for row in doc["pairs"]["effects"]] == [0.875] * 3
    for row in doc["pairs"]["effects"]:  # [min, max] of the differences
        d = np.array(FOUR[row["a"]]) - np.array(FOUR[row["b"]])
        assert (row["hl_low"], row["hl_high"]) == pytest.approx((d.min(), d.max()), abs=1e-12)
    csv = pd.read_csv(pd.io.common.StringIO(render_report(model, sel, fmt="csv", view="pairs")))
    assert csv["hl_confidence"].tolist() == [0.875] * 3


def test_reports_add_no_text_where_the_nominal_level_is_reached(tmp_path: Path) -> None:
    seven = {
        name: [*vs, vs[0] + 0.013 * k, vs[1] - 0.021 * k, vs[2] + 0.034 * k]
        for k, (name, vs) in enumerate(FOUR.items(), 1)
    }
    model, sel = four_data_sets(tmp_path, seven)
    doc = json.loads(render_report(model, sel, fmt="json"))
    levels = [row["hl_confidence"] for row in doc["pairs"]["effects"]]
    assert all(level >= 0.95 for level in levels) and 1 - 6 / 128 in levels  # exact pairs: C = 3 of 28
    for fmt in ("text", "markdown", "latex"):
        report = render_report(model, sel, fmt=fmt, view="pairs")
        assert "attainable" not in report and "95.3" not in report
    assert "95% CI [" in model.analyze(sel).pairs.effects.lines()[2]
