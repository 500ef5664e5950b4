"""The view model (no Textual): a :class:`Selection` in, an :class:`Analysis` of every view out;
the loader that turns logs into a :class:`Model`, and view specs saved as TOML.
"""

from tui.choices import LOWER_IS_BETTER
from tui.model._basis import Basis
from tui.model._defaults import default_higher_is_better, default_selection
from tui.model._effects import (
    TWO_SAMPLE,
    Letters,
    PairEffects,
    effects_table,
    pair_effects,
    rank_letters,
    rejected_pairs,
)
from tui.model._groups import GROUPING_NAMES, rank_every_chart, with_groups
from tui.model._imports import FIRST_VIEW, OTHER_VIEWS, import_modules
from tui.model._loader import Loader, LoadResult, format_problem
from tui.model._model import BOUNDED, Model
from tui.model._quartiles import quartiles_view, with_control
from tui.model._robustness import (
    COMPUTING,
    COMPUTING_TEXT,
    ROBUSTNESS_SCHEMA,
    Robustness,
    cd_sentence,
    fragility_mark,
    fragility_note,
    listed,
    omnibus_phrase,
    pairs_words,
    robustness,
    robustness_json,
    robustness_now,
    robustness_part,
    roles_frame,
    tests_sentence,
)
from tui.model._spec import load_spec, save_spec, selection_from_spec, spec_logs, spec_view
from tui.model._tests import alone_view, cd_view, pairs_view, ranks_view, safety_message, tests_view
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
    "alone_view",
    "Analysis",
    "Basis",
    "BOUNDED",
    "cd_sentence",
    "cd_view",
    "CDView",
    "COMPUTING",
    "COMPUTING_TEXT",
    "default_higher_is_better",
    "default_selection",
    "effects_table",
    "FIRST_VIEW",
    "FoldsView",
    "format_problem",
    "fragility_mark",
    "fragility_note",
    "GROUPING_NAMES",
    "GROUPINGS",
    "import_modules",
    "Letters",
    "listed",
    "load_spec",
    "Loader",
    "LoadResult",
    "LOWER_IS_BETTER",
    "Model",
    "omnibus_phrase",
    "OTHER_VIEWS",
    "pair_effects",
    "PairEffects",
    "pairs_view",
    "PairsView",
    "pairs_words",
    "PROCEDURES",
    "QuartileRow",
    "quartiles_view",
    "QuartilesView",
    "rank_every_chart",
    "rank_letters",
    "ranks_view",
    "RanksView",
    "rejected_pairs",
    "Robustness",
    "robustness",
    "ROBUSTNESS_SCHEMA",
    "robustness_json",
    "roles_frame",
    "robustness_now",
    "robustness_part",
    "safety_message",
    "save_spec",
    "Selection",
    "selection_from_spec",
    "spec_logs",
    "spec_view",
    "tests_sentence",
    "tests_view",
    "TestsView",
    "TWO_SAMPLE",
    "with_control",
    "with_groups",
]
