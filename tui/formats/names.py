"""Names cut to fit a width, keeping the end where names of a family differ."""

from __future__ import annotations

from collections.abc import Iterable


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
