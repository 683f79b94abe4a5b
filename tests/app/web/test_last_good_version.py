"""An edited exercise folder that no longer loads: the service grades against its last good
version, and says so in /healthz and on the instructors' Validate page until it is fixed."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.models import Role
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from graders.exercises import folder_version
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.web.helpers import sign_in
from tests.graders.helpers import edit, make_tiny_exercise

SOLUTION = (
    "import numpy as np\n\n\ndef count_above(x, threshold):\n"
    "    return int(np.sum(x > threshold))\n"
)


@pytest.fixture
def tiny(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, Path, GradingRuntime]]:
    """The app serving a catalog of one small exercise, a copy its tests may edit."""
    folder = make_tiny_exercise(tmp_path / "exercises")
    runtime = make_runtime(
        make_settings(database_url, tmp_path, exercises_dir=folder.parent), shared_grader
    )
    with TestClient(create_app(runtime=runtime)) as client:
        yield client, folder, runtime
    wipe(database_url)


def graded(client: TestClient, headers: dict[str, str]) -> dict[str, object]:
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=headers,
        json={"exercise": "count-above", "code": SOLUTION},
    )
    assert response.status_code == 202, response.text
    result: dict[str, object] = response.json()
    assert result["status"] == "done", result
    return result


def test_a_broken_edit_is_graded_against_the_last_good_version_until_fixed(
    tiny: tuple[TestClient, Path, GradingRuntime],
) -> None:
    client, folder, runtime = tiny
    with runtime.sessions() as session:
        user = account_store.create_user(
            session=session, name="prof", role=Role.INSTRUCTOR, password="teach-me-numpy"
        )
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    good_version = folder_version(folder)
    first = graded(client, headers)
    assert (first["verdict"], first["score"]) == ("passed", 3.0)
    assert client.get("/healthz").json()["problems"] == []

    edit(folder / "cases.py", "return {", "retrun {")  # a typo: cases.py no longer parses
    during = graded(client, headers)
    assert (during["verdict"], during["score"], during["message"]) == ("passed", 3.0, "")
    reports = client.get(f"/submissions/{during['id']}/reports", headers=headers).json()
    assert [r["exercise_version"] for r in reports] == [good_version]
    health = client.get("/healthz")
    assert health.status_code == 200  # still grading: listed, not degraded
    (problem,) = health.json()["problems"]
    assert problem.startswith(
        "exercise 'count-above': its folder does not load (count-above/cases.py: raised "
        "SyntaxError: "
    )
    assert problem.endswith(
        f"graded against its last good version {good_version} until it is fixed"
    )
    client.cookies.clear()
    sign_in(client, "prof", "teach-me-numpy")
    page = client.get("/instructor/validate")
    assert page.status_code == 200
    assert 'data-stale="count-above"' in page.text
    assert f"<code>{good_version}</code>" in page.text
    assert "count-above/cases.py: raised SyntaxError" in page.text

    edit(folder / "cases.py", "retrun {", "return {")
    edit(folder / "cases.py", '"threshold": 1.5', '"threshold": 2.5')
    after = graded(client, headers)
    reports = client.get(f"/submissions/{after['id']}/reports", headers=headers).json()
    assert [r["exercise_version"] for r in reports] == [folder_version(folder)]
    assert folder_version(folder) != good_version
    assert client.get("/healthz").json()["problems"] == []
    assert 'data-stale="count-above"' not in client.get("/instructor/validate").text


def test_the_log_names_the_version_a_submission_is_graded_against(
    tiny: tuple[TestClient, Path, GradingRuntime], caplog: pytest.LogCaptureFixture
) -> None:
    # An edit that loads but does not prepare (the reference raises): the first submission
    # after it is queued with the folder's new version, graded against the last good one, and
    # the done line says which; once that is known, queued lines name the last good version.
    client, folder, runtime = tiny
    with runtime.sessions() as session:
        user = account_store.create_user(
            session=session, name="learner", role=Role.LEARNER, password="learn-some-numpy"
        )
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    good_version = folder_version(folder)
    graded(client, headers)
    edit(folder / "solution.py", "return int(", "raise ValueError('broken') or int(")
    assert folder_version(folder) != good_version
    with caplog.at_level(logging.INFO):
        first, second = graded(client, headers)["id"], graded(client, headers)["id"]
    events = {
        (getattr(record, "submission_id", None), record.getMessage()): getattr(
            record, "version", None
        )
        for record in caplog.records
        if record.getMessage() in ("submission.queued", "submission.done")
    }
    assert events.get((first, "submission.queued")) == folder_version(folder)
    assert [
        events.get((first, "submission.done")),
        events.get((second, "submission.queued")),
        events.get((second, "submission.done")),
    ] == [good_version] * 3
