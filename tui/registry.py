"""The registry of views: the one place that declares every view of rankboard.

Each :class:`View` names its key, title and footer word, the parts of the analysis it shows and how
each is made, how each output format renders it, what its CSV export writes, its JSON schema and its
panel in the app. The app (its panels, keys, help, palette), ``rankboard report`` (every format),
the CSV export and the view specs read the registry; a view's code lives in its own folder
(``tui/views/<name>/``). References are ``"module:attribute"`` strings, imported when first used,
so that reading the registry (``rankboard --help``, the argument parser) imports nothing heavy; a
view registered at run time (:func:`register`) may give the objects themselves.

The contract of each reference, for a view named ``name``:

``parts[part](basis)``
    The value of one part of an :class:`~tui.model.Analysis` (``parts[name]`` is the view itself),
    from the selection's :class:`~tui.model.Basis`. Made only when every predicate in ``requires``
    holds for the basis (else the part is None: nothing to show); a ``ValueError`` leaves it None
    with the message as the analysis' problem.
``formats[fmt](analysis, options)``
    ``text``, ``markdown`` and ``latex``: the view's section as lines (``options``:
    :class:`RenderOptions`); ``json``: the view's keys of the JSON document, as a dict.
``export(analysis)``
    The CSV export of the view (``e`` in the app, ``report --format csv``), as a DataFrame.
``later``
    Parts of the view the app computes in the background after showing the view without them
    (saying so), then shows it again whole: the robustness of the tests, pairs and CD views,
    one part they share, computed once per analysis. The reports compute them when they render.
``schema()``
    The JSON schema of the view's keys: ``{"required": [...], "properties": {...}}``.
``panel``
    The Textual widget showing the view (:class:`tui.widgets.Panel`'s protocol).
``figure(analysis, options)``
    The view as a publication figure (``report --format svg|pdf|png``, the app's ``e``): a
    :class:`matplotlib.figure.Figure` drawn from the same view model as the screen, with
    ``options`` a :class:`tui.formats.figure.FigureOptions`; views without one have None.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: A reference to code: ``"package.module:attribute"`` (imported when first used) or the object.
Ref = Any


@dataclass(frozen=True)
class RenderOptions:
    """What a text, Markdown or LaTeX renderer is told besides the analysis."""

    ascii: bool = False  # text and Markdown: draw the CD diagram with ASCII instead of box drawing
    source: str = ""  # where the log came from (the header)
    standalone: bool = False  # LaTeX: a whole document
    width: int | None = None  # text: the terminal's columns, names and tables fitted to (None: whole)


@dataclass(frozen=True)
class View:
    """One view: what it is called and keyed, how its parts are made, rendered, exported and shown."""

    name: str  # --view, the view spec, the panel's id
    key: str  # its key in the app
    title: str  # the help's and the palette's sentence
    short: str  # the footer's word
    parts: Mapping[str, Ref]  # part name -> maker(basis); the view's own part is named as the view
    formats: Mapping[str, Ref]  # text | markdown | latex -> lines; json -> its keys
    export: Ref | None = None  # analysis -> the DataFrame of its CSV
    schema: Ref | None = None  # () -> its JSON keys' schema
    panel: Ref | None = None  # the app's widget
    requires: tuple[str, ...] = ()  # Basis predicates that must hold for the parts to be made
    shown_with: tuple[str, ...] = ()  # other parts computed before the view is shown (ranks: letters)
    early: str | None = None  # a part shown first while the view is computed (folds: folds_early)
    later: tuple[str, ...] = ()  # parts computed in the background, the view shown first without them (robustness)
    raw: bool = False  # made from the raw results: unavailable when only an aggregate is kept
    in_footer: bool = True  # its key in the footer (80 columns: not every view's)
    focus: str | None = None  # the id of the widget that takes the keys (its table), else the panel
    filtered_by: tuple[str, ...] = ()  # the export's name columns the / filter reads (kept: one matches)
    shown: Ref | None = None  # (frame, needle, datasets, learners) -> the export as shown, if not filtered_by
    whole: Ref | None = None  # (analysis) -> None: makes all of the view at once, for a report that prints it all
    figure: Ref | None = None  # (analysis, FigureOptions) -> a matplotlib Figure of the view, if it has one

    def ref(self, what: str, fmt: str | None = None) -> Any:
        """The object a reference of this view names (``what``: "export", "schema", "panel", or
        "formats" / "parts" with ``fmt`` the format or part), or None when it has none."""
        refs = getattr(self, what)
        if fmt is not None:
            refs = refs.get(fmt)
        return resolve(refs)


_resolved: dict[str, Any] = {}


def resolve(ref: Ref) -> Any:
    """The object ``ref`` names (``"module:attribute"`` imported now), or ``ref`` itself."""
    if not isinstance(ref, str):
        return ref
    if ref not in _resolved:
        module, _, attribute = ref.partition(":")
        _resolved[ref] = getattr(importlib.import_module(module), attribute)
    return _resolved[ref]


def _refs(name: str, *formats: str) -> dict[str, str]:
    return {fmt: f"tui.views.{name}.{fmt}:render" for fmt in formats}


FORMATS = ("text", "markdown", "latex", "json")


def _declare(name: str, key: str, title: str, short: str, **more: Any) -> View:
    """A view whose code follows the folder's convention: ``tui/views/<name>/`` with ``part.py``
    (``make``), one module per format (``render``), ``export.py`` (``frame``), ``json.py``
    (``SCHEMA`` via ``schema``) and ``panel.py`` (``Panel``)."""
    home = f"tui.views.{name}"
    defaults: dict[str, Any] = {
        "parts": {name: f"{home}.part:make"},
        "formats": _refs(name, *FORMATS),
        "export": f"{home}.export:frame",
        "schema": f"{home}.json:schema",
        "panel": f"{home}.panel:Panel",
    }
    return View(name, key, title, short, **{**defaults, **more})


#: The robustness of the tests, pairs and CD views (fragility and leave-one-out stability of their
#: conclusions): one part the three declare, made once per analysis.
ROBUSTNESS = "tui.views.tests.part:robustness"

#: Every view, in the order of their keys, of the report's sections and of ``--view all``.
REGISTRY: list[View] = [
    _declare(
        "quartiles",
        "1",
        "Quartiles view",
        "quart",
        raw=True,
        filtered_by=("learner", "scope"),
        whole="tui.views.quartiles.part:every_chart",
        figure="tui.views.quartiles.figure:draw",
    ),
    _declare(
        "ranks",
        "2",
        "Ranks view",
        "ranks",
        parts={"ranks": "tui.views.ranks.part:make", "letters": "tui.views.ranks.part:letters"},
        requires=("testable",),
        shown_with=("letters",),
        focus="ranks-table",
        shown="tui.views.ranks.export:shown",
    ),
    _declare(
        "tests",
        "3",
        "Tests view",
        "tests",
        parts={"tests": "tui.views.tests.part:make", "robustness": ROBUSTNESS},
        requires=("has_tests",),  # Skillings-Mack alone when fewer than 2 data sets are complete
        later=("robustness",),
        focus="control-table",
        filtered_by=("learner",),
    ),
    _declare(
        "pairs",
        "4",
        "Pairs view",
        "pairs",
        parts={
            "pairs": "tui.views.pairs.part:make",
            "effects": "tui.views.pairs.part:effects",
            "robustness": ROBUSTNESS,
        },
        requires=("testable",),
        later=("robustness",),
        focus="pairs-table",
        filtered_by=("a", "b"),
    ),
    _declare(
        "cd",
        "5",
        "CD diagram view",
        "CD",
        parts={"cd": "tui.views.cd.part:make", "robustness": ROBUSTNESS},
        requires=("testable",),
        later=("robustness",),
        figure="tui.views.cd.figure:draw",
    ),
    _declare(
        "folds",
        "6",
        "Folds view: each learner against the control, fold by fold",
        "folds",
        parts={"folds": "tui.views.folds.part:make", "folds_early": "tui.views.folds.part:early"},
        requires=("two_learners",),
        early="folds_early",
        raw=True,
        focus="folds-totals",
        shown="tui.views.folds.export:shown",
        figure="tui.views.folds.figure:draw",
    ),
    _declare(
        "curves",
        "7",
        "Learning curves of a sequence study (Menzies), the plateau marked",
        "curves",
        raw=True,
        in_footer=False,
        figure="tui.views.curves.figure:draw",
    ),
]


def register(view: View) -> Callable[[], None]:
    """Add ``view`` to the registry (after the others); returns the function that removes it.
    A name or key already taken is refused with ``ValueError``."""
    for other in REGISTRY:
        if other.name == view.name or other.key == view.key:
            raise ValueError(f"view {view.name!r} (key {view.key!r}) clashes with view {other.name!r}")
    REGISTRY.append(view)
    return lambda: REGISTRY.remove(view)


def views() -> tuple[View, ...]:
    """Every registered view, in order."""
    return tuple(REGISTRY)


def names() -> tuple[str, ...]:
    """The names of every registered view, in order (``--view``'s choices besides ``all``)."""
    return tuple(v.name for v in REGISTRY)


def view(name: str) -> View:
    """The view called ``name``; ``ValueError`` naming --view for an unknown one."""
    for v in REGISTRY:
        if v.name == name:
            return v
    raise ValueError(f"--view must be one of {', '.join((*names(), 'all'))}; got {name!r}")


def selected(name: str) -> tuple[View, ...]:
    """The views ``name`` stands for ("all": every view)."""
    return views() if name == "all" else (view(name),)


def part_owner(part: str) -> View | None:
    """The view whose parts include ``part`` (None: no view makes it)."""
    return next((v for v in REGISTRY if part in v.parts), None)
