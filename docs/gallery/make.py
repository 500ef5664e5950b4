"""Make README's gallery: one PNG per figure of ``rankboard report --format png``, from the bundled logs.

Run from the repository root (needs ``pip install -e ".[figures]"``)::

    python docs/gallery/make.py

Each figure is written with ``--force`` over the last gallery's; the commands are printed first.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

#: name -> the report's arguments (the logs are the repository's bundled ones).
FIGURES = {
    "cd": ["sample_logs/cv", "--view", "cd", "--procedure", "holm"],
    "quartiles": ["sample_logs/cv", "--view", "quartiles"],
    "folds": ["sample_logs/cv", "--view", "folds"],
    "simplex": ["sample_logs/cv", "--view", "folds", "--pair", "KNN"],
    "curves": ["sample_logs/sequence", "--view", "curves"],
}


def main() -> int:
    for name, args in FIGURES.items():
        command = [sys.executable, "-m", "tui", "report", *args, "--format", "png", "--dpi", "110"]
        command += ["-o", str(HERE / f"{name}.png"), "--force"]
        print("$", shlex.join(["rankboard", *command[3:]]))
        done = subprocess.run(command, cwd=ROOT)
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
