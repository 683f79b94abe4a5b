"""Helpers of the web pages' tests: reading the CSRF token, signing up and in with a client."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    assert match, "no CSRF field on the page"
    return match.group(1)


def sign_up(client: TestClient, name: str, password: str = "correct horse") -> None:
    token = csrf_of(client.get("/signup").text)
    response = client.post(
        "/signup",
        data={"csrf_token": token, "username": name, "password": password, "password2": password},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    assert response.headers["location"] == "/"


def sign_in(client: TestClient, name: str, password: str) -> None:
    token = csrf_of(client.get("/login").text)
    response = client.post(
        "/login",
        data={"csrf_token": token, "username": name, "password": password},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
