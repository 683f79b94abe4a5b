"""Scenario cases graded in a real sandbox: the affine layer (two functions and the learner's
own cache) and the Adam class (a method updating dicts in place, state read after the steps);
messages naming each step and output, hidden tests telling nothing more than a category."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from graders.api import (
    Failure,
    GradeReport,
    PreparedExercise,
    Sandbox,
    Status,
    Verdict,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.authoring.validation import validate_folder
from graders.messages import translate_message
from tests.graders.helpers import REPO
from tests.graders.scenario_exercises import (
    ADAM_CASES,
    ADAM_SOLUTION,
    AFFINE_CASES,
    AFFINE_SOLUTION,
    SGD_CASES,
    SGD_SOLUTION,
    make_adam,
    make_affine_layer,
    make_scenario_folder,
    make_sgd,
)


@pytest.fixture(scope="module")
def affine(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_affine_layer(tmp_path_factory.mktemp("ex"))))


@pytest.fixture(scope="module")
def adam(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_adam(tmp_path_factory.mktemp("ex"))))


def graded(prepared: PreparedExercise, code: str, sandbox: Sandbox) -> GradeReport:
    return grade(prepared, textwrap.dedent(code), sandbox)


def messages(report: GradeReport) -> dict[str, str]:
    return {test.name: test.message for test in report.tests}


def failures(report: GradeReport) -> dict[str, Failure | None]:
    return {test.name: test.failure for test in report.tests}


@pytest.mark.parametrize(
    ("make", "solution"),
    [(make_affine_layer, AFFINE_SOLUTION), (make_adam, ADAM_SOLUTION), (make_sgd, SGD_SOLUTION)],
    ids=["affine", "adam", "sgd"],
)
def test_the_folders_validate_with_their_samples(
    make: Callable[[Path], Path], solution: str, tmp_path: Path, sandbox: Sandbox
) -> None:
    result = validate_folder(make(tmp_path), sandbox)
    assert result.problems == []
    assert result.notes[1].startswith("mutation score 100% ("), result.notes
    assert result.notes[2] == "2 sample(s)"


def test_the_reference_passes(affine: PreparedExercise, sandbox: Sandbox) -> None:
    report = graded(affine, AFFINE_SOLUTION, sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)


def test_a_transposed_gradient_is_named_by_its_step_and_output(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    report = graded(affine, AFFINE_SOLUTION.replace("x.T @ dout", "dout.T @ x"), sandbox)
    assert messages(report) == {
        "four examples": "step 2, affine_backward: dw: shape: expected (5, 3), got (3, 5): "
        "transposed; with the axes in the expected order the values are right",
        "one example": "shape: the output does not have the expected shape "
        "(details are not shown for hidden tests)",
        "two layers backward in reverse": "shape: the output does not have the expected "
        "shape (details are not shown for hidden tests)",
    }
    assert report.diagnosis is not None and report.diagnosis.key == "transposed_dw"


def test_a_cache_kept_in_a_global_fails_where_two_caches_live_at_once(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
        CACHE = {}

        def affine_forward(x, w, b):
            CACHE["last"] = (x, w)
            return x @ w + b, None

        def affine_backward(dout, cache):
            x, w = CACHE["last"]
            return dout @ w.T, x.T @ dout, dout.sum(axis=0)
        """
    report = graded(affine, code, sandbox)
    assert [(t.name, t.status) for t in report.tests] == [
        ("four examples", Status.PASSED),
        ("one example", Status.PASSED),
        ("two layers backward in reverse", Status.ERROR),
    ]
    assert messages(report)["two layers backward in reverse"] == (
        "raised an exception (details are not shown for hidden tests)"
    )


def test_an_input_changed_in_place_is_named_by_its_step(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
        def affine_forward(x, w, b):
            out, cache = x @ w + b, (x.copy(), w)
            x[...] = 0
            return out, cache

        def affine_backward(dout, cache):
            x, w = cache
            return dout @ w.T, x.T @ dout, dout.sum(axis=0)
        """
    report = graded(affine, code, sandbox)
    assert messages(report)["four examples"] == (
        "inputs: changed in place, which the statement does not ask for: step 1, "
        "affine_forward: x; work on a copy (e.g. x = x.copy()) or build new arrays"
    )
    assert set(failures(report).values()) == {Failure.CHANGED_INPUT}


def test_a_missing_output_says_which_step_returned_what(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    code = AFFINE_SOLUTION.replace(", dout.sum(axis=0)", "")
    report = graded(affine, code, sandbox)
    # The learner raised nothing: the test fails as a wrong type, hidden ones say so too.
    public = messages(report)["four examples"]
    assert public == (
        "step 2, affine_backward: returned a tuple of 2 where a tuple of 3 values (dx, dw, db) "
        "is expected"
    )
    assert translate_message(public, "ja") == (
        "step 2, affine_backward：3 個の値（dx, dw, db）のタプルを返すはずが、"
        "要素 2 個の tuple を返しました"
    )
    assert {(t.status, t.failure) for t in report.tests} == {(Status.FAILED, Failure.WRONG_TYPE)}
    hidden = [t.message for t in report.tests if t.name != "four examples"]
    assert hidden and all(m.startswith("type: the output is not of") for m in hidden), hidden


def test_a_missing_function_is_named(affine: PreparedExercise, sandbox: Sandbox) -> None:
    report = graded(affine, "def affine_forward(x, w, b):\n    return x, None\n", sandbox)
    assert report.verdict is Verdict.ERROR
    assert report.message == (
        "Your code could not be loaded: raised NameError: the code does not define a "
        "function or class named 'affine_backward'"
    )


def test_adam_passes_and_an_alternative_passes(adam: PreparedExercise, sandbox: Sandbox) -> None:
    assert graded(adam, ADAM_SOLUTION, sandbox).verdict is Verdict.PASSED


def test_updated_dicts_are_compared_key_by_key_after_each_step(
    adam: PreparedExercise, sandbox: Sandbox
) -> None:
    code = ADAM_SOLUTION.replace(" / (1 - self.beta1**self.t)", "").replace(
        " / (1 - self.beta2**self.t)", ""
    )
    report = graded(adam, code, sandbox)
    public = messages(report)["two steps"]
    assert public.startswith("step 1, opt.step: params: w: values: 6 of 6 elements"), public
    assert report.diagnosis is not None and report.diagnosis.key == "no_bias_correction"
    assert set(failures(report).values()) == {Failure.VALUES}


def test_state_is_read_after_the_steps(adam: PreparedExercise, sandbox: Sandbox) -> None:
    report = graded(adam, ADAM_SOLUTION.replace("self.t = 0\n", "self.t = 0.0\n"), sandbox)
    assert (
        messages(report)["two steps"]
        == "opt.t after step 2: type: expected an integer, got float 2"
    )


def test_a_gradient_changed_in_place_fails_while_params_may_change(
    adam: PreparedExercise, sandbox: Sandbox
) -> None:
    code = ADAM_SOLUTION.replace(
        "(np.sqrt(v_hat) + self.eps)", "(np.sqrt(v_hat) + self.eps)\n            grad[...] = 0"
    )
    report = graded(adam, code, sandbox)
    assert messages(report)["two steps"].startswith(
        "inputs: changed in place, which the statement does not ask for: step 1, opt.step: "
        "grads; step 2, opt.step: grads; work on a copy"
    ), messages(report)


def test_objects_share_no_state_unless_the_code_makes_them(
    adam: PreparedExercise, sandbox: Sandbox
) -> None:
    # Moments on the class, shared by every optimiser: the next object starts from the last
    # one's, and two at once see each other's.
    code = (
        ADAM_SOLUTION.replace("self.m = {}\n", "")
        .replace("self.v = {}\n", "")
        .replace("class Adam:\n", "class Adam:\n    m = {}\n    v = {}\n\n")
    )
    report = graded(adam, code, sandbox)
    assert [(t.name, t.status) for t in report.tests] == [
        ("two steps", Status.PASSED),
        ("five steps", Status.FAILED),
        ("two optimisers", Status.FAILED),
    ]


def guide_section(title: str) -> str:
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    return guide.split(f"### {title}\n")[1].split("\n## ")[0].split("\n### ")[0]


def test_the_guides_affine_example_is_the_fixture(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    section = guide_section("A forward and a backward function with the learner's cache")
    solution, cases, public, hidden = re.findall(r"```\w*\n(.*?)```", section, re.S)
    assert solution.removeprefix("# solution.py\n").strip() == AFFINE_SOLUTION.strip()
    assert cases.removeprefix("# cases.py\n").strip() == AFFINE_CASES.strip()
    report = graded(affine, AFFINE_SOLUTION.replace("x.T @ dout", "dout.T @ x"), sandbox)
    assert messages(report)["four examples"] == public.strip()
    assert messages(report)["one example"] == hidden.strip()
    assert report.diagnosis is not None
    assert f'"{report.diagnosis.hint}"' in " ".join(section.split())


def test_the_guides_adam_example_is_the_fixture(adam: PreparedExercise, sandbox: Sandbox) -> None:
    section = guide_section("A class whose method updates dicts in place")
    solution, cases, public = re.findall(r"```\w*\n(.*?)```", section, re.S)
    assert solution.removeprefix("# solution.py\n").strip() == ADAM_SOLUTION.strip()
    assert cases.removeprefix("# cases.py\n").strip() == ADAM_CASES.strip()
    code = ADAM_SOLUTION.replace(" / (1 - self.beta1**self.t)", "").replace(
        " / (1 - self.beta2**self.t)", ""
    )
    report = graded(adam, code, sandbox)
    assert messages(report)["two steps"] == public.strip()
    assert f"`{messages(report)['five steps']}`" in " ".join(section.split())
    assert report.diagnosis is not None
    assert f'"{report.diagnosis.hint}"' in " ".join(section.split())


def test_a_warning_in_a_step_is_noted_on_the_public_test(
    affine: PreparedExercise, sandbox: Sandbox
) -> None:
    code = AFFINE_SOLUTION.replace(
        "    return x @ w + b, (x, w)", "    np.exp(1000.0)\n    return x @ w + b, (x, w)"
    )
    report = graded(affine, code, sandbox)
    assert report.verdict is Verdict.PASSED
    assert messages(report)["four examples"] == (
        "warning: RuntimeWarning: overflow encountered in exp (line 6, in affine_forward)"
    )


CELL_SOLUTION = """
import numpy as np


class Cell:
    def __init__(self, w_x, w_h):
        self.w_x, self.w_h = w_x, w_h
        self.h = None

    def reset(self, batch):
        self.h = np.zeros((batch, self.w_h.shape[0]))

    def step(self, x):
        self.h = np.tanh(x @ self.w_x + self.h @ self.w_h)
        return self.h
"""

CELL_CASES = """
from graders.scenarios import construct, method, scenario


@scenario(public=True)
def two_sequences(rng):
    w_x, w_h = rng.normal(size=(3, 4)), rng.normal(size=(4, 4))
    return [
        construct("Cell", "cell", w_x=w_x, w_h=w_h),
        method("cell", "reset", batch=2),
        method("cell", "step", x=rng.normal(size=(2, 3)), returns="h"),
        method("cell", "reset", batch=5),
        method("cell", "step", x=rng.normal(size=(5, 3)), returns="h again"),
    ]
"""


def test_a_state_bug_in_a_class_is_told_in_the_words_of_its_step(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    # A reset that keeps the old state: the next step's sum cannot broadcast. The message
    # names that step, its own argument and the object's state; not every input of every step.
    folder = make_scenario_folder(tmp_path, "cell", ["Cell"], CELL_SOLUTION, CELL_CASES, {}, "", {})
    prepared = prepare_exercise(load_exercise(folder))
    stale = CELL_SOLUTION.replace(
        "self.h = np.zeros((batch, self.w_h.shape[0]))",
        "self.h = np.zeros((batch, self.w_h.shape[0])) if self.h is None else self.h",
    )
    (test,) = graded(prepared, stale, sandbox).tests
    assert test.failure is Failure.EXCEPTION
    assert test.message.startswith(
        "the arrays' shapes do not fit together in step 4, cell.step: its array arguments "
        "have shapes x (5, 3); the other arrays are what cell holds from earlier steps; check "
        "that its state has the shapes the statement gives, and that every step that should "
        "set or reset it does (raised ValueError on line 14: operands could not be broadcast"
    ), test.message
    assert "w_x" not in test.message and "step 2" not in test.message


KMEANS_SOLUTION = """
import numpy as np


def init_centres(x, k):
    return x[:k].copy()


def kmeans_step(x, centres):
    labels = np.argmin(((x[:, None, :] - centres[None]) ** 2).sum(axis=-1), axis=1)
    for j in range(len(centres)):
        if np.any(labels == j):
            centres[j] = x[labels == j].mean(axis=0)
    return labels
"""

KMEANS_CASES = """
from graders.scenarios import call, keep, ref, scenario


def run(rng, n, k):
    x = rng.normal(size=(n, 2))
    return [
        # The initial centres are compared and then passed on, the very object returned.
        call("init_centres", x=x, k=k, returns=keep("centres", compared=True)),
        call("kmeans_step", x=x, centres=ref("centres"), returns="labels"),
        call("kmeans_step", x=x, centres=ref("centres"), returns="labels again"),
    ]


@scenario(public=True)
def six_points(rng):
    return run(rng, 6, 2)


@scenario(points=2)
def twenty_points(rng):
    return run(rng, 20, 3)
"""


def test_a_kept_value_can_be_compared_and_passed_on(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_scenario_folder(
        tmp_path,
        "kmeans",
        ["init_centres", "kmeans_step"],
        KMEANS_SOLUTION,
        KMEANS_CASES,
        {},
        "",
        {},
    )
    prepared = prepare_exercise(load_exercise(folder))
    assert [spec.name for spec in prepared.cases[0].named_outputs] == [
        "step 1, init_centres: centres",
        "step 2, kmeans_step: labels",
        "step 3, kmeans_step: labels again",
    ]
    assert graded(prepared, KMEANS_SOLUTION, sandbox).verdict is Verdict.PASSED
    # Wrong initial centres are told at the step that returned them.
    shifted = KMEANS_SOLUTION.replace("return x[:k].copy()", "return x[1 : k + 1].copy()")
    public = graded(prepared, shifted, sandbox).tests[0]
    assert public.message.startswith("step 1, init_centres: centres: values:"), public.message
    # The step works on the object returned: centres returned as a view of x move x itself.
    viewed = KMEANS_SOLUTION.replace("return x[:k].copy()", "return x[:k]")
    report = graded(prepared, viewed, sandbox)
    assert report.tests[0].failure is Failure.CHANGED_INPUT
    assert report.tests[0].message.startswith(
        "inputs: changed in place, which the statement does not ask for: step 1, init_centres: x;"
    ), report.tests[0].message


CHECKED_KMEANS_CASES = """
import numpy as np

from graders.scenarios import call, keep, ref, scenario


def centres_are_points(inputs, got):
    # The compared values by name: the initial centres must be rows of x, exactly.
    x, centres = inputs["step 1, init_centres: x"], got["step 1, init_centres: centres"]
    if all(np.any(np.all(x == row, axis=1)) for row in centres):
        return None
    return "an initial centre is not one of the points"


@scenario(public=True, rtol=1e-3, checks=[centres_are_points])
def six_points(rng):
    x = rng.normal(size=(6, 2))
    return [
        call("init_centres", x=x, k=2, returns=keep("centres", compared=True)),
        call("kmeans_step", x=x, centres=ref("centres"), returns="labels"),
    ]


@scenario(points=2, rtol=1e-3, checks=[centres_are_points])
def twenty_points(rng):
    x = rng.normal(size=(20, 2))
    return [
        call("init_centres", x=x, k=3, returns=keep("centres", compared=True)),
        call("kmeans_step", x=x, centres=ref("centres"), returns="labels"),
    ]
"""


def test_a_scenarios_checks_read_its_values_by_name(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_scenario_folder(
        tmp_path,
        "kmeans",
        ["init_centres", "kmeans_step"],
        KMEANS_SOLUTION,
        CHECKED_KMEANS_CASES,
        {},
        "",
        {},
    )
    prepared = prepare_exercise(load_exercise(folder))
    assert graded(prepared, KMEANS_SOLUTION, sandbox).verdict is Verdict.PASSED
    # Within the tolerance of every compared value, but no longer points of x.
    nudged = KMEANS_SOLUTION.replace("return x[:k].copy()", "return x[:k] + 1e-6")
    public, hidden = graded(prepared, nudged, sandbox).tests
    assert (public.failure, public.message) == (
        Failure.PROPERTY,
        "check 'centres are points': an initial centre is not one of the points",
    )
    assert hidden.failure is Failure.PROPERTY and hidden.failed_checks == ("centres are points",)


@pytest.fixture(scope="module")
def sgd(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_sgd(tmp_path_factory.mktemp("ex"))))


REBOUND = "step 1, opt.step: params['w'] was replaced by a new array; update it in place"


def test_an_array_replaced_instead_of_updated_is_named_by_step_and_key(
    adam: PreparedExercise, sandbox: Sandbox
) -> None:
    code = ADAM_SOLUTION.replace("params[key] -= ", "params[key] = params[key] - ")
    report = graded(adam, code, sandbox)
    public = next(test for test in report.tests if test.name == "two steps")
    assert (public.status, public.message) == (Status.FAILED, REBOUND)
    assert translate_message(public.message, "ja") == (
        "step 1, opt.step：params['w'] が新しい配列に置き換えられています。"
        "その場で書き換えてください"
    )
    # The learner raised nothing: a hidden test tells the category, never "raised".
    assert {(t.status, t.failure) for t in report.tests} == {(Status.FAILED, Failure.CHANGED_INPUT)}
    hidden = [t.message for t in report.tests if t.name != "two steps"]
    assert hidden and not any("raised" in m for m in hidden), hidden
    assert all("replaced by a new one" in m for m in hidden), hidden


def test_refs_inside_a_dict_reach_the_kept_arrays_and_are_updated_in_place(
    sgd: PreparedExercise, sandbox: Sandbox
) -> None:
    assert [spec.name for spec in sgd.cases[0].named_outputs] == [
        "step 2, sgd_step: params",
        "step 3, sgd_step: params",
    ]
    assert graded(sgd, SGD_SOLUTION, sandbox).verdict is Verdict.PASSED
    # The dict holds the kept arrays themselves: a learner who updates copies of them leaves
    # the caller's arrays as they were, from the first update on.
    copied = SGD_SOLUTION.replace(
        "for key, grad in grads.items():",
        "params = {k: v.copy() for k, v in params.items()}\n    for key, grad in grads.items():",
    )
    public = messages(graded(sgd, copied, sandbox))["two steps"]
    assert public.startswith("step 2, sgd_step: params: w: values:"), public
    rebound = SGD_SOLUTION.replace(
        "params[key] -= lr * grad", "params[key] = params[key] - lr * grad"
    )
    assert messages(graded(sgd, rebound, sandbox))["two steps"] == (
        "step 2, sgd_step: params['w'] was replaced by a new array; update it in place"
    )


def test_the_bundled_kmeans_compares_the_initial_centres_and_chains_the_steps(
    sandbox: Sandbox,
) -> None:
    prepared = prepare_exercise(load_exercise(REPO / "exercises" / "kmeans-step"))
    assert [spec.name for spec in prepared.cases[0].named_outputs] == [
        "step 1, init_centres: centres",
        "step 2, kmeans_step: centres_1",
        "step 2, kmeans_step: labels",
        "step 3, kmeans_step: centres_2",
        "step 3, kmeans_step: labels",
        "step 4, kmeans_step: centres_3",
        "step 4, kmeans_step: labels",
    ]
    solution = (REPO / "exercises" / "kmeans-step" / "solution.py").read_text(encoding="utf-8")
    assert graded(prepared, solution, sandbox).verdict is Verdict.PASSED
    # Centres changed in place by kmeans_step: where they are the learner's own (kept from
    # init_centres or a step) nothing but the values is judged, and those are right; where a
    # scenario gives them, they are an input the statement says not to change.
    in_place = solution.replace("new_centres = centres.copy()", "new_centres = centres")
    report = graded(prepared, in_place, sandbox)
    assert failures(report)["worked example"] is None
    assert failures(report)["empty cluster"] is Failure.CHANGED_INPUT
    # A wrong label is told at the first step, whose centres are wrong with it.
    argmax = solution.replace("distances.argmin(axis=1)", "distances.argmax(axis=1)")
    report = graded(prepared, argmax, sandbox)
    assert messages(report)["worked example"].startswith("step 2, kmeans_step: centres_1: values")
    assert report.diagnosis is not None and report.diagnosis.key == "argmax_instead_of_argmin"


def test_the_guides_sgd_example_is_the_fixture(sgd: PreparedExercise, sandbox: Sandbox) -> None:
    section = guide_section("Arrays kept one by one, updated in place through a dict of refs")
    solution, cases, rebound = re.findall(r"```\w*\n(.*?)```", section, re.S)
    assert solution.removeprefix("# solution.py\n").strip() == SGD_SOLUTION.strip()
    assert cases.removeprefix("# cases.py\n").strip() == SGD_CASES.strip()
    code = SGD_SOLUTION.replace("params[key] -= lr * grad", "params[key] = params[key] - lr * grad")
    assert messages(graded(sgd, code, sandbox))["two steps"] == rebound.strip()


def test_an_outputs_rule_naming_no_compared_value_is_a_problem(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_affine_layer(tmp_path)
    toml = folder / "exercise.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + '\n[[outputs]]\nname = "dW"\nrtol = 0\n',
        encoding="utf-8",
    )
    problems = validate_folder(folder, sandbox).problems
    typo = [p for p in problems if p.startswith("exercise.toml [[outputs]]: name = 'dW'")]
    assert typo and "the compared ones are" in typo[0] and ", dw," in typo[0], problems
