"""Who a request is: a Bearer API token or a signed-in web session, checked in the database."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, status
from sqlalchemy.orm import Session

from app import crud
from app.models import User


@dataclass(frozen=True)
class Credentials:
    """What the request offers to prove who it is; resolved against the database later."""

    token: str | None
    session_user_id: int | None
    authorization_header: bool


def not_authenticated(credentials: Credentials) -> HTTPException:
    detail = ("Authorization header is not a Bearer token; send "
              "'Authorization: Bearer <token>'" if credentials.authorization_header else
              "Not authenticated: send 'Authorization: Bearer <token>' "
              "(`numjudge users add <name>` prints a token) or sign in")
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail=detail,
                         headers={"WWW-Authenticate": "Bearer"})


def resolve_user(*, session: Session, credentials: Credentials, required: bool = True
                 ) -> User | None:
    """The user of a Bearer token, else of the web session; 401 (or None) when there is none."""
    if credentials.token is not None:
        user = crud.get_user_by_token(session=session, token=credentials.token)
        session.commit()  # end the write (last use) now: routes may write in other sessions
        if user is None:
            raise HTTPException(status.HTTP_401_UNAUTHORIZED,
                                detail="Invalid or revoked API token",
                                headers={"WWW-Authenticate": "Bearer"})
        return user
    user_id = credentials.session_user_id
    user = crud.get_user(session=session, user_id=user_id) if user_id is not None else None
    if user is None and required:
        raise not_authenticated(credentials)
    return user
