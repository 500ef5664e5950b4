"""The plain values the views render: a selection in, an analysis out.

Frozen dataclasses only; nothing here imports textual or rich, so the
headless report and the app render the very same numbers. Re-exported by
:mod:`tui.viewmodel`, which builds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

#: The five views, in the order of their keys (1-5) and of ``--view all``.
VIEWS = ("quartiles", "ranks", "tests", "pairs", "cd")

#: Omnibus rank tests whose average ranks give the control table's z.
TESTS = ("friedman", "aligned", "quade")
#: All-pairs procedures of the pairs matrix (``stats.pairwise_test`` columns).
PROCEDURES = ("nemenyi", "holm", "shaffer", "bergmann")


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")


@dataclass(frozen=True)
class Selection:
    """What the user looks at: one criterion, its direction, the data sets and learners, options.

    ``control`` None (or a learner no longer selected) means the best-ranked
    learner; ``pair`` None (or a pair not both selected) means the best versus
    the second best. ``test`` picks the ranks behind the z statistics of the
    control table and of the pairs matrix. Invalid ``test``, ``procedure`` or
    ``alpha`` raise ``ValueError`` at construction (a programming error, not
    bad data).
    """

    criterion: str
    higher_is_better: bool
    datasets: tuple[str, ...]
    learners: tuple[str, ...]
    control: str | None = None
    alpha: float = 0.05
    test: str = "friedman"
    procedure: str = "holm"
    pair: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        _choice("test", self.test, TESTS)
        _choice("procedure", self.procedure, PROCEDURES)
        if isinstance(self.alpha, bool) or not 0.0 < float(self.alpha) < 1.0:
            raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {self.alpha!r}")
        object.__setattr__(self, "datasets", tuple(self.datasets))
        object.__setattr__(self, "learners", tuple(self.learners))
        if self.pair is not None:
            object.__setattr__(self, "pair", tuple(self.pair))


@dataclass(frozen=True)
class QuartileRow:
    """One learner's five-number summary in one scope ("overall" or a data set)."""

    scope: str
    learner: str
    n: int
    min: float
    q1: float
    median: float
    q3: float
    max: float


@dataclass(frozen=True, eq=False)
class QuartilesView:
    """Seed 000's quartile charts: "overall" first, then flagged data sets, then the others.

    Within a scope the rows are best first (by median). ``tau`` maps each data
    set to Kendall's tau of its learner medians against the overall medians
    (NaN when it cannot be computed); ``flagged`` are the data sets with
    ``tau < TAU_FLAG`` (most discordant first); ``warning`` is set when more
    than ``WARN_SHARE`` of the data sets are flagged. ``lo``/``hi`` is the axis
    shared by every chart; ``control_median`` the control's median per scope
    (NaN where the control has no result).
    """

    criterion: str
    higher_is_better: bool
    rows: tuple[QuartileRow, ...]
    scopes: tuple[str, ...]
    tau: dict[str, float]
    flagged: tuple[str, ...]
    warning: str | None
    lo: float
    hi: float
    control_median: dict[str, float]


@dataclass(frozen=True, eq=False)
class RanksView:
    """Data sets x learners: medians, ranks (1 = best), average ranks, best per row, left-out data sets."""

    medians: pd.DataFrame
    ranks: pd.DataFrame
    average: pd.Series
    best: dict[str, tuple[str, ...]]
    excluded: dict[str, str]


@dataclass(frozen=True, eq=False)
class TestsView:
    """The verdict sentence, the four omnibus tests, the CD, the control table and the safety notice.

    ``omnibus``: rows friedman, iman_davenport, aligned, quade; columns
    statistic, pvalue, df (an int, or a (df1, df2) tuple for the F tests).
    ``control_table``: ``stats.control_test`` output; a hypothesis is rejected
    when its APV <= alpha.
    """

    verdict: str
    outcome: str
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    omnibus: pd.DataFrame
    cd: float
    control: str
    control_table: pd.DataFrame
    safety: str


@dataclass(frozen=True, eq=False)
class PairsView:
    """All-pairs APVs of one procedure as a k x k matrix, and the two-sample tests of one pair.

    ``wilcoxon`` and ``sign`` are ``stats.wilcoxon`` / ``stats.sign_test``
    results of ``pair[1]`` against ``pair[0]``, or a one-sentence string when
    stats cannot compute them.
    """

    procedure: str
    matrix: pd.DataFrame
    table: pd.DataFrame
    pair: tuple[str, str]
    wilcoxon: Any
    sign: Any
    contrast: pd.DataFrame


@dataclass(frozen=True, eq=False)
class CDView:
    """Average ranks (best first), Nemenyi's CD, the maximal cliques and the drawn diagram."""

    ranks: pd.Series
    cd: float
    cliques: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything the views show for one selection.

    ``problem`` is None, or one sentence saying why the selection cannot be
    tested; then ``ranks``, ``tests``, ``pairs`` and ``cd`` are None (the
    quartiles are shown whenever there are results). ``notes``: what was left
    out of the selection and why (a learner without results for the criterion).
    """

    selection: Selection
    n_datasets: int
    n_learners: int
    quartiles: QuartilesView | None
    ranks: RanksView | None
    tests: TestsView | None
    pairs: PairsView | None
    cd: CDView | None
    problem: str | None
    notes: tuple[str, ...] = ()
