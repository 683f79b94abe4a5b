"""make_trustworthy: every text a sandbox sent is cleaned, whichever field carries it, and an
outcome without text is left as it came (the common hidden call)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import Ending, RunResult, TaskOutcome
from graders.sandbox.untrusted import make_trustworthy
from graders.values import Foreign

LONE = "\ud800"
ERROR = {"type": "E" + LONE, "message": "m", "line": 3, "traceback": "t"}
FIELDS: dict[str, dict[str, Any]] = {
    "a text value": {"value": "v" + LONE},
    "a foreign value": {"value": Foreign("dict" + LONE, "d")},
    "a tuple holding text": {"value": (np.zeros(2), "x" + LONE)},
    "a list holding text": {"value": [1.0, "x" + LONE]},
    "an error": {"ok": False, "error": ERROR},
    "printed text": {"stdout": "p" + LONE},
    "a changed input's name": {"mutated": ("h" + LONE,)},
    "a warning": {"warnings": ("RuntimeWarning: " + LONE,), "warned": True},
}


def trustworthy(outcome: TaskOutcome) -> TaskOutcome:
    result = RunResult(Ending.COMPLETED, outcomes={0: outcome})
    make_trustworthy(result, SandboxLimits())
    return result.outcomes[0]


def texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Foreign):
        return [value.type_name, value.detail]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts(item)]
    if isinstance(value, tuple | list):
        return [text for item in value for text in texts(item)]
    return []


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_a_lone_surrogate_is_replaced_in_every_field(field: str) -> None:
    fields: dict[str, Any] = {"ok": True, "value": np.ones(3)} | FIELDS[field]
    cleaned = trustworthy(TaskOutcome(**fields))
    found = texts([cleaned.value, cleaned.error, cleaned.stdout, cleaned.mutated, cleaned.warnings])
    assert found, "the field's text was dropped instead of cleaned"
    assert all(LONE not in text for text in found)
    assert any("\ufffd" in text for text in found)


def test_an_outcome_without_text_is_kept_as_it_came() -> None:
    value = np.arange(4.0)
    outcome = TaskOutcome(ok=True, value=value, warned=False)
    assert trustworthy(outcome) is outcome
