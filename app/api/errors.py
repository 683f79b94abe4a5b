"""Every API error as JSON ``{"detail": "<a sentence>"}``: the one place where the services'
and the engine's exceptions become HTTP answers."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request, status
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.schemas import ErrorOut, ValidationErrorOut
from app.services.assignments import AssignmentNotFound
from app.services.errors import (
    BudgetSpent,
    CodeRejected,
    CodeTooLarge,
    CustomInputsOff,
    IdempotencyConflict,
    NotFound,
    ServiceError,
    TooManySubmissions,
)
from app.services.translations import LANG_COOKIE, reader_language
from graders.api import CustomInputRefused, ExerciseError, ExerciseNotFound

logger = logging.getLogger(__name__)

# The most specific class first: the first match along the exception's classes wins.
STATUS: tuple[tuple[type[Exception], int], ...] = (
    (NotFound, status.HTTP_404_NOT_FOUND),
    (ExerciseNotFound, status.HTTP_404_NOT_FOUND),
    (AssignmentNotFound, status.HTTP_404_NOT_FOUND),
    (CodeTooLarge, status.HTTP_413_CONTENT_TOO_LARGE),
    (CodeRejected, status.HTTP_422_UNPROCESSABLE_CONTENT),
    (IdempotencyConflict, status.HTTP_422_UNPROCESSABLE_CONTENT),
    (TooManySubmissions, status.HTTP_429_TOO_MANY_REQUESTS),
    (BudgetSpent, status.HTTP_403_FORBIDDEN),
    (CustomInputsOff, status.HTTP_403_FORBIDDEN),
    (CustomInputRefused, status.HTTP_422_UNPROCESSABLE_CONTENT),
)


def _describe_error(error: dict[str, Any]) -> str:
    where = " → ".join(str(part) for part in error.get("loc", ()) if part != "body")
    if error.get("type") == "json_invalid":
        reason = error.get("ctx", {}).get("error", "")
        return f"The body is not valid JSON ({reason})" if reason else "The body is not valid JSON"
    if error.get("type") == "missing":
        return f"Field '{where}' is required"
    if error.get("type") == "extra_forbidden":
        return f"Unknown field '{where}'"
    return f"{where or 'body'}: {error.get('msg', 'invalid')}"


def _jsonable(errors: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "loc": list(e.get("loc", ())),
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in errors
    ]


def _json_expected(request: Request, errors: Sequence[dict[str, Any]]) -> bool:
    """A body that is not JSON (a form, say) fails as a whole: say what the API expects."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return media_type != "application/json" and any(
        tuple(error.get("loc", ())) == ("body",) for error in errors
    )


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 with a sentence in ``detail`` and the machine-readable list in ``errors``."""
    assert isinstance(exc, RequestValidationError)
    errors: Sequence[dict[str, Any]] = exc.errors()
    detail = "; ".join(_describe_error(e) for e in errors) or "Invalid request"
    if _json_expected(request, errors):
        detail = (
            "The body must be JSON (Content-Type: application/json), not "
            f"{request.headers.get('content-type') or 'without a type'}: "
            '{"exercise": "<id>", "code": "<source>"}'
        )
    return JSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": detail, "errors": _jsonable(errors)},
    )


async def http_error(request: Request, exc: Exception) -> Response:
    """FastAPI's own answers, but a body that is not UTF-8 is told so (FastAPI says only that
    it could not parse the body)."""
    assert isinstance(exc, HTTPException)
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return JSONResponse(
            status_code=status.HTTP_400_BAD_REQUEST,
            content={
                "detail": f"The body is not UTF-8 text (byte 0x{cause.object[cause.start]:02x} "
                f"at position {cause.start}): send JSON encoded as UTF-8"
            },
        )
    return await http_exception_handler(request, exc)


async def refused(request: Request, exc: Exception) -> JSONResponse:
    """A service's or the catalog's refusal, with its status from :data:`STATUS`."""
    code = next(code for kind, code in STATUS if isinstance(exc, kind))
    headers = (
        {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, TooManySubmissions) else None
    )
    detail = (
        exc.told_in(
            reader_language(
                request.cookies.get(LANG_COOKIE), request.headers.get("accept-language", "")
            )
        )
        if isinstance(exc, ServiceError)
        else str(exc)
    )
    return JSONResponse(status_code=code, content={"detail": detail}, headers=headers)


async def exercise_broken(request: Request, exc: Exception) -> JSONResponse:
    """500 naming the broken file and field: the instructor's folder needs fixing."""
    return JSONResponse(
        status_code=status.HTTP_500_INTERNAL_SERVER_ERROR,
        content={"detail": f"The exercise folder is broken: {exc}"},
    )


async def unexpected(request: Request, exc: Exception) -> JSONResponse:
    """Anything else (a database outage, a bug): logged, and still a JSON answer."""
    logger.error(
        "request.failed",
        exc_info=exc,
        extra={"path": request.url.path, "error": type(exc).__name__},
    )
    return JSONResponse(
        status_code=status.HTTP_500_INTERNAL_SERVER_ERROR,
        content={
            "detail": f"The server failed to answer; try again shortly ({type(exc).__name__})"
        },
    )


# What any API route may answer besides its own documented responses.
BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    status.HTTP_400_BAD_REQUEST: {
        "model": ErrorOut,
        "description": "a body that cannot be parsed (not UTF-8 JSON)",
    },
    status.HTTP_413_CONTENT_TOO_LARGE: {
        "model": ErrorOut,
        "description": "body over the limit (refused before parsing)",
    },
    status.HTTP_422_UNPROCESSABLE_CONTENT: {
        "model": ValidationErrorOut,
        "description": "a parameter or the body is invalid",
    },
}
AUTH_ERRORS: dict[int | str, dict[str, Any]] = BODY_ERRORS | {
    status.HTTP_401_UNAUTHORIZED: {
        "model": ErrorOut,
        "description": "no, wrong, expired or revoked token",
    },
}


def register(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(ServiceError, refused)
    app.add_exception_handler(ExerciseNotFound, refused)
    app.add_exception_handler(AssignmentNotFound, refused)
    app.add_exception_handler(CustomInputRefused, refused)
    app.add_exception_handler(ExerciseError, exercise_broken)
    app.add_exception_handler(Exception, unexpected)
