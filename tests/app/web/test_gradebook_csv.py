"""The gradebook CSVs say what their pages say: the same points, rounded alike, the same
totals, the roster's name, section and e-mail, and a maximum for every column."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from app.models import Submission, SubmissionKind, SubmissionStatus
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from tests.app.web.test_roster_pages import ROSTER, import_roster, sign_in_instructor

CELL = re.compile(r'<td class="num" data-exercise="([^"]+)">(.*?)</td>')
TAG = re.compile(r"<[^>]+>")  # a score links to the learner's page
TOTAL = re.compile(r'<td class="num total"><strong>([^<]+)</strong></td>')
# Scores the page must round: a third, two thirds, and one that rounds up to a whole point.
ON_TIME = datetime(2026, 12, 2, 12, tzinfo=UTC)  # exercises/course.toml: all open, none due
SCORES = {"gru-update-gate": (1 / 3, 1.0), "adam": (4 / 3, 2.0), "dropout": (2.999, 3.0)}


def page_row(html: str, name: str) -> tuple[dict[str, str], str]:
    """A learner's cells as the page shows them (``score / max`` or "–") and their total."""
    row = html[html.index(f'data-user="{name}"') :].split("</tr>")[0]
    cells = {
        exercise: TAG.sub("", text).split(" / ")[0] if " / " in text else ""
        for exercise, text in CELL.findall(row)
    }
    total = TOTAL.search(row)
    assert total is not None
    return cells, total.group(1)


def submit_scores(runtime: GradingRuntime) -> None:
    """Ada's graded work: ``SCORES``, submitted on time for every assignment holding them."""
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None
        for exercise_id, (score, max_score) in SCORES.items():
            session.add(
                Submission(
                    user_id=ada.id,
                    exercise_id=exercise_id,
                    exercise_version="v",
                    code="",
                    kind=SubmissionKind.SUBMIT,
                    status=SubmissionStatus.DONE,
                    score=score,
                    max_score=max_score,
                    created_at=ON_TIME,
                )
            )
        session.commit()


def csv_of(client: TestClient, path: str) -> tuple[list[str], list[str], dict[str, dict[str, str]]]:
    """The header, the ``(max)`` row and each learner's row by column, of a CSV download."""
    exported = client.get(path)
    assert exported.status_code == 200, path
    header, maxima, *rows = list(csv.reader(io.StringIO(exported.text)))
    return header, maxima, {row[0]: dict(zip(header, row, strict=True)) for row in rows}


def test_the_csv_has_the_pages_numbers_and_the_rosters_columns(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    import_roster(client, ROSTER)
    submit_scores(runtime)
    page = client.get("/instructor/gradebook").text
    exported = client.get("/instructor/gradebook.csv")
    assert exported.status_code == 200
    table = list(csv.reader(io.StringIO(exported.text)))
    header, maxima, *rows = table
    by_name = {row[0]: dict(zip(header, row, strict=True)) for row in rows}

    assert header[:4] == ["learner", "name", "section", "email"]
    assert header[-2:] == ["total", "regrading"]
    cells, total = page_row(page, "ada")
    assert list(cells) == header[4:-2]  # the page's exercises, in the page's order
    ada_csv = by_name["ada"]
    assert (ada_csv["name"], ada_csv["section"], ada_csv["email"]) == (
        "Ada Lovelace",
        "A",
        "ada@example.org",
    )
    assert {e: ada_csv[e] for e in cells} == cells
    assert (cells["gru-update-gate"], cells["adam"], cells["dropout"]) == ("0.33", "1.33", "3")
    assert ada_csv["total"] == total == "4.67"  # summed before rounding, as on the page
    alan_cells, alan_total = page_row(page, "alan")
    assert by_name["alan"]["email"] == "" and by_name["alan"]["section"] == "B"
    assert {e: by_name["alan"][e] for e in alan_cells} == alan_cells
    assert by_name["alan"]["total"] == alan_total == "0"

    assert maxima[0] == "(max)" and all(maxima[4:-1])  # every exercise, submitted to or not
    prepared = runtime.catalog.prepared("gru-update-gate")
    expected = sum(case.spec.points for case in prepared.cases)
    assert float(maxima[header.index("gru-update-gate")]) == expected
    assert float(maxima[-2]) == round(sum(float(m) for m in maxima[4:-2]), 2)


def cells_of(html: str, name: str, attribute: str) -> tuple[dict[str, str], str]:
    """A learner's row on an assignment gradebook page: each cell's points (without the
    maximum and the late mark) by ``attribute``, and the total."""
    row = html[html.index(f'data-user="{name}"') :].split("</tr>")[0]
    cells = re.findall(rf'<td class="num" {attribute}="([^"]+)">(.*?)</td>', row)
    total = re.search(r"<strong>([^<]+) / [^<]+</strong>", row)
    assert total is not None
    return {key: TAG.sub("", text).split()[0] for key, text in cells}, total.group(1)


def test_the_assignment_csvs_have_the_pages_numbers_and_the_rosters_columns(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_in_instructor(client, runtime)
    import_roster(client, ROSTER)
    submit_scores(runtime)

    header, maxima, by_name = csv_of(client, "/instructor/assignments.csv")
    assert header[:4] == ["learner", "name", "section", "email"] and header[-1] == "total"
    ada = by_name["ada"]
    assert (ada["name"], ada["section"], ada["email"]) == ("Ada Lovelace", "A", "ada@example.org")
    assert (by_name["alan"]["name"], by_name["alan"]["email"]) == ("Alan Turing", "")
    cells, total = cells_of(client.get("/instructor/assignments").text, "ada", "data-assignment")
    assert list(cells) == header[4:-1]
    assert {a: ada[a] for a in cells} == cells and ada["total"] == total
    # 0.33 and 2.33 on the page, and a total of 2.67: summed before rounding, as the page sums.
    assert (cells["gru-by-hand"], cells["numpy-foundations"], total) == ("0.33", "2.33", "2.67")
    assert maxima[:4] == ["(max)", "", "", ""] and all(maxima[4:])
    assert float(maxima[-1]) == sum(float(m) for m in maxima[4:-1])

    header, maxima, by_name = csv_of(client, "/instructor/assignments/numpy-foundations.csv")
    assert header[:5] == ["learner", "name", "section", "email", "due"]
    ada = by_name["ada"]
    assert (ada["name"], ada["section"], ada["email"]) == ("Ada Lovelace", "A", "ada@example.org")
    page = client.get("/instructor/assignments/numpy-foundations").text
    cells, total = cells_of(page, "ada", "data-exercise")
    assert {e: ada[e] for e in cells} == cells and ada["total"] == total
    assert (cells["adam"], cells["dropout"], total) == ("1.33", "1", "2.33")
    points = [m for column, m in zip(header, maxima, strict=True) if column in cells]
    assert len(points) == len(cells) and all(points)  # every exercise's maximum
    assert header[-2:] == ["total", "regrading"]
    assert float(maxima[-2]) == sum(float(m) for m in points)
