"""Number formatting shared by the results' ``__str__`` methods."""

from __future__ import annotations

import math


def fmt_p(p: float) -> str:
    """Format a p-value: four decimals, or scientific notation below 1e-4."""
    if math.isnan(p):
        return "nan"
    if p == 0.0:
        return "0"
    if p < 1e-4:
        return f"{p:.3e}"
    return f"{p:.4f}"


def fmt_stat(x: float) -> str:
    """Format a test statistic with three decimals (``inf`` kept readable)."""
    if math.isinf(x):
        return "inf"
    return f"{x:.3f}"
