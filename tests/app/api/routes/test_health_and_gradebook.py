"""GET /healthz and GET /gradebook.csv."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from fastapi.testclient import TestClient

from app.models import Role, User
from tests.app.conftest import read_exercise_file

MakeUser = Callable[..., tuple[User, dict[str, str]]]


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok" and data["database"] == "ok" and data["queue"] == "ok"
    assert data["exercises"] >= 1


def test_gradebook_has_best_score_per_learner_per_exercise(
    client: TestClient, make_user: MakeUser
) -> None:
    _, ada = make_user("ada")
    _, bob = make_user("bob")
    _, prof = make_user("prof", Role.INSTRUCTOR)
    for headers, name in ((ada, "starter.py"), (ada, "solution.py"), (bob, "starter.py")):
        code = read_exercise_file("gru-update-gate", name)
        response = client.post(
            "/submit",
            params={"wait": 20},
            headers=headers,
            json={"exercise": "gru-update-gate", "code": code},
        )
        assert response.json()["status"] == "done"
    response = client.get("/gradebook.csv", headers=prof)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    # scores are never kept by a cache between the server and the instructor
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["content-disposition"] == "attachment; filename*=UTF-8''gradebook.csv"
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [
        (r["user"], r["exercise"], r["best_score"], r["max_score"], r["submissions"]) for r in rows
    ] == [("ada", "gru-update-gate", "26", "26", "2"), ("bob", "gru-update-gate", "0", "26", "1")]


def test_gradebook_is_for_instructors_only(client: TestClient, make_user: MakeUser) -> None:
    _, ada = make_user("ada")
    response = client.get("/gradebook.csv", headers=ada)
    assert response.status_code == 403
    assert response.json()["detail"] == "User 'ada' is not an instructor"
    assert client.get("/gradebook.csv").status_code == 401


def test_openapi_documents_bodies_with_examples(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    submit = spec["paths"]["/submit"]["post"]
    assert "202" in submit["responses"] and "413" in submit["responses"]
    schemas = spec["components"]["schemas"]
    assert schemas["SubmissionIn"]["examples"][0]["exercise"] == "gru-update-gate"
    assert "examples" in schemas["SubmissionOut"]
    assert client.get("/docs").status_code == 200
