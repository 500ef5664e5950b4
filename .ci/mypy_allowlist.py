"""mypy over ``stats`` and ``tui`` against an allow-list that only shrinks (issue 27 item 5).

``python .ci/mypy_allowlist.py`` runs mypy (pyproject.toml's [tool.mypy]) and counts its errors per
(file, error code). It fails when a file has more errors of a code than ``.ci/mypy-allowlist.txt``
allows, or errors of a code the list does not name for it: new code is typed. It says which
entries can shrink when there are fewer; ``--update`` writes the current counts (run it after
fixing errors, never to admit new ones: review the diff of the list).

Most entries are pandas-stubs' element types (``row["x"]`` of a Series is a union of every scalar
pandas knows, so ``float(row["x"])`` is an arg-type error): typing noise that the list holds until
those rows are read through typed accessors.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = ROOT / ".ci" / "mypy-allowlist.txt"
ERROR = re.compile(r"^(?P<path>[^:]+):\d+: error: .*\[(?P<code>[a-z-]+)\]$")


def current() -> Counter[tuple[str, str]]:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "stats", "tui"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if run.returncode not in (0, 1) or "error: " in run.stderr:
        sys.exit(f"mypy did not run: {run.stderr.strip() or run.stdout[-2000:]}")
    counts: Counter[tuple[str, str]] = Counter()
    for line in run.stdout.splitlines():
        m = ERROR.match(line)
        if m:
            counts[(m["path"], m["code"])] += 1
    return counts


def allowed() -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for line in ALLOWED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            count, path, code = line.split()
            counts[(path, code)] = int(count)
    return counts


def main(argv: list[str]) -> int:
    now = current()
    if "--update" in argv:
        lines = [f"{n} {path} {code}" for (path, code), n in sorted(now.items())]
        header = "# count file error-code: mypy errors allowed (only shrinks; .ci/mypy_allowlist.py)\n"
        ALLOWED.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"{ALLOWED.name}: {sum(now.values())} errors in {len(now)} entries")
        return 0
    allow = allowed()
    over = {key: n for key, n in now.items() if n > allow.get(key, 0)}
    under = {key: n for key, n in allow.items() if now.get(key, 0) < n}
    for (path, code), n in sorted(over.items()):
        print(f"mypy: {path}: {n} [{code}] error(s), {allow.get((path, code), 0)} allowed")
    if under:
        print(f"mypy: the allow-list can shrink ({len(under)} entries): python .ci/mypy_allowlist.py --update")
    print(f"mypy: {sum(now.values())} errors, {sum(allow.values())} allowed")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
