"""Learners' extensions: an assignment's due time moved for one learner."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload

from app.models import Extension, User

# Built once: every graded submission's answer asks it (its assignment mark), and building the
# statement per call cost more than running it (docs/performance.md, issue 44).
_EXTENSION = select(Extension).where(
    Extension.user_id == bindparam("user_id"), Extension.assignment_id == bindparam("assignment")
)


def get_extension(*, session: Session, user_id: int, assignment_id: str) -> Extension | None:
    return session.scalars(
        _EXTENSION, {"user_id": user_id, "assignment": assignment_id}
    ).one_or_none()


def list_extensions(
    *, session: Session, assignment_id: str | None = None, user_id: int | None = None
) -> Sequence[Extension]:
    query = select(Extension).options(joinedload(Extension.user)).order_by(Extension.id)
    if assignment_id is not None:
        query = query.where(Extension.assignment_id == assignment_id)
    if user_id is not None:
        query = query.where(Extension.user_id == user_id)
    return session.scalars(query).all()


def set_extension(
    *, session: Session, user: User, assignment_id: str, due: datetime, granted_by: str
) -> Extension:
    """Grant or move ``user``'s own due time for the assignment."""
    extension = get_extension(session=session, user_id=user.id, assignment_id=assignment_id)
    if extension is None:
        extension = Extension(
            user_id=user.id, assignment_id=assignment_id, due=due, granted_by=granted_by
        )
        session.add(extension)
    else:
        extension.due, extension.granted_by = due, granted_by
    session.flush()
    return extension


def delete_extension(*, session: Session, user_id: int, assignment_id: str) -> bool:
    extension = get_extension(session=session, user_id=user_id, assignment_id=assignment_id)
    if extension is None:
        return False
    session.delete(extension)
    session.flush()
    return True
