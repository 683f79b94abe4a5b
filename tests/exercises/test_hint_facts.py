"""Hints say what the output shows: the direction and size of an error a hint states are the
ones its mistake's output has, and a hint names no function the learner may not have called.

Each fact is computed from the mistake's own code against the reference on a case's inputs,
so a hint that says "too large" where the values are too small fails here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_layer_norms_ddof_hint_says_the_values_are_too_small_by_the_factor_they_are() -> None:
    folder = EXERCISES / "layer-norm"
    mistake = load(folder / "mistakes/unbiased_variance.py")
    reference = load(folder / "solution.py")
    rng = np.random.default_rng(0)
    x, D = rng.normal(size=(5, 4)), 4
    identity: dict[str, Any] = {"gamma": np.ones(D), "beta": np.zeros(D), "eps": 0.0}
    ratio = mistake.layer_norm(x, **identity) / reference.layer_norm(x, **identity)
    np.testing.assert_allclose(ratio, np.sqrt((D - 1) / D))
    assert "too small" in mistake.HINT and "0.87 for D = 4" in mistake.HINT
    assert "too large" not in mistake.HINT


def test_top_k_hints_name_no_call_and_the_reference_ranks_the_most_negative_integer_last() -> None:
    folder = EXERCISES / "top-k-indices"
    for path in sorted((folder / "mistakes").glob("*.py")):
        hint = load(path).HINT
        assert "argpartition" not in hint, path.name  # an unstable argsort gets the same hint
    reference = load(folder / "solution.py")
    lowest = np.iinfo(np.int64).min
    x = np.array([[3, lowest, -1, 7]])
    assert reference.top_k_indices(x, 4).tolist() == [[3, 0, 2, 1]]
    assert load(folder / "mistakes/negation_overflows.py").top_k_indices(x, 1).tolist() == [[1]]
