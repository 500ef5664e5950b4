"""Compare a computed value with a figure as a paper prints it."""

from __future__ import annotations

import math


def matches_printed(value: float, printed: str) -> bool:
    """True when ``value`` is within one unit of the last printed digit of ``printed``.

    "0.05356" has its last digit at 1e-5, "5.43013e-7" at 1e-12. One unit (not a
    half) allows for the paper's own inputs being rounded before the arithmetic.
    """
    text = printed.lower()
    mantissa, _, exponent = text.partition("e")
    exp = int(exponent) if exponent else 0
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    unit = 10.0 ** (exp - decimals)
    return math.isclose(value, float(text), rel_tol=0.0, abs_tol=unit * 1.000001)
