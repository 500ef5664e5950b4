"""README's first command installs the package (``python -m pip install .``, not editable): every
package of ``stats`` and ``tui`` must be listed in pyproject.toml, or the installed ``rankboard``
fails at its first import (``tui.app``, ``tui.model``, ``stats.logs``... were missing: only an
editable install, which CI uses, worked)."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_of_stats_and_tui_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("stats", "tui")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"not installed by `pip install .`: {sorted(found - listed)}"
    assert config["package-dir"]["rankboard_sample_logs"] == "sample_logs" and "rankboard_sample_logs" in listed
