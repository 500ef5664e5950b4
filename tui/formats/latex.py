"""LaTeX pieces every view's renderer uses: escaping of names (``& % $ # _ { } ~ ^ \\``, and
``< > |``, which the default font encoding garbles), p-values, bold cells, tabulars, the
``\\boxplot`` macro of Menzies' lecture notes and the preamble of a standalone document."""

from __future__ import annotations

from collections.abc import Sequence

from stats import fmt_p
from stats.core.names import printable

PACKAGES = ("colortbl", "tikz")


#: The picture macro of Menzies' lecture notes: #1 = q1, #2 = median - q1, #3 = median, #4 = q3 - median, #5 = q3.
BOXPLOT_MACRO = r"""\newcommand{\boxplot}[5]{%
\begin{picture}(100, 7)
\put(#1, 2){\line(0, 1){4}}
\put(#1, 4){\line(1, 0){#2}}
\put(#3, 4){\circle*{3}}
\put(#3, 4){\line(1, 0){#4}}
\put(#5, 2){\line(0, 1){4}}
\put(50, 3){\line(0, 1){4}}
\end{picture}%
}"""


SHADE = r"\rowcolor[rgb]{0.8,0.8,0.8}"


_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # A row of a tabular that begins with "[" after "\\" is read as \\[<length>] (and fails):
    # brackets are braced wherever a name puts them.
    "[": "{[}",
    "]": "{]}",
}


def tex_p(p: float) -> str:
    """:func:`fmt_p` for LaTeX text (``<1e-300`` needs math mode for its ``<``)."""
    return fmt_p(p).replace("<", "$<$")


def tex_escape(name: object) -> str:
    """``name`` with LaTeX's special characters escaped, brackets braced (``{[}``), control
    characters shown as escapes."""
    text = printable(name)  # control characters and bidi overrides escaped first (stats.core.names)
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def bf(text: str, on: bool) -> str:
    return rf"\textbf{{{text}}}" if on else text


def tabular(spec: str, header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None) -> list[str]:
    out = [rf"\begin{{tabular}}{{{spec}}}", r"\hline"]
    if title is not None:
        out += [rf"\multicolumn{{{len(header)}}}{{c}}{{{title}}} \\", r"\hline"]
    out += [" & ".join(header) + r" \\", r"\hline"]
    out += [" & ".join(r) + r" \\" for r in rows]
    out += [r"\hline", r"\end{tabular}"]
    return out


def _scale(x: float, lo: float, hi: float) -> float:
    return 50.0 if hi == lo else (x - lo) / (hi - lo) * 100.0


def _boxplot(r: object, lo: float, hi: float) -> str:
    q1, med, q3 = (_scale(getattr(r, f), lo, hi) for f in ("q1", "median", "q3"))
    nums = (q1, med - q1, med, q3 - med, q3)
    return r"\boxplot" + "".join(f"{{{v:.6f}}}" for v in nums)


def preamble() -> list[str]:
    return [*(rf"\usepackage{{{p}}}" for p in PACKAGES), BOXPLOT_MACRO]
