"""The architecture's import contracts (pyproject.toml [tool.importlinter]), checked by import-linter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: import-linter's command (lint-imports), run with this interpreter, reading pyproject.toml
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def test_import_contracts_are_kept() -> None:
    """stats never imports tui, textual or rich; the view model and renderers never import textual."""
    run = subprocess.run(
        [sys.executable, "-c", LINT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def _private_owner(module: str) -> str | None:
    """The package whose private module ``module`` is (``stats.logs`` for ``stats.logs._read``), or None."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def test_private_modules_are_imported_only_from_their_own_package() -> None:
    """Each subpackage's ``__init__`` is its API: nothing outside ``stats.logs`` imports ``stats.logs._read``.

    The tests are white-box and may reach in; ``stats`` and ``tui`` may not."""
    import grimp

    graph = grimp.build_graph("stats", "tui")
    broken = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            owner = _private_owner(imported)
            if owner and importer != owner and not importer.startswith(owner + "."):
                broken.append(f"{importer} imports {imported}")
    assert not broken, "\n".join(broken)


def test_private_owner() -> None:
    assert _private_owner("stats.logs._read") == "stats.logs"
    assert _private_owner("stats._table") == "stats"
    assert _private_owner("tui.widgets._table") == "tui.widgets"
    assert _private_owner("stats.logs") is None
    assert _private_owner("stats.__init__") is None


def test_no_public_name_of_stats_is_also_one_of_its_modules() -> None:
    """``stats`` imports lazily (PEP 562): a submodule named like a function (``stats.plateau``
    the module beside ``stats.plateau`` the function) would replace the function on the package
    as soon as anything imported the module. Before the renames, four names clashed."""
    import pkgutil

    import stats

    modules = {m.name for m in pkgutil.iter_modules(stats.__path__)}
    assert not set(stats.__all__) & modules


def test_import_stats_and_the_readers_do_not_import_scipy() -> None:
    """``import stats`` costs nothing until a name is used; the log readers and the cell
    summaries (all that ``rankboard check`` needs) never import scipy."""
    code = (
        "import sys, stats; before = 'scipy' in sys.modules or 'pandas' in sys.modules\n"
        "from stats import read_logs, completeness, aggregate\n"
        "print(before, 'scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_every_name_of_stats_resolves() -> None:
    code = "import stats; missing = [n for n in stats.__all__ if getattr(stats, n, None) is None]; print(missing)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
