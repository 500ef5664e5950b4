"""The layout of ``stats`` (issue 27 item 2): subpackages by concern, few modules at the top, none
too long, and every subpackage's lazy names clear of its module names.

The import contracts between the subpackages (layers, no circles) are pyproject.toml's
[tool.importlinter], checked by tests/test_architecture.py.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import stats

ROOT = Path(__file__).resolve().parents[1]
#: The most modules (``__init__.py`` included) directly in ``stats/``.
MAX_TOP_MODULES = 8
#: The most lines of one module of ``stats``.
MAX_LINES = 450


def _packages() -> list[str]:
    """``stats`` and every package below it."""
    return ["stats", *(m.name for m in pkgutil.walk_packages(stats.__path__, "stats.") if m.ispkg)]


def test_few_modules_at_the_top() -> None:
    top = sorted(p.name for p in (ROOT / "stats").glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def test_no_module_is_too_long() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "stats").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


def test_no_lazy_name_of_a_package_is_also_one_of_its_modules() -> None:
    """As :func:`tests.test_architecture.test_no_public_name_of_stats_is_also_one_of_its_modules`,
    for every package of ``stats`` with a lazy map (PEP 562): a module named like a lazy name would
    replace it on the package as soon as anything imported the module."""
    clashes = {}
    for name in _packages():
        package = importlib.import_module(name)
        exports = set(getattr(package, "_EXPORTS", ()))
        modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
        if exports & modules:
            clashes[name] = sorted(exports & modules)
    assert not clashes, clashes


def test_every_lazy_name_of_every_package_resolves() -> None:
    code = (
        "import importlib, pkgutil, stats\n"
        "names = ['stats', *(m.name for m in pkgutil.walk_packages(stats.__path__, 'stats.') if m.ispkg)]\n"
        "missing = [(p, n) for p in names for n in getattr(importlib.import_module(p), '_EXPORTS', ())\n"
        "           if getattr(importlib.import_module(p), n, None) is None]\n"
        "print(missing)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
