"""The schedule's submission budget: ``submissions`` in course.toml caps a learner's graded
submissions per exercise (what bounds the hidden cases' leak over a course,
docs/security.md); the API refuses the one over it, the course pages show it."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.models import Role, Submission
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from tests.app.course_catalog import BROKEN, budget_course_toml, course_service, send, user
from tests.app.web.helpers import sign_in


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(
        database_url,
        tmp_path,
        shared_grader,
        budget_course_toml(title="Two tries each", submissions=2, course_submissions=5),
    ) as running:
        yield running


def test_a_learner_is_refused_over_the_budget_with_a_reason(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    assert [send(client, ada), send(client, ada)] == [202, 202]
    refused = client.post(
        "/submit", headers=ada, json={"exercise": "gru-update-gate", "code": BROKEN}
    )
    assert refused.status_code == 403
    assert "all 2 graded submissions" in refused.json()["detail"]
    japanese = client.post(
        "/submit",
        headers=ada | {"Accept-Language": "ja"},
        json={"exercise": "gru-update-gate", "code": BROKEN},
    )
    assert japanese.json()["detail"] == (
        "'gru-update-gate' について、課題スケジュールが認める採点付きの提出 2 回を"
        "すべて使いました。/run では公開テストでコードを試せます。"
    )
    assert "/run" in refused.json()["detail"]
    assert send(client, ada, "/run") == 202  # runs see no hidden case: not counted
    # Another learner has a budget of their own; an instructor has none.
    assert send(client, user(runtime, "grace")) == 202
    teacher = user(runtime, "teacher", Role.INSTRUCTOR)
    assert [send(client, teacher) for _ in range(3)] == [202, 202, 202]

    budgeted = client.get("/assignments/budgeted", headers=ada).json()
    assert budgeted["submission_budget"] == 2
    assert [e["attempts"] for e in budgeted["exercises"]] == [2]


# Requests at once against the learner's row lock (SELECT ... FOR UPDATE on PostgreSQL).
@pytest.mark.both_databases
def test_submissions_sent_at_once_never_pass_the_budget(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    body = {"exercise": "gru-update-gate", "code": BROKEN}
    with ThreadPoolExecutor(max_workers=5) as senders:
        answers = list(
            senders.map(lambda _: client.post("/submit", headers=ada, json=body), range(5))
        )
    assert sorted(answer.status_code for answer in answers) == [202, 202, 403, 403, 403]
    with runtime.sessions() as session:
        (stored,) = session.execute(select(func.count()).select_from(Submission)).one()
    assert stored == 2


def test_the_course_pages_show_the_budget(service: tuple[TestClient, GradingRuntime]) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    assert send(client, ada) == 202
    user(runtime, "teacher", Role.INSTRUCTOR)

    sign_in(client, "ada", "correct horse")
    page = client.get("/course").text
    assert 'data-budget="2"' in page
    assert "At most 2 graded submissions per exercise" in page
    assert 'data-used="1"' in page and "1 of 2" in page
    page = client.get("/learn/gru-update-gate").text
    assert 'data-budget-left="1"' in page and "Graded submissions left: 1 of 2" in page

    client.cookies.clear()
    sign_in(client, "teacher", "correct horse")
    page = client.get("/instructor/assignments/budgeted").text
    assert "at most 2 graded submissions to each exercise" in page
