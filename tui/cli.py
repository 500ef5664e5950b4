"""The ``rankboard`` command: parse arguments, then hand over to the report or the lint."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from stats.core.names import printable_lines
from tui import registry
from tui.choices import FIGURE_FORMATS, FIGURE_SIZES, FORMATS, GROUPINGS, LOWER_IS_BETTER, PROCEDURES

if TYPE_CHECKING:
    from stats import LogProblem, LogRead
    from tui.model import Model, Selection

# numpy, pandas, scipy and textual are imported by the command that needs them, not here:
# `rankboard --help` and an argument error never load them, `rankboard check` never loads scipy.

BUNDLED_CV = "cv"
SUBCOMMANDS = ("report", "check", "convert", "aggregate")


def bundled_cv() -> Path:
    """Folder of the bundled cross-validation logs (5 learners x 10 data sets, 5 criteria)."""
    return Path(str(files("rankboard_sample_logs").joinpath(BUNDLED_CV)))


def _keys_epilog() -> str:
    from tui.app import help_rows

    rows = list(help_rows())
    width = max(len(k) for k, _ in rows)
    return "keys in the app:\n" + "\n".join(f"  {k:>{width}}  {d}" for k, d in rows)


def build_app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankboard",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="rankboard [PATHS ...] [--paused] [--spec FILE] [--memory SIZE]\n"
        "       rankboard report [PATHS ...] [options]\n       rankboard check PATHS ...\n"
        "       rankboard convert PATHS ... -o FILE\n"
        "       rankboard aggregate PATHS ... --engine duckdb|dask|spark -o FILE",
        description="Which learner is best, and is it significant? Statistics for R x N "
        "cross-validation logs (dataset,repeat,fold,learner,criterion,value).\n\n"
        "Without a subcommand, opens the terminal app on PATHS (default: the bundled sample logs\n"
        "sample_logs/cv) and follows them live. Subcommands:\n"
        "  report   print the rank table, omnibus tests, critical difference, verdict and control table\n"
        "  check    lint logs: every problem as file:line: reason, then a summary; exit 1 on any error\n"
        "  convert  read the logs once, write their tidy long table as Parquet or Arrow (Feather)\n"
        "  aggregate  the grouped median on DuckDB, Dask or Spark, written as Parquet for rankboard to open\n"
        "(see rankboard report --help, rankboard check --help, rankboard convert --help, rankboard aggregate --help)",
        epilog="PATHS may be files, directories (every *.dat below), globs, .gz files, or Parquet/Arrow\n"
        "tables (named as files).\n\n" + _keys_epilog(),
    )
    parser.add_argument("paths", nargs="*", metavar="PATHS", help="logs (default: the bundled sample_logs/cv)")
    parser.add_argument("--paused", action="store_true", help="start with live updates paused (p resumes)")
    parser.add_argument("--memory", metavar="SIZE", help=MEMORY_HELP + "; live updates off")
    parser.add_argument(
        "--spec",
        metavar="FILE",
        help="open on a saved selection (a view spec: the file the s key writes), on the logs it names unless PATHS "
        "are given",
    )
    return parser


def run_app(argv: list[str]) -> int:
    args = build_app_parser().parse_args(argv)
    from tui.model import Loader, load_spec, spec_logs

    spec, spec_paths = None, None
    if args.memory is not None:
        from tui.memory import parse_size

        try:
            parse_size(args.memory)  # a bad size is said now, before the screen is taken
        except ValueError as exc:
            say(f"rankboard: {exc}", file=sys.stderr)
            return 2
    if args.spec:
        try:
            spec = load_spec(args.spec)  # a bad file is said now, before the screen is taken
            # the spec's logs, unless paths are given (they win); missing ones are said now too
            spec_paths = None if args.paths else spec_logs(spec, args.spec)
        except (OSError, ValueError) as exc:
            say(f"rankboard: {exc}", file=sys.stderr)
            return 2
    paths = args.paths or spec_paths or [str(bundled_cv())]
    # The reading begins now, in a thread, and overlaps the import of Textual and the app's
    # start (tui.model._early): before, it began once the app was mounted, ~0.5 s later.
    loader = Loader(paths, args.memory)
    loader.start()
    from tui.app import create_app

    create_app(paths, live=not args.paused, spec=spec, memory=args.memory, loader=loader).run()
    return 0


MEMORY_HELP = (
    "memory budget, e.g. 200M or 2G (default: half of the available memory); logs bigger than it are "
    "aggregated by blocks in bounded memory: the views of per-cell medians as usual, the quartiles and the "
    "fold-level views unavailable"
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankboard",
        description="Which learner is best, and is it significant? Statistics for R x N "
        "cross-validation logs (dataset,repeat,fold,learner,criterion,value).",
        epilog="PATHS may be files, directories (every *.dat below), globs, .gz files, Parquet or Arrow IPC "
        "(Feather) tables named as files (found by their magic bytes), or - for stdin (text only).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    report = sub.add_parser(
        "report",
        help="print the rank table, omnibus tests, critical difference, verdict and control table",
        description="Summarise one criterion of the logs. Without a path, the bundled sample logs "
        "(sample_logs/cv: 5 learners x 10 data sets, 5 criteria) are used, as by the app. The logs' problems "
        "are printed on stderr as rankboard check names them (file:line: reason) and the report is made of "
        "the other lines, as the app shows them; --strict refuses logs with errors (exit 1).",
    )
    report.add_argument(
        "paths", nargs="*", metavar="PATHS", help="logs (default: the bundled sample_logs/cv, as the app)"
    )
    report.add_argument(
        "--strict",
        action="store_true",
        help="refuse logs with errors: print them and exit 1 without a report (by default the lines with "
        "errors are left out and the report is made of the others)",
    )
    report.add_argument("--criterion", "-c", help="criterion to analyse (default: the first in the log)")
    report.add_argument(
        "--direction",
        choices=("higher", "lower"),
        help="which values are better (default: lower for " + ", ".join(LOWER_IS_BETTER) + ", else higher)",
    )
    report.add_argument("--datasets", nargs="+", metavar="NAME", help="data sets to include (default: all)")
    report.add_argument("--learners", nargs="+", metavar="NAME", help="learners to include (default: all)")
    report.add_argument("--control", help="control learner (default: the best-ranked)")
    report.add_argument("--alpha", type=float, help="significance level (default 0.05)")
    report.add_argument(
        "--test",
        choices=("friedman", "aligned", "quade"),
        help="ranks behind the control table's z statistics (default friedman)",
    )
    report.add_argument(
        "--procedure",
        choices=PROCEDURES,
        help="all-pairs procedure behind the pairs matrix, the verdict, the CD bars and the letters (default "
        "holm); wilcoxon-holm and sign-holm test each pair on its own (Benavoli et al. 2016)",
    )
    report.add_argument(
        "--rope",
        type=float,
        help="region of practical equivalence of the fold-level Bayesian tests (default 0.01 for a criterion "
        "whose values all lie in [0, 1], else 0)",
    )
    report.add_argument(
        "--deltas",
        action="store_true",
        default=None,
        help="quartile charts of the per-fold differences against the control (Menzies' lecture notes), not of "
        "the values",
    )
    report.add_argument(
        "--scott-knott",
        choices=GROUPINGS,
        help="Scott-Knott variant of the quartile charts' rank column: esd (ScottKnott-ESD 2.x, "
        "Tantithamthavorn et al. 2019; default), esd-v1 (ScottKnott-ESD 1.x, 2017), np (ScottKnott-ESD 3.0 "
        "non-parametric: medians, Kruskal-Wallis, Cliff's delta) or a12 (Menzies' group: bootstrap test "
        "and A12 effect size)",
    )
    report.add_argument(
        "--view",
        choices=(*registry.names(), "all"),
        help="what to print (default: the view a --spec names, else all)",
    )
    report.add_argument(
        "--format",
        choices=(*FORMATS, *FIGURE_FORMATS),
        default="text",
        help="output format (default text); svg, pdf and png draw one view as a figure for a paper (needs "
        'matplotlib: pip install "rankboard[figures]")',
    )
    report.add_argument("--ascii", action="store_true", help="draw the CD diagram with ASCII characters")
    report.add_argument("--standalone", action="store_true", help="LaTeX: a whole document with its preamble")
    report.add_argument(
        "--width",
        type=float,
        metavar="N",
        help="text: fit names (what all share dropped, cut in the middle, kept distinct) and wide tables to N "
        "columns (default: the terminal's, or COLUMNS, when printing to one; to a file or a pipe, and with 0: "
        "whole names); a figure: its width in inches (default --size double)",
    )
    report.add_argument(
        "--size",
        choices=tuple(FIGURE_SIZES),
        help="a figure's width: one journal column (3.5 in) or two (7.16 in, the default)",
    )
    report.add_argument("--dpi", type=int, help="a PNG figure's resolution in dots per inch (default 300)")
    report.add_argument(
        "--pair",
        metavar="LEARNER",
        help="--view folds as a figure: the posterior simplex of the Bayesian signed-rank test of the control "
        "against LEARNER (Benavoli et al. 2017), instead of every learner's per-data-set probabilities",
    )
    report.add_argument(
        "--raw-csv",
        action="store_true",
        help="CSV: write cells a spreadsheet would evaluate (=, +, -, @) as they are, for programs "
        "(by default they get a leading ' so that a spreadsheet shows them as text)",
    )
    report.add_argument(
        "--spec",
        metavar="FILE",
        help="a view spec saved by the app (s): its selection, and its logs unless PATHS are given; options given "
        "here win",
    )
    report.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE (atomically) instead of stdout; an existing FILE or a symbolic link is refused "
        "without --force",
    )
    report.add_argument(
        "--force",
        action="store_true",
        help="with -o: replace an existing FILE (keeping its mode); through a symbolic link, replace the file "
        "it points to (the link stays)",
    )
    report.add_argument("--memory", metavar="SIZE", help=MEMORY_HELP)
    check = sub.add_parser(
        "check",
        help="lint logs: every problem as file:line: reason, then a summary; exit 1 on any error",
        description="Read the logs, print each problem found as file:line: reason (warnings say so), "
        "then a summary: lines, data sets, learners, criteria, repeats x folds per data set and "
        "learner, and the incomplete cells. Exits 1 when there is an error, 0 otherwise.",
    )
    check.add_argument("paths", nargs="+", metavar="PATHS", help="logs to check")
    check.add_argument("--memory", metavar="SIZE", help=MEMORY_HELP)
    convert = sub.add_parser(
        "convert",
        help="read the logs once and write their tidy long table as Parquet or Arrow (Feather)",
        description="Read the logs (text, gzip, Parquet or Arrow) and write the tidy long table "
        "(dataset, repeat, fold, learner, criterion, value; duplicates resolved) to FILE, atomically, "
        "as Parquet or Arrow IPC (Feather v2): every rankboard command and the app read it back without "
        "parsing text. Problems go to stderr; logs with errors are not converted (exit 1).",
    )
    convert.add_argument("paths", nargs="+", metavar="PATHS", help="logs to convert")
    convert.add_argument("-o", "--output", metavar="FILE", required=True, help="the file to write")
    convert.add_argument(
        "--format",
        choices=("parquet", "feather"),
        help="the file's format (default: from FILE's suffix: .parquet/.pq, or .feather/.arrow/.ipc)",
    )
    convert.add_argument("--force", action="store_true", help="replace an existing FILE (as report -o --force)")
    _add_aggregate(sub)
    return parser


def _add_aggregate(sub: Any) -> None:
    """``rankboard aggregate``: the grouped median on DuckDB, Dask or Spark (tui.engines)."""
    aggregate = sub.add_parser(
        "aggregate",
        help="hand the grouped median to DuckDB, Dask or Spark; write it as Parquet for rankboard to open",
        description="The exact median of value per criterion, data set and learner over all repeats and folds, "
        "computed by an engine (duckdb: one node, out of core; dask, spark: a cluster), in the logs' order of first "
        "appearance, written atomically as a long-format Parquet file (repeat 1, fold 1 per cell): rankboard report "
        "on it prints the ranks, tests, pairs and CD views of the whole logs. Text logs (long format, .dat, .dat.gz) "
        "and long Parquet tables; a line the engine will not read makes it fail, naming it (rankboard check names "
        'every problem). Each engine is an extra: pip install "rankboard[duckdb]" (or [dask], [spark]).',
    )
    aggregate.add_argument("paths", nargs="+", metavar="PATHS", help="logs (files, directories, globs)")
    aggregate.add_argument("--engine", required=True, choices=("duckdb", "dask", "spark"), help="the engine")
    aggregate.add_argument("-o", "--output", metavar="FILE", required=True, help="the Parquet file to write")
    aggregate.add_argument("--force", action="store_true", help="replace an existing FILE (as report -o --force)")
    aggregate.add_argument(
        "--scheduler", metavar="ADDRESS", help="dask: a distributed scheduler (default: the threads of this machine)"
    )
    aggregate.add_argument("--master", metavar="URL", help="spark: the master (default: local[*])")


def say(*parts: object, file: TextIO | None = None) -> None:
    """``print``, with control characters and bidi overrides escaped: messages quote file and
    learner names from untrusted logs (stats.core.names)."""
    print(printable_lines(" ".join(map(str, parts))), file=file or sys.stdout)


def _load(paths: list[str]) -> tuple[LogRead, list[LogProblem]]:
    from stats import read_logs

    log = read_logs(*paths, on_error="skip")
    return log, list(log.problems)


def _bounded(paths: list[str], memory: str | None) -> Any:
    """The logs aggregated by blocks (``stats.aggregate_logs``) when they exceed the memory
    budget (said on stderr), else None."""
    from tui.memory import bounded_mode, bounded_note

    over, budget, size = bounded_mode(paths, memory)
    if not over:
        return None
    from stats import aggregate_logs

    say(f"rankboard: {bounded_note(budget, size)}", file=sys.stderr)
    return aggregate_logs(*paths, memory=budget)


def run_check(paths: list[str], memory: str | None = None) -> int:
    """``rankboard check``: without pandas (``stats.check_logs``), unless the logs exceed the
    memory budget (then ``stats.aggregate_logs``)."""
    from stats import check_logs

    bounded = _bounded(paths, memory)
    if bounded is not None:
        return _say_check(bounded.files, list(bounded.problems), bounded.completeness if bounded.lines else None)
    found = check_logs(*paths)
    return _say_check(found.files, list(found.problems), found)


def _say_check(files: Any, problems: list[LogProblem], found: Any) -> int:
    """Print the problems, the counts and ``found.summary()`` (when it is not None)."""
    from tui.problems import format_problem

    for problem in problems:
        say(format_problem(problem))
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if problems:
        say()
    say(f"{len(files)} file(s), {errors} error(s), {warnings} warning(s)")
    summary = found.summary() if found is not None else None
    if summary is not None:
        say(summary)
    return 1 if errors else 0


def _report_spec(args: argparse.Namespace, model: Model, saved: dict[str, object]) -> dict[str, object]:
    """The view spec of a report: the defaults, then ``saved`` (the ``--spec`` file's), then the options given."""
    spec = dict(saved)
    if args.criterion:
        spec["criterion"] = args.criterion
    base = model.default_selection(spec.get("criterion"))  # type: ignore[arg-type]
    spec.setdefault("criterion", base.criterion)
    if spec.get("criterion") != base.criterion or "datasets" not in spec:
        spec.setdefault("datasets", list(base.datasets))
    spec.setdefault("learners", list(base.learners))
    for key in (
        "datasets",
        "learners",
        "control",
        "alpha",
        "test",
        "procedure",
        "direction",
        "rope",
        "deltas",
        "scott_knott",
    ):
        value = getattr(args, key)
        if value is not None:
            spec[key] = value
    return spec


def _say_problems(problems: list[LogProblem]) -> int:
    """Print each problem on stderr as ``rankboard check`` names it; the number of errors."""
    from tui.problems import format_problem

    for problem in problems:
        say(format_problem(problem), file=sys.stderr)
    return sum(p.severity == "error" for p in problems)


def _report_model(paths: list[str], args: argparse.Namespace) -> Model | None:
    """The view model of the logs' good lines, their problems said on stderr; None (said) when
    ``--strict`` refuses the logs' errors or no result is left."""
    bounded = _bounded(paths, args.memory)
    log, problems = (None, list(bounded.problems)) if bounded is not None else _load(paths)
    errors = _say_problems(problems)
    if errors and args.strict:
        say("rankboard: the logs have errors (see above); fix them or run `rankboard check`", file=sys.stderr)
        return None
    if bounded.table.empty if bounded is not None else log.empty:
        say("rankboard: the logs hold no results" + (" (their errors are above)" if errors else ""), file=sys.stderr)
        return None
    if errors:
        say(
            f"rankboard: {errors} error(s) above: the report is made of the other lines (--strict refuses such logs)",
            file=sys.stderr,
        )
    from tui.model import Model

    return Model.from_aggregate(bounded.table) if bounded is not None else Model(log)


def run_report(args: argparse.Namespace) -> int:
    from tui.output import OutputRefused, check_output, write_output  # no pandas: a refusal comes at once

    if args.force and not args.output:
        say("rankboard: --force applies to -o FILE only; give -o FILE or drop --force", file=sys.stderr)
        return 2
    try:
        _check_figure_options(args)
    except ValueError as exc:
        say(f"rankboard: {exc}", file=sys.stderr)
        return 2
    if args.output:
        try:
            check_output(args.output, force=args.force)  # before the work, not only after it
        except OutputRefused as exc:
            say(f"rankboard: {exc}", file=sys.stderr)
            return 1
    from tui.model import load_spec, selection_from_spec, spec_logs, spec_view

    saved: dict[str, object] = {}
    if args.spec:  # read before the logs: a bad spec, or its logs missing, is said at once
        try:
            saved = dict(load_spec(args.spec))
        except ValueError as exc:
            say(f"rankboard: {exc}", file=sys.stderr)
            return 2
    # the logs given, else the spec's (relative to its folder), else the bundled ones; a spec's
    # missing log raises FileNotFoundError (said by main, exit 1, as a missing spec file)
    paths = args.paths or (spec_logs(saved, args.spec) if args.spec else None) or [str(bundled_cv())]
    model = _report_model(paths, args)
    if model is None:
        return 1
    from tui.render import render_report

    try:
        spec = _report_spec(args, model, saved)
        selection = selection_from_spec(model, spec)
        if args.format in FIGURE_FORMATS:
            return _report_figure(args, model, selection, spec_view(spec))
        text = render_report(
            model,
            selection,
            view=args.view or spec_view(spec) or "all",
            fmt=args.format,
            ascii=args.ascii,
            source=", ".join(paths),
            standalone=args.standalone,
            raw_csv=args.raw_csv,
            width=_report_width(args),
        )
    except ValueError as exc:
        say(f"rankboard: {exc}", file=sys.stderr)
        return 2
    if args.output:
        try:
            say(f"rankboard: {write_output(text, args.output, force=args.force)}", file=sys.stderr)
        except OutputRefused as exc:
            say(f"rankboard: {exc}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


def _report_width(args: argparse.Namespace) -> int | None:
    """The columns a text report fits its names and tables to: ``--width`` (0: none), else the
    terminal's when printing to one (COLUMNS overrides it), else none (a file or a pipe keeps whole
    names, as the exports do)."""
    if args.width is not None:
        if args.width != int(args.width) or args.width < 0:
            raise ValueError(f"--width of a text report is a whole number of columns, got {args.width:g}")
        return int(args.width) if args.width > 0 else None
    if args.output or not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def _check_figure_options(args: argparse.Namespace) -> None:
    """Options that cannot work, refused before the logs are read (``ValueError``): --size, --dpi and
    --pair with a format that is not a figure, ``--view all`` as a figure, a binary figure to a terminal."""
    given = [f"--{name}" for name in ("size", "dpi", "pair") if getattr(args, name) is not None]
    if given and args.format not in FIGURE_FORMATS:
        raise ValueError(f"{', '.join(given)} apply to figures: add --format {'|'.join(FIGURE_FORMATS)}")
    if args.format in FIGURE_FORMATS and args.view == "all":
        drawn = "|".join(v.name for v in registry.views() if v.figure is not None)
        raise ValueError(f"a figure shows one view: --view {drawn}")
    if args.format in ("pdf", "png") and not args.output and sys.stdout.isatty():
        raise ValueError(f"a {args.format.upper()} figure is binary: write it with -o FILE")


def _report_figure(args: argparse.Namespace, model: Model, selection: Selection, saved_view: str | None) -> int:
    """``report --format svg|pdf|png``: one view as a figure, to ``-o FILE`` or to stdout when
    that is not a terminal (PDF and PNG are binary). Exit 0, or 1 when the output is refused."""
    from tui.formats.figure import FigureOptions, FiguresUnavailable, width_inches
    from tui.output import OutputRefused, write_output
    from tui.render import figure_views, render_figure

    view = args.view or (saved_view if saved_view in figure_views() else None)
    options = FigureOptions(
        fmt=args.format,
        width=width_inches(args.size, args.width),
        dpi=300 if args.dpi is None else args.dpi,
        pair=args.pair,
    )
    try:
        data = render_figure(model, selection, view, options)
    except FiguresUnavailable as exc:
        say(f"rankboard: {exc}", file=sys.stderr)
        return 1
    if not args.output:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        say(f"rankboard: {write_output(lambda h: h.write(data), args.output, force=args.force)}", file=sys.stderr)
    except OutputRefused as exc:
        say(f"rankboard: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    from tui.numpy_tools import defer_numpy_tools

    defer_numpy_tools()  # (issue 32: 0.1 s of each start that imports scipy)
    from tui.atomic import remove_pending
    from tui.memory import remove_spills
    from tui.signals import install

    install(remove_spills, remove_pending)  # SIGTERM, SIGHUP, SIGINT: no spill folder or temporary file left
    if not argv or argv[0] not in SUBCOMMANDS:
        return run_app(argv)
    args = build_parser().parse_args(argv)
    try:
        if args.command == "convert":
            from tui.convert import run_convert

            return run_convert(args.paths, args.output, args.format, args.force)
        if args.command == "aggregate":
            from tui.engines import run_aggregate

            return run_aggregate(
                args.paths,
                args.engine,
                args.output,
                force=args.force,
                scheduler=args.scheduler,
                master=args.master,
                say=lambda text: say(text, file=sys.stderr),
            )
        return run_check(args.paths, args.memory) if args.command == "check" else run_report(args)
    except BrokenPipeError:  # `rankboard check d | head`: the reader has gone; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except _log_error() as exc:  # pragma: no cover - on_error="skip" reports instead of raising
        say(f"rankboard: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        say(f"rankboard: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1


def _log_error() -> type[Exception]:
    """``stats.LogError``, imported only when an exception is being matched."""
    from stats import LogError

    return LogError
