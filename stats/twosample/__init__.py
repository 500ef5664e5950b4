"""Two learners at a time: tests and effect sizes.

* :mod:`stats.twosample.nonparametric`: the sign test, Wilcoxon's signed-ranks test (paired) and
  Mann-Whitney's U (unpaired).
* :mod:`stats.twosample.effect_size`: Vargha-Delaney A12, Cliff's delta, Hodges-Lehmann.
* :mod:`stats.twosample.all_pairs_effects`: those effect sizes for all pairs at once.
* :mod:`stats.twosample.win_loss_tie`: paired t-tests between every pair, counted.

Imports are lazy (PEP 562): this ``__init__`` names what the other parts of :mod:`stats` import
from here; the public names are :mod:`stats`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats.core import lazy

#: Each name the other parts of stats import from here, and the module that defines it.
_EXPORTS: dict[str, str] = {
    "a12": "stats.twosample.effect_size",
    "cliffs_delta": "stats.twosample.effect_size",
    "EXACT_MAX_N": "stats.twosample.nonparametric",
    "ZERO_METHODS": "stats.twosample.nonparametric",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see: the same names, imported eagerly
    from stats.twosample.effect_size import a12, cliffs_delta  # noqa: F401
    from stats.twosample.nonparametric import EXACT_MAX_N, ZERO_METHODS  # noqa: F401


__getattr__, __dir__ = lazy(__name__, _EXPORTS, globals())
