"""Issue 30, item 9: the scale of a table (3 learners x 100,000 data sets; 1,000 learners x 3).

Each quadratic (or worse) or per-name step of ``rankboard report`` was fixed at its cause; each test
here checks the cause without timing anything -- the operation is counted (a membership test, a
pass over the rows, a call of a helper per name) -- and that the numbers are those of the
definition or of the code before (written out here). benchmarks/bench_scale.py times the whole.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import pytest

import stats
from stats.core import snap


class _Counted(tuple):
    """A tuple that counts its membership tests and its passes (``in``, ``for``)."""

    contains = 0
    passes = 0

    def __contains__(self, item: object) -> bool:
        type(self).contains += 1
        return super().__contains__(item)

    def __iter__(self) -> Iterator[Any]:
        type(self).passes += 1
        return super().__iter__()


def _counted(values: Any) -> _Counted:
    kind = type("Counted", (_Counted,), {"contains": 0, "passes": 0})
    return kind(values)


def _model(tmp_path: Path, n_datasets: int, n_learners: int, folds: int = 2, seed: int = 0) -> Any:
    """A model of a log of ``n_datasets`` x ``n_learners`` x ``folds`` results of ``acc`` (4 decimals)."""
    from tui.model import Model

    rng = np.random.default_rng(seed)
    base, effect = rng.uniform(0.5, 0.9, n_datasets), rng.normal(0, 0.03, n_learners)
    lines = [
        f"d{d:05d},1,{f + 1},L{x:04d},acc,{min(max(base[d] + effect[x] + rng.normal(0, 0.05), 0.0), 1.0):.4f}"
        for d in range(n_datasets)
        for f in range(folds)
        for x in range(n_learners)
    ]
    path = tmp_path / "scale.dat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Model(stats.read_logs(path))


class _Calls:
    """A function wrapped to count its calls (and to fail fast past ``most``)."""

    def __init__(self, fn: Any, most: int | None = None) -> None:
        self.fn, self.most, self.calls = fn, most, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.most is not None and self.calls > self.most:
            raise AssertionError(f"called more than {self.most} times")
        return self.fn(*args, **kwargs)


# --- the spec: names checked against a set ---------------------------------------------------------


def test_a_spec_of_many_data_sets_is_checked_against_a_set_not_a_scan_per_name() -> None:
    from tui.model import selection_from_spec

    names = [f"d{i:05d}" for i in range(5000)]
    datasets = _counted(names)
    model = SimpleNamespace(criteria=("acc",), datasets=datasets, learners=("a", "b"))
    sel = selection_from_spec(model, {"criterion": "acc", "datasets": names[::-1], "learners": ["b", "a"]})
    assert sel.datasets == tuple(names[::-1]) and sel.learners == ("b", "a")
    assert type(datasets).contains == 0  # one set made (a pass), no membership test on the tuple
    # the unknown names are still said, in their order
    with pytest.raises(ValueError, match=r"datasets: unknown 'zz', 'yy'; valid values are: d00000, d00001"):
        selection_from_spec(model, {"criterion": "acc", "datasets": ["zz", names[3], "yy"]})


# --- the bars of a CD diagram: runs found in one pass ------------------------------------------------


def _runs_by_definition(k: int, differ: Any) -> tuple[tuple[int, ...], ...]:
    """Maximal runs i..j (two or more) with no differing pair inside, by their start."""
    runs = [
        (i, j)
        for i in range(k)
        for j in range(i + 1, k)
        if not any(differ(a, b) for a in range(i, j + 1) for b in range(a + 1, j + 1))
    ]
    kept = [(i, j) for i, j in runs if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in runs)]
    return tuple(tuple(range(i, j + 1)) for i, j in sorted(kept))


def _check_bars(rng: np.random.Generator) -> None:
    """cd_groups and apv_groups (Holm) of a random table against :func:`_runs_by_definition`."""
    from stats.groupings import groups

    k, n = int(rng.integers(2, 24)), int(rng.integers(3, 12))
    values = np.round(rng.normal(0, 1, (n, k)) + rng.normal(0, 1, k), 1)
    ranks = pd.DataFrame(values, columns=[f"L{i}" for i in range(k)]).rank(axis=1, ascending=False).mean()
    order = ranks.sort_values(kind="stable")
    names, v = list(order.index), order.to_numpy()
    cd = float(rng.uniform(0.2, k / 2))
    want = _runs_by_definition(k, lambda i, j: abs(v[j] - v[i]) >= cd - groups.EPS)
    assert stats.cd_groups(ranks, cd) == tuple(tuple(names[i] for i in run) for run in want)
    table = stats.pairwise_test_from_ranks(ranks, n)
    alpha = float(rng.uniform(0.01, 0.9))
    apv = {frozenset((a, b)): q for a, b, q in zip(table["a"], table["b"], table["holm"])}
    want = _runs_by_definition(k, lambda i, j: apv[frozenset((names[i], names[j]))] <= alpha)
    assert stats.apv_groups(ranks, table, "holm", alpha=alpha) == tuple(tuple(names[i] for i in r) for r in want)


@pytest.mark.filterwarnings("ignore::stats.BergmannLimitWarning")
def test_cd_bars_are_the_maximal_runs_found_with_one_matrix_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.groupings import groups

    rng = np.random.default_rng(7)
    for _ in range(60):
        _check_bars(rng)
    # 600 learners: the matrix of pairs read a block of 256 rows at a time, once (not a scan of
    # every run's pairs for each start: cubic, minutes for 1,000 learners)
    k = 600
    ranks = pd.Series(np.linspace(1, k, k), index=[f"L{i}" for i in range(k)])
    table = stats.pairwise_test_from_ranks(ranks, 3)
    blocks = _Calls(groups._last_differing)
    monkeypatch.setattr(groups, "_last_differing", blocks)
    stats.apv_groups(ranks, table, "holm")
    stats.cd_groups(ranks, 100.0)
    assert blocks.calls == 2


# --- Scott-Knott: the charts of one shape ranked together --------------------------------------------


def _charts(rng: np.random.Generator, count: int) -> list[dict[str, np.ndarray]]:
    out = []
    for c in range(count):
        k = 1 + c % 6
        sizes = [1 + (c + x) % 4 for x in range(k)] if c % 3 else [2] * k
        kind = c % 4
        chart = {}
        for x in range(k):
            if kind == 0:
                v = np.round(rng.uniform(0.5, 0.9, sizes[x]), 2)  # ties
            elif kind == 1:
                v = rng.normal(x * 0.05, 0.1, sizes[x])
            elif kind == 2:
                v = np.full(sizes[x], 0.5)  # constant: d = 0
            else:
                v = np.round(rng.normal(0, 1, sizes[x]) * 10.0 ** int(rng.integers(-3, 3)), 3)
            chart[f"L{x}"] = v
        out.append(chart)
    return out


@pytest.mark.parametrize("higher", [True, False])
def test_scott_knott_ranks_of_many_charts_are_those_of_one_call_each(higher: bool) -> None:
    charts = _charts(np.random.default_rng(11), 600)
    want = [stats.scott_knott(chart, higher_is_better=higher).ranks for chart in charts]
    assert stats.scott_knott_ranks(charts, higher_is_better=higher) == want
    refused = stats.scott_knott_ranks([{}, {"a": np.array([np.nan])}])
    assert refused == [None, None]


def test_the_quartile_report_ranks_every_chart_without_a_call_per_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.model import rank_every_chart

    model = _model(tmp_path, 300, 3)
    sel = model.default_selection()
    first = model.analyze(sel).prepare("quartiles").quartiles
    want = {scope: dict(first.groups[scope]) for scope in first.scopes}  # a call per chart, on access
    per_chart = _Calls(stats.scott_knott)
    monkeypatch.setattr(stats, "scott_knott", per_chart)
    model = _model(tmp_path, 300, 3)
    view = model.analyze(model.default_selection()).prepare("quartiles").quartiles
    rank_every_chart(view)
    assert {scope: dict(view.groups[scope]) for scope in view.scopes} == want
    assert per_chart.calls <= 1  # (the overall chart, ranked with the view) -- not 300


# --- the pairs' effect sizes: judged once per distinct value, the pairs a block at a time ------------


def test_all_pairs_effects_judge_each_distinct_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.twosample import all_pairs_effects as ape

    rng = np.random.default_rng(5)
    k, n = 60, 4  # 1,770 pairs of 4 values: exact Mann-Whitney, 10 Walsh averages a pair
    scores = pd.DataFrame(rng.uniform(0.5, 0.9, (n, k)), columns=[f"L{i:02d}" for i in range(k)])
    labels, orders = _Calls(ape._label), _Calls(ape.order_statistics)
    exact = _Calls(ape.mannwhitneyu_two_sided)
    monkeypatch.setattr(ape, "_label", labels)
    monkeypatch.setattr(ape, "order_statistics", orders)
    monkeypatch.setattr(ape, "mannwhitneyu_two_sided", exact)
    table = stats.pairwise_effects(scores).table
    assert labels.calls <= 2 * (2 * n * n + 1)  # per distinct count of wins and ties, not 2 x 1,770
    assert exact.calls <= n * n + 1  # per distinct U, not per pair
    assert orders.calls == 0  # the Walsh averages of many pairs a numpy call
    monkeypatch.undo()
    for row in table.sample(40, random_state=1).itertuples(index=False):
        a, b = scores[row.a].to_numpy(), scores[row.b].to_numpy()
        e, d, h = stats.a12(a, b), stats.cliffs_delta(a, b), stats.hodges_lehmann(a, b)
        assert (row.a12, row.a12_magnitude) == (e.value, e.magnitude)
        assert (row.delta, row.delta_magnitude) == (d.value, d.magnitude)
        assert (row.hl_estimate, row.hl_low, row.hl_high) == (h.estimate, h.low, h.high)
        assert row.mann_whitney_p == stats.mann_whitney(a, b).pvalue


def _walsh_listed(d: np.ndarray, scale: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(d.size)
    return np.sort(snap((d[i] + d[j]) / 2.0, np.maximum(scale[i], scale[j])))


def test_hodges_lehmann_of_many_differences_selects_without_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.twosample import _walsh_select, all_pairs_effects, effect_size

    rng = np.random.default_rng(3)
    tables = [
        np.round(rng.uniform(0, 1, (150, 3)), 2),  # coarse decimals: many ties
        np.round(rng.uniform(0, 1, (120, 3)), 4) * 10.0 ** rng.integers(-3, 3, (120, 1)),  # scales apart
        rng.normal(0, 1, (101, 3)),
    ]
    before = [(stats.pairwise_effects(pd.DataFrame(t)).table, stats.hodges_lehmann(t[:, 0], t[:, 1])) for t in tables]
    listed = _Calls(np.triu_indices, most=0)
    monkeypatch.setattr(effect_size, "LIST_MAX", 0)
    monkeypatch.setattr(all_pairs_effects, "LIST_MAX", 0)
    monkeypatch.setattr(effect_size.np, "triu_indices", listed)
    for t, (table, one) in zip(tables, before):
        now = stats.pairwise_effects(pd.DataFrame(t)).table
        for column in ("hl_estimate", "hl_low", "hl_high", "hl_confidence"):
            assert now[column].tolist() == (table[column] + 0.0).tolist()  # (a zero is +0.0)
        h = stats.hodges_lehmann(t[:, 0], t[:, 1])
        assert (h.estimate, h.low, h.high, h.attained) == (one.estimate, one.low, one.high, one.attained)
    monkeypatch.undo()
    d = np.round(rng.normal(0, 0.1, 400), 3)
    scale = rng.uniform(0.5, 2.0, 400)
    w = _walsh_listed(d, scale)
    ks = [0, 17, w.size // 2, w.size - 1]
    assert _walsh_select.walsh_order_statistics(d, scale, ks) == [float(w[k]) + 0.0 for k in ks]


# --- multiple sign test and Rom: binomials from the one before, not math.comb each -------------------


def test_multiple_sign_critical_value_of_many_data_sets_needs_no_binomial_per_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stats.posthoc import multiple_sign as ms

    for n in (0, 1, 5, 12, 40, 199):
        for alpha in (0.5, 0.05, 0.01, 2**-10):
            target = Fraction(alpha) * 2**n
            sums = [sum(math.comb(n, i) for i in range(r + 1)) for r in range(n + 1)]
            r = max([r for r in range(n + 1) if sums[r] <= target], default=-1)
            assert ms._binom_r_max(n, alpha) == r
            assert ms._binom_cdf(n, max(r, 0)).tolist() == [s / 2**n for s in sums[: max(r, 0) + 1]]
    binomials = _Calls(math.comb, most=20)
    monkeypatch.setattr(ms, "comb", binomials)
    crit, (lo, hi) = ms._critical_value.__wrapped__(2, 3000, 0.05, False, ms._MAX_STATES)
    assert crit is not None and 0 < lo <= hi <= 0.05 * (1 + 1e-12)


def test_the_pair_probability_of_many_data_sets_sums_a_band(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.posthoc import multiple_sign as ms

    n = 600
    r = ms._binom_r_max(n, 0.05)
    whole = {(s, disc): ms._pair_cdf(n, s, disc) for s in (r, r - 5, n // 2) for disc in (1 / 3, 2 / 3)}
    monkeypatch.setattr(ms, "_PAIR_WHOLE", 100)  # 600 > 100: the band, not the 601 x 601 table
    for (s, disc), want in whole.items():
        assert ms._pair_cdf(n, s, disc) == pytest.approx(want, rel=1e-11, abs=1e-18)


def test_rom_coefficients_take_no_binomial_per_term(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.posthoc import apv

    def by_definition(m: int, alpha: float) -> np.ndarray:  # the code before, term for term
        c = np.zeros(m + 1)
        c[1], c[2] = alpha, alpha / 2.0
        for i in range(3, m + 1):
            first = sum(alpha**j for j in range(1, i))
            second = sum(math.comb(i, j) * c[j + 1] ** (i - j) for j in range(1, i - 1))
            c[i] = (first - second) / i
        return c[1:]

    monkeypatch.setattr(apv, "comb", _Calls(math.comb, most=0), raising=False)
    for m, alpha in ((3, 0.05), (40, 0.1), (300, 0.05)):
        assert apv._rom_coefficients.__wrapped__(m, alpha).tolist() == by_definition(m, alpha).tolist()


# --- the reports: a column at a time, each distinct value once ---------------------------------------


def test_the_ranks_table_reads_no_cell_by_label(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pandas.core.indexing import _LocIndexer

    from tui.views.ranks.text import ranks_text

    model = _model(tmp_path, 40, 5)
    analysis = model.analyze(model.default_selection()).prepare("ranks")
    view = analysis.ranks
    want = [
        [str(d), *(f"{view.medians.loc[d, c]:.3f} ({view.ranks.loc[d, c]:g})" for c in view.medians.columns)]
        for d in view.medians.index
    ]
    lookups = _Calls(_LocIndexer.__getitem__)
    monkeypatch.setattr(_LocIndexer, "__getitem__", lambda self, key: lookups(self, key))
    lines = ranks_text(analysis)
    assert lookups.calls < len(want)  # not two per cell (400)
    for row in want:
        assert any(line.split() == [row[0], *" ".join(row[1:]).split()] for line in lines), row[0]


def test_the_pairs_report_formats_each_distinct_number_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.views.pairs import shared, text

    model = _model(tmp_path, 3, 60)
    analysis = model.analyze(model.default_selection()).prepare("pairs")
    table, alpha = analysis.pairs.table, analysis.selection.alpha
    procedures = ("nemenyi", "holm", "shaffer", "bergmann")
    aw = max(len(str(x)) for x in [*table["a"], "a"])
    bw = max(len(str(x)) for x in [*table["b"], "b"])

    def marked(q: float) -> str:
        return f"{stats.fmt_p(q) + ('*' if q <= alpha else ' '):>12}"

    want = [  # the code before: a row at a time
        f"{str(r.a).ljust(aw)}  {str(r.b).ljust(bw)} {r.z:8.3f} {stats.fmt_p(float(r.p)):>9}"
        + "".join(marked(float(getattr(r, c))) for c in procedures)
        for r in table.itertuples(index=False)
    ]
    formats, levels = _Calls(text.fmt_p), _Calls(shared.level_text)
    monkeypatch.setattr(text, "fmt_p", formats)
    monkeypatch.setattr(shared, "level_text", levels)
    lines = text._apv_lines(analysis)
    cells = shared.effects_cells(analysis.effects, str)
    assert lines[1:] == want
    assert formats.calls < len(table)  # (1,770 pairs: five numbers a row before)
    assert levels.calls <= 1  # every pair's interval falls short of 95% with 3 data sets: one level
    assert len(cells) == len(table) and all(c[8].endswith(" (75%)") for c in cells)


def test_a_quartile_report_reads_each_charts_rows_once(tmp_path: Path) -> None:
    from tui.views.quartiles.text import quartiles_text

    model = _model(tmp_path, 300, 3)
    view = model.analyze(model.default_selection()).prepare("quartiles").quartiles
    want = quartiles_text(view)
    rows, flagged = _counted(view.rows), _counted(view.flagged)
    counted = dataclasses.replace(view, rows=rows, flagged=flagged)
    assert quartiles_text(counted) == want
    assert type(rows).passes <= 3  # (the decimals, the charts' index): not a pass per chart (301)
    assert type(flagged).contains == 0  # one set of the flagged data sets, not a scan per chart


def test_json_records_share_each_distinct_name_and_number() -> None:
    from tui.formats.json import records

    frame = pd.DataFrame(
        {
            "a": pd.array(["x", "y", "x", "y"] * 3, dtype="str"),
            "v": [0.5, 1.0, 0.5, float("nan"), -0.0, 0.0] * 2,
        }
    )
    rows = records(frame, ("a",))
    assert rows == [
        {"a": a, "v": None if isinstance(v, float) and math.isnan(v) else v} for a, v in zip(frame["a"], frame["v"])
    ]
    assert rows[0]["a"] is rows[2]["a"] and rows[0]["v"] is rows[2]["v"]
    assert str(rows[4]["v"]) == "-0.0" and str(rows[5]["v"]) == "0.0"  # told apart by their bits


# --- the folds view: a Monte Carlo too big for memory is left out, with the reason -------------------


def test_a_signed_rank_monte_carlo_over_its_limit_is_left_out_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from stats.folds import _signed_rank_jobs

    rng = np.random.default_rng(2)
    rows = [
        (f"d{d}", 1, f + 1, name, "acc", round(float(rng.uniform(0.5, 0.9)), 4))
        for d in range(40)
        for f in range(2)
        for name in ("c", "x", "y")
    ]
    log = pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])
    monkeypatch.setattr(_signed_rank_jobs, "MAX_WEIGHTS", 30 * 1000)  # 40 data sets x 1,000 samples: over
    monkeypatch.setattr(_signed_rank_jobs, "cached_weights", _Calls(None, most=0))
    result = stats.fold_comparison(log, "acc", "c", nsamples=1000)
    assert result.totals[["p_better", "p_equivalent", "p_worse"]].isna().all().all()
    assert result.signed_rank_left_out == ("x", "y")
    assert "not computed over 40 data sets" in result.sentence()
    assert any("41 x 1,000 Dirichlet weights" in note and "limit is 30,000" in note for note in result.notes)
    monkeypatch.undo()
    whole = stats.fold_comparison(log, "acc", "c", nsamples=1000)
    assert not whole.totals["p_better"].isna().any() and whole.signed_rank_left_out == ()


# --- the app: the pairs panel of many learners draws a block, not k x k cells ------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_pairs_panel_of_many_learners_shows_a_block_of_them(tmp_path: Path, size: tuple[int, int]) -> None:
    from tests.test_app import make_app, press, settle
    from tui.views.pairs.panel import MAX_SHOWN

    k = MAX_SHOWN + 15
    _model(tmp_path, 3, k)  # (writes the log)
    app = make_app([str(tmp_path / "scale.dat")])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "4")
        await settle(pilot)
        table, contrast = app.query_one("#pairs-table"), app.query_one("#contrast-table")
        learners = [f"L{x:04d}" for x in range(k)]
        assert [str(r.value) for r in table.rows] == learners[:MAX_SHOWN]  # not all 75 rows
        assert [str(c.value) for c in table.columns][1:] == learners[:MAX_SHOWN]  # nor 75 columns
        assert [str(r.value) for r in contrast.rows] == learners[:MAX_SHOWN]
        head = " ".join(app.query_one("#pairs-head").plain.split())
        assert f"{k} learners: the tables show the first {MAX_SHOWN} (rows and columns)" in head
        await press(pilot, "slash")
        await pilot.press(*"l007")
        await press(pilot, "enter")
        kept = [x for x in learners if "l007" in x.casefold()]
        assert [str(r.value) for r in table.rows] == kept and [str(c.value) for c in table.columns][1:] == kept
        head = " ".join(app.query_one("#pairs-head").plain.split())
        assert f"the {len(kept)} the / filter keeps (rows and columns)" in head
