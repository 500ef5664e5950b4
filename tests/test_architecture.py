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
    assert _private_owner("tui.app.widgets._ranks") == "tui.app.widgets"
    assert _private_owner("stats.logs") is None
    assert _private_owner("stats.__init__") is None
