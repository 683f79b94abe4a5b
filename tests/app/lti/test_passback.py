"""Grade passback end to end: a learner launched from the test platform submits, the grading
queue sends the counted score to the platform's line item with an access token it got by a
client-credentials grant signed with the tool's key; failures are retried, then marked failed
with the reason, and can be resent."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.grading.recovery import RecoveryThread
from app.models import LtiGradeLink, PassbackState, Role, Submission, User, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import regrades
from app.services.lti import passback
from app.services.standings import load as standings
from app.store import accounts as account_store
from tests.app.conftest import make_runtime, make_settings, read_exercise_file, wipe
from tests.app.course_catalog import course_service, stamp
from tests.app.lti.conftest import TOOL, launch, register, registered_platform
from tests.app.lti.platform import AGS, INSTRUCTOR, LEARNER, Platform
from tests.app.lti.platform import User as LmsUser

ADA = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada Lovelace")
EXERCISE = "adam"


def _until(condition: Callable[[], Any], what: str, timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


def _launched(client: TestClient, runtime: GradingRuntime, lms: Platform) -> dict[str, str]:
    """Ada opens the exercise from the LMS; her numjudge account's API headers."""
    assert launch(client, lms, ADA, TOOL + "/learn/" + EXERCISE).status_code == 303
    lms.tool_jwks = client.get("/lti/jwks").json()
    with runtime.sessions() as session:
        [user] = session.query(User).all()
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    return {"Authorization": f"Bearer {token}"}


def _submit(client: TestClient, headers: dict[str, str], file: str) -> dict[str, Any]:
    answer = client.post(
        "/submit",
        params={"wait": 60},
        headers=headers,
        json={"exercise": EXERCISE, "code": read_exercise_file(EXERCISE, file)},
    )
    result: dict[str, Any] = answer.json()
    assert result["status"] == "done", result
    return result


def _link(runtime: GradingRuntime) -> LtiGradeLink:
    with runtime.sessions() as session:
        [link] = session.query(LtiGradeLink).all()
        session.expunge(link)
        return link


def test_a_graded_submission_reaches_the_lms_gradebook(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    headers = _launched(client, runtime, platform)
    link = _link(runtime)
    assert (link.scope.value, link.target, link.subject) == ("exercise", EXERCISE, ADA.sub)
    assert link.lineitem == platform.lineitem_url("link-1")
    result = _submit(client, headers, "solution.py")
    [(lineitem, score)] = _until(lambda: list(platform.scores), "the score reached the LMS")
    assert lineitem == platform.lineitem_url("link-1")
    assert score["userId"] == ADA.sub
    assert score["scoreGiven"] == 2.0 and score["scoreMaximum"] == 2.0  # adam's weight
    assert result["score"] == result["max_score"]
    assert (score["gradingProgress"], score["activityProgress"]) == ("FullyGraded", "Completed")
    assert score["timestamp"]
    link = _until(
        lambda: (found := _link(runtime)).state is PassbackState.SENT and found, "link sent"
    )
    assert (link.score_given, link.score_maximum, link.error) == (2.0, 2.0, "")

    # A worse submission later: the course still counts the best, and says so again.
    _submit(client, headers, "starter.py")
    _until(lambda: len(platform.scores) == 2, "the second passback")
    assert platform.scores[1][1]["scoreGiven"] == 2.0

    # Sending again (by hand) is harmless: the same score, one link, one more attempt.
    passback.resend(runtime, link_id=link.id)
    _until(lambda: len(platform.scores) == 3, "the resent score")
    assert platform.scores[2][1]["scoreGiven"] == 2.0
    with runtime.sessions() as session:
        assert session.query(LtiGradeLink).count() == 1
        assert len(passback.passbacks(session=session)) == 1
        [shown] = passback.passbacks(session=session)
        assert shown.attempts == 3 and shown.state is PassbackState.SENT


def test_a_passback_waits_while_another_holds_the_process_slot(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """A slow LMS holds one grading thread at most: while a passback holds the process's slot,
    another is put off (no post, no attempt counted) and sent once the slot is free."""
    headers = _launched(client, runtime, platform)
    _submit(client, headers, "solution.py")
    _until(lambda: len(platform.scores) == 1, "the first passback")
    link = _until(
        lambda: (found := _link(runtime)).state is PassbackState.SENT and found, "link sent"
    )
    with runtime.passback_slot:
        passback.run(runtime, link.id, 1)
        assert len(platform.scores) == 1
        with runtime.sessions() as session:
            [shown] = passback.passbacks(session=session)
            assert shown.attempts == 1
    _until(lambda: len(platform.scores) == 2, "the put-off passback, once the slot was free")


@pytest.fixture
def retrying(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[GradingRuntime]:
    """A runtime retrying passbacks a fifth of a second apart, three attempts in all."""
    settings = make_settings(
        database_url, tmp_path, lti_passback_retry_s=0.2, lti_passback_attempts=3
    )
    yield make_runtime(settings, shared_grader)
    wipe(database_url)


@pytest.fixture
def runtime(retrying: GradingRuntime) -> GradingRuntime:
    """The app (``client``) and the platform (``platform``) use the retrying runtime."""
    return retrying


def test_a_failing_gradebook_is_retried_until_it_answers(
    client: TestClient, retrying: GradingRuntime, platform: Platform
) -> None:
    headers = _launched(client, retrying, platform)
    platform.failing_scores = 2
    _submit(client, headers, "solution.py")
    _until(lambda: platform.scores, "the score after two failures")
    link = _until(
        lambda: (found := _link(retrying)).state is PassbackState.SENT and found, "link sent"
    )
    with retrying.sessions() as session:
        [shown] = passback.passbacks(session=session)
    assert shown.attempts == 3 and shown.score_given == 2.0 and link.error == ""


def test_a_gradebook_down_for_good_is_marked_failed_with_the_reason_then_resent(
    client: TestClient,
    retrying: GradingRuntime,
    platform: Platform,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    headers = _launched(client, retrying, platform)
    platform.failing_scores = 3
    _submit(client, headers, "solution.py")
    link = _until(
        lambda: (found := _link(retrying)).state is PassbackState.FAILED and found, "failed"
    )
    assert "503" in link.error and "down for maintenance" in link.error
    assert platform.scores == []
    with retrying.sessions() as session:
        [shown] = passback.passbacks(session=session)
    assert shown.attempts == 3 and shown.sent_at is None

    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", retrying.settings.database_url)
    get_settings.cache_clear()
    try:
        listing = CliRunner().invoke(cli, ["lti", "passbacks", "--failed"])
        unknown = CliRunner().invoke(cli, ["lti", "resend", "999999"])
    finally:
        get_settings.cache_clear()
    assert listing.exit_code == 0, listing.output
    [line] = listing.output.splitlines()
    assert line.startswith(f"{link.id}\tfailed\t") and "down for maintenance" in line
    assert "never sent" in line and "3 attempt(s)" in line
    assert unknown.exit_code == 2 and "not found" in unknown.output

    assert client.get("/instructor/lti").status_code == 403  # Ada is a learner
    teacher = LmsUser(sub="lms-teacher", roles=(INSTRUCTOR,), name="Grace Hopper")
    assert launch(client, platform, teacher, TOOL + "/instructor/lti").status_code == 303
    page = client.get("/instructor/lti")
    assert page.status_code == 200
    assert "down for maintenance" in page.text and "sending failed" in page.text
    assert f"<td>{ADA.name} (lti-" in page.text  # the LMS's name, beside the account's
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    answer = client.post(
        f"/instructor/lti/passbacks/{link.id}/resend",
        data={"csrf_token": csrf.group(1)},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    _until(lambda: platform.scores, "the resent score")
    assert platform.scores[0][1]["scoreGiven"] == 2.0
    _until(lambda: _link(retrying).state is PassbackState.SENT, "link sent after resend")
    page = client.get("/instructor/lti")
    assert "2 / 2" in page.text and "sent to the LMS" in page.text
    assert "down for maintenance" not in page.text


def test_a_token_the_platform_refuses_fails_with_its_reason(
    client: TestClient, retrying: GradingRuntime, platform: Platform
) -> None:
    headers = _launched(client, retrying, platform)
    platform.tool_jwks = {"keys": []}  # the platform does not know the tool's key
    _submit(client, headers, "solution.py")
    link = _until(
        lambda: (found := _link(retrying)).state is PassbackState.FAILED and found, "failed"
    )
    assert "access token" in link.error and "invalid_client" in link.error
    assert platform.scores == []


def test_a_regrade_and_an_extension_send_the_score_again(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    headers = _launched(client, runtime, platform)
    submitted = _submit(client, headers, "solution.py")
    _until(lambda: len(platform.scores) == 1, "the first passback")

    # As if the exercise had been edited since: its submission is graded again.
    with runtime.sessions() as session:
        session.execute(
            update(Submission)
            .where(Submission.id == submitted["id"])
            .values(exercise_version="an earlier version")
        )
        session.commit()
    assert regrades.regrade(runtime=runtime, exercise_id=EXERCISE) == 1
    _until(lambda: len(platform.scores) == 2, "the regrade's passback")
    assert platform.scores[1][1]["scoreGiven"] == 2.0

    [assignment] = [a for a in runtime.catalog.schedule().assignments if EXERCISE in a.exercise_ids]
    teacher = LmsUser(sub="lms-teacher", roles=(INSTRUCTOR,), name="Grace Hopper")
    assert launch(client, platform, teacher, TOOL + "/instructor/lti").status_code == 303
    page = client.get(f"/instructor/assignments/{assignment.id}")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    with runtime.sessions() as session:
        ada = session.query(User).filter(User.role == Role.LEARNER).one()
    later = (assignment.due + timedelta(days=3)).isoformat()
    answer = client.post(
        f"/instructor/assignments/{assignment.id}/extensions",
        data={"csrf_token": csrf.group(1), "learner": ada.name, "until": later},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    _until(lambda: len(platform.scores) == 3, "the extension's passback")
    assert [score["userId"] for _, score in platform.scores] == [ADA.sub] * 3


def test_a_link_to_an_assignment_gets_the_assignments_score(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    [assignment] = [a for a in runtime.catalog.schedule().assignments if EXERCISE in a.exercise_ids]
    assert launch(client, platform, ADA, TOOL + "/").status_code == 303  # nothing to grade
    with runtime.sessions() as session:
        assert session.query(LtiGradeLink).count() == 0
    target = f"{TOOL}/course?assignment={assignment.id}"
    assert launch(client, platform, ADA, target).status_code == 303
    link = _link(runtime)
    assert (link.scope.value, link.target) == ("assignment", assignment.id)
    platform.tool_jwks = client.get("/lti/jwks").json()
    with runtime.sessions() as session:
        [user] = session.query(User).all()
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    _submit(client, {"Authorization": f"Bearer {token}"}, "solution.py")
    [(lineitem, score)] = _until(lambda: list(platform.scores), "the assignment's score")
    assert lineitem == platform.lineitem_url("link-2")
    # The assignment's counted points (the late policy applied), as the gradebook shows them.
    with runtime.sessions() as session:
        standing = standings.learner_standing(
            session=session,
            catalog=runtime.catalog,
            user=user,
            assignment=assignment,
            now=utcnow(),
        )
    assert score["scoreMaximum"] == assignment.total_weight
    assert score["scoreGiven"] == standing.score


def test_a_launch_without_grade_services_keeps_nothing(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    platform.tamper = lambda claims, headers: claims.pop(AGS + "claim/endpoint")
    assert launch(client, platform, ADA, TOOL + "/learn/" + EXERCISE).status_code == 303
    with runtime.sessions() as session:
        assert session.query(LtiGradeLink).count() == 0


def test_a_link_without_its_own_line_item_fails_with_that_reason(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    platform.tamper = lambda claims, headers: claims[AGS + "claim/endpoint"].pop("lineitem")
    headers = _launched(client, runtime, platform)
    _submit(client, headers, "solution.py")
    link = _until(
        lambda: (found := _link(runtime)).state is PassbackState.FAILED and found, "failed"
    )
    assert "no line item" in link.error and platform.scores == []
    with runtime.sessions() as session:
        [shown] = passback.passbacks(session=session)
    assert shown.attempts == 1  # no later attempt could mend it


def _weighted_course(weight: int) -> str:
    now = datetime.now(UTC).replace(microsecond=0)
    return f"""
[[assignment]]
id = "optimisers"
title = "Optimisers"
opens = {stamp(now - timedelta(days=1))}
due = {stamp(now + timedelta(days=6))}
exercises = [{{ id = "{EXERCISE}", weight = {weight} }}]
"""


def test_a_changed_course_file_sends_the_scores_it_now_counts(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> None:
    """A weight (or a late policy, or a due time) changed in course.toml changes the score the
    schedule counts: the LMS gets the new one, and only the changed ones are sent."""
    with (
        course_service(database_url, tmp_path, shared_grader, _weighted_course(2)) as served,
        registered_platform(served[1]) as lms,
    ):
        client, runtime = served
        headers = _launched(client, runtime, lms)
        _submit(client, headers, "solution.py")
        _until(lambda: len(lms.scores) == 1, "the first passback")
        _until(lambda: _link(runtime).state is PassbackState.SENT, "the link sent")
        assert passback.reconcile(runtime) == 0  # the schedule counts what the LMS holds

        (runtime.settings.exercises_dir / "course.toml").write_text(_weighted_course(5))
        assert passback.reconcile(runtime) == 1
        _until(lambda: len(lms.scores) == 2, "the changed score's passback")
        assert (lms.scores[1][1]["scoreGiven"], lms.scores[1][1]["scoreMaximum"]) == (5.0, 5.0)


def test_the_recovery_thread_reconciles_when_the_course_file_changes(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> None:
    """Its first pass (the file may have changed while the service was down), then each pass
    after the file changed; a file that does not load changes nothing."""
    with course_service(database_url, tmp_path, shared_grader, _weighted_course(2)) as served:
        thread = RecoveryThread(served[1])
        course = served[1].settings.exercises_dir / "course.toml"
        assert thread.schedule_changed()
        assert not thread.schedule_changed()
        course.write_text(_weighted_course(3), encoding="utf-8")
        assert thread.schedule_changed()
        assert not thread.schedule_changed()
        course.write_text("[[assignment]\n", encoding="utf-8")
        assert not thread.schedule_changed()


def _headers_of(runtime: GradingRuntime, name: str) -> dict[str, str]:
    """API headers of the account whose LMS name is ``name``."""
    with runtime.sessions() as session:
        user = session.query(User).filter(User.display_name == name).one()
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    return {"Authorization": f"Bearer {token}"}


def _settled(runtime: GradingRuntime, link_id: int) -> LtiGradeLink:
    """The link once no passback of it waits (sent, or failed for good)."""

    def settled() -> LtiGradeLink | None:
        with runtime.sessions() as session:
            link = session.get(LtiGradeLink, link_id)
            assert link is not None
            session.expunge(link)
        return link if link.state is not PassbackState.PENDING else None

    found: LtiGradeLink = _until(settled, "the passback settled")
    return found


def test_two_registrations_of_one_issuer_each_get_their_own_token(
    client: TestClient, retrying: GradingRuntime, platform: Platform
) -> None:
    """Hosted Canvas registers a tool once per developer key, each with its own client id,
    under its one issuer: a token the platform granted one client is refused for the other's
    line items, so each registration's passbacks ask for a token of their own."""
    second = "numjudge-client-2"
    platform.other_client_ids = (second,)
    with retrying.sessions() as session:
        register(session, platform, client_id=second)
    bea = LmsUser(sub="lms-bea", roles=(LEARNER,), name="Bea Beaumont")
    exercise = TOOL + "/learn/" + EXERCISE
    assert launch(client, platform, ADA, exercise).status_code == 303
    assert launch(client, platform, bea, exercise, client_id=second).status_code == 303
    platform.tool_jwks = client.get("/lti/jwks").json()
    _submit(client, _headers_of(retrying, ADA.name), "solution.py")
    _until(lambda: len(platform.scores) == 1, "the first registration's score")
    _submit(client, _headers_of(retrying, bea.name), "solution.py")
    with retrying.sessions() as session:
        links = {link.user.display_name: link.id for link in session.query(LtiGradeLink)}
    sent = _settled(retrying, links[bea.name])
    assert (sent.state, sent.error) == (PassbackState.SENT, "")
    assert [(line, score["userId"]) for line, score in platform.scores] == [
        (platform.lineitem_url("link-1"), ADA.sub),
        (platform.lineitem_url("link-2"), bea.sub),
    ]
    assert sorted(platform.token_clients.values()) == [platform.client_id, second]


def test_a_token_the_platform_revoked_is_replaced_at_once(
    client: TestClient, retrying: GradingRuntime, platform: Platform
) -> None:
    """A platform that revokes its tokens (or changes its key) refuses the cached one with 401:
    the tool drops it and asks for a new one in the same attempt, so no passback fails."""
    headers = _launched(client, retrying, platform)
    _submit(client, headers, "solution.py")
    link = _settled(retrying, _link(retrying).id)
    assert link.state is PassbackState.SENT and len(platform.token_clients) == 1
    platform.revoke_tokens()
    _submit(client, headers, "solution.py")
    link = _settled(retrying, link.id)
    assert (link.state, link.error) == (PassbackState.SENT, "")
    assert len(platform.scores) == 2 and len(platform.token_clients) == 1  # a new token
    with retrying.sessions() as session:
        [shown] = passback.passbacks(session=session)
    assert shown.attempts == 2  # one each, none refused


def test_a_link_opened_after_the_work_was_graded_gets_its_score_at_once(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """Ada's work was graded through one link; a link to its assignment, opened later, gets the
    assignment's score at that launch (no grading to come would send it), once."""
    headers = _launched(client, runtime, platform)
    _submit(client, headers, "solution.py")
    _until(lambda: len(platform.scores) == 1, "the exercise link's score")
    [assignment] = [a for a in runtime.catalog.schedule().assignments if EXERCISE in a.exercise_ids]
    target = f"{TOOL}/course?assignment={assignment.id}"
    assert launch(client, platform, ADA, target).status_code == 303
    [(lineitem, score)] = _until(lambda: platform.scores[1:], "the new link's score")
    assert lineitem == platform.lineitem_url("link-2") and score["userId"] == ADA.sub
    assert (score["scoreGiven"], score["scoreMaximum"]) == (2.0, assignment.total_weight)
    # Opening it again sends nothing more: its score follows the gradings from now on.
    assert launch(client, platform, ADA, target, link_id="link-2").status_code == 303
    with runtime.sessions() as session:
        link_ids = [link.id for link in session.query(LtiGradeLink)]
    for link_id in link_ids:
        assert _settled(runtime, link_id).state is PassbackState.SENT
    assert len(platform.scores) == 2


def test_activity_progress_says_whether_the_work_is_complete(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """Completed only with every point of the link's work as the schedule counts it: the exercise
    at 0 of 2 and then the assignment at 2 of its whole weight are in progress; the exercise at
    2 of 2 is completed. Every score is final for the work graded so far (FullyGraded)."""
    headers = _launched(client, runtime, platform)
    _submit(client, headers, "starter.py")
    [(_, first)] = _until(lambda: list(platform.scores), "the starter's score")
    assert (first["scoreGiven"], first["activityProgress"]) == (0.0, "InProgress")
    _submit(client, headers, "solution.py")
    _until(lambda: len(platform.scores) == 2, "the solution's score")
    second = platform.scores[1][1]
    assert (second["scoreGiven"], second["activityProgress"]) == (2.0, "Completed")
    [assignment] = [a for a in runtime.catalog.schedule().assignments if EXERCISE in a.exercise_ids]
    assert launch(client, platform, ADA, f"{TOOL}/course?assignment={assignment.id}").is_redirect
    _until(lambda: len(platform.scores) == 3, "the assignment link's score")
    third = platform.scores[2][1]
    assert (third["scoreGiven"], third["scoreMaximum"]) == (2.0, assignment.total_weight)
    assert assignment.total_weight > 2.0
    assert third["activityProgress"] == "InProgress"
    assert {s["gradingProgress"] for _, s in platform.scores} == {"FullyGraded"}
