"""The course pages: a learner's assignments, the gradebooks per assignment and overall with
their CSV, extensions from a form, the class view of an exercise and its regrade button."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import roster
from tests.app.course_catalog import course_service
from tests.app.web.helpers import (
    csrf_of,
    make_instructor,
    rows_of,
    sign_in,
    sign_up,
    submit,
    text_of,
)

GATE = "gru-update-gate"


def course_toml(now: datetime) -> str:
    return f'''
timezone = "Asia/Tokyo"

[[assignment]]
id = "gates"
title = "Gates"
opens = {(now - timedelta(days=3)).isoformat()}
due = {(now - timedelta(hours=2)).isoformat()}
late = {{ policy = "penalty", per_day = 0.5, floor = 0.25 }}
exercises = [{{ id = "{GATE}", weight = 2 }}, "gru-reset-gate"]

[[assignment]]
id = "later"
title = "Later"
opens = {(now - timedelta(days=1)).isoformat()}
due = {(now + timedelta(days=9, hours=5, minutes=30)).isoformat()}
exercises = ["lstm-step"]
'''


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    now = datetime.now(UTC).replace(microsecond=0)
    with course_service(
        database_url, tmp_path, shared_grader, course_toml(now), copies=(GATE,)
    ) as service:
        yield service


def test_a_learner_sees_states_due_times_in_the_schedule_zone_and_late_work(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    sign_up(client, "lea")
    submit(client, GATE, "solution.py")  # two hours late: half the points
    page = client.get("/course")
    assert page.status_code == 200
    html = page.text
    assert "Times are in Asia/Tokyo." in html
    assert re.search(r'data-state="late">late<', html) and re.search(
        r'data-state="open">open<', html
    )
    assert " JST" in html and re.search(r"9 d 5 h 2\d min left", html)
    exercises = rows_of(html, "data-exercise")
    assert exercises[GATE] == "GRU update gate 2 50 % late 1"
    assert exercises["gru-reset-gate"] == "GRU reset gate 1 Not submitted 0"
    assert "Total 1 / 3" in text_of(html)
    assert "Late work loses 50 % of its score per started day, down to 25 %." in html
    ja = client.get("/course", headers={"Accept-Language": "ja"}).text
    assert "締め切り後の提出は" in ja and "遅延" in ja
    assert rows_of(ja, "data-exercise")[GATE].startswith("GRU の更新ゲート 2 ")

    # The exercise page shows the assignment and what the schedule counts of the best score.
    banner = re.search(
        r'<section class="assignment-banner[^>]*data-state="late"[^>]*>(.*?)</section>',
        client.get(f"/learn/{GATE}?lang=en").text,
        re.DOTALL,
    )
    assert banner is not None
    text = unescape(text_of(banner[1]))
    assert "Gates late · Due " in text and " JST · past due" in text
    assert "a submission now loses 50 % of its score per started day, down to 25 %" in text
    assert "The assignment counts 50 % of this exercise's 2 points: 1. late" in text
    later = client.get("/learn/lstm-step?lang=en").text
    assert 'data-assignment="later" data-state="open"' in later
    assert re.search(r"9 d 5 h 2\d min left", later)
    assert "assignment-banner" not in client.get("/learn/gru-step?lang=en").text  # practice

    # The history's best is what the schedule counts (half of the late full marks), not the
    # raw score.
    history = client.get(f"/history?exercise={GATE}").text
    best = re.search(r"— best ([\d.]+)<", unescape(history))
    raw = re.search(r'<td class="num">([\d.]+) / \1</td>', history)  # full marks
    assert best is not None and raw is not None, history[:500]
    assert float(best[1]) == float(raw[1]) / 2 > 0


def test_the_gradebooks_and_their_csv_agree(service: tuple[TestClient, GradingRuntime]) -> None:
    client, runtime = service
    sign_up(client, "lea")
    submit(client, GATE, "solution.py")
    client.cookies.clear()
    sign_up(client, "max")
    client.cookies.clear()
    make_instructor(runtime, client)

    overall = rows_of(client.get("/instructor/assignments").text, "data-user")
    assert overall == {"lea": "lea 1 / 3 0 / 1 1 / 4", "max": "max 0 / 3 0 / 1 0 / 4"}
    table = list(csv.reader(io.StringIO(client.get("/instructor/assignments.csv").text)))
    assert table == [
        ["learner", "name", "section", "email", "gates", "later", "total"],
        ["(max)", "", "", "", "3", "1", "4"],
        ["lea", "", "", "", "1", "0", "1"],
        ["max", "", "", "", "0", "0", "0"],
    ]

    page = client.get("/instructor/assignments/gates").text
    assert "1 of 2 learners" not in page  # half marks after the penalty is not complete
    assert (
        "0 of 2 learners have full marks on every exercise; 1 of 1 submissions came "
        "after their due time (100 %)." in page
    )
    # Nobody complete: words, not a flat line at zero.
    assert "<svg" not in page
    assert "No completions yet: no learner has full marks on every exercise." in page
    rows = rows_of(page, "data-user")
    assert rows["lea"].endswith("1 late 0 1 / 3")
    gates = list(csv.reader(io.StringIO(client.get("/instructor/assignments/gates.csv").text)))
    assert gates[0] == [
        "learner",
        "name",
        "section",
        "email",
        "due",
        GATE,
        "gru-reset-gate",
        f"{GATE}_late",
        "gru-reset-gate_late",
        "total",
        "regrading",
    ]
    assert gates[2][0] == "lea" and gates[2][5:] == ["1", "0", "late", "", "1", ""]
    assert gates[1][4].endswith("+09:00") and gates[2][4].endswith("+09:00")  # the schedule's zone
    history = client.get(f"/instructor/exercises/{GATE}").text
    assert " JST</td>" in history and " UTC</td>" not in history


def test_an_extension_from_the_form_rescores_the_learner(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    sign_up(client, "lea")
    submit(client, GATE, "solution.py")
    client.cookies.clear()
    make_instructor(runtime, client)
    page = client.get("/instructor/assignments/gates").text
    until = (
        (datetime.now(UTC) + timedelta(days=2))
        .astimezone(ZoneInfo("Asia/Tokyo"))
        .strftime("%Y-%m-%dT%H:%M")
    )
    response = client.post(
        "/instructor/assignments/gates/extensions",
        data={"csrf_token": csrf_of(page), "learner": "lea", "until": until},
        follow_redirects=False,
    )
    assert response.status_code == 303
    page = client.get("/instructor/assignments/gates").text
    assert (
        rows_of(page, "data-user")["lea"]
        == f"lea {until.replace('T', ' ')} JST extension 2 0 2 / 3"
    )
    assert "lea is due" in page
    earlier = client.post(
        "/instructor/assignments/gates/extensions",
        data={"csrf_token": csrf_of(page), "learner": "lea", "until": "2026-01-01T10:00"},
    )
    assert earlier.status_code == 400
    assert "an extension ends after the assignment&#39;s own due time (" in earlier.text
    assert "not at 2026-01-01 10:00 JST" in earlier.text
    response = client.post(
        "/instructor/assignments/gates/extensions",
        data={"csrf_token": csrf_of(page), "learner": "lea", "remove": "1"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert (
        "extension"
        not in rows_of(client.get("/instructor/assignments/gates").text, "data-user")["lea"]
    )


def test_the_class_view_and_its_regrade_button(service: tuple[TestClient, GradingRuntime]) -> None:
    client, runtime = service
    sign_up(client, "lea")
    submit(client, GATE, "starter.py")
    submit(client, GATE, "solution.py")
    client.cookies.clear()
    make_instructor(runtime, client)
    nobody = client.get("/instructor/analytics/gru-reset-gate").text  # in the course, unsubmitted
    assert "<svg" not in nobody and 'data-table="scores"' not in nobody
    assert "No learner has a graded submission of this exercise yet" in nobody
    page = client.get(f"/instructor/analytics/{GATE}").text
    assert page.count("<svg") >= 2
    scores = dict(
        re.findall(
            r"<tr><td>([^<]+)</td><td class=\"num\">(\d+)</td></tr>",
            page.split('data-table="scores"')[1].split("</table>")[0],
        )
    )
    assert scores["100 %"] == "1" and scores["0–19 %"] == "0"
    tests = list(
        csv.reader(io.StringIO(client.get(f"/instructor/analytics/{GATE}/tests.csv").text))
    )
    assert tests[0] == ["test", "visibility", "passed", "graded", "pass rate"]
    assert {row[3] for row in tests[1:]} == {"2"}
    assert client.get(f"/instructor/analytics/{GATE}/nope.csv").status_code == 404
    assert "Regrade them" not in page

    statement = runtime.catalog.root / GATE / "statement.md"
    statement.write_text(statement.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    page = client.get(f"/instructor/analytics/{GATE}").text
    assert "2 graded submissions were graded by an earlier version" in page
    response = client.post(
        f"/instructor/regrades/{GATE}", data={"csrf_token": csrf_of(page)}, follow_redirects=True
    )
    assert "2 submissions are queued for regrading" in response.text

    # The learner sees on the submission that it was graded again, and every result it had.
    client.cookies.clear()
    sign_in(client, "lea", "correct horse")
    latest = client.get("/submissions", params={"exercise": GATE}).json()[0]
    deadline = time.monotonic() + 60
    while client.get(latest["url"]).json()["status"] != "done":
        assert time.monotonic() < deadline, "the regrade did not finish within 60 s"
        time.sleep(0.1)
    page = client.get(f"/history/{latest['id']}").text
    assert "Earlier results" in page
    rows = re.findall(
        r"<tr(?: aria-current=\"true\")?><td>.*?</tr>",
        page.split('data-table="reports"')[1],
        re.DOTALL,
    )
    assert len(rows) == 2 and "(now)" in rows[1] and "(now)" not in rows[0]


def test_learners_do_not_reach_the_instructor_pages(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, _ = service
    sign_up(client, "lea")
    for path in (
        "/instructor/assignments",
        "/instructor/assignments/gates",
        "/instructor/assignments.csv",
        f"/instructor/analytics/{GATE}",
    ):
        assert client.get(path).status_code == 403, path


def test_sections_filter_the_assignment_gradebooks(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    with runtime.sessions() as session:
        roster.import_roster(
            session=session, text="username,section\nada,A\nalan,B\n", link_days=14
        )
        session.commit()
    make_instructor(runtime, client)
    overall = client.get("/instructor/assignments?section=A").text
    assert set(rows_of(overall, "data-user")) == {"ada"}
    assert 'href="/instructor/assignments.csv?section=A"' in overall
    one = client.get("/instructor/assignments/gates?section=B").text
    assert set(rows_of(one, "data-user")) == {"alan"}
    table = list(
        csv.reader(io.StringIO(client.get("/instructor/assignments/gates.csv?section=B").text))
    )
    assert [row[0] for row in table] == ["learner", "(max)", "alan"]
    everyone = list(csv.reader(io.StringIO(client.get("/instructor/assignments.csv").text)))
    assert [row[0] for row in everyone][2:] == ["ada", "alan"]


def test_the_instructor_pages_speak_japanese_with_the_exercises_own_words(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    sign_up(client, "lea")
    submit(client, GATE, "solution.py")
    client.cookies.clear()
    make_instructor(runtime, client)
    ja = {"Accept-Language": "ja"}
    for path in (
        "/instructor/gradebook",
        "/instructor/learners/lea",
        "/instructor/submissions",
        f"/instructor/exercises/{GATE}",
        "/instructor/similarity",
        f"/instructor/analytics/{GATE}",
    ):
        page = client.get(path, headers=ja)
        assert page.status_code == 200, path
        # (the learner's code may say "GRU update gate": a title is an element's whole text)
        assert "GRU の更新ゲート" in page.text and ">GRU update gate<" not in page.text, path
    view = client.get(f"/instructor/analytics/{GATE}", headers=ja).text
    assert "<td>数値例</td>" in view and "numerical example" not in text_of(view)
    english = client.get(f"/instructor/analytics/{GATE}", headers={"Accept-Language": "en"}).text
    assert "<td>numerical example</td>" in english and "Class view: GRU update gate" in english
    # The CSV keeps the names the reports carry, whatever the page's language.
    tests = client.get(f"/instructor/analytics/{GATE}/tests.csv", headers=ja).text
    assert "numerical example" in tests
