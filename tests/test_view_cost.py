"""Views compute only what they show (issue 13, item 4): the quartiles never run the all-pairs
procedures of the pairs view, in the report, the command and the app; the ranks run the selected
procedure once, for their compact letters (issue 16), and Nemenyi's letters need only the CD."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import stats
from tests.conftest import SAMPLES
from tests.test_app import make_app, settle
from tui.cli import main
from tui.model import Model
from tui.render._report import FORMATS, render_report
from tui.views.pairs.panel import PairsPanel

C45 = SAMPLES / "c45_demsar.dat"


class Calls:
    """``stats.pairwise_test`` replaced: counts its calls, and raises when ``forbid`` is set."""

    def __init__(self, real: Any) -> None:
        self.real, self.count, self.forbid = real, 0, False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.count += 1
        if self.forbid:
            raise AssertionError("pairwise_test ran for a view that does not show it")
        return self.real(*args, **kwargs)


@pytest.fixture
def pairwise(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    calls = Calls(stats.pairwise_test)
    monkeypatch.setattr(stats, "pairwise_test", calls)  # tui.model._tests calls stats.pairwise_test
    yield calls


@pytest.fixture(scope="module")
def c45_log() -> Any:
    return stats.read_logs(C45)


@pytest.fixture
def c45_model(c45_log: Any) -> Model:
    return Model(c45_log)  # a fresh model: its caches would hide a second computation


# The LaTeX quartiles set the verdict's winners in bold, and the verdict follows the selected
# procedure (Holm by default: all pairs); test_latex_quartiles_share_the_verdicts_pairs covers it.
@pytest.mark.parametrize(
    ("view", "fmt", "procedure"),
    [("quartiles", f, "holm") for f in FORMATS if f != "latex"] + [("ranks", f, "nemenyi") for f in FORMATS],
)
def test_quartiles_and_nemenyi_ranks_reports_never_run_pairwise_test(
    c45_model: Model, pairwise: Calls, view: str, fmt: str, procedure: str
) -> None:
    pairwise.forbid = True
    sel = replace(c45_model.default_selection(), procedure=procedure)
    text = render_report(c45_model, sel, view=view, fmt=fmt)
    assert text.strip()
    assert pairwise.count == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_ranks_reports_run_the_procedure_once_for_their_letters(c45_model: Model, pairwise: Calls, fmt: str) -> None:
    render_report(c45_model, c45_model.default_selection(), view="ranks", fmt=fmt)  # Holm
    assert pairwise.count == 1


def test_latex_quartiles_share_the_verdicts_pairs(c45_model: Model, pairwise: Calls) -> None:
    sel = c45_model.default_selection()
    render_report(c45_model, replace(sel, procedure="nemenyi"), view="quartiles", fmt="latex")
    assert pairwise.count == 0  # Nemenyi's verdict needs only the CD
    render_report(c45_model, sel, view="quartiles", fmt="latex")
    assert pairwise.count == 1


@pytest.mark.parametrize("view", ["pairs", "all"])
def test_reports_showing_the_pairs_run_it_once(c45_model: Model, pairwise: Calls, view: str) -> None:
    render_report(c45_model, c45_model.default_selection(), view=view)
    assert pairwise.count == 1


def test_reading_views_of_one_analysis_computes_each_once(c45_model: Model, pairwise: Calls) -> None:
    sel = replace(c45_model.default_selection(), procedure="nemenyi")
    analysis = c45_model.analyze(sel)
    assert not analysis.ready("pairs") and not analysis.ready("quartiles")  # analyze computes no view
    assert analysis.ranks is not None and analysis.quartiles is not None and analysis.cd is not None
    assert analysis.tests is not None  # Nemenyi: the verdict and the bars need only the CD
    assert pairwise.count == 0 and not analysis.ready("pairs")
    analysis.prepare("pairs")
    assert analysis.ready("pairs") and pairwise.count == 1
    assert analysis.pairs is not None and pairwise.count == 1
    assert analysis.cd.cd == analysis.tests.cd  # the CD view's CD without the tests view's work


def test_the_verdict_the_bars_and_the_pairs_share_one_all_pairs_table(c45_model: Model, pairwise: Calls) -> None:
    analysis = c45_model.analyze(c45_model.default_selection())  # Holm
    assert analysis.ranks is not None and analysis.quartiles is not None and pairwise.count == 0
    assert analysis.tests is not None and analysis.cd is not None and analysis.pairs is not None
    assert pairwise.count == 1


def test_command_report_view_ranks_of_nemenyi_never_runs_pairwise_test(
    pairwise: Calls, capsys: pytest.CaptureFixture[str]
) -> None:
    pairwise.forbid = True
    assert main(["report", str(C45), "--view", "ranks", "--procedure", "nemenyi"]) == 0
    assert "average rank" in capsys.readouterr().out
    assert pairwise.count == 0


def test_a_view_a_limit_of_stats_leaves_empty_names_the_problem_and_spares_the_others(
    c45_model: Model, monkeypatch: pytest.MonkeyPatch
) -> None:
    def limited(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("too many learners for this procedure")

    monkeypatch.setattr(stats, "pairwise_test", limited)
    analysis = c45_model.analyze(replace(c45_model.default_selection(), procedure="nemenyi"))
    assert analysis.problem is None  # not known before the pairs view is computed
    assert analysis.pairs is None
    assert analysis.problem == "too many learners for this procedure"
    assert analysis.ranks is not None and analysis.tests is not None
    text = render_report(c45_model, c45_model.default_selection(), view="pairs")
    assert "not tested: too many learners for this procedure" in text
    ranks = render_report(c45_model, replace(c45_model.default_selection(), procedure="nemenyi"), view="ranks")
    assert "not tested" not in ranks and "average rank" in ranks
    # Holm's letters need the limited procedure: the ranks are shown, the problem named
    ranks = render_report(c45_model, c45_model.default_selection(), view="ranks")
    assert "average rank" in ranks and "too many learners for this procedure" in ranks


async def test_app_computes_a_view_when_it_is_shown(pairwise: Calls) -> None:
    seen: list[tuple[str, int]] = []

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.view == "quartiles" and app.analysis is not None
        seen.append(("quartiles", pairwise.count))
        for key, view in (("2", "ranks"), ("4", "pairs"), ("3", "tests"), ("5", "cd"), ("4", "pairs")):
            await pilot.press(key)
            await settle(pilot)
            assert app.view == view
            seen.append((view, pairwise.count))
        assert app.query_one(PairsPanel).view is app.analysis.pairs

    # once, when the ranks (their letters) are first shown; the pairs, tests and CD share it
    assert seen == [("quartiles", 0), ("ranks", 1), ("pairs", 1), ("tests", 1), ("cd", 1), ("pairs", 1)]


async def test_app_opened_on_many_learners_shows_its_first_view_without_pairwise_test(
    tmp_path: Path, pairwise: Calls
) -> None:
    # 4 data sets x 40 learners: with the old 32-entry Shaffer cache, the pairs alone took seconds.
    rows = [
        (f"d{d}", 1, f, f"L{j:02d}", "accuracy", 0.5 + 0.01 * ((d * 7 + j * 3 + f) % 11))
        for d in range(4)
        for j in range(40)
        for f in (1, 2)
    ]
    log = tmp_path / "wide.dat"
    log.write_text("".join(",".join(map(str, r)) + "\n" for r in rows))
    pairwise.forbid = True

    app = make_app([str(log)])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.analysis is not None and app.analysis.n_learners == 40
        assert pairwise.count == 0  # the first view, the quartiles, without it
        pairwise.forbid = False
        await pilot.press("2")
        await settle(pilot)
        assert app.view == "ranks"

    assert pairwise.count == 1  # the ranks' letters: once


def test_an_analysis_lists_the_measured_data_sets_once_not_once_per_data_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """A regression of this session: the folds view's data sets were filtered with a set built
    per data set, so every toggle on 500 data sets cost 5 s (benchmarks/bench_folds.py). Counted,
    not timed."""
    log = stats.read_logs(SAMPLES / "cv")
    model = Model(log)
    calls: list[str] = []
    original = Model.datasets_for

    def counting(self: Model, criterion: str) -> tuple[str, ...]:
        calls.append(criterion)
        return original(self, criterion)

    monkeypatch.setattr(Model, "datasets_for", counting)
    model.analyze(model.default_selection("pd"))
    assert len(calls) <= 2, len(calls)  # 10 data sets: 11 calls before
