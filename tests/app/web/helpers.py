"""Helpers of the web pages' tests: reading the CSRF token, signing up and in with a client,
submitting from a page, an instructor, reading a page's rows as text."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.models import Role
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from app.web import auth
from tests.app.conftest import read_exercise_file

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


def submit(client: TestClient, exercise: str, file: str) -> None:
    token = csrf_of(client.get("/account").text)
    response = client.post(
        "/submit?wait=30",
        headers={auth.CSRF_HEADER: token},
        json={"exercise": exercise, "code": read_exercise_file(exercise, file)},
    )
    assert response.json()["status"] == "done", response.text


def make_instructor(runtime: GradingRuntime, client: TestClient) -> None:
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="prof", role=Role.INSTRUCTOR, password="a long password"
        )
        session.commit()
    sign_in(client, "prof", "a long password")


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows_of(html: str, attribute: str) -> dict[str, str]:
    cells = re.findall(rf'<tr {attribute}="([^"]+)">(.*?)</tr>', html, re.DOTALL)
    return {key: text_of(body) for key, body in cells}
