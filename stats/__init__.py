"""rankboard's statistics engine: compare learners over data sets, correctly.

Input everywhere is a scores table: rows are data sets (blocks), columns are
learners, one number per cell (a DataFrame, or a 2-D array). Every test takes
``higher_is_better`` (False for pf, runtime and error-like criteria).

This package never imports textual or rich; it is usable on its own.
"""

from stats._format import fmt_p, fmt_stat, p_is
from stats._result import LogRead
from stats.adjust import CONTROL_METHODS, PAIRWISE_METHODS, adjust, rom_coefficients
from stats.agreement import kendall_tau
from stats.assumptions import levene, normality, parametric_safety
from stats.bergmann import MAX_EXACT_K, exhaustive_sets, shaffer_s, shaffer_t
from stats.cells import Aggregator, Completeness, ScoresTable, aggregate, completeness, scores_table
from stats.contrast import contrast_estimation
from stats.critical import critical_difference, q_alpha
from stats.effect_size import EffectSize, HodgesLehmann, a12, cliffs_delta, hodges_lehmann
from stats.fold_comparison import FoldComparison, default_rope, fold_comparison
from stats.fold_deltas import fold_deltas
from stats.folds_tests import (
    BayesProbabilities,
    CorrectedTTest,
    CorrelatedPosterior,
    bayes_correlated_ttest,
    bayes_signed_rank,
    corrected_ttest,
)
from stats.groups import apv_groups, cd_groups
from stats.letters import compact_letters
from stats.logs import Decompression, LoadCancelled, LogError, LogProblem, LogWatcher, WatchUpdate, read_logs
from stats.metrics import Confusion, balance, balance_nd, confusion, evaluate
from stats.multiple_sign import multiple_sign_test
from stats.names import printable, spreadsheet_safe
from stats.omnibus import (
    OMNIBUS_NAMES,
    OMNIBUS_SYMBOLS,
    AlignedRanksResult,
    FriedmanResult,
    ImanDavenportResult,
    QuadeResult,
    friedman,
    friedman_aligned,
    iman_davenport,
    quade,
)
from stats.pairwise_two_sample import PairwiseTwoSample, pairwise_wilcoxon
from stats.plateau import Plateau, learning_curve, plateau
from stats.posthoc import (
    BergmannLimitWarning,
    ControlTest,
    PairwiseTest,
    control_test,
    control_test_from_ranks,
    pairwise_test,
    pairwise_test_from_ranks,
    standard_error,
)
from stats.quartiles import Quartiles, quartile_chart, quartiles, scale_position
from stats.ranking import AverageRanks, average_ranks, ranks
from stats.regression_metrics import correlation, mmre, mre, pred, re
from stats.runner import RunSummary, run_cv, run_sequence
from stats.scott_knott import ScottKnottResult, Split, scott_knott
from stats.two_sample import mann_whitney, sign_test, wilcoxon
from stats.verdict import PROCEDURE_NAMES, RANKS_NAMES, Verdict, verdict
from stats.win_loss_tie import ttest_win_loss_tie

__all__ = [
    "OMNIBUS_NAMES",
    "OMNIBUS_SYMBOLS",
    "ControlTest",
    "LogRead",
    "PairwiseTest",
    "PairwiseTwoSample",
    "ScoresTable",
    "fmt_p",
    "fmt_stat",
    "p_is",
    "EffectSize",
    "HodgesLehmann",
    "a12",
    "cliffs_delta",
    "hodges_lehmann",
    "compact_letters",
    "ScottKnottResult",
    "Split",
    "scott_knott",
    "pairwise_wilcoxon",
    "BayesProbabilities",
    "FoldComparison",
    "default_rope",
    "fold_comparison",
    "fold_deltas",
    "CorrectedTTest",
    "CorrelatedPosterior",
    "bayes_correlated_ttest",
    "bayes_signed_rank",
    "corrected_ttest",
    "CONTROL_METHODS",
    "PAIRWISE_METHODS",
    "PROCEDURE_NAMES",
    "RANKS_NAMES",
    "Aggregator",
    "Completeness",
    "Decompression",
    "Confusion",
    "LoadCancelled",
    "LogError",
    "LogProblem",
    "LogWatcher",
    "RunSummary",
    "WatchUpdate",
    "aggregate",
    "apv_groups",
    "cd_groups",
    "completeness",
    "confusion",
    "evaluate",
    "balance",
    "balance_nd",
    "correlation",
    "mmre",
    "mre",
    "pred",
    "re",
    "kendall_tau",
    "run_cv",
    "run_sequence",
    "Plateau",
    "plateau",
    "learning_curve",
    "MAX_EXACT_K",
    "AlignedRanksResult",
    "AverageRanks",
    "BergmannLimitWarning",
    "FriedmanResult",
    "ImanDavenportResult",
    "QuadeResult",
    "Verdict",
    "adjust",
    "average_ranks",
    "contrast_estimation",
    "control_test",
    "control_test_from_ranks",
    "critical_difference",
    "exhaustive_sets",
    "friedman",
    "friedman_aligned",
    "iman_davenport",
    "levene",
    "mann_whitney",
    "multiple_sign_test",
    "printable",
    "spreadsheet_safe",
    "normality",
    "pairwise_test",
    "pairwise_test_from_ranks",
    "parametric_safety",
    "q_alpha",
    "quade",
    "Quartiles",
    "quartile_chart",
    "quartiles",
    "scale_position",
    "ranks",
    "read_logs",
    "rom_coefficients",
    "scores_table",
    "shaffer_s",
    "shaffer_t",
    "sign_test",
    "standard_error",
    "ttest_win_loss_tie",
    "verdict",
    "wilcoxon",
]
