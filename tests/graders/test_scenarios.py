"""graders/scenarios.py and graders/sandbox/scenario.py: the author's steps, the program they
make, and what loading and preparing a scenario exercise refuses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import ExerciseError, load_exercise, prepare_exercise
from graders.exercises.preparation import named_outputs
from graders.messages import translate_message
from graders.sandbox.scenario import (
    NotUpdatedInPlace,
    observed_names,
    read_program,
    resolve_entry,
    run_scenario,
    scenario_entry,
)
from graders.scenarios import (
    SCENARIO_INPUT,
    call,
    construct,
    keep,
    method,
    ref,
    scenario,
    scenario_inputs,
    state,
)
from tests.graders.helpers import edit
from tests.graders.scenario_exercises import AFFINE_SOLUTION, make_adam, make_affine_layer

X, W, B = np.ones((2, 3)), np.ones((3, 4)), np.zeros(4)


def affine_steps() -> list[Any]:
    return [
        call("affine_forward", x=X, w=W, b=B, returns=("out", keep("cache"))),
        call(
            "affine_backward", dout=np.ones((2, 4)), cache=ref("cache"), returns=("dx", "dw", "db")
        ),
    ]


def test_the_steps_become_data_and_their_arguments_named_inputs() -> None:
    inputs = scenario_inputs(affine_steps())
    assert list(inputs) == [
        SCENARIO_INPUT,
        "step 1, affine_forward: x",
        "step 1, affine_forward: w",
        "step 1, affine_forward: b",
        "step 2, affine_backward: dout",
    ]
    program = read_program(inputs[SCENARIO_INPUT])
    assert program[1] == {
        "do": "call",
        "target": "affine_backward",
        "handle": "",
        "args": [["dout", ["input", 3]], ["cache", ["ref", "cache"]]],
        "returns": [["dx", False, True], ["dw", False, True], ["db", False, True]],
        "unpack": True,
        "updates": [],
    }
    assert observed_names(program) == [
        "step 1, affine_forward: out",
        "step 2, affine_backward: dx",
        "step 2, affine_backward: dw",
        "step 2, affine_backward: db",
    ]


def test_a_class_scenario_names_methods_updates_and_state() -> None:
    inputs = scenario_inputs(
        [
            construct("Adam", "opt", lr=0.1),
            method(
                "opt", "step", params=keep("params", {"w": X}), grads={"w": X}, updates=["params"]
            ),
            method("opt", "step", params=ref("params"), grads={"w": X}, updates=["params"]),
            state("opt", "t"),
        ]
    )
    assert observed_names(read_program(inputs[SCENARIO_INPUT])) == [
        # Only calls are numbered, as the learner counts them: the first opt.step is step 1.
        "step 1, opt.step: params",
        "step 2, opt.step: params",
        "opt.t after step 2",
    ]
    # Only the state step's value is an attribute (a None there is no forgotten return).
    declared = named_outputs(read_program(inputs[SCENARIO_INPUT]), ())
    assert [spec.attribute for spec in declared] == [False, False, True]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (
            [call("f", x=ref("cache"), returns="y")],
            "step 1, f: x: ref('cache') names no value kept before this step (kept so far: "
            "nothing); keep it in an earlier step with keep('cache') or correct the name",
        ),
        (
            [method("opt", "step", returns="y")],
            "step 1, opt.step: no object is kept as 'opt' before it",
        ),
        ([state("opt", "t")], "opt.t before any step: no object is kept as 'opt' before it"),
        (
            [call("f", returns=keep("a")), call("g", x=ref("b"), returns="y")],
            "step 2, g: x: ref('b') names no value kept before this step (kept so far: a); "
            "keep it in an earlier step with keep('b') or correct the name",
        ),
        (
            [call("f", returns=keep("a")), call("f", returns=keep("a"))],
            "step 2, f: 'a' is kept twice; give each kept value its own name",
        ),
        (
            [construct("opt", "Opt"), call("f", x=X, updates=["y"])],
            "step 1, f: updates names ['y'], which are not among its arguments (x)",
        ),
        (
            [call("f", rng=np.random.default_rng(1), updates=["rng"])],
            "step 1, f: updates names the generator 'rng'; where the scenario leaves a generator "
            "input is compared with the reference's anyway, after its last step: leave it out "
            "of updates",
        ),
        (
            [call("f", x=X)],
            "a scenario must compare something: name a return, an update or a state",
        ),
        (
            [call("f", x=X, returns=("y", "y"))],
            "a scenario's compared values need different names: ['step 1, f: y', 'step 1, f: y']",
        ),
        ([], "a scenario needs at least one step"),
        (
            call("f", returns="y"),
            "a scenario returns a list of steps (call, construct, method, state)",
        ),
        (
            [call("f", x=keep("a"), returns="y")],
            "step 1, f: x: keep(name, value) as an argument needs a value",
        ),
    ],
)
def test_steps_that_cannot_run_are_refused(steps: Any, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        scenario_inputs(steps)
    assert str(raised.value) == message


def test_the_runner_keeps_handles_and_copies_what_it_observes() -> None:
    namespace: dict[str, Any] = {}
    exec(AFFINE_SOLUTION, namespace)
    runner = resolve_entry(namespace, scenario_entry(["affine_forward", "affine_backward"]))
    inputs = scenario_inputs(affine_steps())
    out, dx, dw, db = runner(*inputs.values())
    np.testing.assert_array_equal(out, X @ W + B)
    np.testing.assert_array_equal(dw, X.T @ np.ones((2, 4)))
    assert dx.shape == X.shape
    np.testing.assert_array_equal(db, [2, 2, 2, 2])


def test_an_exception_names_its_step() -> None:
    def broken(dout: Any, cache: Any) -> None:
        raise ValueError("no")

    entries: dict[str, Callable[..., Any]] = {
        "affine_forward": lambda x, w, b: (x, None),
        "affine_backward": broken,
    }
    with pytest.raises(ValueError) as raised:
        run_scenario(entries, *scenario_inputs(affine_steps()).values())
    assert raised.value.__notes__ == ["in step 2, affine_backward"]


def test_a_wrong_number_of_returned_values_is_said_in_words() -> None:
    entries: dict[str, Callable[..., Any]] = {
        "affine_forward": lambda x, w, b: x,
        "affine_backward": lambda dout, cache: 0,
    }
    with pytest.raises(TypeError) as raised:
        run_scenario(entries, *scenario_inputs(affine_steps()).values())
    assert str(raised.value) == (
        "returned a ndarray where a tuple of 2 values (out, cache) is expected"
    )


def test_a_step_that_returns_nothing_is_told_so() -> None:
    entries: dict[str, Callable[..., Any]] = {
        "affine_forward": lambda x, w, b: None,
        "affine_backward": lambda dout, cache: 0,
    }
    with pytest.raises(TypeError) as raised:
        run_scenario(entries, *scenario_inputs(affine_steps()).values())
    message = str(raised.value)
    assert message == (
        "returned None where a tuple of 2 values (out, cache) is expected; did the function "
        "forget to return?"
    )
    assert translate_message(message, "ja") == (
        "2 個の値（out, cache）のタプルを返すはずが、None を返しました。関数が return を忘れて"
        "いませんか"
    )


def test_the_entries_must_be_defined() -> None:
    with pytest.raises(NameError) as raised:
        resolve_entry({"Adam": int}, scenario_entry(["Adam", "SGD"]))
    assert str(raised.value) == "the code does not define a function or class named 'SGD'"


# --- scenario exercise folders ------------------------------------------------------------


def test_entries_load_as_the_names_the_learner_writes(tmp_path: Path) -> None:
    exercise = load_exercise(make_affine_layer(tmp_path))
    assert exercise.entries == ("affine_forward", "affine_backward")
    assert exercise.entry == "affine_forward, affine_backward"
    assert exercise.sandbox_entry == "scenario:affine_forward,affine_backward"


@pytest.mark.parametrize("entries", ["[]", '["affine-forward"]', '["a", "a"]', '"affine_forward"'])
def test_entries_must_be_different_python_names(tmp_path: Path, entries: str) -> None:
    folder = make_affine_layer(tmp_path)
    edit(
        folder / "exercise.toml",
        'entries = ["affine_forward", "affine_backward"]',
        f"entries = {entries}",
    )
    with pytest.raises(ExerciseError) as raised:
        load_exercise(folder)
    assert str(raised.value) == (
        "affine-layer/exercise.toml: field 'entries' must be a list of different Python names, "
        'such as ["affine_forward", "affine_backward"] or ["Adam"]'
    )


def test_a_step_may_only_call_an_entry(tmp_path: Path) -> None:
    folder = make_affine_layer(tmp_path)
    edit(
        folder / "cases.py",
        'call("affine_forward", x=x, w=w, b=b,',
        'call("helper", x=x, w=w, b=b,',
    )
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    assert str(raised.value) == (
        "affine-layer/cases.py: case 'four examples': step 1 calls 'helper', which is not in "
        "exercise.toml's entries (affine_forward, affine_backward)"
    )


def test_a_scenario_exercise_takes_scenarios_only(tmp_path: Path) -> None:
    folder = make_adam(tmp_path)
    (folder / "cases.py").write_text(
        (folder / "cases.py").read_text()
        + "\nfrom graders.cases import case\n\n\n@case\ndef plain(rng):\n    return {}\n"
    )
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    assert str(raised.value) == (
        "adam/cases.py: case 'plain' is not a scenario, but exercise.toml lists 'entries': "
        "declare every case with @scenario (graders.scenarios)"
    )


def test_the_reference_must_define_every_entry(tmp_path: Path) -> None:
    folder = make_affine_layer(tmp_path)
    edit(folder / "solution.py", "def affine_backward(", "def affine_backward_(")
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    assert str(raised.value) == (
        "affine-layer/solution.py: does not define the function or class 'affine_backward' "
        "named in exercise.toml"
    )


def test_a_reference_that_raises_is_named_with_its_step(tmp_path: Path) -> None:
    folder = make_affine_layer(tmp_path)
    edit(folder / "solution.py", "x.T @ dout", "x @ dout")
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    assert str(raised.value).startswith(
        "affine-layer/solution.py: raised ValueError on case 'four examples': matmul:"
    )
    assert str(raised.value).endswith("(in step 2, affine_backward)")


def test_an_observed_value_is_as_it_was_at_its_step() -> None:
    def forward(x: Any, w: Any, b: Any) -> tuple[Any, Any]:
        out = x @ w + b
        return out, out  # the cache is the output itself

    def backward(dout: Any, cache: Any) -> tuple[Any, Any, Any]:
        cache[...] = 0  # a later step changes what an earlier one returned
        return dout, dout, dout

    entries: dict[str, Callable[..., Any]] = {
        "affine_forward": forward,
        "affine_backward": backward,
    }
    observed = run_scenario(entries, *scenario_inputs(affine_steps()).values())
    np.testing.assert_array_equal(observed[0], X @ W + B)


def test_batch_axes_are_refused_with_the_reason(tmp_path: Path) -> None:
    folder = make_affine_layer(tmp_path)
    edit(
        folder / "cases.py", "@scenario(public=True)", '@scenario(public=True, batch_axes={"x": 0})'
    )
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder), mutant_cache=tmp_path / "cache")
    assert str(raised.value) == (
        "affine-layer/cases.py: raised ValueError: a scenario has no batch_axes: batch "
        "consistency is checked on one-function cases only; let the scenario's steps call the "
        "functions on a batch and on single examples"
    )


def test_a_scenario_taking_a_variant_is_refused_with_the_reason() -> None:
    def five_rows(rng: np.random.Generator, variant: dict[str, float]) -> list[Any]:
        return affine_steps()

    with pytest.raises(ValueError, match="scenario 'five_rows' has a 'variant' parameter, but "):
        scenario(public=True)(five_rows)  # type: ignore[arg-type]


def test_an_updated_argument_is_compared_as_the_call_left_it() -> None:
    # Its arrays changed in place, and a number, which has no place to change, as replaced.
    def in_place(params: dict[str, Any]) -> None:
        params["w"] -= 1.0
        params["steps"] = params["steps"] + 1

    steps = [call("update", params={"w": np.zeros(3), "steps": 0}, updates=["params"])]
    (observed,) = run_scenario({"update": in_place}, *scenario_inputs(steps).values())
    np.testing.assert_array_equal(observed["w"], np.full(3, -1.0))
    assert observed["steps"] == 1


@pytest.mark.parametrize(
    ("update", "where"),
    [
        (lambda params: params.update(w=params["w"] - 1.0), "params['w']"),
        (lambda params: params.pop("w"), "params['w']"),
        (lambda params: params["layer"].update(b=params["layer"]["b"] + 0), "params['layer']['b']"),
        (lambda params: params.update(layer={"b": np.ones(2)}), "params['layer']['b']"),
    ],
    ids=["rebound", "removed", "nested", "new inner dict"],
)
def test_an_array_replaced_in_an_updated_dict_names_the_step_and_the_key(
    update: Callable[[dict[str, Any]], None], where: str
) -> None:
    # The caller (a layer holding its weights) keeps the old array: the update never reaches it.
    params = {"w": np.zeros(3), "layer": {"b": np.zeros(2)}}
    steps = [
        call("other", x=np.ones(1), returns="x"),
        call("update", params=params, updates=["params"]),
    ]
    entries = {"other": lambda x: x, "update": update}
    with pytest.raises(NotUpdatedInPlace) as raised:
        run_scenario(entries, *scenario_inputs(steps).values())
    assert str(raised.value) == f"{where} was replaced by a new array; update it in place"
    assert raised.value.__notes__ == ["in step 2, update"]


def test_an_array_replaced_in_an_updated_list_is_named_by_its_position() -> None:
    def replace_second(weights: list[Any]) -> None:
        weights[0] += 1.0
        weights[1] = weights[1] + 1.0

    steps = [call("update", weights=[np.zeros(2), np.zeros(2)], updates=["weights"])]
    with pytest.raises(NotUpdatedInPlace, match=r"^weights\[1\] was replaced by a new array"):
        run_scenario({"update": replace_second}, *scenario_inputs(steps).values())


def test_refs_inside_a_dict_pass_the_kept_arrays_themselves() -> None:
    # Arrays kept one by one from a call's return, gathered in a dict (and a list, a tuple) of
    # a later call; the in-place update reaches the kept arrays, which a third call reads.
    def make(x: Any) -> tuple[Any, Any]:
        return x * 2, x + 1

    def step(params: dict[str, Any], pair: list[Any], both: tuple[Any, ...], lr: float) -> None:
        assert pair[0] is params["w"] and both[1] is params["b"]
        for value in params.values():
            value -= lr

    steps = [
        call("make", x=np.ones(2), returns=(keep("w"), keep("b"))),
        call(
            "step",
            params={"w": ref("w"), "b": ref("b")},
            pair=[ref("w")],
            both=(ref("w"), ref("b")),
            lr=0.5,
            updates=["params"],
        ),
        call("read", a=ref("w"), returns="w after"),
    ]
    inputs = scenario_inputs(steps)
    assert read_program(inputs[SCENARIO_INPUT])[1]["args"][:2] == [
        ["params", ["dict", [["w", ["ref", "w"]], ["b", ["ref", "b"]]]]],
        ["pair", ["list", [["ref", "w"]]]],
    ]
    assert list(inputs)[1:] == ["step 1, make: x", "step 2, step: lr"]
    entries: dict[str, Callable[..., Any]] = {"make": make, "step": step, "read": lambda a: a}
    params, w_after = run_scenario(entries, *inputs.values())
    assert (params["w"].tolist(), params["b"].tolist(), w_after.tolist()) == (
        [1.5, 1.5],
        [1.5, 1.5],
        [1.5, 1.5],
    )


def test_a_dict_mixing_refs_and_values_names_each_value_by_its_key() -> None:
    first = np.arange(3.0)
    steps = [
        call("make", x=np.ones(2), returns=keep("w")),
        call(
            "step",
            params={"w": ref("w"), "extra": {"b": first, "kept": keep("b", np.zeros(1))}},
            returns="out",
        ),
        call("read", a=ref("b"), returns="b"),
    ]
    inputs = scenario_inputs(steps)
    assert list(inputs)[1:] == [
        "step 1, make: x",
        "step 2, step: params['extra']['b']",
        "step 2, step: params['extra']['kept']",
    ]
    entries = {
        "make": lambda x: x,
        "step": lambda params: params["extra"]["b"],
        "read": lambda a: len(a),
    }
    out, kept = run_scenario(entries, *inputs.values())
    assert (out.tolist(), kept) == ([0.0, 1.0, 2.0], 1)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"w": ref("w")},
            "step 1, step: params['w']: ref('w') names no value kept before this step (kept so "
            "far: nothing); keep it in an earlier step with keep('w') or correct the name",
        ),
        ({(1, 2): ref("w")}, "step 1, step: params: a dict holding refs needs str or int keys"),
    ],
)
def test_refs_inside_a_dict_are_checked_like_arguments(params: Any, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        scenario_inputs([call("step", params=params, returns="out")])
    assert str(raised.value) == message
