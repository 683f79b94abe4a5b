"""``numjudge users …`` and ``numjudge db upgrade`` through Typer's CliRunner."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi import HTTPException
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.core.security import hash_token, verify_password
from app.models import ApiToken, Role, User, utcnow
from app.services.auth import ACCOUNT_DISABLED, Credentials, resolve_user
from app.store import accounts as account_store


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
        assert account_store.get_user_by_token(session=session, token=token) is not None


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
        assert account_store.get_user_by_token(session=session, token=first) is None
        assert account_store.get_user_by_token(session=session, token=second) is not None
    assert "revoked 1" in runner.invoke(cli, ["users", "revoke", "ada"]).output
    assert runner.invoke(cli, ["users", "revoke", "nobody"]).exit_code == 2


def test_password_is_asked_and_stored_as_argon2(env: str) -> None:
    result = CliRunner().invoke(
        cli, ["users", "add", "prof", "--password"], input="pw-12345\npw-12345\n"
    )
    assert result.exit_code == 0, result.output
    with session_scope(env) as session:
        user = account_store.get_user_by_name(session=session, name="prof")
        assert user is not None and user.password_hash is not None
        assert verify_password(user.password_hash, "pw-12345")


def test_db_upgrade(env: str) -> None:
    result = CliRunner().invoke(cli, ["db", "upgrade"])
    assert result.exit_code == 0 and "head" in result.output
    with session_scope(env) as session:
        assert session.scalars(select(User)).all() == []


def test_the_cli_applies_the_name_rule(env: str) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["users", "add", "Alice"]).exit_code == 0
    for twin in ("alice", "ALICE", "ａｌｉｃｅ"):
        again = runner.invoke(cli, ["users", "add", twin])
        assert again.exit_code == 2 and "already exists" in again.output
    for bad in ("x", "a b", "ａ!"):
        refused = runner.invoke(cli, ["users", "add", bad])
        assert refused.exit_code == 2 and "2–32 letters" in refused.output
    assert "revoked 1 token(s)" in runner.invoke(cli, ["users", "revoke", "ALICE"]).output


def test_the_cli_applies_the_password_rule(env: str) -> None:
    runner = CliRunner()
    short = runner.invoke(cli, ["users", "add", "prof", "--password"], input="x\nx\n")
    assert short.exit_code == 2 and "at least 8 characters" in short.output
    blank = runner.invoke(
        cli, ["users", "add", "prof", "--password"], input=" " * 8 + "\n" + " " * 8 + "\n"
    )
    assert blank.exit_code == 2 and "not only spaces" in blank.output
    assert "prof" not in runner.invoke(cli, ["users", "list"]).output


def test_revoke_prefix_is_literal(env: str) -> None:
    runner = CliRunner()
    token = runner.invoke(cli, ["users", "add", "ada"]).output.strip().splitlines()[-1]
    for wildcard in ("nj_%", "%", "_"):
        result = runner.invoke(cli, ["users", "revoke", "ada", "--prefix", wildcard])
        assert result.exit_code == 0 and "revoked 0 token(s)" in result.output
    with session_scope(env) as session:
        assert account_store.get_user_by_token(session=session, token=token) is not None


def test_tokens_may_expire(env: str) -> None:
    runner = CliRunner()
    runner.invoke(cli, ["users", "add", "ada"])
    result = runner.invoke(cli, ["users", "token", "ada", "--expires", "90d"])
    assert result.exit_code == 0 and "valid until" in result.output
    token = result.output.strip().splitlines()[-1]
    with session_scope(env) as session:
        row = session.scalars(
            select(ApiToken).where(ApiToken.token_hash == hash_token(token))
        ).one()
        assert row.expires_at is not None
        assert timedelta(days=89) < row.expires_at - utcnow() <= timedelta(days=90)
    bad = runner.invoke(cli, ["users", "token", "ada", "--expires", "soon"])
    assert bad.exit_code == 2 and "not a duration" in bad.output


def test_disable_and_enable(env: str) -> None:
    runner = CliRunner()
    token = runner.invoke(cli, ["users", "add", "ada"]).output.strip().splitlines()[-1]
    assert runner.invoke(cli, ["users", "disable", "ada"]).exit_code == 0
    credentials = Credentials(token=token, session_secret=None, authorization_header=True)
    with session_scope(env) as session:
        disabled = account_store.get_user_by_token(session=session, token=token)
        assert disabled is not None and not disabled.is_active
        with pytest.raises(HTTPException) as refused:
            resolve_user(session=session, credentials=credentials)
        assert (refused.value.status_code, refused.value.detail) == (401, ACCOUNT_DISABLED)
    assert "ada" in runner.invoke(cli, ["users", "list"]).output
    assert runner.invoke(cli, ["users", "enable", "ada"]).exit_code == 0
    with session_scope(env) as session:
        enabled = resolve_user(session=session, credentials=credentials)
        assert enabled is not None and enabled.is_active and enabled.name == "ada"
