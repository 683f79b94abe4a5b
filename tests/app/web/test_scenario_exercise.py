"""A scenario exercise served by the app: its page offers a starter with every function, POST
/submit grades a learner's two functions, and the report names each step's output."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.models import Role
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.web.helpers import sign_up
from tests.app.web.test_pages import exercise_config

AFFINE = Path(__file__).resolve().parents[3] / "exercises" / "affine-layer"
Served = tuple[TestClient, dict[str, str]]


@pytest.fixture
def served(database_url: str, tmp_path: Path, shared_grader: SandboxGrader) -> Iterator[Served]:
    """The app serving a catalog of the affine layer alone, and a learner's auth headers."""
    shutil.copytree(AFFINE, tmp_path / "exercises" / "affine-layer")
    settings = make_settings(database_url, tmp_path, exercises_dir=tmp_path / "exercises")
    runtime = make_runtime(settings, shared_grader)
    with runtime.sessions() as session:
        user = account_store.create_user(session=session, name="bo", role=Role.LEARNER)
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    with TestClient(create_app(runtime=runtime)) as client:
        yield client, {"Authorization": f"Bearer {token}"}
    wipe(database_url)


def test_the_page_offers_every_function_and_submit_names_the_step(served: Served) -> None:
    client, headers = served
    sign_up(client, "ada")
    page = client.get("/learn/affine-layer")
    assert page.status_code == 200
    assert "affine_forward, affine_backward" in page.text
    starter = str(exercise_config(page.text)["starter"])
    assert starter == (AFFINE / "starter.py").read_text(encoding="utf-8")
    assert "def affine_forward(" in starter and "def affine_backward(" in starter
    code = (AFFINE / "solution.py").read_text(encoding="utf-8").replace("x.T @ dout", "dout.T @ x")
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=headers,
        json={"exercise": "affine-layer", "code": code},
    )
    assert response.status_code == 202, response.text
    result = response.json()
    assert (result["status"], result["verdict"]) == ("done", "failed")
    tests = {test["name"]: test for test in result["tests"]}
    # Where D = M = 1, dw is a 1x1 matrix, its own transpose: that case alone passes.
    passed = [name for name, test in tests.items() if test["status"] == "passed"]
    assert passed == ["one input one output"]
    assert result["score"] == tests["one input one output"]["points"] > 0
    assert tests["four examples"]["message"].startswith(
        "step 2, affine_backward: dw: shape: expected (5, 3), got (3, 5): transposed"
    )
    assert tests["wide batch"]["failure"] == "wrong_shape"
    assert "x.T @ dout" in result["diagnosis"]["hint"]
