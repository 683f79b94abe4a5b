"""Error maps of failed public tests in results, and POST /exercises/{id}/try, with real grading."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.main import create_app
from app.models import Submission, ThrottleCounter, User
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from tests.app.conftest import make_runtime, make_settings, read_exercise_file, wipe

MakeUser = Callable[..., tuple[User, dict[str, str]]]
EXERCISE = "pairwise-distances"
# Right but for the last two columns of every answer: the picture's case.
LAST_COLUMNS_OFF = """
import numpy as np

def pairwise_distances(X, Y):
    D = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=-1))
    return D + (np.arange(Y.shape[0]) >= Y.shape[0] - 2)
"""


def run(client: TestClient, headers: dict[str, str], code: str, path: str) -> dict[str, Any]:
    response = client.post(
        path, params={"wait": 30}, json={"exercise": EXERCISE, "code": code}, headers=headers
    )
    assert response.status_code == 202, response.text
    answer: dict[str, Any] = response.json()
    assert answer["status"] == "done"
    return answer


def test_a_failed_public_tests_error_map(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    result = run(client, headers, LAST_COLUMNS_OFF, "/run")

    tests = {t["name"]: t for t in result["tests"]}
    assert tests["worked example"]["error_map"] is None  # 3 x 2: the message says enough
    picture = tests["random points"]["error_map"]
    assert picture["kind"] == "matrix"
    assert picture["shape"] == [4, 5]
    assert picture["axes"] == ["axis 0", "axis 1"]
    assert picture["ticks"] == [[0, 1, 2, 3], [0, 1, 2, 3, 4]]
    assert picture["worst"][1] in (3, 4)
    assert picture["worst_error"] == pytest.approx(1.0)
    assert all(row[:3] == pytest.approx([0.0] * 3, abs=1e-12) for row in picture["error"])
    assert all(row[3:] == pytest.approx([1.0, 1.0]) for row in picture["error"])
    assert picture["got"][0][4] == pytest.approx(picture["expected"][0][4] + 1, abs=1e-5)
    assert picture["fixed"] == []


def test_hidden_tests_have_no_error_map(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    result = run(client, headers, LAST_COLUMNS_OFF, "/submit")

    hidden = [t for t in result["tests"] if t["visibility"] == "hidden"]
    assert hidden and all(t["status"] == "failed" for t in hidden)
    assert all(t["error_map"] is None for t in hidden)
    with runtime.sessions() as session:
        stored = session.get(Submission, result["id"])
        assert stored is not None and stored.tests is not None
        assert [t["name"] for t in stored.tests if "error_map" in t] == ["random points"]


def try_inputs(
    client: TestClient, headers: dict[str, str], code: str, inputs: dict[str, str], **kw: str
) -> Any:
    exercise = kw.get("exercise", EXERCISE)
    return client.post(
        f"/exercises/{exercise}/try", json={"code": code, "inputs": inputs}, headers=headers
    )


POINTS = {"X": "np.array([[0.0, 0.0], [3.0, 4.0]])", "Y": "np.zeros((3, 2))"}


def test_the_reference_and_the_code_on_the_learners_inputs(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    _, headers = make_user("ada")
    reference = read_exercise_file(EXERCISE, "solution.py")

    same = try_inputs(client, headers, reference, POINTS)
    assert same.status_code == 200, same.text
    assert same.json() == {
        "status": "same",
        "message": "the same output as the reference",
        "yours": "array([[0., 0., 0.],\n       [5., 5., 5.]])",
        "reference": "array([[0., 0., 0.],\n       [5., 5., 5.]])",
        "output": "",
        "error_map": None,
    }

    points = {"X": "np.eye(4)", "Y": "np.ones((5, 4))"}
    different = try_inputs(client, headers, LAST_COLUMNS_OFF, points).json()
    assert different["status"] == "different"
    assert different["message"].startswith("distances: values: 8 of 20 elements (40.0%)")
    assert different["yours"] != different["reference"]
    assert different["error_map"]["kind"] == "matrix"
    assert different["error_map"]["worst"][1] in (3, 4)

    with runtime.sessions() as session:  # a try is never a submission
        assert session.scalar(select(func.count()).select_from(Submission)) == 0


def test_the_learners_error_and_the_references(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    crashing = "def pairwise_distances(X, Y):\n    raise ValueError('not yet')\n"
    answer = try_inputs(client, headers, crashing, POINTS).json()
    assert answer["status"] == "error"
    assert answer["message"] == "your code raised ValueError on line 2: not yet"
    assert answer["yours"] == ""
    assert answer["reference"].startswith("array([[0., 0., 0.]")

    # Inputs outside what the statement promises: the reference has no answer either.
    mismatched = {"X": "np.zeros((2, 3))", "Y": "np.zeros((2, 4))"}
    reference = read_exercise_file(EXERCISE, "solution.py")
    answer = try_inputs(client, headers, reference, mismatched).json()
    assert answer["status"] == "reference_error"
    assert answer["message"].startswith("the reference gave no output for these inputs:")
    # Its exception and message, never the line of the reference's source it came from.
    assert "the reference raised ValueError: operands could not be broadcast" in answer["message"]
    assert " on line " not in answer["message"]


def test_a_try_speaks_the_readers_language(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    japanese = headers | {"Accept-Language": "ja"}
    reference = read_exercise_file(EXERCISE, "solution.py")
    assert try_inputs(client, japanese, reference, POINTS).json()["message"] == (
        "参照解と同じ出力です"
    )
    crashing = "def pairwise_distances(X, Y):\n    raise ValueError('not yet')\n"
    assert try_inputs(client, japanese, crashing, POINTS).json()["message"] == (
        "あなたのコード：2 行目で ValueError が発生しました：not yet"
    )
    unloadable = "def pairwise_distances(X, Y):\n    return\nraise ImportError('no')\n"
    assert (
        try_inputs(client, japanese, unloadable, POINTS)
        .json()["message"]
        .startswith("あなたのコードを読み込めませんでした：")
    )


@pytest.mark.parametrize(
    ("inputs", "detail"),
    [
        (
            {"X": "__import__('os').listdir('/')", "Y": "[]"},
            "input X, line 1, column 1: only np.array",
        ),
        ({"X": "np.zeros((2, 2))", "Y": "np.zeros(2).reshape(1, 2)"}, "input Y, line 1"),
        ({"X": "np.zeros((20000, 20000))", "Y": "[]"}, "too large"),
        ({"X": "[]"}, "missing input(s): Y"),
    ],
)
def test_refused_inputs_get_a_clear_422(
    client: TestClient, make_user: MakeUser, inputs: dict[str, str], detail: str
) -> None:
    _, headers = make_user("ada")
    response = try_inputs(client, headers, LAST_COLUMNS_OFF, inputs)
    assert response.status_code == 422
    assert detail in response.json()["detail"]


# PostgreSQL refuses text that SQLite stores (a lone surrogate).
@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("code", "inputs"),
    [
        ("# \ud800\n" + LAST_COLUMNS_OFF, POINTS),  # in the code
        (LAST_COLUMNS_OFF, POINTS | {"Y": '"\ud83d"'}),  # in an input's text
        (LAST_COLUMNS_OFF, {"X": "[1.0]", "\ud800": "1"}),  # in a parameter's name
    ],
)
def test_a_lone_surrogate_is_refused_with_a_422(
    client: TestClient, make_user: MakeUser, code: str, inputs: dict[str, str]
) -> None:
    # The parser cannot read it: a 500 (UnicodeEncodeError) before, as /run and /submit refuse.
    _, headers = make_user("ada")
    # Sent as JSON escapes (\ud800), as a hostile client would: httpx cannot encode them raw.
    response = client.post(
        f"/exercises/{EXERCISE}/try",
        content=json.dumps({"code": code, "inputs": inputs}),
        headers=headers | {"Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert "lone surrogate" in str(response.json()["detail"])


def test_inputs_that_build_more_than_they_say_are_refused_at_the_cap(
    client: TestClient, make_user: MakeUser
) -> None:
    """At the cap of pairwise-distances (512 MB: 8 388 608 elements), the rule charged
    np.linspace(np.zeros(N), 1, num=N) N + num = 8 000 000 elements, and numpy asked for
    N x num x 8 bytes, 116 TiB: a MemoryError, answered with a 500."""
    _, headers = make_user("ada")
    n = 4_000_000
    inputs = {"X": f"np.linspace(np.zeros({n}), 1, num={n})", "Y": "np.zeros((1, 2))"}
    response = try_inputs(client, headers, LAST_COLUMNS_OFF, inputs)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail.startswith("input X, line 1, column 1: too large: reading and building")
    assert "all of them may allocate at most 67,108,864 (as many as 8,388,608 float64" in detail


def test_outputs_too_large_for_a_try_are_a_422_naming_the_cap(
    client: TestClient, make_user: MakeUser
) -> None:
    """Inputs charged about 45 KB made outputs of 2800 x 2800 float64s (63 MB each), held,
    compared and pictured on the server: its memory grew by 239 MB for the reference's code."""
    _, headers = make_user("ada")
    reference = read_exercise_file(EXERCISE, "solution.py")
    tall = {"X": "np.zeros((2800, 1))", "Y": "np.ones((2800, 1))"}
    response = try_inputs(client, headers, reference, tall)
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == (
        "the reference's output for these inputs is too large for a try: a try's outputs may "
        "be at most 1 MiB each (choose smaller inputs)"
    )


def test_an_exercise_may_turn_custom_inputs_off(client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    assert client.get("/exercises/parameter-count").json()["custom_inputs"] is False
    assert client.get(f"/exercises/{EXERCISE}").json()["custom_inputs"] is True
    code = read_exercise_file("parameter-count", "solution.py")
    response = try_inputs(
        client,
        headers,
        code,
        {"kind": "'gru'", "input_size": "3", "hidden_size": "4", "output_size": "1"},
        exercise="parameter-count",
    )
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "Exercise 'parameter-count' does not take custom inputs: its reference would give "
        "the answer away"
    )


def test_a_scenario_exercise_takes_no_custom_inputs(
    client: TestClient, make_user: MakeUser
) -> None:
    _, headers = make_user("ada")
    assert client.get("/exercises/affine-layer").json()["custom_inputs"] is False
    response = try_inputs(client, headers, "x = 1", {}, exercise="affine-layer")
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "Exercise 'affine-layer' does not take custom inputs: its functions are called in scenarios"
    )


def test_a_try_needs_a_user_and_an_exercise(client: TestClient, make_user: MakeUser) -> None:
    assert try_inputs(client, {}, LAST_COLUMNS_OFF, POINTS).status_code == 401
    _, headers = make_user("ada")
    missing = try_inputs(client, headers, LAST_COLUMNS_OFF, POINTS, exercise="nope")
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Exercise 'nope' not found"


@pytest.fixture
def slow_client(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[TestClient]:
    """Runs limited to two a minute."""
    runtime = make_runtime(
        make_settings(database_url, tmp_path, submit_rate_per_minute=2), shared_grader
    )
    with TestClient(create_app(runtime=runtime)) as test_client:
        yield test_client
    wipe(database_url)


def test_tries_are_limited_like_runs(slow_client: TestClient, make_user: MakeUser) -> None:
    _, headers = make_user("ada")
    for _ in range(2):
        assert try_inputs(slow_client, headers, LAST_COLUMNS_OFF, POINTS).status_code == 200
    refused = try_inputs(slow_client, headers, LAST_COLUMNS_OFF, POINTS)
    assert refused.status_code == 429
    assert refused.json()["detail"] == (
        "You tried custom inputs 2 times in the last minute (the limit is 2)"
    )
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


@pytest.fixture
def frugal_client(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    """Tries may take a millisecond of CPU an hour."""
    runtime = make_runtime(
        make_settings(database_url, tmp_path, try_cpu_s_per_hour=0.001), shared_grader
    )
    with TestClient(create_app(runtime=runtime)) as test_client:
        yield test_client, runtime
    wipe(database_url)


def test_a_tries_cpu_counts_against_the_learners_budget(
    frugal_client: tuple[TestClient, GradingRuntime], make_user: MakeUser
) -> None:
    """Tries' CPU was counted nowhere: with no rate (the default), a learner sent tries one
    after another, each up to twice the exercise's time limit in the sandbox."""
    client, runtime = frugal_client
    _, headers = make_user("ada")
    _, bob_headers = make_user("bob")
    assert try_inputs(client, headers, LAST_COLUMNS_OFF, POINTS).status_code == 200
    with runtime.sessions() as session:  # both calls and the reading, in milliseconds
        spent = session.scalar(select(func.sum(ThrottleCounter.hits)))
    assert spent is not None and spent >= 2

    refused = try_inputs(client, headers, LAST_COLUMNS_OFF, POINTS)
    assert refused.status_code == 429
    assert refused.json()["detail"] == (
        "Your tries of custom inputs have taken 0.001 s of CPU, as much as they may take in "
        "60 minutes: try again later"
    )
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert try_inputs(client, bob_headers, LAST_COLUMNS_OFF, POINTS).status_code == 200


def test_a_try_refused_for_its_output_counts_its_cpu(
    frugal_client: tuple[TestClient, GradingRuntime], make_user: MakeUser
) -> None:
    """A refusal after both calls ran in the sandbox: their CPU counts as for a try that
    answered, else outputs too large would make tries that cost the learner nothing."""
    client, runtime = frugal_client
    _, headers = make_user("ada")
    too_large = """
import numpy as np

def pairwise_distances(X, Y):
    np.sort(np.random.default_rng(0).random(10_000_000))  # the sandbox's CPU, some 0.2 s
    return np.ones((600, 600))
"""
    response = try_inputs(client, headers, too_large, POINTS)
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith("your code's output for these inputs is too")
    with runtime.sessions() as session:
        spent = session.scalar(select(func.sum(ThrottleCounter.hits)))
    assert spent is not None and spent >= 40  # ms: the sort's (4 before: the thread's only)
    assert try_inputs(client, headers, LAST_COLUMNS_OFF, POINTS).status_code == 429


def test_a_learner_runs_one_try_at_a_time_and_tries_take_half_the_pool(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    """A try runs in the request's thread on the process's sandbox pool, outside the queue's
    quota and lanes: one learner's tries sent at once held every zygote and server thread."""
    ada, ada_headers = make_user("ada")
    _, bob_headers = make_user("bob")
    assert runtime.tries.limit == max(1, runtime.settings.sandbox_pool_size // 2)
    with ExitStack() as running:
        running.enter_context(runtime.tries.claim(ada.id))  # ada's first try, still running
        second = try_inputs(client, ada_headers, LAST_COLUMNS_OFF, POINTS)
        assert second.status_code == 429
        assert second.json()["detail"] == (
            "You have a try of custom inputs running: send the next once it has answered"
        )
        assert second.headers["Retry-After"] == "1"
        for other in range(runtime.tries.limit - 1):  # other learners' tries fill the rest
            running.enter_context(runtime.tries.claim(-1 - other))
        busy = try_inputs(client, bob_headers, LAST_COLUMNS_OFF, POINTS)
        assert busy.status_code == 429
        assert busy.json()["detail"].startswith("The server is answering as many tries")
        assert busy.headers["Retry-After"] == "1"
    for headers in (ada_headers, bob_headers):
        assert try_inputs(client, headers, LAST_COLUMNS_OFF, POINTS).status_code == 200
