"""The health check behind ``GET /healthz``: can a submission sent now be graded?"""

from __future__ import annotations

import logging
from datetime import timedelta

from app.models import utcnow
from app.runtime.context import GradingRuntime
from app.schemas import Health, HealthStatus
from app.store import workers as worker_store

logger = logging.getLogger(__name__)


def check(runtime: GradingRuntime) -> Health:
    """The database, the queue, the backlog as the database sees it, live workers (three
    missed heartbeats count as dead), the newest passing canary grading and this process's
    sandbox's working folders (one that vanished is made again by the next grading or
    heartbeat: not ok until then, whatever the last canary said); besides, the
    exercises graded against their last good version because their folder does not load,
    which are listed in ``problems`` without degrading the status (they are still graded)."""
    settings = runtime.settings
    problems: list[str] = []
    database = queue = "ok"
    sandbox = "unknown: the database is down"
    workers = threads = queued = None
    oldest_s = canary_age_s = None
    now = utcnow()
    try:
        with runtime.sessions() as session:
            queued, oldest = worker_store.queued_backlog(session=session)
            live = worker_store.live_workers(
                session=session, since=now - timedelta(seconds=3 * settings.heartbeat_interval_s)
            )
            session.commit()
    except Exception as exc:
        logger.warning("health.database_down", extra={"error": str(exc)[:300]})
        database = f"error: {type(exc).__name__}"
        problems.append("the database cannot be reached")
    else:
        oldest_s = round((now - oldest).total_seconds(), 1) if oldest is not None else None
        workers, threads = len(live), sum(w.threads for w in live)
        passing = [w.canary_at for w in live if w.canary_ok and w.canary_at is not None]
        if passing:
            canary_age_s = round((now - max(passing)).total_seconds(), 1)
        if not live:
            sandbox = "unknown: no worker"
            problems.append(
                f"no grading worker has sent a heartbeat in {3 * settings.heartbeat_interval_s:g} s"
            )
        elif canary_age_s is not None and canary_age_s <= settings.canary_max_age_s:
            sandbox = "ok"
        else:
            failing = [w.canary_message for w in live if w.canary_ok is False]
            sandbox = f"failing: {failing[0]}" if failing else "no recent canary"
            problems.append(
                f"no worker's canary grading passed in the last {settings.canary_max_age_s:g} s"
            )
    missing = runtime.missing()
    if missing:
        sandbox = "missing: " + "; ".join(missing)
        problems.append(
            "working folders of the sandbox vanished (made again before the next grading)"
        )
    try:
        runtime.queue.check()
    except Exception as exc:
        logger.warning("health.queue_down", extra={"error": str(exc)[:300]})
        queue = f"error: {type(exc).__name__}"
        problems.append("the queue cannot be reached")
    stale = [exercise.describe() for exercise in runtime.catalog.stale()]
    return Health(
        status=HealthStatus.DEGRADED if problems else HealthStatus.OK,
        database=database,
        queue=queue,
        sandbox=sandbox,
        exercises=len(runtime.catalog.ids()),
        workers=workers,
        grading_threads=threads,
        queued=queued,
        oldest_queued_s=oldest_s,
        canary_age_s=canary_age_s,
        problems=problems + stale,
    )
