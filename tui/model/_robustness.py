"""The robustness of a selection's conclusions: how fragile and how stable the omnibus decision and
each pair's decision are (issue 31), for the tests, pairs and CD views.

Fragility is the fewest data sets whose removal reverses a decision (``stats.fragility``; the
fragility index of Walsh et al. 2014, with data sets for patients); stability, in how many of the
analyses leaving one data set (or, for mean-rank procedures, one other learner: Benavoli, Corani &
Mangili 2016) out the decision holds (``stats.stability``). Both are computed with the selection's
procedure, alpha, direction and rank test, and Friedman's test as the omnibus test, as the verdict,
the pairs matrix and the CD bars are, so that the figures agree with the tables beside them.

The sentences and cells here are the views' words for every format: names from the logs go
through the format's ``esc`` (its escaping of every other name). No Textual here: the app stops a
computation its selection no longer wants through :func:`cancellable` (a hook that ``stats``
checks between units of work, raising ``stats.Cancelled``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

import stats
from tui.model._model import measured_learners

if TYPE_CHECKING:
    from tui.model._basis import Basis
    from tui.model._model import Model
    from tui.model._types import Analysis, Selection

#: The omnibus test whose decision the verdict follows (``stats.verdict``'s default): the one
#: whose fragility and stability are reported.
OMNIBUS = "friedman"
#: How many names a sentence lists before it says how many there are in all.
MOST_NAMES = 5
#: How many pairs a sentence names.
MOST_PAIRS = 3

Escape = Callable[[Any], str]


class _Computing:
    """The robustness of an analysis the app is still computing (:func:`robustness_now`)."""

    def __repr__(self) -> str:
        return "COMPUTING"


#: What :func:`robustness_now` gives while the robustness is computed in the background.
COMPUTING: Any = _Computing()
#: What the app shows meanwhile, where the figures will be.
COMPUTING_TEXT = "fragility: computing\u2026"


@dataclass(frozen=True, eq=False)
class Robustness:
    """``stats.fragility`` and ``stats.stability`` of one selection's scores table, and the analysis
    they were computed for (the selection's procedure, alpha, direction and rank test, and the
    omnibus test of its verdict)."""

    fragility: stats.Fragility
    stability: stats.Stability
    procedure: str
    alpha: float
    higher_is_better: bool
    test: str
    omnibus: str = OMNIBUS

    @property
    def procedure_name(self) -> str:
        return stats.PROCEDURE_NAMES[self.procedure]

    def pairs(self) -> pd.DataFrame:
        """One row per pair (``stats.fragility``'s order): a, b, rejected, fragility, removed, exact,
        at_least, and from the stability analysis held, analyses and reversed_by (the data sets and
        learners whose removal alone reverses the decision)."""
        f, s = self.fragility.pairs, self.stability.pairs
        out = f[["a", "b", "rejected", "fragility", "removed", "exact", "at_least"]].reset_index(drop=True)
        keyed = {(str(a), str(b)): i for i, (a, b) in enumerate(zip(s["a"], s["b"]))}
        at = [keyed.get((str(a), str(b))) for a, b in zip(out["a"], out["b"])]
        out["held"] = pd.array([None if i is None else int(s["held"].iloc[i]) for i in at], dtype="Int64")
        out["analyses"] = pd.array([None if i is None else int(s["analyses"].iloc[i]) for i in at], dtype="Int64")
        out["reversed_by"] = pd.Series(
            [() if i is None else (*s["datasets"].iloc[i], *s["learners"].iloc[i]) for i in at], dtype=object
        )
        return out


#: The hook that stops the robustness computed in this context (:func:`cancellable`); None: none.
_CANCELLED: ContextVar[Callable[[], bool] | None] = ContextVar("robustness_cancelled", default=None)


@contextmanager
def cancellable(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Within it, a robustness computed in this thread (the part, read through an analysis) gives
    ``stats.fragility`` and ``stats.stability`` the hook ``cancelled``: once it returns True they
    raise ``stats.Cancelled`` between two units of work, and nothing is kept (neither the
    analysis's part nor the model's cache: the next reader computes it anew). The app's finishing
    worker passes its own cancellation (a thread cannot be stopped from outside)."""
    token = _CANCELLED.set(cancelled)
    try:
        yield
    finally:
        _CANCELLED.reset(token)


def cancelled_hook() -> Callable[[], bool] | None:
    """The hook of :func:`cancellable` in effect here (None outside it)."""
    return _CANCELLED.get()


def robustness(scores: Any, sel: Any) -> Robustness | None:
    """:class:`Robustness` of ``scores`` (a scores table) under the selection ``sel``'s analysis;
    None when stats cannot analyse it (a ``ValueError``: the part never makes the analysis' problem,
    the views then show the tables without it). Inside :func:`cancellable`, ``stats.Cancelled``
    once its hook says so."""
    options: dict[str, Any] = {
        "procedure": sel.procedure,
        "alpha": sel.alpha,
        "higher_is_better": sel.higher_is_better,
        "test": sel.test,
        "omnibus": OMNIBUS,
        "cancelled": cancelled_hook(),
    }
    try:
        fragility = stats.fragility(scores, **options)
        stability = stats.stability(scores, **options)
    except ValueError:
        return None
    return Robustness(fragility, stability, sel.procedure, sel.alpha, sel.higher_is_better, sel.test)


def robustness_key(sel: Selection, learners: tuple[str, ...]) -> tuple[Any, ...]:
    """What the robustness of ``sel`` depends on (the model's cache key): its table (criterion, data
    sets, ``learners``: those measured, :func:`tui.model._model.measured_learners`), direction,
    procedure, alpha and rank test; not the control, the pair, the rope or the views' options."""
    return (sel.criterion, sel.datasets, learners, sel.higher_is_better, sel.procedure, sel.alpha, sel.test)


def robustness_part(b: Basis) -> Robustness | None:
    """The part ``robustness`` of an analysis (:mod:`tui.registry`): made once per table and
    analysis (the model's cache: another control, pair or rope reuses it)."""
    sel = b.selection
    return b.cached("robustness", robustness_key(sel, b.learners), lambda: robustness(b.scores, sel))


def selection_robustness_key(model: Model, sel: Selection) -> tuple[Any, ...]:
    """:func:`robustness_key` of ``sel`` on ``model`` (its measured learners), without analysing it."""
    return robustness_key(sel, measured_learners(model, sel))


def take_known_robustness(analysis: Analysis) -> bool:
    """Give ``analysis`` its robustness now when its model's cache holds it (another
    control, pair or rope of the same table and analysis computed it): reading it then costs a
    look-up, and the views are drawn whole at once, never "computing..." first. True when the
    analysis has it now (or has none to compute)."""
    if not analysis.pending("robustness"):
        return True
    model = analysis.model
    if model is None or model.cached_value("robustness", selection_robustness_key(model, analysis.selection)) is None:
        return False
    try:
        with cancellable(_at_once):  # a look-up, never a computation (were it let go of meanwhile)
            analysis.part("robustness")
    except stats.Cancelled:
        return False
    return True


def _at_once() -> bool:
    """A ``cancelled`` hook that stops at the first check."""
    return True


def robustness_now(analysis: Analysis) -> Any:
    """The robustness of ``analysis`` without waiting: :data:`COMPUTING` while it is still to be
    computed, else the part (None: none for this selection)."""
    return COMPUTING if analysis.pending("robustness") else analysis.robustness


# -- the views' words -------------------------------------------------------------------------------


def _int(x: Any) -> int | None:
    return None if x is None or pd.isna(x) else int(x)


def fragility_mark(size: Any, exact: bool, at_least: Any) -> str:
    """A fragility as a table cell (ASCII): ``2`` (exact), ``-`` (no removal of data sets reverses
    the decision), ``3..5`` (the search stopped: the fewest lies between 3 and 5), ``>=9`` (no
    reversal found; it takes at least 9)."""
    size, low = _int(size), _int(at_least)
    if exact:
        return "-" if size is None else str(size)
    low = 1 if low is None else low
    return f">={low}" if size is None else f"{low}..{size}"


def fragility_note(r: Robustness) -> str:
    """What the fragility column holds, in a sentence for every format. Under Nemenyi it says which
    decision it follows: Demsar's critical difference, the rule the pairs' matrix (Tukey's
    studentized range p-values, ``stats.nemenyi_tukey_p``), the CD diagram, the letters and the
    verdict share."""
    basis = ""
    if r.procedure == "nemenyi":
        basis = (
            "; a pair is rejected when its average ranks differ by at least Demšar's (2006) critical difference, "
            "as in the CD diagram and the verdict, and as the Nemenyi p-values of Tukey's studentized range "
            "mark it (the matrix; nemenyi_tukey in the reports): one rule"
        )
    return (
        f"fragility ({r.procedure_name}, alpha = {r.alpha:g}): the fewest data sets whose removal reverses "
        "the pair's decision, a rejection lost or a non-rejection turned into one (Walsh et al. 2014); "
        '"-": no removal does; "a..b": the search stopped, the fewest lies between a and b; '
        f'">=a": none found, it takes at least a{basis}'
    )


def listed(names: tuple[Any, ...], esc: Escape, most: int = MOST_NAMES) -> str:
    """``a, b, c`` escaped by ``esc``; past ``most`` names, the first ones and how many in all."""
    shown = ", ".join(esc(n) for n in names[:most])
    return shown if len(names) <= most else f"{shown}, ... ({len(names)} in all)"


def _size_words(size: int | None, removed: tuple[Any, ...], exact: bool, low: int | None, esc: Escape) -> str:
    """``fragility 2: a, b`` and its inexact and irreversible forms."""
    if size is None:
        return (
            "no removal of data sets reverses it" if exact else f"no reversal found; it takes at least {low} data sets"
        )
    figure = str(size) if exact else f"{low}..{size}, the search stopped"
    return f"fragility {figure}: {listed(removed, esc)}"


def omnibus_phrase(r: Robustness, esc: Escape = str) -> str:
    """E.g. "Friedman's rejection holds without any single data set (fragility 2: breast_cancer, fair)"."""
    f, s = r.fragility.omnibus, r.stability.omnibus
    what = f"{stats.OMNIBUS_NAMES[f.test]}'s {'rejection' if f.rejected else 'non-rejection'}"
    if s.analyses == 0:
        held = "cannot be checked leaving one data set out"
    elif not s.datasets and not s.learners:
        held = "holds without any single data set" + (" or learner" if r.stability.learners_left_out else "")
    else:
        alone = [f"without {esc(d)}" for d in s.datasets] + [f"without learner {esc(x)}" for x in s.learners]
        shown = ", ".join(alone[:MOST_NAMES]) + (f", ... ({len(alone)} in all)" if len(alone) > MOST_NAMES else "")
        held = f"reverses {shown} (holds in {s.held} of {s.analyses} analyses leaving one out)"
    size = _size_words(_int(f.fragility), tuple(f.removed), f.exact, _int(f.at_least), esc)
    return f"{what} {held} ({size})"


def _pair(row: Any, esc: Escape) -> str:
    return f"{esc(row.a)} vs {esc(row.b)}"


def pairs_words(r: Robustness, esc: Escape = str) -> str:
    """The rejected pairs the fewest data sets reverse, e.g. "KNN vs NB reverses without anneal" or
    "3 of 10 rejected pairs reverse without one data set: ..." (the procedure's decisions)."""
    frame = r.fragility.pairs
    rejected = frame[frame["rejected"].to_numpy(bool)]
    m = len(rejected)
    if m == 0:
        return "no pair is rejected"
    found = rejected[rejected["fragility"].notna().to_numpy(bool)]
    if found.empty:
        return f"no removal of data sets found reverses any of the {m} rejected pairs"
    fewest = int(found["fragility"].min())
    least = found[found["fragility"].to_numpy(int) == fewest]
    rows = list(least.itertuples(index=False))
    named = "; ".join(f"{_pair(x, esc)} reverses without {listed(tuple(x.removed), esc)}" for x in rows[:MOST_PAIRS])
    more = f"; and {len(rows) - MOST_PAIRS} more" if len(rows) > MOST_PAIRS else ""
    data = "one data set" if fewest == 1 else f"{fewest} data sets"
    bound = "" if all(bool(x) for x in least["exact"]) else " (found; the search stopped: maybe fewer)"
    if m == 1:
        return f"the one rejected pair, {named}{bound}"
    return f"{len(rows)} of {m} rejected pairs reverse without {data}{bound}: {named}{more}"


def tests_sentence(r: Robustness, esc: Escape = str) -> str:
    """The tests view's sentence after the verdict: the omnibus decision's stability and fragility,
    and the rejected pairs that the fewest data sets reverse."""
    return f"{omnibus_phrase(r, esc)}; {r.procedure_name}: {pairs_words(r, esc)}"


def cd_sentence(r: Robustness, esc: Escape = str) -> str:
    """The CD view's line under the diagram: the fragility of the pairs its bars separate."""
    return f"fragility ({r.procedure_name}): {pairs_words(r, esc)}"


# -- the JSON key the tests, pairs and CD views share ------------------------------------------------

_INT_OR_NULL = {"type": ["integer", "null"]}
_NAMES = {"type": "array", "items": {"type": "string"}}
_FRAGILITY = {
    "rejected": {"type": "boolean"},
    "fragility": {
        **_INT_OR_NULL,
        "description": "the fewest data sets whose removal reverses the decision (exact), or the size of a "
        "removal found that does (not exact: an upper bound); null where none was found",
    },
    "exact": {"type": "boolean"},
    "at_least": {**_INT_OR_NULL, "description": "the fewest that could reverse it, proven (a lower bound)"},
    "removed": {**_NAMES, "description": "the data sets of that removal, in the table's order"},
}
_HELD = {
    "held": {"type": "integer", "description": "analyses leaving one data set or learner out in which it holds"},
    "analyses": {"type": "integer"},
}

#: The schema of the key ``robustness`` (the tests, pairs and CD views declare it alike).
ROBUSTNESS_SCHEMA: dict[str, Any] = {
    "type": ["object", "null"],
    "description": "how fragile and how stable the conclusions are (issue 31): stats.fragility (the fewest data "
    "sets whose removal reverses a decision; Walsh et al. 2014) and stats.stability (the analyses leaving one "
    "data set, or for mean-rank procedures one other learner, out; Benavoli, Corani & Mangili 2016) under the "
    "selection's procedure, alpha, direction and rank test, Friedman's test the omnibus one; null when the "
    "selection cannot be tested",
    "required": ["procedure", "alpha", "test", "omnibus", "sentence", "omnibus_decision", "pairs", "roles"],
    "properties": {
        "procedure": {"type": "string"},
        "alpha": {"type": "number"},
        "test": {"type": "string"},
        "omnibus": {"type": "string"},
        "sentence": {"type": "string", "description": "the tests view's sentence"},
        "omnibus_decision": {
            "type": "object",
            "required": [*_FRAGILITY, *_HELD, "datasets", "learners"],
            "properties": {
                **_FRAGILITY,
                **_HELD,
                "datasets": {**_NAMES, "description": "the data sets whose removal alone reverses it"},
                "learners": {**_NAMES, "description": "the learners whose removal alone reverses it"},
            },
        },
        "pairs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["a", "b", *_FRAGILITY, *_HELD, "reversed_by"],
                "properties": {
                    "a": {"type": "string"},
                    "b": {"type": "string"},
                    **_FRAGILITY,
                    **_HELD,
                    "reversed_by": {
                        **_NAMES,
                        "description": "the data sets and learners whose removal alone reverses it",
                    },
                },
            },
        },
        "roles": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["learner", "role", *_HELD, "datasets", "learners"],
                "properties": {
                    "learner": {"type": "string"},
                    "role": {"type": "string", "enum": ["winner", "loser", "neither", "tie"]},
                    **_HELD,
                    "datasets": _NAMES,
                    "learners": _NAMES,
                },
            },
        },
    },
}


def _names(names: Any) -> list[str]:
    return [str(x) for x in names]


def robustness_json(r: Robustness | None) -> dict[str, Any] | None:
    """The key ``robustness`` of the JSON report (:data:`ROBUSTNESS_SCHEMA`)."""
    if r is None:
        return None
    f, s = r.fragility.omnibus, r.stability.omnibus
    rows: list[Any] = list(r.pairs().itertuples(index=False))  # (rows typed Any: their fields are the columns)
    learners: list[Any] = list(r.stability.roles.itertuples(index=False))
    pairs = [
        {
            "a": str(x.a),
            "b": str(x.b),
            "rejected": bool(x.rejected),
            "fragility": _int(x.fragility),
            "exact": bool(x.exact),
            "at_least": _int(x.at_least),
            "removed": _names(x.removed),
            "held": int(x.held),
            "analyses": int(x.analyses),
            "reversed_by": _names(x.reversed_by),
        }
        for x in rows
    ]
    roles = [
        {
            "learner": str(name),
            "role": str(x.role),
            "held": int(x.held),
            "analyses": int(x.analyses),
            "datasets": _names(x.datasets),
            "learners": _names(x.learners),
        }
        for name, x in zip(r.stability.roles.index, learners)
    ]
    return {
        "procedure": r.procedure,
        "alpha": float(r.alpha),
        "test": r.test,
        "omnibus": r.omnibus,
        "sentence": tests_sentence(r),
        "omnibus_decision": {
            "rejected": bool(f.rejected),
            "fragility": _int(f.fragility),
            "exact": bool(f.exact),
            "at_least": _int(f.at_least),
            "removed": _names(f.removed),
            "held": int(s.held),
            "analyses": int(s.analyses),
            "datasets": _names(s.datasets),
            "learners": _names(s.learners),
        },
        "pairs": pairs,
        "roles": roles,
    }


def roles_frame(r: Robustness, learners: list[str]) -> pd.DataFrame:
    """The CSV columns of each of ``learners`` (rows in that order): its part in the verdict
    (``role``: winner, loser, neither, tie) and that part's stability: ``role_held`` of
    ``role_analyses`` analyses leaving one data set or other learner out, and ``role_reversed_by``
    (those whose removal alone changes it, separated by "; "); empty for a learner not in the table."""
    roles = r.stability.roles
    by_name = {str(x): i for i, x in enumerate(roles.index)}
    at = [by_name.get(str(x)) for x in learners]

    def each(column: str, fn: Callable[[Any], Any]) -> list[Any]:
        return [None if i is None else fn(roles[column].iloc[i]) for i in at]

    return pd.DataFrame(
        {
            "role": each("role", str),
            "role_held": pd.array(each("held", int), dtype="Int64"),
            "role_analyses": pd.array(each("analyses", int), dtype="Int64"),
            "role_reversed_by": [
                None if i is None else "; ".join(map(str, (*roles["datasets"].iloc[i], *roles["learners"].iloc[i])))
                for i in at
            ],
        }
    )
