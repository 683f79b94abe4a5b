"""Fixtures shared by the engine's and the service's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.graders.helpers import GATE


@pytest.fixture
def gate_copy(tmp_path: Path) -> Path:
    """A private copy of exercises/gru-update-gate, free to edit."""
    target = tmp_path / "gru-update-gate"
    shutil.copytree(GATE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target
