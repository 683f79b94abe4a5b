"""For course tests: a private exercises folder (the bundled exercises, a course, drafts), a
service on it, and what their tests share (accounts, due times written as course.toml wants
them, a submission that fails at once)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.models import Role
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from tests.app.conftest import EXERCISES, make_runtime, make_settings, wipe


def build_catalog(
    root: Path,
    course: str | None,
    drafts: tuple[str, ...] = (),
    copies: tuple[str, ...] = (),
    elsewhere: Mapping[str, str] | None = None,
) -> Path:
    """Links to the bundled exercises and course folders (copies of the exercises in
    ``copies``, to edit) plus ``course.toml``; each draft id is a copy of gru-update-gate
    marked ``draft = true``, and each id of ``elsewhere`` a copy of it in the course named."""
    root.mkdir()
    for folder in EXERCISES.iterdir():
        if folder.name in copies:
            shutil.copytree(folder, root / folder.name)
        elif (folder / "exercise.toml").is_file() or folder.name.startswith("_course"):
            (root / folder.name).symlink_to(folder)
    if course is not None:
        (root / "course.toml").write_text(course, encoding="utf-8")
    for draft in drafts:
        gate_copy(root, draft, "draft = true")
    for exercise_id, course_id in (elsewhere or {}).items():
        gate_copy(root, exercise_id, f"course = {course_id!r}")
    return root


def gate_copy(root: Path, exercise_id: str, field: str) -> None:
    shutil.copytree(EXERCISES / "gru-update-gate", root / exercise_id)
    toml = root / exercise_id / "exercise.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace(
            'id = "gru-update-gate"', f'id = "{exercise_id}"\n{field}'
        ),
        encoding="utf-8",
    )


@contextmanager
def course_service(
    database_url: str,
    tmp_path: Path,
    grader: SandboxGrader,
    course: str | None,
    drafts: tuple[str, ...] = (),
    copies: tuple[str, ...] = (),
    elsewhere: Mapping[str, str] | None = None,
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    catalog = build_catalog(tmp_path / "exercises", course, drafts, copies, elsewhere)
    runtime = make_runtime(make_settings(database_url, tmp_path, exercises_dir=catalog), grader)
    try:
        with TestClient(create_app(runtime=runtime)) as client:
            yield client, runtime
    finally:
        wipe(database_url)


# Fails at once in the sandbox: budgets and paces count submissions, not their results.
BROKEN = "def gate(:\n"


def stamp(moment: datetime) -> str:
    """A UTC moment as course.toml's dates are written."""
    return moment.isoformat().replace("+00:00", "Z")


def user(runtime: GradingRuntime, name: str, role: Role = Role.LEARNER) -> dict[str, str]:
    """A new account's API headers."""
    with runtime.sessions() as session:
        created = account_store.create_user(
            session=session, name=name, role=role, password="correct horse"
        )
        _, token = account_store.create_token(session=session, user=created)
        session.commit()
    return {"Authorization": f"Bearer {token}"}


def send(
    client: TestClient,
    headers: dict[str, str],
    path: str = "/submit",
    exercise: str = "gru-update-gate",
) -> int:
    """The status of sending :data:`BROKEN` for ``exercise``."""
    response = client.post(
        path, params={"wait": 30}, headers=headers, json={"exercise": exercise, "code": BROKEN}
    )
    status: int = response.status_code
    return status


def budget_course_toml(
    *, title: str, submissions: int, course_submissions: int | None = None
) -> str:
    """A course.toml with one assignment on gru-update-gate, open now, with a budget of graded
    submissions per exercise (and optionally the course-wide one)."""
    now = datetime.now(UTC).replace(microsecond=0)
    course_wide = "" if course_submissions is None else f"submissions = {course_submissions}\n"
    return f"""
{course_wide}
[[assignment]]
id = "budgeted"
title = "{title}"
opens = {stamp(now - timedelta(days=1))}
due = {stamp(now + timedelta(days=1))}
exercises = ["gru-update-gate"]
submissions = {submissions}
"""
