"""Conclusions: the verdict and the groups of learners not significantly different.

* :mod:`stats.groupings.verdicts`: the verdict (no difference, or winners and losers).
* :mod:`stats.groupings.groups`: the bars of a critical-difference diagram (by CD or by APVs).
* :mod:`stats.groupings.letters`: the compact letter display.
* :mod:`stats.groupings.scott_knott`: Scott-Knott ranks (ScottKnott-ESD 2.x, 1.x, 3.0's
  non-parametric form, Menzies' A12 variant; the ESD partitions: :mod:`stats.groupings._scott_knott_esd`).
* :mod:`stats.groupings.scott_knott_many`: the ranks of many charts at once (the quartile view's).
* :mod:`stats.groupings.stability` and :mod:`stats.groupings.fragility`: does each conclusion hold
  without one data set or learner, and how few data sets reverse it (what removal does to each
  decision: :mod:`stats.groupings._removal`).

Nothing else in :mod:`stats` imports from here; the public names are :mod:`stats`'.
"""
