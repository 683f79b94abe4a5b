"""An assignment's submissions as a zip: the chosen submission per learner and exercise, its
code and whole feedback, an index, and entry names that stay inside the archive's folder."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.services.archive import ArchivePick, assignment_archive, safe_part
from app.services.assignments import AssignmentNotFound
from tests.app.services.graded_rows import (
    DUE,
    FULL_MESSAGE,
    GATE,
    HIDDEN_MESSAGE,
    RESET,
    course_catalog,
    graded,
    learner,
)


def unpack(db: Session, tmp_path: Path, pick: ArchivePick, **options: str) -> zipfile.ZipFile:
    file = assignment_archive(
        session=db,
        catalog=course_catalog(tmp_path),
        assignment_id="gates",
        pick=pick,
        **options,
    )
    with file:
        return zipfile.ZipFile(io.BytesIO(file.read()))


@pytest.fixture
def work(db: Session) -> dict[str, str]:
    """lea: an on-time 5/10 (counted) and a late 10/10 (last) to the gate; max: 10/10 on time
    to both, in section B; cy: nothing."""
    lea, max_ = learner(db, "lea", "A"), learner(db, "max", "B")
    learner(db, "cy", "A")
    ids = {
        "lea-on-time": graded(db, lea, GATE, 5, DUE - timedelta(hours=1), "on_time = 1\n").id,
        "lea-late": graded(db, lea, GATE, 10, DUE + timedelta(hours=2), "late = 1\n").id,
        "max-gate": graded(db, max_, GATE, 10, DUE - timedelta(days=1)).id,
        "max-reset": graded(db, max_, RESET, 10, DUE - timedelta(days=1)).id,
    }
    return ids


def test_best_holds_the_counted_submission_with_code_and_full_feedback(
    db: Session, tmp_path: Path, work: dict[str, str]
) -> None:
    archive = unpack(db, tmp_path, ArchivePick.BEST)
    assert sorted(archive.namelist()) == sorted(
        [
            "gates-best/index.csv",
            *(
                f"gates-best/{who}/{exercise}/{name}"
                for who, exercise in (("lea", GATE), ("max", GATE), ("max", RESET))
                for name in ("feedback.md", "result.json", "submission.py")
            ),
        ]
    )
    assert archive.read(f"gates-best/lea/{GATE}/submission.py") == b"on_time = 1\n"
    feedback = archive.read(f"gates-best/lea/{GATE}/feedback.md").decode()
    # The hidden test in full: name, points, failure category and message.
    assert "- batched inputs (hidden): failed, 1 / 6, values" in feedback
    assert f"      {HIDDEN_MESSAGE}" in feedback
    # And what it would have said as a public test, which the learner's report did not.
    assert f"  In full:\n\n      {FULL_MESSAGE}\n" in feedback
    assert "- Submitted: 2026-12-01 08:00:00 JST\n" in feedback  # the schedule's zone, on time
    assert "- Points the schedule counts: 1 of 2" in feedback
    result = json.loads(archive.read(f"gates-best/lea/{GATE}/result.json"))
    assert (result["id"], result["user"], result["late"], result["points"]) == (
        work["lea-on-time"],
        "lea",
        False,
        1.0,
    )
    hidden = result["tests"][1]
    assert (hidden["visibility"], hidden["failure"], hidden["message"]) == (
        "hidden",
        "values",
        HIDDEN_MESSAGE,
    )
    assert FULL_MESSAGE not in json.dumps(result["tests"])
    assert result["hidden_messages"] == {"batched inputs": FULL_MESSAGE}

    index = list(csv.DictReader(io.StringIO(archive.read("gates-best/index.csv").decode())))
    assert [(r["learner"], r["exercise"], r["submission"]) for r in index] == [
        ("cy", GATE, ""),
        ("cy", RESET, ""),
        ("lea", GATE, work["lea-on-time"]),
        ("lea", RESET, ""),
        ("max", GATE, work["max-gate"]),
        ("max", RESET, work["max-reset"]),
    ]
    lea_gate = index[2]
    assert lea_gate | {"submission": ""} == {
        "learner": "lea",
        "display_name": "",
        "section": "A",
        "exercise": GATE,
        "submission": "",
        "submitted_at": "2026-12-01T08:00:00+09:00",
        "late": "",
        "verdict": "failed",
        "score": "5",
        "max_score": "10",
        "points": "1",
        "weight": "2",
        "folder": f"lea/{GATE}",
    }
    assert index[0]["points"] == "0" and index[0]["folder"] == ""


def test_last_holds_the_latest_submission_marked_late(
    db: Session, tmp_path: Path, work: dict[str, str]
) -> None:
    archive = unpack(db, tmp_path, ArchivePick.LAST)
    assert archive.read(f"gates-last/lea/{GATE}/submission.py") == b"late = 1\n"
    feedback = archive.read(f"gates-last/lea/{GATE}/feedback.md").decode()
    assert "- Submitted: 2026-12-01 11:00:00 JST (late: due 2026-12-01 09:00 JST)" in feedback
    assert "- batched inputs (hidden): passed, 6 / 6" in feedback
    assert "In full" not in feedback
    result = json.loads(archive.read(f"gates-last/lea/{GATE}/result.json"))
    assert (result["id"], result["late"], result["points"]) == (work["lea-late"], True, 1.0)
    index = list(csv.DictReader(io.StringIO(archive.read("gates-last/index.csv").decode())))
    assert next(r for r in index if r["learner"] == "lea" and r["exercise"] == GATE)["late"] == (
        "late"
    )


def test_a_section_keeps_its_own_learners(
    db: Session, tmp_path: Path, work: dict[str, str]
) -> None:
    archive = unpack(db, tmp_path, ArchivePick.BEST, section="B")
    index = list(csv.DictReader(io.StringIO(archive.read("gates-best/index.csv").decode())))
    assert {r["learner"] for r in index} == {"max"}
    assert not [name for name in archive.namelist() if "/lea/" in name]


def test_an_unknown_assignment_is_refused(db: Session, tmp_path: Path) -> None:
    with pytest.raises(AssignmentNotFound, match="'nope'"):
        assignment_archive(
            session=db,
            catalog=course_catalog(tmp_path),
            assignment_id="nope",
            pick=ArchivePick.BEST,
        )


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("ada", "ada"),
        ("a.b-c_d", "a.b-c_d"),
        ("..", "_"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("/abs", "_abs"),
        ("C:\\x", "C__x"),
        (".hidden", "hidden"),
        ("名前", "__"),
    ],
)
def test_entry_name_parts_cannot_leave_the_folder(text: str, part: str) -> None:
    assert safe_part(text) == part
    assert "/" not in part and part not in {"", ".", ".."}
