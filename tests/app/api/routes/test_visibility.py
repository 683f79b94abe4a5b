"""Drafts and assignments not open yet: instructors only, in the API, the submit path and
the pages."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.models import Role
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.conftest import read_exercise_file
from tests.app.course_catalog import course_service
from tests.app.web.helpers import sign_up

NOW = datetime.now(UTC).replace(microsecond=0)
COURSE = f"""
[[assignment]]
id = "later"
title = "Opens tomorrow"
opens = {(NOW + timedelta(days=1)).isoformat()}
due = {(NOW + timedelta(days=8)).isoformat()}
exercises = ["lstm-step"]
"""
HIDDEN = ("gate-draft", "lstm-step")


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, dict[Role, dict[str, str]]]]:
    with course_service(database_url, tmp_path, shared_grader, COURSE, drafts=("gate-draft",)) as (
        client,
        runtime,
    ):
        yield client, {role: token_headers(runtime, role) for role in Role}


def token_headers(runtime: GradingRuntime, role: Role) -> dict[str, str]:
    with runtime.sessions() as session:
        user = account_store.create_user(session=session, name=role.value, role=role)
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    return {"Authorization": f"Bearer {token}"}


def listed(client: TestClient, headers: dict[str, str]) -> list[str]:
    response = client.get("/exercises", headers=headers)
    assert response.status_code == 200
    return [e["id"] for e in response.json()]


def test_the_list_hides_drafts_and_unopened_assignments_from_learners(
    service: tuple[TestClient, dict[Role, dict[str, str]]],
) -> None:
    client, headers = service
    for_learner, for_instructor = (
        listed(client, headers[Role.LEARNER]),
        listed(client, headers[Role.INSTRUCTOR]),
    )
    assert set(for_instructor) - set(for_learner) == set(HIDDEN)
    assert "gru-update-gate" in for_learner
    assert set(listed(client, {})) == set(for_learner)


@pytest.mark.parametrize("exercise", HIDDEN)
def test_a_learner_can_neither_read_nor_submit_it(
    service: tuple[TestClient, dict[Role, dict[str, str]]], exercise: str
) -> None:
    client, headers = service
    learner = headers[Role.LEARNER]
    expected = {"detail": f"Exercise {exercise!r} not found"}
    response = client.get(f"/exercises/{exercise}", headers=learner)
    assert (response.status_code, response.json()) == (404, expected)
    for path in ("/submit", "/run"):
        response = client.post(
            path, headers=learner, json={"exercise": exercise, "code": "x = 1\n"}
        )
        assert (response.status_code, response.json()) == (404, expected)


def test_the_pages_hide_them_from_a_signed_in_learner(
    service: tuple[TestClient, dict[Role, dict[str, str]]],
) -> None:
    client, _ = service
    sign_up(client, "lea")
    catalog = client.get("/").text
    assert "/learn/gru-update-gate" in catalog
    for exercise in HIDDEN:
        assert f'/learn/{exercise}"' not in catalog  # lstm-step-backward is listed
        assert client.get(f"/learn/{exercise}").status_code == 404


def test_an_instructor_reads_and_grades_a_draft(
    service: tuple[TestClient, dict[Role, dict[str, str]]],
) -> None:
    client, headers = service
    prof = headers[Role.INSTRUCTOR]
    assert client.get("/exercises/gate-draft", headers=prof).status_code == 200
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=prof,
        json={
            "exercise": "gate-draft",
            "code": read_exercise_file("gru-update-gate", "solution.py"),
        },
    )
    assert response.status_code == 202
    assert response.json()["verdict"] == "passed"
