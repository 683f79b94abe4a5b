"""``GET /healthz``: the database answers, the queue answers, exercises are readable."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from app.api.deps import RuntimeDep
from app.schemas import Health
from app.services.health import check

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health,
            responses={503: {"model": Health, "description": "database or queue down"}})
def healthz(runtime: RuntimeDep, response: Response) -> Health:
    health = check(runtime)
    if health.status != "ok":
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return health
