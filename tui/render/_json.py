"""The JSON document of ``rankboard report --format json``: the common keys, then each view's
(its ``json`` renderer, :mod:`tui.registry`), in the order of the schema (:mod:`tui.render._json_schema`)."""

from __future__ import annotations

from typing import Any

from tui import registry
from tui.formats.json import num
from tui.model import Analysis
from tui.registry import RenderOptions
from tui.render._json_schema import COMMON, schema
from tui.render._json_text import dumps_indented


def report_dict(analysis: Analysis, view: str = "all") -> dict[str, Any]:
    """The document as Python values (what :func:`render_json` serialises)."""
    views = registry.selected(view)
    sel = analysis.selection
    r = analysis.ranks  # the common keys need the ranks (the data sets and learners tested)
    doc: dict[str, Any] = {
        "criterion": sel.criterion,
        "higher_is_better": sel.higher_is_better,
        "alpha": num(sel.alpha),
        "test": sel.test,
        "datasets": [str(d) for d in r.medians.index] if r is not None else list(sel.datasets),
        "learners": [str(x) for x in r.medians.columns] if r is not None else list(sel.learners),
        "excluded": [{"dataset": d, "reason": why} for d, why in r.excluded.items()] if r is not None else [],
        "notes": list(analysis.notes),
    }
    options = RenderOptions()
    for v in views:  # only the views shown are read (each is computed when first read)
        for key, value in v.ref("formats", "json")(analysis, options).items():
            if doc.get(key) is None:  # a key two views give (the CD): the first value that is set
                doc[key] = value
    doc["problem"] = analysis.problem  # after the views were read: a view a limit of stats left empty says why
    required = [k for k in schema()["required"] if k in doc]
    return {**{k: doc[k] for k in required}, **{k: v for k, v in doc.items() if k not in required}}


def render_json(analysis: Analysis, view: str = "all", *, source: str = "", ascii: bool = False) -> str:
    """The document as indented JSON (``allow_nan=False``: a non-finite number can never slip through),
    written by :func:`tui.render._json_text.dumps_indented` (``json.dumps``'s bytes, faster)."""
    doc = report_dict(analysis, view)
    if source:
        doc = {"source": source, **doc}
    text = dumps_indented(doc)
    del doc  # (its rows, before the text is copied once more)
    return text + "\n"


__all__ = ["COMMON", "render_json", "report_dict"]
