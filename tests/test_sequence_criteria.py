"""Issue 28, item 8/9: a sequence study's training size is not a criterion, and a sequence log read
together with a cross-validation log of the same data set is said once, as two studies.

Menzies' lecture notes ("Incremental M*N-way"): :func:`stats.run_sequence` writes, per unit, a
``train`` line holding the number of training instances. It is the x axis of the learning curves
(view 7), the same for every learner at a fold: ranking learners by it ("train higher-better") is
meaningless. So the app's criteria, ``rankboard report --criterion`` and the count of ``rankboard
check`` leave it out (``check`` names it apart, as training sizes), and the curves still read it.

``sample_logs/`` holds both a cross-validation of breast_cancer (folds 1..5) and a sequence study of
it (fold = the test bucket 2..10): their keys coincide on folds 2..5, and the later file's lines
replace the other's. Opening the folder gave 100 duplicate warnings; now one, which says why.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import stats
from tests.conftest import SAMPLES
from tests.test_app import LARGE, SMALL, make_app, press, settle
from tui.cli import main
from tui.model import Model, default_selection
from tui.views.curves.panel import CurvesPanel
from tui.widgets._sidebar import NameList

SEQUENCE = SAMPLES / "sequence"
SEQUENCE_LOG, CV_LOG = SEQUENCE / "breast_cancer.dat", SAMPLES / "cv" / "breast_cancer.dat"
#: What stats.run_sequence writes per unit besides its criteria: the training size.
TRAIN = "train"


def _criteria_in_file(path: Path) -> list[str]:
    """The criterion names of a long-format log, in order of first appearance (read with csv, not rankboard)."""
    seen: dict[str, None] = {}
    with path.open(newline="") as handle:
        for row in csv.reader(handle):
            seen.setdefault(row[4], None)
    return list(seen)


#: The bundled sequence study's criteria, as its lines name them, without the training size.
MEASURED = [c for c in _criteria_in_file(SEQUENCE_LOG) if c != TRAIN]


# -- the view model: the sidebar's list, the report's --criterion, a spec ---------------------------


def test_the_models_criteria_leave_out_the_training_size_and_the_curves_still_use_it() -> None:
    model = Model(stats.read_logs(SEQUENCE))
    assert model.criteria == tuple(MEASURED)
    sel = model.default_selection("accuracy")
    curves = model.analyze(sel).curves
    assert curves.message is None  # the curves are made from the train lines the criteria leave out
    sizes = sorted({float(r) for r in curves.rows["train"]})
    # buckets 1..I-1 of the 569 tumours in 10 buckets (sizes 56 or 57), for I = 2..10
    assert len(sizes) == 9 and 56 <= sizes[0] <= 57 and 9 * 56 <= sizes[-1] <= 9 * 57
    with pytest.raises(ValueError, match="'train' is not a criterion: it is the training size of a sequence study"):
        model.default_selection(TRAIN)


def test_a_log_that_begins_with_its_training_size_defaults_to_its_first_criterion(tmp_path: Path) -> None:
    """The default criterion is the first that is one, not the first line's ``train``."""
    lines = [
        f"d{d},1,{fold},{learner},{name},{value}"
        for d in range(3)
        for fold in (2, 3)
        for learner in ("nb", "tree")
        for name, value in ((TRAIN, 10.0 * (fold - 1)), ("acc", 0.5 + 0.1 * d + 0.01 * fold))
    ]
    path = tmp_path / "seq.dat"
    path.write_text("\n".join(lines) + "\n")
    log = stats.read_logs(path)
    assert default_selection(log).criterion == "acc"
    model = Model(log)
    assert model.criteria == ("acc",) and model.default_selection().criterion == "acc"


def test_report_refuses_the_training_size_as_a_criterion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(SEQUENCE), "--criterion", TRAIN]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "'train' is not a criterion: it is the training size of a sequence study" in err
    assert "criteria are: " + ", ".join(MEASURED) in err
    assert main(["report", str(SEQUENCE), "--criterion", "accuracy", "--view", "curves"]) == 0  # still the curves
    assert "----| breast_cancer / GaussianNB |-----" in capsys.readouterr().out


# -- rankboard check ------------------------------------------------------------------------------


def test_check_counts_the_training_size_apart_from_the_criteria(capsys: pytest.CaptureFixture[str]) -> None:
    assert TRAIN in _criteria_in_file(SEQUENCE_LOG)  # the premise, read from the file itself
    assert MEASURED == ["pd", "pf", "precision", "accuracy", "balance", "runtime"]
    assert main(["check", str(SEQUENCE)]) == 0
    out = capsys.readouterr().out
    want = f"{len(MEASURED)} criteria ({', '.join(MEASURED)}) and the training sizes of a sequence study (train)"
    assert want in out.splitlines()[-3]  # the summary's first line
    assert f"{len(MEASURED) + 1} criteria" not in out


# -- the app: its sidebar lists criteria only; view 7 draws the curves ------------------------------


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_the_sidebar_lists_no_training_size_and_view_7_still_draws_the_curves(size: tuple[int, int]) -> None:
    app = make_app([str(SEQUENCE)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        listed = app.query_one("#criteria", NameList)
        assert [listed.get_option_at_index(i).id for i in range(listed.option_count)] == MEASURED
        await press(pilot, "7")
        text = app.query_one(CurvesPanel).plain
        assert "----| breast_cancer / GaussianNB |----- plateau" in text
        assert "this log holds no sequence study" not in text


# -- a sequence log and a cross-validation log of one data set --------------------------------------


def _keys(path: Path) -> list[tuple[str, ...]]:
    """(dataset, repeat, fold, learner, criterion) of every line, read with csv."""
    with path.open(newline="") as handle:
        return [tuple(row[:5]) for row in csv.reader(handle)]


def _clash(later: Path, earlier: Path) -> tuple[int, int]:
    """(first line, number of lines) of ``later`` whose keys ``earlier`` also has."""
    known = set(_keys(earlier))
    hits = [n for n, key in enumerate(_keys(later), start=1) if key in known]
    return hits[0], len(hits)


def _warnings(out: str) -> list[str]:
    return [line for line in out.splitlines() if ": warning: " in line]


def test_opening_sample_logs_whole_gives_one_warning_that_says_two_studies_share_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(SAMPLES)]) == 0
    warnings = _warnings(capsys.readouterr().out)
    first, lines = _clash(SEQUENCE_LOG, CV_LOG)
    assert lines == 400  # 5 repeats x folds 2..5 x 4 learners x 5 criteria both logs have
    assert len(warnings) == 1
    (warning,) = warnings
    assert warning.startswith(f"{SEQUENCE_LOG}:{first}: warning: {lines} lines of this sequence study")
    assert str(CV_LOG) in warning and "open the two apart" in warning


def test_the_warning_names_the_other_file_whichever_comes_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(SEQUENCE_LOG), str(CV_LOG)]) == 0  # the cross-validation read last: it wins
    warnings = _warnings(capsys.readouterr().out)
    first, lines = _clash(CV_LOG, SEQUENCE_LOG)
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{CV_LOG}:{first}: warning: {lines} lines of this log without 'train' lines")
    sequence = "the sequence study (stats.run_sequence, with its 'train' lines; fold = the test bucket)"
    assert f"{sequence} {SEQUENCE_LOG}" in warnings[0]


def test_the_app_reads_the_pair_with_one_warning_and_a_rerun_keeps_its_own(tmp_path: Path) -> None:
    """The app's reader (stats.LogWatcher) says the pair once; a rerun of some cross-validation lines in a
    third file is still a rerun, warned about as before (a run of lines, ``the later lines win``)."""
    rerun = tmp_path / "rerun.dat"
    cv_lines = CV_LOG.read_text().splitlines()
    rerun.write_text("\n".join(cv_lines[:3]) + "\n")  # lines 1-3 of the cross-validation again
    watcher = stats.LogWatcher([str(CV_LOG), str(SEQUENCE_LOG), str(rerun)])
    problems = [str(p) for p in watcher.poll().problems]
    first, lines = _clash(SEQUENCE_LOG, CV_LOG)
    assert len(problems) == 2
    assert problems[0].startswith(f"{SEQUENCE_LOG}:{first}: {lines} lines of this sequence study")
    assert problems[1] == f"{rerun}:1: lines 1-3 repeat the results of {CV_LOG}:1-3: the later lines win"
