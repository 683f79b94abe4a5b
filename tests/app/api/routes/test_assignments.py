"""GET /assignments: due times, extensions, late work and the policy's scores, per learner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.models import Role, User
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from app.store import extensions as extension_store
from tests.app.conftest import EXERCISES, read_exercise_file
from tests.app.course_catalog import course_service, stamp

MakeUser = Callable[..., tuple[User, dict[str, str]]]


def course_toml(now: datetime) -> str:
    """Three assignments whose due times sit around the moment the test runs."""
    return f"""
[[assignment]]
id = "due-soon"
title = "Due in an hour"
opens = {stamp(now - timedelta(days=1))}
due = {stamp(now + timedelta(hours=1))}
exercises = [{{ id = "gru-update-gate", weight = 2 }}, "gru-sequence"]

[[assignment]]
id = "a-day-late"
title = "Due 23 hours ago, a quarter off per day"
opens = {stamp(now - timedelta(days=5))}
due = {stamp(now - timedelta(hours=23))}
late = {{ policy = "penalty", per_day = 0.25, floor = 0.5 }}
exercises = ["gru-reset-gate"]

[[assignment]]
id = "closed"
title = "Cut off an hour ago"
opens = {stamp(now - timedelta(days=5))}
due = {stamp(now - timedelta(hours=1))}
late = {{ policy = "cutoff" }}
exercises = ["leaky-integrator"]

[[assignment]]
id = "next-week"
title = "Opens tomorrow"
opens = {stamp(now + timedelta(days=1))}
due = {stamp(now + timedelta(days=8))}
exercises = ["lstm-step"]
"""


@pytest.fixture
def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@pytest.fixture
def course_client(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader, now: datetime
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    """The service over the bundled exercises with a course of its own."""
    with course_service(database_url, tmp_path, shared_grader, course_toml(now)) as service:
        yield service


def learner(runtime: GradingRuntime, name: str) -> tuple[User, dict[str, str]]:
    with runtime.sessions() as session:
        user = account_store.create_user(session=session, name=name, role=Role.LEARNER)
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    return user, {"Authorization": f"Bearer {token}"}


def solve(client: TestClient, headers: dict[str, str], exercise: str) -> None:
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=headers,
        json={"exercise": exercise, "code": read_exercise_file(exercise, "solution.py")},
    )
    assert response.json()["verdict"] == "passed", response.json()


def test_states_due_times_and_the_late_policy(
    course_client: tuple[TestClient, GradingRuntime], now: datetime
) -> None:
    client, runtime = course_client
    _, ada = learner(runtime, "ada")
    for exercise in ("gru-update-gate", "gru-reset-gate", "leaky-integrator"):
        solve(client, ada, exercise)
    response = client.get("/assignments", headers=ada)
    assert response.status_code == 200
    by_id = {a["id"]: a for a in response.json()}
    assert list(by_id) == ["due-soon", "a-day-late", "closed", "next-week"]

    soon = by_id["due-soon"]
    assert (soon["state"], soon["score"], soon["max_score"], soon["complete"]) == (
        "open",
        2.0,
        3.0,
        False,
    )
    assert soon["due"] == stamp(now + timedelta(hours=1))
    assert 0 < soon["seconds_left"] <= 3600
    assert [
        (e["id"], e["share"], e["points"], e["late"], e["attempts"]) for e in soon["exercises"]
    ] == [("gru-update-gate", 1.0, 2.0, False, 1), ("gru-sequence", 0.0, 0.0, False, 0)]
    late = by_id["a-day-late"]
    assert late["state"] == "late"
    assert late["late_policy"] == {"policy": "penalty", "per_day": 0.25, "floor": 0.5}
    assert [(e["share"], e["late"]) for e in late["exercises"]] == [(0.75, True)]
    assert late["score"] == 0.75
    closed = by_id["closed"]
    assert (closed["state"], closed["score"]) == ("closed", 0.0)
    # Late work after a cut-off scores nothing and keeps its late mark.
    assert [(e["share"], e["late"], e["attempts"]) for e in closed["exercises"]] == [(0.0, True, 1)]
    assert by_id["next-week"]["state"] == "upcoming"


def test_an_extension_moves_one_learners_due_time(
    course_client: tuple[TestClient, GradingRuntime], now: datetime
) -> None:
    client, runtime = course_client
    ada_user, ada = learner(runtime, "ada")
    _, bob = learner(runtime, "bob")
    with runtime.sessions() as session:
        extension_store.set_extension(
            session=session,
            user=ada_user,
            assignment_id="closed",
            due=now + timedelta(days=1),
            granted_by="prof",
        )
        session.commit()
    for headers in (ada, bob):
        solve(client, headers, "leaky-integrator")
    ada_view = client.get("/assignments/closed", headers=ada).json()
    bob_view = client.get("/assignments/closed", headers=bob).json()
    assert (ada_view["state"], ada_view["extended"], ada_view["score"]) == ("open", True, 1.0)
    assert ada_view["due"] == stamp(now + timedelta(days=1))
    assert (bob_view["state"], bob_view["extended"], bob_view["score"]) == ("closed", False, 0.0)


def test_unknown_assignment_and_no_credentials(
    course_client: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = course_client
    _, ada = learner(runtime, "ada")
    response = client.get("/assignments/nope", headers=ada)
    assert response.status_code == 404
    assert response.json() == {"detail": "Assignment 'nope' not found"}
    assert client.get("/assignments").status_code == 401


def test_the_bundled_course_lists_its_assignments(client: TestClient, make_user: MakeUser) -> None:
    _, ada = make_user("ada")
    assert EXERCISES.joinpath("course.toml").is_file()
    response = client.get("/assignments", headers=ada)
    assert response.status_code == 200
    assert [a["id"] for a in response.json()] == [
        "gru-by-hand",
        "gated-units-compared",
        "numpy-foundations",
    ]
