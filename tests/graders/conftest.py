"""Shared fixtures of the engine's tests: one warm sandbox and the gru-update-gate exercise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graders.api import Exercise, PreparedExercise, Sandbox, load_exercise, prepare_exercise
from tests.graders.helpers import GATE


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    pool = Sandbox(workers=1)
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture(scope="session")
def gate_exercise() -> Exercise:
    return load_exercise(GATE)


@pytest.fixture(scope="session")
def gate(gate_exercise: Exercise) -> PreparedExercise:
    return prepare_exercise(gate_exercise)
