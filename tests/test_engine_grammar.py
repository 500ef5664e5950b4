"""The engines of ``rankboard aggregate`` read a strict subset of the lines rankboard reads, to the
same result (issue 33): tested on lines drawn at random from the fragments where the two rules
could part (white space of every kind around names, quotes, ``#``, NUL, carriage returns,
U+FFFD, repeat and fold at 2^31 - 1 and beyond, values at 1e50, below the smallest double,
``nan``, ``inf``, hexadecimal and underscores), not only on the cases known to differ.

The engines' rule, stated in Python as the engines state it in SQL and pandas
(:func:`engine_reads`): the whole line matches :data:`tui.engines._shared.LINE`, its numbers are
in range; rankboard's: :func:`stats.logs._formats.judge_line`, the reading of each line that
its fast path is tested against elsewhere.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from stats.core.limits import MAX_INT, MAX_LINE, MAX_VALUE
from stats.logs._formats import LONG, judge_line
from tui.engines._shared import FORBIDDEN, LINE, NONZERO, diagnose

_TRIM = " \t"  # what the engines strip around a field (rankboard strips these and more)

_NAME_CHARS = 'ab9-=._ \t#",\x00\r\ufffd\u00a0\u2003\ufeff\x1c\x85é'
_INTS = ["0", "1", " 7 ", "\t3", "+1", "-1", "1.0", "01", "2147483647", "2147483648", "99999999999", ""]
_VALUES = [
    "0.5", "-0.0", "0", "+0.25", ".5", "5.", "1e50", "-1e50", "9.99e49", "1E+49", "1e-400", "1e-300", "0e5",
    "00.000", "0.0e-999", "nan", "inf", "-Infinity", "1_0", "0x1p3", " 0.25 ", "\t1e3\t", "1e", "e1", ".", "",
]  # fmt: skip


def engine_reads(text: str) -> bool:
    """Whether an engine reads the line (without its newline): the grammar, then the ranges."""
    if len(text) > MAX_LINE or re.search(FORBIDDEN, text) or not re.fullmatch(LINE, text):
        return False
    fields = [f.strip(_TRIM) for f in text.split(",")]
    value = float(fields[5])
    if int(fields[1]) > MAX_INT or int(fields[2]) > MAX_INT or abs(value) >= MAX_VALUE:
        return False
    return not (value == 0 and re.match(NONZERO, fields[5]))


names = st.text(alphabet=_NAME_CHARS, min_size=0, max_size=6)
ints = st.one_of(st.sampled_from(_INTS), st.integers(0, 2**40).map(str))
values = st.one_of(
    st.sampled_from(_VALUES),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(min_value=-1e60, max_value=1e60).map(lambda x: f"{x:.6e}"),
    st.text(alphabet="0123456789.eE+- ", min_size=1, max_size=8),
)


@st.composite
def lines(draw: st.DrawFn) -> str:
    fields = [draw(names), draw(ints), draw(ints), draw(names), draw(names), draw(values)]
    extra = draw(st.sampled_from([0, 0, 0, 0, -1, 1]))  # a field missing, or one too many
    fields = fields[:-1] if extra < 0 else fields + [draw(names)] if extra > 0 else fields
    return ",".join(fields)


@settings(max_examples=2000, deadline=None)
@given(lines())
@example("iris,1,1,nb,acc,0.5")
@example(" iris ,\t1 ,2, nb\t,acc , 1e49 ")
@example("iris,2147483647,0,nb,acc,-9.99e49")
@example("iris,1,1,nb\u00a0,acc,0.5")  # rankboard strips the no-break space; the engines refuse the line
@example('iris,1,1,"nb, x",acc,0.5')  # a quoted name: rankboard reads it, the engines refuse it
@example("iris,1,1,nb,acc,1e-400")
@example("iris,1,1,nb,acc,1e50")  # rankboard reads 1e50 itself; the engines refuse it
def test_what_an_engine_reads_rankboard_reads_to_the_same_row(text: str) -> None:
    ours = judge_line(text.encode("utf-8"), LONG)
    if not engine_reads(text):
        return
    assert isinstance(ours, list), (text, ours)
    fields = [f.strip(_TRIM) for f in text.split(",")]
    assert ours[:5] == [fields[0], int(fields[1]), int(fields[2]), fields[3], fields[4]]
    assert ours[5] == float(fields[5])


@settings(max_examples=2000, deadline=None)
@given(lines())
@example("iris,1,1,nb,acc,0.5")
@example("iris,1,1,nb,acc,1e50")
@example("iris,2147483648,1,nb,acc,0.5")
@example("#iris,1,1,nb,acc,0.5")
def test_the_reason_given_for_a_refused_line_is_found_exactly_for_the_lines_refused(text: str) -> None:
    """:func:`diagnose` (the reason quoted to the user) finds none exactly when the engines read
    the line (none of these lines is blank)."""
    assert (diagnose(text) == 0) == engine_reads(text), text
