"""Issue 28 item 5: view specs that reopen. A spec records the logs the app was opened on (relative to
the spec's folder when they lie inside it), the command the ``s`` notice prints works as printed, the
report and the app read a spec's logs when no path is given (paths given win), a spec whose logs are
gone says so, and the CSV exports name what made their letters and marks."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path

import pytest

from tests.test_app import LARGE, SMALL, drive, make_app, press
from tui.cli import bundled_cv, main
from tui.model._spec import load_spec, selection_from_spec, spec_text

SWEEP = Path(__file__).resolve().parent / "data" / "sweep.dat"


def _study(root: Path) -> Path:
    """A folder as a user keeps one: the logs in ``logs/`` below it (the long-name sweep log)."""
    (root / "logs").mkdir(parents=True)
    shutil.copy(SWEEP, root / "logs" / "sweep.dat")
    return root


def _saved_command(app) -> list[str]:  # noqa: ANN001
    """The command the notice after ``s`` gives (read at once: a notice expires), split as a shell
    would split it."""
    (message,) = [n.message for n in app._notifications if n.message.startswith("saved ")]
    assert message.endswith(")")
    return shlex.split(message[message.index("(rankboard ") + 1 : -1])


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_command_after_s_reopens_the_view_as_printed(
    size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Save a spec in the app opened on ``logs/sweep.dat`` (a path relative to the current folder, as
    typed), run the command of the notice from that folder: the same average ranks, the same CSV
    as the app's ``e``; then move the folder and run it from elsewhere: the logs follow the spec."""
    study = _study(tmp_path / "study")
    monkeypatch.chdir(study)

    async def scenario(app, pilot) -> None:  # noqa: ANN001
        # the ranks view, alpha 0.05 -> 0.01, the procedure holm -> shaffer, the direction flipped
        await press(pilot, "2", "a", "m", "d")
        sel = app.selection
        assert (sel.alpha, sel.procedure, sel.higher_is_better) == (0.01, "shaffer", False)
        await press(pilot, "s", "enter")
        argv[:] = _saved_command(app)
        await press(pilot, "e", "enter")  # the ranks view's CSV

    argv: list[str] = []
    app = await drive(scenario, size=size, app=make_app(["logs/sweep.dat"]))
    (spec,) = study.glob("*.toml")
    (exported,) = study.glob("*.csv")
    assert 'logs = ["logs/sweep.dat"]' in spec.read_text(encoding="utf-8")  # relative to the spec's folder

    assert argv[:3] == ["rankboard", "report", "--spec"] and Path(argv[3]).resolve() == spec.resolve()
    capsys.readouterr()
    assert main(argv[1:]) == 0  # as printed: no log path, no option
    printed = capsys.readouterr()
    assert printed.err == "" and "GradientBoosting-learning_rate=0.1-max_depth=3" in printed.out

    average = {str(k): float(v) for k, v in app.analysis.ranks.average.items()}  # what the app showed
    assert main([*argv[1:], "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ranks"] == pytest.approx(average) and set(doc["ranks"]) == set(average)
    assert (doc["letters"]["procedure"], doc["letters"]["alpha"]) == ("shaffer", 0.01)

    assert main([*argv[1:], "--format", "csv", "--view", "ranks"]) == 0
    csv = capsys.readouterr().out
    assert csv.encode() == exported.read_bytes()  # the report and the app's e: one CSV
    header, *_, last = csv.splitlines()
    assert header.split(",")[-3:] == ["letters_procedure", "letters_alpha", "letters_basis"]
    assert last.split(",")[-4:-2] == ["shaffer", "0.01"]

    moved = shutil.move(study, tmp_path / "elsewhere" / "moved")  # the folder, spec and logs together
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--spec", os.path.join("elsewhere", "moved", spec.name), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ranks"] == pytest.approx(average)
    assert Path(moved).is_dir()


def test_a_spec_records_its_logs_relative_to_its_folder_or_absolute(tmp_path: Path) -> None:
    from tui.model._spec import logs_entries

    spec = tmp_path / "specs" / "view.toml"
    inside = [str(tmp_path / "specs" / "runs" / "a.dat"), str(tmp_path / "specs" / "runs" / "*.dat.gz")]
    outside = str(tmp_path / "elsewhere" / "b.dat")
    assert logs_entries([*inside, outside], spec) == ["runs/a.dat", "runs/*.dat.gz", outside]
    assert logs_entries([str(tmp_path / "specs")], spec) == ["."]  # the spec's own folder
    assert logs_entries([str(bundled_cv())], spec) is None  # a command without paths reads those
    assert logs_entries(["-"], spec) is None  # standard input cannot be read again


def test_a_version_2_spec_with_logs_and_a_version_1_spec_are_read(tmp_path: Path) -> None:
    import stats
    from tui.model import Model, default_selection

    log = stats.read_logs(SWEEP)
    model, sel = Model(log), default_selection(log)
    text = spec_text(sel, "ranks", ["logs/sweep.dat"])
    assert text.splitlines()[1:3] == ["version = 2", 'logs = ["logs/sweep.dat"]']
    assert 'scott_knott = "esd"' in text  # the default too: a later default changes nothing
    path = tmp_path / "v2.toml"
    path.write_text(text, encoding="utf-8")
    assert selection_from_spec(model, load_spec(path)) == sel
    assert selection_from_spec(model, {"version": 1, "criterion": sel.criterion}) == sel
    path.write_text('version = 2\ncriterion = "acc"\nlogs = "logs/sweep.dat"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"v2\.toml: logs must be a non-empty array of paths"):
        load_spec(path)


def test_report_reads_the_spec_logs_and_paths_given_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    study = _study(tmp_path / "study")
    (study / "view.toml").write_text(
        'version = 2\nlogs = ["logs"]\ncriterion = "runtime"\nview = "cd"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--spec", "study/view.toml"]) == 0  # the folder logs/ below the spec
    out = capsys.readouterr().out
    assert out.startswith(f"rankboard report: {os.path.join('study', 'logs')}\ncriterion runtime")
    other = tmp_path / "other.dat"
    other.write_text("d1,1,1,x,runtime,1\nd1,1,1,y,runtime,2\nd2,1,1,x,runtime,1\nd2,1,1,y,runtime,3\n")
    assert main(["report", str(other), "--spec", "study/view.toml", "--format", "json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["cd"]["ranks"]) == {"x", "y"}  # the path given wins


def test_a_spec_whose_logs_are_gone_says_which_and_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "study").mkdir()
    (tmp_path / "study" / "view.toml").write_text(
        'version = 2\nlogs = ["logs/sweep.dat", "runs/*.dat"]\ncriterion = "acc"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--spec", "study/view.toml"]) == 1  # as a missing spec file or log
    err = capsys.readouterr()
    assert err.out == "" and err.err.startswith("rankboard: study/view.toml: ")
    assert "logs/sweep.dat (looked for as study/logs/sweep.dat)" in err.err and "runs/*.dat" in err.err
    assert main(["--spec", "study/view.toml"]) == 2  # the app: said before the screen is taken
    assert "study/logs/sweep.dat" in capsys.readouterr().err


def test_the_app_opens_on_the_spec_logs_unless_paths_are_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rankboard --spec FILE``: the logs the app reads (what it is made with), no screen taken."""
    opened: list[list[str]] = []

    class App:
        def __init__(self, paths: list[str], **options: object) -> None:
            opened.append(list(paths))

        def run(self) -> None:
            pass

    class Loader:
        def __init__(self, paths: list[str], memory: str | None = None) -> None:
            pass

        def start(self) -> None:
            pass

    monkeypatch.setattr("tui.app.create_app", App)
    monkeypatch.setattr("tui.model.Loader", Loader)
    _study(tmp_path / "study")
    (tmp_path / "study" / "view.toml").write_text('logs = ["logs/sweep.dat"]\ncriterion = "acc"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["--spec", "study/view.toml"]) == 0
    assert main(["given.dat", "--spec", "study/view.toml"]) == 0
    assert opened == [[os.path.join("study", "logs", "sweep.dat")], ["given.dat"]]
