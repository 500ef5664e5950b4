"""The critical-difference diagram: maximal cliques and the drawing (box drawing and ASCII)."""

from __future__ import annotations

import pandas as pd
import pytest

import stats
from stats import cd_groups
from tui.views.cd.diagram import render_cd

# Garcia & Herrera (2008): average ranks of 5 learners over N = 30 data sets.
GH2008 = pd.Series({"C4.5": 2.100, "1NN": 3.250, "NB": 2.200, "Kernel": 4.333, "CN2": 3.117})
BOX = set("─│┼┘└┐┌┤├┴┬━┿")


def test_cd_of_garcia_herrera_2008() -> None:
    assert stats.critical_difference(5, 30) == pytest.approx(1.1136, abs=5e-5)


def test_cliques_of_garcia_herrera_2008() -> None:
    # In rank order: C4.5 2.100, NB 2.200, CN2 3.117, 1NN 3.250, Kernel 4.333; CD = 1.1136.
    # From C4.5: 3.117 - 2.100 = 1.017 < CD, 3.250 - 2.100 = 1.150 >= CD -> {C4.5, NB, CN2}.
    # From NB: 3.250 - 2.200 = 1.050 < CD, 4.333 - 2.200 = 2.133 >= CD  -> {NB, CN2, 1NN}.
    # From CN2: 3.250 - 3.117 < CD, 4.333 - 3.117 = 1.216 >= CD         -> {CN2, 1NN}: inside the last, dropped.
    # From 1NN: 4.333 - 3.250 = 1.083 < CD                               -> {1NN, Kernel}.
    cd = stats.critical_difference(5, 30)
    assert cd_groups(GH2008, cd) == (("C4.5", "NB", "CN2"), ("NB", "CN2", "1NN"), ("1NN", "Kernel"))


def test_cliques_edge_cases() -> None:
    r = pd.Series({"a": 1.0, "b": 2.0, "c": 3.0})
    assert cd_groups(r, 1.0) == ()  # a difference equal to CD is significant
    assert cd_groups(r, 2.5) == (("a", "b", "c"),)
    assert cd_groups(pd.Series({"a": 1.5, "b": 1.5}), 0.1) == (("a", "b"),)


def test_rendered_diagram() -> None:
    cd = stats.critical_difference(5, 30)
    lines = render_cd(GH2008, cd)
    text = "\n".join(lines)
    for name in GH2008.index:
        assert name in text
    assert all(len(line) <= 78 for line in lines)
    assert sum("━" in line for line in lines) == 3  # one bar per clique
    assert "CD" in lines[0] and "1.114" in lines[0]
    assert lines[1].split() == ["1", "2", "3", "4", "5"]
    # best half on the left, the rest on the right
    assert any(line.startswith("C4.5 (2.10) ") for line in lines)
    assert any(line.endswith("(4.33) Kernel") for line in lines)
    assert set(text) & BOX


def test_ascii_variant() -> None:
    lines = render_cd(GH2008, stats.critical_difference(5, 30), ascii=True)
    text = "\n".join(lines)
    assert text.isascii() and "=" in text and "|" in text and "+" in text and "-" in text
    assert all(name in text for name in GH2008.index)


def test_names_are_literal_and_small_inputs() -> None:
    lines = render_cd(pd.Series({"[red]x": 1.2, "[b]y": 1.8}), 1.0)
    assert any("[red]x" in line for line in lines) and any("[b]y" in line for line in lines)
    assert render_cd(pd.Series(dtype=float), 1.0) == []
    assert render_cd(pd.Series({"solo": 1.0}), 1.0)[-1].startswith("solo")


def _cut_of(shown: str, name: str) -> bool:
    """Whether ``shown`` is ``name`` or ``name`` cut in the middle (its start, an ellipsis, its end)."""
    head, cut, tail = shown.partition("\N{HORIZONTAL ELLIPSIS}")
    return shown == name or bool(cut) and name.startswith(head) and name.endswith(tail)


def test_names_are_cut_in_the_middle_so_that_20_long_names_fit_the_width() -> None:
    """At 64 columns (80 less the sidebar) 20 names of 20 characters drew 99 columns, which the
    app folded in two. Now the names are cut in the middle, distinct, the axis takes one cell per
    rank when crowded, and the diagram fits; whole names when they fit."""
    from tui.views.cd.diagram import MIN_NAME

    names = [f"classifier_{chr(97 + i)}_{i * 37 % 101:07d}" for i in range(20)]
    ranks = pd.Series([1 + 0.9 * i for i in range(20)], index=names)
    for width in (64, 80):
        lines = render_cd(ranks, 12.1, width=width)
        assert max(len(line) for line in lines) <= width
        # issue 28: the prefix all share is dropped and said once, under the diagram
        assert lines[-1].startswith("learners: 'classifier_' before each")
        rows = lines[-11:-1]  # the learner rows: a name left, a name right
        shown = [row.split(" (")[0] for row in rows] + [row.rsplit(") ", 1)[1] for row in rows]
        rests = {n[len("classifier_") :] for n in names}
        assert len(set(shown)) == 20 and all(len(n) >= MIN_NAME for n in shown)
        assert all(_cut_of(n, rest) for n in shown for rest in rests if n[-3:] == rest[-3:])
        assert {n[-3:] for n in shown} == {n[-3:] for n in names}
    wide = render_cd(ranks, 12.1, width=120)
    assert all(n in "\n".join(wide) for n in names)  # whole names when there is room
