"""Fixtures shared by the engine's and the service's tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.graders.helpers import GATE


@pytest.fixture
def gate_copy(tmp_path: Path) -> Path:
    """A private copy of exercises/gru-update-gate, free to edit."""
    target = tmp_path / "gru-update-gate"
    shutil.copytree(GATE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture(autouse=True, scope="session")
def the_test_run_keeps_every_core() -> Iterator[None]:
    """A service command run in the test process would keep the whole run on one core
    (``graders.sandbox.cpu_affinity``): slower, and wrong for the tests that count cores."""
    every = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    yield
    if every is not None:
        assert os.sched_getaffinity(0) == every, "a test pinned the test process's threads"
