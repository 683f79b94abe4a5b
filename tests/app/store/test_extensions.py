"""Extensions: deleting one learner's extension of one assignment."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import utcnow
from app.store import accounts as account_store
from app.store import extensions as extension_store


def test_deleting_an_extension_removes_only_that_one_and_says_whether_there_was_one(
    db: Session,
) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    due = utcnow() + timedelta(days=1)
    for user, assignment in ((ada, "hw1"), (ada, "hw2"), (bob, "hw1")):
        extension_store.set_extension(
            session=db, user=user, assignment_id=assignment, due=due, granted_by="ines"
        )
    assert extension_store.delete_extension(session=db, user_id=ada.id, assignment_id="hw1")
    assert not extension_store.delete_extension(session=db, user_id=ada.id, assignment_id="hw1")
    assert not extension_store.delete_extension(session=db, user_id=ada.id, assignment_id="hw9")
    left = extension_store.list_extensions(session=db)
    assert [(e.user.name, e.assignment_id) for e in left] == [("ada", "hw2"), ("bob", "hw1")]
