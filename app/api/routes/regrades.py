"""``GET /regrades`` and ``POST /regrades/{exercise}``: grading again after an exercise changed
(instructors only)."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from app.api.deps import CatalogDep, InstructorUser, RuntimeDep, SessionDep
from app.schemas import ErrorOut, RegradeOut, StaleExerciseOut
from app.services import regrades

router = APIRouter(
    prefix="/regrades",
    tags=["regrades"],
    responses={403: {"model": ErrorOut, "description": "not an instructor"}},
)


@router.get("", response_model=list[StaleExerciseOut])
def list_stale(
    session: SessionDep, catalog: CatalogDep, _: InstructorUser
) -> list[StaleExerciseOut]:
    """Per exercise: how many graded submissions an earlier version of it graded."""
    return [
        regrades.stale_exercise_out(row)
        for row in regrades.stale_exercises(session=session, catalog=catalog)
    ]


@router.post(
    "/{exercise_id}",
    response_model=RegradeOut,
    responses={404: {"model": ErrorOut, "description": "unknown exercise"}},
)
async def regrade(exercise_id: str, runtime: RuntimeDep, _: InstructorUser) -> RegradeOut:
    """Queue those submissions again; learners' own work keeps going first."""
    queued = await run_in_threadpool(regrades.regrade, runtime=runtime, exercise_id=exercise_id)
    return RegradeOut(exercise=exercise_id, queued=queued)
