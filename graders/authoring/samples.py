"""Samples: learner solutions an author keeps in ``samples/`` with the result each must get.

A sample states its expected result in one header comment::

    # expect: verdict=failed score=2 diagnosis=one_minus_z

``verdict`` is a ``Verdict`` value (passed, failed, error, timeout, memory_limit), ``score``
the points the report gives, and ``diagnosis`` the key of the report's diagnosis (a mistake's
file name without ``.py``, a mutant's key as ``numjudge mutants`` lists it, or a check's
failure category such as ``changed_input``) or ``none``. ``numjudge validate`` grades each
sample like a submission and fails when the report differs from its header
(graders/authoring/sample_checks.py).

An exercise that asks for exact gradients (``[checks] gradients = true``) keeps a generic
finite-difference solution as ``samples/finite_differences.py``, expected not to pass: central
differences of the loss, two forward passes per entry of every argument the gradient is
taken for, must run out of time on a hidden case that the exact gradients finish in
milliseconds. Otherwise the exercise could be passed without the derivation it teaches.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from graders.errors import ExerciseError
from graders.results import GradeReport, Verdict

SAMPLES_DIR = "samples"
HEADER = re.compile(r"^#\s*expect:(.*)$", re.MULTILINE)
FIELDS = ("verdict", "score", "diagnosis")
NO_DIAGNOSIS = "none"
FINITE_DIFFERENCES = "finite_differences.py"
"""The sample a gradient exercise must keep, expected not to pass."""


@dataclass(frozen=True)
class Expectation:
    """The result a sample must get."""

    verdict: Verdict
    score: float
    diagnosis: str | None
    """The diagnosis's key, ``None``: no diagnosis."""

    def describe(self) -> str:
        return (
            f"verdict={self.verdict.value} score={self.score:g} "
            f"diagnosis={self.diagnosis or NO_DIAGNOSIS}"
        )

    @classmethod
    def of(cls, report: GradeReport) -> Expectation:
        """What ``report`` got, in the header's terms."""
        key = report.diagnosis.key if report.diagnosis is not None else None
        return cls(report.verdict, report.score, key)

    def matches(self, other: Expectation) -> bool:
        return (
            self.verdict is other.verdict
            and self.diagnosis == other.diagnosis
            and math.isclose(self.score, other.score, abs_tol=1e-6)
        )


@dataclass(frozen=True)
class Sample:
    name: str
    """The file name, ``alternative_method.py``."""
    path: Path
    expected: Expectation


def read_samples(folder: Path) -> tuple[Sample, ...]:
    """The samples of an exercise folder, in name order; ``ExerciseError`` names a sample whose
    header is missing or malformed."""
    return tuple(
        Sample(file.name, file, read_expectation(file))
        for file in sorted((folder / SAMPLES_DIR).glob("*.py"))
    )


def read_expectation(file: Path) -> Expectation:
    where = f"{file.parent.parent.name}/{SAMPLES_DIR}/{file.name}"
    headers = HEADER.findall(file.read_text(encoding="utf-8"))
    if len(headers) != 1:
        raise ExerciseError(
            f"{where}: needs exactly one header line '# expect: verdict=... "
            f"score=... diagnosis=...', found {len(headers)}"
        )
    fields: dict[str, str] = {}
    for item in headers[0].split():
        key, equals, value = item.partition("=")
        if not equals or key not in FIELDS or key in fields:
            raise ExerciseError(
                f"{where}: {item!r} in the header is not one of "
                f"{', '.join(f'{k}=...' for k in FIELDS)} (each once)"
            )
        fields[key] = value
    missing = [key for key in FIELDS if key not in fields]
    if missing:
        raise ExerciseError(f"{where}: the header lacks {', '.join(missing)}")
    verdicts = [v.value for v in Verdict]
    if fields["verdict"] not in verdicts:
        raise ExerciseError(
            f"{where}: verdict must be one of {', '.join(verdicts)}, not {fields['verdict']!r}"
        )
    try:
        score = float(fields["score"])
    except ValueError:
        raise ExerciseError(f"{where}: score must be a number, not {fields['score']!r}") from None
    diagnosis = fields["diagnosis"]
    return Expectation(
        Verdict(fields["verdict"]), score, None if diagnosis == NO_DIAGNOSIS else diagnosis
    )
