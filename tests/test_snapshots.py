"""Snapshots of every view at 80x24 and 120x40 (pytest-textual-snapshot; update with --snapshot-update).

The app is deterministic here: a fixed clock in the status line and no live polling.
"""

from __future__ import annotations

import pytest

from tests.test_app import LARGE, SMALL, make_app, settle

VIEWS = {"1": "quartiles", "2": "ranks", "3": "tests", "4": "pairs", "5": "cd", "6": "folds"}


def keys(*presses: str):  # noqa: ANN201
    async def run_before(pilot) -> None:  # noqa: ANN001
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("key", list(VIEWS), ids=list(VIEWS.values()))
def test_view(snap_compare, key: str, size: tuple[int, int]) -> None:  # noqa: ANN001
    assert snap_compare(make_app(), terminal_size=size, run_before=keys(key))


def test_help_screen(snap_compare) -> None:  # noqa: ANN001
    assert snap_compare(make_app(), terminal_size=LARGE, run_before=keys("question_mark"))


def test_sidebar_open_at_80_columns_after_changes(snap_compare) -> None:  # noqa: ANN001
    # shift+tab into the learners list (the strip opens), j down to KNN, make it the control, flip d.
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=keys("3", "shift+tab", "j", "j", "c", "d"))
