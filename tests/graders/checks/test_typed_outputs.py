"""Inputs and outputs beyond float arrays, graded in a real sandbox: declared outputs named in
messages, batch rules for outputs reduced over the batch, dicts of arrays, generators."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
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
from graders.checks.batches import stack_outputs
from graders.checks.compare import Tolerance
from graders.checks.hidden import hidden_message
from graders.checks.outputs import BatchRule, OutputSpec, loosest
from graders.errors import ExerciseError
from tests.graders.helpers import edit
from tests.graders.typed_exercises import (
    SOFTMAX_SOLUTION,
    make_dropout,
    make_sgd_step,
    make_softmax_loss,
)


@pytest.fixture(scope="module")
def softmax(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_softmax_loss(tmp_path_factory.mktemp("ex"))))


@pytest.fixture(scope="module")
def sgd(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_sgd_step(tmp_path_factory.mktemp("ex"))))


@pytest.fixture(scope="module")
def dropout(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepare_exercise(load_exercise(make_dropout(tmp_path_factory.mktemp("ex"))))


def graded(prepared: PreparedExercise, code: str, sandbox: Sandbox) -> GradeReport:
    return grade(prepared, textwrap.dedent(code), sandbox)


def messages(report: GradeReport) -> dict[str, str]:
    return {test.name: test.message for test in report.tests}


def failures(report: GradeReport) -> dict[str, Failure | None]:
    return {test.name: test.failure for test in report.tests}


def test_a_mean_loss_and_its_gradient_pass_batch_consistency(
    softmax: PreparedExercise, sandbox: Sandbox
) -> None:
    report = graded(softmax, SOFTMAX_SOLUTION, sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)


def test_a_summed_loss_is_named_and_its_batch_rule_checked(
    softmax: PreparedExercise, sandbox: Sandbox
) -> None:
    # Right for one example, a sum where the statement asks for a mean over the batch.
    code = SOFTMAX_SOLUTION.replace("n = labels.size", "n = 1")
    report = graded(softmax, code, sandbox)
    message = messages(report)["four examples"]
    assert message.startswith("loss: values: 1 of 1 elements (100.0%) outside tolerance"), message
    assert failures(report) == {
        "four examples": Failure.VALUES,
        "large logits": Failure.VALUES,
        "one example": None,
    }


def test_a_batched_result_that_is_no_mean_of_the_single_ones_is_inconsistent(
    softmax: PreparedExercise, sandbox: Sandbox
) -> None:
    # Right on the batches, but a single example is scaled as if it were a batch of four.
    code = SOFTMAX_SOLUTION.replace("n = labels.size", "n = labels.size if labels.ndim else 4")
    report = graded(softmax, code, sandbox)
    message = messages(report)["four examples"]
    assert message.startswith(
        "batch consistency: the batched result differs from the unbatched results "
        "combined (averaged, stacked and divided by the batch size): loss: values: "
    ), message
    assert failures(report)["large logits"] is Failure.INCONSISTENT_BATCH


def test_a_transposed_gradient_is_named(softmax: PreparedExercise, sandbox: Sandbox) -> None:
    code = SOFTMAX_SOLUTION.replace(") / n\n", ").T / n\n")
    message = messages(graded(softmax, code, sandbox))["four examples"]
    assert message.startswith("dlogits: shape: expected (4, 3), got (3, 4): transposed"), message


def test_a_nan_loss_is_a_finiteness_failure(softmax: PreparedExercise, sandbox: Sandbox) -> None:
    naive = """
    import numpy as np


    def softmax_loss(logits, labels):
        p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
        onehot = np.eye(logits.shape[-1])[labels]
        n = labels.size
        return float(-(onehot * np.log(p)).sum() / n), (p - onehot) / n
    """
    report = graded(softmax, naive, sandbox)
    assert failures(report) == {
        "four examples": None,
        "large logits": Failure.NON_FINITE,
        "one example": None,
    }
    assert messages(report)["large logits"] == hidden_message(Failure.NON_FINITE)


def test_dicts_of_arrays_in_and_out(sgd: PreparedExercise, sandbox: Sandbox) -> None:
    report = graded(sgd, (sgd.exercise.path / "solution.py").read_text(), sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)


def test_a_wrong_entry_of_a_dict_output_is_named_by_its_key(
    sgd: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
    def sgd_step(params, grads, lr):
        return {"w": params["w"] - lr * grads["w"], "b": params["b"] + lr * grads["b"]}
    """
    report = graded(sgd, code, sandbox)
    message = messages(report)["small layer"]
    assert message.startswith("params: b: values: 2 of 2 elements (100.0%) outside"), message
    assert failures(report)["wide layer"] is Failure.VALUES


def test_a_dict_output_with_other_keys_says_which(sgd: PreparedExercise, sandbox: Sandbox) -> None:
    code = """
    def sgd_step(params, grads, lr):
        return {"w": params["w"] - lr * grads["w"], "bias": params["b"] - lr * grads["b"]}
    """
    report = graded(sgd, code, sandbox)
    assert messages(report)["small layer"] == (
        "params: type: expected a dict with the keys 'w', 'b'; missing 'b'; unexpected 'bias'"
    )
    assert failures(report)["wide layer"] is Failure.WRONG_TYPE


def test_a_dict_input_changed_in_place_is_named(sgd: PreparedExercise, sandbox: Sandbox) -> None:
    code = """
    def sgd_step(params, grads, lr):
        for name in params:
            params[name] -= lr * grads[name]
        return dict(params)
    """
    report = graded(sgd, code, sandbox)
    assert messages(report)["small layer"] == (
        "inputs: the function changed its input 'params' in place; work on a copy "
        "(e.g. x = x.copy()) or build new arrays"
    )
    assert failures(report)["wide layer"] is Failure.CHANGED_INPUT


def test_a_dict_subclass_returned_is_the_wrong_type(
    sgd: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
    class Params(dict):
        def __eq__(self, other):
            return True

        def __getattr__(self, name):
            return self

        def items(self):
            return iter(())


    def sgd_step(params, grads, lr):
        return Params({name: value - lr * grads[name] for name, value in params.items()})
    """
    report = graded(sgd, code, sandbox)
    assert messages(report)["small layer"] == (
        "params: type: expected a dict with the keys 'w', 'b', got "
        "submission.Params (a subclass of dict)"
    )
    assert failures(report)["wide layer"] is Failure.WRONG_TYPE


def test_a_generator_input_draws_as_the_reference_does(
    dropout: PreparedExercise, sandbox: Sandbox
) -> None:
    report = graded(dropout, (dropout.exercise.path / "solution.py").read_text(), sandbox)
    assert report.verdict is Verdict.PASSED, messages(report)


def test_a_learner_who_ignores_the_generator_fails(
    dropout: PreparedExercise, sandbox: Sandbox
) -> None:
    code = """
    import numpy as np


    def dropout(x, p, rng):
        keep = np.random.default_rng(0).random(x.shape) >= p
        return x * keep / (1 - p)
    """
    report = graded(dropout, code, sandbox)
    assert report.verdict is Verdict.FAILED
    assert messages(report)["half"].startswith("out: values: "), messages(report)
    assert all(test.status is Status.FAILED for test in report.tests)


def test_the_declared_outputs_must_match_what_the_reference_returns(tmp_path: Path) -> None:
    folder = make_softmax_loss(tmp_path)
    with (folder / "exercise.toml").open("a", encoding="utf-8") as file:
        file.write('\n[[outputs]]\nname = "probabilities"\n')
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder))
    assert str(raised.value) == (
        "softmax-loss/exercise.toml [[outputs]]: declares 3 outputs, but solution.py returns "
        "a tuple of 2 on case 'four examples'"
    )


ASCENT_HINT = "Which way does a step go: with the gradient or against it?"


def with_ascent(folder: Path) -> PreparedExercise:
    (folder / "mistakes").mkdir()
    (folder / "mistakes" / "ascent.py").write_text(
        f'HINT = "{ASCENT_HINT}"\n\n\ndef sgd_step(params, grads, lr):\n'
        "    return {name: params[name] + lr * grads[name] for name in params}\n"
    )
    return prepare_exercise(load_exercise(folder))


def test_a_mistake_in_a_dict_output_is_the_diagnosis(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = with_ascent(make_sgd_step(tmp_path))
    hint = ASCENT_HINT
    # The learner's dict in another key order, built another way: the same values.
    code = """
    def sgd_step(params, grads, lr):
        new = {}
        for name in reversed(list(params)):
            new[name] = params[name] + grads[name] * lr
        return new
    """
    report = graded(prepared, code, sandbox)
    assert report.diagnosis is not None
    assert (report.diagnosis.hint, report.diagnosis.key) == (hint, "ascent")


@pytest.mark.parametrize(
    ("rule", "want"),
    [
        (BatchRule.STACK, [[1.0, 2.0], [3.0, 4.0]]),
        (BatchRule.STACK_OVER_N, [[0.5, 1.0], [1.5, 2.0]]),
        (BatchRule.MEAN, [2.0, 3.0]),
        (BatchRule.SUM, [4.0, 6.0]),
        (BatchRule.SHARED, [1.0, 2.0]),
    ],
)
def test_each_batch_rule_combines_the_single_examples(rule: BatchRule, want: Any) -> None:
    singles = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
    assert stack_outputs(singles, 0, (rule,)).tolist() == want
    # In a tuple, each element by its own rule.
    pairs = [(1.0, single) for single in singles]
    loss, grads = stack_outputs(pairs, 0, (BatchRule.MEAN, rule))
    assert (float(loss), grads.tolist()) == (1.0, want)


def test_a_mistake_is_matched_within_its_outputs_declared_tolerance(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_sgd_step(tmp_path)
    edit(folder / "exercise.toml", 'name = "params"', 'name = "params"\nrtol = 1e-3')
    prepared = with_ascent(folder)
    # The ascent, off by 1e-5 relative: beyond the case's tolerance, within the output's.
    code = """
    def sgd_step(params, grads, lr):
        return {name: params[name] + lr * grads[name] * 1.0001 for name in params}
    """
    report = graded(prepared, code, sandbox)
    assert report.verdict is Verdict.FAILED
    assert report.diagnosis is not None and report.diagnosis.key == "ascent"


def test_the_loosest_tolerance_matches_mistakes() -> None:
    declared = (OutputSpec("loss", rtol=1e-3), OutputSpec("grad", rtol=0.0, atol=0.0))
    assert loosest(Tolerance(1e-7, 1e-9), declared) == Tolerance(1e-3, 1e-9)
    assert loosest(Tolerance(1e-7, 1e-9), ()) == Tolerance(1e-7, 1e-9)


def test_an_output_batch_axis_per_output_must_fit_the_declaration(tmp_path: Path) -> None:
    folder = make_softmax_loss(tmp_path)
    edit(
        folder / "cases.py",
        '@case(points=2, batch_axes={"logits": 0, "labels": 0})',
        '@case(points=2, batch_axes={"logits": 0, "labels": 0}, output_batch_axis=(0,))',
    )
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(load_exercise(folder))
    assert str(raised.value) == (
        "softmax-loss/cases.py: case 'large logits': output_batch_axis gives an axis for 1 "
        "output(s), but exercise.toml declares 2"
    )
