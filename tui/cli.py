"""The ``rankboard`` command: parse arguments, then hand over to the report."""

from __future__ import annotations

import argparse
import sys
from importlib.resources import files
from pathlib import Path

from stats import read_long_log
from tui.report import LOWER_IS_BETTER, text_report

BUNDLED_EXAMPLE = "c45_demsar.dat"


def bundled_example() -> Path:
    """Path of the bundled C4.5 example log (installed with the package)."""
    return Path(str(files("rankboard_sample_logs").joinpath(BUNDLED_EXAMPLE)))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankboard",
        description="Which learner is best, and is it significant? Statistics for R x N "
        "cross-validation logs (dataset,repeat,fold,learner,criterion,value).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    report = sub.add_parser(
        "report",
        help="print the rank table, omnibus tests, critical difference, verdict and control table",
        description="Summarise one criterion of a long-format log. Without a path, the bundled "
        "example (seed 000's four C4.5 variants on 14 data sets) is used.",
    )
    report.add_argument("path", nargs="?", help="a long-format .dat log (default: the bundled example)")
    report.add_argument("--criterion", "-c", help="criterion to analyse (default: the first in the log)")
    report.add_argument(
        "--direction",
        choices=("higher", "lower"),
        help="which values are better (default: lower for " + ", ".join(LOWER_IS_BETTER) + ", else higher)",
    )
    report.add_argument("--control", help="control learner (default: the best-ranked)")
    report.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    report.add_argument(
        "--test",
        choices=("friedman", "aligned", "quade"),
        default="friedman",
        help="ranks behind the control table's z statistics (default friedman)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    path = Path(args.path) if args.path else bundled_example()
    try:
        log = read_long_log(path)
        text = text_report(
            log,
            source=str(path),
            criterion=args.criterion,
            direction=args.direction,
            control=args.control,
            alpha=args.alpha,
            test=args.test,
        )
    except (OSError, ValueError) as exc:
        print(f"rankboard: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) and not str(exc).startswith(str(path)) else 1
    sys.stdout.write(text)
    return 0
