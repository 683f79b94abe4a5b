"""The instructor's page for one learner, the filtered submission lists and an assignment's
submissions as a zip: what they show, where they link, and that learners reach none of them."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.conftest import read_exercise_file
from tests.app.course_catalog import course_service
from tests.app.web.helpers import make_instructor, sign_in, sign_up, submit, text_of

GATE = "gru-update-gate"
RESET = "gru-reset-gate"
PASSWORD = "correct horse"


def course_toml(now: datetime) -> str:
    return f'''
timezone = "Asia/Tokyo"

[[assignment]]
id = "gates"
title = "Gates"
opens = {(now - timedelta(days=3)).isoformat()}
due = {(now - timedelta(hours=2)).isoformat()}
late = {{ policy = "penalty", per_day = 0.5, floor = 0.25 }}
exercises = [{{ id = "{GATE}", weight = 2 }}, "{RESET}"]

[[assignment]]
id = "later"
title = "Later"
opens = {(now - timedelta(days=1)).isoformat()}
due = {(now + timedelta(days=9)).isoformat()}
exercises = ["lstm-step"]
'''


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    """lea: the starter (fails hidden tests), then the solution of the gate, both late; max:
    the solution of the reset gate; an instructor signed in."""
    now = datetime.now(UTC).replace(microsecond=0)
    with course_service(database_url, tmp_path, shared_grader, course_toml(now)) as service:
        client, runtime = service
        sign_up(client, "lea", PASSWORD)
        submit(client, GATE, "starter.py")
        submit(client, GATE, "solution.py")
        client.cookies.clear()
        sign_up(client, "max", PASSWORD)
        submit(client, RESET, "solution.py")
        client.cookies.clear()
        make_instructor(runtime, client)
        yield service


def test_the_learner_page_shows_every_exercise_and_each_submission_in_full(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    page = client.get("/instructor/learners/lea")
    assert page.status_code == 200
    html = page.text
    assert "<h1>Learner lea</h1>" in html
    assert "Graded submissions: 2. Times are in Asia/Tokyo." in html
    # What the schedule counts: the late solution, half the points, marked late.
    gates = html.split('data-assignment="gates"')[1].split("</section>")[0]
    rows = {
        exercise: text_of(body)
        for exercise, body in re.findall(
            r'<tr id="exercise-([^"]+)" data-exercise="[^"]+">(.*?)</tr>', gates, re.DOTALL
        )
    }
    assert rows == {
        GATE: "GRU update gate 2 50 % late 2 1",
        RESET: "GRU reset gate 1 Not submitted 0 0",
    }
    assert "Total 1 / 3" in text_of(gates)
    later = html.split('data-assignment="later"')[1].split("</section>")[0]
    assert "lstm-step" in later and "Not submitted" in later
    # Each submission: its code and whole result, hidden tests with their failure category.
    section = html.split(f'id="submissions-{GATE}"')[1].split("</section>")[0]
    submissions = re.findall(r"<details (.*?)</details>", section, re.DOTALL)
    assert len(submissions) == 2
    newest, oldest = submissions
    assert "open" in newest.split(">")[0] and " open" not in oldest.split(">")[0]
    assert " JST ·" in newest and "late</span>" in newest
    assert unescape(read_exercise_file(GATE, "solution.py")) in unescape(newest)
    assert unescape(read_exercise_file(GATE, "starter.py")) in unescape(oldest)
    hidden = re.findall(
        r'<tr data-status="failed" data-visibility="hidden">(.*?)</tr>', oldest, re.DOTALL
    )
    assert hidden, oldest
    for row in hidden:
        assert "Hidden test" in row and "data-failure" in row
        # What it would have said as a public test, which lea's own pages never show.
        assert re.search(r"data-full-message>.*worst at index .*: expected ", row), row
        assert re.search(r"\d+ / [1-9]", text_of(row))  # its points, out of its maximum
    assert 'data-visibility="hidden"' in newest
    # The instructor's view of that submission alone says the same.
    starter_id = re.search(r'data-submission="([0-9a-f]+)"', oldest)
    assert starter_id is not None
    assert "data-failure" in client.get(f"/history/{starter_id[1]}").text
    japanese = client.get("/instructor/learners/lea", headers={"Accept-Language": "ja"}).text
    assert "<h1>学習者 lea</h1>" in japanese and "すべての提出" in japanese
    # The other learner's work is not on lea's page.
    assert f'id="submissions-{RESET}"' not in html


def test_the_gradebooks_link_names_and_cells_to_the_learner_page(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    overall = client.get("/instructor/assignments").text
    assert '<a href="/instructor/learners/lea">lea</a>' in overall
    assert 'href="/instructor/learners/lea#assignment-gates"' in overall
    one = client.get("/instructor/assignments/gates").text
    assert '<a href="/instructor/learners/max">max</a>' in one
    assert f'href="/instructor/learners/max#exercise-{RESET}"' in one
    book = client.get("/instructor/gradebook").text
    assert '<a href="/instructor/learners/lea">lea</a>' in book
    assert f'href="/instructor/learners/lea#exercise-{GATE}"' in book
    # The anchors exist on the learner's page.
    page = client.get("/instructor/learners/max").text
    assert f'id="exercise-{RESET}"' in page and 'id="assignment-gates"' in page


def test_the_submission_list_filters_by_learner_exercise_and_assignment(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service

    def listed(query: str) -> list[tuple[str, ...]]:
        page = client.get(f"/instructor/submissions?{query}")
        assert page.status_code == 200, page.text
        body = page.text.split('data-table="submissions"')[1]
        return [
            tuple(text_of(cell) for cell in re.findall(r"<td>(.*?)</td>", row, re.DOTALL)[1:3])
            for row in re.findall(r"<tr data-submission=[^>]+>(.*?)</tr>", body, re.DOTALL)
        ]

    assert listed("") == [("max", RESET), ("lea", GATE), ("lea", GATE)]
    # All three came after the due time: each row is marked late.
    everything = client.get("/instructor/submissions").text.split('data-table="submissions"')[1]
    assert everything.count('<span class="badge late">late</span>') == 3
    assert listed("learner=lea") == [("lea", GATE), ("lea", GATE)]
    assert listed(f"exercise={RESET}") == [("max", RESET)]
    assert listed("assignment=gates&learner=max") == [("max", RESET)]
    assert listed("assignment=later") == []
    assert listed(f"learner=lea&exercise={RESET}") == []

    # The form shows the filter; the rows' links narrow it and keep the rest.
    page = client.get("/instructor/submissions?assignment=gates&learner=lea").text
    assert 'name="learner" list="filter-learners" value="lea"' in page
    assert '<option value="gates" selected>' in page
    assert (
        f'href="/instructor/submissions?learner=lea&amp;exercise={GATE}&amp;assignment=gates"'
        in page
    )
    assert 'href="/instructor/learners/lea"' in page

    # The older address of one exercise's list lands on the list, filtered.
    old = client.get(f"/instructor/exercises/{GATE}", follow_redirects=False)
    assert old.status_code == 307
    assert old.headers["location"] == f"/instructor/submissions?exercise={GATE}"

    for query, title in (
        ("learner=nobody", "There is no learner &#39;nobody&#39;."),
        ("assignment=nope", "There is no assignment &#39;nope&#39;."),
        ("exercise=nope", "There is no exercise &#39;nope&#39;."),
    ):
        missing = client.get(f"/instructor/submissions?{query}")
        assert missing.status_code == 404 and title in missing.text, query


def test_the_archive_holds_each_learners_code_and_feedback(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    page = client.get("/instructor/assignments/gates").text
    assert 'action="/instructor/assignments/gates/submissions.zip"' in page
    assert 'name="pick" value="best" checked' in page and 'name="pick" value="last"' in page

    response = client.get("/instructor/assignments/gates/submissions.zip?pick=last")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    assert "gates-last.zip" in response.headers["content-disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {
        f"gates-last/lea/{GATE}/submission.py",
        f"gates-last/lea/{GATE}/feedback.md",
        f"gates-last/lea/{GATE}/result.json",
        f"gates-last/max/{RESET}/submission.py",
        "gates-last/index.csv",
    } <= names
    assert archive.read(f"gates-last/lea/{GATE}/submission.py").decode() == read_exercise_file(
        GATE, "solution.py"
    )
    index = list(csv.DictReader(io.StringIO(archive.read("gates-last/index.csv").decode())))
    lea = next(r for r in index if r["learner"] == "lea" and r["exercise"] == GATE)
    assert (lea["late"], lea["verdict"], lea["points"]) == ("late", "passed", "1")
    assert lea["submitted_at"].endswith("+09:00")

    # The starter's hidden failures, in full, in the counted one of a learner who only tried it.
    with runtime.sessions() as session:
        account_store.create_user(session=session, name="sam", password=PASSWORD)
        session.commit()
    client.cookies.clear()
    sign_in(client, "sam", PASSWORD)
    submit(client, GATE, "starter.py")
    client.cookies.clear()
    sign_in(client, "prof", "a long password")
    best = zipfile.ZipFile(
        io.BytesIO(client.get("/instructor/assignments/gates/submissions.zip").content)
    )
    result = json.loads(best.read(f"gates-best/sam/{GATE}/result.json"))
    hidden = [t for t in result["tests"] if t["visibility"] == "hidden" and t["status"] != "passed"]
    assert hidden and all(t["failure"] for t in hidden)
    feedback = best.read(f"gates-best/sam/{GATE}/feedback.md").decode()
    for test in hidden:
        assert f"- {test['name']} (hidden): {test['status']}, " in feedback
        assert f", {test['failure']}" in feedback


def test_learners_reach_neither_another_learners_page_nor_the_archive(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    client.cookies.clear()
    sign_in(client, "lea", PASSWORD)
    for path in (
        "/instructor/learners/max",
        "/instructor/learners/lea",
        "/instructor/submissions?learner=max",
        f"/instructor/exercises/{GATE}",
        "/instructor/assignments/gates/submissions.zip",
    ):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 403, path
        assert "This page is for instructors." in response.text, path
    # The learner's own submission page keeps hidden tests short: no failure category.
    starter = client.get("/submissions", params={"exercise": GATE}).json()[-1]
    own = client.get(f"/history/{starter['id']}").text
    assert 'data-visibility="hidden"' in own and "data-failure" not in own
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name="lea")
        assert user is not None
        _, token = account_store.create_token(session=session, user=user)
        session.commit()
    api = client.get(
        "/assignments/gates/submissions.zip", headers={"Authorization": f"Bearer {token}"}
    )
    assert api.status_code == 403
    assert api.json()["detail"] == "User 'lea' is not an instructor"


def test_the_api_gives_instructors_the_archive(service: tuple[TestClient, GradingRuntime]) -> None:
    client, runtime = service
    with runtime.sessions() as session:
        prof = account_store.get_user_by_name(session=session, name="prof")
        assert prof is not None
        _, token = account_store.create_token(session=session, user=prof)
        session.commit()
    client.cookies.clear()
    headers = {"Authorization": f"Bearer {token}"}
    response = client.get("/assignments/gates/submissions.zip?pick=best", headers=headers)
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert f"gates-best/max/{RESET}/feedback.md" in archive.namelist()
    missing = client.get("/assignments/nope/submissions.zip", headers=headers)
    assert missing.status_code == 404 and missing.json()["detail"] == "Assignment 'nope' not found"
    wrong = client.get("/assignments/gates/submissions.zip?pick=first", headers=headers)
    assert wrong.status_code == 422
