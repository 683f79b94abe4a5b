"""``numjudge extend LEARNER ASSIGNMENT``: a learner's own due time, from the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.models import PassbackState, WorkScope, utcnow
from app.runtime.queue import GradingQueue
from app.services.lti import passback
from app.store import accounts as account_store
from app.store import extensions as extension_store
from app.store import lti as lti_store
from graders.api import ExerciseCatalog

REPO = Path(__file__).resolve().parents[3]
runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", url)
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(REPO / "exercises"))
    get_settings.cache_clear()
    assert runner.invoke(cli, ["users", "add", "ada"]).exit_code == 0
    yield url
    get_settings.cache_clear()


def extension_of(url: str, name: str, assignment: str) -> datetime | None:
    with session_scope(url) as session:
        user = account_store.get_user_by_name(session=session, name=name)
        assert user is not None
        row = extension_store.get_extension(
            session=session, user_id=user.id, assignment_id=assignment
        )
        return None if row is None else row.due


def test_until_sets_and_remove_takes_back(env: str) -> None:
    result = runner.invoke(
        cli, ["extend", "ada", "gru-by-hand", "--until", "2026-12-20T23:59+01:00"]
    )
    assert result.exit_code == 0, result.output
    assert extension_of(env, "ada", "gru-by-hand") == datetime(2026, 12, 20, 22, 59, tzinfo=UTC)
    assert "'ada' is due for 'gru-by-hand' at 2026-12-20T23:59:00+01:00" in result.output
    result = runner.invoke(cli, ["extend", "ada", "gru-by-hand", "--until", "2026-12-21T12:00"])
    assert result.exit_code == 0, result.output  # no offset: the schedule's zone (Europe/Berlin)
    assert extension_of(env, "ada", "gru-by-hand") == datetime(2026, 12, 21, 11, tzinfo=UTC)
    result = runner.invoke(cli, ["extend", "ada", "gru-by-hand", "--remove"])
    assert result.exit_code == 0, result.output
    assert "'ada' follows the due time of 'gru-by-hand' again" in result.output
    assert extension_of(env, "ada", "gru-by-hand") is None


def test_days_count_from_the_assignments_own_due_time(env: str) -> None:
    result = runner.invoke(cli, ["extend", "ada", "gru-by-hand", "--days", "3"])
    assert result.exit_code == 0, result.output
    due = ExerciseCatalog(REPO / "exercises").schedule().assignments[0].due
    assert extension_of(env, "ada", "gru-by-hand") == due + timedelta(days=3)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ada", "no-such", "--days", "1"], "Assignment 'no-such' not found"),
        (["eve", "gru-by-hand", "--days", "1"], "user 'eve' not found"),
        (["ada", "gru-by-hand"], "give exactly one of --until, --days or --remove"),
        (
            ["ada", "gru-by-hand", "--until", "2026-12-13T10:00"],
            "an extension ends after the assignment's own due time (2026-12-14 23:59 CET), "
            "not at 2026-12-13 10:00 CET",
        ),
        (["ada", "gru-by-hand", "--until", "next friday"], "write a date and time"),
    ],
)
def test_mistakes_are_named(env: str, args: list[str], message: str) -> None:
    result = runner.invoke(cli, ["extend", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert extension_of(env, "ada", "gru-by-hand") is None


def test_a_learner_linked_from_an_lms_has_their_score_passed_back(
    env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue_url = f"sqlite:///{tmp_path / 'queue.db'}"
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", queue_url)
    get_settings.cache_clear()
    with session_scope(env) as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None
        platform = lti_store.add_platform(
            session=session,
            issuer="https://lms.example.edu",
            client_id="c",
            deployment_ids=["d"],
            jwks_url="https://lms.example.edu/jwks",
            auth_login_url="https://lms.example.edu/auth",
            token_url="https://lms.example.edu/token",
        )
        link = lti_store.save_grade_link(
            session=session,
            platform=platform,
            resource_link_id="r",
            user=ada,
            subject="lms-ada",
            scope=WorkScope.ASSIGNMENT,
            target="gru-by-hand",
            lineitem="https://lms.example.edu/lineitems/1",
            lineitems="",
            scopes=[passback.SCORE_SCOPE],
            now=utcnow(),
        )
        link.state = PassbackState.SENT
    result = runner.invoke(cli, ["extend", "ada", "gru-by-hand", "--days", "3"])
    assert result.exit_code == 0, result.output
    assert "queued 1 score passback(s) to the LMS" in result.output
    with session_scope(env) as session:
        [shown] = passback.passbacks(session=session)
        assert shown.state is PassbackState.PENDING
    queue = GradingQueue(queue_url)
    try:
        assert queue.pending() == 1
    finally:
        queue.stop()


def test_a_learner_without_an_lms_link_queues_nothing(env: str) -> None:
    result = runner.invoke(cli, ["extend", "ada", "gru-by-hand", "--days", "3"])
    assert result.exit_code == 0, result.output
    assert "passback" not in result.output
