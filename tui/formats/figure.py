"""What every figure shares: matplotlib on demand, publication defaults, label layout and
deterministic bytes (``rankboard report --format svg|pdf|png``; the app's ``e``).

matplotlib is an optional extra (``pip install "rankboard[figures]"``): it is imported by
:func:`matplotlib_figure` only, and its absence is a :class:`FiguresUnavailable` that says how to
get it. Figures are made with :class:`matplotlib.figure.Figure` directly (never ``pyplot``: no
global state, no GUI backend, safe in the app's worker threads).

The defaults follow what journals ask for:

- text stays text: SVG writes ``<text>`` elements (``svg.fonttype: none``) and PDF embeds TrueType
  fonts (``pdf.fonttype: 42``), so a figure's words can be searched and edited;
- colour is never alone: the Okabe & Ito (2008) colour-blind-safe palette, each colour paired with
  a hatch (:data:`HATCHES`) or a marker (:data:`MARKERS`) that survives greyscale printing;
- one or two journal columns wide (:data:`SIZES`, in inches) or ``--width`` inches;
- the same input gives the same bytes: no date in the metadata, a fixed SVG id salt.

Names come from logs and are untrusted: :func:`label` escapes control characters and bidi
overrides and turns off mathtext, so ``$\\frac{1}{0}$`` in a learner's name is printed as written.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from stats.core.names import printable
from tui.choices import FIGURE_FORMATS
from tui.choices import FIGURE_SIZES as SIZES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Okabe & Ito (2008), "Color universal design": distinguishable under every common colour-vision
#: deficiency. Black first (the control, the axis), then the seven colours.
PALETTE = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
#: Hatches paired with the palette's colours, so that fills differ in greyscale too.
HATCHES = ("", "////", "\\\\\\\\", "xxxx", "....", "||||", "----", "++++")
#: Markers paired with the palette's colours, for lines and points.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

#: matplotlib settings of every figure (applied with ``rc_context`` around its making and saving).
RC: dict[str, Any] = {
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "font.size": 7.0,
    "axes.titlesize": 8.0,
    "axes.labelsize": 7.0,
    "xtick.labelsize": 6.5,
    "ytick.labelsize": 6.5,
    "legend.fontsize": 6.5,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.0,
    "hatch.linewidth": 0.5,
    "svg.fonttype": "none",  # text as <text>, not paths
    "svg.hashsalt": "rankboard",  # the ids of clip paths and hatches: the same on every run
    "pdf.fonttype": 42,  # TrueType fonts embedded: text that can be selected and searched
    "pdf.compression": 6,
    "text.usetex": False,
    "figure.dpi": 100,
    "savefig.dpi": 300,
    "savefig.bbox": None,  # the size asked for, not a size that depends on the text's extent
}

#: Metadata that would make two runs differ (dates) or leak the machine, removed in each format.
_METADATA: dict[str, dict[str, Any]] = {
    "svg": {"Date": None, "Creator": "rankboard"},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": "rankboard", "Producer": "rankboard"},
    "png": {"Software": "rankboard"},
}


class FiguresUnavailable(RuntimeError):
    """matplotlib is not installed: figures need the ``figures`` extra."""


@dataclass(frozen=True)
class FigureOptions:
    """How a figure is drawn besides the analysis: its format, width (inches), PNG resolution and,
    for the folds view, the learner whose posterior simplex is drawn against the control."""

    fmt: str = "svg"
    width: float = SIZES["double"]
    dpi: int = 300
    pair: str | None = None

    def __post_init__(self) -> None:
        if self.fmt not in FIGURE_FORMATS:
            raise ValueError(f"figure format must be one of {', '.join(FIGURE_FORMATS)}, got {self.fmt!r}")
        if not 1.0 <= self.width <= 20.0:
            raise ValueError(f"--width of a figure is in inches, from 1 to 20; got {self.width:g}")
        if not 30 <= self.dpi <= 2400:
            raise ValueError(f"--dpi must be from 30 to 2400, got {self.dpi}")


def width_inches(size: str | None, width: float | None) -> float:
    """The figure's width: ``width`` inches when given, else the journal ``size`` (single or double
    column; default double)."""
    if width is not None:
        return float(width)
    if size is None:
        return SIZES["double"]
    if size not in SIZES:
        raise ValueError(f"--size must be one of {', '.join(SIZES)}, got {size!r}")
    return SIZES[size]


def matplotlib_figure(width: float, height: float) -> Figure:
    """A new figure of ``width`` x ``height`` inches (no pyplot, the Agg canvas); raises
    :class:`FiguresUnavailable` with the command that installs matplotlib when it is missing."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise FiguresUnavailable(
            'figures need matplotlib: pip install "rankboard[figures]" (or pip install matplotlib)'
        ) from None
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure


def rc() -> Any:
    """The context in which figures are made and saved (:data:`RC`)."""
    try:
        import matplotlib
    except ImportError:
        raise FiguresUnavailable(
            'figures need matplotlib: pip install "rankboard[figures]" (or pip install matplotlib)'
        ) from None
    return matplotlib.rc_context(cast(Any, RC))  # (the stubs list every key: a dict of them is Any)


def figure_bytes(figure: Figure, fmt: str, dpi: int = 300) -> bytes:
    """The figure as ``fmt`` (svg, pdf or png), the same bytes for the same figure on every run."""
    if fmt not in FIGURE_FORMATS:
        raise ValueError(f"figure format must be one of {', '.join(FIGURE_FORMATS)}, got {fmt!r}")
    out = io.BytesIO()
    with rc():
        figure.savefig(out, format=fmt, dpi=dpi, metadata=_METADATA[fmt])
    return out.getvalue()


def label(name: object) -> str:
    """A log's name as figure text: control characters and bidi overrides escaped
    (:func:`stats.core.names.printable`). Pass it with ``parse_math=False`` (see :func:`text_kw`)."""
    return printable(name)


#: Keyword arguments of every text drawn from a log's names: no mathtext, no TeX.
TEXT_KW: dict[str, Any] = {"parse_math": False, "usetex": False}


def spread(positions: Sequence[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label positions as close as possible to ``positions`` (in order, sorted ascending) with
    at least ``gap`` between neighbours, within ``[lo, hi]``: the least-squares layout with that
    constraint (pool adjacent violators on the positions less ``i * gap``, Barlow et al. 1972).

    When ``len(positions)`` labels cannot fit (``(n - 1) * gap > hi - lo``) they are spaced
    evenly over ``[lo, hi]``; the caller cuts the names shorter (smaller font, middle ellipsis).
    """
    n = len(positions)
    if n == 0:
        return []
    if (n - 1) * gap >= hi - lo:
        step = (hi - lo) / (n - 1) if n > 1 else 0.0
        return [lo + i * step for i in range(n)]
    # y_i = x_i - i * gap must be non-decreasing: isotonic regression by pooling adjacent violators
    shifted = [p - i * gap for i, p in enumerate(positions)]
    blocks: list[list[float]] = []  # [sum, count]
    for value in shifted:
        blocks.append([value, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    fitted: list[float] = []
    for total, count in blocks:
        fitted.extend([total / count] * int(count))
    # within the bounds: the first at lo or more, the last at hi - (n - 1) * gap or less
    top = hi - (n - 1) * gap
    fitted = [min(max(y, lo), top) for y in fitted]
    return [y + i * gap for i, y in enumerate(fitted)]


# -- text measured in inches, wrapped, one Text per line ------------------------------------------

#: Text widths are the glyphs' outlines and this much more: a PNG's hinted glyphs are wider by up
#: to 8% at 100 to 150 dpi, and a viewer may stand in a wider font.
HINTING = 1.09
_BREAK = re.compile(r"[^-_=,;/. ]*[-_=,;/. ]?")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Inches that ``text`` takes at ``size`` points in the figures' font (no mathtext): the sum
    of its glyphs' advances (no kerning, which only narrows) and :data:`HINTING` more."""
    return HINTING * size * sum(_advance(c, bold) for c in text) / 72.0


@functools.lru_cache(maxsize=8192)
def _advance(char: str, bold: bool) -> float:
    """The advance of ``char`` at 1 point, in points (measured once at 100 points: outlines scale
    linearly)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    prop = FontProperties(family=RC["font.family"], size=100.0, weight="bold" if bold else "normal")
    width, _, _ = text_to_path.get_text_width_height_descent(char, prop, ismath=False)
    return float(width) / 100.0


def line_height(size: float) -> float:
    """Inches between the baselines of two lines of ``size`` points."""
    return 1.25 * size / 72.0


def wrap(text: str, width: float, size: float, *, lines: int | None = None, words: bool = True) -> list[str]:
    """``text`` in lines no wider than ``width`` inches at ``size`` points: broken at spaces
    (``words=False``: also after ``-``, ``_``, ``=``, ``,``, ``;``, ``/``, ``.``, the joints of
    a sweep's names), and within a piece where it alone is too wide; beyond ``lines`` lines the
    middle is cut (``…``) so that the beginning and the end stay."""
    pieces = text.split(" ") if words else [p for p in _BREAK.findall(text) if p]
    if words:
        pieces = [p + " " for p in pieces[:-1]] + pieces[-1:]
    out: list[str] = []
    for piece in pieces:
        if out and text_width((out[-1] + piece).rstrip(), size) <= width:
            out[-1] += piece
            continue
        while len(piece) > 1 and text_width(piece.rstrip(), size) > width:  # a piece too wide alone
            cut = max([1] + [k for k in range(2, len(piece)) if text_width(piece[:k], size) <= width])
            out.append(piece[:cut])
            piece = piece[cut:]
        out.append(piece)
    out = [line.rstrip() for line in out if line.strip()] or [""]
    if lines is not None and len(out) > lines:
        out = out[: lines - 1] + [cut_middle("".join(out[lines - 1 :]), width, size)]
    return out


def cut_middle(text: str, width: float, size: float) -> str:
    """``text`` when it fits ``width`` inches, else its beginning and end around ``…``
    (:func:`tui.formats.names.middle_ellipsis`, as the tables cut names)."""
    from tui.formats.names import middle_ellipsis

    chars = len(text)
    while chars > 2 and text_width(middle_ellipsis(text, chars), size) > width:
        chars -= 1
    return middle_ellipsis(text, chars)


def put_lines(figure: Any, x: float, y: float, lines: Sequence[str], size: float, gid: str, **kw: Any) -> None:
    """``lines`` at ``x`` inches from the figure's left, the first line's baseline ``y`` inches from
    its top, the next ones below; one Text per line (gids ``<gid>``, then ``<gid>.<k>``), so that
    each is a ``<text>`` with its anchor point in an SVG."""
    width, height = figure.get_size_inches()
    for k, line in enumerate(lines):
        figure.text(
            x / width,
            1 - (y + k * line_height(size)) / height,
            line,
            fontsize=size,
            va="baseline",
            gid=gid if k == 0 else f"{gid}.{k}",
            **kw,
            **TEXT_KW,
        )
