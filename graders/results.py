"""Grading results as plain data; the only place they become JSON (``to_dict``/``from_dict``).

The JSON is what the API returns as a result's ``tests`` and what ``submissions.tests`` stores:
see docs/service.md, "Endpoints", for an example. A report's ``hidden_messages`` (what each
hidden test would have said as a public one) are never in ``tests``: the service stores them
apart (``submissions.hidden_messages``) and shows them to instructors, and to the learner only
once a reveal applies (docs/security.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from graders.checks.error_map import ErrorMap


class Status(Enum):
    """The outcome of one test."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"


class Verdict(Enum):
    """The outcome of a whole submission."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"


class Visibility(Enum):
    PUBLIC = "public"
    HIDDEN = "hidden"


class DiagnosisSource(Enum):
    """Where a diagnosis comes from: a hand-written mistake, a mutant of the reference, or one
    check that every failing test failed on right values (an input changed in place, ...)."""

    MISTAKE = "mistake"
    MUTANT = "mutant"
    CHECK = "check"


@dataclass(frozen=True)
class Diagnosis:
    """The one known mistake that explains every failing case whose output came back.

    ``hint`` is trusted text (a mistake's ``HINT``, a mutation operator's description or a
    check's fixed hint), never computed from an output. ``key`` (a mistake's file name, a
    mutant's id or the failure category of a check) is for
    authors and tests; it never reaches the learner, so it is not part of the JSON.
    """

    hint: str
    cases: tuple[str, ...]
    source: DiagnosisSource
    key: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"hint": self.hint, "cases": list(self.cases), "source": self.source.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Diagnosis:
        return cls(
            hint=data["hint"], cases=tuple(data["cases"]), source=DiagnosisSource(data["source"])
        )


class Failure(Enum):
    """Why a test did not pass, from a fixed vocabulary: all a hidden test says of it."""

    WRONG_TYPE = "wrong_type"
    WRONG_SHAPE = "wrong_shape"
    WRONG_DTYPE = "wrong_dtype"
    NON_FINITE = "non_finite"
    VALUES = "values"
    """Values outside the tolerance."""
    EXCEPTION = "exception"
    CHANGED_INPUT = "changed_input"
    """An input not left as the statement asks: an array changed in place, or a generator
    argument drawn from otherwise (a copy of it, a draw more or fewer)."""
    INCONSISTENT_BATCH = "inconsistent_batch"
    WARNING = "warning"
    """The right values, but the call raised a warning, in an exercise whose warnings fail."""
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    CRASHED = "crashed"
    FORBIDDEN = "forbidden"
    """The code uses what the exercise's rules forbid (``[rules] forbid``), so it was not run."""
    PROPERTY = "property"
    """The output fails one of the case's own checks (``checks=``; a property case's only
    judge): a hidden test names the checks, never what they said."""
    SLOW = "slow"
    """Right values, but more CPU time than the case's speed rule allows against the
    reference (``max_slowdown``): a hidden test never says how much more."""


class InputKind(Enum):
    """What a case's inputs hold that the fixed ``changed_input`` text names: it speaks of a
    generator or of an array to update in place only to a learner whose case has one."""

    GENERATOR = "generator"
    """A generator argument (drawn from exactly as the statement says)."""
    UPDATED = "updated"
    """An argument a scenario's step updates in place (``updates=``)."""


@dataclass(frozen=True)
class TestResult:
    name: str
    visibility: Visibility
    status: Status
    points: float
    max_points: float
    message: str = ""
    failure: Failure | None = None
    """Set exactly when the test did not pass."""
    failed_checks: tuple[str, ...] = field(default=(), compare=False)
    """With ``Failure.PROPERTY``: the names of the checks the output failed (the author's
    trusted words, which a hidden test's message shows too); the message says it for the
    JSON, so it is not part of it."""
    input_kinds: frozenset[InputKind] = field(default=frozenset(), compare=False)
    """What the case's inputs hold (fixed per case): the ``changed_input`` text a hidden test
    shows names those only. Not in the JSON: the message says it."""
    error_map: ErrorMap | None = field(default=None, compare=False)
    """Where a public test's wrong values are wrong (graders/checks/error_map.py); never set
    on a hidden test. In the JSON only when set, so reports without one keep their shape."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "visibility": self.visibility.value,
            "status": self.status.value,
            "points": self.points,
            "max_points": self.max_points,
            "failure": self.failure.value if self.failure else None,
            "message": self.message,
        }
        if self.error_map is not None:
            data["error_map"] = self.error_map.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestResult:
        return cls(
            name=data["name"],
            visibility=Visibility(data["visibility"]),
            status=Status(data["status"]),
            points=float(data["points"]),
            max_points=float(data["max_points"]),
            message=data.get("message", ""),
            failure=Failure(data["failure"]) if data.get("failure") else None,
            error_map=ErrorMap.from_dict(data["error_map"]) if data.get("error_map") else None,
        )


@dataclass(frozen=True)
class Cost:
    """What a run of the submission used, like isolate's meta file: the CPU time (user +
    system) and the peak memory of all its processes, hidden cases included.

    For instructors and the author's own ``numjudge grade`` only: how long hidden cases take
    is not the learner's to know (docs/security.md).
    """

    cpu_ms: int
    memory_kb: int

    def to_dict(self) -> dict[str, Any]:
        return {"cpu_ms": self.cpu_ms, "memory_kb": self.memory_kb}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Cost:
        return cls(cpu_ms=int(data["cpu_ms"]), memory_kb=int(data["memory_kb"]))


@dataclass(frozen=True)
class GradeReport:
    exercise: str
    version: str
    verdict: Verdict
    tests: tuple[TestResult, ...] = ()
    output: str = ""
    message: str = ""
    duration_ms: int = 0
    diagnosis: Diagnosis | None = None
    cost: Cost | None = None
    """None where the sandbox could not say (and in a report rebuilt from the API's JSON,
    which learners read)."""
    hidden_messages: Mapping[str, str] = field(default_factory=dict)
    """By test name, the full message of each hidden test that said less than it would have
    as a public one (its fixed message, graders/checks/hidden.py): computed on the trusted
    side, from what the sandbox already returned. For instructors, and for the learner only
    after a reveal; empty for the author, whose tests show them (and in a report rebuilt
    from the API's JSON, which learners read)."""

    @property
    def score(self) -> float:
        return round(sum(t.points for t in self.tests), 6)

    @property
    def max_score(self) -> float:
        return round(sum(t.max_points for t in self.tests), 6)

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    def to_dict(self) -> dict[str, Any]:
        return {
            "exercise": self.exercise,
            "version": self.version,
            "verdict": self.verdict.value,
            "score": self.score,
            "max_score": self.max_score,
            "message": self.message,
            "tests": [t.to_dict() for t in self.tests],
            "output": self.output,
            "duration_ms": self.duration_ms,
            "diagnosis": self.diagnosis.to_dict() if self.diagnosis else None,
            "cost": self.cost.to_dict() if self.cost else None,
            "hidden_messages": dict(self.hidden_messages),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradeReport:
        return cls(
            exercise=data["exercise"],
            version=data["version"],
            verdict=Verdict(data["verdict"]),
            tests=tuple(TestResult.from_dict(t) for t in data["tests"]),
            output=data.get("output", ""),
            message=data.get("message", ""),
            duration_ms=int(data.get("duration_ms", 0)),
            diagnosis=Diagnosis.from_dict(data["diagnosis"]) if data.get("diagnosis") else None,
            cost=Cost.from_dict(data["cost"]) if data.get("cost") else None,
            hidden_messages=dict(data.get("hidden_messages") or {}),
        )
