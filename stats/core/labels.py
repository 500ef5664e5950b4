"""The printed names of the tests and procedures: the one place they are written.

The explorer, the text, Markdown, LaTeX and JSON reports and the results' sentences all take
their names from here (a module without numpy or scipy, so that naming costs nothing).
"""

#: The omnibus tests in the order every view and report prints them, with their printed names.
OMNIBUS_NAMES = {
    "friedman": "Friedman",
    "iman_davenport": "Iman-Davenport",
    "aligned": "Friedman aligned ranks",
    "quade": "Quade",
}
#: The symbol of each omnibus statistic (chi-square, F, T).
OMNIBUS_SYMBOLS = {"friedman": "chi2", "iman_davenport": "F", "aligned": "T", "quade": "F"}

#: The all-pairs procedures (the verdict's rules) by their printed names.
PROCEDURE_NAMES = {
    "nemenyi": "Nemenyi",
    "holm": "Holm",
    "shaffer": "Shaffer",
    "bergmann": "Bergmann-Hommel",
    "wilcoxon-holm": "Wilcoxon-Holm",
    "sign-holm": "sign-Holm",
}
#: The ranks behind a post-hoc's z statistics, as a sentence names them.
RANKS_NAMES = {"friedman": "Friedman", "aligned": "aligned", "quade": "Quade"}

#: The columns of the effect-size table of every pair (``stats.pairwise_effects``, the pairs view's
#: and the reports' effects) after ``a`` and ``b``; here, without scipy, so that the view model can
#: name them without loading what `rankboard check` never needs.
EFFECT_COLUMNS = (
    "a12",
    "a12_magnitude",
    "delta",
    "delta_magnitude",
    "hl_estimate",
    "hl_low",
    "hl_high",
    "hl_confidence",
    "mann_whitney_p",
)
#: The nominal level of the Hodges-Lehmann intervals of the pairs view and the reports (each
#: pair's attained level, ``hl_confidence``, is below it only where it cannot be reached).
HL_CONFIDENCE = 0.95
