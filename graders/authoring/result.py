"""What ``numjudge validate`` says of a folder (or the assignment schedule): its problems,
notes and the reference's costs, and the lines that print them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from graders.results import (
    GradeReport,
    Status,
)


@dataclass
class ValidationResult:
    path: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)
    """What the reference used, against the exercise's limits: the data to set them from."""

    @property
    def ok(self) -> bool:
        return not self.problems


def format_validation(name: str, result: ValidationResult) -> str:
    """``numjudge validate``'s lines for one folder (or the assignment schedule): ok/FAIL,
    notes, the reference's costs, problems."""
    mark = "ok  " if result.ok else "FAIL"
    lines = [f"{mark} {name}" + (f"  ({'; '.join(result.notes)})" if result.notes else "")]
    lines += [f"     {cost}" for cost in result.costs]
    lines += [f"     - {problem}" for problem in result.problems]
    return "\n".join(lines)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def failing_tests(report: GradeReport) -> str:
    """Every test that did not pass with its message: graded for the author
    (``Audience.AUTHOR``), a hidden test's message is the full one."""
    return (
        "; ".join(f"{t.name}: {t.message}" for t in report.tests if t.status is not Status.PASSED)
        or report.message
    )
