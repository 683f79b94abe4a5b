"""Every surface tells the same numbers (issue 39): generated course histories (submissions over
time, extensions granted and revoked, a penalty and a cut-off, a budget, exercise edits with
regrades queued, finished or not started) and, for every learner, the points each surface
reports: the learner's course page, exercise banners and API; the instructor's assignment pages,
overall page, exercise gradebook and their CSVs; the archive's index; the class view (its count,
its chart's data, its page); the LMS passback's score. On SQLite and PostgreSQL, through the
real app (rows written as grading stores them: no grader runs)."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from app.main import create_app
from app.models import (
    EarlierReport,
    LtiGradeLink,
    Role,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    User,
    WorkScope,
)
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import auth as auth_service
from app.services import extensions
from app.services.lti import scores
from app.services.standings.load import max_points
from app.services.standings.rules import format_points
from app.store import accounts as account_store
from app.web import auth as web_auth
from graders.api import ExerciseCatalog, Verdict
from tests.app.conftest import EXERCISES as EXERCISES_DIR
from tests.app.conftest import make_runtime, make_settings, wipe

GATE, RESET, STEP = "gru-update-gate", "gru-reset-gate", "gru-step"
NOW = datetime.now(UTC).replace(second=0, microsecond=0)
GATES_DUE = NOW - timedelta(days=2)
STEPS_DUE = NOW - timedelta(days=1)
COURSE = f'''
timezone = "UTC"

[[assignment]]
id = "gates"
title = "Gates"
opens = {(NOW - timedelta(days=30)).isoformat()}
due = {GATES_DUE.isoformat()}
late = {{ policy = "penalty", per_day = 0.25, floor = 0.25 }}
submissions = 4
exercises = [{{ id = "{GATE}", weight = 2 }}, "{RESET}"]

[[assignment]]
id = "steps"
title = "Steps"
opens = {(NOW - timedelta(days=30)).isoformat()}
due = {STEPS_DUE.isoformat()}
late = {{ policy = "cutoff" }}
exercises = [{{ id = "{STEP}", weight = 3 }}]
'''
DUES = {"gates": GATES_DUE, "steps": STEPS_DUE}
EXERCISES = {"gates": (GATE, RESET), "steps": (STEP,)}
LEARNERS = ("ada", "bob", "cy")
SHARES = (0.0, 0.5, 1 / 3, 1.0)
EDITED_MAX_LESS = 3.0  # an edit's earlier version had this many points fewer


# How an exercise edit met one submission: not at all, or graded by the earlier version and
# then left so (``stale``), queued again (``queued``) or regraded (``regraded``).
STATES = ("current", "stale", "queued", "regraded")


@dataclass(frozen=True)
class Work:
    learner: int
    exercise: str
    hours: int  # from the assignment's due time
    share: float
    state: str


@dataclass(frozen=True)
class Grant:
    learner: int
    assignment: str
    hours: int  # after the assignment's due time; 0: revoke


histories = st.tuples(
    st.lists(
        st.builds(
            Work,
            st.integers(0, len(LEARNERS) - 1),
            st.sampled_from((GATE, RESET, STEP)),
            st.integers(-60, 40),
            st.sampled_from(SHARES),
            st.sampled_from(STATES),
        ),
        max_size=10,
    ),
    st.lists(
        st.builds(
            Grant,
            st.integers(0, len(LEARNERS) - 1),
            st.sampled_from(("gates", "steps")),
            st.sampled_from((0, 6, 30)),
        ),
        max_size=4,
    ),
)


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    # Only the course's exercises: the exercise gradebook's CSV prepares every exercise.
    root = tmp_path / "exercises"
    root.mkdir()
    for folder in (GATE, RESET, STEP, "_course"):
        (root / folder).symlink_to(EXERCISES_DIR / folder)
    (root / "course.toml").write_text(COURSE, encoding="utf-8")
    runtime = make_runtime(make_settings(database_url, tmp_path, exercises_dir=root), shared_grader)
    with TestClient(create_app(runtime=runtime)) as client:
        yield client, runtime
    wipe(database_url)


def _hour(assignment: str, hours: int) -> datetime:
    return min(DUES[assignment] + timedelta(hours=hours), NOW - timedelta(minutes=1))


def _assignment_of(exercise: str) -> str:
    return next(a for a, ids in EXERCISES.items() if exercise in ids)


def _write_history(
    session: Session, catalog: ExerciseCatalog, works: list[Work], grants: list[Grant]
) -> tuple[list[User], User]:
    learners = [account_store.create_user(session=session, name=n) for n in LEARNERS]
    teacher = account_store.create_user(session=session, name="teacher", role=Role.INSTRUCTOR)
    schedule = catalog.schedule()
    for grant in grants:
        assignment = schedule.assignment(grant.assignment)
        assert assignment is not None
        if grant.hours:
            extensions.extend(
                session=session,
                learner=learners[grant.learner],
                assignment=assignment,
                due=assignment.due + timedelta(hours=grant.hours),
                granted_by="teacher",
            )
        else:
            extensions.remove_extension(
                session=session, learner=learners[grant.learner], assignment=assignment
            )
    for n, work in enumerate(works):
        exercise = catalog.load(work.exercise)
        current_max = max_points(catalog, exercise)
        assert current_max is not None
        old_max = current_max - EDITED_MAX_LESS
        graded_max = current_max if work.state in ("current", "regraded") else old_max
        row = Submission(
            id=f"s{n:03d}",
            user_id=learners[work.learner].id,
            exercise_id=work.exercise,
            exercise_version="earlier" if work.state in ("stale", "queued") else exercise.version,
            code="pass",
            kind=SubmissionKind.SUBMIT,
            status=SubmissionStatus.QUEUED if work.state == "queued" else SubmissionStatus.DONE,
            regrade=work.state == "queued",
            verdict=Verdict.PASSED if work.share == 1.0 else Verdict.FAILED,
            score=work.share * graded_max,
            max_score=graded_max,
            created_at=_hour(_assignment_of(work.exercise), work.hours),
        )
        session.add(row)
        if work.state in ("queued", "regraded"):
            session.flush()
            # What the regrade replaced (queued: the result it still holds): the earlier
            # version's, out of its maximum; a regraded one scored otherwise then.
            before = work.share if work.state == "queued" else 1.0 - work.share
            session.add(
                EarlierReport(
                    submission_id=row.id,
                    exercise_version="earlier",
                    score=before * old_max,
                    max_score=old_max,
                    message="",
                )
            )
    session.commit()
    return learners, teacher


def _cookie(runtime: GradingRuntime, session: Session, user: User) -> str:
    secret = auth_service.start_session(session=session, user=user)
    session.commit()
    return web_auth._serializer(runtime.settings).dumps({"s": secret, "c": "csrf"})


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _cells(row_html: str, attribute: str) -> dict[str, str]:
    """The points of each ``<td class="num" attribute="key">`` of a gradebook row."""
    found = re.findall(rf'<td class="num" {attribute}="([^"]+)">(.*?)</td>', row_html)
    return {key: re.sub(r"<[^>]+>", " ", text).split()[0] for key, text in found}


def _row(html: str, attribute: str, key: str) -> str:
    return html[html.index(f'{attribute}="{key}"') :].split("</tr>")[0]


def _total(row_html: str) -> str:
    total = re.search(r"<strong>([^<]+) / [^<]+</strong>", row_html)
    assert total is not None
    return total.group(1)


def _number(text: str) -> float:
    return float(text)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=histories)
def test_every_surface_reports_the_same_numbers(
    service: tuple[TestClient, GradingRuntime],
    database_url: str,
    history: tuple[list[Work], list[Grant]],
) -> None:
    client, runtime = service
    works, grants = history
    wipe(database_url)
    catalog = runtime.catalog
    with runtime.sessions() as session:
        learners, teacher = _write_history(session, catalog, works, grants)
        tokens = {}
        for user in (*learners, teacher):
            tokens[user.name] = account_store.create_token(session=session, user=user)[1]
        session.commit()
        cookies = {user.name: _cookie(runtime, session, user) for user in (*learners, teacher)}

    def fetch(path: str, who: str, api: bool = False) -> bytes:
        client.cookies.clear()
        if api:
            response = client.get(path, headers={"Authorization": f"Bearer {tokens[who]}"})
        else:
            client.cookies.set(web_auth.SESSION_COOKIE, cookies[who])
            response = client.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        return bytes(response.content)

    def get(path: str, who: str, api: bool = False) -> str:
        return fetch(path, who, api).decode()

    # The reference: each learner's standings through the API.
    api = {
        name: {a["id"]: a for a in json.loads(get("/assignments", name, api=True))}
        for name in LEARNERS
    }
    edited = {
        (w.learner, w.exercise) for w in works if w.state in ("stale", "queued")
    }  # work an earlier version graded: shown as regrading everywhere

    overall = get("/instructor/assignments", "teacher")
    overall_csv = {r["learner"]: r for r in _csv(get("/instructor/assignments.csv", "teacher"))}
    for assignment_id, exercise_ids in EXERCISES.items():
        page = get(f"/instructor/assignments/{assignment_id}", "teacher")
        page_csv = {
            r["learner"]: r
            for r in _csv(get(f"/instructor/assignments/{assignment_id}.csv", "teacher"))
        }
        archives = {}
        for pick in ("best", "last"):
            raw = fetch(
                f"/instructor/assignments/{assignment_id}/submissions.zip?pick={pick}", "teacher"
            )
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                index = archive.read(f"{assignment_id}-{pick}/index.csv").decode()
            archives[pick] = {(r["learner"], r["exercise"]): r for r in _csv(index)}
        view = json.loads(get(f"/analytics/assignments/{assignment_id}", "teacher", api=True))
        complete = 0
        for n, name in enumerate(LEARNERS):
            mine = api[name][assignment_id]
            score = mine["score"]
            complete += mine["complete"]
            points = {e["id"]: e["points"] for e in mine["exercises"]}
            # The instructor's assignment page and its CSV.
            row = _row(page, "data-user", name)
            assert {k: _number(v) for k, v in _cells(row, "data-exercise").items()} == points
            assert _number(_total(row)) == score
            assert {i: _number(page_csv[name][i]) for i in exercise_ids} == points
            assert _number(page_csv[name]["total"]) == score
            for exercise_id in exercise_ids:
                regrading = (n, exercise_id) in edited
                cell = row.split(f'data-exercise="{exercise_id}"')[1].split("</td>")[0]
                assert ("data-regrade=" in cell) == regrading
                assert (exercise_id in page_csv[name]["regrading"]) == regrading
                exercise = next(e for e in mine["exercises"] if e["id"] == exercise_id)
                assert (exercise["regrade"] is not None) == regrading
                if regrading:  # both maxima named: the one that graded, the current one
                    current = max_points(catalog, catalog.load(exercise_id))
                    assert exercise["regrade"]["current_max"] == current
                    assert current is not None and exercise["regrade"]["graded_max"] in (
                        current,
                        current - EDITED_MAX_LESS,
                    )
                # The archive's index: what the schedule counts, whichever submission it holds.
                for pick in ("best", "last"):
                    assert (
                        _number(archives[pick][name, exercise_id]["points"]) == points[exercise_id]
                    )
            # The overall page and its CSV.
            overall_row = _row(overall, "data-user", name)
            assert _number(_cells(overall_row, "data-assignment")[assignment_id]) == score
            assert _number(overall_csv[name][assignment_id]) == score
            # The LMS passback, for the assignment and for each exercise.
            with runtime.sessions() as session:
                reader = session.get(User, learners[n].id)
                assert reader is not None
                sent = scores.counted(
                    session=session,
                    catalog=catalog,
                    link=LtiGradeLink(
                        user=reader, scope=WorkScope.ASSIGNMENT, target=assignment_id
                    ),
                )
                assert sent is not None
                assert (sent.given, sent.maximum, sent.complete) == (
                    score,
                    mine["max_score"],
                    mine["complete"],
                )
                for exercise_id in exercise_ids:
                    one = scores.counted(
                        session=session,
                        catalog=catalog,
                        link=LtiGradeLink(
                            user=reader, scope=WorkScope.EXERCISE, target=exercise_id
                        ),
                    )
                    assert one is not None and one.given == points[exercise_id]
                session.rollback()
            # The learner's banner on each exercise page (as drawn after a submission).
            for exercise_id in exercise_ids:
                banner = get(f"/learn/{exercise_id}/standing?lang=en", name)
                shown = re.search(r'data-points="([^"]+)"', banner)
                assert shown is not None and _number(shown.group(1)) == points[exercise_id]
                assert f"points: {format_points(points[exercise_id])}." in banner
                assert ("data-regrade=" in banner) == ((n, exercise_id) in edited)
        # The class view: its count, its chart's data and its page say one thing.
        assert view["complete"] == complete
        assert view["completion_by_day"][-1]["count"] == complete
        assert f'data-complete="{complete}"' in page
        assert ('data-chart="completion"' in page) == (complete > 0)
        assert ('data-empty-chart="completion"' in page) == (complete == 0)

    # The learner's own course page.
    for name in LEARNERS:
        course_page = get("/course", name)
        for assignment_id in EXERCISES:
            section = course_page[course_page.index(f'data-assignment="{assignment_id}"') :]
            section = section.split("</section>")[0]
            assert _number(_total(section)) == api[name][assignment_id]["score"]
            for exercise in api[name][assignment_id]["exercises"]:
                row = _row(section, "data-exercise", exercise["id"])
                last = re.findall(r'<td class="num">([^<]*)</td>', row)[-1]
                assert _number(last) == exercise["points"]

    # The exercise gradebook (each exercise's own points), its CSV and the API's long CSV.
    gradebook = get("/instructor/gradebook", "teacher")
    wide = {r["learner"]: r for r in _csv(get("/instructor/gradebook.csv", "teacher"))}
    long = {(r["user"], r["exercise"]): r for r in _csv(get("/gradebook.csv", "teacher", api=True))}
    for name in LEARNERS:
        row = _row(gradebook, "data-user", name)
        cells = _cells(row, "data-exercise")
        for exercise_id in (GATE, RESET, STEP):
            cell = cells.get(exercise_id, "–")
            if (name, exercise_id) not in long:
                assert cell == "–" and wide[name][exercise_id] == ""
                continue
            counted = long[name, exercise_id]["best_score"]
            assert _number(cell) == _number(counted) == _number(wide[name][exercise_id])
