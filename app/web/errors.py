"""Errors of the web pages, shown as pages (never a stack trace or bare JSON).

Every web router uses ``WebRoute``: it turns ``LoginRequired`` into a redirect to the sign-in
page and ``PageError`` into the error page, and logs anything unexpected before showing a
plain "something went wrong" page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlencode

from fastapi import Request, Response, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.web.i18n import N_

logger = logging.getLogger(__name__)


class PageError(Exception):
    """An error the learner should read: shown on the error page with ``status_code``."""

    def __init__(self, status_code: int, title: str, message: str, **values: str) -> None:
        """``message`` may name ``{placeholders}``: the page fills them from ``values`` after
        translating it (see ``app.web.i18n``)."""
        super().__init__(message.format(**values))
        self.status_code = status_code
        self.title = title
        self.message = message
        self.values = values


def exercise_not_found(exercise_id: str) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("Exercise not found"),
        N_("There is no exercise {exercise}."),
        exercise=repr(exercise_id),
    )


def assignment_not_found(assignment_id: str) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("Assignment not found"),
        N_("There is no assignment {assignment}."),
        assignment=repr(assignment_id),
    )


def learner_not_found(name: str) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("No such learner"),
        N_("There is no learner {name}."),
        name=repr(name),
    )


def passback_not_found(link_id: int) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("No such score passback"),
        N_("There is no score passback {number}."),
        number=str(link_id),
    )


def lms_context_not_found(context_id: int) -> PageError:
    return PageError(
        status.HTTP_404_NOT_FOUND,
        N_("No such LMS context"),
        N_("There is no LMS context {number}."),
        number=str(context_id),
    )


class LoginRequired(Exception):
    """The page needs a signed-in user; ``expired`` if their session ran out."""

    def __init__(self, next_url: str, *, expired: bool = False) -> None:
        super().__init__(next_url)
        self.next_url = next_url
        self.expired = expired


def login_redirect(next_url: str, *, expired: bool = False) -> RedirectResponse:
    query = {"next": next_url} | ({"expired": "1"} if expired else {})
    return RedirectResponse(f"/login?{urlencode(query)}", status_code=status.HTTP_303_SEE_OTHER)


class WebRoute(APIRoute):
    """An ``APIRoute`` whose errors become pages."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route_handler(request: Request) -> Response:
            try:
                return await handler(request)
            except LoginRequired as exc:
                return login_redirect(exc.next_url, expired=exc.expired)
            except PageError as exc:
                return error_page(request, exc)
            except RequestValidationError:
                return _error_page(
                    request,
                    status.HTTP_400_BAD_REQUEST,
                    N_("Bad request"),
                    N_("Some of this request's fields are missing or malformed."),
                )
            except StarletteHTTPException:  # FastAPI's and Starlette's (a malformed form)
                raise
            except Exception:
                logger.exception("web.page_failed", extra={"path": request.url.path})
                return _error_page(
                    request,
                    status.HTTP_500_INTERNAL_SERVER_ERROR,
                    N_("Something went wrong"),
                    N_("The server could not show this page. Try again in a moment."),
                )

        return route_handler


def error_page(request: Request, error: PageError, *, framed: bool = False) -> Response:
    """The page of ``error`` (for a route that must change its headers); ``framed``: for an
    LMS's frame (base.html)."""
    return _error_page(
        request, error.status_code, error.title, error.message, error.values, framed=framed
    )


def _error_page(
    request: Request,
    status_code: int,
    title: str,
    message: str,
    values: dict[str, str] | None = None,
    *,
    framed: bool = False,
) -> Response:
    from app.web.templating import render

    return render(
        request,
        "error.html",
        {"title": title, "message": message, "values": values or {}, "framed": framed},
        status_code=status_code,
    )
