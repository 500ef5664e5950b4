"""Reading a figure's SVG back for the tests: the elements drawn with a ``gid``, their text and
their coordinates (matplotlib writes an artist's ``gid`` as the id of the ``<g>`` around it;
``svg.fonttype: none`` keeps text as ``<text>``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = {"svg": "http://www.w3.org/2000/svg"}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def groups(svg: bytes) -> dict[str, ET.Element]:
    """Every ``<g>`` with an id, by id."""
    root = ET.fromstring(svg)
    return {g.get("id", ""): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id")}


def texts(svg: bytes) -> list[str]:
    """The content of every ``<text>`` element, in document order."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def text_at(group: ET.Element) -> tuple[str, float, float]:
    """The text of a group drawn with a gid, and its anchor point (x, y) in SVG units (y down)."""
    t = group.find(".//svg:text", NS)
    assert t is not None, f"no <text> in group {group.get('id')!r}"
    return "".join(t.itertext()), float(t.get("x", "nan")), float(t.get("y", "nan"))


def points(group: ET.Element) -> list[tuple[float, float]]:
    """The vertices of every ``<path>`` in the group (``M``/``L`` commands), in order, in SVG units."""
    out: list[tuple[float, float]] = []
    for path in group.iter("{http://www.w3.org/2000/svg}path"):
        numbers = [float(n) for n in _NUMBER.findall(path.get("d", ""))]
        out.extend(zip(numbers[0::2], numbers[1::2]))
    return out


def uses(group: ET.Element) -> list[tuple[float, float]]:
    """The positions of every ``<use>`` in the group (markers: one per data point), in SVG units."""
    return [
        (float(u.get("x", "nan")), float(u.get("y", "nan")))
        for u in group.iter("{http://www.w3.org/2000/svg}use")
    ]


def affine_fit(values: list[float], coords: list[float], tolerance: float = 0.02) -> bool:
    """Whether ``coords = a * values + b`` for one ``a != 0`` and ``b`` (within ``tolerance`` SVG
    units): positions drawn on an axis are its values mapped by one affine transform."""
    pairs = sorted(zip(values, coords))
    (v0, c0), (v1, c1) = pairs[0], pairs[-1]
    if v1 == v0:
        return all(abs(c - c0) <= tolerance for _, c in pairs)
    a = (c1 - c0) / (v1 - v0)
    return a != 0 and all(abs(c0 + a * (v - v0) - c) <= tolerance for v, c in pairs)
