"""View 1, the quartiles: per scope (overall, then each data set) every learner's five-number summary
as the quartile chart of Menzies' notes on comparing learners, ranked by Scott-Knott groups
(ScottKnott-ESD, Tantithamthavorn et al. 2017/2019; or Menzies' A12 variant); with ``deltas``, the
charts of the per-fold differences against the control (Menzies' lecture notes).

Declared in :mod:`tui.registry`; the files follow its convention (``part``, ``text``,
``markdown``, ``latex``, ``json``, ``export``, ``panel``)."""
