"""The error pictures on the submission page and under the exercise page's results, and the
exercise page's custom inputs, through the app with real grading."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from app.models import Submission, SubmissionKind, SubmissionStatus, utcnow
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from app.web import auth
from graders import results
from tests.app.api.routes.test_feedback import EXERCISE, LAST_COLUMNS_OFF
from tests.app.conftest import read_exercise_file
from tests.app.web.helpers import csrf_of, sign_up

SVG = "{http://www.w3.org/2000/svg}"


def send(client: TestClient, code: str, kind: str = "run", exercise: str = EXERCISE) -> Any:
    token = csrf_of(client.get("/account").text)
    response = client.post(
        f"/{kind}?wait=30",
        json={"exercise": exercise, "code": code},
        headers={auth.CSRF_HEADER: token},
    )
    assert response.status_code == 202, response.text
    return response.json()


def grid(html: str, label: str) -> list[list[str]]:
    """The cells of a picture's table ``label``, row by row, headers included."""
    table = re.search(rf'<table class="error-grid" data-grid="{label}">(.*?)</table>', html, re.S)
    assert table is not None, f"no {label} table"
    rows = re.findall(r"<tr>(.*?)</tr>", table[1], re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)
        ]
        for r in rows
    ]


def check_pictures(html: str) -> None:
    section = re.search(r'<section class="error-pictures".*?</section>', html, re.S)
    assert section is not None
    pictures = re.findall(r'data-test="([^"]+)" data-kind="([^"]+)"', section[0])
    assert pictures == [("random points", "matrix")]  # 3 x 2 worked example: text only
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", section[0], re.S)[0])  # type: ignore[index]
    assert svg.tag == f"{SVG}svg"
    assert svg.findtext(f"{SVG}title") == "Error of test random points"
    assert svg.findall(f".//{SVG}image")  # the three heatmaps
    assert "<script" not in section[0]
    error = grid(section[0], "Error")
    assert error[0] == ["axis 0 \\ axis 1", "0", "1", "2", "3", "4"]
    assert [row[0] for row in error[1:]] == ["0", "1", "2", "3"]
    assert all(row[4:] == ["1", "1"] for row in error[1:])
    assert all(float(x) < 1e-9 for row in error[1:] for x in row[1:4])
    assert section[0].count('data-worst="true"') == 3  # the worst cell in all three tables
    expected, got = grid(section[0], "Expected"), grid(section[0], "Got")
    assert (
        float(got[1][5]) == float(expected[1][5]) + 1
        or abs(float(got[1][5]) - float(expected[1][5]) - 1) < 1e-3
    )
    assert "Test random points: expected, got and the error of each element" in section[0]


def test_the_submission_page_draws_a_failed_public_test(client: TestClient) -> None:
    sign_up(client, "ada")
    result = send(client, LAST_COLUMNS_OFF)
    check_pictures(client.get(f"/history/{result['id']}").text)

    # The exercise page fetches the same pictures for a result it drew itself.
    fragment = client.get(f"/history/{result['id']}/pictures")
    assert fragment.status_code == 200
    check_pictures(fragment.text)
    assert "<html" not in fragment.text

    passed = send(client, read_exercise_file(EXERCISE, "solution.py"))
    assert "error-pictures" not in client.get(f"/history/{passed['id']}").text
    assert client.get(f"/history/{passed['id']}/pictures").text.strip() == ""

    client.cookies.clear()
    sign_up(client, "bob")
    assert client.get(f"/history/{result['id']}/pictures").status_code == 404


def test_hidden_tests_draw_nothing(client: TestClient) -> None:
    sign_up(client, "ada")
    result = send(client, LAST_COLUMNS_OFF, "submit")
    page = client.get(f"/history/{result['id']}").text
    assert re.findall(r'error-picture" data-test="([^"]+)"', page) == ["random points"]
    hidden = [t["name"] for t in result["tests"] if t["visibility"] == "hidden"]
    assert hidden and not any(f'data-test="{name}"' in page for name in hidden)


def config_of(html: str) -> dict[str, Any]:
    match = re.search(r'id="exercise-config">(.*?)</script>', html, re.S)
    assert match is not None
    config: dict[str, Any] = json.loads(match[1])
    return config


def test_the_exercise_page_offers_custom_inputs(client: TestClient) -> None:
    sign_up(client, "ada")
    page = client.get(f"/learn/{EXERCISE}").text
    assert 'data-custom-inputs="on"' in page
    assert re.findall(r'<textarea id="try-(\w+)"', page) == ["X", "Y"]
    assert "All inputs together may take at most 64 MiB to build." in page  # 512 MB / 8
    example = re.search(r'<textarea id="try-X"[^>]*>(.*?)</textarea>', page, re.S)
    assert example is not None and example[1].startswith("np.array([[0., 0.],")
    assert "/static/js/feedback.js" in page
    config = config_of(page)
    assert config["tryUrl"] == f"/exercises/{EXERCISE}/try"
    assert config["picturesUrl"] == "/history/__ID__/pictures"

    # The page's prefilled inputs are ones the API takes, sent as the page's script sends them.
    inputs = {
        name: re.search(rf'<textarea id="try-{name}"[^>]*>(.*?)</textarea>', page, re.S)[1]  # type: ignore[index]
        for name in ("X", "Y")
    }
    tried = client.post(
        config["tryUrl"],
        json={"code": LAST_COLUMNS_OFF, "inputs": inputs},
        headers={auth.CSRF_HEADER: config["csrf"]},
    )
    assert tried.status_code == 200, tried.text
    assert tried.json()["status"] == "different"


def test_the_exercise_page_says_when_custom_inputs_are_off(client: TestClient) -> None:
    sign_up(client, "ada")
    page = client.get("/learn/parameter-count").text
    assert 'data-custom-inputs="off"' in page
    assert 'id="custom-inputs-off"' in page and '<textarea id="try-' not in page
    assert "the reference's answers would give the solution away" in html.unescape(page)


def test_a_timed_out_submission_does_not_say_how_long_it_was_graded(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "tim")
    ran = utcnow() - timedelta(hours=1)
    ids = {}
    with runtime.sessions() as session:
        tim = account_store.get_user_by_name(session=session, name="tim")
        assert tim is not None
        for verdict in (results.Verdict.TIMEOUT, results.Verdict.FAILED):
            row = Submission(
                user_id=tim.id,
                exercise_id=EXERCISE,
                exercise_version="v",
                code="def f(): pass\n",
                kind=SubmissionKind.SUBMIT,
                status=SubmissionStatus.DONE,
                verdict=verdict,
                score=1.0,
                max_score=2.0,
                message="Time limit exceeded (5 s)" if verdict is results.Verdict.TIMEOUT else "",
                duration_ms=1215,
                tests=[
                    results.TestResult(
                        "first", results.Visibility.PUBLIC, results.Status.PASSED, 1.0, 1.0
                    ).to_dict(),
                ],
                created_at=ran,
                started_at=ran,
                finished_at=ran,
                released_at=ran,
            )
            session.add(row)
            session.flush()
            ids[verdict] = row.id
        session.commit()
    timed_out = client.get(f"/history/{ids[results.Verdict.TIMEOUT]}?lang=en").text
    assert "Time limit exceeded (5 s)" in timed_out and "1 tests" in timed_out
    assert "graded in" not in timed_out
    failed = client.get(f"/history/{ids[results.Verdict.FAILED]}?lang=en").text
    assert "1 tests, graded in 1215 ms" in failed
