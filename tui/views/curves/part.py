"""How the learning curves are made: the sequence study's quartiles per training size, each
learner's plateau (Menzies' lecture notes; ``stats.plateau``)."""

from __future__ import annotations

from typing import Any

from tui.model import Basis


def make(b: Basis) -> Any:
    return b.model.curves(b.selection, b.with_results, b.learners)
