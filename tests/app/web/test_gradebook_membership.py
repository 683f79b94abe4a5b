"""A learner who signed up on their own is in the gradebooks until the course has a roster;
from then on every gradebook (the pages, their CSVs, the archive, the class view) leaves them
out until an instructor adds them from the roster (issue 39, item 7)."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from fastapi.testclient import TestClient

from app.models import Role
from app.runtime.context import GradingRuntime
from app.services import analytics
from app.store import accounts as account_store
from tests.app.web.helpers import sign_in, sign_up, submit
from tests.app.web.test_roster_actions import act, row_of
from tests.app.web.test_roster_pages import PASSWORD, ROSTER, import_roster

EVE = re.compile(r"\beve\b")
GATE = "gru-update-gate"
ASSIGNMENT = "gru-by-hand"
GRADEBOOKS = (
    "/instructor/gradebook",
    "/instructor/gradebook.csv",
    "/instructor/assignments",
    "/instructor/assignments.csv",
    f"/instructor/assignments/{ASSIGNMENT}",
    f"/instructor/assignments/{ASSIGNMENT}.csv",
)


def listing(client: TestClient) -> dict[str, bool]:
    """For each gradebook, the archive and the class view: whether eve is in it."""
    seen = {}
    for path in GRADEBOOKS:
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        seen[path] = EVE.search(response.text) is not None
    archive = client.get(f"/instructor/assignments/{ASSIGNMENT}/submissions.zip")
    assert archive.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
    seen["archive"] = any(EVE.search(name) for name in names)
    return seen


def class_view_submissions(runtime: GradingRuntime) -> int:
    with runtime.sessions() as session:
        view = analytics.load_exercise_analytics(
            session=session, catalog=runtime.catalog, exercise_id=GATE
        )
    return view.submissions


@pytest.mark.slow
def test_a_learner_who_signed_up_alone_counts_once_an_instructor_adds_them(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "eve")
    submit(client, GATE, "solution.py")
    client.cookies.clear()
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password=PASSWORD
        )
        session.commit()
    sign_in(client, "teacher", PASSWORD)
    everywhere = dict.fromkeys([*GRADEBOOKS, "archive"], True)
    assert listing(client) == everywhere  # no roster yet: every learner counts
    assert class_view_submissions(runtime) == 1

    assert import_roster(client, ROSTER)[0] == 200
    assert listing(client) == dict.fromkeys(everywhere, False)
    assert class_view_submissions(runtime) == 0
    row = row_of(client.get("/instructor/roster").text, "eve")
    assert 'data-gradebook="outside"' in row and 'data-action="gradebook"' in row
    assert 'data-action="gradebook"' not in row_of(client.get("/instructor/roster").text, "ada")

    status, page = act(client, "eve", "gradebook")
    assert status == 200 and "teacher added eve to the gradebooks" in page
    assert listing(client) == everywhere
    assert class_view_submissions(runtime) == 1
    row = row_of(client.get("/instructor/roster").text, "eve")
    assert 'data-gradebook="outside"' not in row and 'data-action="gradebook"' not in row
