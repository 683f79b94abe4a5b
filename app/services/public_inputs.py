"""The public cases' inputs, encoded for a client to call a learner's function on them.

A learner sees a public case's inputs on the exercise page already; this serves them so that a
client can compare what its rebuilt code computes with what the learner's own function computes
(clients/python: the guard). Never a hidden case, never an expected output.

Each value is JSON where JSON holds it exactly, else an object naming its kind: an array or
numpy scalar is ``{"npy": base64 of np.save}`` (``allow_pickle=False``: a plain dtype only), a
float JSON cannot write ``{"float": "nan"}``, a tuple ``{"tuple": [...]}``, a dict whose keys are
not all strings ``{"dict": [[key, value], ...]}``. A case with a value of any other kind (an
object) is left out: ``skipped`` names it.
"""

from __future__ import annotations

import base64
import io
import math
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from app.models import User
from app.schemas import PublicCaseInputs, PublicInputsOut
from app.services.exercises import load_visible
from app.services.variants import learner_variant
from graders.api import ExerciseCatalog


class NotEncodable(ValueError):
    """A value this encoding cannot carry exactly."""


def public_inputs(
    session: Session, catalog: ExerciseCatalog, exercise_id: str, user: User | None
) -> PublicInputsOut:
    """The public cases' inputs as the reader's own variant makes them."""
    exercise = load_visible(catalog, exercise_id, user)
    variant = learner_variant(session=session, catalog=catalog, user=user, exercise_id=exercise.id)
    prepared = catalog.prepared(exercise.id, variant)
    cases: list[PublicCaseInputs] = []
    skipped: list[str] = []
    for case in () if exercise.scenarios else prepared.public_cases:
        try:
            inputs = {name: encode(value) for name, value in case.inputs.items()}
        except NotEncodable:
            skipped.append(case.name)
            continue
        cases.append(PublicCaseInputs(name=case.name, inputs=inputs))
    return PublicInputsOut(entry=exercise.entry, cases=cases, skipped=skipped)


def encode(value: Any) -> Any:
    if isinstance(value, (np.ndarray, np.generic)):
        if isinstance(value, np.ndarray) and value.dtype.hasobject:
            raise NotEncodable(value.dtype)
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        encoded: dict[str, Any] = {"npy": base64.b64encode(buffer.getvalue()).decode("ascii")}
        return encoded | {"scalar": True} if isinstance(value, np.generic) else encoded
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, tuple):
        return {"tuple": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value) and not {
            "npy",
            "float",
            "tuple",
            "dict",
        } & set(value):
            return {key: encode(item) for key, item in value.items()}
        return {"dict": [[encode(key), encode(item)] for key, item in value.items()]}
    raise NotEncodable(type(value).__name__)
