"""The CD diagram's section of the report as Markdown (pipe tables; names escaped)."""

from __future__ import annotations

import stats
from tui.formats.markdown import md_escape
from tui.model import Analysis, cd_sentence
from tui.registry import RenderOptions
from tui.views.cd.text import cd_text


def render(analysis: Analysis, options: RenderOptions) -> list[str]:
    cd = analysis.cd
    assert cd is not None
    lines = cd_text(analysis, options.ascii)
    r = analysis.robustness
    if r is not None:  # the fragility line (cd_text's last) under the diagram, out of the code block
        lines = lines[:-1]
    out = ["## Critical difference", "", md_escape(lines[0]), "", md_escape(lines[1]), "", "```", *lines[2:], "```"]
    if r is not None:
        out += ["", md_escape(cd_sentence(r)) + "."]
    if cd.cliques:
        out += ["", f"Not significantly different ({stats.PROCEDURE_NAMES[cd.procedure]}):", ""]
        out += ["- " + ", ".join(md_escape(n) for n in clique) for clique in cd.cliques]
    return out
