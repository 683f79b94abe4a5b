"""app/web/pages_mining.py in-process, on both databases: the group page and its form refuse a
learner, a form without its CSRF token, a group no longer mined, code not confirmed as read
and an empty hint (the reason shown, the folder untouched), in English and in Japanese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import mining
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.mined_class import EXERCISE, HALVED, graded
from tests.app.web.helpers import csrf_of, make_instructor, sign_up


@pytest.fixture
def class_runtime(
    database_url: str, gate_copy: Path, shared_grader: SandboxGrader
) -> Iterator[GradingRuntime]:
    settings = make_settings(database_url, gate_copy.parent, exercises_dir=gate_copy.parent)
    yield make_runtime(settings, shared_grader)
    wipe(database_url)


@pytest.fixture
def client(class_runtime: GradingRuntime) -> Iterator[TestClient]:
    with TestClient(create_app(runtime=class_runtime)) as test_client:
        yield test_client


def group_url(runtime: GradingRuntime) -> str:
    with runtime.sessions() as session:
        mined = mining.mine(session=session, catalog=runtime.catalog, exercise_id=EXERCISE)
    return f"/instructor/analytics/{EXERCISE}/mistakes/{mined.groups[0].key}"


def test_a_learner_may_not_open_or_post_the_group(
    client: TestClient, class_runtime: GradingRuntime
) -> None:
    graded(class_runtime)("ada", HALVED)
    url = group_url(class_runtime)
    sign_up(client, "bo")
    assert client.get(url).status_code == 403
    token = csrf_of(client.get("/account").text)
    refused = client.post(url, data={"csrf_token": token, "name": "x", "hint": "y"})
    assert refused.status_code == 403


def test_the_form_refuses_what_it_must_and_leaves_the_folder_alone(
    client: TestClient, class_runtime: GradingRuntime, gate_copy: Path
) -> None:
    graded(class_runtime)("ada", HALVED)
    url = group_url(class_runtime)
    make_instructor(class_runtime, client)
    page = client.get(url)
    assert page.status_code == 200
    assert "0.5 * (joined @ W_z.T + b_z)" in page.text
    assert 'name="hint_ja"' in page.text

    no_token = client.post(url, data={"csrf_token": "forged", "name": "halved", "hint": "h"})
    assert no_token.status_code == 400

    token = csrf_of(page.text)
    representative = re.search(r'name="reviewed" value="([0-9a-f]+)"', page.text)
    assert representative is not None
    unread = client.post(
        url, data={"csrf_token": token, "name": "halved", "hint": "h", "hint_ja": "h"}
    )
    assert unread.status_code == 422 and "confirm that you read" in unread.text
    read = {"csrf_token": token, "reviewed": representative.group(1)}
    empty = client.post(url, data={**read, "name": "halved", "hint": " ", "hint_ja": "半分"})
    assert empty.status_code == 422
    assert "the hint is empty; write what the learner should fix" in empty.text
    assert 'id="mistake-refused"' in empty.text

    japanese = client.post(
        url,
        data={**read, "name": "halved", "hint": " ", "hint_ja": "半分"},
        headers={"Accept-Language": "ja"},
    )
    assert "この誤りは受け付けられませんでした" in japanese.text

    gone = client.post(
        f"/instructor/analytics/{EXERCISE}/mistakes/0123456789ab",
        data={**read, "name": "halved", "hint": "h", "hint_ja": "h"},
    )
    assert gone.status_code == 404
    assert not (gate_copy / "mistakes" / "mined" / "halved.py").exists()
    assert "halved" not in (gate_copy / "translation.ja.toml").read_text(encoding="utf-8")
