"""The LaTeX report: a header of comments, then each view's section in the order of the registry
(each view's own in ``tui/views/<name>/latex.py``). What the views draw:

``quartiles``
    the boxplot table of Menzies' lecture notes per scope: rank, learner and the ``\\boxplot``
    picture macro. The picture is 100 units wide and the scope's values are
    mapped onto it from the analysis' shared axis ``[lo, hi]`` (0 = lo, 100 =
    hi): a tick at q1, a line to the median's dot, a line to a tick at q3, and
    the notes' mark at 50 (the middle of the axis). The rank is the learner's
    Scott-Knott group in the scope (``stats.scott_knott``, the selection's
    variant; 1 = best); in the charts of deltas, which have no groups, its rank
    of medians within the scope (1 = best, ties averaged). Shaded rows:
    overall, the verdict's winners (none when the procedure rejects no pair);
    per data set, the first Scott-Knott group (deltas: the best median).
``ranks``
    medians with ranks in parentheses, the best of each row in bold, and the
    average-rank row (the best in bold).
``tests``
    the omnibus tests, the CD, and the control table with z, p and every APV;
    rejected hypotheses (APV <= alpha) in bold. The verdict is a comment.
``pairs``
    every pair with z, p and the four all-pairs APVs; rejected in bold.
``cd``
    Demsar's diagram as a TikZ picture: the rank axis (1 = best, at the left),
    each learner joined to its average rank, a thick bar per clique.

Names are escaped (``& % $ # _ { } ~ ^ \\``, and ``< > |``, which the default
font encoding garbles). The fragment starts with ``% requires:`` lines;
``standalone=True`` gives a whole document instead (``\\documentclass``, the
packages and the ``\\boxplot`` definition of Menzies' lecture notes).
"""

from __future__ import annotations

from tui.formats.latex import BOXPLOT_MACRO, PACKAGES, preamble, tex_escape
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.render._text import sections


def render_latex(
    analysis: Analysis, view: str = "all", *, standalone: bool = False, source: str = "", ascii: bool = False
) -> str:
    """The report as LaTeX (a fragment, or a whole document with ``standalone=True``). ``ascii`` is unused."""
    sel = analysis.selection
    head = [
        f"% rankboard report{': ' + tex_escape(source) if source else ''}",
        f"% criterion {tex_escape(sel.criterion)} ({'higher' if sel.higher_is_better else 'lower'} is better), "
        f"{analysis.n_datasets} data sets x {analysis.n_learners} learners, median over repeats and folds",
    ]
    if analysis.problem:
        head.append(f"% not tested: {tex_escape(analysis.problem)}")
    head += [f"% {tex_escape(note)}" for note in analysis.notes]
    if not standalone:
        head += [f"% requires: \\usepackage{{{p}}}" for p in PACKAGES]
        head += ["% requires: the \\boxplot macro of Menzies' lecture notes:"]
        head += ["% " + line for line in BOXPLOT_MACRO.splitlines()]
    body = sections(analysis, view, "latex", RenderOptions(source=source, standalone=standalone))
    if standalone:
        doc = [r"\documentclass{article}", r"\usepackage[margin=1.5cm,landscape]{geometry}", *preamble()]
        doc += [r"\begin{document}", r"\noindent"]
        parts = [head + doc] + [[*b, "", r"\bigskip\noindent"] for b in body] + [[r"\end{document}"]]
        return "\n\n".join("\n".join(p) for p in parts) + "\n"
    return "\n\n".join("\n".join(b) for b in [head, *body]) + "\n"
