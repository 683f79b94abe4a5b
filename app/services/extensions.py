"""Extensions: a learner's own, later due time for one assignment, granted and removed by an
instructor. The standings read them (app/services/standings); nothing here computes a score."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.models import User
from app.store import extensions as extension_store
from graders.api import Assignment


class ExtensionRefused(ValueError):
    """An extension that would end before the assignment's own due time."""


def extend(
    *, session: Session, learner: User, assignment: Assignment, due: datetime, granted_by: str
) -> None:
    """Give ``learner`` their own, later due time. An earlier one is refused: an extension
    that shortens the time given to everyone is a mistake in the date, not a grace."""
    if due < assignment.due:
        zone = due.tzinfo or UTC
        raise ExtensionRefused(
            f"an extension ends after the assignment's own due time "
            f"({assignment.due.astimezone(zone):%Y-%m-%d %H:%M %Z}), not at "
            f"{due.astimezone(zone):%Y-%m-%d %H:%M %Z}"
        )
    extension_store.set_extension(
        session=session, user=learner, assignment_id=assignment.id, due=due, granted_by=granted_by
    )


def remove_extension(*, session: Session, learner: User, assignment: Assignment) -> bool:
    """The assignment's own due time applies to ``learner`` again; False if it already did."""
    return extension_store.delete_extension(
        session=session, user_id=learner.id, assignment_id=assignment.id
    )
