"""What one try of custom inputs holds on the trusted side at its peak, measured with
``tracemalloc`` (numpy's arrays count there): its inputs and their encoding, its two outputs,
their comparison and the error's picture together, within ``try_memory_bound``."""

from __future__ import annotations

import tracemalloc

import pytest

from graders.api import PreparedExercise, Sandbox, load_exercise, prepare_exercise
from graders.custom.trying import (
    MAX_OUTPUT_BYTES,
    TryReport,
    TryStatus,
    max_input_bytes,
    try_inputs,
    try_memory_bound,
)
from graders.errors import CustomInputRefused, TryOutputTooLarge
from tests.graders.helpers import EXERCISES

pytestmark = pytest.mark.slow

REFERENCE = (EXERCISES / "pairwise-distances" / "solution.py").read_text()
SLIGHTLY_OFF = REFERENCE.replace("return np.sqrt(", "return 1e-3 + np.sqrt(")
# Small inputs, an output of n × m elements: about 45 KB charged, 63 MB returned.
TALL = {"X": "np.zeros((2800, 1))", "Y": "np.ones((2800, 1))"}
# The largest square distance matrix under the cap: 8 bytes an element, and some bytes of the
# frame's header.
SIDE = 360
FITS = {"X": f"np.zeros(({SIDE}, 1))", "Y": f"np.ones(({SIDE}, 1))"}


@pytest.fixture(scope="module")
def distances() -> PreparedExercise:
    return prepare_exercise(load_exercise(EXERCISES / "pairwise-distances"))


def peak_of_try(
    prepared: PreparedExercise, code: str, inputs: dict[str, str], sandbox: Sandbox
) -> tuple[TryReport | CustomInputRefused, int]:
    """What the try answered or raised, and the peak bytes it held on the trusted side."""
    tracemalloc.start()
    try:
        try:
            answer: TryReport | CustomInputRefused = try_inputs(prepared, code, inputs, sandbox)
        except CustomInputRefused as exc:
            answer = exc
        return answer, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("code", [REFERENCE, SLIGHTLY_OFF], ids=["reference", "slightly off"])
def test_outputs_past_the_cap_are_refused_before_they_are_held(
    distances: PreparedExercise, sandbox: Sandbox, code: str
) -> None:
    answer, peak = peak_of_try(distances, code, TALL, sandbox)

    assert peak <= try_memory_bound(distances)  # 247 MiB, 419 MiB before: 136 MiB
    assert isinstance(answer, CustomInputRefused)
    assert str(answer) == (
        "the reference's output for these inputs is too large for a try: a try's outputs "
        "may be at most 1 MiB each (choose smaller inputs)"
    )


def test_a_try_at_the_cap_compares_and_pictures_within_the_bound(
    distances: PreparedExercise, sandbox: Sandbox
) -> None:
    answer, peak = peak_of_try(distances, SLIGHTLY_OFF, FITS, sandbox)

    assert isinstance(answer, TryReport), answer
    assert answer.status is TryStatus.DIFFERENT
    assert answer.error_map is not None
    assert SIDE * SIDE * 8 <= MAX_OUTPUT_BYTES
    assert peak <= try_memory_bound(distances)


def test_a_learners_output_past_the_cap_is_refused_with_the_cpu_its_calls_took(
    distances: PreparedExercise, sandbox: Sandbox
) -> None:
    too_large = (
        "import numpy as np\n\ndef pairwise_distances(X, Y):\n    return np.ones((600, 600))\n"
    )
    with pytest.raises(TryOutputTooLarge) as refused:
        try_inputs(distances, too_large, {"X": "np.zeros((2, 1))", "Y": "np.ones((2, 1))"}, sandbox)

    assert str(refused.value) == (
        "your code's output for these inputs is too large for a try: a try's outputs may be "
        "at most 1 MiB each"
    )
    assert refused.value.sandbox_cpu_s > 0  # both calls', which the learner's budget counts


def test_the_bound_is_the_inputs_cap_and_a_few_outputs(distances: PreparedExercise) -> None:
    assert try_memory_bound(distances) == 2 * max_input_bytes(distances) + 8 * MAX_OUTPUT_BYTES
    assert try_memory_bound(distances) == 136 * 2**20  # 512 MB: 64 MiB of inputs, 1 MiB outputs


def test_inputs_at_their_cap_are_held_twice_at_most(
    distances: PreparedExercise, sandbox: Sandbox
) -> None:
    # 64 MB of inputs, below the 64 MiB cap; a 1 × 1 output.
    at_the_cap = {"X": "np.zeros((1, 4000000))", "Y": "np.ones((1, 4000000))"}
    answer, peak = peak_of_try(distances, SLIGHTLY_OFF, at_the_cap, sandbox)

    assert isinstance(answer, TryReport), answer
    assert answer.status is TryStatus.DIFFERENT
    assert peak <= try_memory_bound(distances)
