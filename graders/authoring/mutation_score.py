"""How strong an exercise's hidden cases are: which mutants of the reference they catch."""

from __future__ import annotations

from dataclasses import dataclass

from graders.exercises import PreparedCase, PreparedExercise
from graders.mutation.mutants import Mutant
from graders.mutation.operators import Operator

SCORE_FLOOR = 0.95


@dataclass(frozen=True)
class MutantStatus:
    mutant: Mutant
    killers: tuple[str, ...]
    """The cases on which the mutant's output is wrong (or it raises), or which the
    batch-consistency check fails."""
    hidden_killers: tuple[str, ...]
    equivalent: bool
    """No case and no probe tells it from the reference: it computes the same function."""


def catches(case: PreparedCase, key: str) -> bool:
    """Whether grading fails the mutant ``key`` on ``case``: its values, or the single
    examples' against them."""
    return key in case.table.wrong or key in case.batch_inconsistent


def mutant_statuses(prepared: PreparedExercise) -> list[MutantStatus]:
    statuses = []
    for mutant in prepared.mutants:
        caught = [c for c in prepared.cases if catches(c, mutant.key)]
        killers = tuple(c.name for c in caught)
        hidden = tuple(c.name for c in caught if not c.spec.public)
        # A float32 computation no case catches is within every case's tolerance: right by
        # the exercise's own measure, however a probe's exact comparison tells it apart.
        equivalent = not killers and (
            mutant.operator is Operator.SINGLE_PRECISION
            or not prepared.probe_differs.get(mutant.key, False)
        )
        statuses.append(MutantStatus(mutant, killers, hidden, equivalent))
    return statuses


@dataclass(frozen=True)
class MutationScore:
    killed: int
    """Non-equivalent mutants that fail at least one hidden case."""
    counted: int
    """Non-equivalent mutants."""

    @property
    def share(self) -> float:
        return self.killed / self.counted if self.counted else 1.0

    def describe(self) -> str:
        return (
            f"mutation score {self.share:.0%} ({self.killed} of {self.counted} "
            "non-equivalent mutants fail a hidden case)"
        )


def mutation_score(prepared: PreparedExercise) -> MutationScore:
    counted = [s for s in mutant_statuses(prepared) if not s.equivalent]
    return MutationScore(sum(1 for s in counted if s.hidden_killers), len(counted))
