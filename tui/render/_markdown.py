"""The Markdown report: a heading, then each view's section (a heading, pipe tables, the CD diagram
in a code block) in the order of the registry (each view's own in ``tui/views/<name>/markdown.py``)."""

from __future__ import annotations

from tui.formats.markdown import md_escape
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.render._text import sections


def render_markdown(analysis: Analysis, view: str = "all", *, ascii: bool = False, source: str = "") -> str:
    """The report as markdown: a heading per view, pipe tables, the CD diagram in a code block."""
    sel = analysis.selection
    head = [f"# rankboard report: {md_escape(sel.criterion)}", ""]
    if source:
        head += [f"Source: {md_escape(source)}", ""]
    head.append(
        f"Criterion {md_escape(sel.criterion)} ({'higher' if sel.higher_is_better else 'lower'} is better), "
        f"{analysis.n_datasets} data sets x {analysis.n_learners} learners, median over repeats and folds."
    )
    if analysis.problem:
        head += ["", f"Not tested: {md_escape(analysis.problem)}"]
    head += [line for note in analysis.notes for line in ("", md_escape(note[:1].upper() + note[1:]) + ".")]
    blocks = [head, *sections(analysis, view, "markdown", RenderOptions(ascii=ascii, source=source))]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"
