"""rankboard's statistics engine: compare learners over data sets, correctly.

Input everywhere is a scores table: rows are data sets (blocks), columns are
learners, one number per cell (a DataFrame, or a 2-D array). Every test takes
``higher_is_better`` (False for pf, runtime and error-like criteria).

This package never imports textual or rich; it is usable on its own.

Imports are lazy (PEP 562): ``import stats`` costs nothing until a name is used, so a
command that needs only the log readers never imports scipy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats._lazy import lazy

#: Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    "fmt_p": "stats._format",
    "fmt_stat": "stats._format",
    "p_is": "stats._format",
    "LogRead": "stats._result",
    "kendall_tau": "stats.agreement",
    "CONTROL_METHODS": "stats.apv",
    "LogCheck": "stats.checks",
    "check_logs": "stats.checks",
    "PAIRWISE_METHODS": "stats.apv",
    "adjust": "stats.apv",
    "PairwiseEffects": "stats.all_pairs_effects",
    "pairwise_effects": "stats.all_pairs_effects",
    "rom_coefficients": "stats.apv",
    "levene": "stats.assumptions",
    "normality": "stats.assumptions",
    "parametric_safety": "stats.assumptions",
    "MAX_EXACT_K": "stats.bergmann",
    "exhaustive_sets": "stats.bergmann",
    "shaffer_s": "stats.bergmann",
    "shaffer_t": "stats.bergmann",
    "Aggregator": "stats.cells",
    "Completeness": "stats.cells",
    "ScoresTable": "stats.cells",
    "aggregate": "stats.cells",
    "completeness": "stats.cells",
    "repeats_folds": "stats.cells",
    "scores_table": "stats.cells",
    "contrast_estimation": "stats.contrast",
    "critical_difference": "stats.critical",
    "q_alpha": "stats.critical",
    "EffectSize": "stats.effect_size",
    "HodgesLehmann": "stats.effect_size",
    "a12": "stats.effect_size",
    "cliffs_delta": "stats.effect_size",
    "hodges_lehmann": "stats.effect_size",
    "FoldComparison": "stats.fold_comparisons",
    "PendingFoldComparison": "stats.pending_folds",
    "begin_fold_comparison": "stats.fold_comparisons",
    "default_rope": "stats.fold_comparisons",
    "fold_comparison": "stats.fold_comparisons",
    "fold_deltas": "stats.deltas",
    "FoldCube": "stats.paired_folds",
    "fold_cube": "stats.paired_folds",
    "BayesProbabilities": "stats.folds_tests",
    "CorrectedTTest": "stats.folds_tests",
    "CorrelatedPosterior": "stats.folds_tests",
    "bayes_correlated_ttest": "stats.folds_tests",
    "bayes_signed_rank": "stats.folds_tests",
    "corrected_ttest": "stats.folds_tests",
    "apv_groups": "stats.groups",
    "cd_groups": "stats.groups",
    "compact_letters": "stats.letters",
    "Decompression": "stats.logs",
    "LoadCancelled": "stats.logs",
    "LogError": "stats.logs",
    "LogProblem": "stats.logs",
    "LogWatcher": "stats.logs",
    "WatchUpdate": "stats.logs",
    "read_logs": "stats.logs",
    "SpilledLogs": "stats.logs",
    "log_size": "stats.logs",
    "BoundedAggregate": "stats.bounded",
    "aggregate_logs": "stats.bounded",
    "Confusion": "stats.metrics",
    "balance": "stats.metrics",
    "balance_nd": "stats.metrics",
    "confusion": "stats.metrics",
    "evaluate": "stats.metrics",
    "multiple_sign_test": "stats.multiple_sign",
    "printable": "stats.names",
    "spreadsheet_safe": "stats.names",
    "AlignedRanksResult": "stats.omnibus",
    "FriedmanResult": "stats.omnibus",
    "ImanDavenportResult": "stats.omnibus",
    "OMNIBUS_NAMES": "stats.labels",
    "OMNIBUS_SYMBOLS": "stats.labels",
    "QuadeResult": "stats.omnibus",
    "friedman": "stats.omnibus",
    "friedman_aligned": "stats.omnibus",
    "iman_davenport": "stats.omnibus",
    "quade": "stats.omnibus",
    "PairwiseTwoSample": "stats.pairwise_two_sample",
    "pairwise_wilcoxon": "stats.pairwise_two_sample",
    "Plateau": "stats.learning_curves",
    "learning_curve": "stats.learning_curves",
    "plateau": "stats.learning_curves",
    "BergmannLimitWarning": "stats.posthoc",
    "ControlTest": "stats.posthoc",
    "PairwiseTest": "stats.posthoc",
    "control_test": "stats.posthoc",
    "control_test_from_ranks": "stats.posthoc",
    "pairwise_test": "stats.posthoc",
    "pairwise_test_from_ranks": "stats.posthoc",
    "standard_error": "stats.posthoc",
    "Quartiles": "stats.quartile_charts",
    "quartile_chart": "stats.quartile_charts",
    "quartiles": "stats.quartile_charts",
    "scale_position": "stats.quartile_charts",
    "AverageRanks": "stats.ranking",
    "RankedTable": "stats.ranking",
    "average_ranks": "stats.ranking",
    "ranked_table": "stats.ranking",
    "ranks": "stats.ranking",
    "correlation": "stats.regression_metrics",
    "mmre": "stats.regression_metrics",
    "mre": "stats.regression_metrics",
    "pred": "stats.regression_metrics",
    "re": "stats.regression_metrics",
    "RunSummary": "stats.runner",
    "run_cv": "stats.runner",
    "run_sequence": "stats.runner",
    "ScottKnottResult": "stats.scott_knott_ranking",
    "Split": "stats.scott_knott_ranking",
    "scott_knott": "stats.scott_knott_ranking",
    "mann_whitney": "stats.two_sample",
    "sign_test": "stats.two_sample",
    "wilcoxon": "stats.two_sample",
    "PROCEDURE_NAMES": "stats.labels",
    "RANKS_NAMES": "stats.labels",
    "Verdict": "stats.verdicts",
    "verdict": "stats.verdicts",
    "ttest_win_loss_tie": "stats.win_loss_tie",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly (F401: they are __all__)
    from stats._format import fmt_p, fmt_stat, p_is  # noqa: F401
    from stats._result import LogRead  # noqa: F401
    from stats.agreement import kendall_tau  # noqa: F401
    from stats.all_pairs_effects import PairwiseEffects, pairwise_effects  # noqa: F401
    from stats.apv import CONTROL_METHODS, PAIRWISE_METHODS, adjust, rom_coefficients  # noqa: F401
    from stats.assumptions import levene, normality, parametric_safety  # noqa: F401
    from stats.bergmann import MAX_EXACT_K, exhaustive_sets, shaffer_s, shaffer_t  # noqa: F401
    from stats.bounded import BoundedAggregate, aggregate_logs  # noqa: F401
    from stats.cells import (  # noqa: F401
        Aggregator,
        Completeness,
        ScoresTable,
        aggregate,
        completeness,
        repeats_folds,
        scores_table,
    )
    from stats.checks import LogCheck, check_logs  # noqa: F401
    from stats.contrast import contrast_estimation  # noqa: F401
    from stats.critical import critical_difference, q_alpha  # noqa: F401
    from stats.deltas import fold_deltas  # noqa: F401
    from stats.effect_size import EffectSize, HodgesLehmann, a12, cliffs_delta, hodges_lehmann  # noqa: F401
    from stats.fold_comparisons import FoldComparison, begin_fold_comparison, default_rope, fold_comparison  # noqa: F401
    from stats.folds_tests import (  # noqa: F401
        BayesProbabilities,
        CorrectedTTest,
        CorrelatedPosterior,
        bayes_correlated_ttest,
        bayes_signed_rank,
        corrected_ttest,
    )
    from stats.groups import apv_groups, cd_groups  # noqa: F401
    from stats.labels import OMNIBUS_NAMES, OMNIBUS_SYMBOLS, PROCEDURE_NAMES, RANKS_NAMES  # noqa: F401
    from stats.learning_curves import Plateau, learning_curve, plateau  # noqa: F401
    from stats.letters import compact_letters  # noqa: F401
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
    from stats.metrics import Confusion, balance, balance_nd, confusion, evaluate  # noqa: F401
    from stats.multiple_sign import multiple_sign_test  # noqa: F401
    from stats.names import printable, spreadsheet_safe  # noqa: F401
    from stats.omnibus import (  # noqa: F401
        AlignedRanksResult,
        FriedmanResult,
        ImanDavenportResult,
        QuadeResult,
        friedman,
        friedman_aligned,
        iman_davenport,
        quade,
    )
    from stats.paired_folds import FoldCube, fold_cube  # noqa: F401
    from stats.pairwise_two_sample import PairwiseTwoSample, pairwise_wilcoxon  # noqa: F401
    from stats.pending_folds import PendingFoldComparison  # noqa: F401
    from stats.posthoc import (  # noqa: F401
        BergmannLimitWarning,
        ControlTest,
        PairwiseTest,
        control_test,
        control_test_from_ranks,
        pairwise_test,
        pairwise_test_from_ranks,
        standard_error,
    )
    from stats.quartile_charts import Quartiles, quartile_chart, quartiles, scale_position  # noqa: F401
    from stats.ranking import AverageRanks, RankedTable, average_ranks, ranked_table, ranks  # noqa: F401
    from stats.regression_metrics import correlation, mmre, mre, pred, re  # noqa: F401
    from stats.runner import RunSummary, run_cv, run_sequence  # noqa: F401
    from stats.scott_knott_ranking import ScottKnottResult, Split, scott_knott  # noqa: F401
    from stats.two_sample import mann_whitney, sign_test, wilcoxon  # noqa: F401
    from stats.verdicts import Verdict, verdict  # noqa: F401
    from stats.win_loss_tie import ttest_win_loss_tie  # noqa: F401
