"""Helpers of the engine's tests: paths, exercise-folder editing and golden files."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.checks.compare import DEFAULT_TOLERANCE, Tolerance, compare_array
from graders.checks.error_map import ErrorMap, error_map


def picture_of(
    expected: Any,
    got: Any,
    *,
    batch_axis: int | None = None,
    tags: tuple[str, ...] = (),
    tolerance: Tolerance = DEFAULT_TOLERANCE,
) -> ErrorMap | None:
    """The error map a public test of ``expected`` gets for ``got``: from the values check's
    own deviation, as the judge makes it (None where the check finds none)."""
    found = compare_array(np.asarray(expected), got, tolerance, batch_axis).deviation
    return error_map(found, tags=tags) if found is not None else None


REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
GATE = EXERCISES / "gru-update-gate"
GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN_VARIABLE = "NUMJUDGE_REGEN_GOLDEN"

GATE_PUBLIC = ["numerical example", "batch of two"]
GATE_HIDDEN = [
    "unbatched more units than inputs",
    "unbatched more inputs than units",
    "batched",
    "single hidden unit",
    "batch of one",
    "single hidden unit batched",
    "wide layer",
    "large pre activations",
    "first step zero state",
    "positive bias initialisation",
    "one unit batch as long as the joined input",
]
GATE_BATCHED = [
    "batch of two",
    "batched",
    "batch of one",
    "single hidden unit batched",
    "wide layer",
    "large pre activations",
    "positive bias initialisation",
    "one unit batch as long as the joined input",
]
GATE_MISTAKES = [
    "bias_outside_sigmoid",
    "bias_subtracted",
    "clipped_preactivation",
    "float32_arithmetic",
    "hard_sigmoid",
    "input_first",
    "input_ignored",
    "missing_bias",
    "one_minus_z",
    "overflowing_sigmoid",
    "reshape_not_transpose",
    "scalar_gate",
    "scalar_gate_mean_of_values",
    "state_ignored",
    "tanh_gate",
]
HIDDEN_VALUES = (
    "values: the output differs from the expected one beyond the tolerance "
    "(details are not shown for hidden tests)"
)


def gate_solution() -> str:
    return (GATE / "solution.py").read_text(encoding="utf-8")


def wrapped_solution(body: str) -> str:
    """The reference solution, then ``body`` which may redefine ``update_gate`` using
    ``_reference`` (the reference's own function)."""
    return gate_solution() + "\n\n_reference = update_gate\n\n" + textwrap.dedent(body)


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a file, insisting that ``old`` is there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count if count else -1), encoding="utf-8")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def write_mistake(folder: Path, name: str, text: str) -> None:
    """``mistakes/<name>.py``, and its hint in each translation of the folder (validate asks
    every language of the statement for every hint)."""
    write(folder / "mistakes" / f"{name}.py", text)
    for translation in folder.glob("translation.*.toml"):
        edit(translation, "[hints]\n", f'[hints]\n{name} = "（テスト用のヒント）"\n')


def assert_matches_golden(name: str, data: dict[str, Any]) -> None:
    """Compare ``data`` with ``golden/<name>.json``.

    With ``NUMJUDGE_REGEN_GOLDEN=1`` the file is (re)written first; by default a missing or
    different file fails the test.
    """
    path = GOLDEN / f"{name}.json"
    if os.environ.get(REGEN_VARIABLE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if not path.is_file():
        pytest.fail(f"golden file {path} is missing; run with {REGEN_VARIABLE}=1 to create it")
    assert json.loads(path.read_text(encoding="utf-8")) == data


TINY_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def example(rng):
    return {"x": np.array([1.0, 2.0, 3.0]), "threshold": 1.5}


@case(points=2)
def random_values(rng):
    return {"x": rng.normal(size=10), "threshold": 0.0}
"""


def make_tiny_exercise(
    root: Path, exercise_id: str = "count-above", cases: str = TINY_CASES
) -> Path:
    """A minimal valid exercise whose entry ``count_above(x, threshold)`` returns an int."""
    folder = root / exercise_id
    write(
        folder / "exercise.toml",
        f"""
        id = "{exercise_id}"
        title = "Values above a threshold"
        difficulty = "easy"
        tags = ["counting"]
        entry = "count_above"
    """,
    )
    write(folder / "statement.md", "Write `count_above(x, threshold)`: how many x > threshold.\n")
    write(
        folder / "starter.py",
        """
        def count_above(x, threshold):
            return 0
    """,
    )
    write(
        folder / "solution.py",
        """
        import numpy as np


        def count_above(x, threshold):
            return int(np.sum(x > threshold))
    """,
    )
    write(folder / "cases.py", cases)
    return folder
