"""The FastAPI application: API routes, web pages, and (optionally) in-process grading."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from app.api.routes import assignments, exercises, gradebook, health, submissions
from app.core.config import PLACEHOLDER_SECRET, Settings, get_settings
from app.core.db import upgrade_database
from app.services.courses import AssignmentNotFound
from app.services.grading import GradingRuntime, GradingWorkers, install_runtime
from app.web.auth import session_user_id as web_session_user_id
from app.web.routes import router as web_router
from graders.errors import ExerciseError, ExerciseNotFound

logger = logging.getLogger(__name__)

DESCRIPTION = """Auto-graded numerical Python exercises.

Authenticate with `Authorization: Bearer <token>` (`numjudge users add <name>` prints one).
`POST /submit` queues code and answers `202`; add `?wait=10` to get the final result in the
same call, or poll `GET /submissions/{id}` until `status` is `done`."""


def _describe_error(error: dict[str, Any]) -> str:
    where = " → ".join(str(part) for part in error.get("loc", ()) if part != "body")
    if error.get("type") == "json_invalid":
        reason = error.get("ctx", {}).get("error", "")
        return f"The body is not valid JSON ({reason})" if reason else \
            "The body is not valid JSON"
    if error.get("type") == "missing":
        return f"Field '{where}' is required"
    if error.get("type") == "extra_forbidden":
        return f"Unknown field '{where}'"
    return f"{where or 'body'}: {error.get('msg', 'invalid')}"


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 with a sentence in ``detail`` and the machine-readable list in ``errors``."""
    assert isinstance(exc, RequestValidationError)
    errors: Sequence[dict[str, Any]] = exc.errors()
    detail = "; ".join(_describe_error(e) for e in errors) or "Invalid request"
    return JSONResponse(status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
                        content={"detail": detail, "errors": _jsonable(errors)})


async def exercise_not_found(request: Request, exc: Exception) -> JSONResponse:
    """404 for an unknown exercise id, from any API route or service."""
    return JSONResponse(status_code=status.HTTP_404_NOT_FOUND, content={"detail": str(exc)})


async def assignment_not_found(request: Request, exc: Exception) -> JSONResponse:
    """404 for an assignment id that course.toml does not define."""
    return JSONResponse(status_code=status.HTTP_404_NOT_FOUND, content={"detail": str(exc)})


async def exercise_broken(request: Request, exc: Exception) -> JSONResponse:
    """500 naming the broken file and field: the instructor's folder needs fixing."""
    return JSONResponse(status_code=status.HTTP_500_INTERNAL_SERVER_ERROR,
                        content={"detail": f"The exercise folder is broken: {exc}"})


def _jsonable(errors: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")),
             "type": str(e.get("type", ""))} for e in errors]


def create_app(settings: Settings | None = None, *, runtime: GradingRuntime | None = None,
               grading: bool | None = None) -> FastAPI:
    """The whole service. ``grading``: run grading threads in this process (default: when
    ``settings.workers > 0``). Pass ``runtime`` to share or fake the grading runtime."""
    settings = settings or (runtime.settings if runtime else get_settings())
    runtime = runtime or GradingRuntime.from_settings(settings)
    run_grading = settings.workers > 0 if grading is None else grading

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.secret_key == PLACEHOLDER_SECRET:
            logger.warning("config.placeholder_secret",
                           extra={"hint": "set NUMJUDGE_SECRET_KEY before exposing the site"})
        if settings.auto_migrate:
            await run_in_threadpool(upgrade_database, settings.database_url)
        install_runtime(runtime)
        workers = GradingWorkers(runtime, settings.workers) if run_grading else None
        if workers is not None:
            await run_in_threadpool(workers.start)
        logger.info("service.started", extra={"grading_threads": settings.workers
                                              if run_grading else 0})
        try:
            yield
        finally:
            if workers is not None:
                await run_in_threadpool(workers.stop)
            logger.info("service.stopped")

    app = FastAPI(title="numjudge", version="0.1.0", description=DESCRIPTION,
                  lifespan=lifespan)
    app.state.runtime = runtime
    app.state.settings = settings
    app.state.session_user_resolver = web_session_user_id
    app.add_exception_handler(RequestValidationError, validation_error)
    # The more specific class first: handlers are looked up along the exception's MRO.
    app.add_exception_handler(ExerciseNotFound, exercise_not_found)
    app.add_exception_handler(ExerciseError, exercise_broken)
    app.add_exception_handler(AssignmentNotFound, assignment_not_found)
    app.include_router(submissions.router)
    app.include_router(exercises.router)
    app.include_router(assignments.router)
    app.include_router(gradebook.router)
    app.include_router(health.router)
    app.include_router(web_router)
    return app
