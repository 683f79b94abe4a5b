"""Sign-up, sign-in, the session cookie, CSRF, and the cookie session on the API."""

from __future__ import annotations

import time
from unittest import mock

from fastapi.testclient import TestClient
from itsdangerous import URLSafeTimedSerializer

from app.models import Role
from app.runtime.context import GradingRuntime
from app.services import roster
from app.services.auth import signing_key
from app.store import accounts as account_store
from app.web import auth
from tests.app.web.helpers import csrf_of, sign_in, sign_up


def test_sign_up_signs_in_and_stores_an_argon2_hash(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada", "lovelace-1815")
    page = client.get("/")
    assert "Signed in as <strong>ada</strong>" in page.text
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="ada")
        assert user is not None and user.role is Role.LEARNER
        assert user.password_hash is not None and user.password_hash.startswith("$argon2")


def test_sign_up_problems_are_shown_on_the_form(client: TestClient) -> None:
    token = csrf_of(client.get("/signup").text)
    cases = [
        (
            {"username": "a", "password": "long enough", "password2": "long enough"},
            "Choose a username of 2–32 letters",
        ),
        (
            {"username": "bob", "password": "short", "password2": "short"},
            "Choose a password of at least 8 characters.",
        ),
        (
            {"username": "bob", "password": "long enough", "password2": "different"},
            "The two passwords differ.",
        ),
    ]
    for form, message in cases:
        response = client.post("/signup", data={"csrf_token": token} | form)
        assert response.status_code == 400
        assert message in response.text
    sign_up(client, "bob")
    client.cookies.clear()
    token = csrf_of(client.get("/signup").text)
    taken = client.post(
        "/signup",
        data={
            "csrf_token": token,
            "username": "bob",
            "password": "long enough",
            "password2": "long enough",
        },
    )
    assert taken.status_code == 400
    assert "The username &#39;bob&#39; is taken; choose another." in taken.text


def test_sign_up_can_be_closed(client: TestClient, runtime: GradingRuntime) -> None:
    runtime.settings.signup_open = False
    page = client.get("/signup")
    assert page.status_code == 403
    assert "Sign-up is closed on this server." in page.text
    refused = client.post(
        "/signup", data={"username": "eve", "password": "x" * 10, "password2": "x" * 10}
    )
    assert refused.status_code == 403
    with runtime.sessions() as session:
        assert account_store.get_user_by_name(session=session, name="eve") is None


def test_sign_up_closes_by_default_once_the_course_has_a_roster(
    client: TestClient, runtime: GradingRuntime
) -> None:
    assert runtime.settings.signup_open is None  # the default: open until a roster exists
    assert client.get("/signup").status_code == 200
    with runtime.sessions() as session:
        learner = account_store.create_user(session=session, name="ada", role=Role.LEARNER)
        roster.issue_link(session=session, user=learner, days=14)
        session.commit()
    closed = client.get("/signup")
    assert closed.status_code == 403 and "Sign-up is closed on this server." in closed.text
    assert 'href="/signup"' not in client.get("/login").text
    runtime.settings.signup_open = True  # an instructor who wants both says so
    assert client.get("/signup").status_code == 200


def test_sign_in_wrong_password_and_missing_csrf(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    client.cookies.clear()
    token = csrf_of(client.get("/login").text)
    wrong = client.post(
        "/login", data={"csrf_token": token, "username": "ada", "password": "babbage"}
    )
    assert wrong.status_code == 400
    assert "Wrong username or password." in wrong.text
    forged = client.post(
        "/login", data={"csrf_token": "forged", "username": "ada", "password": "lovelace-1815"}
    )
    assert forged.status_code == 400
    assert "This form expired" in forged.text
    sign_in(client, "ada", "lovelace-1815")
    assert "Signed in as <strong>ada</strong>" in client.get("/").text


def test_next_only_goes_to_this_site(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    client.cookies.clear()
    token = csrf_of(client.get("/login").text)
    response = client.post(
        "/login",
        data={
            "csrf_token": token,
            "username": "ada",
            "password": "lovelace-1815",
            "next": "//evil.example/x",
        },
        follow_redirects=False,
    )
    assert response.headers["location"] == "/"


def test_pages_need_a_session_and_say_when_it_expired(
    client: TestClient, runtime: GradingRuntime
) -> None:
    anonymous = client.get("/learn/gru-update-gate", follow_redirects=False)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"] == "/login?next=%2Flearn%2Fgru-update-gate"
    sign_up(client, "ada", "lovelace-1815")
    cookie = client.cookies[auth.SESSION_COOKIE]
    serializer = URLSafeTimedSerializer(signing_key(runtime.settings), salt="numjudge.web.session")
    payload = serializer.loads(cookie)
    with mock.patch(
        "itsdangerous.timed.time.time", return_value=time.time() - auth.SESSION_MAX_AGE_S - 60
    ):
        old = serializer.dumps(payload)
    client.cookies.set(auth.SESSION_COOKIE, old)
    expired = client.get("/learn/gru-update-gate", follow_redirects=False)
    assert expired.headers["location"] == "/login?next=%2Flearn%2Fgru-update-gate&expired=1"
    login = client.get(expired.headers["location"])
    assert "Your session has expired. Please sign in again." in login.text


def test_a_tampered_cookie_is_anonymous(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    cookie = client.cookies[auth.SESSION_COOKIE]
    client.cookies.set(auth.SESSION_COOKIE, cookie[:-2] + "xx")
    assert "Signed in as" not in client.get("/").text


def test_api_accepts_the_cookie_only_with_the_csrf_header(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    token = csrf_of(client.get("/account").text)
    body = {"exercise": "gru-update-gate", "code": "def update_gate(*a):\n    return 0\n"}
    refused = client.post("/run", json=body)
    assert refused.status_code == 401
    accepted = client.post("/run?wait=10", json=body, headers={auth.CSRF_HEADER: token})
    assert accepted.status_code == 202
    assert accepted.json()["status"] == "done"
    assert accepted.json()["user"] == "ada"


def test_sign_out(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    token = csrf_of(client.get("/").text)
    response = client.post("/logout", data={"csrf_token": token}, follow_redirects=False)
    assert response.status_code == 303
    assert "Signed in as" not in client.get("/").text
