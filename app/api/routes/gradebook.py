"""``GET /gradebook.csv``: the score the schedule counts per learner per exercise (instructors
only)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import CatalogDep, InstructorUser, SessionDep
from app.api.downloads import csv_download
from app.schemas import ErrorOut
from app.services.gradebook import long_csv
from app.services.standings.load import exercise_gradebook

router = APIRouter(tags=["gradebook"])


@router.get(
    "/gradebook.csv",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}},
        403: {"model": ErrorOut, "description": "not an instructor"},
    },
)
def gradebook(session: SessionDep, catalog: CatalogDep, _: InstructorUser) -> Response:
    """CSV: user, exercise, best_score, max_score, late, submissions, last_submitted_at,
    regrading: learners only, the score the schedule counts (late policy applied) of the
    maximum that graded it; ``regrading`` names both maxima while a regrade is pending."""
    rows = exercise_gradebook(
        session=session,
        catalog=catalog,
        exercise_ids=[e.id for e in catalog.all()],
        learners_only=True,
    )
    return csv_download(long_csv(rows), "gradebook.csv")
