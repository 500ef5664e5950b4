"""View specs: a :class:`~tui.model._types.Selection` saved as a small TOML file and loaded back.

The file (written by hand: ``tomli_w`` is not a dependency; read with
``tomllib``)::

    # rankboard view spec
    version = 1
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
    scott_knott = "a12"       # optional: the quartile ranks' Scott-Knott variant: "esd" (2.x,
                              # the default), "esd-v1" (1.x), "np" (3.0 non-parametric), "a12"
    view = "folds"            # optional: the view the app opens on (a view of tui.registry)

Only ``criterion`` is required: a missing ``direction`` is the criterion's
default, missing ``datasets``/``learners`` mean all of the log's.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import tomllib

from tui import registry
from tui.atomic import write_text_atomic
from tui.model._defaults import default_higher_is_better
from tui.model._model import Model
from tui.model._types import GROUPINGS, PROCEDURES, TESTS, Selection

VERSION = 1
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


def spec_text(selection: Selection, view: str | None = None) -> str:
    """The TOML text of ``selection`` (what :func:`save_spec` writes), and of ``view``, the view on
    screen, when given."""
    sel = selection
    items: list[tuple[str, Any]] = [
        ("version", VERSION),
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
    if sel.scott_knott != GROUPINGS[0]:
        items.append(("scott_knott", sel.scott_knott))
    if view is not None:
        items.append(("view", spec_view({"view": view})))
    return "# rankboard view spec\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in items)


def save_spec(selection: Selection, path: str | Path, view: str | None = None) -> Path:
    """Write ``selection`` (and ``view``) to ``path`` atomically (:func:`tui.atomic.write_text_atomic`);
    return the path."""
    return write_text_atomic(spec_text(selection, view), path)


def spec_view(spec: dict[str, Any]) -> str | None:
    """The view a spec opens on (its ``view``, one of the registry's), or None when it names none."""
    view = spec.get("view")
    return None if view is None else _one_of("view", view, registry.names())


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read a spec; ``ValueError`` (naming the file) for invalid TOML or an unknown key."""
    try:
        with open(path, "rb") as handle:
            spec = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not a valid spec: {exc}") from None
    unknown = [k for k in spec if k not in KEYS]
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {', '.join(map(repr, unknown))}; valid keys are: {', '.join(KEYS)}")
    try:
        spec_view(spec)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return spec


def _one_of(key: str, value: Any, valid: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"{key} = {value!r} is not valid; valid values are: {', '.join(valid)}")
    return value


def _names(key: str, value: Any, valid: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} must be an array of strings, got {value!r}")
    bad = [v for v in value if v not in valid]
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
    if spec.get("version", VERSION) != VERSION:
        raise ValueError(f"version = {spec['version']!r} is not supported; valid values are: {VERSION}")
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
