"""What an exercise declares of each output of its entry function (``[[outputs]]`` in
exercise.toml): the name messages call it by, how a batched call's output relates to the
results of its single examples, and its own tolerance and dtype rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from graders.cases import OutputBatchAxis
from graders.checks.tolerance import Tolerance


class BatchRule(Enum):
    """How a batched case's output is built from the outputs of its single examples."""

    STACK = "stack"
    """Stacked along the case's output batch axis (``output_batch_axis``): the default."""
    STACK_OVER_N = "stack/n"
    """Stacked, then divided by the batch size: the gradient of a mean over the batch."""
    MEAN = "mean"
    """The mean over the batch (a mean loss)."""
    SUM = "sum"
    """The sum over the batch (a summed loss, a parameter's gradient)."""
    SHARED = "shared"
    """No batch axis: every example gives the same value (the first one's is compared)."""

    @property
    def reduces(self) -> bool:
        """Whether the batched output has no batch axis to name in a shape message."""
        return self in (BatchRule.MEAN, BatchRule.SUM, BatchRule.SHARED)


class DtypeRule(Enum):
    """Which dtypes of an output array are right."""

    EXACT = "exact"
    """Only the reference's own dtype: the default."""
    KIND = "kind"
    """Any dtype of the reference's kind: any integer for an integer array (int32 or int64
    indices), any float for a float array, bool for bool."""


@dataclass(frozen=True)
class OutputSpec:
    """One declared output of the entry function."""

    name: str
    batch: BatchRule = BatchRule.STACK
    rtol: float | None = None
    """Overrides every case's ``rtol`` for this output when set."""
    atol: float | None = None
    """Overrides every case's ``atol`` for this output when set."""
    dtype: DtypeRule = DtypeRule.EXACT
    attribute: bool = False
    """A scenario's state step: an object's attribute, not what a call returned."""

    def tolerance(self, case: Tolerance) -> Tolerance:
        """This output's tolerance in a case whose own tolerance is ``case``."""
        return Tolerance(
            case.rtol if self.rtol is None else self.rtol,
            case.atol if self.atol is None else self.atol,
        )


def output_batch_axis(
    axis: OutputBatchAxis, outputs: Sequence[OutputSpec]
) -> OutputBatchAxis | None:
    """A batched case's output batch axis, ``None`` where a declared output has none (reduced
    over the batch, or shared): one per element of a tuple output."""
    if len(outputs) == 1:
        return None if outputs[0].batch.reduces or isinstance(axis, tuple) else axis
    if not outputs:
        return axis
    axes = axis if isinstance(axis, tuple) else (axis,) * len(outputs)
    return tuple(
        None if spec.batch.reduces else each for spec, each in zip(outputs, axes, strict=False)
    )


def loosest(case: Tolerance, outputs: Sequence[OutputSpec]) -> Tolerance:
    """One tolerance for a whole output, as matching it against known mistakes needs (their
    outputs are compared as one vector): the loosest of the case's and the outputs' own, so
    that a learner is not told apart from a mistake by less than an output's tolerance."""
    tolerances = [case, *(spec.tolerance(case) for spec in outputs)]
    return Tolerance(max(t.rtol for t in tolerances), max(t.atol for t in tolerances))
