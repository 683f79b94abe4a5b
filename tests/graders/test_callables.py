"""An author's functions as inputs (graders/callables.py): what may be shipped, how it travels
(graders/sandbox/wire.py), how the sandbox re-creates it, and what a learner reads of it."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import ExerciseError, Sandbox, Verdict, grade, load_exercise, prepare_exercise
from graders.callables import NotShippable, input_function, ship_functions
from graders.checks.hidden import NOT_SHOWN
from graders.errors import WireError
from graders.messages import translate_message
from graders.results import Failure
from graders.sandbox.protocol import Ending, Task
from graders.sandbox.wire import decode_value, encode_value, live
from graders.values import FUNCTION_BUILTINS, Foreign, InputFunction
from tests.graders.scenario_exercises import make_scenario_folder
from tests.graders.typed_exercises import make_folder

SCALE = 3.0


def quadratic(x: np.ndarray) -> float:
    """A plain top-level def: shipped."""
    return float(np.sum(x * x))


def scaled(x: np.ndarray, scale: float = 2.0) -> float:
    # A default is part of the source; a comment is not shipped.
    return scale * math.fsum(abs(v) for v in np.ravel(x))


def uses_a_global(x: np.ndarray) -> float:
    return float(SCALE * np.sum(x))


def opens_a_file(x: np.ndarray) -> float:
    return float(len(open("/etc/passwd").read()))


def make_closure(scale: float) -> Callable[[np.ndarray], float]:
    def closure(x: np.ndarray) -> float:
        return float(scale * np.sum(x))

    return closure


def make_nested() -> Callable[[np.ndarray], float]:
    def nested(x: np.ndarray) -> float:
        return float(np.sum(x))

    return nested


@functools.cache
def decorated(x: float) -> float:
    return x


def test_a_plain_def_is_shipped_as_its_source_without_comments_or_annotations() -> None:
    shipped = input_function(scaled)
    assert shipped.name == "scaled"
    assert shipped.source.startswith("def scaled(x, scale=2.0):")
    assert "comment" not in shipped.source and "np.ndarray" not in shipped.source
    assert repr(shipped) == "<function scaled>"
    again = live(shipped)
    assert again(np.array([1.0, -2.0])) == scaled(np.array([1.0, -2.0])) == 6.0
    assert again is not scaled and again.__code__.co_filename == "<function scaled>"


@pytest.mark.parametrize(
    ("function", "why"),
    [
        (lambda x: x, "a lambda"),
        (make_closure(2.0), "closes over names of the function around it"),
        (make_nested(), "make_nested.<locals>.nested is defined inside a function or class"),
        (uses_a_global, "uses_a_global uses SCALE from outside it"),
        (opens_a_file, "opens_a_file uses open from outside it"),
        (decorated, "is not a function written with def"),
        (np.sin, "ufunc is not a function written with def"),
        (functools.partial(scaled, scale=1.0), "partial is not a function written with def"),
    ],
)
def test_what_cannot_be_recreated_from_its_source_alone_is_refused(function: Any, why: str) -> None:
    with pytest.raises(NotShippable, match=why.replace(".", r"\.")):
        input_function(function)


def test_functions_inside_containers_are_shipped_and_recreated() -> None:
    inputs = {"fs": [quadratic, (scaled,)], "named": {"f": quadratic}, "x": np.ones(2)}
    shipped = ship_functions(inputs)
    assert shipped["fs"][0] == InputFunction("quadratic", input_function(quadratic).source)
    assert isinstance(shipped["fs"][1], tuple) and shipped["named"]["f"] == shipped["fs"][0]
    assert shipped["x"] is inputs["x"]
    called = live(shipped)
    assert called["fs"][1][0](np.ones(2)) == 4.0 and called["named"]["f"](np.ones(3)) == 3.0


def test_a_function_crosses_into_the_sandbox_but_never_out_of_it() -> None:
    node = encode_value(input_function(quadratic), [])
    assert node == {"t": "function", "name": "quadratic", "source": node["source"]}
    assert decode_value(node, [], functions=True)(np.full(2, 3.0)) == 18.0
    # What a sandbox sends is decoded without functions: a source never runs on this side.
    hostile = {"t": "function", "name": "f", "source": "import os\nos.system('touch /tmp/x')"}
    for value in (hostile, {"t": "list", "items": [hostile]}):
        with pytest.raises(WireError, match="a function among a sandbox's values"):
            decode_value(value, [])
    with pytest.raises(WireError, match="bad function"):
        decode_value({"t": "function", "name": "not a name", "source": ""}, [], functions=True)


def test_a_recreated_function_has_only_numpy_math_and_pure_builtins() -> None:
    again = live(input_function(quadratic))
    assert sorted(again.__globals__) == [
        "__builtins__",
        "__name__",
        "math",
        "np",
        "numpy",
        "quadratic",
    ]
    assert set(again.__globals__["__builtins__"]) == FUNCTION_BUILTINS
    assert not {"open", "__import__", "eval", "exec", "getattr"} & FUNCTION_BUILTINS


# --- in an exercise ---------------------------------------------------------------------------

SOLUTION = """
import numpy as np


def apply_each(f, x):
    return np.array([f(row) for row in x])
"""

CASES = """
import numpy as np
from graders.cases import case

OFFSET = 1.0


def row_norm(row):
    return float(np.sqrt(np.sum(row * row)))


@case(public=True)
def example(rng):
    return {"f": row_norm, "x": np.array([[3.0, 4.0], [0.0, 1.0]])}


@case(points=2, batch_axes={"x": 0})
def batched(rng):
    return {"f": row_norm, "x": rng.normal(size=(4, 3))}
"""


def apply_each(root: Path, cases: str = CASES, checks: str = "custom_inputs = false") -> Path:
    """``apply_each(f, x)``: f applied to each row of x, a batched case among its cases."""
    return make_folder(root, "apply-each", "apply_each", f"[checks]\n{checks}\n", SOLUTION, cases)


def test_a_function_input_is_prepared_as_data_and_passed_whole_to_each_batch_item(
    tmp_path: Path,
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path)))
    example, batched = prepared.cases
    assert example.inputs["f"] == InputFunction("row_norm", example.inputs["f"].source)
    np.testing.assert_allclose(example.expected, [5.0, 1.0])
    assert [item["f"] for item in batched.slice_inputs] == [batched.inputs["f"]] * 4


@pytest.mark.parametrize(
    ("before", "after", "why"),
    [
        ("def row_norm(row):", "def row_norm(row):\n    row = row + OFFSET", "uses OFFSET"),
        ('"f": row_norm, "x": np.array', '"f": lambda r: 1.0, "x": np.array', "a lambda"),
    ],
)
def test_validate_refuses_a_function_the_sandbox_cannot_recreate(
    tmp_path: Path, before: str, after: str, why: str
) -> None:
    folder = apply_each(tmp_path, CASES.replace(before, after, 1))
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder))
    assert "case 'example': input 'f' cannot be sent to the sandbox" in str(raised.value)
    assert why in str(raised.value) and "plain top-level def" in str(raised.value)


def test_validate_refuses_custom_inputs_beside_a_function_input(tmp_path: Path) -> None:
    with pytest.raises(ExerciseError, match=r"set \[checks\] custom_inputs = false"):
        prepare_exercise(load_exercise(apply_each(tmp_path, checks="")))


@pytest.mark.slow
def test_the_sandbox_recreates_the_function_and_grades_with_it(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path)))
    assert grade(prepared, SOLUTION, sandbox).verdict is Verdict.PASSED
    # Calling it as a learner's code would: the source names only what was shipped with it.
    probe = """
def apply_each(f, x):
    return [sorted(f.__globals__), f.__code__.co_filename, f.__name__]
"""
    result = sandbox.run(
        probe,
        "apply_each",
        [Task(tuple(prepared.cases[0].inputs), tuple(prepared.cases[0].inputs.values()))],
    )
    assert result.ending is Ending.COMPLETED
    assert result.outcomes[0].value == [
        ["__builtins__", "__name__", "math", "np", "numpy", "row_norm"],
        "<function row_norm>",
        "row_norm",
    ]


@pytest.mark.slow
def test_a_learner_cannot_send_a_function_back_or_change_what_is_judged(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path)))
    returned = sandbox.run(
        "def apply_each(f, x):\n    return f\n",
        "apply_each",
        [Task(tuple(prepared.cases[0].inputs), tuple(prepared.cases[0].inputs.values()))],
    )
    assert isinstance(returned.outcomes[0].value, Foreign)
    # Rewriting the function it was given changes that call's answers, nothing judged here.
    rewrites = """
import numpy as np


def apply_each(f, x):
    f.__code__ = (lambda row: 0.0).__code__
    return np.array([f(row) for row in x])
"""
    report = grade(prepared, rewrites, sandbox)
    assert report.verdict is Verdict.FAILED
    assert prepared.cases[0].expected.tolist() == [5.0, 1.0]


@pytest.mark.slow
def test_a_learner_reads_the_function_by_name_and_a_hidden_test_shows_nothing_of_it(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path)))
    broken = """
import numpy as np


def apply_each(f, x):
    return np.array([f(row.reshape(3, -1)) for row in x]) + f('a')
"""
    report = grade(prepared, broken, sandbox)
    public, hidden = report.tests
    assert "(in <function row_norm>)" not in public.message  # the reshape raised first
    assert "this case's inputs have shapes x (2, 2), and the function f = <function row_norm>" in (
        public.message
    )
    assert "row_norm" not in hidden.message and "sqrt" not in hidden.message
    assert all("sqrt" not in text for text in report.hidden_messages.values())
    raises_inside = "def apply_each(f, x):\n    return f('a')\n"
    (public, _) = grade(prepared, raises_inside, sandbox).tests
    assert public.message.endswith("(in <function row_norm>)"), public.message


SCENARIO_SOLUTION = """
import numpy as np


def descend(f, x, lr):
    step = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = 1e-6
        step.flat[i] = (f(x + e) - f(x - e)) / 2e-6
    return x - lr * step


def value(f, x):
    return f(x)
"""

SCENARIO_CASES = """
import numpy as np
from graders.scenarios import call, keep, ref, scenario


def bowl(x):
    return float(np.sum((x - 1.0) ** 2))


@scenario(public=True)
def two_steps(rng):
    return [
        call("descend", f=bowl, x=np.zeros(3), lr=0.25, returns=keep("x1")),
        call("value", f=bowl, x=ref("x1"), returns="after"),
    ]
"""


@pytest.mark.slow
def test_a_scenario_step_passes_a_function(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_scenario_folder(
        tmp_path,
        "descend",
        ["descend", "value"],
        SCENARIO_SOLUTION,
        SCENARIO_CASES,
        {},
        "def descend(f, x, lr):\n    return x\n\n\ndef value(f, x):\n    return 0.0\n",
        {},
    )
    prepared = prepare_exercise(load_exercise(folder))
    assert prepared.cases[0].expected == pytest.approx([0.75])
    assert grade(prepared, SCENARIO_SOLUTION, sandbox).verdict is Verdict.PASSED


# --- counting the calls of an input function (@case(calls=)) ----------------------------------

COUNTED_CASES = CASES.replace(
    "@case(public=True)",
    "def one_per_row(inputs):\n    return inputs['x'].shape[0]\n\n\n"
    "@case(public=True, calls={'f': one_per_row})",
).replace("@case(points=2,", "@case(points=2, calls={'f': one_per_row},")
EXTRA_CALL = SOLUTION.replace("for row in x])", "for row in x]) + 0.0 * f(x[0])")
BY_NAME = """
import numpy as np


def apply_each(f, x):
    if f.__name__ == "row_norm":
        return np.sqrt(np.sum(x * x, axis=1))
    return np.array([f(row) for row in x])
"""


@pytest.mark.slow
def test_each_call_of_the_entry_counts_its_own_calls_of_each_function_input(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path, COUNTED_CASES)))
    batched = prepared.cases[1]
    item = batched.slice_inputs[0]
    tasks = [
        Task(tuple(batched.inputs), tuple(batched.inputs.values())),
        Task(tuple(item), tuple(item.values())),
        Task(("x",), (np.zeros((2, 2)),)),
    ]
    run = sandbox.run("def apply_each(f, x):\n    return [f(r) for r in x]\n", "apply_each", tasks)
    # The main call's four rows, then the batch item's one row, counted apart; no function
    # input, no count.
    assert [run.outcomes[i].calls for i in range(2)] == [{"f": 4}, {"f": 1}]
    assert run.outcomes[2].ok is False and run.outcomes[2].calls == {}
    # Batched, and its batch items counted per call: the right count passes every case.
    assert grade(prepared, SOLUTION, sandbox).verdict is Verdict.PASSED


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "called"), [(EXTRA_CALL, "was called 3 times"), (BY_NAME, "was called 0 times")]
)
def test_another_number_of_calls_fails_saying_how_many_and_a_hidden_test_only_its_category(
    tmp_path: Path, sandbox: Sandbox, code: str, called: str
) -> None:
    prepared = prepare_exercise(load_exercise(apply_each(tmp_path, COUNTED_CASES)))
    report = grade(prepared, code, sandbox)
    public, hidden = report.tests
    assert report.verdict is Verdict.FAILED and report.score == 0
    assert (public.failure, hidden.failure) == (Failure.PROPERTY, Failure.PROPERTY)
    assert public.message == (f"calls: f {called}, where the statement asks for 2 ('one per row')")
    assert hidden.message == "property: the output fails a check of this test" + NOT_SHOWN
    assert report.hidden_messages[hidden.name].startswith("calls: f was called ")
    assert translate_message(public.message, "ja") == (
        f"呼び出し回数：f が {called.split()[2]} 回呼ばれました。問題文が求めるのは 2 回です"
        "（「one per row」）"
    )


def test_validate_refuses_a_count_of_an_input_that_is_no_function_or_an_unnamed_count(
    tmp_path: Path,
) -> None:
    on_x = COUNTED_CASES.replace("@case(public=True, calls={'f'", "@case(public=True, calls={'x'")
    with pytest.raises(ExerciseError, match=r"calls= names input\(s\) x, which are not functions"):
        prepare_exercise(load_exercise(apply_each(tmp_path / "x", on_x)))
    unnamed = COUNTED_CASES.replace("calls={'f': one_per_row})", "calls={'f': lambda i: 2})")
    with pytest.raises(ExerciseError, match="calls= counts must be named functions"):
        prepare_exercise(load_exercise(apply_each(tmp_path / "lambda", unnamed)))
