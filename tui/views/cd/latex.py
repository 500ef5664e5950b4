"""The CD diagram's section of the report as LaTeX (names escaped; the boxplot macro of Menzies' lecture notes)."""

from __future__ import annotations

import math

from tui.formats.latex import (
    tex_escape,
)
from tui.model import Analysis, cd_sentence
from tui.registry import RenderOptions


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    """Demsar's Fig. 1 in TikZ; x in cm: rank 1 at 0, rank k at ``AXIS_CM``."""
    cd = analysis.cd
    assert cd is not None
    names = [str(n) for n in cd.ranks.index]
    values = [float(v) for v in cd.ranks.to_numpy()]
    k = len(names)
    axis = 8.0

    def x(rank: float) -> float:
        return 0.0 if k == 1 else (rank - 1.0) / (k - 1) * axis

    out = [
        f"% critical difference diagram (Nemenyi, alpha = {analysis.selection.alpha:g}, CD = {cd.cd:.3f})",
        f"% {tex_escape(cd.basis + (f'; {cd.replaced}' if cd.replaced else ''))}",
        r"\begin{tikzpicture}[font=\small]",
        rf"\draw (0,0) -- ({axis:.3f},0);",
    ]
    for i in range(1, k + 1):
        out.append(rf"\draw ({x(i):.3f},0) -- ({x(i):.3f},0.15) node[above] {{{i}}};")
    if k > 1 and math.isfinite(cd.cd):
        end = x(1.0 + cd.cd)
        out.append(rf"\draw[|-|] (0,0.9) -- ({end:.3f},0.9) node[midway,above] {{CD = {cd.cd:.3f}}};")
    bars = len(cd.cliques)
    for b, clique in enumerate(cd.cliques):
        lo, hi = x(values[names.index(clique[0])]), x(values[names.index(clique[-1])])
        y = -0.25 * (b + 1)
        out.append(rf"\draw[line width=2pt] ({lo - 0.05:.3f},{y:.3f}) -- ({hi + 0.05:.3f},{y:.3f});")
    left_n = (k + 1) // 2
    for j, (n, v) in enumerate(zip(names, values)):
        row = j if j < left_n else k - 1 - j
        y = -0.25 * (bars + 1) - 0.4 * row
        if j < left_n:
            out.append(rf"\draw ({x(v):.3f},0) |- (-0.3,{y:.3f}) node[left] {{{tex_escape(n)} ({v:.2f})}};")
        else:
            out.append(
                rf"\draw ({x(v):.3f},0) |- ({axis + 0.3:.3f},{y:.3f}) node[right] {{({v:.2f}) {tex_escape(n)}}};"
            )
    out.append(r"\end{tikzpicture}")
    r = analysis.robustness
    if r is not None:  # issue 31: under the diagram
        out.append(f"% {tex_escape(cd_sentence(r))}")
    return out
