"""The view model's per-criterion caches are written under the lock that ``Model.updated`` reads
them under (issue 27 item 3): a load worker making the next model after a poll while analysis
workers fill the current one's caches raised ``RuntimeError: dictionary changed size during
iteration`` before (``Model._part`` and ``Model._measured`` wrote without the lock)."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pandas as pd

import stats
from tui.model import Model


def _log(criteria: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", 1, 1, f"l{j}", f"c{c}", float(rng.integers(0, 100)) / 100)
        for c in range(criteria)
        for d in range(2)
        for j in range(2)
    ]
    return pd.DataFrame(rows, columns=["dataset", "repeat", "fold", "learner", "criterion", "value"])


def test_updated_while_workers_fill_the_caches() -> None:
    criteria = 1500
    agg = stats.Aggregator(_log(criteria))
    model = Model.from_aggregator(agg)
    errors: list[BaseException] = []
    start = threading.Barrier(3)

    def fill(order: range) -> None:  # what analysis workers do: one criterion after another
        start.wait()
        try:
            for c in order:
                model.learners_for(f"c{c}")
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append(e)

    def update() -> None:  # what the load worker does after each poll
        start.wait()
        try:
            for _ in range(200):
                model.updated(agg, {"c0"})
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: the race shows at once
    try:
        threads = [
            threading.Thread(target=fill, args=(range(criteria),)),
            threading.Thread(target=fill, args=(range(criteria - 1, -1, -1),)),
            threading.Thread(target=update),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    # and every criterion's names were made once and kept
    assert all(model.learners_for(f"c{c}") == ("l0", "l1") for c in range(criteria))


def test_tokens_one_current_per_kind() -> None:
    from tui.app._tokens import Token, Tokens

    tokens = Tokens()
    first = tokens.start("analysis")
    load = tokens.start("load")
    assert tokens.current(first) and tokens.current(load)
    second = tokens.start("analysis")
    assert first.cancelled and not tokens.current(first) and tokens.current(second) and tokens.current(load)
    assert tokens.cancel("load") is load and load.cancelled and not tokens.current(load)
    assert not tokens.current(Token("analysis")) and not tokens.current(None)


async def test_a_stale_analysis_of_an_equal_selection_is_dropped() -> None:
    """Before: the app took an analysis whenever its selection equalled the current one (``==``),
    so an analysis made on the previous model of the same selection (a live poll brought a new
    model) could replace the new one. Now its token decides: only the latest analysis is taken."""
    from tests.test_app import drive, settle
    from tui.app._app import Analyzed

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        old_token, old_analysis = app._shown, app.analysis
        app.selection = app.selection  # (an equal selection again, as after a poll: a new analysis)
        await settle(pilot)
        current = app.analysis
        assert current is not old_analysis and app._shown is not old_token
        stale = app.model.analyze(app.selection)  # equal selection, made under the old token
        app.post_message(Analyzed(stale, old_token))
        await settle(pilot)
        assert app.analysis is current

    await drive(scenario)
