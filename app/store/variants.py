"""Learners' seeds of exercises' variants (``learner_variants``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import LearnerVariant
from app.store._dialect import insert_for


def variant_seed(*, session: Session, user_id: int, exercise_id: str, fresh: int) -> int:
    """The learner's seed for the exercise: the stored one, else ``fresh``, stored now. Two
    first views at once store one seed, and both read it (the insert does nothing on the
    second)."""
    key = (LearnerVariant.user_id == user_id, LearnerVariant.exercise_id == exercise_id)
    stored = session.scalar(select(LearnerVariant.seed).where(*key))
    if stored is not None:
        return stored
    session.execute(
        insert_for(session)(LearnerVariant)
        .values(user_id=user_id, exercise_id=exercise_id, seed=fresh)
        .on_conflict_do_nothing(index_elements=["user_id", "exercise_id"])
    )
    seed = session.scalar(select(LearnerVariant.seed).where(*key))
    assert seed is not None
    return seed
