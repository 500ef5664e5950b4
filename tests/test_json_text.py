"""tui.render._json_text (issue 17): the report's JSON writer gives json.dumps' bytes
(indent=2, ensure_ascii, allow_nan=False) on random documents and on the reports of the samples."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tui.render import _json_text
from tui.render._json_text import dumps_indented

_STRINGS = ["", "a", "C4.5+m", 'quote " and \\ slash', "tab\there\nnewline", "é ü ß 中文 🙂", "\x00\x1f\x7f"]


def _reference(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=True, allow_nan=False)


def _scalar(rng: random.Random) -> Any:
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(_STRINGS)
    if kind == 1:
        return rng.choice([0, -1, 7, 2**53 + 1, -(10**30), 10**400 if rng.random() < 0.1 else 3])
    if kind == 2:
        return rng.choice([0.0, -0.0, 0.1, 1e-300, 5e-324, 1.7976931348623157e308, 1e16, 123456.789, 2.0 / 3])
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind == 4:
        return rng.choice([True, False])
    if kind == 5:
        return None
    if kind == 6:
        return float(rng.randrange(-5, 5))
    return rng.random()


def _doc(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.3:
        return _scalar(rng)
    kind = rng.randrange(3)
    n = rng.choice([0, 1, 2, 5, 12])
    if kind == 0:
        keys: list[Any] = [rng.choice(_STRINGS) + str(i) for i in range(n)]
        return {k: _doc(rng, depth - 1) for k in keys}
    items = [_doc(rng, depth - 1) for _ in range(n)]
    return items if kind == 1 else tuple(items)


@pytest.mark.parametrize("seed", range(200))
def test_random_documents(seed: int) -> None:
    doc = _doc(random.Random(seed), depth=1 + seed % 6)
    assert dumps_indented(doc) == _reference(doc)


def test_leaf_dicts_with_keys_json_converts() -> None:
    doc = {"outer": [{7: "int", 2.5: "float", True: "bool", None: "none", -0.5: 1}, {"a": []}]}
    assert dumps_indented(doc) == _reference(doc)


@pytest.mark.parametrize(
    "doc",
    [
        {"x": [np.float64(0.1), 1]},  # a float subclass: json.dumps' own path
        {"x": {"y": [1, 2]}, 3: [1]},  # a non-string key beside a container
        {"a": [{"b": 1}], "c": (1, 2.5, "s")},
        [],
        {},
        "top",
        1.5,
        None,
    ],
)
def test_other_documents(doc: Any) -> None:
    assert dumps_indented(doc) == _reference(doc)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_raises_as_json_dumps(bad: float) -> None:
    doc = {"rows": [{"a": 1}, {"b": [1, bad]}]}
    with pytest.raises(ValueError) as ours:
        dumps_indented(doc)
    with pytest.raises(ValueError) as theirs:
        _reference(doc)
    assert str(ours.value) == str(theirs.value)


def test_unserialisable_raises_as_json_dumps() -> None:
    doc = {"rows": [{"a": np.int64(3)}]}
    with pytest.raises(TypeError) as ours:
        dumps_indented(doc)
    with pytest.raises(TypeError) as theirs:
        _reference(doc)
    assert str(ours.value) == str(theirs.value)


def test_without_the_c_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_json_text._encoder, "c_make_encoder", None)
    doc = {"a": [{"b": 1.25, "c": "x"}], "d": {}}
    assert dumps_indented(doc) == _reference(doc)


@pytest.mark.parametrize("log", ["", "cv", "regression", "sequence", "wide_sonar.dat"])
def test_sample_reports(log: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.render._json as rj
    from tui.cli import main

    docs: list[Any] = []
    original = rj.report_dict

    def keep(*args: Any, **kwargs: Any) -> Any:
        docs.append(original(*args, **kwargs))
        return docs[-1]

    monkeypatch.setattr(rj, "report_dict", keep)
    paths = [str(Path(__file__).resolve().parents[1] / "sample_logs" / log)] if log else []
    main(["report", "--format", "json", *paths, "-o", str(tmp_path / "r.json")])
    assert docs
    for doc in docs:
        out: list[str] = []
        _json_text._write(doc, 0, out, {})  # the fast path itself, not its fallback
        assert "".join(out) == _reference(doc)
