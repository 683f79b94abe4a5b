"""Errors of the pages become pages: a redirect to sign in, the error page, never a trace."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, status
from fastapi.testclient import TestClient

from app.web.errors import LoginRequired, PageError, WebRoute


def make_client() -> TestClient:
    router = APIRouter(route_class=WebRoute)

    @router.get("/crash")
    def crash() -> None:
        raise RuntimeError("secret internals")

    @router.get("/gone")
    def gone() -> None:
        raise PageError(status.HTTP_410_GONE, "Gone", "This page left.")

    @router.get("/private")
    def private() -> None:
        raise LoginRequired("/private?x=1", expired=True)

    @router.get("/number")
    def number(n: int) -> int:
        return n

    app = FastAPI()
    app.include_router(router)
    return TestClient(app, raise_server_exceptions=False)


def test_an_unexpected_error_is_a_calm_page() -> None:
    response = make_client().get("/crash")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "secret internals" not in response.text and "Traceback" not in response.text


def test_page_error_and_login_required() -> None:
    client = make_client()
    gone = client.get("/gone")
    assert gone.status_code == 410
    assert '<div class="alert error" role="alert">This page left.</div>' in gone.text
    private = client.get("/private", follow_redirects=False)
    assert private.status_code == 303
    assert private.headers["location"] == "/login?next=%2Fprivate%3Fx%3D1&expired=1"


def test_bad_parameters_are_a_page() -> None:
    response = make_client().get("/number?n=abc")
    assert response.status_code == 400
    assert "missing or malformed" in response.text
