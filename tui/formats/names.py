"""Names fitted to a width: the one rule of every view and text report (exports keep names whole).

What all names share at the ends is dropped (said once), then each is cut in the middle, keeping
the end where names of a family differ and every name distinct."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def middle_ellipsis(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters by an ellipsis in the middle, keeping more of the end
    (where names of a family differ: ``credit`` / ``credit-b``, ``learner_01`` / ``learner_02``).

    >>> middle_ellipsis("credit-b", 7), middle_ellipsis("credit", 7), middle_ellipsis("breast_cancer", 10)
    ('cr…it-b', 'credit', 'bre…cancer')
    """
    if len(name) <= width or width < 3:
        return name
    tail = (width - 1) // 2 + (width - 1) % 2 + (width - 1) // 6
    tail = min(tail, width - 2)
    return name[: width - 1 - tail] + "…" + name[len(name) - tail :]


def distinct_cuts(names: Iterable[str], width: int) -> dict[str, str]:
    """Each name cut by :func:`middle_ellipsis` to ``width`` characters, or to the least width
    above it at which no two cut names are the same (whole names when only they differ).

    >>> distinct_cuts(["learner_a_01", "learner_b_01"], 5)  # at 5: 'le…01' twice
    {'learner_a_01': 'le…a_01', 'learner_b_01': 'le…b_01'}
    """
    names = list(dict.fromkeys(names))
    longest = max((len(n) for n in names), default=0)
    for w in range(max(width, 3), longest + 1):
        cut = {n: middle_ellipsis(n, w) for n in names}
        if len(set(cut.values())) == len(names):
            return cut
    return {n: n for n in names}


#: Characters after which a shared beginning (or before which a shared end) may be dropped:
#: the separators sweeps write between a learner and its settings (``SVC-kernel=rbf-C=10.0``).
SEPARATORS = frozenset("-_=.:/ ,;|+@")
#: A name is never cut below this many characters (six tell ``cr…t-b`` from ``cr…dit``).
MIN_NAME = 6
#: A column's header is cut to its numbers' width, but never below this many characters: a
#: learner of up to 12 (``DecisionTree``, ``RandomForest``) keeps its name over numbers of 6 to 11
#: (three such columns and a row name still fit 80 columns less the sidebar).
MIN_HEADER = 12


def shared_ends(names: Sequence[str]) -> tuple[str, str]:
    """The longest beginning and end that every one of two or more ``names`` shares, each ending
    (beginning) at a separator (:data:`SEPARATORS`) and leaving every name at least one character.

    >>> shared_ends(["RandomForest-n_estimators=100", "RandomForest-n_estimators=1000"])
    ('RandomForest-n_estimators=', '')
    >>> shared_ends(["svm-C=1-rbf", "svm-C=10-rbf", "svm-C=100-rbf"]), shared_ends(["nb", "nbc"])
    (('svm-C=', '-rbf'), ('', ''))
    """
    if len(names) < 2:
        return "", ""
    shortest = min(len(n) for n in names)
    head = 0
    while head < shortest and len({n[head] for n in names}) == 1:
        head += 1
    head = max((i + 1 for i in range(head) if names[0][i] in SEPARATORS), default=0)
    room = shortest - head - 1  # at least one character of each name stays
    tail = 0
    while tail < room and len({n[len(n) - 1 - tail] for n in names}) == 1:
        tail += 1
    first = names[0]
    tail = max((i + 1 for i in range(tail) if first[len(first) - 1 - i] in SEPARATORS), default=0)
    return first[:head], first[len(first) - tail :] if tail else ""


@dataclass(frozen=True)
class Fitted:
    """Names as shown: ``shown`` maps each name to its shown form; ``prefix`` and ``suffix`` are
    what every name shared and the shown forms leave out (said once, :meth:`legend`)."""

    shown: dict[str, str]
    prefix: str = ""
    suffix: str = ""

    def __getitem__(self, name: str) -> str:
        return self.shown.get(name, name)

    @property
    def cut(self) -> bool:
        """Whether any name is not shown whole."""
        return any(shown != name for name, shown in self.shown.items())

    def legend(self, what: str = "names", hint: str = "n: full names") -> str:
        """One line saying how the names were shortened ("" when none was), e.g. ``learners:
        'RandomForest-n_estimators=' before each; cut in the middle to fit (n: full names)``."""
        if not self.cut:
            return ""
        parts = [f"{self.prefix!r} before each"] if self.prefix else []
        parts += [f"{self.suffix!r} after each"] if self.suffix else []
        stripped = {n: n[len(self.prefix) : len(n) - len(self.suffix)] for n in self.shown}
        if any(stripped[n] != s for n, s in self.shown.items()):
            parts.append("cut in the middle to fit")
        return f"{what}: {'; '.join(parts)}" + (f" ({hint})" if hint else "")


def fit_names(names: Iterable[str], width: int | None, *, full: bool = False) -> Fitted:
    """The one rule by which every view and text report fits names to ``width`` characters:
    whole when they fit (or ``full``, or no ``width``); else what all of them share at the
    beginning and end (:func:`shared_ends`) is dropped, then each is cut in the middle, keeping
    them distinct (:func:`distinct_cuts`, never below :data:`MIN_NAME`).

    >>> fit_names(["RandomForest-n_estimators=100", "RandomForest-n_estimators=1000"], 8).shown
    {'RandomForest-n_estimators=100': '100', 'RandomForest-n_estimators=1000': '1000'}
    >>> fit_names(["GradientBoosting-learning_rate=0.1-max_depth=3", "SVC-kernel=rbf-C=10.0"], 10).shown
    {'GradientBoosting-learning_rate=0.1-max_depth=3': 'Gra…epth=3', 'SVC-kernel=rbf-C=10.0': 'SVC…C=10.0'}
    """
    names = list(dict.fromkeys(names))
    if full or width is None or all(len(n) <= width for n in names):
        return Fitted({n: n for n in names})
    prefix, suffix = shared_ends(names)
    stripped = {n: n[len(prefix) : len(n) - len(suffix)] for n in names}
    cuts = distinct_cuts(stripped.values(), max(width, MIN_NAME))
    return Fitted({n: cuts[stripped[n]] for n in names}, prefix, suffix)


def fit_table(
    rows: Sequence[str],
    columns: Sequence[str],
    widths: Sequence[int],
    room: int | None,
    *,
    full: bool = False,
    keep: int = 3,
    gap: int = 2,
    label: int = 0,
) -> tuple[Fitted, Fitted]:
    """(row labels, column headers) of a table of number columns, fitted by :func:`fit_names` to
    ``room`` cells: whole when the whole table fits (or ``full``, or no ``room``); else headers
    cut to their numbers' width (``widths``: each column's widest cell, at least :data:`MIN_HEADER`),
    so that a header never takes a number's place, and row labels cut so that they and the first
    ``keep`` columns fit (``gap``: the cells between columns; ``label``: the widest row label that
    is not one of ``rows``, e.g. "average rank").

    >>> names = [f"learner-setting={i}" for i in range(4)]
    >>> rows, cols = fit_table(names, names, [6] * 4, 40)
    >>> rows["learner-setting=2"], cols["learner-setting=2"], cols.prefix
    ('2', '2', 'learner-setting=')
    """
    whole = Fitted({n: n for n in rows}), Fitted({n: n for n in columns})
    if full or room is None:
        return whole
    heads = [max(w, len(c)) for w, c in zip(widths, columns)]
    if max([label, *map(len, rows)]) + sum(w + gap for w in heads) <= room:
        return whole
    head = fit_names(columns, max([MIN_HEADER, *widths]))
    heads = [max(w, len(head[c])) for w, c in zip(widths, columns)]
    cap = room - sum(w + gap for w in heads[:keep]) - gap
    return fit_names(rows, max(cap, MIN_NAME)), head
