"""A grading report as a plain-text table for terminals (``numjudge grade`` and ``submit``)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from graders.results import GradeReport, Status

if TYPE_CHECKING:
    from graders.validation import ValidationResult

MARKS = {Status.PASSED: "PASS", Status.FAILED: "FAIL", Status.ERROR: "ERR "}
WIDTH = 100


def format_report(report: GradeReport) -> str:
    name_width = max([len(t.name) for t in report.tests] + [4])
    lines = [f"{report.exercise}  (version {report.version})", ""]
    for test in report.tests:
        points = f"{test.points:g}/{test.max_points:g}"
        visibility = "" if test.visibility.value == "public" else " [hidden]"
        lines.append(f"{MARKS[test.status]}  {test.name:<{name_width}}  {points:>7}{visibility}")
        if test.message:
            lines += textwrap.wrap(test.message, WIDTH, initial_indent=" " * 6,
                                   subsequent_indent=" " * 8)
    lines.append("")
    if report.diagnosis:
        cases = ", ".join(report.diagnosis.cases)
        lines += [*textwrap.wrap(f"hint ({cases}): {report.diagnosis.hint}", WIDTH,
                                 subsequent_indent="  "), ""]
    if report.message:
        lines += [*textwrap.wrap(report.message, WIDTH), ""]
    if report.output:
        lines += ["printed output:", textwrap.indent(report.output.rstrip(), "  "), ""]
    lines.append(f"verdict: {report.verdict.value}   score: {report.score:g}/{report.max_score:g}"
                 f"   ({report.duration_ms} ms)")
    return "\n".join(lines)


def format_validation(name: str, result: ValidationResult) -> str:
    """``numjudge validate``'s lines for one folder (or course file): ok/FAIL, notes, problems."""
    mark = "ok  " if result.ok else "FAIL"
    lines = [f"{mark} {name}" + (f"  ({'; '.join(result.notes)})" if result.notes else "")]
    lines += [f"     - {problem}" for problem in result.problems]
    return "\n".join(lines)
