"""rankboard's statistics engine: compare learners over data sets, correctly.

Input everywhere is a scores table: rows are data sets (blocks), columns are
learners, one number per cell (a DataFrame, or a 2-D array). Every test takes
``higher_is_better`` (False for pf, runtime and error-like criteria).

This package never imports textual or rich; it is usable on its own.

Imports are lazy (PEP 562): ``import stats`` costs nothing until a name is used, so a
command that needs only the log readers never imports scipy.

Every public name is importable from here; the modules are grouped by concern:

* :mod:`stats.core`: the scores table and the decimal rule, results, formatting, integer keys,
  safe names, the printed labels (imports nothing else of :mod:`stats`);
* :mod:`stats.ranking`: ranks, the omnibus tests (Skillings-Mack's for incomplete tables too),
  critical differences, Kendall's tau, the conditions of parametric tests;
* :mod:`stats.twosample`: two-learner tests and effect sizes (one pair or all pairs);
* :mod:`stats.posthoc`: z tests on ranks, adjusted p-values, Shaffer and Bergmann-Hommel, the
  multiple sign test, contrast estimation, all pairs by a two-sample test;
* :mod:`stats.groupings`: the verdict, critical-difference groups, compact letters, Scott-Knott,
  the stability and fragility of each conclusion;
* :mod:`stats.folds`: the fold-level comparisons (corrected and Bayesian correlated t-tests, the
  Bayesian signed-rank test, the fold cube, comparisons against a control, deltas);
* :mod:`stats.charts`: quartile summaries and charts, learning curves;
* :mod:`stats.logs`, :mod:`stats.cells`, :mod:`stats.intake`, :mod:`stats.runner`: read logs,
  summarise their cells, both at once (bounded memory, ``rankboard check``), and write logs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    "Aggregator": "stats.cells",
    "Completeness": "stats.cells",
    "ScoresTable": "stats.cells",
    "aggregate": "stats.cells",
    "completeness": "stats.cells",
    "repeats_folds": "stats.cells",
    "scores_table": "stats.cells",
    "Plateau": "stats.charts.learning_curves",
    "learning_curve": "stats.charts.learning_curves",
    "plateau": "stats.charts.learning_curves",
    "Quartiles": "stats.charts.quartiles",
    "quartile_chart": "stats.charts.quartiles",
    "quartiles": "stats.charts.quartiles",
    "scale_position": "stats.charts.quartiles",
    "LogRead": "stats.core",
    "fmt_p": "stats.core",
    "fmt_stat": "stats.core",
    "p_is": "stats.core",
    "OMNIBUS_NAMES": "stats.core.labels",
    "OMNIBUS_SYMBOLS": "stats.core.labels",
    "PROCEDURE_NAMES": "stats.core.labels",
    "RANKS_NAMES": "stats.core.labels",
    "printable": "stats.core.names",
    "spreadsheet_safe": "stats.core.names",
    "begin_fold_comparison": "stats.folds.comparisons",
    "default_rope": "stats.folds.comparisons",
    "fold_comparison": "stats.folds.comparisons",
    "rope_unit": "stats.folds.comparisons",
    "FoldCube": "stats.folds.cube",
    "fold_cube": "stats.folds.cube",
    "fold_deltas": "stats.folds.deltas",
    "FoldComparison": "stats.folds.results",
    "PendingFoldComparison": "stats.folds.results",
    "bayes_signed_rank": "stats.folds.signed_rank",
    "BayesProbabilities": "stats.folds.ttests",
    "CorrectedTTest": "stats.folds.ttests",
    "CorrelatedPosterior": "stats.folds.ttests",
    "bayes_correlated_ttest": "stats.folds.ttests",
    "corrected_ttest": "stats.folds.ttests",
    "apv_groups": "stats.groupings.groups",
    "cd_groups": "stats.groupings.groups",
    "Cancelled": "stats.groupings.fragility",
    "Fragility": "stats.groupings.fragility",
    "OmnibusFragility": "stats.groupings.fragility",
    "fragility": "stats.groupings.fragility",
    "compact_letters": "stats.groupings.letters",
    "ScottKnottResult": "stats.groupings.scott_knott",
    "Split": "stats.groupings.scott_knott",
    "scott_knott": "stats.groupings.scott_knott",
    "scott_knott_ranks": "stats.groupings.scott_knott_many",
    "OmnibusStability": "stats.groupings.stability",
    "Stability": "stats.groupings.stability",
    "stability": "stats.groupings.stability",
    "Verdict": "stats.groupings.verdicts",
    "verdict": "stats.groupings.verdicts",
    "BoundedAggregate": "stats.intake.bounded",
    "aggregate_logs": "stats.intake.bounded",
    "LogCheck": "stats.intake.checks",
    "check_logs": "stats.intake.checks",
    "Decompression": "stats.logs",
    "LoadCancelled": "stats.logs",
    "LogError": "stats.logs",
    "LogProblem": "stats.logs",
    "LogWatcher": "stats.logs",
    "SpilledLogs": "stats.logs",
    "WatchUpdate": "stats.logs",
    "log_size": "stats.logs",
    "read_logs": "stats.logs",
    "CONTROL_METHODS": "stats.posthoc.apv",
    "PAIRWISE_METHODS": "stats.posthoc.apv",
    "adjust": "stats.posthoc.apv",
    "rom_coefficients": "stats.posthoc.apv",
    "contrast_estimation": "stats.posthoc.contrast",
    "multiple_sign_test": "stats.posthoc.multiple_sign",
    "PairwiseTwoSample": "stats.posthoc.pairwise_two_sample",
    "pairwise_wilcoxon": "stats.posthoc.pairwise_two_sample",
    "MAX_EXACT_K": "stats.posthoc.shaffer_bergmann",
    "exhaustive_sets": "stats.posthoc.shaffer_bergmann",
    "shaffer_s": "stats.posthoc.shaffer_bergmann",
    "shaffer_t": "stats.posthoc.shaffer_bergmann",
    "BergmannLimitWarning": "stats.posthoc.ztests",
    "ControlTest": "stats.posthoc.ztests",
    "PairwiseTest": "stats.posthoc.ztests",
    "control_test": "stats.posthoc.ztests",
    "control_test_from_ranks": "stats.posthoc.ztests",
    "pairwise_test": "stats.posthoc.ztests",
    "pairwise_test_from_ranks": "stats.posthoc.ztests",
    "standard_error": "stats.posthoc.ztests",
    "kendall_tau": "stats.ranking.agreement",
    "levene": "stats.ranking.assumptions",
    "normality": "stats.ranking.assumptions",
    "parametric_safety": "stats.ranking.assumptions",
    "critical_difference": "stats.ranking.critical",
    "nemenyi_tukey_p": "stats.ranking.critical",
    "q_alpha": "stats.ranking.critical",
    "AlignedRanksResult": "stats.ranking.omnibus",
    "FriedmanResult": "stats.ranking.omnibus",
    "ImanDavenportResult": "stats.ranking.omnibus",
    "QuadeResult": "stats.ranking.omnibus",
    "friedman": "stats.ranking.omnibus",
    "friedman_aligned": "stats.ranking.omnibus",
    "iman_davenport": "stats.ranking.omnibus",
    "quade": "stats.ranking.omnibus",
    "AverageRanks": "stats.ranking.ranks",
    "RankedTable": "stats.ranking.ranks",
    "average_ranks": "stats.ranking.ranks",
    "ranked_table": "stats.ranking.ranks",
    "ranks": "stats.ranking.ranks",
    "SkillingsMackResult": "stats.ranking.skillings_mack",
    "skillings_mack": "stats.ranking.skillings_mack",
    "RunSummary": "stats.runner",
    "run_cv": "stats.runner",
    "run_sequence": "stats.runner",
    "Confusion": "stats.runner.metrics",
    "balance": "stats.runner.metrics",
    "balance_nd": "stats.runner.metrics",
    "confusion": "stats.runner.metrics",
    "evaluate": "stats.runner.metrics",
    "correlation": "stats.runner.regression_metrics",
    "mmre": "stats.runner.regression_metrics",
    "mre": "stats.runner.regression_metrics",
    "pred": "stats.runner.regression_metrics",
    "re": "stats.runner.regression_metrics",
    "PairwiseEffects": "stats.twosample.all_pairs_effects",
    "pairwise_effects": "stats.twosample.all_pairs_effects",
    "EffectSize": "stats.twosample.effect_size",
    "HodgesLehmann": "stats.twosample.effect_size",
    "a12": "stats.twosample.effect_size",
    "cliffs_delta": "stats.twosample.effect_size",
    "hodges_lehmann": "stats.twosample.effect_size",
    "mann_whitney": "stats.twosample.nonparametric",
    "sign_test": "stats.twosample.nonparametric",
    "wilcoxon": "stats.twosample.nonparametric",
    "ttest_win_loss_tie": "stats.twosample.win_loss_tie",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly (F401: they are __all__)
    from stats.cells import (  # noqa: F401
        Aggregator,
        Completeness,
        ScoresTable,
        aggregate,
        completeness,
        repeats_folds,
        scores_table,
    )
    from stats.charts.learning_curves import Plateau, learning_curve, plateau  # noqa: F401
    from stats.charts.quartiles import Quartiles, quartile_chart, quartiles, scale_position  # noqa: F401
    from stats.core import LogRead, fmt_p, fmt_stat, p_is  # noqa: F401
    from stats.core.labels import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, PROCEDURE_NAMES, RANKS_NAMES  # noqa: F401
    from stats.core.names import printable, spreadsheet_safe  # noqa: F401
    from stats.folds.comparisons import begin_fold_comparison, default_rope, fold_comparison, rope_unit  # noqa: F401
    from stats.folds.cube import FoldCube, fold_cube  # noqa: F401
    from stats.folds.deltas import fold_deltas  # noqa: F401
    from stats.folds.results import FoldComparison, PendingFoldComparison  # noqa: F401
    from stats.folds.signed_rank import bayes_signed_rank  # noqa: F401
    from stats.folds.ttests import (  # noqa: F401
        BayesProbabilities,
        CorrectedTTest,
        CorrelatedPosterior,
        bayes_correlated_ttest,
        corrected_ttest,
    )
    from stats.groupings.fragility import Cancelled, Fragility, OmnibusFragility, fragility  # noqa: F401
    from stats.groupings.groups import apv_groups, cd_groups  # noqa: F401
    from stats.groupings.letters import compact_letters  # noqa: F401
    from stats.groupings.scott_knott import ScottKnottResult, Split, scott_knott  # noqa: F401
    from stats.groupings.scott_knott_many import scott_knott_ranks  # noqa: F401
    from stats.groupings.stability import OmnibusStability, Stability, stability  # noqa: F401
    from stats.groupings.verdicts import Verdict, verdict  # noqa: F401
    from stats.intake.bounded import BoundedAggregate, aggregate_logs  # noqa: F401
    from stats.intake.checks import LogCheck, check_logs  # noqa: F401
    from stats.logs import (  # noqa: F401
        Decompression,
        LoadCancelled,
        LogError,
        LogProblem,
        LogWatcher,
        SpilledLogs,
        WatchUpdate,
        log_size,
        read_logs,
    )
    from stats.posthoc.apv import CONTROL_METHODS, PAIRWISE_METHODS, adjust, rom_coefficients  # noqa: F401
    from stats.posthoc.contrast import contrast_estimation  # noqa: F401
    from stats.posthoc.multiple_sign import multiple_sign_test  # noqa: F401
    from stats.posthoc.pairwise_two_sample import PairwiseTwoSample, pairwise_wilcoxon  # noqa: F401
    from stats.posthoc.shaffer_bergmann import MAX_EXACT_K, exhaustive_sets, shaffer_s, shaffer_t  # noqa: F401
    from stats.posthoc.ztests import (  # noqa: F401
        BergmannLimitWarning,
        ControlTest,
        PairwiseTest,
        control_test,
        control_test_from_ranks,
        pairwise_test,
        pairwise_test_from_ranks,
        standard_error,
    )
    from stats.ranking.agreement import kendall_tau  # noqa: F401
    from stats.ranking.assumptions import levene, normality, parametric_safety  # noqa: F401
    from stats.ranking.critical import critical_difference, nemenyi_tukey_p, q_alpha  # noqa: F401
    from stats.ranking.omnibus import (  # noqa: F401
        AlignedRanksResult,
        FriedmanResult,
        ImanDavenportResult,
        QuadeResult,
        friedman,
        friedman_aligned,
        iman_davenport,
        quade,
    )
    from stats.ranking.ranks import AverageRanks, RankedTable, average_ranks, ranked_table, ranks  # noqa: F401
    from stats.ranking.skillings_mack import SkillingsMackResult, skillings_mack  # noqa: F401
    from stats.runner import RunSummary, run_cv, run_sequence  # noqa: F401
    from stats.runner.metrics import Confusion, balance, balance_nd, confusion, evaluate  # noqa: F401
    from stats.runner.regression_metrics import correlation, mmre, mre, pred, re  # noqa: F401
    from stats.twosample.all_pairs_effects import PairwiseEffects, pairwise_effects  # noqa: F401
    from stats.twosample.effect_size import EffectSize, HodgesLehmann, a12, cliffs_delta, hodges_lehmann  # noqa: F401
    from stats.twosample.nonparametric import mann_whitney, sign_test, wilcoxon  # noqa: F401
    from stats.twosample.win_loss_tie import ttest_win_loss_tie  # noqa: F401
