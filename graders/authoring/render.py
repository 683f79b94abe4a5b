"""A grading report as a plain-text table for terminals (``numjudge grade`` and ``submit``)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from graders.results import Cost, GradeReport, Status

if TYPE_CHECKING:
    from graders.exercises import Limits

MARKS = {Status.PASSED: "PASS", Status.FAILED: "FAIL", Status.ERROR: "ERR "}
WIDTH = 100


def format_report(report: GradeReport, limits: Limits | None = None) -> str:
    """The table, the messages, then the verdict; the run's cost last, against ``limits``
    if given (``numjudge grade``: the API's reports, which learners read, have none)."""
    name_width = max([len(t.name) for t in report.tests] + [4])
    lines = [f"{report.exercise}  (version {report.version})", ""]
    for test in report.tests:
        points = f"{test.points:g}/{test.max_points:g}"
        visibility = "" if test.visibility.value == "public" else " [hidden]"
        lines.append(f"{MARKS[test.status]}  {test.name:<{name_width}}  {points:>7}{visibility}")
        if test.message:
            lines += textwrap.wrap(
                test.message, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 8
            )
    lines.append("")
    if report.diagnosis:
        cases = ", ".join(report.diagnosis.cases)
        lines += [
            *textwrap.wrap(
                f"hint ({cases}): {report.diagnosis.hint}", WIDTH, subsequent_indent="  "
            ),
            "",
        ]
    if report.message:
        lines += [*textwrap.wrap(report.message, WIDTH), ""]
    if report.output:
        lines += ["printed output:", textwrap.indent(report.output.rstrip(), "  "), ""]
    lines.append(
        f"verdict: {report.verdict.value}   score: {report.score:g}/{report.max_score:g}"
        f"   ({report.duration_ms} ms)"
    )
    if report.cost:
        lines.append(f"cost: {describe_cost(report.cost, limits)}")
    return "\n".join(lines)


def describe_cost(cost: Cost, limits: Limits | None = None) -> str:
    """``0.41 s CPU, 88.2 MB peak memory``; with ``limits``, each against its limit."""
    cpu = f"{cost.cpu_ms / 1000:.2f} s CPU"
    memory = f"{cost.memory_kb / 1024:.1f} MB peak memory"
    if limits is not None:
        cpu += f" of {limits.time_s:g} s ({cost.cpu_ms / 10 / limits.time_s:.0f} %)"
        memory += f" of {limits.memory_mb} MB ({cost.memory_kb / 10.24 / limits.memory_mb:.0f} %)"
    return f"{cpu}, {memory}"
