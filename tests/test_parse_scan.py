"""The block scans of stats.logs._parse that choose how pyarrow reads a block: the minus-sign
prefilters (numpy, GIL released) say what the plain two-byte ``find`` s they replace say."""

from __future__ import annotations

import numpy as np
import pytest

from stats.logs import _parse


def _reference_tiny(data: bytes, start: int, end: int) -> bool:
    if data.find(b"e-", start, end) < 0 and data.find(b"E-", start, end) < 0 and data.find(b"e -", start, end) < 0:
        return False
    return _parse._TINY.search(data, start, end) is not None


def _reference_minus_zero(data: bytes, start: int, end: int) -> bool:
    if data.find(b"-0", start, end) < 0:
        return False
    return _parse._MINUS_ZERO.search(data, start, end) is not None


@pytest.mark.parametrize("seed", range(20))
def test_minus_prefilters_agree_with_the_plain_finds(seed: int) -> None:
    rng = np.random.default_rng(seed)
    alphabet = np.frombuffer(b'-0e E,3\t"\n9x1', np.uint8)
    for _ in range(300):
        body = alphabet[rng.integers(0, alphabet.size, rng.integers(0, 40))].tobytes()
        data = bytearray(b"e-0-" + body + b"\n-0e-")  # minus signs and exponents at both edges, outside
        start, end = 4, 4 + len(body) + 1  # the block: body and its newline
        lines = _parse._Lines(data, start, end)
        minus = _parse._Minus(lines)
        assert _parse._has_tiny_exponent(data, start, end, minus) == _reference_tiny(data, start, end), bytes(data)
        assert _parse._has_minus_zero(data, start, end, minus) == _reference_minus_zero(data, start, end), bytes(data)


def test_edges_of_the_block() -> None:
    for text, tiny, zero in [
        (b"-0\n", False, True),
        (b"e-\n", False, False),
        (b"1e-400\n", True, False),
        (b"1e -400\n", True, False),
        (b"1E-999\n", True, False),
        (b"a,-1\n", False, False),
        (b"\n", False, False),
    ]:
        data = bytearray(text)
        minus = _parse._Minus(_parse._Lines(data, 0, len(data)))
        assert (
            _parse._has_tiny_exponent(data, 0, len(data), minus),
            _parse._has_minus_zero(data, 0, len(data), minus),
        ) == (
            tiny,
            zero,
        ), text
        assert (_reference_tiny(data, 0, len(data)), _reference_minus_zero(data, 0, len(data))) == (tiny, zero), text
