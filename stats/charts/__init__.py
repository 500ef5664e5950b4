"""Charts: quartile summaries and text quartile charts, and learning curves.

* :mod:`stats.charts.quartiles`: quartile summaries and charts on one shared axis.
* :mod:`stats.charts.learning_curves`: learning curves and where they stop improving (plateau).

Nothing else in :mod:`stats` imports from here; the public names are :mod:`stats`'.
"""
