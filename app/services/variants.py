"""Each learner's variant of an exercise: the numbers its ``@variant`` draws for them.

A learner's seed is drawn at random the first time they see the exercise (a page, the API's
description, a submission) and stored (``learner_variants``): their numbers are the same on
every view and every submission for as long as the exercise draws them the same way. A
submission records the numbers it was graded with (``submissions.variant``), and its regrades
use them again. The numbers are the service's to choose: no request names them.
"""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from app.models import User
from app.store import variants as variant_store
from graders.api import ExerciseCatalog

SEED_BITS = 63
"""A seed fits a signed 64-bit column."""


def learner_variant(
    *, session: Session, catalog: ExerciseCatalog, user: User | None, exercise_id: str
) -> dict[str, float]:
    """The learner's numbers for the exercise: the default ones for a reader who is not
    signed in, none for an exercise without ``@variant`` (then nothing is stored). Raises
    ``ExerciseError`` when its ``cases.py`` does not prepare, or draws a variant that is not
    one."""
    prepared = catalog.prepared(exercise_id)
    if prepared.variants is None or user is None:
        return dict(prepared.variant)
    seed = variant_store.variant_seed(
        session=session,
        user_id=user.id,
        exercise_id=prepared.exercise.id,
        fresh=secrets.randbits(SEED_BITS),
    )
    return dict(prepared.variant_for(seed))
