"""Hidden tests revealed after the deadline: ``reveal_hidden_after_close = true`` shows a
learner, for their own graded submissions, the hidden cases' inputs, expected outputs and full
messages once the assignment has closed for everyone (its due time and every extension
passed); off by default. Instructors read the full messages at any time. Service, page and
API."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.models import Role, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import reveal
from app.store import accounts as account_store
from app.store import extensions as extension_store
from app.store import submissions as submission_store
from graders.api import words_in
from tests.app.course_catalog import course_service, stamp, user
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


def submitted(client: TestClient, headers: dict[str, str], exercise: str) -> tuple[str, str]:
    """The graded submission's id and the answer to its ``POST /submit``."""
    response = client.post(
        "/submit",
        params={"wait": 60},
        headers=headers,
        json={"exercise": exercise, "code": STARTER},
    )
    assert response.status_code == 202, response.text
    assert response.json()["status"] == "done"
    return response.json()["id"], response.text


def graded(client: TestClient, headers: dict[str, str], exercise: str) -> str:
    return submitted(client, headers, exercise)[0]


def extend(runtime: GradingRuntime, name: str, due: datetime) -> None:
    with runtime.sessions() as session:
        learner = account_store.get_user_by_name(session=session, name=name)
        assert learner is not None
        extension_store.set_extension(
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
    # In Japanese, each revealed test is named by its Japanese title, as a public test is.
    japanese = client.get(f"/history/{submission_id}", headers={"Accept-Language": "ja"}).text
    title = words_in(runtime.catalog.load("gru-update-gate"), "ja").case(names[0])
    assert title != names[0] and str(escape(title)) in japanese
    assert f"<code>{names[0]}</code>" not in japanese


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


def stored_full_messages(runtime: GradingRuntime, submission_id: str) -> dict[str, str]:
    """The full messages the grader kept for the submission's hidden tests, checked to say
    more than the fixed message each test shows."""
    with runtime.sessions() as session:
        row = submission_store.get_submission(session=session, submission_id=submission_id)
        assert row is not None and row.hidden_messages
        shown = {t["name"]: t["message"] for t in row.tests or []}
        for name, full in row.hidden_messages.items():
            assert shown[name].endswith("(details are not shown for hidden tests)")
            assert full != shown[name] and "expected" in full, full
        return dict(row.hidden_messages)


def learner_answers(
    client: TestClient, headers: dict[str, str], submission_id: str
) -> dict[str, str]:
    """Everything the learner can read of their submission, over the API and the pages (the
    client and ``numjudge submit`` read the API's answers); the pages signed in as ada."""
    api = {
        path: client.get(path, headers=headers).text
        for path in (
            f"/submissions/{submission_id}",
            f"/submissions/{submission_id}/reports",
            f"/submissions/{submission_id}/hidden",
            "/submissions",
            "/submissions?exercise=gru-update-gate",
        )
    }
    sign_in(client, "ada", "correct horse")
    pages = {
        path: client.get(path).text
        for path in (f"/history/{submission_id}", "/history", "/learn/gru-update-gate")
    }
    client.cookies.clear()
    return api | pages


def carrying(answers: dict[str, str], messages: set[str]) -> list[str]:
    """The answers in which any of ``messages`` appears, as text or as a page escapes it."""
    return [
        where
        for where, text in answers.items()
        if any(m in text or str(escape(m)) in text for m in messages)
    ]


def test_full_messages_reach_the_learner_only_once_revealed_and_instructors_always(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    user(runtime, "teacher", Role.INSTRUCTOR)
    extend(runtime, "ada", utcnow() + timedelta(hours=2))  # ada may still submit
    submission_id, answer = submitted(client, ada, "gru-update-gate")
    full = stored_full_messages(runtime, submission_id)
    public = {
        t["message"]
        for t in client.get(f"/submissions/{submission_id}", headers=ada).json()["tests"]
        if t["visibility"] == "public"
    }
    # A hidden case can say what a public one says of the same values: those tell nothing.
    told_nowhere = set(full.values()) - public
    assert told_nowhere

    # Open: the learner reads none of them anywhere, not even in the submit's answer.
    answers = learner_answers(client, ada, submission_id) | {"POST /submit": answer}
    assert carrying(answers, told_nowhere) == []
    assert client.get(f"/submissions/{submission_id}/hidden", headers=ada).json()["cases"] == []

    # The instructor reads them now: on the submission's page, the learner's page, the archive.
    sign_in(client, "teacher", "correct horse")
    for path in (f"/history/{submission_id}", "/instructor/learners/ada"):
        page = client.get(path).text
        assert page.count("data-full-message") == len(full), path
        assert all(str(escape(m)) in page for m in full.values()), path
    archive = zipfile.ZipFile(
        io.BytesIO(client.get("/instructor/assignments/revealed/submissions.zip").content)
    )
    feedback = archive.read("revealed-best/ada/gru-update-gate/feedback.md").decode()
    assert all(m in feedback for m in full.values())
    client.cookies.clear()

    # Ada's extension has passed: revealed to her, on the page and in the hidden tests' answer.
    extend(runtime, "ada", utcnow() - timedelta(minutes=1))
    hidden = client.get(f"/submissions/{submission_id}/hidden", headers=ada).json()
    assert hidden["revealed"] is True
    assert {c["name"]: c["full_message"] for c in hidden["cases"] if c["full_message"]} == full
    answers = learner_answers(client, ada, submission_id)
    page = answers.pop(f"/history/{submission_id}")
    assert 'data-revealed="1"' in page and page.count("data-full-message") == len(full)
    assert all(str(escape(m)) in page for m in full.values())
    assert "In full (shown to instructors only)" not in page  # the test table keeps its words
    # Nowhere else: the result, the lists, the reports.
    answers.pop(f"/submissions/{submission_id}/hidden")
    assert carrying(answers, told_nowhere) == []


def test_a_submission_graded_before_full_messages_were_kept_shows_what_it_showed(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    submission_id = graded(client, ada, "gru-update-gate")
    with runtime.sessions() as session:
        row = submission_store.get_submission(session=session, submission_id=submission_id)
        assert row is not None and row.hidden_messages
        row.hidden_messages = None  # as migration 0012 leaves an older row
        session.commit()
    hidden = client.get(f"/submissions/{submission_id}/hidden", headers=ada).json()
    assert hidden["revealed"] is True and hidden["cases"]
    assert all(c["full_message"] is None and c["message"] for c in hidden["cases"])
    sign_in(client, "ada", "correct horse")
    page = client.get(f"/history/{submission_id}").text
    assert page.count("Expected output") == len(hidden["cases"])
    assert "data-full-message" not in page
    client.cookies.clear()
    user(runtime, "teacher", Role.INSTRUCTOR)
    sign_in(client, "teacher", "correct horse")
    assert "data-full-message" not in client.get("/instructor/learners/ada").text


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
