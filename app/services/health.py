"""The health check behind ``GET /healthz``."""

from __future__ import annotations

import logging

from sqlalchemy import text

from app.schemas import Health
from app.services.grading import GradingRuntime

logger = logging.getLogger(__name__)


def check(runtime: GradingRuntime) -> Health:
    database = queue = "ok"
    queued: int | None = None
    try:
        with runtime.sessions() as session:
            session.execute(text("SELECT 1"))
    except Exception as exc:
        logger.warning("health.database_down", extra={"error": str(exc)})
        database = f"error: {type(exc).__name__}"
    try:
        queued = runtime.queue.pending()
    except Exception as exc:
        logger.warning("health.queue_down", extra={"error": str(exc)})
        queue = f"error: {type(exc).__name__}"
    ok = database == "ok" and queue == "ok"
    return Health(status="ok" if ok else "degraded", database=database, queue=queue,
                  exercises=len(runtime.catalog.ids()), queued=queued)
