"""Session cookies: no key written anywhere works, and sessions end at once when they should."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeTimedSerializer
from pydantic import SecretStr, ValidationError
from sqlalchemy import event, select

from app.core.config import Settings
from app.main import create_app
from app.models import Role, ServiceSecret
from app.runtime.context import GradingRuntime
from app.services import accounts
from app.services.auth import ACCOUNT_DISABLED, SIGNING_KEY_NAME, signing_key
from app.store import accounts as account_store
from app.web import auth
from tests.app.conftest import REPO
from tests.app.web.helpers import csrf_of, sign_in, sign_up

SALT = "numjudge.web.session"
# Every way the repository writes a key down: NUMJUDGE_SECRET_KEY=…, secret_key="…", and the
# old default constant.
KEY_PATTERNS = (
    re.compile(r"NUMJUDGE_SECRET_KEY[\"']?\s*[=:]\s*[\"']?([^\"'\s)}]*)"),
    re.compile(r"secret_key[\"']?\s*[=:]\s*[\"']([^\"']*)[\"']"),
    re.compile(r"PLACEHOLDER_SECRET\s*=\s*[\"']([^\"']*)[\"']"),
)
SCANNED = (
    "app",
    "docs",
    "tests",
    "migrations",
    "README.md",
    "Dockerfile",
    "docker-compose.yml",
    "Makefile",
)


def keys_in(text: str) -> set[str]:
    return {match.group(1) for pattern in KEY_PATTERNS for match in pattern.finditer(text)}


def placeholders() -> set[str]:
    found = {"", "changethis"}  # changethis: the default before keys were generated
    for root in SCANNED:
        path = REPO / root
        files = (
            [path]
            if path.is_file()
            else [
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix in {".py", ".md", ".yml", ".toml", ".html", ".txt", ""}
            ]
        )
        for file in files:
            found |= keys_in(file.read_text(encoding="utf-8", errors="replace"))
    return found


def test_the_scan_finds_keys_however_they_are_written() -> None:
    sample = (
        "export NUMJUDGE_SECRET_KEY=hunter2\n"
        "      NUMJUDGE_SECRET_KEY: swordfish\n"
        '    env = {"NUMJUDGE_SECRET_KEY": "e2e-" + os.urandom(16).hex()}\n'
        '    Settings(secret_key="test-secret")\n'
        '    values = {"secret_key": "0xdeadbeef"}\n'
    )
    assert keys_in(sample) == {"hunter2", "swordfish", "e2e-", "test-secret", "0xdeadbeef"}


@pytest.mark.parametrize("key", sorted(placeholders()))
def test_a_key_written_in_the_repository_is_refused_as_a_setting(key: str) -> None:
    with pytest.raises(ValidationError, match="at least 32 characters"):
        Settings(_env_file=None, secret_key=SecretStr(key))


def test_a_cookie_signed_with_any_placeholder_is_no_session(
    client: TestClient, make_user: object, runtime: GradingRuntime
) -> None:
    with runtime.sessions() as session:
        prof = account_store.create_user(
            session=session, name="prof", role=Role.INSTRUCTOR, password="teach-numpy-1"
        )
        session.commit()
    sign_in(client, "prof", "teach-numpy-1")
    real = client.cookies[auth.SESSION_COOKIE]
    assert client.get("/instructor/gradebook", follow_redirects=False).status_code == 200
    secret = URLSafeTimedSerializer(signing_key(runtime.settings), salt=SALT).loads(real)["s"]
    for key in sorted(placeholders()):
        serializer = URLSafeTimedSerializer(key, salt=SALT)
        for payload in (
            {"u": prof.id, "c": "x"},
            {"s": secret, "c": "x"},
            {"s": "forged", "c": "x"},
        ):
            client.cookies.set(auth.SESSION_COOKIE, serializer.dumps(payload))
            page = client.get("/instructor/gradebook", follow_redirects=False)
            assert page.status_code == 303, (key, payload)
            assert page.headers["location"].startswith("/login")


def test_without_a_setting_a_random_key_is_generated_once_and_kept_in_the_database(
    runtime: GradingRuntime,
) -> None:
    assert runtime.settings.secret_key is None
    key = signing_key(runtime.settings)
    with runtime.sessions() as session:
        stored = session.scalars(
            select(ServiceSecret.value).where(ServiceSecret.name == SIGNING_KEY_NAME)
        ).one()
        # a second process finds the same row instead of making its own
        assert (
            account_store.get_or_create_secret(
                session=session, name=SIGNING_KEY_NAME, value="another"
            )
            == stored
        )
    assert key == stored and len(key) >= 48
    assert key not in placeholders()


def _signed_in_client(client: TestClient, name: str = "ada") -> str:
    sign_up(client, name, "lovelace-1815")
    assert f"Signed in as <strong>{name}</strong>" in client.get("/").text
    return str(client.cookies[auth.SESSION_COOKIE])


def _is_anonymous_with(client: TestClient, cookie: str) -> bool:
    client.cookies.clear()
    client.cookies.set(auth.SESSION_COOKIE, cookie)
    page = client.get("/account", follow_redirects=False)
    return page.status_code == 303 and str(page.headers["location"]).startswith("/login")


def test_sign_out_ends_the_session_for_a_copied_cookie(client: TestClient) -> None:
    cookie = _signed_in_client(client)
    client.post("/logout", data={"csrf_token": csrf_of(client.get("/").text)})
    assert _is_anonymous_with(client, cookie)


def test_a_new_password_ends_every_session(client: TestClient, runtime: GradingRuntime) -> None:
    cookie = _signed_in_client(client)
    other = TestClient(client.app)
    sign_in(other, "ada", "lovelace-1815")
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="ada")
        assert user is not None
        accounts.set_password(session=session, user=user, password="analytical-engine")
        session.commit()
    assert _is_anonymous_with(client, cookie)
    assert "Signed in as" not in other.get("/").text


def test_disabling_ends_sessions_and_refuses_tokens_and_sign_in(
    client: TestClient, runtime: GradingRuntime
) -> None:
    cookie = _signed_in_client(client)
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="ada")
        assert user is not None
        _, token = account_store.create_token(session=session, user=user)
        accounts.set_disabled(session=session, user=user, disabled=True)
        session.commit()
    assert _is_anonymous_with(client, cookie)
    refused = client.get("/submissions", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401
    assert refused.json()["detail"] == ACCOUNT_DISABLED
    client.cookies.clear()
    login = client.post(
        "/login",
        data={
            "csrf_token": csrf_of(client.get("/login").text),
            "username": "ada",
            "password": "lovelace-1815",
        },
    )
    assert login.status_code == 403 and "Your account is disabled" in login.text
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="ada")
        assert user is not None
        accounts.set_disabled(session=session, user=user, disabled=False)
        session.commit()
    sign_in(client, "ada", "lovelace-1815")


def test_revoking_everything_ends_the_sessions_too(
    client: TestClient, runtime: GradingRuntime
) -> None:
    cookie = _signed_in_client(client)
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="ada")
        assert user is not None
        assert accounts.revoke(session=session, user=user, prefix="nj_") == (0, 0)
        assert accounts.revoke(session=session, user=user) == (0, 1)
        session.commit()
    assert _is_anonymous_with(client, cookie)


def test_the_api_accepts_a_session_only_while_it_lives(client: TestClient) -> None:
    cookie = _signed_in_client(client)
    csrf = csrf_of(client.get("/account").text)
    assert client.get("/submissions").status_code == 200
    client.post("/logout", data={"csrf_token": csrf})
    client.cookies.set(auth.SESSION_COOKIE, cookie)
    after = client.get("/submissions")
    assert after.status_code == 401
    assert after.json()["detail"].startswith("Not authenticated")


def test_two_apps_on_one_database_share_the_generated_key(
    client: TestClient, runtime: GradingRuntime, tmp_path: Path
) -> None:
    cookie = _signed_in_client(client)
    with TestClient(create_app(runtime=runtime)) as second:
        second.cookies.set(auth.SESSION_COOKIE, cookie)
        assert "Signed in as <strong>ada</strong>" in second.get("/").text


def test_a_write_is_committed_before_its_answer_is_sent(runtime: GradingRuntime) -> None:
    """A browser follows a sign-in's redirect at once: the session row must be stored by
    then (in CI a request that came first found none and signed the browser out)."""
    events: list[str] = []
    event.listen(runtime.sessions.kw["bind"], "commit", lambda _: events.append("commit"))

    def recorded(app: Any) -> Any:
        async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                events.append(f"{scope['method']} {scope['path']}")

            async def send_recorded(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    events.append("answer")
                await send(message)

            await app(scope, receive, send_recorded)

        return asgi

    with TestClient(recorded(create_app(runtime=runtime))) as browser:
        sign_up(browser, "ada", "lovelace-1815")
        browser.post("/logout", data={"csrf_token": csrf_of(browser.get("/").text)})
        events.clear()
        sign_in(browser, "ada", "lovelace-1815")
        assert "Signed in as" in browser.get("/").text
    signing_in = events[events.index("POST /login") :]
    assert "commit" in signing_in[: signing_in.index("answer")], events
