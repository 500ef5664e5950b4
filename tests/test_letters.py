"""Tests of stats.compact_letters: hand-worked insert-absorb cases and the defining property
(two learners share a letter iff their pair was not rejected) on random patterns."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stats.groupings import letters
from stats.groupings.letters import compact_letters


def test_nothing_rejected_is_one_letter() -> None:
    assert compact_letters(["x", "y", "z"], []) == {"x": "a", "y": "a", "z": "a"}


def test_everything_rejected_is_one_letter_each() -> None:
    names = ["x", "y", "z"]
    assert compact_letters(names, itertools.combinations(names, 2)) == {"x": "a", "y": "b", "z": "c"}


def test_one_rejection_of_three() -> None:
    # {ABC}; reject A-C: {BC}, {AB}; sorted by first member: {AB} = a, {BC} = b.
    assert compact_letters(["A", "B", "C"], [("C", "A")]) == {"A": "a", "B": "ab", "C": "b"}


def test_staircase_by_hand() -> None:
    # {ABCD}; A-C: {BCD}, {ABD}; A-D: {ABD} -> {BD}, {AB}, and {BD} is absorbed by {BCD};
    # B-D: {BCD} -> {CD}, {BC}. Columns {AB}, {BC}, {CD}: the staircase a, ab, bc, c.
    rejected = [("A", "C"), ("A", "D"), ("B", "D")]
    assert compact_letters(["A", "B", "C", "D"], rejected) == {"A": "a", "B": "ab", "C": "bc", "D": "c"}


def test_two_clusters_by_hand() -> None:
    # A, B alike; C, D alike; every cross pair rejected: columns {AB}, {CD}.
    rejected = [("A", "C"), ("A", "D"), ("B", "C"), ("B", "D")]
    assert compact_letters(["A", "B", "C", "D"], rejected) == {"A": "a", "B": "a", "C": "b", "D": "b"}


def test_order_decides_the_letters() -> None:
    rejected = [("A", "C")]
    assert compact_letters(["C", "B", "A"], rejected) == {"C": "a", "B": "ab", "A": "b"}


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda k: st.tuples(st.just(k), st.sets(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1))))
    )
)
def test_share_a_letter_iff_not_rejected(case: tuple[int, set[tuple[int, int]]]) -> None:
    k, raw = case
    rejected = {frozenset(p) for p in raw if p[0] != p[1]}
    names = [f"L{i}" for i in range(k)]
    shown = compact_letters(names, [tuple(names[i] for i in sorted(p)) for p in rejected])
    assert list(shown) == names
    assert all(shown[n] for n in names)  # everyone has at least one letter
    for i, j in itertools.combinations(range(k), 2):
        share = bool(set(shown[names[i]]) & set(shown[names[j]]))
        assert share == (frozenset((i, j)) not in rejected)
    # Every letter is used; the first learner gets "a".
    used = sorted(set("".join(shown.values())))
    assert used == sorted(letters.LETTERS[: len(used)])
    assert shown[names[0]].startswith("a")


def test_validation() -> None:
    with pytest.raises(ValueError, match="not in names_in_order"):
        compact_letters(["A", "B"], [("A", "Z")])
    with pytest.raises(ValueError, match="same learner twice"):
        compact_letters(["A", "B"], [("A", "A")])
    with pytest.raises(ValueError, match="repeats a learner"):
        compact_letters(["A", "A"], [])
    with pytest.raises(ValueError, match="empty"):
        compact_letters([], [])


def test_docstring_examples() -> None:
    outcome = doctest.testmod(letters)
    assert outcome.attempted >= 1 and outcome.failed == 0
