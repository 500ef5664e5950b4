"""What the ranks view's renderers share across formats: its columns, cells and sentences."""

from __future__ import annotations

from typing import Any

from tui.model import Analysis


def letters_row(analysis: Analysis, columns: list[Any]) -> tuple[list[str], str] | None:
    """The letters of ``columns`` (the ranks table's learners) and the sentence saying what they
    mean, or None when they could not be computed."""
    letters = analysis.letters
    if letters is None:
        return None
    return [letters.letters[str(c)] for c in columns], letters.basis


def rank_cell(value: float, rank: float) -> str:
    return f"{value:.3f} ({rank:g})"
