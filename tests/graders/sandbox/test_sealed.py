"""graders/sandbox/sealed.py: the harness's sealed copies keep the functions and builtins they
had when sealed, whatever is rebound later in the modules."""

from __future__ import annotations

import builtins

import numpy as np
import pytest

from graders.sandbox import harness, repeats, scenario, wire
from graders.sandbox.sealed import seal


@pytest.fixture
def sealed() -> dict[str, object]:
    return seal([wire, repeats, scenario, harness])[-1]


def test_a_rebound_harness_function_changes_nothing_sealed(
    sealed: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    changed_inputs = sealed["changed_inputs"]
    assert callable(changed_inputs)
    monkeypatch.setattr(harness, "unchanged", lambda now, before: True)
    monkeypatch.setattr(harness, "changed_inputs", lambda names, args, pristine: [])
    assert changed_inputs(["x"], [np.ones(2)], [np.zeros(2)]) == ["x"]


def test_a_rebound_builtin_or_library_name_changes_nothing_sealed(
    sealed: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    unchanged, generator_state = sealed["unchanged"], sealed["generator_state"]
    assert callable(unchanged) and callable(generator_state)
    monkeypatch.setattr(builtins, "all", lambda items: True)
    monkeypatch.setattr(np.random, "Generator", object)
    assert not unchanged([np.ones(2)], [np.zeros(2)])
    assert generator_state(np.random.default_rng(1)) is not None
