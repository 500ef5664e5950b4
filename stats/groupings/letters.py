"""Compact letter display of all-pairs comparisons (Piepho 2004): learners that share a letter are
not significantly different."""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from typing import Any

#: Letters in the order they are given out; more columns than this is refused.
LETTERS = string.ascii_lowercase + string.ascii_uppercase


def compact_letters(names_in_order: Sequence[Any], rejected_pairs: Iterable[tuple[Any, Any]]) -> dict[Any, str]:
    """Letters for each learner such that two learners share a letter iff their pair was not rejected.

    Piepho's insert-absorb algorithm (Piepho 2004, Sec. 2): start from one column holding every
    learner. For each rejected pair (i, j), every column that holds both is replaced by two
    copies, one without i and one without j (insert); then every column contained in another is
    deleted (absorb). The columns left are the letters: sorted by the positions of their members
    in ``names_in_order`` (lexicographically), so the column of the first learner is "a", and so
    on. Each learner's letters are those of the columns that hold it, in alphabetical order.

    Parameters
    ----------
    names_in_order : sequence of hashable
        The learners, in the order the display should follow (best first, usually).
    rejected_pairs : iterable of pairs
        The pairs found significantly different, in either order (e.g. the ``a``, ``b`` of
        the rows of :func:`stats.pairwise_wilcoxon` whose adjusted p-value is <= alpha).

    Returns
    -------
    dict
        Learner -> letters ("a", "ab", ...), in the order of ``names_in_order``.

    Raises
    ------
    ValueError
        On repeated names, a pair naming an unknown learner or a learner twice, or more than 52
        letters.

    Notes
    -----
    The display is valid (learners share a letter iff not rejected) and each letter's group is
    maximal, but Piepho's sweeping step (Sec. 3), which deletes letters from learners whose every
    connection is already shown by another letter, is not applied: with some patterns of
    rejections a learner may carry a letter that could be dropped.

    References
    ----------
    .. [1] H.-P. Piepho, "An algorithm for a letter-based representation of all-pairwise
       comparisons", J. Comput. Graph. Statist. 13(2):456-466, 2004.

    Examples
    --------
    >>> compact_letters(["A", "B", "C", "D"], [("A", "C"), ("A", "D"), ("B", "D")])
    {'A': 'a', 'B': 'ab', 'C': 'bc', 'D': 'c'}
    """
    names = list(names_in_order)
    if not names:
        raise ValueError("names_in_order is empty: need at least 1 learner")
    position = {name: i for i, name in enumerate(names)}
    if len(position) != len(names):
        raise ValueError("names_in_order repeats a learner")
    # A column is a bitmask of learner positions (bit i: names[i]); the same columns as with sets.
    columns: list[int] = [(1 << len(names)) - 1]
    for pair in rejected_pairs:
        a, b = pair
        for name in (a, b):
            if name not in position:
                raise ValueError(f"rejected pair {tuple(pair)!r} names {name!r}, not in names_in_order")
        i, j = position[a], position[b]
        if i == j:
            raise ValueError(f"rejected pair {tuple(pair)!r} names the same learner twice")
        both = (1 << i) | (1 << j)
        split = [c for c in columns if c & both == both]
        if not split:
            continue  # no column holds both: nothing to insert, nothing to absorb
        kept = [c for c in columns if c & both != both]
        # insert: each column holding both becomes one without i and one without j. Absorb: the
        # kept columns were not contained in one another nor in a split column (they formed an
        # antichain with it), so only a new column can be contained in another column.
        grown = list(dict.fromkeys(c & ~bit for c in split for bit in (1 << i, 1 << j)))
        columns = kept + [
            c for c in grown if not any(c & o == c for o in kept) and not any(c & o == c and c != o for o in grown)
        ]
    # ordered by their members' positions, lexicographically (the first learner's column is "a")
    members = [[i for i in range(len(names)) if c >> i & 1] for c in columns]
    order = sorted(range(len(columns)), key=lambda c: members[c])
    if len(columns) > len(LETTERS):
        raise ValueError(f"{len(columns)} letters needed; at most {len(LETTERS)} are available")
    return {
        name: "".join(LETTERS[n] for n, c in enumerate(order) if columns[c] >> i & 1) for i, name in enumerate(names)
    }
