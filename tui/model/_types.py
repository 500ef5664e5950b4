"""The plain values the views render: a selection in, an analysis out.

Frozen dataclasses (and :class:`ViewParts`, which computes each view of an
analysis when it is first asked for); nothing here imports textual or rich, so
the headless report and the app render the very same numbers. Re-exported by
:mod:`tui.model._model`, which builds them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

import stats
from tui import registry
from tui.choices import GROUPINGS, PROCEDURES
from tui.model._tests_extra import TestsExtra

if TYPE_CHECKING:
    from tui.model._tests import Incomplete

#: Omnibus rank tests whose average ranks give the control table's z.
TESTS = ("friedman", "aligned", "quade")


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")


@dataclass(frozen=True)
class Selection:
    """What the user looks at: one criterion, its direction, the data sets and learners, options.

    ``control`` None (or a learner no longer selected) means the best-ranked
    learner; ``pair`` None (or a pair not both selected) means the best versus
    the second best. ``test`` picks the ranks behind the z statistics of the
    control table and of the pairs matrix. ``rope`` is the region of practical
    equivalence of the fold-level Bayesian tests (None: ``stats.default_rope``
    of the criterion's values). ``deltas`` turns the quartile charts into charts
    of the per-fold differences against the control. ``scott_knott`` is the Scott-Knott variant
    of the quartile charts' ranks (:data:`GROUPINGS`). Invalid ``test``, ``scott_knott``,
    ``procedure``, ``alpha`` or ``rope`` raise ``ValueError`` at construction (a
    programming error, not bad data).
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
    rope: float | None = None
    deltas: bool = False
    scott_knott: str = "esd"

    def __post_init__(self) -> None:
        _choice("test", self.test, TESTS)
        _choice("scott_knott", self.scott_knott, GROUPINGS)
        _choice("procedure", self.procedure, PROCEDURES)
        if isinstance(self.alpha, bool) or not 0.0 < float(self.alpha) < 1.0:
            raise ValueError(f"alpha must be between 0 and 1 (exclusive), got {self.alpha!r}")
        if self.rope is not None and (isinstance(self.rope, bool) or not 0.0 <= float(self.rope) < float("inf")):
            raise ValueError(f"rope must be a finite number >= 0 (or None for the default), got {self.rope!r}")
        object.__setattr__(self, "datasets", tuple(self.datasets))
        object.__setattr__(self, "learners", tuple(self.learners))
        if self.pair is not None:
            object.__setattr__(self, "pair", tuple(self.pair))


@dataclass(frozen=True)
class QuartileRow:
    """One learner's five-number summary in one scope ("overall" or a data set); ``mean`` and
    ``sd`` are set for the charts of deltas (the ``#rx`` chart of Menzies' lecture notes prints them)."""

    scope: str
    learner: str
    n: int
    min: float
    q1: float
    median: float
    q3: float
    max: float
    mean: float = float("nan")
    sd: float = float("nan")


@dataclass(frozen=True, eq=False)
class QuartilesView:
    """The quartile charts of Menzies' notes on comparing learners: "overall" first, then flagged
    data sets, then the others.

    Within a scope the rows are best first (by median). ``tau`` maps each data
    set to Kendall's tau of its learner medians against the overall medians
    (NaN when it cannot be computed); ``flagged`` are the data sets with
    ``tau < TAU_FLAG`` (most discordant first); ``warning`` is set when more
    than ``WARN_SHARE`` of the data sets are flagged. ``lo``/``hi`` is the axis
    shared by every chart; ``control_median`` the control's median per scope
    (NaN where the control has no result). ``deltas`` names the control when the
    rows are charts of per-fold differences against it (the deltas of Menzies' lecture notes: the
    axis is centred at 0, positive is better than the control), else None.
    ``groups`` maps each scope to its learners' Scott-Knott group ranks (1 = best; computed when
    first read, see :mod:`tui.model._groups`) by ``grouping`` (one of :data:`GROUPINGS`); None for deltas.
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
    deltas: str | None = None
    groups: Mapping[str, Mapping[str, int]] | None = None
    grouping: str | None = None


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
    when its APV <= ``alpha`` (the selection's, carried here so that a panel needs nothing else).
    ``extra``: :class:`~tui.model._tests_extra.TestsExtra`.
    When fewer than 2 data sets are complete, Skillings-Mack's test (``incomplete``) is the only one
    (:attr:`skillings_mack_only`): ``omnibus`` and ``control_table`` are empty, ``cd`` is NaN,
    ``control`` and ``safety`` are empty strings and no learner wins or loses.
    """

    alpha: float
    verdict: str
    outcome: str
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    omnibus: pd.DataFrame
    cd: float
    control: str
    control_table: pd.DataFrame
    safety: str
    extra: TestsExtra | None = None  # tie-corrected Friedman, multiple sign test, win/loss/tie (issue 16)
    incomplete: Incomplete | None = None  # Skillings-Mack when data sets miss results (issue 31)

    @property
    def skillings_mack_only(self) -> bool:
        """Skillings & Mack's (1981) test is the view's only test: fewer than 2 data sets are complete,
        too few for Friedman's and every test and table that needs complete data sets
        (:func:`tui.model._tests.alone_view`)."""
        return self.incomplete is not None and self.incomplete.complete < 2


@dataclass(frozen=True, eq=False)
class PairsView:
    """All-pairs APVs of one procedure as a k x k matrix, and the two-sample tests of one pair.

    ``wilcoxon`` and ``sign`` are ``stats.wilcoxon`` / ``stats.sign_test``
    results of ``pair[1]`` against ``pair[0]``, or a one-sentence string when
    stats cannot compute them. ``replaced`` says what stands in for the procedure and why
    (Bergmann-Hommel above its exact limit), or is None. ``two_sample``: the
    ``stats.pairwise_wilcoxon`` table behind the matrix of a two-sample procedure
    (wilcoxon-holm, sign-holm), else None. ``effects``: the effect sizes of the pair
    (``tui.model._effects.PairEffects``; every pair's are :attr:`Analysis.effects`).

    Under Nemenyi the matrix holds Tukey's p-values on Friedman's average ranks
    (``stats.nemenyi_tukey_p``), ``cd`` is Demsar's (2006) critical difference and ``rejected``
    (k x k booleans) the pairs it separates, the decision every cell shows (the CD diagram's, the
    verdict's and the fragility's); else both are None and a cell is rejected when <= ``alpha``.
    The table's ``nemenyi`` column stays Garcia & Herrera's (2008) m p.
    """

    alpha: float  # APVs <= alpha are rejected (the selection's)
    procedure: str
    replaced: str | None
    matrix: pd.DataFrame
    table: stats.PairwiseTest
    pair: tuple[str, str]
    wilcoxon: Any
    sign: Any
    contrast: pd.DataFrame
    two_sample: Any = None
    effects: Any = None
    cd: float | None = None
    rejected: pd.DataFrame | None = None

    def marks(self, a: Any, b: Any) -> bool:
        """Whether the cell of ``a`` and ``b`` (the matrix's labels) is shown rejected."""
        if self.rejected is not None:
            return bool(self.rejected.loc[a, b])
        value = float(self.matrix.loc[a, b])
        return value == value and value <= self.alpha  # (NaN: never)


@dataclass(frozen=True, eq=False)
class CDView:
    """Average ranks (best first), Nemenyi's CD and the groups joined by bars (drawn by
    :mod:`tui.views.cd.diagram`).

    ``cliques`` are the maximal groups with no significant pair under ``procedure`` (Nemenyi's
    CD, or the APVs of Holm, Shaffer or Bergmann-Hommel at ``alpha``; see :mod:`stats.groupings.groups`);
    ``basis`` says so in a line for the views; ``replaced`` what stands in for the procedure
    and why (Bergmann-Hommel above its exact limit), or None.
    """

    ranks: pd.Series
    cd: float
    cliques: tuple[tuple[str, ...], ...]
    procedure: str = "nemenyi"
    basis: str = "bars join learners whose average ranks are closer than the CD (Nemenyi)"
    replaced: str | None = None


@dataclass(frozen=True, eq=False)
class FoldsView:
    """Each learner against the control from the fold-level results (``stats.fold_comparison``).

    ``table``: index (dataset, learner); runs, folds, mean_difference (positive: the learner is
    better), statistic and pvalue of the corrected resampled t, mark (``v`` better, ``*`` worse
    at alpha, Weka's Experimenter), and the Bayesian correlated t-test's p_better,
    p_equivalent, p_worse. ``totals``: index learner; wins, ties, losses, datasets and the
    Bayesian signed-rank test across data sets. ``sentences``: one verdict line per learner.
    ``pending``: the signed-rank probabilities are still being computed (NaN in ``totals``; the
    explorer shows the rest at once, :attr:`Analysis.folds_early`).
    """

    criterion: str
    higher_is_better: bool
    control: str
    rope: float
    alpha: float
    table: pd.DataFrame
    totals: pd.DataFrame
    sentences: tuple[str, ...]
    notes: tuple[str, ...]
    pending: bool = False


class ViewParts:
    """The views of one analysis, each computed when it is first asked for, once (thread-safe).

    ``makers`` maps a part's name (a view of :mod:`tui.registry`, or another part a view declares) to
    the function computing it; a view
    without a maker is None. A maker that raises ``ValueError`` (a limit of :mod:`stats`) leaves
    its view None and its message in :attr:`failure` (the first such message).

    Each part has its own lock: a part computed in the background for seconds (the robustness of
    the tests, pairs and CD views) never holds up another part asked for meanwhile.
    """

    def __init__(self, makers: Mapping[str, Callable[[], Any]] | None = None) -> None:
        self._makers = dict(makers or {})
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()  # guards _locks
        self._locks: dict[str, threading.RLock] = {}
        self.failure: str | None = None

    def computed(self, name: str) -> bool:
        """Whether part ``name`` is computed (not merely without a maker)."""
        return name in self._values

    def done(self, name: str) -> bool:
        """Whether view ``name`` needs no computation any more (computed, or nothing to compute)."""
        return name in self._values or name not in self._makers

    def _part_lock(self, name: str) -> threading.RLock:
        with self._lock:
            return self._locks.setdefault(name, threading.RLock())

    def get(self, name: str) -> Any:
        """View ``name``, computed now if it was not."""
        if name in self._values:
            return self._values[name]
        with self._part_lock(name):  # an app worker and the event loop may ask at once: compute once
            if name not in self._values:
                make = self._makers.get(name)
                try:
                    self._values[name] = None if make is None else make()
                except ValueError as exc:
                    self._values[name] = None
                    self.failure = self.failure or str(exc)
            return self._values[name]


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything the views show for one selection; each view is computed when first read.

    ``quartiles``, ``ranks``, ``tests``, ``pairs``, ``cd`` and ``folds`` are properties: reading one
    computes that view (and only it: the ranks view never runs an all-pairs procedure);
    :meth:`prepare` computes some ahead (the app does it in a worker). ``problem`` is None, or
    one sentence saying why the selection cannot be tested (then ``ranks``, ``tests``,
    ``pairs`` and ``cd`` are None; the quartiles are shown whenever there are results), or
    why a view that was computed is empty (a limit of :mod:`stats`). ``notes``: what was left
    out of the selection and why (a learner without results for the criterion). ``control``:
    the control the views use (the selection's, or the best-ranked learner when it names none).
    """

    selection: Selection
    n_datasets: int
    n_learners: int
    untestable: str | None = None
    notes: tuple[str, ...] = ()
    parts: ViewParts = field(default_factory=ViewParts, repr=False)
    control: str | None = None  # the control in use: the selection's, or the best-ranked learner
    model: Any = field(default=None, repr=False)  # the model it was made of (its parts' caches); None: no parts

    @property
    def problem(self) -> str | None:
        return self.untestable or self.parts.failure

    @property
    def quartiles(self) -> QuartilesView | None:
        return self.part("quartiles")

    @property
    def ranks(self) -> RanksView | None:
        return self.part("ranks")

    @property
    def tests(self) -> TestsView | None:
        return self.part("tests")

    @property
    def pairs(self) -> PairsView | None:
        return self.part("pairs")

    @property
    def cd(self) -> CDView | None:
        return self.part("cd")

    @property
    def folds(self) -> FoldsView | None:
        return self.part("folds")

    @property
    def folds_early(self) -> FoldsView | None:
        """The folds view to show first: :attr:`folds` when it is made, else the same view with the
        signed-rank test still computing (``pending``); :attr:`folds` then waits for it."""
        return self.part("folds_early")

    @property
    def robustness(self) -> Any:
        """How fragile and how stable the conclusions of the tests, pairs and CD views are
        (:class:`~tui.model._robustness.Robustness`), computed now if it was not (the reports);
        the app computes it in the background and shows those views first without it
        (:meth:`pending`)."""
        return self.part("robustness")

    @property
    def letters(self) -> Any:
        """The compact letters of the pairs procedure (:class:`~tui.model._effects.Letters`), shown
        with the ranks (computed with them: :data:`WITH`)."""
        return self.part("letters")

    @property
    def effects(self) -> pd.DataFrame | None:
        """Every pair's effect sizes (:func:`~tui.model._effects.effects_table`), for the reports."""
        return self.part("effects")

    @property
    def curves(self) -> Any:
        """The learning curves (:class:`~tui.model._curves.CurvesView`) of a sequence study."""
        return self.part("curves")

    def part(self, name: str) -> Any:
        """Part ``name`` of the analysis (a view of :mod:`tui.registry`, or another part one of them
        declares), computed now if it was not; None when there is nothing to show."""
        return self.parts.get(name)

    def pending(self, part: str) -> bool:
        """Whether ``part`` is still to be computed (it has a maker and was not computed)."""
        return not self.parts.done(part)

    def ready(self, view: str) -> bool:
        """Whether showing ``view`` needs no more computation (its part and those shown with it);
        the parts it shows later may still be computing (:meth:`complete`)."""
        return all(self.parts.done(part) for part in _shown(view))

    def complete(self, view: str) -> bool:
        """Whether ``view`` is whole: :meth:`ready`, and the parts it shows later (the robustness of
        the tests, pairs and CD views) computed too."""
        return self.ready(view) and all(self.parts.done(part) for part in _later(view))

    def first_part(self, view: str) -> str:
        """The part of ``view`` to compute before it is shown: the part a view shows first while it
        is computed (the folds view's, without its signed-rank test across data sets) unless the
        whole view is made; else the view itself."""
        early = _early(view)
        return early if early is not None and not self.ready(view) else view

    def early_ready(self, view: str) -> bool:
        """Whether ``view`` is not made yet but what it shows first is (show that, finish the rest):
        its early part (the folds view's), or its own parts without those it shows later (the
        tests, pairs and CD views without their robustness)."""
        early = _early(view)
        if early is not None:
            return not self.ready(view) and self.parts.computed(early)
        return bool(_later(view)) and self.ready(view) and not self.complete(view)

    def prepare(self, *views: str) -> Analysis:
        """Compute ``views`` now (e.g. off the event loop), without the parts a view shows later
        (:meth:`finish` computes those; reading one computes it too); returns self."""
        for view in views:
            for part in _shown(view):
                self.parts.get(part)
        return self

    def finish(self, *views: str) -> Analysis:
        """Compute the whole of ``views`` now: :meth:`prepare` and the parts each shows later
        (the robustness of the tests, pairs and CD views); returns self."""
        self.prepare(*views)
        for view in views:
            for part in _later(view):
                self.parts.get(part)
        return self


def _shown(view: str) -> tuple[str, ...]:
    """The parts computed when ``view`` is shown: its own and those it shows with it (the ranks'
    letters); a part that is no view is itself."""
    owner = registry.part_owner(view)
    if owner is None or owner.name != view:
        return (view,)
    return (view, *owner.shown_with)


def _later(view: str) -> tuple[str, ...]:
    """The parts ``view`` shows once they are computed in the background (none for a part that is
    no view)."""
    owner = registry.part_owner(view)
    return owner.later if owner is not None and owner.name == view else ()


def _early(view: str) -> str | None:
    owner = registry.part_owner(view)
    return owner.early if owner is not None and owner.name == view else None
