"""`import stats` must stay headless: no textual, no rich."""

from __future__ import annotations

import subprocess
import sys


def test_import_stats_does_not_import_textual_or_rich() -> None:
    code = (
        "import sys, stats\n"
        "stats.friedman([[1, 2], [2, 1]]); stats.quartile_chart({'a': [1, 2, 3]})\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui', 'sklearn'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_api_is_exported() -> None:
    import stats

    for name in stats.__all__:
        assert hasattr(stats, name), name
    for name in (
        "ranks",
        "friedman",
        "iman_davenport",
        "friedman_aligned",
        "quade",
        "critical_difference",
        "control_test",
        "pairwise_test",
        "adjust",
        "wilcoxon",
        "sign_test",
        "mann_whitney",
        "multiple_sign_test",
        "contrast_estimation",
        "quartiles",
        "quartile_chart",
        "verdict",
    ):
        assert name in stats.__all__
