"""The account pages' throttles on the web: 429 with Retry-After, shared by every process."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.runtime.context import GradingRuntime
from app.services.accounts import HashSlots
from tests.app.web.helpers import csrf_of, sign_up


def _login(client: TestClient, name: str, password: str) -> int:
    token = csrf_of(client.get("/login").text)
    response = client.post(
        "/login",
        data={"csrf_token": token, "username": name, "password": password},
        follow_redirects=False,
    )
    return int(response.status_code)


def test_wrong_passwords_lock_the_name_for_that_address_in_every_process(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada", "lovelace-1815")
    client.cookies.clear()
    for _ in range(runtime.settings.login_failures_per_name):
        assert _login(client, "ada", "guess") == 400
    token = csrf_of(client.get("/login").text)
    locked = client.post(
        "/login", data={"csrf_token": token, "username": "ada", "password": "lovelace-1815"}
    )
    assert locked.status_code == 429
    assert 0 < int(locked.headers["Retry-After"]) <= 300
    assert "Too many failed attempts. Try again in" in locked.text
    with TestClient(create_app(runtime=runtime)) as other_process:
        assert _login(other_process, "ada", "lovelace-1815") == 429
    with TestClient(create_app(runtime=runtime), client=("198.51.100.4", 4000)) as elsewhere:
        assert _login(elsewhere, "ada", "lovelace-1815") == 303


def test_sign_ups_beyond_the_limit_get_429(client: TestClient, runtime: GradingRuntime) -> None:
    runtime.settings.signup_limit = 1
    sign_up(client, "ann")
    client.cookies.clear()
    token = csrf_of(client.get("/signup").text)
    refused = client.post(
        "/signup",
        data={
            "csrf_token": token,
            "username": "ben",
            "password": "long enough",
            "password2": "long enough",
        },
    )
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert "Too many sign-ups from your network." in refused.text


def test_no_free_hashing_slot_is_429_with_retry_after(client: TestClient) -> None:
    slots = HashSlots(1, wait_s=0.0)
    client.app.state.hash_slots = slots  # type: ignore[attr-defined]
    token = csrf_of(client.get("/signup").text)
    with slots.slot():
        busy = client.post(
            "/signup",
            data={
                "csrf_token": token,
                "username": "ann",
                "password": "long enough",
                "password2": "long enough",
            },
        )
        assert busy.status_code == 429
        assert busy.headers["Retry-After"] == "1"
        assert "The server is busy. Try again in a few seconds." in busy.text
        assert _login(client, "ann", "long enough") == 429
    sign_up(client, "ann", "long enough")
