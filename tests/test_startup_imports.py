"""Issue 32, item 3: what the first view and ``rankboard report``'s ranks, tests and pairs views import.

Each case runs in a fresh interpreter (this one has imported everything already). An import hook
notes, for each heavy module, the first rankboard frame that imported it; the modules present at
the moment of the output are taken when ``report`` first writes to stdout, and in the app when
the first view is painted (the event the import worker of the other views waits for, so that
nothing it imports can come first). ``scipy.stats`` takes 0.5-0.9 s to import, pandas' plotting,
matplotlib, scikit-learn, statsmodels and pyarrow's datasets as much or more: none of them is
needed to show ranks, the tests (but for the parametric notice: Shapiro-Wilk, D'Agostino-Pearson
and Levene, which only ``scipy.stats`` has) or the pairs of learners.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Modules none of the views checked here may import before their output.
HEAVY = (
    "scipy.stats",
    "scipy.optimize",
    "scipy.sparse",
    "matplotlib",
    "sklearn",
    "statsmodels",
    "pyarrow.dataset",
    "pyarrow.parquet",
    "pandas.plotting._matplotlib",
)

_HOOK = r"""
import importlib.abc, json, sys, traceback

HEAVY = set(json.loads(sys.argv[1]))
first = {}


class Note(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in HEAVY and name not in first:
            ours = [
                f
                for f in traceback.extract_stack()[:-1]
                if ("/stats/" in f.filename or "/tui/" in f.filename) and "-packages" not in f.filename
            ]
            first[name] = ours[-1].filename.split("/")[-3:] if ours else []
        return None


sys.meta_path.insert(0, Note())


def heavy_now():
    return sorted(name for name in HEAVY if name in sys.modules)
"""

_REPORT = (
    _HOOK
    + r"""
import io
from tui.cli import main

at_output = []


class Out(io.StringIO):
    def write(self, text):
        if not at_output:
            at_output.append(heavy_now())
        return super().write(text)


sys.stdout, real = Out(), sys.stdout
code = main(json.loads(sys.argv[2]))
text, sys.stdout = sys.stdout.getvalue(), real
print(json.dumps({"code": code, "at_output": at_output[0], "first": first, "chars": len(text)}))
"""
)

_APP = (
    _HOOK
    + r"""
import asyncio, threading
from tests.test_app import make_app, settle

at_view = []


class Painted(threading.Event):
    def set(self):
        if not at_view:
            at_view.append(heavy_now())
        super().set()


async def main():
    spec = json.loads(sys.argv[2])
    app = make_app([sys.argv[3]], spec=spec or None)
    app._painted = Painted()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = app.view
    print(json.dumps({"at_view": at_view[0] if at_view else None, "view": view, "first": first}))


asyncio.run(main())
"""
)


def _run(script: str, *args: str) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", script, json.dumps(HEAVY), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_report_ranks_tests_and_pairs_import_scipy_special_not_scipy_stats_before_their_output() -> None:
    """On the bundled logs (10 data sets: the tests view's parametric notice is computed), as JSON
    and as text: ranks and pairs import none of :data:`HEAVY`; the tests view imports
    ``scipy.stats`` for the parametric notice only: what it imports of :data:`HEAVY` (with what
    ``scipy.stats`` imports itself) is imported by ``stats/ranking/assumptions.py``. Before issue 32 the
    pairs view imported ``scipy.stats`` for its Wilcoxon, sign and Mann-Whitney tests, and the
    tests view with the module of the pairwise Wilcoxon tests, at import time."""
    logs = str(ROOT / "sample_logs" / "cv")
    for view in ("ranks", "tests", "pairs"):
        for fmt in ("json", "text"):
            out = _run(_REPORT, json.dumps(["report", logs, "--view", view, "--format", fmt]))
            assert out["code"] == 0 and out["chars"] > 0, (view, fmt)
            if view == "tests":  # scipy.stats (with what it imports itself) by the parametric notice only
                assert "scipy.stats" in out["at_output"], (view, fmt, out["first"])
                by = {tuple(out["first"][name]) for name in out["at_output"]}
                assert by == {("stats", "ranking", "assumptions.py")}, (view, fmt, out["first"])
            else:
                assert out["at_output"] == [], (view, fmt, out["first"])


TINY = """d1,1,1,A,acc,0.81
d1,1,1,B,acc,0.79
d1,1,1,C,acc,0.75
d2,1,1,A,acc,0.66
d2,1,1,B,acc,0.71
d2,1,1,C,acc,0.62
"""


def test_report_of_a_tiny_log_imports_none_of_the_heavy_modules(tmp_path: Path) -> None:
    """``report --format json`` of every view on a 2 x 3 log (too few data sets for the parametric
    notice): nothing of :data:`HEAVY` (before issue 32: scipy.stats, for the folds view's t tests
    and the pairs view, and scipy.sparse, with the multiple sign test)."""
    log = tmp_path / "tiny.dat"
    log.write_text(TINY)
    out = _run(_REPORT, json.dumps(["report", str(log), "--format", "json"]))
    assert out["code"] == 0 and out["chars"] > 0
    assert out["at_output"] == [], out["first"]


def test_the_apps_first_view_imports_none_of_the_heavy_modules() -> None:
    """The app on the bundled logs, its first view painted: the quartile view (the default), and
    the pairs view and the ranks view when a spec opens on them (``rankboard --spec``). None of
    :data:`HEAVY` is imported by then (before issue 32, the pairs view imported ``scipy.stats``)."""
    logs = str(ROOT / "sample_logs" / "cv")
    for view in ("quartiles", "pairs", "ranks"):
        spec = {} if view == "quartiles" else {"criterion": "accuracy", "view": view}
        out = _run(_APP, json.dumps(spec), logs)
        assert out["view"] == view
        assert out["at_view"] == [], (view, out["first"])
