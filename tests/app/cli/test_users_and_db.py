"""``numjudge users …`` and ``numjudge db upgrade`` through Typer's CliRunner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app import crud
from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.core.security import hash_token
from app.models import ApiToken, Role, User


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", url)
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", f"sqlite:///{tmp_path / 'q.db'}")
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def test_users_add_prints_the_token_alone_on_the_last_line(env: str) -> None:
    result = CliRunner().invoke(cli, ["users", "add", "prof", "--role", "instructor"])
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    assert token.startswith("nj_") and " " not in token
    with session_scope(env) as session:
        user = session.scalars(select(User)).one()
        assert user.name == "prof" and user.role is Role.INSTRUCTOR
        stored = session.scalars(select(ApiToken)).one()
        assert stored.token_hash == hash_token(token)
        assert crud.get_user_by_token(session=session, token=token) is not None


def test_duplicate_user_is_refused(env: str) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["users", "add", "ada"]).exit_code == 0
    again = runner.invoke(cli, ["users", "add", "ada"])
    assert again.exit_code == 2 and "already exists" in again.output


def test_list_token_and_revoke(env: str) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, ["users", "add", "ada"]).output.strip().splitlines()[-1]
    second = runner.invoke(cli, ["users", "token", "ada"]).output.strip().splitlines()[-1]
    listing = runner.invoke(cli, ["users", "list"]).output
    assert "ada" in listing and "learner" in listing and " 2 " in listing
    revoked = runner.invoke(cli, ["users", "revoke", "ada", "--prefix", first[:10]])
    assert revoked.exit_code == 0 and "revoked 1 token(s)" in revoked.output
    with session_scope(env) as session:
        assert crud.get_user_by_token(session=session, token=first) is None
        assert crud.get_user_by_token(session=session, token=second) is not None
    assert "revoked 1" in runner.invoke(cli, ["users", "revoke", "ada"]).output
    assert runner.invoke(cli, ["users", "revoke", "nobody"]).exit_code == 2


def test_password_is_asked_and_stored_as_argon2(env: str) -> None:
    result = CliRunner().invoke(cli, ["users", "add", "prof", "--password"],
                                input="pw-123\npw-123\n")
    assert result.exit_code == 0, result.output
    with session_scope(env) as session:
        assert crud.authenticate_password(session=session, name="prof", password="pw-123")


def test_db_upgrade(env: str) -> None:
    result = CliRunner().invoke(cli, ["db", "upgrade"])
    assert result.exit_code == 0 and "head" in result.output
    with session_scope(env) as session:
        assert session.scalars(select(User)).all() == []
