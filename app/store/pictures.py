"""The error pictures stored with a submission's result (app/services/error_pictures.py)."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm import Session

from app.models import StoredPicture

# Built once: every stored result runs it (docs/performance.md, issue 44). No session holds
# the pictures it drops (each store has a fresh one), so the ORM need not look for them in
# its identity map first: that look-up cost more than the statement.
_DROP = (
    delete(StoredPicture)
    .where(StoredPicture.submission_id == bindparam("submission_id"))
    .execution_options(synchronize_session=False)
)


def replace_pictures(*, session: Session, submission_id: str, svgs: Mapping[int, str]) -> None:
    """Store ``svgs`` (by the test's position) as the submission's pictures, dropping those
    of its earlier result (a regrade's tests replace them). ``session`` must hold none of the
    earlier pictures (the grading thread's store opens a fresh one)."""
    session.execute(_DROP, {"submission_id": submission_id})
    session.add_all(
        StoredPicture(submission_id=submission_id, position=position, svg=svg)
        for position, svg in svgs.items()
    )


def pictures_of(*, session: Session, submission_id: str) -> dict[int, str]:
    """The submission's stored pictures, by the test's position."""
    rows = session.execute(
        select(StoredPicture.position, StoredPicture.svg).where(
            StoredPicture.submission_id == submission_id
        )
    )
    return {position: svg for position, svg in rows}
