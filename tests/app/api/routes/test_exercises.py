"""GET /exercises, GET /exercises/{id} and its public inputs: what learners may see, and
re-reading on edit."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from numjudge_client._inputs import decode

from app.main import create_app
from app.models import Role, User
from app.runtime.context import GradingRuntime
from app.services import public_inputs
from graders.exercises import Exercise, ExerciseCatalog, course_of
from tests.app.conftest import EXERCISES, read_exercise_file

MakeUser = Callable[..., tuple[User, dict[str, str]]]


def test_list_is_in_course_order_with_versions(client: TestClient) -> None:
    listed = client.get("/exercises").json()
    catalog = ExerciseCatalog(EXERCISES)
    courses = catalog.courses()
    rank = {course.id: place for place, course in enumerate(courses)}

    def course_id(exercise: Exercise) -> str:
        course = course_of(courses, exercise.course)
        assert course is not None
        return course.id

    # Course after course (the sort is stable: each course keeps the catalog's order).
    in_order = sorted(catalog.all(), key=lambda e: rank[course_id(e)])
    assert [e["id"] for e in listed] == [e.id for e in in_order]
    assert [e["course"] for e in listed] == [course_id(e) for e in in_order]
    first = listed[0]
    assert set(first) == {
        "id",
        "course",
        "course_title",
        "title",
        "difficulty",
        "tags",
        "order",
        "version",
        "languages",
        "url",
    }
    assert first["url"] == f"/exercises/{first['id']}"


def test_detail_has_statement_theory_starter_and_public_cases_only(client: TestClient) -> None:
    response = client.get("/exercises/gru-update-gate")
    assert response.status_code == 200
    data = response.json()
    prepared = ExerciseCatalog(EXERCISES).prepared("gru-update-gate")
    assert data["public_cases"] == [c.name for c in prepared.public_cases]
    assert data["starter_code"] == read_exercise_file("gru-update-gate", "starter.py")
    assert data["statement_markdown"] == read_exercise_file("gru-update-gate", "statement.md")
    assert '<span class="math inline">' in data["statement_html"]
    assert data["theory_html"] and data["language"] == "en"
    text = response.text
    solution = read_exercise_file("gru-update-gate", "solution.py")
    assert solution not in text
    body = [line for line in solution.splitlines() if line.strip().startswith("return")]
    assert all(line.strip() not in text for line in body)
    hidden = [c.name for c in prepared.cases if not c.spec.public]
    assert all(f'"{name}"' not in text for name in hidden)
    for case in prepared.public_cases:
        for value in case.inputs.values():
            assert repr(value) not in text
    assert "HINT" not in text and "mistake" not in text.lower()


def test_detail_lists_what_the_code_may_not_use(client: TestClient) -> None:
    data = client.get("/exercises/gru-candidate-state").json()
    assert data["forbidden"] == [
        {
            "rule": "python-loop",
            "description": "Python loops (for, while, comprehensions, map, filter, reduce, "
            "np.vectorize, np.frompyfunc, recursion)",
        },
        {"rule": "numpy.vectorize", "description": "numpy.vectorize"},
        {"rule": "numpy.apply_along_axis", "description": "numpy.apply_along_axis"},
    ]
    assert client.get("/exercises/gru-update-gate").json()["forbidden"] == []


def test_translation_is_served_when_asked(client: TestClient) -> None:
    data = client.get("/exercises/gru-update-gate", params={"lang": "ja"}).json()
    assert data["language"] == "ja"
    assert data["statement_markdown"] == read_exercise_file("gru-update-gate", "statement.ja.md")
    fallback = client.get("/exercises/gru-update-gate", params={"lang": "fr"}).json()
    assert fallback["language"] == "en"


def test_titles_are_in_the_language_the_client_asks_for(client: TestClient) -> None:
    def gate(listing: list[dict[str, str]]) -> dict[str, str]:
        return next(e for e in listing if e["id"] == "gru-update-gate")

    english = gate(client.get("/exercises").json())
    assert (english["title"], english["course_title"]) == (
        "GRU update gate",
        "Gated recurrent networks",
    )
    asked = client.get("/exercises", headers={"Accept-Language": "ja-JP,ja;q=0.9"}).json()
    japanese = gate(asked)
    assert (japanese["title"], japanese["course_title"]) == (
        "GRU の更新ゲート",
        "ゲート付き再帰ネットワーク",
    )
    assert [e["id"] for e in asked] == [e["id"] for e in client.get("/exercises").json()]
    # The pages' language choice wins, as for the tests' names in a result.
    client.cookies.set("numjudge_lang", "ja")
    chosen = client.get("/exercises", headers={"Accept-Language": "en"}).json()
    assert gate(chosen)["title"] == "GRU の更新ゲート"
    client.cookies.clear()
    # The detail's titles follow its statement's language.
    assert client.get("/exercises/gru-update-gate", params={"lang": "ja"}).json()["title"] == (
        "GRU の更新ゲート"
    )


def test_unknown_exercise_is_404(client: TestClient) -> None:
    response = client.get("/exercises/no-such")
    assert response.status_code == 404
    assert response.json()["detail"] == "Exercise 'no-such' not found"


def test_an_edit_is_seen_without_restart(runtime: GradingRuntime, tmp_path: Path) -> None:
    root = tmp_path / "exercises"
    shutil.copytree(
        EXERCISES / "gru-update-gate",
        root / "gru-update-gate",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    runtime.catalog = ExerciseCatalog(root)
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        before = client.get("/exercises/gru-update-gate").json()
        statement = root / "gru-update-gate" / "statement.md"
        statement.write_text(statement.read_text() + "\nEdited by the instructor.\n")
        after = client.get("/exercises/gru-update-gate").json()
    assert after["version"] != before["version"]
    assert after["statement_markdown"].endswith("Edited by the instructor.\n")


def test_a_broken_folder_is_hidden_from_learners_and_named_to_instructors(
    runtime: GradingRuntime, tmp_path: Path, make_user: MakeUser
) -> None:
    root = tmp_path / "exercises"
    shutil.copytree(
        EXERCISES / "gru-update-gate",
        root / "gru-update-gate",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    toml = root / "gru-update-gate" / "exercise.toml"
    toml.write_text(toml.read_text().replace('entry = "update_gate"', 'entry = ""'))
    runtime.catalog = ExerciseCatalog(root)
    _, learner = make_user("ada")
    _, instructor = make_user("prof", Role.INSTRUCTOR)
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        for headers in ({}, learner):
            hidden = client.get("/exercises/gru-update-gate", headers=headers)
            assert hidden.status_code == 404
            assert hidden.json()["detail"] == "Exercise 'gru-update-gate' not found"
            assert client.get("/exercises", headers=headers).json() == []
        response = client.get("/exercises/gru-update-gate", headers=instructor)
    assert response.status_code == 500
    assert response.json()["detail"] == (
        "The exercise folder is broken: gru-update-gate/exercise.toml: field 'entry' must be a "
        "Python function name"
    )


def test_public_inputs_are_the_public_cases_values_and_nothing_else(client: TestClient) -> None:
    response = client.get("/exercises/gru-update-gate/public-inputs")
    assert response.status_code == 200
    data = response.json()
    prepared = ExerciseCatalog(EXERCISES).prepared("gru-update-gate")
    assert data["entry"] == "update_gate" and data["skipped"] == []
    assert [case["name"] for case in data["cases"]] == [c.name for c in prepared.public_cases]
    for served, case in zip(data["cases"], prepared.public_cases, strict=True):
        decoded = {name: decode(value) for name, value in served["inputs"].items()}
        assert decoded.keys() == case.inputs.keys()
        for name, value in case.inputs.items():
            assert decoded[name].dtype == value.dtype
            np.testing.assert_array_equal(decoded[name], value)
    hidden = {c.name for c in prepared.cases if not c.spec.public}
    assert hidden and not hidden & {case["name"] for case in data["cases"]}
    assert "expected" not in response.text


def test_public_inputs_encode_every_kind_of_value_exactly() -> None:
    values = [
        np.float32(1.5),
        float("nan"),
        (1, -float("inf")),
        {"npy": 1},
        {2: [np.arange(3)]},
        None,
        "text",
    ]
    for value in values:
        decoded = decode(json.loads(json.dumps(public_inputs.encode(value))))
        assert repr(decoded) == repr(value)
    with pytest.raises(public_inputs.NotEncodable):
        public_inputs.encode(object())


def test_an_exercise_of_several_entries_serves_no_public_inputs(client: TestClient) -> None:
    data = client.get("/exercises/affine-layer/public-inputs").json()
    assert data["cases"] == [] and data["entry"]
    assert client.get("/exercises/nope/public-inputs").status_code == 404
