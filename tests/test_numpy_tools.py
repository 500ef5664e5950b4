"""``tui.numpy_tools``: numpy's f2py and testing loaded on first use, not by every start (issue 32).

Each case runs in a fresh interpreter: this one has imported scipy already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Modules that only the loading of numpy.f2py and numpy.testing imports.
LOADED_BY_THEM = ("numpy.f2py.crackfortran", "numpy.testing._private.utils", "unittest", "charset_normalizer")


def _run(script: str, *args: str) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


_LOADED = f"""
import json, sys
def loaded():
    return sorted(m for m in {LOADED_BY_THEM!r} if m in sys.modules)
"""


def test_without_the_deferral_scipy_special_loads_f2py_and_testing() -> None:
    """The cost this module removes is real (scipy 1.15 on): if this fails, scipy no longer copies
    numpy's namespace and :mod:`tui.numpy_tools` can go."""
    out = _run(_LOADED + "import scipy.special\nprint(json.dumps({'loaded': loaded()}))")
    assert {"numpy.f2py.crackfortran", "numpy.testing._private.utils"} <= set(out["loaded"])


def test_deferred_they_load_on_first_use_and_work() -> None:
    script = (
        _LOADED
        + """
from tui.numpy_tools import defer_numpy_tools
defer_numpy_tools()
assert 'numpy' not in sys.modules  # nothing imported before scipy is
import scipy.special
before = loaded()
chi = float(scipy.special.chdtrc(3, 5.0))
import numpy
import numpy.testing
numpy.testing.assert_allclose(1.0, 1.0)
from numpy.testing import assert_array_equal
assert_array_equal(numpy.arange(3), [0, 1, 2])
include = numpy.f2py.get_include()
print(json.dumps({'before': before, 'after': loaded(), 'chi': chi, 'include': include}))
"""
    )
    out = _run(script)
    assert out["before"] == []
    assert {"numpy.f2py.crackfortran", "numpy.testing._private.utils"} <= set(out["after"])
    assert out["include"].endswith("src")
    assert out["chi"] == 0.1717971442967335  # chi-squared(3) survival at 5 (R: pchisq(5, 3, lower = FALSE))


def test_once_scipy_is_imported_nothing_changes() -> None:
    script = (
        _LOADED
        + """
import scipy.special
from tui.numpy_tools import defer_numpy_tools
defer_numpy_tools()
hooks = [type(f).__name__ for f in sys.meta_path]
print(json.dumps({'lazy': type(sys.modules['numpy.testing']).__name__, 'hooks': hooks}))
"""
    )
    out = _run(script)
    assert out["lazy"] == "module" and "_BeforeScipy" not in out["hooks"]


def test_rankboard_report_loads_neither(tmp_path: Path) -> None:
    """The ``rankboard`` command installs the deferral: ``report`` of a tiny log, every view, as
    JSON (it imports scipy.special) loads neither numpy.f2py nor numpy.testing; before, both."""
    log = tmp_path / "tiny.dat"
    log.write_text("d1,1,1,A,acc,0.81\nd1,1,1,B,acc,0.79\nd2,1,1,A,acc,0.66\nd2,1,1,B,acc,0.71\n")
    script = (
        _LOADED
        + """
import contextlib, io
from tui.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(['report', sys.argv[1], '--format', 'json'])
scipy = 'scipy.special' in sys.modules
print(json.dumps({'code': code, 'scipy': scipy, 'loaded': loaded(), 'text': len(out.getvalue())}))
"""
    )
    out = _run(script, str(log))
    assert out["code"] == 0 and out["text"] > 0 and out["scipy"]
    assert out["loaded"] == []
