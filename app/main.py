"""The FastAPI application: API routes, web pages, and (optionally) in-process grading."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from app.api import errors
from app.api.middleware import DeclaredSizeLimit, JsonHeaders
from app.api.routes import (
    analytics,
    assignments,
    exercises,
    gradebook,
    health,
    regrades,
    submissions,
)
from app.core.config import Settings, get_settings
from app.core.db import upgrade_database
from app.grading.workers import BackgroundWork
from app.runtime.context import GradingRuntime, build_runtime
from app.services.accounts import HashSlots
from app.web.auth import SESSION_COOKIE
from app.web.auth import session_secret as web_session_secret
from app.web.routes import router as web_router

logger = logging.getLogger(__name__)

MAX_FORM_FIELDS = 20  # the largest page form has 6

DESCRIPTION = """Auto-graded numerical Python exercises.

Authenticate with `Authorization: Bearer <token>`: a learner creates a token on their account
page (`/account`); an administrator's `numjudge users add <name>` prints one too.
`POST /submit` queues code and answers `202`; add `?wait=10` to get the final result in the
same call, or poll `GET /submissions/{id}` until `status` is `done`."""


def create_app(
    settings: Settings | None = None,
    *,
    runtime: GradingRuntime | None = None,
    grading: bool | None = None,
) -> FastAPI:
    """The whole service. ``grading``: run grading threads in this process (default: when
    ``settings.workers > 0``). Pass ``runtime`` to share or fake the grading runtime."""
    settings = settings or (runtime.settings if runtime else get_settings())
    runtime = runtime or build_runtime(settings)
    run_grading = settings.workers > 0 if grading is None else grading

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.auto_migrate:
            await run_in_threadpool(upgrade_database, settings.database_url)
        work = BackgroundWork(runtime, settings.grading_threads if run_grading else 0)
        await run_in_threadpool(work.start)
        logger.info("service.started", extra={"grading_threads": work.grading_threads})
        try:
            yield
        finally:
            await run_in_threadpool(work.stop)
            logger.info("service.stopped")

    # /docs is app/web/api_docs.py (vendored Swagger UI); ReDoc would come from a CDN.
    app = FastAPI(
        title="numjudge",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        form_limits={
            "max_fields": MAX_FORM_FIELDS,
            "max_files": 0,
            "max_part_size": settings.max_form_bytes,
        },
    )
    app.add_middleware(
        DeclaredSizeLimit,
        max_body=settings.max_body_bytes,
        max_form=settings.max_form_bytes,
        max_code=settings.max_code_bytes,
    )
    app.add_middleware(JsonHeaders, session_cookie=SESSION_COOKIE)  # outermost: on the 413s too
    app.state.runtime = runtime
    app.state.settings = settings
    app.state.session_secret_reader = web_session_secret
    app.state.hash_slots = HashSlots(settings.max_concurrent_hashes)
    errors.register(app)
    # Bodies are refused (413) before parsing and authentication: a declared length at once
    # (DeclaredSizeLimit), an undeclared one as it arrives (the routes' max_body_size).
    for router in (
        submissions.router,
        exercises.router,
        assignments.router,
        gradebook.router,
        regrades.router,
        analytics.router,
    ):
        app.include_router(
            router, max_body_size=settings.max_body_bytes, responses=errors.AUTH_ERRORS
        )
    app.include_router(
        health.router, max_body_size=settings.max_body_bytes, responses=errors.BODY_ERRORS
    )
    app.include_router(web_router, max_body_size=settings.max_form_bytes)
    return app
