"""An assignment's submissions as one zip archive: each learner's code and feedback per exercise.

Layout (``<top>`` is ``<assignment>-<pick>``, e.g. ``gates-best``)::

    <top>/index.csv                              a row per learner and exercise
    <top>/<learner>/<exercise>/submission.py     the code submitted
    <top>/<learner>/<exercise>/feedback.md       the whole result, to read
    <top>/<learner>/<exercise>/result.json       the API's result, late mark and points

One submission per learner and exercise: the latest graded one, or the one the schedule counts
(``standings``: the best share after the late policy). The feedback is the
instructor's view: hidden tests in full, each failed one's full message too (what it would
have said as a public test, ``submissions.hidden_messages``; none for rows graded before
those were kept). Entry names come from user names and exercise ids,
so each part is reduced to safe characters (``safe_part``): no ``..``, no ``/``, no absolute
path can leave the archive's folder when it is unpacked. Valid user names
(``app.core.names``) and exercise ids pass unchanged, so parts stay unique.

The archive is written to a temporary file (never held in memory whole) with ``zipfile`` and
the rows with ``csv`` (through ``gradebook.write_csv``, which neutralises formulas).
"""

from __future__ import annotations

import enum
import json
import re
import tempfile
import zipfile
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import IO, Any

from sqlalchemy.orm import Session

from app.models import Role, Submission, User, utcnow
from app.services import views
from app.services.assignments import get_assignment
from app.services.gradebook import Cell, Points, write_csv
from app.services.standings.load import assignment_gradebook
from app.services.standings.rules import format_points
from app.store import accounts as account_store
from app.store import submissions as submission_store
from graders.api import Assignment, ExerciseCatalog

INDEX_COLUMNS = (
    "learner",
    "display_name",
    "section",
    "exercise",
    "submission",
    "submitted_at",
    "late",
    "verdict",
    "score",
    "max_score",
    "points",
    "weight",
    "folder",
)
UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


class ArchivePick(enum.Enum):
    """Which submission of each learner and exercise goes into the archive."""

    LAST = "last"  # the latest graded one
    BEST = "best"  # the one the schedule counts: the best share after the late policy


def safe_part(text: str) -> str:
    """One path part of an entry name: ASCII letters, digits, ``_ . -``, not starting with a
    dot (so never ``.`` or ``..``); anything else becomes ``_``."""
    return UNSAFE.sub("_", text).lstrip(".") or "_"


@dataclass(frozen=True)
class ArchivedWork:
    """One learner's chosen submission to one exercise (None: nothing graded)."""

    learner: User
    exercise_id: str
    weight: float
    due: datetime
    submission: Submission | None
    points: float  # what the schedule counts of the exercise (standings: late policy, rounded)

    @property
    def late(self) -> bool:
        return self.submission is not None and self.submission.created_at > self.due


def _chosen(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    assignment: Assignment,
    pick: ArchivePick,
    section: str | None,
) -> list[ArchivedWork]:
    """Each learner's chosen submission to each exercise, with the points the standings count
    (whichever submission is archived, ``points`` is what the schedule counts)."""
    rows = assignment_gradebook(
        session=session, catalog=catalog, assignment=assignment, now=utcnow(), section=section
    )
    latest: dict[tuple[int, str], str] = {}
    if pick is ArchivePick.LAST:
        for attempt in submission_store.graded_attempts(
            session=session, exercise_ids=assignment.exercise_ids, role=Role.LEARNER
        ):  # oldest first: the last one stays
            latest[attempt.user_id, attempt.exercise_id] = attempt.submission_id
    chosen = [
        (
            row,
            e,
            latest.get((row.user_id, e.exercise_id))
            if pick is ArchivePick.LAST
            else (e.counted.submission_id if e.counted is not None else None),
        )
        for row in rows
        for e in row.standing.exercises
    ]
    loaded = submission_store.get_submissions(
        session=session, submission_ids=[i for *_, i in chosen if i is not None]
    )
    users = {u.id: u for u in account_store.list_users(session=session, section=section)}
    return [
        ArchivedWork(
            users[row.user_id],
            e.exercise_id,
            e.weight,
            row.standing.due,
            None if submission_id is None else loaded[submission_id],
            e.points,
        )
        for row, e, submission_id in chosen
    ]


def feedback_markdown(
    work: ArchivedWork, sub: Submission, assignment: Assignment, zone: tzinfo
) -> str:
    """``sub``'s (the work's submission) whole result as text an instructor reads: hidden
    tests in full, with their full messages."""
    lines = [
        f"# {work.exercise_id}: {work.learner.name}",
        "",
        "- Learner: "
        + ", ".join(
            part
            for part in (work.learner.name, work.learner.display_name, work.learner.section)
            if part
        ),
        f"- Assignment: {assignment.title} ({assignment.id})",
        f"- Submission: {sub.id}, exercise version {sub.exercise_version}",
        f"- Submitted: {sub.created_at.astimezone(zone):%Y-%m-%d %H:%M:%S %Z}"
        + (f" (late: due {work.due.astimezone(zone):%Y-%m-%d %H:%M %Z})" if work.late else ""),
        f"- Verdict: {sub.verdict.value if sub.verdict else sub.status.value}",
        f"- Score: {sub.score:g} / {sub.max_score:g}"
        if sub.score is not None and sub.max_score is not None
        else "- Score: none",
        f"- Points the schedule counts: {format_points(work.points)}"
        f" of {format_points(work.weight)}",
    ]
    if sub.message:
        lines += ["", "## Message", "", *_indented(sub.message)]
    if sub.diagnosis:
        cases = ", ".join(sub.diagnosis.get("cases", []))
        lines += ["", f"## Hint (explains: {cases})", "", sub.diagnosis.get("hint", "")]
    if sub.tests:
        lines += ["", "## Tests", ""]
        for test in sub.tests:
            failure = f", {test['failure']}" if test.get("failure") else ""
            lines.append(
                f"- {test['name']} ({test['visibility']}): {test['status']}, "
                f"{test['points']:g} / {test['max_points']:g}{failure}"
            )
            if test.get("message"):
                lines += ["", *("  " + line for line in _indented(test["message"])), ""]
            full = (sub.hidden_messages or {}).get(test["name"])
            if full:
                lines += ["  In full:", "", *("  " + line for line in _indented(full)), ""]
    if sub.output:
        lines += ["", "## Output (public cases)", "", *_indented(sub.output)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _indented(text: str) -> list[str]:
    """A markdown code block that no text can close: indented, not fenced."""
    return ["    " + line for line in text.splitlines()]


def _result_json(work: ArchivedWork, sub: Submission) -> str:
    result: dict[str, Any] = views.submission_out(sub, work.learner.name, exact=True).model_dump(
        mode="json"
    )
    result |= {
        "late": work.late,
        "points": work.points,
        "weight": work.weight,
        "cpu_ms": sub.cpu_ms,
        "memory_kb": sub.memory_kb,
        "hidden_messages": sub.hidden_messages,
    }
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"


def _index_row(work: ArchivedWork, folder: str, zone: tzinfo) -> tuple[Cell, ...]:
    sub = work.submission
    learner = work.learner
    if sub is None:
        nothing: tuple[Cell, ...] = (None,) * 6  # submission … max_score
        return (
            learner.name,
            learner.display_name,
            learner.section,
            work.exercise_id,
            *nothing,
            Points(0),
            Points(work.weight),
            None,
        )
    return (
        learner.name,
        learner.display_name,
        learner.section,
        work.exercise_id,
        sub.id,
        sub.created_at.astimezone(zone).isoformat(),
        "late" if work.late else None,
        sub.verdict.value if sub.verdict else sub.status.value,
        sub.score,
        sub.max_score,
        Points(work.points),
        Points(work.weight),
        folder,
    )


def archive_name(assignment_id: str, pick: ArchivePick) -> str:
    """The archive's file name and its top folder: ``<assignment>-<pick>``."""
    return f"{safe_part(assignment_id)}-{pick.value}"


def assignment_archive(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    assignment_id: str,
    pick: ArchivePick,
    section: str | None = None,
) -> IO[bytes]:
    """The archive in a temporary file, read from its start (the caller closes it, which
    deletes it). Raises ``AssignmentNotFound``."""
    schedule = catalog.schedule()
    assignment = get_assignment(schedule, assignment_id)
    works = _chosen(
        session=session, catalog=catalog, assignment=assignment, pick=pick, section=section
    )
    top = archive_name(assignment.id, pick)
    with ExitStack() as cleanup:  # closed (so deleted) only if writing fails
        target = cleanup.enter_context(tempfile.TemporaryFile())
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            _write(archive, top, works, assignment, schedule.zone)
        cleanup.pop_all()
    target.seek(0)
    return target


def _write(
    archive: zipfile.ZipFile,
    top: str,
    works: Sequence[ArchivedWork],
    assignment: Assignment,
    zone: tzinfo,
) -> None:
    index: list[tuple[Cell, ...]] = [INDEX_COLUMNS]
    for work in works:
        folder = f"{safe_part(work.learner.name)}/{safe_part(work.exercise_id)}"
        index.append(_index_row(work, folder, zone))
        sub = work.submission
        if sub is None:
            continue
        archive.writestr(f"{top}/{folder}/submission.py", sub.code)
        archive.writestr(
            f"{top}/{folder}/feedback.md", feedback_markdown(work, sub, assignment, zone)
        )
        archive.writestr(f"{top}/{folder}/result.json", _result_json(work, sub))
    archive.writestr(f"{top}/index.csv", write_csv(index))
