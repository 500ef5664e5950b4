"""Issue 30 item 8: hostile view specs get a clear refusal, never a hang or a traceback.

Before: ``--spec /dev/zero`` raised MemoryError, ``--spec`` on a FIFO hung (opening it waits for a
writer), 100,000 nested ``[`` raised RecursionError, and a file that is not UTF-8 a
UnicodeDecodeError."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tui.cli import main
from tui.model import load_spec
from tui.model._spec import MAX_SPEC_BYTES


def _hostile(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "spec.fifo"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("criterion = " + "[" * 100_000 + "]" * 100_000 + "\n")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_SPEC_BYTES + '\ncriterion = "pd"\n')
    latin = tmp_path / "latin.toml"
    latin.write_bytes('criterion = "précision"\n'.encode("latin-1"))
    return {
        "device": Path("/dev/zero"),
        "fifo": fifo,
        "deep": deep,
        "big": big,
        "latin": latin,
        "folder": tmp_path,
    }


def _guarded(call, fifo: Path):  # noqa: ANN001, ANN202
    """``call()`` in a thread; if it is still blocked after a generous guard (a hang, not a
    timing: the call returns at once when it does not open the FIFO), a writer opens the FIFO to
    unblock it and the test fails."""
    out: dict[str, object] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # the reader waiting gets EOF
        thread.join(60)
        pytest.fail("blocked opening the FIFO")
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return out.get("value")


REASONS = {
    "device": "not a regular file",
    "fifo": "not a regular file",
    "deep": "nested too deep",
    "big": "bytes (a spec has at most",
    "latin": "not UTF-8",
    "folder": "a directory",
}


@pytest.mark.parametrize("kind", list(REASONS))
def test_load_spec_refuses_what_is_not_a_spec(kind: str, tmp_path: Path) -> None:
    path = _hostile(tmp_path)[kind]
    if kind == "device" and not path.exists():
        pytest.skip("no /dev/zero on this machine")
    with pytest.raises(ValueError, match=re.escape(REASONS[kind])) as caught:
        _guarded(lambda: load_spec(path), tmp_path / "spec.fifo")
    assert str(caught.value).startswith(f"{path}: ")  # the file named


@pytest.mark.parametrize("kind", ["fifo", "deep", "big"])
def test_report_and_the_app_say_so_and_exit_2(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _hostile(tmp_path)[kind]
    fifo = tmp_path / "spec.fifo"
    assert _guarded(lambda: main(["report", str(SAMPLES / "c45_demsar.dat"), "--spec", str(path)]), fifo) == 2
    assert REASONS[kind] in capsys.readouterr().err
    assert _guarded(lambda: main(["--spec", str(path), str(SAMPLES / "c45_demsar.dat")]), fifo) == 2
    assert REASONS[kind] in capsys.readouterr().err
