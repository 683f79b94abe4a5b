"""graders/sandbox/harness.py: each call gets writable copies of its inputs, containers
included, and an input changed in place is named, inside a list, tuple or dict too."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graders.sandbox.harness import changed_inputs, writable_copy
from graders.sandbox.wire import decode_value, encode_value


def pristine(value: Any) -> Any:
    """``value`` as the harness holds it: decoded from the wire, its arrays read-only."""
    buffers: list[bytes | memoryview] = []
    node = encode_value(value, buffers)
    return decode_value(node, [memoryview(bytes(b)) for b in buffers])


def test_containers_of_arrays_are_copied_writable() -> None:
    before = pristine({"w": np.ones(2), "layers": [np.zeros(3), (np.ones(1),)]})
    assert not before["w"].flags.writeable
    copied = writable_copy(before)
    copied["w"][0] = 5
    copied["layers"][0][0] = 5
    copied["layers"][1][0][0] = 5
    assert before["w"][0] == 1 and before["layers"][0][0] == 0


def test_a_generator_is_copied_so_that_each_call_draws_the_same_numbers() -> None:
    before = pristine(np.random.default_rng(3))
    first, second = writable_copy(before), writable_copy(before)
    assert first.random() == second.random()


def change_entry(value: dict[str, Any]) -> None:
    value["w"] += 1


def replace_entry(value: dict[str, Any]) -> None:
    value["w"] = np.ones(2)


def add_entry(value: dict[str, Any]) -> None:
    value["v"] = np.zeros(2)


def drop_entry(value: dict[str, Any]) -> None:
    del value["b"]


def change_in_list(value: dict[str, Any]) -> None:
    value["layers"][0][0] = 9


def change_in_tuple(value: dict[str, Any]) -> None:
    value["layers"][1][0][0] = 9


def swap_for_hostile(value: dict[str, Any]) -> None:
    class Hostile(np.ndarray):
        def tobytes(self, *args: Any, **kwargs: Any) -> bytes:
            raise AssertionError("the learner's method ran")

    value["w"] = value["w"].view(Hostile)


@pytest.mark.parametrize(
    "change",
    [
        change_entry,
        replace_entry,
        add_entry,
        drop_entry,
        change_in_list,
        change_in_tuple,
        swap_for_hostile,
    ],
)
def test_a_change_inside_a_container_is_named(change: Any) -> None:
    before = pristine({"w": np.zeros(2), "b": np.zeros(1), "layers": [np.zeros(3), (np.zeros(1),)]})
    args = [writable_copy(before), writable_copy(before)]
    change(args[0])
    assert changed_inputs(["params", "grads"], args, [before, before]) == ["params"]


def test_an_untouched_container_and_a_drawn_generator_are_unchanged() -> None:
    before = [pristine({"w": np.zeros(2), "n": [1, None]}), pristine(np.random.default_rng(0))]
    args = [writable_copy(value) for value in before]
    args[1].random(5)
    assert changed_inputs(["params", "rng"], args, before) == []
