"""Dependencies shared by the routes: settings, database session, runtime, the current user."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.models import Submission, User
from app.runtime.context import GradingRuntime
from app.services.auth import Credentials, not_authenticated, resolve_user
from app.services.history import visible_submission
from app.services.translations import LANG_COOKIE, reader_language
from graders.api import ExerciseCatalog

SessionSecretReader = Callable[[Request, Settings], str | None]
"""Web sign-in hook: ``create_app`` stores one as ``app.state.session_secret_reader``; it returns
the secret of the web session the request's cookie carries (or None), and is responsible for
refusing an unsafe method without a valid CSRF token. API routes then accept that session (once
``app/services/auth.py`` finds it in the database) as well as a Bearer token."""

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="API token",
    description="`Authorization: Bearer <token>`, created on the account page (`/account`)",
)


async def get_runtime(request: Request) -> GradingRuntime:
    runtime: GradingRuntime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[GradingRuntime, Depends(get_runtime)]


async def get_settings_dep(runtime: RuntimeDep) -> Settings:
    return runtime.settings


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]


async def get_catalog(runtime: RuntimeDep) -> ExerciseCatalog:
    return runtime.catalog


CatalogDep = Annotated[ExerciseCatalog, Depends(get_catalog)]


def get_db(runtime: RuntimeDep) -> Iterator[Session]:
    with runtime.sessions() as session:
        yield session
        session.commit()


SessionDep = Annotated[Session, Depends(get_db, scope="function")]
"""A request's database session, committed as soon as the route returns. ``scope="function"``:
with the default (``"request"``) FastAPI runs the commit only after the answer is sent, so a
browser following a sign-in's redirect could arrive before its session row was stored, and a
failed commit would follow an answer that said it worked."""


def session_secret(request: Request, settings: Settings) -> str | None:
    """The secret of the request's web session, through the app's reader, if any."""
    reader: SessionSecretReader | None = getattr(request.app.state, "session_secret_reader", None)
    return reader(request, settings) if reader is not None else None


async def get_credentials(
    request: Request,
    settings: SettingsDep,
    bearer_credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Credentials:
    token = bearer_credentials.credentials if bearer_credentials is not None else None
    return Credentials(
        token=token,
        session_secret=None if token else session_secret(request, settings),
        authorization_header="authorization" in request.headers,
    )


OptionalCredentialsDep = Annotated[Credentials, Depends(get_credentials)]


async def require_credentials(credentials: OptionalCredentialsDep) -> Credentials:
    """Credentials that may be valid (401 at once when none are offered)."""
    if credentials.token is None and credentials.session_secret is None:
        raise not_authenticated(credentials)
    return credentials


CredentialsDep = Annotated[Credentials, Depends(require_credentials)]


def get_optional_user(session: SessionDep, credentials: OptionalCredentialsDep) -> User | None:
    return resolve_user(session=session, credentials=credentials, required=False)


OptionalUser = Annotated[User | None, Depends(get_optional_user)]
OPTIONAL_AUTH: dict[str, Any] = {"security": [{}]}
"""``openapi_extra`` of a route taking ``OptionalUser``: FastAPI lists the token as required;
this adds the empty requirement, which says "or none" (a wrong token is still a 401)."""


def get_current_user(session: SessionDep, credentials: CredentialsDep) -> User:
    user = resolve_user(session=session, credentials=credentials)
    assert user is not None
    return user


CurrentUser = Annotated[User, Depends(get_current_user)]


async def get_instructor(user: CurrentUser) -> User:
    if not user.is_instructor:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN, detail=f"User {user.name!r} is not an instructor"
        )
    return user


InstructorUser = Annotated[User, Depends(get_instructor)]


def get_visible_submission(
    submission_id: str, session: SessionDep, user: CurrentUser
) -> Submission:
    """The submission if it exists and ``user`` may read it (own, or any for instructors)."""
    submission = visible_submission(session=session, user=user, submission_id=submission_id)
    if submission is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, detail=f"Submission {submission_id!r} not found"
        )
    return submission


VisibleSubmission = Annotated[Submission, Depends(get_visible_submission)]


async def get_reader_language(
    request: Request,
    accept_language: Annotated[
        str,
        Header(
            description="the reader's language (en, ja) of titles, test names and hints; the "
            "pages' language choice wins over it"
        ),
    ] = "",
) -> str:
    """The reader's language: the pages' choice (cookie), else ``Accept-Language``, else en.

    ``async`` though it waits for nothing: FastAPI runs a plain ``def`` dependency on a
    worker thread, a hop there and back on every request that reads it (4 to 5 % of the
    server's time under bench/service.py's load, docs/performance.md)."""
    return reader_language(request.cookies.get(LANG_COOKIE), accept_language)


ReaderLanguage = Annotated[str, Depends(get_reader_language)]
