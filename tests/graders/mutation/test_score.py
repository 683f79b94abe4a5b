"""graders/mutation/score.py: which mutants the hidden cases catch, and the score."""

from __future__ import annotations

from graders.exercises import PreparedExercise
from graders.mutation.operators import Operator
from graders.mutation.score import mutant_statuses, mutation_score


def test_the_gate_has_mutants_and_every_one_is_caught(gate: PreparedExercise) -> None:
    statuses = mutant_statuses(gate)
    assert {s.mutant.operator for s in statuses} >= {
        Operator.SWAP_CONCAT,
        Operator.DROP_TERM,
        Operator.SIGMOID_TANH,
        Operator.TRANSPOSE,
    }
    assert all(s.hidden_killers for s in statuses)
    score = mutation_score(gate)
    assert (score.killed, score.counted) == (len(statuses), len(statuses))
    assert score.describe() == (
        f"mutation score 100% ({len(statuses)} of {len(statuses)} "
        "non-equivalent mutants fail a hidden case)"
    )
