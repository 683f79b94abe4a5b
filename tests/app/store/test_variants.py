"""Variants: a learner's seed of an exercise is stored on first view and kept."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.store import accounts as account_store
from app.store import variants as variant_store


def test_the_first_seed_stored_is_kept_and_each_learner_and_exercise_has_its_own(
    db: Session,
) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")

    def seed(user_id: int, exercise: str, fresh: int) -> int:
        return variant_store.variant_seed(
            session=db, user_id=user_id, exercise_id=exercise, fresh=fresh
        )

    assert seed(ada.id, "gru-step", 11) == 11
    assert seed(ada.id, "gru-step", 22) == 11  # a later view's fresh seed is ignored
    assert seed(ada.id, "gru-update-gate", 33) == 33
    assert seed(bob.id, "gru-step", 44) == 44
    assert seed(ada.id, "gru-step", 55) == 11
