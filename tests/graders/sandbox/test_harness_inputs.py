"""graders/sandbox/harness.py: each call gets writable copies of its inputs, containers
included, and an input changed in place is named, inside a list, tuple or dict too; where a
call left each generator argument is reported, as the trusted side computes the reference's."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from graders.exercises.preparation import call_tracked
from graders.sandbox.harness import call, changed_inputs, writable_copy
from graders.sandbox.scenario import resolve_entry, scenario_entry
from graders.sandbox.wire import decode_value, encode_value, generator_state
from graders.scenarios import construct, method, scenario_inputs


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


class Dropout:
    """A layer that keeps the caller's generator and draws from it on each forward pass."""

    def __init__(self, p: float, rng: np.random.Generator) -> None:
        self.p, self.rng = p, rng

    def forward(self, x: np.ndarray) -> np.ndarray:
        return x * (self.rng.random(x.shape) >= self.p)


class CopyingDropout(Dropout):
    """Draws from a copy made once: the caller's generator never moves."""

    def __init__(self, p: float, rng: np.random.Generator) -> None:
        super().__init__(p, copy.deepcopy(rng))


@pytest.mark.parametrize("layer", [Dropout, CopyingDropout])
def test_a_scenario_reports_where_its_steps_left_a_generator(layer: type[Dropout]) -> None:
    inputs = scenario_inputs(
        [
            construct("Dropout", "layer", p=0.5, rng=np.random.default_rng(3)),
            method("layer", "forward", x=np.ones(4), returns="first"),
            method("layer", "forward", x=np.ones(4), returns="second"),
        ]
    )
    function = resolve_entry({"Dropout": layer}, scenario_entry(["Dropout"]))
    names, values = list(inputs), [pristine(value) for value in inputs.values()]
    header, _buffers, raised = call(function, names, values)
    assert raised is None
    # The trusted side's run of the same steps leaves the generator where the sandbox says.
    trusted = call_tracked(function, inputs).generators
    assert header["generators"] == {name: list(state) for name, state in trusted.items()}
    drawn = np.random.default_rng(3)
    drawn.random(8)
    moved = layer is Dropout
    left = generator_state(drawn if moved else np.random.default_rng(3))
    assert header["generators"] == {"layer = Dropout(...): rng": list(left or ())}


def test_a_call_without_generators_reports_none() -> None:
    header, _buffers, _raised = call(lambda x: x, ["x"], [pristine(np.ones(2))])
    assert "generators" not in header
