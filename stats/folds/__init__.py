"""Comparisons on the fold-level results of a log (issue 14).

* :mod:`stats.folds.ttests`: two learners on one data set: the corrected resampled t-test and
  the Bayesian correlated t-test.
* :mod:`stats.folds.signed_rank`: the Bayesian signed-rank test across data sets
  (:func:`stats.bayes_signed_rank`) and its Monte Carlo counts; the engine (Dirichlet weights,
  sorted steps, bounds) is :mod:`stats.folds._signed_rank_engine`, the draws
  :mod:`stats.folds._dirichlet`, every learner at once in a thread pool
  :mod:`stats.folds._signed_rank_jobs`.
* :mod:`stats.folds.cube`: the fold cube (data set x learner x (repeat, fold)) and its pairing
  with a control.
* :mod:`stats.folds.comparisons`: every learner against a control, per data set and across
  (:func:`stats.fold_comparison`); what it returns: :mod:`stats.folds.results`.
* :mod:`stats.folds.deltas`: each learner's per-fold differences against a control.

Nothing else in :mod:`stats` imports from here; the public names are :mod:`stats`'.
"""
