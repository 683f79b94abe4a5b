"""The schedule's pace: ``cooldown_minutes`` and ``submissions_per_day`` in course.toml space a
learner's graded submissions out; the API refuses one too soon with 429, Retry-After and the
reason, says what is left (``GET /exercises/{id}/budget``), and the exercise page shows it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.models import Role, Submission
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.course_catalog import BROKEN, course_service, send, stamp, user
from tests.app.web.helpers import csrf_of, sign_in

ZONE = "Pacific/Auckland"


def course_toml() -> str:
    now = datetime.now(UTC).replace(microsecond=0)
    return f"""
timezone = "{ZONE}"
submissions_per_day = 2

[[assignment]]
id = "cooled"
title = "An hour between tries"
opens = {stamp(now - timedelta(days=1))}
due = {stamp(now + timedelta(days=1))}
exercises = ["gru-update-gate"]
cooldown_minutes = 60

[[assignment]]
id = "daily"
title = "Two a day"
opens = {stamp(now - timedelta(days=1))}
due = {stamp(now + timedelta(days=1))}
exercises = ["gru-reset-gate"]
"""


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(database_url, tmp_path, shared_grader, course_toml()) as running:
        yield running


def test_a_graded_submission_inside_the_cooldown_is_refused_with_429_and_retry_after(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    assert send(client, ada) == 202
    sent_at = datetime.now(UTC)
    refused = client.post(
        "/submit", headers=ada, json={"exercise": "gru-update-gate", "code": BROKEN}
    )
    assert refused.status_code == 429
    retry_after = int(refused.headers["Retry-After"])
    assert 0 < retry_after <= 3600
    detail = refused.json()["detail"]
    assert "60 minutes between graded submissions to 'gru-update-gate'" in detail
    assert "the next is possible at" in detail and "/run" in detail
    # A Japanese reader (the language cookie or the browser's) reads it in Japanese.
    for asked in ({"Accept-Language": "ja,en;q=0.5"}, {"Cookie": "numjudge_lang=ja"}):
        japanese = client.post(
            "/submit",
            headers=ada | asked,
            json={"exercise": "gru-update-gate", "code": BROKEN},
        )
        assert japanese.status_code == 429
        assert japanese.json()["detail"].startswith(
            "課題スケジュールでは 'gru-update-gate' への採点付きの提出の間を 60 分"
            "あける必要があります。"
        ), japanese.json()
    assert send(client, ada, "/run") == 202  # runs stay free

    budget = client.get("/exercises/gru-update-gate/budget", headers=ada).json()
    assert budget["limited"] is True and budget["blocked_by"] == "cooldown"
    assert budget["cooldown_s"] == 3600 and budget["used"] == 1
    # The schedule's two a day hold here too: one left today (the cooldown decides the time).
    assert budget["per_day"] == 2 and budget["left_today"] == 1
    next_at = datetime.fromisoformat(budget["next_at"])
    assert sent_at - timedelta(seconds=5) < next_at - timedelta(hours=1) <= sent_at
    # Another learner and an instructor are not held by ada's cooldown.
    assert send(client, user(runtime, "grace")) == 202
    teacher = user(runtime, "teacher", Role.INSTRUCTOR)
    assert [send(client, teacher) for _ in range(3)] == [202, 202, 202]
    assert client.get("/exercises/gru-update-gate/budget", headers=teacher).json() == {
        "exercise": "gru-update-gate",
        "limited": False,
        "allowed": None,
        "used": 0,
        "left": None,
        "per_day": None,
        "left_today": None,
        "cooldown_s": None,
        "blocked_by": None,
        "next_at": None,
        "retry_after_s": None,
    }


def test_the_days_graded_submissions_pass_at_midnight_in_the_schedule_zone(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    assert [send(client, ada, exercise="gru-reset-gate") for _ in range(2)] == [202, 202]
    refused = client.post(
        "/submit", headers=ada, json={"exercise": "gru-reset-gate", "code": BROKEN}
    )
    now = datetime.now(UTC)
    assert refused.status_code == 429
    local = now.astimezone(ZoneInfo(ZONE))
    tomorrow = local.date() + timedelta(days=1)
    midnight = datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=ZoneInfo(ZONE))
    retry_after = int(refused.headers["Retry-After"])
    assert retry_after == pytest.approx(math.ceil((midnight - now).total_seconds()), abs=60)
    detail = refused.json()["detail"]
    assert "the 2 graded submissions the schedule allows per day for 'gru-reset-gate'" in detail
    assert f"{midnight:%Y-%m-%d} 00:00" in detail
    budget = client.get("/exercises/gru-reset-gate/budget", headers=ada).json()
    assert (budget["blocked_by"], budget["left_today"], budget["allowed"]) == ("per_day", 0, None)
    assert datetime.fromisoformat(budget["next_at"]) == midnight


# Requests at once against the learner's row lock (SELECT ... FOR UPDATE on PostgreSQL).
@pytest.mark.both_databases
def test_submissions_sent_at_once_never_pass_the_cooldown(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    body = {"exercise": "gru-update-gate", "code": BROKEN}
    with ThreadPoolExecutor(max_workers=4) as senders:
        answers = list(
            senders.map(lambda _: client.post("/submit", headers=ada, json=body), range(4))
        )
    assert sorted(answer.status_code for answer in answers) == [202, 429, 429, 429]
    with runtime.sessions() as session:
        (stored,) = session.execute(select(func.count()).select_from(Submission)).one()
    assert stored == 1


def test_the_exercise_page_says_what_is_left_and_when_the_next_is_possible(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    user(runtime, "ada")
    sign_in(client, "ada", "correct horse")
    page = client.get("/learn/gru-update-gate").text
    assert 'data-blocked-by=""' in page and "Today: 2 of 2 left." in page
    assert "At least 60 min between graded submissions." in page
    assert "next graded submission is possible" not in page

    client.cookies.clear()
    ada = user(runtime, "ada2")
    assert send(client, ada) == 202
    sign_in(client, "ada2", "correct horse")
    page = client.get("/learn/gru-update-gate").text
    assert 'data-blocked-by="cooldown"' in page and "Today: 1 of 2 left." in page
    assert "Your next graded submission is possible from" in page


def test_the_cooldown_holds_for_every_token_and_the_web_session_of_the_learner(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    """The pace is the learner's, not a credential's: a second token, the signed-in page's
    session and a fresh idempotency key are all the same learner inside the same cooldown."""
    client, runtime = service
    ada = user(runtime, "ada")
    assert send(client, ada) == 202
    with runtime.sessions() as session:
        learner = account_store.get_user_by_name(session=session, name="ada")
        assert learner is not None
        _, second_token = account_store.create_token(session=session, user=learner)
        session.commit()
    body = {"exercise": "gru-update-gate", "code": BROKEN}
    second = client.post("/submit", headers={"Authorization": f"Bearer {second_token}"}, json=body)
    assert second.status_code == 429
    keyed = client.post("/submit", headers={**ada, "Idempotency-Key": "a-new-one"}, json=body)
    assert keyed.status_code == 429
    sign_in(client, "ada", "correct horse")
    csrf = csrf_of(client.get("/account").text)
    from_the_page = client.post("/submit", json=body, headers={"X-CSRF-Token": csrf})
    assert from_the_page.status_code == 429
    assert "60 minutes between graded submissions" in from_the_page.json()["detail"]
    with runtime.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 1
