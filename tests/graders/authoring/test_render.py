"""graders/authoring/render.py: the plain-text table of ``numjudge grade``."""

from __future__ import annotations

from graders import results
from graders.api import GradeReport, Status, Verdict, Visibility, format_report
from graders.exercises import Limits


def result(
    name: str,
    status: Status,
    points: float,
    max_points: float,
    *,
    hidden: bool = False,
    message: str = "",
) -> results.TestResult:
    visibility = Visibility.HIDDEN if hidden else Visibility.PUBLIC
    return results.TestResult(
        name=name,
        visibility=visibility,
        status=status,
        points=points,
        max_points=max_points,
        message=message,
    )


def test_rows_points_hidden_marks_hints_and_verdict() -> None:
    report = GradeReport(
        exercise="gru-update-gate",
        version="0123456789abcdef",
        verdict=Verdict.FAILED,
        tests=(
            result("numerical example", Status.PASSED, 1, 1),
            result(
                "batch of two",
                Status.FAILED,
                0,
                1.5,
                message="shape: expected (2, 3), got (3, 2): transposed",
            ),
            result("wide layer", Status.FAILED, 0, 3, hidden=True, message="values: differ"),
            result("one", Status.ERROR, 0, 2, hidden=True, message="raised ZeroDivisionError"),
        ),
        duration_ms=42,
        diagnosis=results.Diagnosis(
            "Which of z and 1 - z multiplies the previous state?",
            ("batch of two", "wide layer"),
            results.DiagnosisSource.MISTAKE,
        ),
    )
    assert format_report(report) == "\n".join(
        [
            "gru-update-gate  (version 0123456789abcdef)",
            "",
            "PASS  numerical example      1/1",
            "FAIL  batch of two         0/1.5",
            "      shape: expected (2, 3), got (3, 2): transposed",
            "FAIL  wide layer             0/3 [hidden]",
            "      values: differ",
            "ERR   one                    0/2 [hidden]",
            "      raised ZeroDivisionError",
            "",
            "hint (batch of two, wide layer): Which of z and 1 - z multiplies the previous state?",
            "",
            "verdict: failed   score: 1/7.5   (42 ms)",
        ]
    )


def test_report_message_and_printed_output() -> None:
    report = GradeReport(
        exercise="ex",
        version="v1",
        verdict=Verdict.ERROR,
        tests=(result("a", Status.ERROR, 0, 1, message="not run: the code could not be loaded"),),
        message="Your code could not be loaded: raised SyntaxError on line 3: invalid syntax",
        output="hello\nworld\n\n",
    )
    assert format_report(report) == "\n".join(
        [
            "ex  (version v1)",
            "",
            "ERR   a         0/1",
            "      not run: the code could not be loaded",
            "",
            "Your code could not be loaded: raised SyntaxError on line 3: invalid syntax",
            "",
            "printed output:",
            "  hello",
            "  world",
            "",
            "verdict: error   score: 0/1   (0 ms)",
        ]
    )


def test_long_messages_wrap_with_a_hanging_indent() -> None:
    words = " ".join(f"word{i:02d}" for i in range(30))
    report = GradeReport(
        exercise="ex",
        version="v",
        verdict=Verdict.FAILED,
        tests=(result("t", Status.FAILED, 0, 1, message=words),),
        diagnosis=results.Diagnosis(words, ("t",), results.DiagnosisSource.MUTANT),
    )
    lines = format_report(report).splitlines()
    body = lines[3:-2]
    assert all(len(line) <= 100 for line in body)
    assert body[0].startswith("      word00 ")
    assert body[1].startswith("        word")
    assert any(line.startswith("hint (t): word00 ") for line in body)
    assert all(
        line.startswith("  word")
        for line in body[body.index(next(line for line in body if line.startswith("hint"))) + 1 :]
        if line
    )
    assert " ".join(line.strip() for line in body if line) == f"{words} hint (t): {words}"


def test_passed_report_and_empty_names() -> None:
    report = GradeReport(
        exercise="ex",
        version="v",
        verdict=Verdict.PASSED,
        tests=(result("ab", Status.PASSED, 2, 2),),
        duration_ms=7,
    )
    assert format_report(report) == (
        "ex  (version v)\n\nPASS  ab        2/2\n\nverdict: passed   score: 2/2   (7 ms)"
    )
    empty = GradeReport(
        exercise="ex",
        version="v",
        verdict=Verdict.TIMEOUT,
        message="time limit exceeded (5 s of CPU time for the whole submission)",
    )
    assert format_report(empty) == (
        "ex  (version v)\n\n\ntime limit exceeded (5 s of CPU time for the whole submission)"
        "\n\nverdict: timeout   score: 0/0   (0 ms)"
    )


def test_the_cost_last_against_the_limits_when_given() -> None:
    report = GradeReport(
        exercise="ex",
        version="v",
        verdict=Verdict.PASSED,
        tests=(result("ab", Status.PASSED, 2, 2),),
        duration_ms=7,
        cost=results.Cost(cpu_ms=1234, memory_kb=90_317),
    )
    assert format_report(report).splitlines()[-2:] == [
        "verdict: passed   score: 2/2   (7 ms)",
        "cost: 1.23 s CPU, 88.2 MB peak memory",
    ]
    assert format_report(report, Limits(time_s=5, memory_mb=512)).splitlines()[-1] == (
        "cost: 1.23 s CPU of 5 s (25 %), 88.2 MB peak memory of 512 MB (17 %)"
    )
