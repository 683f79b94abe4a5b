"""Hidden tests revealed after the deadline: ``reveal_hidden_after_close = true`` shows a
learner, for their own graded submissions, the hidden cases' inputs and expected outputs once
the assignment has closed for everyone (its due time and every extension passed); off by
default. Service, page and API."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.grading.engine import SandboxGrader
from app.grading.runtime import GradingRuntime
from app.models import Role, utcnow
from app.services import reveal
from app.store import accounts as account_store
from app.store import courses as course_store
from app.store import submissions as submission_store
from tests.app.api.routes.test_budget import stamp, user
from tests.app.course_catalog import course_service
from tests.app.web.helpers import sign_in

EXERCISES = Path(__file__).resolve().parents[4] / "exercises"
# Runs and returns zeros: every hidden test has a result to show next to its values.
STARTER = (EXERCISES / "gru-update-gate" / "starter.py").read_text(encoding="utf-8")


def course_toml() -> str:
    now = datetime.now(UTC).replace(microsecond=0)
    return f"""
[[assignment]]
id = "revealed"
title = "Shown once closed"
opens = {stamp(now - timedelta(days=3))}
due = {stamp(now - timedelta(days=1))}
exercises = ["gru-update-gate"]
reveal_hidden_after_close = true

[[assignment]]
id = "kept"
title = "Never shown"
opens = {stamp(now - timedelta(days=3))}
due = {stamp(now - timedelta(days=1))}
exercises = ["gru-reset-gate"]
"""


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(database_url, tmp_path, shared_grader, course_toml()) as running:
        yield running


def graded(client: TestClient, headers: dict[str, str], exercise: str) -> str:
    response = client.post(
        "/submit",
        params={"wait": 60},
        headers=headers,
        json={"exercise": exercise, "code": STARTER},
    )
    assert response.status_code == 202, response.text
    assert response.json()["status"] == "done"
    submission_id: str = response.json()["id"]
    return submission_id


def extend(runtime: GradingRuntime, name: str, due: datetime) -> None:
    with runtime.sessions() as session:
        learner = account_store.get_user_by_name(session=session, name=name)
        assert learner is not None
        course_store.set_extension(
            session=session, user=learner, assignment_id="revealed", due=due, granted_by="test"
        )
        session.commit()


def test_hidden_tests_wait_for_the_last_extension_of_anyone_then_show_inputs_and_outputs(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    user(runtime, "grace")
    submission_id = graded(client, ada, "gru-update-gate")
    # Grace may still submit: ada sees nothing yet, though her own due time has passed.
    extend(runtime, "grace", utcnow() + timedelta(hours=2))
    hidden = client.get(f"/submissions/{submission_id}/hidden", headers=ada).json()
    assert hidden == {"submission": submission_id, "reveals": True, "revealed": False, "cases": []}
    sign_in(client, "ada", "correct horse")
    page = client.get(f"/history/{submission_id}").text
    assert 'data-revealed="0"' in page and "Expected output" not in page

    # Grace's extension has passed too: the assignment has closed for everyone.
    extend(runtime, "grace", utcnow() - timedelta(minutes=1))
    hidden = client.get(f"/submissions/{submission_id}/hidden", headers=ada).json()
    assert hidden["revealed"] is True
    names = [case["name"] for case in hidden["cases"]]
    with runtime.sessions() as session:
        row = submission_store.get_submission(session=session, submission_id=submission_id)
        assert row is not None
        hidden_results = {t["name"]: t for t in row.tests or [] if t["visibility"] == "hidden"}
    assert names == list(hidden_results) and len(names) >= 5
    prepared = runtime.catalog.prepared("gru-update-gate")
    first = next(case for case in prepared.cases if case.name == names[0])
    assert hidden["cases"][0]["inputs"] == {
        name: reveal.as_text(value) for name, value in first.inputs.items()
    }
    assert hidden["cases"][0]["expected"] == reveal.as_text(first.expected)
    assert hidden["cases"][0]["status"] == hidden_results[names[0]]["status"]
    assert hidden["cases"][0]["message"] == hidden_results[names[0]]["message"]
    page = client.get(f"/history/{submission_id}").text
    assert 'data-revealed="1"' in page and page.count("Expected output") == len(names)
    assert f"<code>{names[0]}</code>" in page


def test_nothing_is_revealed_without_the_setting_nor_to_another_learner(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    kept = graded(client, ada, "gru-reset-gate")
    hidden = client.get(f"/submissions/{kept}/hidden", headers=ada).json()
    assert hidden == {"submission": kept, "reveals": False, "revealed": False, "cases": []}
    sign_in(client, "ada", "correct horse")
    assert "Hidden tests" not in client.get(f"/history/{kept}").text

    shown = graded(client, ada, "gru-update-gate")
    grace = user(runtime, "grace")
    refused = client.get(f"/submissions/{shown}/hidden", headers=grace)
    assert refused.status_code == 404
    assert refused.json()["detail"] == f"Submission {shown!r} not found"
    teacher = user(runtime, "teacher", Role.INSTRUCTOR)
    assert client.get(f"/submissions/{shown}/hidden", headers=teacher).json()["revealed"] is True


def test_a_run_reveals_nothing_and_another_learners_page_is_not_found(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    """A run sees public cases only, so it has no hidden case to show even once the assignment
    closed; a learner reading another's submission page gets neither the page nor its cases."""
    client, runtime = service
    ada = user(runtime, "ada")
    shown = graded(client, ada, "gru-update-gate")
    response = client.post(
        "/run",
        params={"wait": 60},
        headers=ada,
        json={"exercise": "gru-update-gate", "code": STARTER},
    )
    assert response.status_code == 202 and response.json()["status"] == "done"
    run_id = response.json()["id"]
    hidden = client.get(f"/submissions/{run_id}/hidden", headers=ada).json()
    assert hidden == {"submission": run_id, "reveals": True, "revealed": False, "cases": []}
    assert client.get(f"/submissions/{shown}/hidden", headers=ada).json()["revealed"] is True

    user(runtime, "grace")
    sign_in(client, "grace", "correct horse")
    page = client.get(f"/history/{shown}")
    assert page.status_code == 404
    assert "Expected output" not in page.text and "data-revealed" not in page.text
