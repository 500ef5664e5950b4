"""The choices the ``rankboard`` command offers, defined where nothing heavy is imported: the
argument parser (``--help``, argument errors) needs them before numpy, pandas or scipy load. (The
views are the registry's: :mod:`tui.registry`.)"""

#: Scott-Knott variants of the quartile charts' ranks (``--scott-knott``, ``g`` in the app, the
#: view spec's ``scott_knott``; ``stats.scott_knott``'s methods): ScottKnott-ESD 2.x (the default;
#: Tantithamthavorn et al., IEEE TSE 2019), 1.x (TSE 2017), 3.0's non-parametric form, and the
#: A12 variant of Menzies' group.
GROUPINGS = ("esd", "esd-v1", "np", "a12")

#: Output formats of ``rankboard report`` (``--format``).
FORMATS = ("text", "csv", "markdown", "latex", "json")
#: Figure formats of ``rankboard report --format`` and the app's export (matplotlib, optional).
FIGURE_FORMATS = ("svg", "pdf", "png")
#: Figure widths in inches: one journal column (89 mm) and two (183 mm), as Elsevier, Springer and
#: IEEE ask for (IEEE: 3.5 and 7.16 in).
FIGURE_SIZES = {"single": 3.5, "double": 7.16}

#: Criteria where smaller is better unless the user says otherwise (a name equal
#: to one of these or ending with it: "pf", "runtime", "test_error", "mmre").
LOWER_IS_BETTER = ("pf", "runtime", "error", "mre", "mmre")

#: All-pairs procedures of the pairs matrix, the verdict, the CD bars and the letters (``m`` in
#: the app, ``--procedure``): ``stats.pairwise_test``'s rank procedures, then the two-sample
#: procedures of ``stats.pairwise_wilcoxon`` (each pair's Wilcoxon or sign test, Holm-adjusted).
PROCEDURES = ("nemenyi", "holm", "shaffer", "bergmann", "wilcoxon-holm", "sign-holm")
