"""graders/exercises/preparation.py: running an exercise's cases, reference and mistakes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graders.api import Exercise, ExerciseError, PreparedExercise, load_exercise, prepare_exercise
from graders.exercises.preparation import public_inputs
from tests.graders.helpers import (
    GATE_BATCHED,
    GATE_HIDDEN,
    GATE_MISTAKES,
    GATE_PUBLIC,
    edit,
    write,
)
from tests.graders.typed_exercises import make_sgd_step


def prepare_error(path: Path) -> str:
    exercise = load_exercise(path)
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(exercise)
    return str(raised.value)


# --- a good folder ------------------------------------------------------------------------


def test_good_folder_prepares(gate: PreparedExercise) -> None:
    assert [c.name for c in gate.cases] == GATE_PUBLIC + GATE_HIDDEN
    assert [c.name for c in gate.public_cases] == GATE_PUBLIC
    assert [c.name for c in gate.cases if c.spec.batched] == GATE_BATCHED
    assert [c.spec.points for c in gate.cases] == [1, 1, 2, 2, 3, 2, 2, 2, 3, 3, 2, 2, 1]
    example = gate.cases[0]
    assert list(example.inputs) == ["x_t", "h_prev", "W_z", "b_z"]
    np.testing.assert_allclose(
        example.expected, [0.7150421057, 0.4950001667, 0.4378234991], rtol=1e-9
    )
    assert set(GATE_MISTAKES) <= set(example.outputs)
    assert set(GATE_MISTAKES) <= set(gate.candidates)
    np.testing.assert_allclose(example.outputs["one_minus_z"], 1 - example.expected)
    # Every mistake is wrong on the worked example but the overflow and the clipped
    # pre-activation are not (its pre-activations are small).
    assert set(GATE_MISTAKES) & example.table.wrong == set(GATE_MISTAKES) - {
        "clipped_preactivation",
        "overflowing_sigmoid",
    }
    assert example.slice_inputs == ()
    batch_of_two = gate.cases[1]
    assert len(batch_of_two.slice_inputs) == 2
    np.testing.assert_array_equal(batch_of_two.slice_inputs[0]["h_prev"], [0.8, -0.3, 0.5])
    np.testing.assert_array_equal(batch_of_two.slice_inputs[1]["x_t"], [2.0, 1.0])
    assert batch_of_two.slice_inputs[1]["W_z"] is batch_of_two.inputs["W_z"]


def test_preparing_twice_gives_identical_inputs_and_outputs(gate_exercise: Exercise) -> None:
    first, second = prepare_exercise(gate_exercise), prepare_exercise(gate_exercise)
    for a, b in zip(first.cases, second.cases, strict=True):
        for name in a.inputs:
            np.testing.assert_array_equal(a.inputs[name], b.inputs[name])
        np.testing.assert_array_equal(a.expected, b.expected)


def test_public_inputs_are_the_prepared_public_cases_inputs(gate: PreparedExercise) -> None:
    made = public_inputs(gate.exercise)
    assert list(made) == [case.name for case in gate.public_cases]
    for case in gate.public_cases:
        assert set(made[case.name]) == set(case.inputs)
        for name, value in case.inputs.items():
            np.testing.assert_array_equal(made[case.name][name], value)


# --- mistakes -----------------------------------------------------------------------------


def test_mistake_that_raises_on_import(gate_copy: Path) -> None:
    # Loading only reads the HINT; the mistake runs, and fails, when the exercise is prepared.
    write(
        gate_copy / "mistakes" / "broken.py",
        """
        HINT = "x"
        raise ImportError("no such module")
    """,
    )
    assert prepare_error(gate_copy) == (
        "gru-update-gate/mistakes/broken.py: raised ImportError: no such module"
    )


def test_mistake_not_defining_the_entry(gate_copy: Path) -> None:
    write(
        gate_copy / "mistakes" / "renamed.py",
        """
        HINT = "x"
        def gate(x_t, h_prev, W_z, b_z):
            return h_prev
    """,
    )
    assert prepare_error(gate_copy) == (
        "gru-update-gate/mistakes/renamed.py: does not define "
        "the entry function 'update_gate' named in exercise.toml"
    )


# --- cases.py and solution.py -------------------------------------------------------------


def test_cases_module_that_raises(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "BATCH = {", 'raise RuntimeError("unfinished")\nBATCH = {')
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: raised RuntimeError: unfinished")


def test_case_that_raises_names_cases_py_and_the_case(gate_copy: Path) -> None:
    edit(
        gate_copy / "cases.py",
        "    return random_inputs(rng, H=4, D=6, N=8)",
        '    raise ValueError("no batch today")',
    )
    assert prepare_error(gate_copy) == (
        "gru-update-gate/cases.py: case 'batched' raised ValueError: no batch today"
    )


def test_solution_not_defining_the_entry(gate_copy: Path) -> None:
    edit(gate_copy / "solution.py", "def update_gate(", "def the_gate(")
    assert prepare_error(gate_copy) == (
        "gru-update-gate/solution.py: does not define the entry "
        "function 'update_gate' named in exercise.toml"
    )


def test_solution_that_raises_on_a_case(gate_copy: Path) -> None:
    edit(
        gate_copy / "solution.py",
        "    joined = np.concatenate",
        "    if h_prev.shape == (1,):\n        raise ArithmeticError('one unit')\n"
        "    joined = np.concatenate",
    )
    assert prepare_error(gate_copy) == (
        "gru-update-gate/solution.py: raised ArithmeticError on case 'single hidden unit': one unit"
    )


def test_no_public_case(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "public=True", "public=False", count=0)
    assert prepare_error(gate_copy) == (
        "gru-update-gate/cases.py: needs at least one public case (public=True)"
    )


def test_no_cases(gate_copy: Path) -> None:
    write(gate_copy / "cases.py", "import numpy as np\n")
    assert prepare_error(gate_copy) == (
        "gru-update-gate/cases.py: declares no cases; decorate input makers with @case"
    )


def test_duplicate_case_names(gate_copy: Path) -> None:
    with (gate_copy / "cases.py").open("a", encoding="utf-8") as file:
        file.write(
            '\n\n@case(name="batched")\ndef again(rng):\n    return random_inputs(rng, H=2, D=2)\n'
        )
    assert prepare_error(gate_copy) == "gru-update-gate/cases.py: case names must be unique"


def test_batch_axes_naming_an_unknown_input(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", 'BATCH = {"x_t": 0, "h_prev": 0}', 'BATCH = {"x": 0, "h_prev": 0}')
    assert prepare_error(gate_copy) == (
        "gru-update-gate/cases.py: case 'batch of two': batch_axes names unknown input(s) x"
    )


def test_batched_inputs_disagreeing_on_the_batch_size(gate_copy: Path) -> None:
    edit(
        gate_copy / "cases.py",
        "    return random_inputs(rng, H=4, D=6, N=8)",
        "    inputs = random_inputs(rng, H=4, D=6, N=8)\n"
        "    inputs['x_t'] = inputs['x_t'][:7]\n    return inputs",
    )
    # The reference cannot concatenate 8 states with 7 inputs: the author learns which case.
    message = prepare_error(gate_copy)
    assert message.startswith("gru-update-gate/solution.py: raised ValueError on case 'batched'")


# --- what can cross to the sandbox --------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "holds"),
    [
        ("collections.OrderedDict(w=np.ones(2))", "collections.OrderedDict (a subclass of dict)"),
        ("{0: np.ones(2)}", "dict (a dict whose keys are not all strings)"),
        ("[np.ones(2), {1, 2}]", "set"),
        ("np.random.Generator(np.random.MT19937(0))", "numpy.random._generator.Generator"),
    ],
    ids=["ordered-dict", "int-keys", "set-in-list", "mt19937"],
)
def test_an_input_the_sandbox_cannot_receive_is_refused(
    tmp_path: Path, value: str, holds: str
) -> None:
    folder = make_sgd_step(tmp_path)
    edit(folder / "cases.py", '"lr": 0.1', f'"lr": {value}')
    edit(
        folder / "cases.py",
        "from graders.cases import case",
        "import collections\n\nimport numpy as np\n\nfrom graders.cases import case",
    )
    assert prepare_error(folder) == (
        f"sgd-step/cases.py: case 'small layer': input 'lr' cannot be sent to the sandbox: "
        f"it holds {holds}; inputs are arrays, numbers, strings, None, lists, tuples, dicts "
        "with string keys, numpy.random.default_rng generators and functions "
        "(docs/authoring.md: Functions as inputs)"
    )


def test_an_output_no_submission_can_return_is_refused(tmp_path: Path) -> None:
    folder = make_sgd_step(tmp_path)
    edit(folder / "solution.py", "return {", "return {0: 0} or {")
    assert prepare_error(folder) == (
        "sgd-step/solution.py: returns dict (a dict whose keys are not all strings) on case "
        "'small layer', which no submission can return from the sandbox; return arrays, "
        "numbers, strings, None, lists, tuples or dicts with string keys"
    )
