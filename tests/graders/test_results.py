"""graders/results.py: the report's JSON schema (docs/service.md, "Endpoints")."""

from __future__ import annotations

import json

from graders import results
from graders.api import Failure, GradeReport, Status, Verdict, Visibility


def make_report() -> GradeReport:
    tests = (
        results.TestResult("numerical example", Visibility.PUBLIC, Status.PASSED, 1.0, 1.0),
        results.TestResult(
            "batched",
            Visibility.HIDDEN,
            Status.FAILED,
            0.0,
            2.5,
            message="shape: expected (4, 3), got (3, 4): transposed",
            failure=Failure.WRONG_SHAPE,
        ),
        results.TestResult("third", Visibility.HIDDEN, Status.PASSED, 0.1, 0.1),
        results.TestResult("fourth", Visibility.HIDDEN, Status.PASSED, 0.2, 0.2),
    )
    return GradeReport(
        exercise="gru-update-gate",
        version="abc",
        verdict=Verdict.FAILED,
        tests=tests,
        output="printed",
        message="",
        duration_ms=12,
        diagnosis=results.Diagnosis(
            "check the order", ("batched",), results.DiagnosisSource.MISTAKE, key="input_first"
        ),
        cost=results.Cost(cpu_ms=412, memory_kb=90_317),
    )


def test_to_dict_schema() -> None:
    data = make_report().to_dict()
    assert data == {
        "exercise": "gru-update-gate",
        "version": "abc",
        "verdict": "failed",
        "score": 1.3,
        "max_score": 3.8,
        "message": "",
        "tests": [
            {
                "name": "numerical example",
                "visibility": "public",
                "status": "passed",
                "points": 1.0,
                "max_points": 1.0,
                "failure": None,
                "message": "",
            },
            {
                "name": "batched",
                "visibility": "hidden",
                "status": "failed",
                "points": 0.0,
                "max_points": 2.5,
                "failure": "wrong_shape",
                "message": "shape: expected (4, 3), got (3, 4): transposed",
            },
            {
                "name": "third",
                "visibility": "hidden",
                "status": "passed",
                "points": 0.1,
                "max_points": 0.1,
                "failure": None,
                "message": "",
            },
            {
                "name": "fourth",
                "visibility": "hidden",
                "status": "passed",
                "points": 0.2,
                "max_points": 0.2,
                "failure": None,
                "message": "",
            },
        ],
        "output": "printed",
        "duration_ms": 12,
        "diagnosis": {"hint": "check the order", "cases": ["batched"], "source": "mistake"},
        "cost": {"cpu_ms": 412, "memory_kb": 90_317},
        "hidden_messages": {},  # a failed hidden test's full message, for instructors
    }
    assert json.loads(json.dumps(data)) == data


def test_from_dict_round_trip() -> None:
    report = make_report()
    again = GradeReport.from_dict(json.loads(json.dumps(report.to_dict())))
    assert again == report
    assert again.tests[1].status is Status.FAILED
    assert again.diagnosis is not None and again.diagnosis.key == ""  # the key stays inside
    assert not again.passed
    without_cost = GradeReport.from_dict({**report.to_dict(), "cost": None})
    assert without_cost.cost is None


def test_enum_values() -> None:
    assert [s.value for s in Status] == ["passed", "failed", "error"]
    assert [v.value for v in Verdict] == ["passed", "failed", "error", "timeout", "memory_limit"]
    assert [v.value for v in Visibility] == ["public", "hidden"]
    assert [f.value for f in Failure] == [
        "wrong_type",
        "wrong_shape",
        "wrong_dtype",
        "non_finite",
        "values",
        "exception",
        "changed_input",
        "inconsistent_batch",
        "warning",
        "time_limit",
        "memory_limit",
        "crashed",
        "forbidden",
        "property",
        "slow",
    ]
