"""The view model (no Textual): a :class:`Selection` in, an :class:`Analysis` of every view out;
the loader that turns logs into a :class:`Model`, and view specs saved as TOML.
"""

from tui.choices import LOWER_IS_BETTER
from tui.model._basis import Basis
from tui.model._cd import render_cd
from tui.model._defaults import default_higher_is_better, default_selection
from tui.model._effects import TWO_SAMPLE, Letters, PairEffects, effects_table, pair_effects, rejected_pairs
from tui.model._ellipsis import distinct_cuts, middle_ellipsis
from tui.model._groups import GROUPING_NAMES, rank_every_chart
from tui.model._imports import FIRST_VIEW, OTHER_VIEWS, import_modules
from tui.model._loader import Loader, LoadResult, format_problem
from tui.model._model import BOUNDED, Model
from tui.model._spec import load_spec, save_spec, selection_from_spec
from tui.model._types import (
    GROUPINGS,
    PROCEDURES,
    Analysis,
    CDView,
    FoldsView,
    PairsView,
    QuartileRow,
    QuartilesView,
    RanksView,
    Selection,
    TestsView,
)

__all__ = [
    "BOUNDED",
    "Analysis",
    "Basis",
    "CDView",
    "FIRST_VIEW",
    "FoldsView",
    "GROUPINGS",
    "GROUPING_NAMES",
    "LOWER_IS_BETTER",
    "Letters",
    "LoadResult",
    "Loader",
    "Model",
    "OTHER_VIEWS",
    "PROCEDURES",
    "PairEffects",
    "PairsView",
    "QuartileRow",
    "QuartilesView",
    "RanksView",
    "Selection",
    "TWO_SAMPLE",
    "TestsView",
    "default_higher_is_better",
    "default_selection",
    "distinct_cuts",
    "effects_table",
    "format_problem",
    "import_modules",
    "load_spec",
    "middle_ellipsis",
    "pair_effects",
    "rank_every_chart",
    "rejected_pairs",
    "render_cd",
    "save_spec",
    "selection_from_spec",
]
