"""Single examples' outputs combined as the batched output should be, and compared with it.

The batch-consistency check (graders/grading/grade.py) runs a batched case's single examples
too: stacked along the output's batch axis (or reduced over the batch, as the declared outputs
say: graders/checks/outputs.py), their outputs must be the batched call's. The mutation score
(graders/authoring/mutation_score.py) counts a mutant this check catches the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graders.cases import OutputBatchAxis
from graders.checks.compare import CheckResult, Tolerance, compare
from graders.checks.outputs import BatchRule, OutputSpec, output_batch_axis

UNCOMBINABLE = (ValueError, TypeError, IndexError)
"""What combining outputs of disagreeing shapes or kinds raises."""


def compare_batched(
    singles: Sequence[Any],
    batched: Any,
    axis: OutputBatchAxis,
    tolerance: Tolerance,
    declared: Sequence[OutputSpec] = (),
    batches_of_one: bool = False,
) -> CheckResult:
    """The single examples' outputs, combined as the ``declared`` outputs say, compared with
    the batched output. Raises one of ``UNCOMBINABLE`` when they cannot be combined."""
    # Arithmetic on the learner's numbers (a mean, a sum) may overflow: a difference the
    # comparison tells, not a warning of the grader's.
    with np.errstate(all="ignore"):
        combined = stack_outputs(
            singles, axis, tuple(spec.batch for spec in declared), batches_of_one
        )
    return compare(combined, batched, tolerance, output_batch_axis(axis, declared), declared)


def consistent(
    singles: Sequence[Any],
    batched: Any,
    axis: OutputBatchAxis,
    tolerance: Tolerance,
    declared: Sequence[OutputSpec] = (),
    batches_of_one: bool = False,
) -> bool:
    """Whether the batch-consistency check passes these outputs (``None`` among ``singles``:
    that example raised)."""
    if any(single is None for single in singles):
        return False
    try:
        return compare_batched(singles, batched, axis, tolerance, declared, batches_of_one).passed
    except UNCOMBINABLE:
        return False


def combined_text(
    axis: OutputBatchAxis, rules: Sequence[BatchRule], batches_of_one: bool = False
) -> str:
    """How the single examples' results are combined, in words."""
    if not any(rule.reduces or rule is BatchRule.STACK_OVER_N for rule in rules):
        return f"{'joined' if batches_of_one else 'stacked'} along axis {axis}"
    words = {
        BatchRule.STACK: "stacked",
        BatchRule.STACK_OVER_N: "stacked and divided by the batch size",
        BatchRule.MEAN: "averaged",
        BatchRule.SUM: "summed",
        BatchRule.SHARED: "taken from the first example",
    }
    return "combined (" + ", ".join(words[rule] for rule in rules) + ")"


def stack_outputs(
    values: Sequence[Any],
    axis: OutputBatchAxis,
    rules: Sequence[BatchRule] = (),
    batches_of_one: bool = False,
) -> Any:
    """The single examples' outputs combined as the batched output should be: each element
    stacked (a tuple element without batch axis taken as is) unless ``rules`` (one per
    declared output) say it is reduced over the batch. Outputs of batches of one keep their
    batch axis: they are joined along it instead of stacked."""
    if isinstance(values[0], tuple | list):
        count = len(values[0])
        axes = axis if isinstance(axis, tuple) else (axis,) * count
        if len(axes) != count:
            raise ValueError(f"{count} outputs, but {len(axes)} output batch axes")
        each = rules if len(rules) == count else (BatchRule.STACK,) * count
        return tuple(
            combine_output([v[i] for v in values], a, rule, batches_of_one)
            for i, (a, rule) in enumerate(zip(axes, each, strict=True))
        )
    if isinstance(axis, tuple):
        raise ValueError("one array came back where a tuple of outputs was expected")
    rule = rules[0] if len(rules) == 1 else BatchRule.STACK
    return combine_output(values, axis, rule, batches_of_one)


def combine_output(
    values: Sequence[Any], axis: int | None, rule: BatchRule, batches_of_one: bool = False
) -> Any:
    """One output's values over the batch combined by ``rule``; a stacked one without an
    axis (``None`` in ``output_batch_axis``) is shared. A reduced output has no batch axis,
    of a batch of one or of an example alone."""
    if rule is BatchRule.MEAN or rule is BatchRule.SUM:
        reduce = np.mean if rule is BatchRule.MEAN else np.sum
        return reduce(np.stack([np.asarray(v) for v in values]), axis=0)
    if axis is None or rule is BatchRule.SHARED:
        return values[0]
    join = np.concatenate if batches_of_one else np.stack
    stacked = join([np.asarray(v) for v in values], axis=axis)
    return stacked / len(values) if rule is BatchRule.STACK_OVER_N else stacked
