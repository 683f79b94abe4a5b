"""``GET /assignments`` and ``GET /assignments/{id}``: the schedule's assignments, with progress."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import CatalogDep, CurrentUser, InstructorUser, ReaderLanguage, SessionDep
from app.api.downloads import file_download
from app.models import utcnow
from app.schemas import AssignmentOut, ErrorOut
from app.services import archive, assignments
from app.services.standings import load as standings

router = APIRouter(prefix="/assignments", tags=["assignments"])


@router.get("", response_model=list[AssignmentOut])
def list_assignments(
    session: SessionDep, catalog: CatalogDep, user: CurrentUser, lang: ReaderLanguage
) -> list[AssignmentOut]:
    """Every assignment in course order, with due time, time left, state and score; titles in
    the reader's language."""
    now = utcnow()
    return [
        assignments.assignment_out(s, now, lang)
        for s in standings.learner_standings(session=session, catalog=catalog, user=user, now=now)
    ]


@router.get(
    "/{assignment_id}",
    response_model=AssignmentOut,
    responses={404: {"model": ErrorOut, "description": "unknown assignment"}},
)
def get_assignment(
    assignment_id: str,
    session: SessionDep,
    catalog: CatalogDep,
    user: CurrentUser,
    lang: ReaderLanguage,
) -> AssignmentOut:
    """One assignment with the user's best share of each exercise."""
    now = utcnow()
    assignment = assignments.get_assignment(catalog.schedule(), assignment_id)
    return assignments.assignment_out(
        standings.learner_standing(
            session=session, catalog=catalog, user=user, assignment=assignment, now=now
        ),
        now,
        lang,
    )


@router.get(
    "/{assignment_id}/submissions.zip",
    response_class=Response,
    responses={
        200: {"content": {"application/zip": {}}},
        403: {"model": ErrorOut, "description": "not an instructor"},
        404: {"model": ErrorOut, "description": "unknown assignment"},
    },
)
def submissions_archive(
    assignment_id: str,
    session: SessionDep,
    catalog: CatalogDep,
    _: InstructorUser,
    pick: archive.ArchivePick = archive.ArchivePick.BEST,
    section: str | None = None,
) -> Response:
    """Zip: each learner's latest (``pick=last``) or counted (``pick=best``) submission to
    each exercise, with its code, feedback (hidden tests in full) and result, plus
    ``index.csv``. docs/teaching.md, "Download the submissions"."""
    file = archive.assignment_archive(
        session=session,
        catalog=catalog,
        assignment_id=assignment_id,
        pick=pick,
        section=section,
    )
    return file_download(
        file, f"{archive.archive_name(assignment_id, pick)}.zip", "application/zip"
    )
