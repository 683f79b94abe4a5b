"""Shared fixtures of the engine's tests: one warm sandbox and the gru-update-gate exercise."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders import Exercise, PreparedExercise, Sandbox, load_exercise, prepare_exercise
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


@pytest.fixture
def gate_copy(tmp_path: Path) -> Path:
    """A private copy of exercises/gru-update-gate, free to edit."""
    target = tmp_path / "gru-update-gate"
    shutil.copytree(GATE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target
