"""stats.fold_cube (issue 14's speed bars): the fold-level results built once and compared with
any control. Every pair's numbers equal the per-pair functions of stats.folds.ttests on the keys
both learners have (an independent pairing: a pivot per data set), on logs that exercise the
cube's shortcuts (values whose magnitudes differ in exponent, zeros, NaN, missing keys, repeated
keys, scales beyond 1e12); and the explorer's cached cubes give what a fresh call on the log
gives, after a live update too, and are rebuilt for another criterion, data sets or learners."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import stats
from stats import bayes_correlated_ttest, corrected_ttest, fold_comparison, fold_cube, fold_deltas
from stats.folds.ttests import _paired
from tui.model import Model


def _log(seed: int, bases: list[float], decimals: int | None, drop: float = 0.0, nan: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n_d, n_l, n_r, n_f = 8, 4, 3, 5
    base = rng.choice(bases, size=n_d)
    v = base[:, None, None, None] * (1 + rng.normal(0, 0.4, (n_d, n_l, n_r, n_f)))
    if decimals is not None:
        v = np.round(v, decimals)
    d, l_, r, f = np.meshgrid(range(n_d), range(n_l), range(n_r), range(n_f), indexing="ij")
    frame = pd.DataFrame(
        {
            "dataset": [f"d{i}" for i in d.ravel()],
            "repeat": r.ravel() + 1,
            "fold": f.ravel() + 1,
            "learner": [f"l{i}" for i in l_.ravel()],
            "criterion": "c",
            "value": v.ravel(),
        }
    )
    frame = frame[rng.random(len(frame)) >= drop].reset_index(drop=True)
    if nan:
        frame.loc[rng.choice(len(frame), nan, replace=False), "value"] = np.nan
    return frame


LOGS = {
    # complete, one cube shortcut throughout: magnitudes around 0.1 and 1 (exponents differ in a pair)
    "complete": lambda: _log(1, [0.1, 0.12, 0.95, 0.5, 0.01], 3),
    "complete-raw": lambda: _log(2, [0.1, 0.9, 3.0], None),
    "missing-nan-zero": lambda: _log(3, [0.05, 0.1, 1e-5], 4, drop=0.1, nan=6),
    "huge-and-tiny": lambda: _log(4, [2e13, 5e-300, 7.0], None, drop=0.05),
}


def _expected(log: pd.DataFrame, control: str, higher_is_better: bool, rope: float) -> dict:
    """Each pair by the per-pair functions on the keys both have (the later of repeated rows)."""
    out = {}
    rows = log[np.isfinite(log["value"])].drop_duplicates(["dataset", "repeat", "fold", "learner"], keep="last")
    for name, part in rows.groupby("dataset", sort=False):
        wide = part.pivot_table(index=["repeat", "fold"], columns="learner", values="value", aggfunc="last")
        for learner in wide.columns:
            if learner == control or control not in wide:
                continue
            both = wide[[learner, control]].dropna()
            folds = both.index.get_level_values("fold").nunique()
            if len(both) < 2 or folds < 2:
                continue
            a, b = both[learner].to_numpy(), both[control].to_numpy()
            d = _paired(a, b, higher_is_better)
            mean = float(d[0]) if np.ptp(d) == 0 else float(np.mean(d))  # stats.folds.ttests._moments
            out[(name, learner)] = (mean, d, folds, a, b)
    return out


@pytest.mark.parametrize("name", sorted(LOGS))
@pytest.mark.parametrize(("control", "higher_is_better", "rope"), [("l0", True, 0.05), ("l2", False, 0.0)])
def test_every_pair_from_the_cube_equals_the_per_pair_functions(
    name: str, control: str, higher_is_better: bool, rope: float
) -> None:
    log = LOGS[name]()
    cube = fold_cube(log, "c")
    result = fold_comparison(cube, "c", control, higher_is_better=higher_is_better, rope=rope, nsamples=500)
    expected = _expected(log, control, higher_is_better, rope)
    assert set(result.table.index) == set(expected)
    # every key shared: the same sums, equal to the bit; with keys left out the cube sums zeros in
    # their place (the same numbers to rounding)
    same = (lambda x, y: x == y) if name.startswith("complete") else (lambda x, y: x == pytest.approx(y, rel=1e-12))
    for key, (mean, d, n_folds, a, b) in expected.items():
        row = result.table.loc[key]
        assert (int(row["runs"]), int(row["folds"])) == (len(d), n_folds)
        assert same(row["mean_difference"], mean)
        if len(d) % n_folds == 0:  # R x N: the per-pair functions apply as they are
            t = corrected_ttest(a, b, folds=n_folds, higher_is_better=higher_is_better)
            p = bayes_correlated_ttest(a, b, folds=n_folds, rope=rope, higher_is_better=higher_is_better)
            got = (row["statistic"], row["pvalue"], row["p_better"], row["p_equivalent"], row["p_worse"])
            assert all(same(x, y) for x, y in zip(got, (t.statistic, t.pvalue, p.p_a, p.p_rope, p.p_b))), key
    # the deltas are the per-pair differences, value for value
    deltas = fold_deltas(cube, "c", control, higher_is_better=higher_is_better)
    for (dataset, learner), part in deltas.groupby(["dataset", "learner"], sort=False):
        if (dataset, learner) in expected:
            np.testing.assert_array_equal(part["delta"].to_numpy(), expected[(dataset, learner)][1])


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_cube_gives_what_the_log_gives(name: str) -> None:
    log = LOGS[name]()
    cube = fold_cube(log, "c", learners=["l3", "l0", "l1"], datasets=["d5", "d0", "d2", "d7"])
    for control in ("l0", "l3"):
        a = fold_comparison(log, "c", control, learners=["l3", "l0", "l1"], datasets=["d5", "d0", "d2", "d7"])
        b = fold_comparison(cube, "c", control)
        pd.testing.assert_frame_equal(a.table, b.table, check_exact=True)
        pd.testing.assert_frame_equal(a.totals, b.totals, check_exact=True)
        assert (a.notes, a.rope) == (b.notes, b.rope)


def test_a_cube_is_of_one_criterion_and_selection() -> None:
    log = LOGS["complete"]()
    cube = fold_cube(log, "c", learners=["l0", "l1"])
    with pytest.raises(ValueError, match="holds 'c', not 'x'"):
        fold_comparison(cube, "x", "l0")
    with pytest.raises(ValueError, match="chosen when it is made"):
        fold_comparison(cube, "c", "l0", learners=["l0", "l1"])
    with pytest.raises(ValueError, match="control 'l2' is not one of the learners"):
        fold_comparison(cube, "c", "l2")


def _grown(rows: pd.DataFrame, seed: int) -> pd.DataFrame:
    """New rows for a live update: a new repeat of every result, and a new data set."""
    rng = np.random.default_rng(seed)
    more = rows.assign(repeat=rows["repeat"].max() + 1, value=rows["value"] + rng.normal(0, 0.01, len(rows)))
    new = rows[rows["dataset"] == rows["dataset"].iloc[0]].assign(dataset="d_new")
    return pd.concat([more, new], ignore_index=True)


def test_the_explorers_cached_path_equals_a_fresh_call_after_live_updates_and_selection_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = LOGS["complete"]()
    log = pd.concat([base, base.assign(criterion="other", value=base["value"] * 2)], ignore_index=True)
    made: list[tuple] = []
    real = stats.fold_cube

    def counted(results: pd.DataFrame, criterion: str, **kw: object) -> stats.FoldCube:
        made.append((criterion, tuple(kw["datasets"]), tuple(kw["learners"])))  # type: ignore[arg-type]
        return real(results, criterion, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(stats, "fold_cube", counted)
    agg = stats.Aggregator(log)
    model = Model.from_aggregator(agg)

    def check(model: Model, sel: object, current: pd.DataFrame) -> None:
        view = model.analyze(sel).folds  # type: ignore[arg-type]
        fresh = real(current, sel.criterion, learners=sel.learners, datasets=sel.datasets)  # type: ignore[attr-defined]
        direct = fold_comparison(fresh, sel.criterion, view.control, higher_is_better=sel.higher_is_better)  # type: ignore[attr-defined]
        pd.testing.assert_frame_equal(view.table, direct.table, check_exact=True)
        pd.testing.assert_frame_equal(view.totals, direct.totals, check_exact=True)

    sel = replace(model.default_selection("c"), control="l0")
    check(model, sel, log[log.criterion == "c"])
    for control in ("l1", "l2", "l0"):  # the control changes: one cube for all
        check(model, replace(sel, control=control), log[log.criterion == "c"])
    assert len(made) == 1
    check(model, replace(sel, control="l1", higher_is_better=False), log[log.criterion == "c"])
    assert len(made) == 1  # the direction: the same cube
    check(model, replace(sel, datasets=sel.datasets[:5]), log[log.criterion == "c"])
    check(model, replace(sel, learners=sel.learners[:3]), log[log.criterion == "c"])
    other = replace(model.default_selection("other"), control="l0")
    check(model, other, log[log.criterion == "other"])
    assert len(made) == 4  # data sets, learners, criterion: a cube each

    # a live update that appends rows to "c": the model that follows it builds "c"'s cube anew
    grown = _grown(log[log.criterion == "c"], 5)
    touched = agg.add(grown)
    model = model.updated(agg, {str(c) for c in touched.get_level_values("criterion")})
    current = pd.concat([log, grown], ignore_index=True)
    sel = replace(model.default_selection("c"), control="l1")
    assert "d_new" in sel.datasets
    check(model, sel, current[current.criterion == "c"])
    assert made[-1][0] == "c" and len(made) == 5
    check(model, other, current[current.criterion == "other"])  # untouched: its cube kept
    assert len(made) == 5
