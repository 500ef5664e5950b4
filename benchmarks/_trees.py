"""The baseline trees of the benchmarks' ``--before REV`` / ``--baseline REV`` runs, in one place.

``export`` writes a git revision's folders to a temporary folder with ``git archive`` (no worktree
is touched, uncommitted work stays where it is); ``run_child`` runs a script in such a tree (or
this one) in a fresh interpreter with that tree first on ``sys.path`` and returns what it printed
last, as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def export(rev: str, *paths: str, into: Path | None = None) -> Path:
    """The folders ``paths`` (all of the revision when none) of git revision ``rev`` extracted into
    ``into`` (default: a new temporary folder, which the caller removes)."""
    folder = into if into is not None else Path(tempfile.mkdtemp(prefix="rankboard_before_"))
    archive = subprocess.run(["git", "archive", rev, *paths], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def run_child(tree: Path, command: list[str]) -> dict[str, Any]:
    """``python *command`` run in ``tree`` with ``PYTHONPATH=tree``; its last line of output, as JSON
    (the child's stderr ends the message when it fails)."""
    done = subprocess.run(
        [sys.executable, *command],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"the run in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
