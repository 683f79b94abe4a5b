"""The error pictures stored with a result, against a real database: a new result's pictures
replace the earlier result's (a regrade), whatever the positions."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.store import accounts as account_store
from app.store import pictures as picture_store
from tests.app.store.helpers import add_submission


def test_a_results_pictures_replace_the_earlier_results(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    row = add_submission(db, ada)

    def store(svgs: dict[int, str]) -> dict[int, str]:
        # As the grading thread stores a result: in a session that holds none of the pictures
        # (the delete does not look for them in the session).
        db.expunge_all()
        picture_store.replace_pictures(session=db, submission_id=row.id, svgs=svgs)
        db.flush()
        db.expunge_all()
        return picture_store.pictures_of(session=db, submission_id=row.id)

    assert store({0: "<svg>first 0</svg>", 2: "<svg>first 2</svg>"}) == {
        0: "<svg>first 0</svg>",
        2: "<svg>first 2</svg>",
    }
    assert store({2: "<svg>regraded 2</svg>"}) == {2: "<svg>regraded 2</svg>"}
    assert store({}) == {}
