"""POST /submit, POST /run, GET /submissions(/{id}) through the app, with real grading."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from app.models import Role, Submission, SubmissionKind, SubmissionStatus, User
from app.runtime.context import GradingRuntime
from app.schemas import SubmissionOut
from app.services.submissions import load_out, wait_for_result
from graders.results import Verdict
from tests.app.conftest import read_exercise_file

EXERCISE = "gru-update-gate"
MakeUser = Callable[..., tuple[User, dict[str, str]]]


def body(code: str, exercise: str = EXERCISE) -> dict[str, str]:
    return {"exercise": exercise, "code": code}


def submit(
    client: TestClient,
    headers: dict[str, str],
    code: str,
    *,
    wait: float = 20,
    path: str = "/submit",
) -> dict[str, Any]:
    response = client.post(path, params={"wait": wait}, json=body(code), headers=headers)
    assert response.status_code == 202, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_reference_passes_with_full_score_and_is_stored(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    result = submit(client, headers, read_exercise_file(EXERCISE, "solution.py"))
    assert result["status"] == "done"
    assert result["verdict"] == "passed"
    assert result["score"] == result["max_score"] == 26.0
    assert result["user"] == "ada" and result["kind"] == "submit"
    assert result["url"] == f"/submissions/{result['id']}"
    assert {t["status"] for t in result["tests"]} == {"passed"}
    hidden = [t for t in result["tests"] if t["visibility"] == "hidden"]
    keys = {"name", "title", "visibility", "status", "points", "max_points", "failure", "message"}
    assert hidden and all(set(t) == keys | {"error_map"} for t in hidden)
    assert all(t["error_map"] is None for t in result["tests"])
    assert result["diagnosis"] is None
    with runtime.sessions() as session:
        row = session.get(Submission, result["id"])
        assert row is not None
        assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.PASSED
        assert row.attempts == 1 and row.lease_expires_at is None
        assert row.finished_at is not None and row.started_at is not None
        assert row.exercise_version == runtime.catalog.load(EXERCISE).version
        # The row stores the engine's tests; the API adds each one's title (its name in English)
        # and ``error_map`` (stored only where there is one).
        assert all(t.pop("title") == t["name"] for t in result["tests"])
        assert not any("error_map" in t for t in row.tests or [])
        assert [t | {"error_map": None} for t in row.tests or []] == result["tests"]


async def final_result(runtime: GradingRuntime, submission_id: str) -> SubmissionOut:
    waiter = runtime.waiters.register(submission_id)
    try:
        current = await run_in_threadpool(load_out, runtime, submission_id)
        return await wait_for_result(runtime, current, runtime.settings.max_wait_s, waiter)
    finally:
        runtime.waiters.unregister(submission_id, waiter)


def test_without_wait_answers_queued_then_polling_finds_the_result(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    accepted = submit(client, headers, read_exercise_file(EXERCISE, "starter.py"), wait=0)
    assert accepted["status"] in ("queued", "running", "done")
    assert set(accepted) >= {"id", "status", "url"}
    # Wait the way the service's own long-poll does (a wake-up, or a database poll), then read
    # the result through the API as a client polling it would.
    waited = asyncio.run(final_result(runtime, str(accepted["id"])))
    assert waited.status == "done"
    result = client.get(accepted["url"], headers=headers).json()
    assert result["status"] == "done"
    assert result["verdict"] in ("failed", "error")
    assert result["score"] < result["max_score"]


def test_a_mistake_gets_its_hint(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    result = submit(client, headers, read_exercise_file(EXERCISE, "mistakes/one_minus_z.py"))
    assert result["verdict"] == "failed"
    failing = [t["name"] for t in result["tests"] if t["status"] != "passed"]
    assert "add up to 1" in result["diagnosis"]["hint"]
    assert result["diagnosis"]["cases"] == failing
    assert result["diagnosis"]["source"] == "mistake"
    with runtime.sessions() as session:
        row = session.get(Submission, result["id"])
        assert row is not None and row.diagnosis == result["diagnosis"]


def test_a_client_asking_for_japanese_gets_the_hint_and_test_titles_in_japanese(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    japanese = headers | {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
    result = submit(client, japanese, read_exercise_file(EXERCISE, "mistakes/one_minus_z.py"))
    hint = "あなたのゲートと期待されるゲートは、どの要素でも足すと 1 になります。"
    assert result["diagnosis"]["hint"].startswith(hint)
    titles = {t["name"]: t["title"] for t in result["tests"]}
    assert titles["numerical example"] == "数値例" and titles["batch of two"] == "大きさ 2 のバッチ"
    messages = {t["name"]: t["message"] for t in result["tests"]}
    assert messages["numerical example"] == (
        "値：3 個中 3 個の要素（100.0%）が許容誤差（rtol=1e-07, atol=1e-09）の外です。最大の"
        "誤差はインデックス [0] で、0.7150421057 のはずが 0.2849578943 でした（絶対誤差 0.43、"
        "相対誤差 0.601）"
    )
    hidden = next(t for t in result["tests"] if t["visibility"] == "hidden" and t["failure"])
    assert hidden["message"].endswith("（非公開テストでは詳細を表示しません）")
    # The name stays the test's identifier in every language; the stored row keeps English.
    assert result["diagnosis"]["cases"] == [
        t["name"] for t in result["tests"] if t["status"] != "passed"
    ]
    with runtime.sessions() as session:
        row = session.get(Submission, result["id"])
        assert row is not None and row.diagnosis is not None and row.tests is not None
        assert "add up to 1" in row.diagnosis["hint"]
        assert all("title" not in test for test in row.tests)
        stored = {test["name"]: test["message"] for test in row.tests}
        assert stored["numerical example"].startswith("values: 3 of 3 elements (100.0%)")
    again = client.get(result["url"], headers=japanese).json()
    assert again["diagnosis"] == result["diagnosis"] and again["tests"] == result["tests"]
    english = client.get(result["url"], headers=headers).json()
    assert "add up to 1" in english["diagnosis"]["hint"]
    assert all(t["title"] == t["name"] for t in english["tests"])
    french = client.get(result["url"], headers=headers | {"Accept-Language": "fr"}).json()
    assert french == english


def test_syntax_error_is_an_error_verdict_with_a_message(
    client: TestClient, make_user: MakeUser
) -> None:
    _, headers = make_user("ada")
    result = submit(client, headers, "def update_gate(:\n    pass\n")
    assert result["status"] == "done"
    assert result["verdict"] == "error"
    assert "SyntaxError" in result["message"]
    assert result["score"] == 0.0


def test_run_grades_public_cases_only_shows_output_and_is_not_scored(
    client: TestClient, make_user: MakeUser
) -> None:
    _, headers = make_user("ada")
    code = read_exercise_file(EXERCISE, "solution.py") + "\nprint('hello from the learner')\n"
    result = submit(client, headers, code, path="/run")
    assert result["kind"] == "run" and result["status"] == "done"
    assert {t["visibility"] for t in result["tests"]} == {"public"}
    assert "hello from the learner" in result["output"]
    history = client.get("/submissions", headers=headers).json()
    assert [h["kind"] for h in history] == ["run"]
    _, prof = make_user("prof", Role.INSTRUCTOR)
    assert client.get("/gradebook.csv", headers=prof).text.strip().count("\n") == 0


def test_history_is_own_newest_first_and_filters(client: TestClient, make_user: MakeUser) -> None:
    _, ada = make_user("ada")
    _, bob = make_user("bob")
    first = submit(client, ada, read_exercise_file(EXERCISE, "starter.py"))
    second = submit(client, ada, read_exercise_file(EXERCISE, "solution.py"))
    submit(client, bob, read_exercise_file(EXERCISE, "solution.py"))
    history = client.get("/submissions", params={"exercise": EXERCISE}, headers=ada).json()
    assert [h["id"] for h in history] == [second["id"], first["id"]]
    assert "code" not in history[0]
    assert client.get("/submissions", params={"exercise": "gru-step"}, headers=ada).json() == []
    assert len(client.get("/submissions", params={"limit": 1}, headers=ada).json()) == 1


def test_a_learner_cannot_read_another_learners_submission(
    client: TestClient, make_user: MakeUser
) -> None:
    _, ada = make_user("ada")
    _, bob = make_user("bob")
    _, prof = make_user("prof", Role.INSTRUCTOR)
    result = submit(client, ada, read_exercise_file(EXERCISE, "starter.py"), wait=0)
    response = client.get(f"/submissions/{result['id']}", headers=bob)
    assert response.status_code == 404
    assert response.json()["detail"] == f"Submission {result['id']!r} not found"
    assert client.get(f"/submissions/{result['id']}", headers=ada).status_code == 200
    assert client.get(f"/submissions/{result['id']}", headers=prof).json()["user"] == "ada"


def test_missing_and_bad_tokens_are_401_with_a_detail(client: TestClient) -> None:
    code = read_exercise_file(EXERCISE, "starter.py")
    missing = client.post("/submit", json=body(code))
    assert missing.status_code == 401
    assert "Authorization: Bearer" in missing.json()["detail"]
    assert "a token from your account page (/account)" in missing.json()["detail"]
    assert missing.headers["www-authenticate"] == "Bearer"
    bad = client.post("/submit", json=body(code), headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    assert bad.json()["detail"] == "Invalid, expired or revoked API token"
    basic = client.get("/submissions", headers={"Authorization": "Basic YTpi"})
    assert basic.status_code == 401 and "not a Bearer token" in basic.json()["detail"]


def test_unknown_exercise_and_submission_are_404(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    response = client.post("/submit", json=body("x = 1", exercise="no-such"), headers=headers)
    assert response.status_code == 404
    assert response.json()["detail"] == "Exercise 'no-such' not found"
    response = client.get("/submissions/abc", headers=headers)
    assert response.status_code == 404
    assert response.json()["detail"] == "Submission 'abc' not found"


def test_oversized_empty_and_malformed_bodies(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    limit = runtime.settings.max_code_bytes
    big = client.post("/submit", json=body("#" * (limit + 1)), headers=headers)
    assert big.status_code == 413
    assert big.json()["detail"] == f"Code is {limit + 1} bytes; the limit is {limit} bytes"
    empty = client.post("/submit", json=body("  \n"), headers=headers)
    assert empty.status_code == 422 and empty.json()["detail"] == "Code is empty"
    missing = client.post("/submit", json={"exercise": EXERCISE}, headers=headers)
    assert missing.status_code == 422
    assert missing.json()["detail"] == "Field 'code' is required"
    not_json = client.post(
        "/submit", content=b"{nope", headers={**headers, "Content-Type": "application/json"}
    )
    assert not_json.status_code == 422
    assert not_json.json()["detail"].startswith("The body is not valid JSON")
    form = client.post("/submit", data=body("x = 1"), headers=headers)
    assert form.status_code == 422
    assert form.json()["detail"].startswith(
        "The body must be JSON (Content-Type: application/json), not "
        "application/x-www-form-urlencoded"
    )
    extra = client.post("/submit", json={**body("x = 1"), "lang": "py"}, headers=headers)
    assert extra.status_code == 422 and extra.json()["detail"] == "Unknown field 'lang'"
    negative = client.post("/submit", params={"wait": -1}, json=body("x = 1"), headers=headers)
    assert negative.status_code == 422 and "wait" in negative.json()["detail"]
    with runtime.sessions() as session:
        assert session.scalars(select(Submission)).all() == []


def test_code_limit_is_configurable(runtime: GradingRuntime, make_user: MakeUser) -> None:
    from app.main import create_app

    runtime.settings = runtime.settings.model_copy(update={"max_code_bytes": 10})
    _, headers = make_user("ada")
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        response = client.post("/submit", json=body("x = 12345678"), headers=headers)
    assert response.status_code == 413
    assert response.json()["detail"] == "Code is 12 bytes; the limit is 10 bytes"


def test_wait_returns_when_the_wait_ends_if_nobody_grades(
    runtime: GradingRuntime, make_user: MakeUser
) -> None:
    from app.main import create_app

    _, headers = make_user("ada")
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        response = client.post(
            "/submit",
            params={"wait": 0.3},
            json=body(read_exercise_file(EXERCISE, "starter.py")),
            headers=headers,
        )
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    with runtime.sessions() as session:
        row = session.get(Submission, response.json()["id"])
        assert row is not None and row.kind is SubmissionKind.SUBMIT
        assert row.status is SubmissionStatus.QUEUED and row.attempts == 0
