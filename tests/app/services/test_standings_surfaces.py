"""Issue 39's contradictions between surfaces, each on the database: the class view counts what
the gradebook counts, its chart's days do not move with an unrelated extension, late work that
scores nothing under a cut-off is not a completion, and the archive rounds as the CSVs."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, timedelta
from pathlib import Path

from sqlalchemy.orm import Session

from app.services import analytics, archive, extensions, gradebook
from app.services.standings.load import assignment_gradebook
from graders.api import ExerciseCatalog
from tests.app.course_catalog import build_catalog
from tests.app.services.graded_rows import DUE, GATE, NOW, RESET, graded, learner

CUT_OFF = f'''
timezone = "UTC"

[[assignment]]
id = "gates"
title = "Gates"
opens = {(DUE - timedelta(days=3)).isoformat()}
due = {DUE.isoformat()}
late = {{ policy = "cutoff" }}
exercises = ["{GATE}", "{RESET}"]
'''


def cut_off_catalog(tmp_path: Path) -> ExerciseCatalog:
    return ExerciseCatalog(build_catalog(tmp_path / "exercises", CUT_OFF))


def test_the_class_view_counts_what_the_gradebook_counts(db: Session, tmp_path: Path) -> None:
    catalog = cut_off_catalog(tmp_path)
    gates = catalog.schedule().assignments[0]
    ada, bob, cy = learner(db, "ada"), learner(db, "bob"), learner(db, "cy")
    for exercise in (GATE, RESET):
        graded(db, ada, exercise, 10, DUE - timedelta(days=1))  # complete, on time
        graded(db, bob, exercise, 10, DUE + timedelta(hours=2))  # late after a cut-off: 0
    graded(db, cy, GATE, 10, DUE - timedelta(hours=1))

    def view() -> analytics.AssignmentAnalytics:
        return analytics.load_assignment_analytics(
            session=db, catalog=catalog, assignment=gates, now=NOW
        )

    before = view()
    rows = assignment_gradebook(session=db, catalog=catalog, assignment=gates, now=NOW)
    assert [r.standing.complete for r in rows] == [True, False, False]
    assert before.complete == 1  # not 2: bob's late full marks score nothing
    assert before.completion_by_day[-1][1] == 1
    assert analytics.completion_chart(before) is not None
    # An extension for cy, who has nothing to do with the chart, moves none of its days.
    extensions.extend(
        session=db, learner=cy, assignment=gates, due=DUE + timedelta(days=5), granted_by="t"
    )
    assert view().completion_by_day == before.completion_by_day
    # bob's extension makes his late work on time: he completes, on the day he did it.
    extensions.extend(
        session=db, learner=bob, assignment=gates, due=DUE + timedelta(days=1), granted_by="t"
    )
    after = view()
    assert after.complete == 2 and after.completion_by_day[-1][1] == 2
    assert after.completion_by_day[-1][0] == (DUE + timedelta(hours=2)).date()


def test_nobody_complete_is_no_chart_and_a_zero_count(db: Session, tmp_path: Path) -> None:
    catalog = cut_off_catalog(tmp_path)
    gates = catalog.schedule().assignments[0]
    graded(db, learner(db, "ada"), GATE, 10, DUE + timedelta(hours=1))
    view = analytics.load_assignment_analytics(
        session=db, catalog=catalog, assignment=gates, now=NOW
    )
    assert view.complete == 0 and analytics.completion_chart(view) is None


def test_the_archive_rounds_as_the_csvs(db: Session, tmp_path: Path) -> None:
    catalog = cut_off_catalog(tmp_path)
    gates = catalog.schedule().assignments[0]
    ada = learner(db, "ada")
    graded(db, ada, GATE, 10 / 3, DUE - timedelta(hours=1))
    graded(db, ada, RESET, 20 / 3, DUE - timedelta(hours=1))
    rows = assignment_gradebook(session=db, catalog=catalog, assignment=gates, now=NOW)
    exported = list(
        csv.DictReader(
            io.StringIO(gradebook.write_csv(gradebook.assignment_csv_rows(gates, rows, UTC)))
        )
    )
    with (
        archive.assignment_archive(
            session=db, catalog=catalog, assignment_id="gates", pick=archive.ArchivePick.BEST
        ) as file,
        zipfile.ZipFile(file) as opened,
    ):
        index = list(csv.DictReader(io.StringIO(opened.read("gates-best/index.csv").decode())))
        feedback = opened.read(f"gates-best/ada/{GATE}/feedback.md").decode()
    points = {r["exercise"]: r["points"] for r in index}
    assert points == {GATE: "0.33", RESET: "0.67"}  # the archive wrote 0.3333 before
    assert exported[1][GATE] == points[GATE] and exported[1][RESET] == points[RESET]
    assert "- Points the schedule counts: 0.33 of 1" in feedback
