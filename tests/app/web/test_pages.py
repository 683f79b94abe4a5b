"""The pages: catalog, exercise, history, a submission, the token page, instructor pages."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from app.api.deps import get_catalog
from app.models import Role, User
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from app.web import auth
from graders.exercises import ExerciseCatalog
from tests.app.conftest import read_exercise_file
from tests.app.web.helpers import csrf_of, sign_in, sign_up

EXERCISE = "gru-update-gate"
MakeUser = Callable[..., tuple[User, dict[str, str]]]


def submit(client: TestClient, code: str, kind: str = "submit") -> dict[str, object]:
    token = csrf_of(client.get("/account").text)
    response = client.post(
        f"/{kind}?wait=20",
        json={"exercise": EXERCISE, "code": code},
        headers={auth.CSRF_HEADER: token},
    )
    assert response.status_code == 202, response.text
    result: dict[str, object] = response.json()
    assert result["status"] == "done"
    return result


def exercise_config(html: str) -> dict[str, object]:
    match = re.search(
        r'<script type="application/json" id="exercise-config">(.*?)</script>', html, re.DOTALL
    )
    assert match
    config: dict[str, object] = json.loads(match.group(1))
    return config


def test_catalog_lists_exercises_in_course_order_with_best_scores(client: TestClient) -> None:
    anonymous = client.get("/")
    ids = re.findall(r'data-exercise="([^"]+)"', anonymous.text)
    # the course's order: the lesson's gated unit first (exercises/course.toml tells the story)
    assert ids[0] == "gated-unit" and EXERCISE in ids and len(ids) == len(set(ids)) >= 2
    assert "Not submitted" not in anonymous.text
    sign_up(client, "ada")
    assert client.get("/").text.count("Not submitted") == len(ids)
    result = submit(client, read_exercise_file(EXERCISE, "solution.py"))
    page = client.get("/").text
    item = page[page.index(f'data-exercise="{EXERCISE}"') :].split("</li>")[0]
    assert f"<strong>{result['score']:g} / {result['max_score']:g}</strong>" in item


def test_exercise_page_has_statement_editor_config_and_languages(client: TestClient) -> None:
    sign_up(client, "ada")
    page = client.get(f"/learn/{EXERCISE}")
    assert page.status_code == 200
    assert "<h1>GRU update gate</h1>" in page.text
    assert '<span class="math inline">' in page.text
    assert 'href="?lang=ja"' in page.text
    config = exercise_config(page.text)
    assert config["starter"] == read_exercise_file(EXERCISE, "starter.py")
    assert config["exercise"] == EXERCISE
    assert config["csrf"] == csrf_of(page.text)
    assert "solution" not in page.text.lower().replace("your solution", "")
    japanese = client.get(f"/learn/{EXERCISE}?lang=ja")
    assert '<html lang="ja">' in japanese.text
    assert japanese.cookies.get("numjudge_lang") == "ja"
    remembered = client.get(f"/learn/{EXERCISE}")
    assert '<html lang="ja">' in remembered.text


def test_unknown_exercise_is_a_page_not_a_trace(client: TestClient) -> None:
    sign_up(client, "ada")
    page = client.get("/learn/no-such-thing")
    assert page.status_code == 404
    assert "There is no exercise &#39;no-such-thing&#39;." in page.text
    assert "Traceback" not in page.text


def test_history_and_a_submission_page(client: TestClient, make_user: MakeUser) -> None:
    sign_up(client, "ada")
    run = submit(client, "def update_gate(x_t, h_prev, W_z, b_z):\n    return h_prev\n", "run")
    done = submit(client, read_exercise_file(EXERCISE, "solution.py"))
    history = client.get("/history").text
    assert history.index(f"/history/{done['id']}") < history.index(f"/history/{run['id']}")
    assert 'data-kind="run"' in history and 'data-kind="submit"' in history
    page = client.get(f"/history/{done['id']}").text
    assert 'data-verdict="passed"' in page
    assert "Reload the page in a moment" not in page  # final: no "still grading" note
    assert "np.logaddexp" in page
    assert page.count('data-visibility="hidden"') >= 1
    assert "Hidden test" in page
    # A failed hidden test shows its points and its category's fixed message, as the API does.
    failed = submit(client, read_exercise_file(EXERCISE, "starter.py"))
    tests = failed["tests"]
    assert isinstance(tests, list)
    hidden = next(t for t in tests if t["visibility"] == "hidden")
    row = re.search(
        r'<tr data-status="failed" data-visibility="hidden">(.*?)</tr>',
        client.get(f"/history/{failed['id']}").text,
        re.DOTALL,
    )
    assert row is not None
    assert f"0 / {hidden['max_points']:g}" in row[1]
    assert "Hidden test</span> " in row[1] and "details are not shown for hidden tests" in row[1]
    # What the run used (hidden cases included) is the instructor's alone to see.
    assert "data-cost" not in page and "CPU time" not in page
    assert not {"cpu_ms", "memory_kb", "cost"} & done.keys()
    client.cookies.clear()
    sign_up(client, "bob")
    other = client.get(f"/history/{done['id']}")
    assert other.status_code == 404
    assert "Submission not found" in other.text


def test_token_page_shows_a_new_token_once(client: TestClient) -> None:
    sign_up(client, "ada")
    page = client.get("/account")
    assert "You have no token yet." in page.text
    created = client.post("/account/token", data={"csrf_token": csrf_of(page.text)})
    token = re.search(r'id="token" type="text" readonly value="([^"]+)"', created.text)
    assert token
    api = client.get("/submissions", headers={"Authorization": f"Bearer {token.group(1)}"})
    assert api.status_code == 200
    again = client.get("/account").text
    assert token.group(1) not in again and token.group(1)[:10] in again
    forged = client.post("/account/token", data={"csrf_token": "nope"})
    assert forged.status_code == 400
    assert "This form has expired" in forged.text


def test_instructor_pages_and_gradebook_csv(
    client: TestClient, make_user: MakeUser, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada")
    result = submit(client, read_exercise_file(EXERCISE, "solution.py"))
    assert client.get("/instructor/gradebook").status_code == 403
    client.cookies.clear()
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password="teach-me-numpy"
        )
        session.commit()
    sign_in(client, "teacher", "teach-me-numpy")
    book = client.get("/instructor/gradebook")
    assert book.status_code == 200
    row = book.text[book.text.index('data-user="ada"') :].split("</tr>")[0]
    assert f"{result['score']:g} / {result['max_score']:g}" in row
    exported = client.get("/instructor/gradebook.csv")
    assert exported.headers["content-type"] == "text/csv; charset=utf-8"
    assert exported.headers["cache-control"] == "no-store"
    assert exported.headers["content-disposition"].endswith("''numjudge-gradebook.csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert rows[0]["learner"] == "(max)"
    ada = next(r for r in rows if r["learner"] == "ada")
    assert float(ada[EXERCISE]) == result["score"]
    subs = client.get(f"/instructor/exercises/{EXERCISE}")
    assert f"/history/{result['id']}" in subs.text
    view = client.get(f"/history/{result['id']}")
    assert view.status_code == 200
    cost = re.search(
        r"<p class=\"muted\" data-cost>Cost of the whole run, hidden tests included "
        r"\(shown to instructors only\): (\d+\.\d\d) s of CPU time of the 5 s limit, "
        r"(\d+\.\d) MB of memory at its peak of the 512 MB limit.</p>",
        view.text,
    )
    assert cost, view.text
    assert 0 < float(cost.group(1)) < 5 and 0 < float(cost.group(2)) < 512


def test_static_files_are_served_and_confined(client: TestClient) -> None:
    css = client.get("/static/css/numjudge.css?v=1")
    assert css.status_code == 200
    assert "immutable" in css.headers["cache-control"]
    assert client.get("/static/vendor/editor.min.js").status_code == 200
    assert client.get("/static/vendor/katex/katex.min.js").status_code == 200
    assert client.get("/static/../web/auth.py").status_code == 404
    assert client.get("/static/%2e%2e/web/auth.py").status_code == 404


def test_every_exercise_page_renders_in_every_language(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada")
    for exercise in runtime.catalog.all():
        for lang in exercise.languages:
            page = client.get(f"/learn/{exercise.id}?lang={lang}")
            assert page.status_code == 200, (exercise.id, lang)
            assert f'<html lang="{lang}">' in page.text
            assert 'class="prose" id="statement"' in page.text


def test_the_lesson_page_is_linked_from_the_catalog_and_the_statements_that_use_it(
    client: TestClient, runtime: GradingRuntime
) -> None:
    assert 'href="/lesson"' in client.get("/").text
    page = client.get("/lesson")
    assert page.status_code == 200
    assert '<a href="/lesson" aria-current="page">The lesson</a>' in page.text
    assert "<h1>The lesson: gated units on the reading task</h1>" in page.text
    assert '<div class="math block">' in page.text and "katex.min.js" in page.text
    assert "<td>0.9837%</td>" in page.text
    japanese = client.get("/lesson?lang=ja")
    assert '<html lang="ja">' in japanese.text and 'id="lesson" lang="ja"' in japanese.text
    assert "<h1>レッスン：読み取り値の課題とゲート付きユニット</h1>" in japanese.text
    assert japanese.cookies.get("numjudge_lang") == "ja"
    assert "Sign in" in page.text
    sign_up(client, "ada")
    signed_in = client.get("/lesson?lang=en").text
    assert "Signed in as <strong>ada</strong>" in signed_in and "Sign in" not in signed_in
    for exercise in ("gated-unit", "parameter-count", "gated-unit-bptt", "marker-trace"):
        for lang in ("en", "ja"):
            statement = client.get(f"/learn/{exercise}?lang={lang}").text
            assert 'href="/lesson"' in statement, (exercise, lang)


def test_a_catalog_without_a_lesson_says_so(client: TestClient, tmp_path: Path) -> None:
    empty = ExerciseCatalog(tmp_path)
    client.app.dependency_overrides[get_catalog] = lambda: empty  # type: ignore[attr-defined]
    page = client.get("/lesson")
    assert page.status_code == 404
    assert "This course has no lesson page &#39;lesson.md&#39;." in page.text
