"""``GET /gradebook.csv``: best score per learner per exercise (instructors only)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import InstructorUser, SessionDep
from app.api.downloads import csv_download
from app.schemas import ErrorOut
from app.services.gradebook import long_csv

router = APIRouter(tags=["gradebook"])


@router.get(
    "/gradebook.csv",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {}}},
        403: {"model": ErrorOut, "description": "not an instructor"},
    },
)
def gradebook(session: SessionDep, _: InstructorUser) -> Response:
    """CSV: user, exercise, best_score, max_score, submissions, last_submitted_at."""
    return csv_download(long_csv(session=session), "gradebook.csv")
