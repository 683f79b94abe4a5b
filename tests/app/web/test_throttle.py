"""Failed sign-ins are throttled per address and username."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.web.throttle import LoginThrottle, login_throttle
from tests.app.web.helpers import csrf_of, sign_up


def test_throttle_counts_failures_in_a_window() -> None:
    throttle = LoginThrottle(max_failures=2, window_s=60)
    assert throttle.wait_s("k") == 0
    throttle.failed("k")
    throttle.failed("k")
    assert 59 < throttle.wait_s("k") <= 60
    assert throttle.wait_s("other") == 0
    throttle.succeeded("k")
    assert throttle.wait_s("k") == 0


def test_too_many_wrong_passwords_are_refused_for_a_while(client: TestClient) -> None:
    sign_up(client, "ada", "lovelace-1815")
    client.cookies.clear()
    token = csrf_of(client.get("/login").text)
    try:
        for _ in range(login_throttle.max_failures):
            wrong = client.post("/login", data={"csrf_token": token, "username": "ada",
                                                "password": "guess"})
            assert wrong.status_code == 400
        right = client.post("/login", data={"csrf_token": token, "username": "ada",
                                            "password": "lovelace-1815"})
        assert right.status_code == 429
        assert "Too many failed attempts. Try again in 5 minute(s)." in right.text
    finally:
        login_throttle.reset()
