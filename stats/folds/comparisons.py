"""Every learner against a control, data set by data set, from the fold-level results of a log
(issue 14): Weka's Experimenter table (corrected resampled t, marks ``v`` / ``*``, wins / ties /
losses) with the Bayesian correlated t-test on each data set and the Bayesian signed-rank test
across data sets.

Everything is computed for all (data set, learner) pairs at once: the log becomes one dense
data set x learner x (repeat, fold) array, and the per-pair formulas of :mod:`stats.folds.ttests`
are applied along its last axis (same numbers, degenerate cases included).

(The one vectorised pass that fills a :class:`~stats.folds.results.FoldComparison`; the results
and their sentences are :mod:`stats.folds.results`, the pairing :mod:`stats.folds.cube`, the
Monte Carlo :mod:`stats.folds.signed_rank`, run for every learner at once by
:mod:`stats.folds._signed_rank_jobs`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from stats.core import check_alpha, check_bool, paired_difference
from stats.folds._signed_rank_jobs import SignedRanks
from stats.folds.cube import FoldCube, fold_cube
from stats.folds.results import FoldComparison, PendingFoldComparison
from stats.folds.ttests import _rope

_TABLE_COLUMNS = [
    "runs",
    "folds",
    "mean_difference",
    "statistic",
    "pvalue",
    "mark",
    "p_better",
    "p_equivalent",
    "p_worse",
]


def _paired_means(xm: np.ndarray, ym: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """:func:`stats.folds.ttests._paired` of each column pair of ``xm`` and ``ym`` (finite), all at
    once: the same arithmetic element by element (each value and the difference rounded to 12
    significant digits of the pair's scale, the larger magnitude), so the same values."""
    d = paired_difference(xm, ym)
    return d if higher_is_better else -d


def rope_unit(values: Any) -> float | None:
    """The unit of the criterion's scale, that ropes are counted in: 0.01 (one percentage point)
    when every finite value lies in [0, 1]; 1.0 when not all do but every one lies in [0, 100]
    (per cent); else None, also when there is no finite value (the scale is unknown).

    Notes
    -----
    The bounds are closed: 0.0 (and -0.0), 1.0 and 100.0 are inside; 100.0000001 and -1e-300 are
    not. NaN and infinite values are ignored; the smallest and largest values suffice. A criterion
    that lies in [0, 100] without being per cent (seconds, counts) is taken for per cent: give its
    rope explicitly. Benavoli, Corani, Demsar & Zaffalon (2017, JMLR 18(77), Sec. 3.4) treat mean
    accuracies in [0, 1] closer than 0.01 as practically equivalent: one percentage point, hence
    0.01 on a proportion and 1 on the same quantity in per cent.

    Examples
    --------
    >>> rope_unit([0.8, 0.93, 1.0]), rope_unit([94.4, 98.9, 100.0]), rope_unit([-3.5, 2.0])
    (0.01, 1.0, None)
    """
    x = np.asarray(values, dtype=float).ravel()
    x = x[np.isfinite(x)]
    if not x.size or x.min() < 0.0:
        return None
    top = x.max()
    return 0.01 if top <= 1.0 else 1.0 if top <= 100.0 else None


def default_rope(values: Any) -> float:
    """The region of practical equivalence used when none is given: one unit of the criterion's
    scale (:func:`rope_unit`), i.e. 0.01 when every finite value lies in [0, 1] (a proportion:
    accuracy, pd, pf, precision, AUC...); 1.0 when not all do but every one lies in [0, 100] (a
    percentage); else 0.0: the scale is unknown, so no difference is declared negligible
    (:func:`fold_comparison` then says so in its first note). The bounds are closed.

    Benavoli, Corani, Demsar & Zaffalon (2017, "Time for a change: a tutorial for comparing
    multiple classifiers through Bayesian analysis", JMLR 18(77), Sec. 3.4) use 0.01 on accuracies
    in [0, 1]: a difference below one percentage point, hence 1 on a 0-100 scale.

    Examples
    --------
    >>> default_rope([0.8, 0.93, 1.0]), default_rope([94.4, 98.9]), default_rope([0.5, np.nan])
    (0.01, 1.0, 0.01)
    >>> default_rope([-3.5, 2.0]), default_rope([12.0, 250.0])
    (0.0, 0.0)
    """
    unit = rope_unit(values)
    return 0.0 if unit is None else unit


def _unknown_scale_note(criterion: str) -> str:
    """The first note of a comparison whose default rope is 0 because the criterion's scale is unknown."""
    return (
        f"rope 0: the scale of {criterion} is unknown (its values are not all within [0, 1] nor within "
        "[0, 100]), so no difference counts as practically negligible; give a rope in its units"
    )


def fold_comparison(
    log: pd.DataFrame | FoldCube,
    criterion: str,
    control: str,
    *,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    higher_is_better: bool = True,
    rope: float | None = None,
    alpha: float = 0.05,
    nsamples: int = 50000,
    seed: int = 0,
) -> FoldComparison:
    """Compare every learner with ``control`` on each data set, from the fold-level results.

    For each data set and learner L, L's results are paired with the control's on the (repeat,
    fold) keys both have; keys held by only one are left out (with a note). With the J paired
    differences d (positive: L better) and N the number of distinct folds among them:

    * the corrected resampled t, t = mean d / sqrt((1/J + 1/(N - 1)) s^2) with J - 1 degrees
      of freedom (Nadeau & Bengio 2003; :func:`stats.corrected_ttest`), two-sided p, and
      Weka's Experimenter mark: "v" when p < alpha and L is better, "*" when p < alpha and L is
      worse (Bouckaert & Frank 2004);
    * the Bayesian correlated t-test (Corani & Benavoli 2015, Eq. 8;
      :func:`stats.bayes_correlated_ttest`): P(mu > rope), P(|mu| <= rope), P(mu < -rope).

    Across data sets, the Bayesian signed-rank test (Benavoli et al. 2017, Sec. 5;
    :func:`stats.bayes_signed_rank`, its default prior 0.5, baycomp's) of L against the control on each data set's
    mean over the shared results. Its Dirichlet weights depend only on the number of data sets
    m, so they are drawn once per (m, nsamples, seed) and shared by the learners, and kept for
    the next call (:func:`stats.folds._signed_rank_engine.cached_weights`): each learner's probabilities are
    exactly those of ``bayes_signed_rank(..., nsamples=nsamples, seed=seed)`` on its
    means. The learners' Monte Carlo runs in a thread pool (one thread per CPU); the results do
    not depend on it.

    Cost: the per-data-set part is a few passes over the log's values. The signed-rank part is
    one O(nsamples * m) draw of weights (the first call for m only) and, per learner, bounds that
    decide most samples from the weights of the few values in the tails, the other samples summed
    exactly in O(m) each (:func:`stats.folds.signed_rank.signed_rank_counts`): a learner clearly better,
    equivalent or worse costs a few ms on 500 data sets, a close call up to O(nsamples * m) (see
    benchmarks/bench_folds.py); pass a smaller ``nsamples`` for a quicker, noisier answer.

    Parameters
    ----------
    log : DataFrame or FoldCube
        A tidy log (:func:`stats.read_logs`): dataset, repeat, fold, learner, criterion, value.
        A (dataset, repeat, fold, learner) given twice: the later row counts. Or the
        :func:`stats.fold_cube` of ``criterion`` (its learners and data sets, in its order; then
        ``learners`` and ``datasets`` must be None): the same results, without a pass over the
        log, so that comparing with another control costs only the comparison.
    criterion : str
        The criterion compared; the other rows are ignored.
    control : str
        The learner every other learner is compared with.
    learners, datasets : sequence of str, optional
        Which, in which order; default all that have results for ``criterion`` (category order
        for a Categorical column, else order of first appearance).
    higher_is_better : bool
        False for error-like criteria: then a lower value is better.
    rope : float, optional
        Half-width of the region of practical equivalence, in the criterion's units; default
        :func:`default_rope` of the criterion's values (0.01 on [0, 1], 1 on [0, 100], else 0,
        and then the first of the ``notes`` says that the scale is unknown).
    alpha : float
        Significance level of the marks.
    nsamples, seed : int
        Monte Carlo samples and seed of the signed-rank test.

    Returns
    -------
    FoldComparison
        ``table``, ``totals``, ``notes`` and the settings; ``sentence()`` states the verdicts.

    Raises
    ------
    ValueError
        Missing columns, an unknown criterion, learner, data set or control, or bad settings.

    Examples
    --------
    >>> log = pd.DataFrame({
    ...     "dataset": ["d"] * 8, "repeat": [1] * 8, "fold": [1, 2, 3, 4] * 2,
    ...     "learner": ["a"] * 4 + ["b"] * 4, "criterion": ["acc"] * 8,
    ...     "value": [0.8, 0.82, 0.79, 0.81, 0.78, 0.8, 0.8, 0.77]})
    >>> r = fold_comparison(log, "acc", "a", nsamples=1000)
    >>> r.table[["runs", "folds", "mark"]].to_dict("records"), r.rope
    ([{'runs': 4, 'folds': 4, 'mark': ''}], 0.01)
    """
    return begin_fold_comparison(
        log,
        criterion,
        control,
        learners=learners,
        datasets=datasets,
        higher_is_better=higher_is_better,
        rope=rope,
        alpha=alpha,
        nsamples=nsamples,
        seed=seed,
    ).result()


def begin_fold_comparison(
    log: pd.DataFrame | FoldCube,
    criterion: str,
    control: str,
    *,
    learners: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    higher_is_better: bool = True,
    rope: float | None = None,
    alpha: float = 0.05,
    nsamples: int = 50000,
    seed: int = 0,
    start: bool = True,
) -> PendingFoldComparison:
    """:func:`fold_comparison` in two steps: the per-data-set part now, the Bayesian signed-rank
    test across data sets when asked for. The explorer shows the first at once (a control toggle
    on 500 data sets x 20 learners) and the sentences of the second when they are done.

    Parameters are those of :func:`fold_comparison`, and ``start``: begin the signed-rank Monte
    Carlo now, in the thread pool, while this computes the per-data-set part (the quickest whole
    result), or (False) only when :meth:`~stats.PendingFoldComparison.start` or
    :meth:`~stats.PendingFoldComparison.result` is called (nothing competes with the
    per-data-set part for the CPU).

    Returns
    -------
    PendingFoldComparison
        ``early``: the :class:`FoldComparison` with NaN signed-rank probabilities in ``totals``;
        ``result()``: the whole :class:`FoldComparison`, that of :func:`fold_comparison` with
        the same arguments to the last bit, its ``table`` the very object of ``early``.

    Examples
    --------
    >>> log = pd.DataFrame({
    ...     "dataset": ["d"] * 8, "repeat": [1] * 8, "fold": [1, 2, 3, 4] * 2,
    ...     "learner": ["a"] * 4 + ["b"] * 4, "criterion": ["acc"] * 8,
    ...     "value": [0.8, 0.82, 0.79, 0.81, 0.78, 0.8, 0.8, 0.77]})
    >>> pending = begin_fold_comparison(log, "acc", "a", nsamples=1000, start=False)
    >>> bool(pending.early.totals["p_better"].isna().all()), pending.done
    (True, False)
    >>> pending.result().table is pending.early.table, pending.done
    (True, True)
    """
    check_bool("higher_is_better", higher_is_better)
    alpha = check_alpha(alpha)
    if isinstance(nsamples, bool) or int(nsamples) != nsamples or nsamples < 1:
        raise ValueError(f"nsamples must be a positive integer, got {nsamples!r}")
    cube = cube_of(log, criterion, learners, datasets)
    r = default_rope(cube.extremes) if rope is None else _rope(rope)
    p = cube.paired(control, higher_is_better)
    dnames, lnames, others, notes = p.dnames, p.lnames, p.others, p.notes
    if rope is None and rope_unit(cube.extremes) is None:  # first: the explorer shows the first note
        notes.insert(0, _unknown_scale_note(str(criterion)))
    if len(lnames) < 2:
        raise ValueError(f"need a learner besides the control {control!r}")
    shared, d = p.shared, p.d  # (p.x and p.y, the results, are made only where needed)
    n_keys = len(p.fold_index)
    if p.complete:  # every key shared: the counts are the same everywhere
        runs = np.full(d.shape[:2], n_keys, dtype=np.int64)
        union = runs
        n_folds = np.full(d.shape[:2], len(np.unique(p.fold_index)), dtype=np.int64)
    else:
        has_x, has_y = ~np.isnan(p.x), ~np.isnan(p.y)
        runs = shared.sum(axis=2)
        union = (has_x | has_y).sum(axis=2)
        onehot = np.zeros((n_keys, int(p.fold_index.max()) + 1 if n_keys else 0), dtype=np.float32)
        onehot[np.arange(n_keys), p.fold_index] = 1.0
        n_folds = ((shared.reshape(-1, n_keys).astype(np.float32) @ onehot) > 0).sum(axis=1).reshape(runs.shape)

    # moments as stats.folds.ttests._moments (an all-equal d: exactly (d_1, 0))
    usable = (runs >= 2) & (n_folds >= 2)
    j = np.where(usable, runs, 2).astype(float)
    # the Bayesian signed-rank test across data sets, on the means of the shared results: started
    # now in the pool, so that it runs while this thread computes the per-data-set results
    if p.complete:  # the cube's row sums, made once for every control (the same sums as x.sum)
        sums = cube.row_sums
        xm = sums[:, others] / j
        ym = np.broadcast_to(sums[:, p.control : p.control + 1], xm.shape) / j
    else:
        xm = np.where(shared, p.x, 0.0).sum(axis=2) / j
        ym = np.where(shared, p.y, 0.0).sum(axis=2) / j
    z = _paired_means(xm, ym, higher_is_better)  # every learner's differences at once
    zs = [z[usable[:, k], k] for k in range(len(others))]
    signed_rank = SignedRanks(zs, r, int(nsamples), seed) if start else None
    dz = d if p.complete else np.where(shared, d, 0.0)
    mean = dz.sum(axis=2) / j
    dev = d - mean[..., None]
    if not p.complete:
        dev[~shared] = 0.0
    var = np.multiply(dev, dev, out=dev).sum(axis=2) / (j - 1)  # (squared in place: no new array)
    top = (d if p.complete else np.where(shared, d, -np.inf)).max(axis=2)
    constant = top == (d if p.complete else np.where(shared, d, np.inf)).min(axis=2)
    mean = np.where(constant, top, mean)
    var = np.where(constant, 0.0, var)

    nf = np.where(usable, n_folds, 2).astype(float)
    post_scale = np.sqrt((1.0 / j + 1.0 / (nf - 1)) * var)
    df = j - 1
    flat_ok = post_scale == 0.0
    safe = np.where(flat_ok, 1.0, post_scale)
    t = mean / safe
    # Student's t sf and cdf as scipy.stats.t computes them (special.stdtr), without its generic
    # argument handling (a third of the per-data-set part on 500 x 19 pairs)
    pvalue = 2 * special.stdtr(df, -np.abs(t))
    t = np.where(flat_ok, np.where(mean == 0.0, 0.0, np.copysign(np.inf, mean)), t)
    pvalue = np.where(flat_ok, np.where(mean == 0.0, 1.0, 0.0), pvalue)

    p_a = special.stdtr(df, -((r - mean) / safe))  # sps.t.sf(r, df, loc=mean, scale=safe)
    p_b = special.stdtr(df, (-r - mean) / safe)  # sps.t.cdf(-r, df, loc=mean, scale=safe)
    if r == 0.0:
        point_a = np.where(mean == 0.0, 0.5, (mean > 0).astype(float))
        point_b = np.where(mean == 0.0, 0.5, (mean < 0).astype(float))
    else:
        point_a, point_b = (mean > r).astype(float), (mean < -r).astype(float)
    p_a = np.where(flat_ok, point_a, p_a)
    p_b = np.where(flat_ok, point_b, p_b)
    p_rope = np.maximum(0.0, 1.0 - p_a - p_b) if r > 0 else np.where(flat_ok, np.maximum(0.0, 1.0 - p_a - p_b), 0.0)
    if r == 0.0:
        p_b = np.where(flat_ok, p_b, 1.0 - p_a)

    significant = pvalue < alpha
    mark = np.where(significant & (t > 0), "v", np.where(significant & (t < 0), "*", ""))

    # notes: keys not shared, pairs left out
    for i, k in zip(*np.nonzero((union > runs) | ~usable)):
        name, other = dnames[i], lnames[others[k]]
        if not usable[i, k]:
            has_x, has_y = ~np.isnan(p.x[i, k]), ~np.isnan(p.y[i, k])
            if runs[i, k] == 0:
                why = (
                    f"{other} has no results"
                    if not has_x.any()
                    else f"{control} has no results"
                    if not has_y.any()
                    else f"{other} and {control} share no (repeat, fold) result"
                )
            elif runs[i, k] < 2:
                why = f"{other} and {control} share only 1 (repeat, fold) result (2 needed)"
            else:
                why = f"the {runs[i, k]} results {other} and {control} share are all from one fold (2 folds needed)"
            notes.append(f"{name}: {other} left out: {why}")
        else:
            notes.append(
                f"{name}: {other} and {control} share {runs[i, k]} of {union[i, k]} (repeat, fold) results; "
                f"{union[i, k] - runs[i, k]} left out"
            )

    di, li = np.nonzero(usable)
    # from the codes, levels in the cube's order (from_arrays would factorise 9,500 names again)
    index = pd.MultiIndex(
        levels=[pd.Index(list(dnames), dtype=object), pd.Index([lnames[i] for i in others], dtype=object)],
        codes=[di, li],
        names=["dataset", "learner"],
        verify_integrity=False,
    )
    if not usable.all():
        index = index.remove_unused_levels()
    table = pd.DataFrame(
        {
            "runs": runs[di, li].astype(np.int64),
            "folds": n_folds[di, li].astype(np.int64),
            "mean_difference": mean[di, li],
            "statistic": t[di, li],
            "pvalue": pvalue[di, li],
            "mark": mark[di, li].astype(object),
            "p_better": p_a[di, li],
            "p_equivalent": p_rope[di, li],
            "p_worse": p_b[di, li],
        },
        index=index,
    )

    # across data sets: the win/tie/loss counts; the signed-rank results come with result()
    totals = []
    for k in range(len(others)):
        ok = usable[:, k]
        marks = mark[ok, k]
        totals.append(
            {
                "wins": int((marks == "v").sum()),
                "ties": int((marks == "").sum()),
                "losses": int((marks == "*").sum()),
                "datasets": int(ok.sum()),
                "p_better": np.nan,
                "p_equivalent": np.nan,
                "p_worse": np.nan,
            }
        )
    totals_frame = pd.DataFrame(totals, index=pd.Index([lnames[i] for i in others], dtype=object, name="learner"))

    early = FoldComparison(
        table=table,
        totals=totals_frame,
        notes=tuple(notes),
        criterion=str(criterion),
        control=str(control),
        higher_is_better=bool(higher_is_better),
        rope=r,
        alpha=alpha,
    )
    return PendingFoldComparison(early, zs, int(nsamples), seed, signed_rank)


def cube_of(
    log: pd.DataFrame | FoldCube, criterion: str, learners: Sequence[str] | None, datasets: Sequence[str] | None
) -> FoldCube:
    """``log`` itself when it is a :class:`FoldCube` of ``criterion`` (then ``learners`` and
    ``datasets`` must be None: they are the cube's), else :func:`fold_cube` of the log."""
    if not isinstance(log, FoldCube):
        return fold_cube(log, criterion, learners=learners, datasets=datasets)
    if str(criterion) != log.criterion:
        raise ValueError(f"the fold cube holds {log.criterion!r}, not {criterion!r}")
    if learners is not None or datasets is not None:
        raise ValueError("a fold cube's learners and data sets are chosen when it is made (stats.fold_cube)")
    return log
