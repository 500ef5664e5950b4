"""Issue 28, item 4: sentences that cannot contradict.

* The verdict lists winners and losers only from the pairs its procedure rejects: when Friedman
  rejects and the procedure rejects no pair, it says exactly that (the tests view, the text,
  Markdown, LaTeX and JSON reports print the one sentence of the TestsView).
* The CD legend says what a bar joins, not "no pair rejected" (which read as a global statement).
* The overall quartile chart says what it pools and why its Scott-Knott groups can differ from the
  verdict, in every format that prints its ranks.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats
from tui.model import Model
from tui.render import render_report
from tui.views.cd.panel import diagram_text
from tui.views.quartiles.lines import quartile_lines

#: The sentence under the overall quartile chart (tui.views.quartiles.shared.OVERALL_NOTE), as the reader sees it.
OVERALL_NOTE = (
    "overall pools every fold of every data set: its groups compare the pooled values, "
    "not the per-data-set ranks the tests use"
)
Table = dict[str, dict[str, list[float]]]  # dataset -> learner -> one value per fold


def _model(tmp_path: Path, table: Table, name: str = "sweep.dat") -> Model:
    """A model read from a log written the way experiments write them (no header, one result a line)."""
    lines = [
        f"{ds},1,{fold + 1},{learner},acc,{float(value)!r}"
        for ds, by in table.items()
        for learner, values in by.items()
        for fold, value in enumerate(values)
    ]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Model(stats.read_logs(path))


def _rejected(matrix: pd.DataFrame, alpha: float) -> set[frozenset[str]]:
    names = [str(x) for x in matrix.index]
    return {frozenset((a, b)) for a, b in itertools.combinations(names, 2) if float(matrix.loc[a, b]) <= alpha}


# --- Friedman rejects, Wilcoxon-Holm rejects no pair ---------------------------------------------------


def _six_data_sets() -> Table:
    """A is best on all 6 data sets (by 0.10 to 0.15); the others' order varies. Friedman rejects
    (p = 0.0056), but 6 data sets give Wilcoxon's exact test no p below 2/2^6 = 0.03125, which
    Holm multiplies by the 6 pairs (0.1875 at least): Wilcoxon-Holm cannot reject any pair."""
    orders = [("B", "C", "D"), ("B", "C", "D"), ("B", "C", "D"), ("C", "B", "D"), ("D", "C", "B"), ("B", "D", "C")]
    out: Table = {}
    for i, order in enumerate(orders):
        base = 0.6 + 0.02 * i
        row = {"A": [base + 0.1 + 0.01 * i]}
        for place, learner in enumerate(order):
            row[learner] = [base - 0.05 * place]
        out[f"d{i}"] = dict(sorted(row.items()))
    return out


def test_no_pair_rejected_is_said_and_lists_no_winners(tmp_path: Path) -> None:
    model = _model(tmp_path, _six_data_sets())
    sel = dataclasses.replace(model.default_selection(), procedure="wilcoxon-holm")
    analysis = model.analyze(sel)
    tests = analysis.tests
    friedman_p = float(tests.omnibus.loc["friedman", "pvalue"])
    assert friedman_p <= 0.05  # the omnibus test rejects ...
    assert not _rejected(analysis.pairs.matrix, sel.alpha)  # ... and Wilcoxon-Holm rejects no pair
    sentence = (
        f"Friedman rejects equality (p = {friedman_p:.4f}); no pair differs under Wilcoxon-Holm at alpha = 0.05 "
        "(APVs over all pairs)"
    )
    # the tests view
    assert tests.outcome == "different"
    assert tests.verdict == sentence
    assert tests.winners == () and tests.losers == ()
    assert "winners" not in tests.verdict and "losers" not in tests.verdict
    # the text report: the same sentence
    text = render_report(model, sel, view="tests", fmt="text")
    assert f"verdict: {sentence}" in text.splitlines()
    assert "winners" not in text and "losers" not in text
    # the JSON report: the same sentence, no names listed
    doc = json.loads(render_report(model, sel, view="tests", fmt="json"))
    assert doc["verdict"] == {
        "outcome": "different",
        "winners": [],
        "losers": [],
        "procedure": "wilcoxon-holm",
        "message": sentence,
    }
    # Markdown and LaTeX print it too
    assert f"**Verdict:** {sentence}" in render_report(model, sel, view="tests", fmt="markdown")
    assert f"% verdict: {sentence}" in render_report(model, sel, view="tests", fmt="latex")


def test_no_pair_rejected_names_the_cd_under_nemenyi() -> None:
    # Menzies' notes' C4.5 example: Friedman rejects, but no average ranks are CD = 1.254 apart
    # (3.143 - 1.964 = 1.179): no winners, no losers, and the sentence names both procedures.
    v = stats.verdict(stats.AverageRanks([3.143, 2.000, 2.893, 1.964], 14, ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]))
    assert v.outcome == "different" and v.winners == () and v.losers == ()
    assert v.message.startswith("Friedman rejects equality (p = ")
    assert v.message.endswith("; no pair differs under Nemenyi at alpha = 0.05 (CD = 1.254)")


# --- rejections exist: winners and losers are exactly their structure -------------------------------


def _sixteen_data_sets() -> Table:
    """B > C > D on all 16 data sets (Wilcoxon T = 0, exact p = 2/2^16: rejected after Holm). A is
    a little above B on 13 and far below everyone on 3: the best average rank (1.5625), yet its
    Wilcoxon tests (T = 45 of 136) reject nothing. So every rejected pair leaves out the best."""
    out: Table = {}
    for i in range(16):
        base = 0.3 + 0.01 * i
        b = base + 0.3
        c = b - 0.01 - 0.0003 * i
        d = c - 0.01 - 0.0002 * i
        a = b + 0.001 * (i + 1) if i < 13 else base - 0.001 * i
        out[f"d{i:02d}"] = {"A": [a], "B": [b], "C": [c], "D": [d]}
    return out


def test_winners_and_losers_are_the_rejected_structure(tmp_path: Path) -> None:
    model = _model(tmp_path, _sixteen_data_sets())
    sel = dataclasses.replace(model.default_selection(), procedure="wilcoxon-holm")
    analysis = model.analyze(sel)
    rejected = _rejected(analysis.pairs.matrix, sel.alpha)
    assert rejected == {frozenset("BC"), frozenset("BD"), frozenset("CD")}
    order = [str(x) for x in analysis.cd.ranks.index]
    assert order == ["A", "B", "C", "D"]  # A is best-ranked but in no rejected pair
    tests = analysis.tests
    # winners: no rejected pair shows them worse; losers: some rejected pair shows them worse than a winner
    assert tests.winners == ("A", "B")
    assert tests.losers == ("C", "D")
    better = {(x, y) for x, y in itertools.combinations(order, 2) if frozenset((x, y)) in rejected}
    assert {w for _, w in better} & set(tests.winners) == set()
    assert {w for b, w in better if b in tests.winners} == set(tests.losers)
    assert tests.verdict.endswith("winners A, B; losers C, D (each worse than a winner, Wilcoxon-Holm APVs)")
    doc = json.loads(render_report(model, sel, view="tests", fmt="json"))
    assert (doc["verdict"]["winners"], doc["verdict"]["losers"]) == (["A", "B"], ["C", "D"])


@pytest.mark.parametrize("rule", ["wilcoxon-holm", "sign-holm"])
def test_two_sample_rules_list_what_their_rejections_show(rule: str) -> None:
    # Benavoli, Corani & Mangili (2016): each pair's own test, Holm-adjusted. A rejected pair
    # need not involve the best-ranked learner; its worse learner still loses to a winner.
    scores = pd.DataFrame({ds: {x: v[0] for x, v in by.items()} for ds, by in _sixteen_data_sets().items()}).T
    table = stats.pairwise_wilcoxon(scores, test="wilcoxon" if rule == "wilcoxon-holm" else "sign")
    rank = stats.friedman(scores).ranks
    rejected = [
        tuple(sorted((a, b), key=rank.__getitem__)) for a, b, q in zip(table["a"], table["b"], table[rule]) if q <= 0.05
    ]
    assert rejected and all(rank.idxmin() not in pair for pair in rejected)
    v = stats.verdict(scores, rule=rule)
    order = list(rank.sort_values(kind="stable").index)
    winners = tuple(x for x in order if x not in {w for _, w in rejected})
    assert v.winners == winners and v.best in winners
    assert v.losers == tuple(x for x in order if any(b in winners and w == x for b, w in rejected))


# --- the CD legend -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("procedure", "basis"),
    [
        ("holm", "bars join learners that Holm does not separate (alpha = 0.05)"),
        ("nemenyi", "bars join learners whose average ranks are closer than the CD (Nemenyi)"),
        (
            "wilcoxon-holm",
            "bars join learners that Wilcoxon-Holm does not separate (alpha = 0.05); axis: average ranks",
        ),
    ],
)
def test_cd_basis_says_what_a_bar_joins(tmp_path: Path, procedure: str, basis: str) -> None:
    model = _model(tmp_path, _sixteen_data_sets())
    sel = dataclasses.replace(model.default_selection(), procedure=procedure)
    cd = model.analyze(sel).cd
    assert cd.basis == basis
    assert "no pair rejected" not in cd.basis
    assert basis in render_report(model, sel, view="cd", fmt="text").splitlines()
    # on screen the legend wraps to the pane instead of pushing it sideways
    lines = diagram_text(cd, 60).plain.splitlines()
    legend = lines[1 : lines.index("")]
    assert " ".join(legend) == basis and all(len(line) <= 60 for line in legend)


# --- the overall quartile chart ------------------------------------------------------------------------


def _folds() -> Table:
    rng = np.random.default_rng(28)
    centres = {
        "d1": {"A": 0.9, "B": 0.6, "C": 0.3},
        "d2": {"A": 0.2, "B": 0.5, "C": 0.8},
        "d3": {"A": 0.9, "B": 0.5, "C": 0.1},
    }
    return {
        ds: {learner: list(centre + rng.uniform(-0.01, 0.01, size=5)) for learner, centre in by.items()}
        for ds, by in centres.items()
    }


@pytest.mark.parametrize(
    ("fmt", "line"), [("text", OVERALL_NOTE), ("markdown", OVERALL_NOTE + "."), ("latex", "% " + OVERALL_NOTE)]
)
def test_overall_chart_says_what_it_pools(tmp_path: Path, fmt: str, line: str) -> None:
    model = _model(tmp_path, _folds())
    sel = model.default_selection()
    lines = render_report(model, sel, view="quartiles", fmt=fmt).splitlines()
    assert lines.count(line) == 1  # once, for the overall chart only
    at = lines.index(line)
    charts = [i for i, x in enumerate(lines) if ("d1" in x or "d2" in x or "d3" in x) and "overall" not in x]
    overall = next(i for i, x in enumerate(lines) if "overall" in x and x != line)
    assert overall < at < min(charts)  # under the overall chart, before the first data set's


def test_overall_sentence_in_the_app_panel_fits_80_columns(tmp_path: Path) -> None:
    model = _model(tmp_path, _folds())
    view = model.analyze(model.default_selection()).quartiles
    lines = quartile_lines(view, 64)  # about the quartiles pane's width on an 80-column screen
    texts = lines.texts
    first = texts.index("overall")  # the overall chart's title: the sentence is in the lines above it
    assert all(len(t) <= 64 for t in texts[:first])
    assert OVERALL_NOTE in " ".join(texts[:first])
    # the charts of deltas have no ranks, hence no sentence
    deltas = model.analyze(dataclasses.replace(model.default_selection(), deltas=True, control="A")).quartiles
    assert OVERALL_NOTE.split(":")[0] not in quartile_lines(deltas, 64).plain
