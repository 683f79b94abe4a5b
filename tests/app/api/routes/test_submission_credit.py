"""POST /submit and GET /submissions/{id} say what its assignment makes of a graded submission:
``late``, and ``counts_for`` (the assignment, the learner's due time, the late policy's share,
the points)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import extensions as extension_store
from tests.app.api.routes.test_assignments import course_toml, learner
from tests.app.conftest import read_exercise_file
from tests.app.course_catalog import course_service, stamp


@pytest.fixture
def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@pytest.fixture
def course_client(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader, now: datetime
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(database_url, tmp_path, shared_grader, course_toml(now)) as service:
        yield service


def send(
    client: TestClient, headers: dict[str, str], exercise: str, kind: str = "submit", wait: int = 30
) -> dict[str, Any]:
    response = client.post(
        f"/{kind}",
        params={"wait": wait},
        headers=headers,
        json={"exercise": exercise, "code": read_exercise_file(exercise, "solution.py")},
    )
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_answer_says_late_and_what_the_course_counts(
    course_client: tuple[TestClient, GradingRuntime], now: datetime
) -> None:
    client, runtime = course_client
    _, ada = learner(runtime, "ada")

    on_time = send(client, ada, "gru-update-gate")
    assert on_time["verdict"] == "passed" and on_time["late"] is False
    assert on_time["counts_for"] == {
        "assignment": "due-soon",
        "due": stamp(now + timedelta(hours=1)),
        "late_factor": 1.0,
        "points": 2.0,
        "max_points": 2.0,
    }
    penalised = send(client, ada, "gru-reset-gate")
    assert penalised["verdict"] == "passed" and penalised["late"] is True
    assert penalised["counts_for"]["late_factor"] == 0.75
    assert penalised["counts_for"]["points"] == 0.75
    cut_off = send(client, ada, "leaky-integrator")
    assert cut_off["verdict"] == "passed" and cut_off["late"] is True  # full marks, counts 0
    assert (cut_off["counts_for"]["late_factor"], cut_off["counts_for"]["points"]) == (0.0, 0.0)

    for answer in (on_time, penalised, cut_off):
        again = client.get(answer["url"], headers=ada).json()
        assert (again["late"], again["counts_for"]) == (answer["late"], answer["counts_for"])

    queued = send(client, ada, "leaky-integrator", wait=0)
    assert queued["late"] is True and queued["counts_for"]["points"] is None  # not graded yet

    run = send(client, ada, "leaky-integrator", kind="run")
    assert (run["late"], run["counts_for"]) == (False, None)  # a run never counts
    practice = send(client, ada, "adam")
    assert practice["verdict"] == "passed"
    assert (practice["late"], practice["counts_for"]) == (False, None)

    history = client.get("/submissions", headers=ada).json()
    late_by_id = {row["id"]: row["late"] for row in history}
    assert late_by_id == {
        answer["id"]: answer["late"]
        for answer in (on_time, penalised, cut_off, queued, run, practice)
    }


def test_an_extension_changes_the_mark_of_work_already_sent(
    course_client: tuple[TestClient, GradingRuntime], now: datetime
) -> None:
    client, runtime = course_client
    ada_user, ada = learner(runtime, "ada")
    cut_off = send(client, ada, "leaky-integrator")
    assert cut_off["late"] is True
    with runtime.sessions() as session:
        extension_store.set_extension(
            session=session,
            user=ada_user,
            assignment_id="closed",
            due=now + timedelta(days=1),
            granted_by="prof",
        )
        session.commit()
    again = client.get(cut_off["url"], headers=ada).json()
    assert again["late"] is False
    assert [row["late"] for row in client.get("/submissions", headers=ada).json()] == [False]
    assert again["counts_for"]["due"] == stamp(now + timedelta(days=1))
    assert again["counts_for"]["points"] == 1.0
