"""View specs: a :class:`~tui.model._types.Selection` saved as a small TOML file and loaded back.

The file (written by hand: ``tomli_w`` is not a dependency; read with
``tomllib``)::

    # rankboard view spec
    version = 2
    logs = ["runs/cv", "/data/extra.dat"]  # optional: the logs the app was opened on (files,
                              # folders, globs), relative to the spec's folder when inside it
    criterion = "accuracy"
    direction = "higher"
    datasets = ["iris", "wine"]
    learners = ["nb", "tree"]
    alpha = 0.05
    test = "friedman"
    procedure = "holm"        # or nemenyi, shaffer, bergmann, wilcoxon-holm, sign-holm
    control = "nb"            # optional: default the best-ranked learner
    pair = ["nb", "tree"]     # optional: default the best versus the second best
    rope = 0.01               # optional: default stats.default_rope of the criterion's values
    deltas = true             # optional: quartile charts of deltas against the control
    scott_knott = "a12"       # the quartile ranks' Scott-Knott variant: "esd" (2.x, the
                              # default), "esd-v1" (1.x), "np" (3.0 non-parametric), "a12"
    view = "folds"            # optional: the view the app opens on (a view of tui.registry)

Only ``criterion`` is required: a missing ``direction`` is the criterion's
default, missing ``datasets``/``learners`` mean all of the log's.

``logs`` (version 2) makes a spec reopen on its own: ``rankboard report --spec FILE`` and
``rankboard --spec FILE`` read them when no log is given on the command line (paths given there
win). An entry is relative to the spec's folder, or absolute (:func:`logs_entries` writes a log
inside the spec's folder tree relative to it, so that the folder can be moved or shared whole, and
any other absolute). A spec saved from the app opened on the bundled sample logs records none: a
command without paths reads those. A version 1 spec (no ``logs``) is still read, with the logs given
on the command line. :func:`spec_text` writes every option of the selection, defaults included
(``scott_knott`` too), so that a later default changes nothing a spec shows; only ``control``,
``pair`` and ``rope`` are left out when the selection leaves them to the data (None).
"""

from __future__ import annotations

import glob
import math
import os
import stat
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import tomllib

from tui import registry
from tui.atomic import write_text_atomic
from tui.model._defaults import default_higher_is_better
from tui.model._model import Model
from tui.model._types import GROUPINGS, PROCEDURES, TESTS, Selection

VERSION = 2
#: The versions read: 1 (no ``logs``) and 2.
VERSIONS = (1, 2)
KEYS = (
    "version",
    "criterion",
    "direction",
    "datasets",
    "learners",
    "alpha",
    "test",
    "procedure",
    "control",
    "pair",
    "rope",
    "deltas",
    "scott_knott",
    "view",
    "logs",
)
DIRECTIONS = ("higher", "lower")


def _toml_string(text: str) -> str:
    """A TOML basic string: backslash, quote and control characters escaped."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a spec value must be finite, got {value!r}")
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _bundled_logs() -> str:
    """The bundled sample logs' folder (what ``rankboard`` and ``rankboard report`` read without a
    path: ``tui.cli.bundled_cv``, which this layer may not import)."""
    return os.path.abspath(str(files("rankboard_sample_logs").joinpath("cv")))


def logs_entries(paths: Sequence[str], spec_path: str | Path) -> list[str] | None:
    """The ``logs`` a spec saved at ``spec_path`` records for the logs ``paths`` (as given on the
    command line: files, folders or globs, relative to the current directory).

    A log inside the spec's folder tree is written relative to that folder (POSIX separators): the
    folder can be moved, copied or shared with its logs and the spec still reopens. Any other log is
    written absolute: a relative path climbing out (``../``) would break as soon as the spec moved
    alone. ``-`` (standard input) cannot be read again and is left out. None when ``paths`` are the
    bundled sample logs (nothing to record: a command without paths reads them) or name nothing.

    >>> logs_entries(["/runs/a.dat", "/elsewhere/b.dat", "/runs/cv/*.dat"], "/runs/view.toml")
    ['a.dat', '/elsewhere/b.dat', 'cv/*.dat']
    """
    full = [os.path.abspath(os.path.expanduser(os.fspath(p))) for p in paths if os.fspath(p) != "-"]
    if not full or full == [_bundled_logs()]:
        return None
    folder = os.path.dirname(os.path.abspath(os.fspath(spec_path)))
    return [_entry(p, folder) for p in full]


def _entry(path: str, folder: str) -> str:
    """``path`` (absolute) relative to ``folder`` when inside it, else as it is."""
    try:
        inside = os.path.commonpath([path, folder]) == folder
    except ValueError:  # another drive (Windows)
        inside = False
    return Path(os.path.relpath(path, folder)).as_posix() if inside else path


def spec_logs(spec: dict[str, Any], spec_path: str | Path) -> list[str] | None:
    """The logs a spec read from ``spec_path`` records (its ``logs``, relative entries taken from
    the spec's folder), as paths from the current directory; None when it records none.

    Raises ``FileNotFoundError`` naming the spec and each log that is missing (a path that does not
    exist, a glob that matches nothing): a spec that reads only part of its logs would show another
    view than the one saved, without saying so.
    """
    entries = spec.get("logs")
    if entries is None:
        return None
    folder = os.path.dirname(os.fspath(spec_path))
    paths = [os.path.join(folder, os.path.expanduser(e)) for e in _strings("logs", entries)]
    missing = [(e, p) for e, p in zip(entries, paths, strict=True) if not _found(p)]
    if missing:
        said = "; ".join(e if e == p else f"{e} (looked for as {p})" for e, p in missing)
        raise FileNotFoundError(
            f"{os.fspath(spec_path)}: the log(s) this spec names are not found: {said}; give the logs on the "
            "command line (paths given there win over the spec's)"
        )
    return paths


def _found(path: str) -> bool:
    """Whether ``path`` names something to read, as ``stats.read_logs`` takes it (an existing path,
    else a glob that matches)."""
    if os.path.exists(path):
        return True
    return any(ch in path for ch in "*?[") and bool(glob.glob(path, recursive=True))


def spec_text(selection: Selection, view: str | None = None, logs: Sequence[str] | None = None) -> str:
    """The TOML text of ``selection`` (what :func:`save_spec` writes), of ``view``, the view on
    screen, and of ``logs``, the entries of the logs (:func:`logs_entries`), when given."""
    sel = selection
    items: list[tuple[str, Any]] = [("version", VERSION)]
    if logs:
        items.append(("logs", list(logs)))
    items += [
        ("criterion", sel.criterion),
        ("direction", "higher" if sel.higher_is_better else "lower"),
        ("datasets", list(sel.datasets)),
        ("learners", list(sel.learners)),
        ("alpha", float(sel.alpha)),
        ("test", sel.test),
        ("procedure", sel.procedure),
    ]
    if sel.control is not None:
        items.append(("control", sel.control))
    if sel.pair is not None:
        items.append(("pair", list(sel.pair)))
    if sel.rope is not None:
        items.append(("rope", float(sel.rope)))
    if sel.deltas:
        items.append(("deltas", True))
    items.append(("scott_knott", sel.scott_knott))
    if view is not None:
        items.append(("view", spec_view({"view": view})))
    return "# rankboard view spec\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in items)


def save_spec(
    selection: Selection, path: str | Path, view: str | None = None, logs: Sequence[str] | None = None
) -> Path:
    """Write ``selection`` (and ``view``, and ``logs``: the log paths as given to the app, recorded
    relative to ``path``'s folder by :func:`logs_entries`) to ``path`` atomically
    (:func:`tui.atomic.write_text_atomic`); return the path."""
    entries = None if logs is None else logs_entries(logs, path)
    return write_text_atomic(spec_text(selection, view, entries), path)


def spec_view(spec: dict[str, Any]) -> str | None:
    """The view a spec opens on (its ``view``, one of the registry's), or None when it names none."""
    view = spec.get("view")
    return None if view is None else _one_of("view", view, registry.names())


#: The largest spec read (a spec is a few hundred bytes; a longer file is not one).
MAX_SPEC_BYTES = 1 << 20


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read a spec; ``ValueError`` (naming the file) for invalid TOML or an unknown key, for a
    file that is not a regular file (a FIFO would block, ``/dev/zero`` never end), one over
    :data:`MAX_SPEC_BYTES`, or nesting too deep for the TOML reader. A missing file raises
    ``FileNotFoundError``, as before."""
    info = os.stat(path)  # before opening: opening a FIFO blocks until a writer comes
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{path}: not a spec: a directory")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{path}: not a spec: not a regular file (a spec is a TOML file)")
    if info.st_size > MAX_SPEC_BYTES:
        raise ValueError(f"{path}: not a spec: {info.st_size:,} bytes (a spec has at most {MAX_SPEC_BYTES:,})")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SPEC_BYTES + 1)
        if len(data) > MAX_SPEC_BYTES:
            raise ValueError(f"{path}: not a spec: more than {MAX_SPEC_BYTES:,} bytes")
        spec = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a valid spec: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not a valid spec: {exc}") from None
    except RecursionError:
        raise ValueError(f"{path}: not a valid spec: arrays or tables nested too deep") from None
    unknown = [k for k in spec if k not in KEYS]
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(map(repr, unknown))}; valid keys are: {', '.join(KEYS)}")
    try:
        spec_view(spec)
        if "logs" in spec:
            _strings("logs", spec["logs"])
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return spec


def _strings(key: str, value: Any) -> list[str]:
    """``value``, a non-empty array of non-empty strings (``ValueError`` naming ``key`` else)."""
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{key} must be a non-empty array of paths (strings), got {value!r}")
    return value


def _one_of(key: str, value: Any, valid: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"{key} = {value!r} is not valid; valid values are: {', '.join(valid)}")
    return value


def _names(key: str, value: Any, valid: tuple[str, ...]) -> tuple[str, ...]:
    """``value`` as a tuple, checked to be an array of names among ``valid`` (``ValueError`` naming
    the unknown ones, in their order, and listing the valid ones, else).

    Membership is looked up in a set of ``valid`` built once (linear in both lengths): a scan of the
    tuple per name made a spec of a log's 100,000 data sets take over a minute (issue 30, item 9).
    """
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} must be an array of strings, got {value!r}")
    known = frozenset(valid)
    bad = [v for v in value if v not in known]
    if bad:
        raise ValueError(f"{key}: unknown {', '.join(map(repr, bad))}; valid values are: {', '.join(valid)}")
    return tuple(value)


def selection_from_spec(model: Model, spec: dict[str, Any]) -> Selection:
    """The :class:`Selection` a spec describes, checked against ``model``'s log.

    Raises ``ValueError`` naming the bad key and value and listing the valid
    ones (unknown key, criterion, data set, learner, control, test, procedure,
    direction, scott_knott; alpha not in (0, 1); rope negative or not finite; deltas not a boolean).
    """
    unknown = [k for k in spec if k not in KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(map(repr, unknown))}; valid keys are: {', '.join(KEYS)}")
    version = spec.get("version", VERSION)
    if isinstance(version, bool) or version not in VERSIONS:
        raise ValueError(f"version = {version!r} is not supported; valid values are: {', '.join(map(str, VERSIONS))}")
    if "criterion" not in spec:
        raise ValueError(f"criterion is missing; valid values are: {', '.join(model.criteria)}")
    criterion = _one_of("criterion", spec["criterion"], model.criteria)
    direction = spec.get("direction")
    higher = (
        default_higher_is_better(criterion)
        if direction is None
        else _one_of("direction", direction, DIRECTIONS) == "higher"
    )
    datasets = _names("datasets", spec["datasets"], model.datasets) if "datasets" in spec else model.datasets
    learners = _names("learners", spec["learners"], model.learners) if "learners" in spec else model.learners
    alpha = spec.get("alpha", 0.05)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 < float(alpha) < 1.0:
        raise ValueError(f"alpha = {alpha!r} is not valid; valid values are numbers between 0 and 1 (exclusive)")
    test = _one_of("test", spec.get("test", "friedman"), TESTS)
    procedure = _one_of("procedure", spec.get("procedure", "holm"), PROCEDURES)
    control = spec.get("control")
    if control is not None:
        control = _one_of("control", control, learners)
    pair = spec.get("pair")
    if pair is not None:
        pair = _names("pair", pair, learners)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError(
                f"pair = {list(pair)!r} is not valid; give two different learners of: {', '.join(learners)}"
            )
    rope = spec.get("rope")
    if rope is not None and (
        isinstance(rope, bool) or not isinstance(rope, (int, float)) or not 0.0 <= float(rope) < math.inf
    ):
        raise ValueError(f"rope = {rope!r} is not valid; valid values are finite numbers >= 0")
    deltas = spec.get("deltas", False)
    if not isinstance(deltas, bool):
        raise ValueError(f"deltas = {deltas!r} is not valid; valid values are: true, false")
    scott_knott = _one_of("scott_knott", spec.get("scott_knott", GROUPINGS[0]), GROUPINGS)
    return Selection(
        criterion=criterion,
        higher_is_better=higher,
        datasets=datasets,
        learners=learners,
        control=control,
        alpha=float(alpha),
        test=test,
        procedure=procedure,
        pair=pair,  # type: ignore[arg-type]
        rope=None if rope is None else float(rope),
        deltas=deltas,
        scott_knott=scott_knott,
    )
