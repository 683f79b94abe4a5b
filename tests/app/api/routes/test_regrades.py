"""Regrades: an edited exercise, its stale submissions graded again, every report kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.models import Role, SubmissionKind, SubmissionStatus, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from app.store import leases as lease_store
from app.store import regrades as regrade_store
from app.store import submissions as submission_store
from tests.app.conftest import read_exercise_file
from tests.app.course_catalog import course_service

GATE = "gru-update-gate"


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(database_url, tmp_path, shared_grader, None, copies=(GATE,)) as service:
        yield service


def headers_of(runtime: GradingRuntime, name: str, role: Role) -> dict[str, str]:
    with runtime.sessions() as session:
        user = account_store.create_user(session=session, name=name, role=role)
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    return {"Authorization": f"Bearer {token}"}


def submit(client: TestClient, headers: dict[str, str], file: str) -> dict[str, object]:
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=headers,
        json={"exercise": GATE, "code": read_exercise_file(GATE, file)},
    )
    result: dict[str, object] = response.json()
    assert result["status"] == "done", result
    return result


def wait_done(
    client: TestClient, headers: dict[str, str], submission_id: object, version: str
) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        result: dict[str, object] = client.get(
            f"/submissions/{submission_id}", headers=headers
        ).json()
        if result["status"] == "done" and result["exercise_version"] == version:
            return result
        time.sleep(0.1)
    raise AssertionError(f"submission {submission_id} was not regraded within 60 s")


def test_an_edited_exercise_regrades_with_every_report_kept(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = headers_of(runtime, "ada", Role.LEARNER)
    prof = headers_of(runtime, "prof", Role.INSTRUCTOR)
    right, wrong = submit(client, ada, "solution.py"), submit(client, ada, "starter.py")
    old_version = right["exercise_version"]
    assert client.get("/regrades", headers=prof).json()[0]["stale"] == 0

    statement = runtime.catalog.root / GATE / "statement.md"
    statement.write_text(statement.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    new_version = runtime.catalog.load(GATE).version
    assert new_version != old_version
    stale = {row["exercise"]: row for row in client.get("/regrades", headers=prof).json()}
    assert stale[GATE]["stale"] == 2 and stale[GATE]["version"] == new_version
    assert client.post(f"/regrades/{GATE}", headers=ada).status_code == 403

    response = client.post(f"/regrades/{GATE}", headers=prof)
    assert response.status_code == 200
    assert response.json() == {"exercise": GATE, "queued": 2}
    for before in (right, wrong):
        after = wait_done(client, ada, before["id"], new_version)
        assert after["regraded"] is True
        assert (after["verdict"], after["score"]) == (before["verdict"], before["score"])
        # The learner reads the first release's times: when the regrade ran, and how long,
        # would time their code on the hidden inputs.
        assert (after["started_at"], after["finished_at"]) == (
            before["started_at"],
            before["finished_at"],
        )
        reports = client.get(f"/submissions/{before['id']}/reports", headers=ada).json()
        assert [(r["exercise_version"], r["score"], r["current"]) for r in reports] == [
            (old_version, before["score"], False),
            (new_version, before["score"], True),
        ]
    assert {row["exercise"]: row["stale"] for row in client.get("/regrades", headers=prof).json()}[
        GATE
    ] == 0
    assert client.post(f"/regrades/{GATE}", headers=prof).json()["queued"] == 0
    assert client.post("/regrades/no-such", headers=prof).status_code == 404


def test_learners_own_work_is_claimed_before_regrades(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    _, runtime = service
    now = utcnow()
    with runtime.sessions() as session:
        users = [account_store.create_user(session=session, name=n) for n in ("ada", "bob")]
        regraded = submission_store.create_submission(
            session=session,
            user=users[0],
            exercise_id=GATE,
            exercise_version="old",
            code="x",
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=now,
        )
        regraded.status, regraded.verdict, regraded.score, regraded.max_score = (
            SubmissionStatus.DONE,
            None,
            3.0,
            25.0,
        )
        session.flush()
        assert regrade_store.queue_regrades(
            session=session, exercise_id=GATE, version="new", now=now, lease_expires_at=now
        ) == [regraded.id]
        own = submission_store.create_submission(
            session=session,
            user=users[1],
            exercise_id=GATE,
            exercise_version="new",
            code="y",
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=now + timedelta(hours=1),
        )
        session.commit()

        def order() -> list[str]:
            return [
                c.id
                for c in lease_store.next_candidates(
                    session=session, now=now, max_running=1, max_regrades=1
                )
            ]

        assert order() == [own.id, regraded.id]
        # ada's regrade running takes the one regrade slot, not ada's own slot: her own
        # work is still claimable, another regrade is not.
        (first, _) = lease_store.next_candidates(
            session=session, now=now, max_running=1, max_regrades=1
        )
        running = lease_store.claim_submission(
            session=session,
            candidate=next(
                c
                for c in lease_store.next_candidates(
                    session=session, now=now, max_running=1, max_regrades=1
                )
                if c.id == regraded.id
            ),
            worker="w:1",
            lease_token="t",
            lease_expires_at=now + timedelta(minutes=1),
            now=now,
            max_running=1,
            max_regrades=1,
        )
        assert running is not None and running.regrade
        mine = submission_store.create_submission(
            session=session,
            user=users[0],
            exercise_id=GATE,
            exercise_version="new",
            code="z",
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=now + timedelta(hours=1),
        )
        second = submission_store.create_submission(
            session=session,
            user=users[1],
            exercise_id=GATE,
            exercise_version="old",
            code="w",
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=now,
        )
        second.status, second.max_score = SubmissionStatus.DONE, 25.0
        session.flush()
        assert regrade_store.queue_regrades(
            session=session, exercise_id=GATE, version="new", now=now, lease_expires_at=now
        ) == [second.id]
        session.commit()
        assert set(order()) == {own.id, mine.id}
        assert first.id == own.id
        # A regrade waits in nobody's quota (ada's one waiting row is her own), and its
        # earlier score still counts meanwhile.
        assert (
            submission_store.learner_load(
                session=session, user_id=users[0].id, now=now, since=now - timedelta(hours=1)
            ).waiting
            == 1
        )
        held = submission_store.graded_attempts(
            session=session, exercise_ids=[GATE], user_id=users[0].id
        )
        assert [(a.exercise_id, a.score, a.regrading) for a in held] == [(GATE, 3.0, True)]


def test_the_command_lists_and_queues(
    service: tuple[TestClient, GradingRuntime], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, runtime = service
    ada = headers_of(runtime, "ada", Role.LEARNER)
    submit(client, ada, "starter.py")
    statement = runtime.catalog.root / GATE / "statement.md"
    statement.write_text(statement.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    settings = runtime.settings
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(settings.exercises_dir))
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", "memory://")
    monkeypatch.setenv("NUMJUDGE_AUTO_MIGRATE", "false")
    get_settings.cache_clear()
    try:
        listing = CliRunner().invoke(cli, ["regrade"])
        assert listing.exit_code == 0, listing.output
        assert f"{GATE:<24}      1 graded by an earlier version" in listing.output.splitlines()
        queued = CliRunner().invoke(cli, ["regrade", GATE])
        assert queued.exit_code == 0, queued.output
        assert queued.output.strip() == f"queued 1 submission(s) of {GATE!r} for regrading"
        unknown = CliRunner().invoke(cli, ["regrade", "no-such"])
        assert unknown.exit_code == 2 and "no-such" in unknown.output
    finally:
        get_settings.cache_clear()


def test_the_class_view_as_json(service: tuple[TestClient, GradingRuntime]) -> None:
    client, runtime = service
    ada = headers_of(runtime, "ada", Role.LEARNER)
    prof = headers_of(runtime, "prof", Role.INSTRUCTOR)
    submit(client, ada, "mistakes/one_minus_z.py")
    submit(client, ada, "solution.py")
    response = client.get(f"/analytics/exercises/{GATE}", headers=prof)
    assert response.status_code == 200
    view = response.json()
    assert (view["learners"], view["submissions"], view["full_score_learners"]) == (1, 2, 1)
    assert view["median_attempts_to_full"] == 2
    assert {b["label"]: b["count"] for b in view["best_scores"]}["100 %"] == 1
    assert all(t["graded"] == 2 and t["passed"] in (1, 2) for t in view["tests"])
    (mistake,) = view["mistakes"]
    assert (mistake["submissions"], mistake["learners"]) == (1, 1)
    assert (
        mistake["hint"]
        == runtime.catalog.load(GATE)
        .mistakes[[m.name for m in runtime.catalog.load(GATE).mistakes].index("one_minus_z")]
        .hint
    )
    assert client.get(f"/analytics/exercises/{GATE}", headers=ada).status_code == 403
    assert client.get("/analytics/exercises/nope", headers=prof).status_code == 404
    assert client.get("/analytics/assignments/nope", headers=prof).status_code == 404
