"""Smoke test: the installed ``rankboard`` command in a real terminal (tmux send-keys / capture-pane)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

TMUX = shutil.which("tmux")
RANKBOARD = shutil.which("rankboard")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: apt-get install tmux)"),
    pytest.mark.skipif(RANKBOARD is None, reason="the rankboard command is not installed (pip install -e .)"),
]


class Terminal:
    """One tmux server of its own (``-L``, a socket named for this test) holding one session.

    The default socket is shared: when one test's last session ends, its server exits, and a
    ``new-session`` from the next test can reach that exiting server and fail with "server exited
    unexpectedly" (it did, on CI). A private server per test has nobody to race with.
    """

    def __init__(self, session: str) -> None:
        self.session = session
        self.socket = f"{session}-{uuid.uuid4().hex[:8]}"

    def start(self, cwd: Path, width: int, height: int, command: str) -> None:
        new = ["new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height), "-c", str(cwd), command]
        subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", *new], check=True)

    def close(self) -> None:
        self.tmux("kill-server")

    def tmux(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True, check=False).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def alive(self) -> bool:
        has = [TMUX, "-L", self.socket, "has-session", "-t", self.session]
        return subprocess.run(has, capture_output=True).returncode == 0

    def wait(self, condition: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
        """Until ``condition()`` holds; ``timeout`` is a guard against a hang, not a timing."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.2)
        screen = self.screen() if self.alive() else "(session ended)"
        raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")

    def wait_text(self, text: str, timeout: float = 120.0) -> None:  # a guard against a hang, not a timing
        self.wait(lambda: text in self.screen(), repr(text), timeout)


def test_rankboard_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"rankboard-test-{uuid.uuid4().hex[:8]}"
    term = Terminal(session)
    term.start(tmp_path, 100, 30, f"{RANKBOARD} --paused")
    try:
        term.wait_text("| paused")  # the bundled sample logs are open (the status line ends with the state)
        term.wait_text("overall")
        # waited for, not read once: on a busy machine a capture can fall between two halves of a frame
        term.wait(
            lambda: any(size in term.screen() for size in ("10 data sets x 5 learners", "10x5 |")),
            "the table's size in the status line (shortened when narrow)",
        )
        term.keys("3")
        term.wait_text("omnibus test")
        term.wait_text("control LogisticRegression")
        # Into the learners list (GaussianNB, DecisionTree, KNN) with plain Tabs (view: the control table,
        # then the multiple sign test's and the win/loss/tie tables of issue 16 -> criteria -> data sets
        # -> learners). Not shift+tab: it is the sequence ESC [ Z, and on a loaded machine
        # the terminal can deliver the ESC alone, which the app then reads as the Escape key.
        for _ in range(5):
            term.keys("Tab")
            time.sleep(0.3)
        term.keys("j", "j", "c")
        term.wait_text("control KNN")
        term.keys("e")
        term.wait_text("Export the current view")
        term.keys("Enter")
        term.wait(lambda: any(tmp_path.glob("*.csv")), "the exported CSV")
        term.wait_text("exported")
        term.keys("q")
        term.wait(lambda: not term.alive(), "rankboard to quit")
    finally:
        term.close()
    (csv,) = tmp_path.glob("*.csv")
    assert csv.name.startswith("rankboard-pd-tests-")
    frame = pd.read_csv(csv)
    tested = frame.dropna(subset=["z"])  # the control's own row (last) has only its win/loss/tie counts
    assert "KNN" not in set(tested["learner"]) and "LogisticRegression" in set(tested["learner"])
    assert frame["learner"].iloc[-1] == "KNN" and {"win", "loss", "tie"} <= set(frame.columns)
    assert {"z", "p", "holm"} <= set(frame.columns)


def test_hostile_names_neither_retitle_nor_clear_the_terminal(tmp_path: Path) -> None:
    """tests/data/hostile_names.dat names learners \\x1b]0;pwned\\x07 (set the window title),
    \\x1b[2J (clear the screen), OSC 52 (write the clipboard): opened in a real terminal, the
    title stays and the screen shows the names escaped (issue 12)."""
    hostile = Path(__file__).resolve().parent / "data" / "hostile_names.dat"
    session = f"rankboard-hostile-{uuid.uuid4().hex[:8]}"
    term = Terminal(session)
    term.start(tmp_path, 200, 40, "sh")
    try:
        term.tmux("select-pane", "-t", session, "-T", "before-rankboard")
        term.keys(f"NO_COLOR=1 {RANKBOARD} --paused {hostile}", "Enter")
        # the status line's table size, long or short (a narrower terminal shortens it)
        term.wait(lambda: any(t in term.screen() for t in ("4 data sets x 14 learners", "4x14 |")), "the table size")
        term.keys("2")
        term.wait_text("average rank")
        term.keys("n")  # whole names: 14 learners' columns do not fit 200 columns
        names = ("\\x1b]0;pwned\\x07", "[bold]wine[/bold]")  # (the notice's "full names" is also in the legend)
        term.wait(lambda: all(name in term.screen() for name in names), "the names whole")
        screen = term.screen()
        assert "\\x1b]0;pwned\\x07" in screen  # the names, escaped, on screen
        assert "[bold]wine[/bold]" in screen  # markup shown literally
        assert term.tmux("display", "-p", "-t", session, "#{pane_title}").strip() == "before-rankboard"
        assert "pwned" not in term.tmux("display", "-p", "-t", session, "#{pane_title}")
        term.keys("q")
        term.wait(lambda: "$" in term.screen().splitlines()[-1] or "#" in term.screen(), "the shell prompt")
        assert term.tmux("display", "-p", "-t", session, "#{pane_title}").strip() == "before-rankboard"
    finally:
        term.close()


def test_at_80x24_without_colour_names_are_distinct_and_only_rejected_apvs_are_marked(tmp_path: Path) -> None:
    """Issue 11 in a real terminal at 80x24 with NO_COLOR=1 on the bundled sample logs (runtime,
    where Holm rejects): every learner name is told apart on screen (the quartile chart's names,
    cut in the middle, and the sidebar's list), and in the tests view's control table a `*` sits
    only on adjusted p-values, never on z or the raw p."""
    learners = ["GaussianNB", "DecisionTree", "KNN", "LogisticRegression", "RandomForest"]
    spec = tmp_path / "runtime.toml"
    spec.write_text('version = 1\ncriterion = "runtime"\n', encoding="utf-8")
    session = f"rankboard-80x24-{uuid.uuid4().hex[:8]}"
    term = Terminal(session)
    command = f"env NO_COLOR=1 {RANKBOARD} --paused --spec {spec}"
    term.start(tmp_path, 80, 24, command)

    def shown_as(name: str, text: str) -> bool:  # whole, or cut in the middle keeping both ends
        head, cut, tail = text.partition("\N{HORIZONTAL ELLIPSIS}")
        return text == name or (bool(cut) and name.startswith(head) and name.endswith(tail))

    try:
        term.wait_text("| paused")
        term.wait_text("overall")
        lines = term.screen().splitlines()
        start = next(i for i, line in enumerate(lines) if "SK learner" in line) + 1
        chart = [line.split("\u258c", 1)[-1].lstrip(" \u25b8").split() for line in lines[start : start + 5]]
        names = [row[1] for row in chart]  # after the SK rank
        assert len(set(names)) == 5, names
        assert all(sum(shown_as(learner, n) for learner in learners) == 1 for n in names), names
        term.keys("3")
        term.wait_text("omnibus test")

        def control_rows() -> list[list[str]]:
            rows = [line.split("\u258c", 1)[-1].split() for line in term.screen().splitlines()]
            # (a table row: a learner, then its z; the robustness sentence names learners too)
            return [r for r in rows if len(r) >= 4 and r[0] in learners and re.fullmatch(r"-?\d+\.\d+", r[1])]

        # the whole view (its robustness sentence computed), then one page down: the sentence
        # after the verdict puts the control table below the first screen at 80x24
        term.wait_text("robustness:")
        term.keys("PageDown")
        # the control table is drawn after the omnibus lines: wait for it, not only for them (CI)
        term.wait(lambda: len(control_rows()) == 4, "the control table's four rows")
        screen = term.screen()
        table = control_rows()
        assert len(table) == 4, screen  # the control's four rivals
        assert all("*" not in r[1] and "*" not in r[2] for r in table), screen  # z, raw p: never
        assert any(cell.endswith("*") for r in table for cell in r[3:]), screen  # Holm & co. reject
        term.keys("1")
        term.wait_text("SK learner")
        term.keys("Tab", "Tab", "Tab")  # into the learners list: the sidebar widens
        term.wait(
            lambda: all(f"[x] {n}" in term.screen() or f"[c] {n}" in term.screen() for n in learners),
            "the learners' whole names in the sidebar",
        )
        term.keys("q")
        term.wait(lambda: not term.alive(), "rankboard to quit")
    finally:
        term.close()


def test_a_sweeps_long_names_leave_the_numbers_on_screen_at_80x24(tmp_path: Path) -> None:
    """Issue 28: tests/data/sweep.dat (12 learners named as sweeps name them) in a real terminal
    at 80x24 without colour: the ranks table shows three learners' numbers under cut, distinct
    headers (before: one column, the whole name over blank cells), the pairs matrix shows APVs
    (before: none), and ``n`` shows the names whole."""
    sweep = Path(__file__).resolve().parent / "data" / "sweep.dat"
    session = f"rankboard-sweep-{uuid.uuid4().hex[:8]}"
    term = Terminal(session)
    term.start(tmp_path, 80, 24, f"env NO_COLOR=1 {RANKBOARD} --paused {sweep}")
    try:
        term.wait_text("| paused")
        term.keys("2")

        def rows() -> list[str]:  # the data sets' rows: three medians and ranks each
            return [line for line in term.screen().splitlines() if line.count("(") >= 3 and "data set" not in line]

        term.wait(lambda: len(rows()) >= 10, "the ranks table's rows")
        header = next(line for line in term.screen().splitlines() if "data set" in line)
        heads = header.split("data set", 1)[1].replace("\u203a", " ").split()
        assert len(heads) >= 3 and all("\u2026" in h for h in heads), header  # cut in the middle
        term.keys("4")
        term.wait_text("adjusted p-values")
        apvs = [line for line in term.screen().splitlines() if line.count("*") >= 3]
        assert apvs, term.screen()  # rejected APVs, three columns of them, on screen
        term.keys("2", "n")
        term.wait_text("RandomForest-n_estimators=100\u203a")  # a whole header (more to the right)
        term.keys("q")
        term.wait(lambda: not term.alive(), "rankboard to quit")
    finally:
        term.close()
