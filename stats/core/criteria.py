"""Which criterion lines of a log are criteria, and which are bookkeeping: the one rule.

A long-format log (``dataset,repeat,fold,learner,criterion,value``, Menzies' notes) has one
column for every number a unit writes. Most are criteria -- measurements of a learner that
can be ranked (pd, pf, accuracy, runtime). A sequence study (Menzies' lecture notes,
"Incremental M*N-way"; :func:`stats.run_sequence`) also writes a ``train`` line per unit: the
number of training instances. That number is the *x* axis of the learning curve, the same
for every learner at a fold; ranking learners by it is meaningless ("train higher-better").

So the lists of criteria -- the app's sidebar, the report's ``--criterion``, the count of
``rankboard check`` -- leave out :data:`BOOKKEEPING` names (:func:`measured_criteria`),
and the learning-curve view reads them (:data:`TRAINING_SIZE`). The rule goes by name only:
``train`` is the name :func:`stats.run_sequence` writes, and a log whose ``train`` lines meant
something else would be read as a sequence study by the learning curves anyway. This module
imports nothing, so that ``rankboard check`` (no pandas) and every reader can use it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["BOOKKEEPING", "TRAINING_SIZE", "bookkeeping_criteria", "is_bookkeeping", "measured_criteria"]

#: The criterion line of a sequence study that holds a unit's training size (stats.run_sequence).
TRAINING_SIZE = "train"

#: Criterion names that describe a unit rather than measure a learner: not offered as criteria.
BOOKKEEPING = frozenset({TRAINING_SIZE})


def is_bookkeeping(name: object) -> bool:
    """Whether the criterion ``name`` is bookkeeping (a training size), not a measurement.

    >>> is_bookkeeping("train"), is_bookkeeping("accuracy"), is_bookkeeping("train_accuracy")
    (True, False, False)
    """
    return str(name) in BOOKKEEPING


def measured_criteria(names: Iterable[object]) -> tuple[str, ...]:
    """The names that are criteria (measurements), in their order: ``names`` without bookkeeping.

    >>> measured_criteria(["pd", "pf", "train", "runtime"])
    ('pd', 'pf', 'runtime')
    """
    return tuple(str(n) for n in names if not is_bookkeeping(n))


def bookkeeping_criteria(names: Iterable[object]) -> tuple[str, ...]:
    """The bookkeeping names among ``names``, in their order (what :func:`measured_criteria` leaves out).

    >>> bookkeeping_criteria(["pd", "train", "runtime"])
    ('train',)
    """
    return tuple(str(n) for n in names if is_bookkeeping(n))
