"""Error pictures against a hostile output (docs/security.md, "Error pictures"): values at
the edge of float64, NaN and infinities, a picture that cannot be drawn, and pages that draw
nothing, through the app with real grading."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from app.models import Submission, SubmissionKind, SubmissionStatus, utcnow
from app.runtime.context import GradingRuntime
from app.services import error_pictures
from app.store import accounts as account_store
from app.store import pictures as picture_store
from graders import results
from tests.app.api.routes.test_feedback import EXERCISE, LAST_COLUMNS_OFF
from tests.app.live import wait_all_done
from tests.app.web.helpers import make_instructor, sign_up
from tests.app.web.test_feedback_pages import grid, send
from tests.graders.grading.test_grade_error_maps import DRIFTING
from tests.graders.helpers import picture_of

# The largest float64 values there are, of both signs: matplotlib's limits overflowed.
EXTREMES = """
import numpy as np

def pairwise_distances(X, Y):
    D = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=-1))
    D[0, 0], D[-1, -1] = 1.7e308, -1.7e308
    return D
"""


def section_of(page: str) -> str:
    match = re.search(r'<section class="error-pictures".*?</section>', page, re.S)
    assert match is not None, "no error pictures"
    return match[0]


def test_an_output_of_the_largest_values_is_drawn_for_the_learner_and_the_instructor(
    client: TestClient, runtime: GradingRuntime
) -> None:
    sign_up(client, "ada")
    result = send(client, EXTREMES)
    for path in (f"/history/{result['id']}", f"/history/{result['id']}/pictures"):
        response = client.get(path)
        assert response.status_code == 200, response.text[:300]
        section = section_of(response.text)
        assert "<svg" in section and "×1e308" in section  # drawn in units of 1e308
        assert grid(section, "Got")[1][1] == "1.7e+308"
        assert grid(section, "Got")[4][5] == "-1.7e+308"

    client.cookies.clear()
    make_instructor(runtime, client)
    page = client.get(f"/history/{result['id']}")
    assert page.status_code == 200
    assert "<svg" in section_of(page.text)


def stored_result(runtime: GradingRuntime, expected: Any, got: Any) -> str:
    """A graded run of ada's whose public test ``t`` has the error map of ``got``, its
    picture drawn and stored as a grading stores it."""
    data = picture_of(expected, got)
    assert data is not None
    test = results.TestResult(
        "t", results.Visibility.PUBLIC, results.Status.FAILED, 0.0, 1.0, "values: …", error_map=data
    )
    now = utcnow()
    with runtime.sessions() as session:
        ada = account_store.get_user_by_name(session=session, name="ada")
        assert ada is not None
        row = Submission(
            user_id=ada.id,
            exercise_id=EXERCISE,
            exercise_version="v",
            code="",
            kind=SubmissionKind.RUN,
            status=SubmissionStatus.DONE,
            verdict=results.Verdict.FAILED,
            score=0.0,
            max_score=1.0,
            tests=[test.to_dict()],
            created_at=now,
            finished_at=now,
            released_at=now,
        )
        session.add(row)
        session.flush()
        picture_store.replace_pictures(
            session=session, submission_id=row.id, svgs=error_pictures.render([test])
        )
        session.commit()
        return row.id


def with_values(**cells: float) -> tuple[Any, Any]:
    """Expected zeros and got ones in a 3 x 4 grid, but for ``cells`` (``e01``: expected at
    (0, 1); ``g21``: got at (2, 1))."""
    expected, got = np.zeros((3, 4)), np.ones((3, 4))
    for name, value in cells.items():
        (expected if name[0] == "e" else got)[int(name[1]), int(name[2])] = value
    return expected, got


@pytest.mark.parametrize(
    ("values", "names"),
    [
        (with_values(e00=np.nan), {"NaN"}),
        (with_values(e00=np.inf), {"+∞"}),
        (with_values(e00=-np.inf, e11=-1.7e308, g11=1.7e308), {"−∞", "+∞"}),  # overflowed
        (with_values(e00=np.nan, e01=np.inf, e02=-np.inf, g21=1.7e308), {"NaN", "+∞", "−∞"}),
    ],
    ids=["nan", "inf", "overflow", "mixed"],
)
def test_nan_and_infinities_are_named_in_the_picture_and_its_table(
    client: TestClient, runtime: GradingRuntime, values: tuple[Any, Any], names: set[str]
) -> None:
    sign_up(client, "ada")
    submission = stored_result(runtime, *values)

    page = client.get(f"/history/{submission}")

    assert page.status_code == 200
    section = section_of(page.text)
    svg = re.search(r"<svg.*?</svg>", section, re.S)
    assert svg is not None  # the finite values drawn, the others marked
    assert {name for name in ("NaN", "+∞", "−∞") if f">{name}<" in svg[0]} == names
    cells = {cell for row in grid(section, "Error")[1:] for cell in row[1:]}
    assert names <= cells | {"−∞"}  # an error is never negative
    expected_cells = {cell for row in grid(section, "Expected")[1:] for cell in row[1:]}
    assert names - {"+∞"} <= expected_cells | {"+∞"}


def test_a_picture_that_cannot_be_drawn_leaves_its_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> str:
        raise ValueError("Axis limits cannot be NaN or Inf")

    monkeypatch.setattr(error_pictures, "draw", broken)
    sign_up(client, "ada")
    result = send(client, LAST_COLUMNS_OFF)
    assert result["status"] == "done" and result["verdict"] == "failed"  # graded all the same

    page = client.get(f"/history/{result['id']}")

    assert page.status_code == 200
    section = section_of(page.text)
    assert "<svg" not in section
    assert "No picture of this test: its numbers are in the table." in section
    assert grid(section, "Error")[1][4:] == ["1", "1"]


@pytest.mark.slow
def test_pages_draw_nothing_and_gradings_draw_each_picture_once(
    client: TestClient, runtime: GradingRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight results whose pictures are drawn at once: only the grading threads draw, one
    picture at a time, once a picture; page views, eight at once, draw nothing."""
    drawing = threading.Lock()
    now_drawing, most_at_once, drawn_by = [0], [0], []
    draw = error_pictures.draw

    def counted(*args: Any) -> str:
        with drawing:
            now_drawing[0] += 1
            most_at_once[0] = max(most_at_once[0], now_drawing[0])
            drawn_by.append(threading.current_thread().name)
        try:
            return draw(*args)
        finally:
            with drawing:
                now_drawing[0] -= 1

    monkeypatch.setattr(error_pictures, "draw", counted)
    sign_up(client, "ada")
    codes = [LAST_COLUMNS_OFF.replace(">= Y.shape[0] - 2", f">= Y.shape[0] - {n}") for n in (1, 2)]
    sent: Callable[[int], Any] = lambda n: send(client, codes[n % 2] + f"\n# {n}\n")  # noqa: E731
    with ThreadPoolExecutor(8) as pool:
        ids = [r["id"] for r in pool.map(sent, range(8))]
    results = list(wait_all_done(client, ids).values())  # a loaded host may pass the wait
    assert len(results) == 8 and all(r["verdict"] == "failed" for r in results)
    assert len(drawn_by) == 8  # one picture a result, drawn as it was graded
    assert runtime.settings.grading_threads > 1 and most_at_once[0] == 1
    assert not any(name.startswith(("AnyIO", "asyncio")) for name in drawn_by)

    with ThreadPoolExecutor(8) as pool:
        pages = list(pool.map(lambda r: client.get(f"/history/{r['id']}"), results))
    assert all(p.status_code == 200 and "<svg" in section_of(p.text) for p in pages)
    assert len(drawn_by) == 8  # the pages drew nothing


def test_a_pictures_caption_names_the_messages_worst_element_once(client: TestClient) -> None:
    """Issue 39: the caption said "batch item (batch item (axis 0))", and the picture marked
    another worst element and error than the message's."""
    sign_up(client, "ada")
    result = send(client, DRIFTING, exercise="gru-sequence")
    message = next(t["message"] for t in result["tests"] if t["name"] == "small batch")
    index = re.search(r"worst at index (\[[\d, ]+\])", message)
    error = re.search(r"abs error ([^,]+),", message)
    tolerance = re.search(r"tolerance \((rtol=[^)]+)\)", message)
    assert index and error and tolerance, message

    page = client.get(f"/history/{result['id']}?lang=en").text
    picture = re.search(r'data-test="small batch" data-kind="batch">(.*?)</figcaption>', page, re.S)
    assert picture is not None
    caption = " ".join(re.sub(r"<[^>]+>", " ", picture[1].split("<figcaption>")[1]).split())
    assert caption == (
        f"Test small batch: the largest error of each batch item (axis 0); the worst element "
        f"is at {index[1]}. Its error, {error[1]}, is the furthest outside the tolerance "
        f"({tolerance[1]})."
    )
