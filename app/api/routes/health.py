"""``GET /healthz``: 200 when a submission sent now can be graded, else 503 naming why."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from app.api.deps import RuntimeDep
from app.schemas import Health, HealthStatus
from app.services.health import check

router = APIRouter(tags=["health"])


@router.get(
    "/healthz",
    response_model=Health,
    responses={
        503: {"model": Health, "description": "database, queue, workers or sandbox not working"}
    },
)
def healthz(runtime: RuntimeDep, response: Response) -> Health:
    health = check(runtime)
    if health.status is not HealthStatus.OK:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return health
