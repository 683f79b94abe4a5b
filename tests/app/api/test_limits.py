"""Request limits: 413 before parsing and before authentication, 422 for text no database can
store, never a 500 from a form; nosniff and no-store on authenticated JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from app.models import User
from app.runtime.context import GradingRuntime
from tests.app.web.helpers import csrf_of

MakeUser = Callable[..., tuple[User, dict[str, str]]]
FORM = {"content-type": "application/x-www-form-urlencoded"}


def test_a_large_declared_body_is_413_before_the_token_is_checked(
    client: TestClient, runtime: GradingRuntime
) -> None:
    limit = runtime.settings.max_body_bytes
    response = client.post(
        "/submit", content=b"x" * (limit + 1), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    code = runtime.settings.max_code_bytes
    assert response.json() == {
        "detail": f"Request body too large: {limit + 1} bytes, at most {limit} "
        f"(a submission's code may hold {code} bytes)"
    }
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_large_body_without_a_length_is_413_as_it_arrives(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(200):
            yield b"x" * 10_000

    response = client.post("/run", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"detail": "Content Too Large"}


def test_code_over_the_limit_is_413_after_authentication(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    code = "#" * (runtime.settings.max_code_bytes + 1)
    response = client.post(
        "/run", json={"exercise": "gru-update-gate", "code": code}, headers=headers
    )
    assert response.status_code == 413
    assert response.json()["detail"].startswith("Code is")


def test_a_body_that_is_not_utf8_is_told_so(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    body = b'{"exercise": "gru-update-gate", "code": "\xff"}'
    response = client.post(
        "/submit", content=body, headers=headers | {"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The body is not UTF-8 text (byte 0xff at position 41): send JSON encoded as "
        "UTF-8"
    }


# PostgreSQL refuses text that SQLite stores (a NUL, a lone surrogate).
@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("code", "problem"),
    [
        (rb'"def f():\ud800 pass"', "lone surrogate"),
        (rb'"\udfff"', "lone surrogate"),
        (rb'"x = 1\u0000"', "NUL character"),
    ],
)
def test_text_no_database_stores_is_422(
    client: TestClient, make_user: MakeUser, code: bytes, problem: str
) -> None:
    _, headers = make_user("ada")
    body = b'{"exercise": "gru-update-gate", "code": ' + code + b"}"
    response = client.post(
        "/submit", content=body, headers=headers | {"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert problem in response.json()["detail"]
    assert response.json()["errors"][0]["loc"] == ["body", "code"]


# PostgreSQL refuses text that SQLite stores (a NUL, a lone surrogate).
@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("username=" + "a" * (1 << 20) + "&password=x", 413),  # a 1 MB field
        ("&".join(f"f{i}=" for i in range(200_000)), 413),  # 200k fields
        ("&".join(f"f{i}=" for i in range(100)), 400),  # more fields than any form has
        ("username=ad%00a&password=long+enough&csrf_token=x", 400),  # NUL in a name
        ("username=%FF%FE&password=%ED%A0%80xxxxxxxx&csrf_token=x", 400),  # bytes that are no UTF-8
    ],
)
def test_no_form_makes_a_500(client: TestClient, body: str, status: int) -> None:
    for path in ("/login", "/signup", "/logout", "/account/token"):
        response = client.post(path, content=body, headers=FORM, follow_redirects=False)
        assert response.status_code in {status, 303, 403}, (path, response.text[:200])
        assert response.status_code < 500


# PostgreSQL refuses text that SQLite stores (a NUL, a lone surrogate).
@pytest.mark.both_databases
def test_a_nul_in_the_name_signs_nobody_in(client: TestClient) -> None:
    token = csrf_of(client.get("/login").text)
    response = client.post(
        "/login", data={"csrf_token": token, "username": "ad\x00a", "password": "long enough"}
    )
    assert response.status_code == 400
    assert "Wrong username or password." in response.text


def test_authenticated_json_is_nosniff_and_never_stored(
    client: TestClient, make_user: MakeUser
) -> None:
    _, headers = make_user("ada")
    mine = client.get("/submissions", headers=headers)
    assert mine.status_code == 200
    assert mine.headers["cache-control"] == "no-store"
    assert mine.headers["x-content-type-options"] == "nosniff"
    refused = client.get("/submissions", headers={"Authorization": "Bearer nj_wrong"})
    assert refused.status_code == 401
    assert refused.headers["cache-control"] == "no-store"
    client.cookies.clear()
    public = client.get("/exercises")
    assert public.headers["x-content-type-options"] == "nosniff"
