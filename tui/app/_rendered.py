"""What the quartiles and ranks panels draw for one analysis, built once and only when needed."""

from __future__ import annotations

from dataclasses import dataclass

from tui.app.widgets import QuartileLines, RanksRows, quartile_lines, ranks_rows
from tui.view import Analysis


@dataclass
class Rendered:
    """The panels' render data for one analysis, built lazily: for the view on screen in the
    analysis worker (off the event loop), for another view when it is first shown."""

    analysis: Analysis
    quartiles: QuartileLines | None = None
    ranks: RanksRows | None = None
    has_ranks: bool = False

    def build(self, view: str, previous: Rendered | None = None, width: int | None = None) -> Rendered:
        """Build the render data of ``view`` if it is not built (reusing ``previous``'s when the same).

        ``width``: the cells the quartile chart is fitted to.
        """
        analysis = self.analysis
        if view == "quartiles" and self.quartiles is None:
            old = previous.quartiles if previous is not None else None
            if old is not None and old.view is analysis.quartiles and old.fit == width:
                self.quartiles = old
            else:
                self.quartiles = quartile_lines(analysis.quartiles, width)
        elif view == "ranks" and not self.has_ranks:
            if previous is not None and previous.has_ranks and previous.analysis.ranks is analysis.ranks:
                self.ranks = previous.ranks
            else:
                self.ranks = ranks_rows(analysis.ranks)
            self.has_ranks = True
        return self
