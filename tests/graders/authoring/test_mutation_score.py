"""graders/authoring/mutation_score.py: which mutants the hidden cases catch, and the score."""

from __future__ import annotations

from pathlib import Path

from graders.authoring.mutation_score import mutant_statuses, mutation_score
from graders.exercises import PreparedExercise, load_exercise, prepare_exercise
from graders.mutation.operators import Operator
from tests.graders.helpers import make_tiny_exercise, write


def test_the_gate_has_mutants_and_every_one_is_caught(gate: PreparedExercise) -> None:
    statuses = mutant_statuses(gate)
    assert {s.mutant.operator for s in statuses} >= {
        Operator.SWAP_CONCAT,
        Operator.DROP_TERM,
        Operator.SIGMOID_TANH,
        Operator.TRANSPOSE,
    }
    # The gate's tolerance accepts its float32 computation: that mutant is right by its
    # measure. Its inputs are floats, so converting integer inputs to floats changes nothing,
    # in the gate or in its sigmoid helper: equivalent.
    uncaught = sorted(
        (s.mutant.operator.value, s.equivalent) for s in statuses if not s.hidden_killers
    )
    assert uncaught == [
        (Operator.INTEGERS_AS_FLOATS.value, True),
        (Operator.INTEGERS_AS_FLOATS.value, True),
        (Operator.SINGLE_PRECISION.value, True),
    ]
    caught = len(statuses) - len(uncaught)
    score = mutation_score(gate)
    assert (score.killed, score.counted) == (caught, caught)
    assert score.describe() == (
        f"mutation score 100% ({caught} of {caught} non-equivalent mutants fail a hidden case)"
    )


ROW_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def one_row(rng):
    return {"x": np.array([1.0, 2.0, 3.0, -1.0]), "threshold": 1.5}


@case(batch_axes={"x": 0})
def rows(rng):
    return {"x": rng.normal(size=(3, 4)), "threshold": 0.0}
"""


def test_a_mutant_the_batch_consistency_check_catches_is_caught_by_the_hidden_case(
    tmp_path: Path,
) -> None:
    # np.sum(..., axis=1) is np.sum(..., axis=-1) on the batch, and raises on a single row:
    # where the unbatched form is part of the contract, the hidden batched case fails it, by
    # its single examples.
    folder = make_tiny_exercise(tmp_path, cases=ROW_CASES)
    with (folder / "exercise.toml").open("a") as toml:
        toml.write("\n[checks]\nunbatched = true\n")
    write(
        folder / "solution.py",
        """
        import numpy as np


        def count_above(x, threshold):
            return np.sum(x > threshold, axis=-1)
        """,
    )
    prepared = prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    statuses = {s.mutant.key: s for s in mutant_statuses(prepared)}
    axis_one = statuses["axis:6:11:1"]
    assert (axis_one.killers, axis_one.hidden_killers) == (("one row", "rows"), ("rows",))
    counted = [s for s in statuses.values() if not s.equivalent]
    assert all(s.hidden_killers for s in counted)
    score = mutation_score(prepared)
    # Three other axes, the count over the whole array, and a mean for the sum.
    assert (score.killed, score.counted) == (len(counted), len(counted)) == (5, 5)


def test_a_mutant_stopped_on_a_single_example_is_not_counted_as_caught_there() -> None:
    from graders.exercises.preparation import ran_through
    from graders.mutation.runs import MutantRuns

    # Outputs: the case, then two single examples; the second raised, or was stopped.
    raised = MutantRuns({"m": (1.0, 1.0, None)}, {"m": (None, None, "ValueError")}, {})
    stopped = MutantRuns({"m": (1.0, 1.0, None)}, {"m": (None, None, None)}, {})
    assert ran_through(raised, "m", slice(1, 3))
    assert not ran_through(stopped, "m", slice(1, 3))
