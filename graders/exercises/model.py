"""What an exercise is: the folder as read (``Exercise``) and as prepared (``PreparedExercise``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from graders.cases import CaseSpec, Variant, VariantSpec
from graders.checks.diagnosis import Candidate, CaseTable, Generators
from graders.checks.outputs import OutputSpec
from graders.checks.rules import Rule
from graders.errors import ExerciseError
from graders.exercises.translations import Translation
from graders.mutation.mutants import Mutant
from graders.results import InputKind
from graders.sandbox.scenario import read_program, scenario_entry
from graders.scenarios import SCENARIO_INPUT


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0
    memory_mb: int = 512


class WarningPolicy(Enum):
    """What a warning raised by the entry function does to its test (``[checks] warnings`` in
    exercise.toml). Warnings the code silences (``np.errstate``, a warnings filter) are none."""

    NOTE = "note"
    """Added to a public test's message, never costing points: the default."""
    FAIL = "fail"
    """Fails a test whose output was right, public or hidden, with the category ``warning``:
    for an exercise whose statement asks for warning-free results."""


MINED_FOLDER = "mined"
"""Where, inside ``mistakes/``, the mistakes mined from learners' submissions live."""


@dataclass(frozen=True)
class Mistake:
    """A known wrong solution and the hint its output earns.

    An author's mistake (``mistakes/<name>.py``) is trusted code and runs in the preparing
    process. A mined one (``mistakes/mined/<name>.py``) is a learner's submission: it runs only
    in the sandbox, like the submission it was (graders/exercises/preparation.py)."""

    name: str
    hint: str
    path: Path
    mined: bool = False


@dataclass(frozen=True)
class Exercise:
    """An exercise folder as read from disk; no instructor code has run yet."""

    id: str
    title: str
    difficulty: str
    tags: tuple[str, ...]
    entry: str
    """What the learner writes, as pages name it: the entry function, or for a scenario
    exercise its ``entries`` (``affine_forward, affine_backward``)."""
    path: Path
    version: str
    order: int = 1000
    course: str | None = None
    """The course it belongs to (``course`` in exercise.toml); None: the default course."""
    draft: bool = False
    source: str | None = None
    limits: Limits = field(default_factory=Limits)
    warnings: WarningPolicy = WarningPolicy.NOTE
    gradients: bool = False
    """Whether the learner computes exact gradients (``[checks] gradients``): then validate
    requires a finite-difference sample that fails (graders/authoring/samples.py)."""
    custom_inputs: bool = True
    """Whether learners may call the entry function with inputs of their own and see the
    reference's output (``[checks] custom_inputs``); a scenario exercise never takes them
    (``takes_custom_inputs``)."""
    unbatched: bool = False
    """Whether the unbatched form is part of the exercise's contract (``[checks] unbatched``):
    then the batch-consistency check calls each batch item alone, without its batch axis;
    otherwise each as a batch of one, so that batched-only code (a softmax along ``axis=1``)
    is checked as it is written."""
    forbid: tuple[Rule, ...] = ()
    """What the code may not use (``[rules] forbid``), checked before it runs."""
    outputs: tuple[OutputSpec, ...] = ()
    """The declared outputs (``[[outputs]]``): one for the whole output, or one per element
    of a tuple output; none declared, messages number a tuple's elements."""
    statements: Mapping[str, str] = field(default_factory=dict)
    theories: Mapping[str, str] = field(default_factory=dict)
    starter: str = ""
    starters: Mapping[str, str] = field(default_factory=dict)
    """The starter in each language but English (``starter.<lang>.py``): the same code as
    ``starter``, its comments and docstrings in that language."""
    mistakes: tuple[Mistake, ...] = ()
    translations: Mapping[str, Translation] = field(default_factory=dict)
    """The title, hints and test names in each language but English
    (``translation.<lang>.toml``, graders/exercises/translations.py)."""
    entries: tuple[str, ...] = ()
    """The functions and classes a scenario exercise's learner writes (``entries`` in
    exercise.toml); empty for an exercise of one entry function, whose cases call it."""

    @property
    def takes_custom_inputs(self) -> bool:
        """Whether a learner may try inputs of their own: the exercise allows it, and it has
        one entry function to call."""
        return self.custom_inputs and not self.entries

    def starter_in(self, lang: str) -> str:
        """The starter a reader of ``lang`` begins from: theirs, else the English one."""
        return self.starters.get(lang, self.starter)

    @property
    def scenarios(self) -> bool:
        """Whether the cases are scenarios (graders/scenarios.py) over ``entries``."""
        return bool(self.entries)

    @property
    def names(self) -> tuple[str, ...]:
        """Every function or class the learner writes."""
        return self.entries or (self.entry,)

    @property
    def sandbox_entry(self) -> str:
        """What a case calls, as the sandbox, the reference and the mutants resolve it
        (graders/sandbox/scenario.py: ``resolve_entry``)."""
        return scenario_entry(self.entries) if self.entries else self.entry

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted(self.statements, key=lambda lang: (lang != "en", lang)))


@dataclass(frozen=True)
class SpeedRun:
    """A further run of a speed case: inputs made as the case's are, from another seed, so
    that no run can reuse an earlier one's result, and the reference's output on them."""

    inputs: Mapping[str, Any]
    expected: Any


@dataclass(frozen=True)
class PreparedCase:
    """A case with its generated inputs and the trusted outputs computed from them."""

    spec: CaseSpec
    inputs: Mapping[str, Any]
    expected: Any
    outputs: Mapping[str, Any]
    """The output of each candidate (known mistake or mutant) that returned on this case."""
    table: CaseTable
    """The candidates' outputs and exceptions arranged for matching."""
    slice_inputs: tuple[Mapping[str, Any], ...] = ()
    speed_runs: tuple[SpeedRun, ...] = ()
    """A speed case's further runs, each on inputs of its own (graders/checks/timing.py)."""
    named_outputs: tuple[OutputSpec, ...] = ()
    """A scenario's compared values, each named by its step (``step 2, affine_backward:
    dw``); empty in a one-function case, whose outputs are the exercise's ``[[outputs]]``."""
    generators: Generators = field(default_factory=dict)
    """Where the reference's call left each generator argument (a learner's call must leave
    it there too: the statement's draws from it, no more, no fewer, not from a copy)."""
    batches_of_one: bool = False
    """Whether ``slice_inputs`` are batches of one, their batch axis kept (the exercise does
    not promise the unbatched form: ``Exercise.unbatched``)."""
    batch_inconsistent: frozenset[str] = frozenset()
    """The mutants right on this batched case whose single examples' outputs are not its
    output (or which raise on one): the batch-consistency check catches them."""

    @property
    def name(self) -> str:
        return self.spec.name

    @functools.cached_property
    def input_kinds(self) -> frozenset[InputKind]:
        """What its inputs hold that a hidden ``changed_input`` text names (graders/checks/
        hidden.py): a generator argument; an argument one of its steps updates in place."""
        kinds = {InputKind.GENERATOR} if self.generators else set()
        if self.spec.scenario and any(
            step["updates"] for step in read_program(self.inputs[SCENARIO_INPUT])
        ):
            kinds.add(InputKind.UPDATED)
        return frozenset(kinds)

    def declared(self, exercise: Exercise) -> tuple[OutputSpec, ...]:
        """What this case's outputs are called in messages, and how each is compared."""
        return self.named_outputs or exercise.outputs


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per version
class PreparedExercise:
    exercise: Exercise
    cases: tuple[PreparedCase, ...]
    candidates: Mapping[str, Candidate] = field(default_factory=dict)
    mutants: tuple[Mutant, ...] = ()
    probe_differs: Mapping[str, bool] = field(default_factory=dict)
    """Whether noisy copies of the cases' inputs tell each mutant from the reference."""
    mutant_failure: str | None = None
    """Why the mutants could not be run (then ``mutants`` is empty), with the fix."""
    variant: Variant = field(default_factory=dict)
    """The numbers the cases were made with (``@variant``): a learner's, or the default;
    empty for an exercise without variants."""
    variants: VariantSpec | None = None
    """How the exercise draws a learner's variant; None: it has none."""

    def variant_for(self, seed: int) -> Variant:
        """The variant of the learner whose seed is ``seed`` (empty: the exercise has none);
        ``ExerciseError`` when ``@variant`` draws something that is not one."""
        if self.variants is None:
            return {}
        try:
            return self.variants.drawn(seed)
        except ValueError as exc:
            raise cases_error(self.exercise.id, exc) from exc

    @property
    def public_cases(self) -> tuple[PreparedCase, ...]:
        return tuple(c for c in self.cases if c.spec.public)


def cases_error(exercise_id: str, problem: ValueError) -> ExerciseError:
    """What ``cases.py``'s own declarations refuse (a variant drawn or recorded that is not
    one), as the exercise's error."""
    return ExerciseError(f"{exercise_id}/cases.py: {problem}")
