"""What an author's file warns (a mistake that takes the mean of an empty cluster on purpose)
changes nothing it gives and is printed nowhere, whatever the process's warning filters: the
same outputs under validate, the service and the tests (graders/exercises/preparation.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test is a fresh interpreter that imports numpy
REPO = Path(__file__).resolve().parents[3]
MISTAKE = REPO / "exercises" / "kmeans-step" / "mistakes" / "empty_cluster_nan.py"
CALL = f"""
from pathlib import Path

import numpy as np
from graders.exercises.preparation import call_entry, entry_function

step = entry_function(Path({str(MISTAKE)!r}), "kmeans_step")
centres, labels = call_entry(step, {{"x": np.zeros((2, 2)), "centres": np.eye(2)}})
print(np.isnan(centres[1]).all(), labels.tolist())
"""


def run(*flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", CALL],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_mistake_that_warns_gives_its_values_and_prints_nothing() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "[0,", "0]"]
    assert "Warning" not in done.stderr, done.stderr


def test_a_process_that_turns_warnings_into_errors_gets_the_same_values() -> None:
    # The engine's filter is added after the interpreter's own ones, so it comes first.
    done = run("-W", "error")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "[0,", "0]"]
