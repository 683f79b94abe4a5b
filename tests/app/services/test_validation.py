"""The Validate page's service: results are checked in the background and never waited for,
one folder can be checked at once, and an edit is a new version to check."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.services.validation import ValidationState, validate_one, validation_views
from tests.graders.helpers import edit, make_tiny_exercise

DEADLINE_S = 300  # a completion deadline on a busy host, not a speed goal


def settled(root: Path) -> list[ValidationState]:
    deadline = time.monotonic() + DEADLINE_S
    while True:
        states = [view.state for view in validation_views(root)]
        if ValidationState.PENDING not in states or time.monotonic() > deadline:
            return states
        time.sleep(0.2)


@pytest.mark.slow  # checks in a real sandbox, in the background, and polls
def test_the_catalog_is_checked_in_the_background_and_one_folder_at_once(tmp_path: Path) -> None:
    root = tmp_path / "exercises"
    folder = make_tiny_exercise(root)
    broken = make_tiny_exercise(root, "count-below")
    (broken / "starter.py").unlink()

    first = validation_views(root)  # answers at once
    assert [(v.id, v.state) for v in first] == [
        ("count-above", ValidationState.PENDING),
        ("count-below", ValidationState.PENDING),
    ]
    assert settled(root) == [ValidationState.VALID, ValidationState.PROBLEMS]
    views = validation_views(root)
    assert views[0].output.startswith("ok   count-above")
    assert "starter.py" in views[1].output

    edit(folder / "cases.py", "1.5", "2.5")  # a new version: pending until checked again
    assert validation_views(root)[0].state is ValidationState.PENDING
    one = validate_one(root, "count-above")
    assert one is not None and one.state is ValidationState.VALID
    assert validation_views(root)[0] == one
    assert validate_one(root, "no-such-exercise") is None
