"""graders/messages.py: the engine's messages, made by the engine's own functions, read back in
Japanese; every template keeps its placeholders and the course's terms."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from graders.checks.advice import generators_message, warning_advice
from graders.checks.compare import compare
from graders.checks.diagnosis import CHECK_HINTS, FLOAT_DTYPE_HINT
from graders.checks.hidden import hidden_message
from graders.checks.layout import explain_shape_error
from graders.checks.outputs import OutputSpec
from graders.checks.rules import Rule, find_violations, repeats_message, violations_message
from graders.checks.timing import Speed, over_time_limit, slow_message, stopped_message
from graders.exercises import load_exercise
from graders.grading.grade import calls_message, changed_inputs_message
from graders.grading.report import describe_error
from graders.messages import (
    PLACEHOLDER,
    author_templates,
    catalog,
    is_known,
    translate_message,
)
from graders.mutation.mutants import make_mutants
from graders.results import Failure
from graders.values import Growth, InputFunction, Measured, Repeat, RepeatKind
from tests.exercises.test_japanese_texts import misused_terms

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
# What changed_inputs_message reads of a case: whether it is a scenario.
ONE_FUNCTION = SimpleNamespace(spec=SimpleNamespace(scenario=False))
SCENARIO = SimpleNamespace(spec=SimpleNamespace(scenario=True))


def two_per_element(inputs: Mapping[str, Any]) -> int:
    return 2 * int(inputs["x"].size)


def none_at_all(inputs: Mapping[str, Any]) -> int:
    return 0


# What calls_message reads of a case: its calls= counts and its inputs.
COUNTED_CASE = SimpleNamespace(
    spec=SimpleNamespace(calls={"f": two_per_element, "g": none_at_all}),
    inputs={"x": np.zeros(1)},
)
NON_FINITE = np.array([1.0, np.nan, np.inf, np.nan])

COMPARISONS = [
    (np.zeros((5, 3)), np.zeros((3, 5))),  # transposed
    (np.zeros((2, 3, 4)), np.zeros((3, 2, 4))),  # axes exchanged
    (np.zeros((2, 3, 4)), np.zeros((4, 2, 3))),  # axes in another order
    (np.zeros((2, 3)), np.zeros((2, 1, 3))),  # an extra axis
    (np.zeros((2, 3)), np.zeros(2)),  # an axis reduced away
    (np.zeros((2, 3)), np.zeros(6)),  # arranged differently
    (np.zeros((2, 3)), np.zeros(7)),  # nothing to say
    (np.zeros(3), np.zeros(3, dtype=np.int64)),
    (np.zeros(3), [0.0, 0.0, 0.0]),
    (np.zeros(3), 0.0),
    (np.zeros(3), None),
    (np.zeros(4), NON_FINITE),
    (np.zeros(2), np.array([0.0, np.nan])),
    (np.ones((2, 2)), np.full((2, 2), 1.5)),
    (np.array([True, False]), np.array([True, True])),
    ((np.zeros(2), np.zeros(2)), np.zeros(2)),
    ((np.zeros(2), np.zeros(2)), (np.zeros(2),)),
    ((np.zeros(2), np.zeros(2)), (np.zeros(2), np.ones(2))),
    ({"w": np.zeros(2)}, {"b": np.zeros(2)}),
    ({"w": np.zeros(2)}, [np.zeros(2)]),
    (3, 4),
    (3, 3.5),
    (1.0, "one"),
    (None, np.zeros(2)),
]


LIMIT_HINT = "the (M, N, D) array needs M*N*D*8 bytes; expand the square instead"


def batch_of_one_message(item: int, why: str) -> str:
    """What the batch-consistency check says of a batch item that raised as a batch of one."""
    return f"batch consistency: the batch works, but batch item {item} as a batch of one {why}"


def engine_messages() -> list[str]:
    """What the engine writes, made by its own functions."""
    messages = [compare(expected, got).message for expected, got in COMPARISONS]
    attribute = OutputSpec("step 2, layer.cache", attribute=True)
    messages.append(compare([np.zeros(2)], [None], outputs=(attribute,)).message)
    messages += [hidden_message(failure) for failure in Failure]
    messages += [hidden_message(Failure.PROPERTY, names) for names in (["sums"], ["a", "b", "c"])]
    messages += [*CHECK_HINTS.values(), FLOAT_DTYPE_HINT.format(got="float32", expected="float64")]
    messages += [
        describe_error({"type": "ValueError", "line": 4, "message": "bad value"}),
        describe_error({"type": "ZeroDivisionError"}),
        describe_error({"type": "MemoryError"}),
        over_time_limit("long sequence", 2.0, 2.5),
        over_time_limit("long sequence", 2.0, None),
        stopped_message("long sequence", 2.0),
        slow_message("wide batch", Speed(0.5, 0.1), 3.0),
        *(
            changed_inputs_message(case, ["x", "h0"])  # type: ignore[arg-type]
            for case in (ONE_FUNCTION, SCENARIO)
        ),
        generators_message(["rng"]),
        generators_message(["step 1, Dropout: rng", "step 2, Dropout: rng"]),
        warning_advice(["overflow encountered in exp (line 5, in sigmoid)"], ("sigmoid",)),
        warning_advice(["overflow encountered in exp", "divide by zero encountered in log"], ()),
        warning_advice([], ()),
    ]
    shape_error = {
        "type": "ValueError",
        "message": "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
        "signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)",
    }
    explained = explain_shape_error(shape_error, {"x": np.zeros((2, 3)), "w": np.zeros((4, 5))})
    messages.append(f"{explained} ({describe_error(shape_error)})")
    # An author's function among the inputs is named after the arrays' shapes.
    quadratic = InputFunction("quadratic", "def quadratic(x):\n    return np.sum(x * x)")
    messages.append(explain_shape_error(shape_error, {"f": quadratic, "x": np.zeros((2, 3))}))
    # A scenario's step: a method (the object's state) or a call, with or without arrays.
    for step in ("step 3, cell.step", "step 2, affine_backward"):
        in_step = {**shape_error, "message": f"{shape_error['message']} (in {step})"}
        for inputs in ({f"{step}: x": np.zeros((2, 3))}, {}):
            messages.append(explain_shape_error(in_step, inputs))
    messages += [
        batch_of_one_message(0, "did not run"),
        batch_of_one_message(1, describe_error({"type": "ValueError", "message": "bad"})),
        "batch consistency: the batched result differs from the results of batches of one "
        "joined along axis 0: shape: expected (3, 3), got (9,)",
        f"{describe_error({'type': 'MemoryError'})}; hint: {LIMIT_HINT}",
    ]
    code = "import scipy.linalg as la\nfor i in range(3):\n    la.inv(i)\n" * 3
    rules = tuple(map(Rule.parse, ("python-loop", "import:scipy", "scipy.linalg.inv")))
    messages.append(violations_message(find_violations(code, rules)))
    messages.append(violations_message(find_violations("exec(c)\nf = vars()\n", rules)))
    messages += [
        calls_message(COUNTED_CASE, calls)  # type: ignore[arg-type]
        for calls in ({"f": 3, "g": 1}, {"f": 1, "g": 0}, {"f": 2, "g": 5})
    ]
    messages += [
        repeats_message(
            Growth(Measured(27, Repeat(5, 4, kind, "rows")), Measured(10, Repeat(4, 4)))
        )
        for kind in RepeatKind
    ]
    return messages


def mutant_hints() -> set[str]:
    hints = set()
    for folder in sorted(EXERCISES.glob("*/solution.py")):
        exercise = load_exercise(folder.parent)
        entry = exercise.entries[0] if exercise.entries else exercise.entry
        hints |= {mutant.meaning for mutant in make_mutants(folder.read_text(), entry)}
    return hints


def test_the_engine_writes_only_messages_the_japanese_catalog_knows() -> None:
    # A case's limit hint is its author's words: the exercise's [checks] translate them.
    own = author_templates({LIMIT_HINT: "(M, N, D) の配列は M*N*D*8 バイト要ります"})
    unknown = [message for message in engine_messages() if not is_known(message, "ja", own)]
    assert unknown == []


def test_every_mutants_hint_of_the_exercises_reads_in_japanese() -> None:
    hints = mutant_hints()
    assert len(hints) > 50
    assert sorted(hint for hint in hints if not is_known(hint, "ja")) == []


def test_a_message_reads_its_values_into_the_translation() -> None:
    shape = compare(np.zeros((5, 3)), np.ones((3, 5))).message
    assert shape == "shape: expected (5, 3), got (3, 5): transposed"
    assert translate_message(shape, "ja") == "形状：(5, 3) のはずが (3, 5) でした：転置されています"
    right = compare(np.zeros((5, 3)), np.zeros((3, 5))).message
    assert translate_message(right, "ja") == (
        "形状：(5, 3) のはずが (3, 5) でした：転置されています。"
        "軸を期待される順に並べれば値は正しくなります"
    )
    values = compare(np.ones((2, 2)), np.full((2, 2), 1.5)).message
    warned = f"{values} (warning: overflow encountered in exp (line 3, in f))"
    assert translate_message(warned, "ja") == (
        "値：4 個中 4 個の要素（100.0%）が許容誤差（rtol=1e-07, atol=1e-09）の外です。最大の誤差は"
        "インデックス [0, 0] で、1 のはずが 1.5 でした（絶対誤差 0.5、相対誤差 0.5）"
        "（警告：overflow encountered in exp (line 3, in f)）"
    )
    named = f"dw: {compare(np.zeros(3), np.zeros(3, dtype=np.int64)).message}"
    assert translate_message(named, "ja") == "dw：dtype：float64 のはずが int64 でした"


def test_what_the_catalog_does_not_know_stays_as_it_is() -> None:
    assert translate_message("a message of tomorrow's engine", "ja") == (
        "a message of tomorrow's engine"
    )
    assert not is_known("a message of tomorrow's engine", "ja")
    assert translate_message("shape: expected (5, 3), got (3, 5)", "fr") == (
        "shape: expected (5, 3), got (3, 5)"
    )
    assert translate_message("", "ja") == ""


@pytest.mark.parametrize("template", catalog("ja"), ids=lambda t: t.english[:60])
def test_every_translation_keeps_its_placeholders_and_the_glossary_terms(template: object) -> None:
    english, japanese = template.english, template.translation  # type: ignore[attr-defined]
    assert sorted(PLACEHOLDER.findall(english)) == sorted(PLACEHOLDER.findall(japanese))
    assert misused_terms(japanese) == []
    assert japanese != english


# What a Japanese template may keep in Latin letters: code a learner writes or reads (names of
# numpy, Python and their functions, a variable of a formula), units and Python's own names.
CODE_WORDS = frozenset(
    {
        "CPU", "Inf", "MemoryError", "MiB", "NaN", "None", "Python", "astype()", "axis", "dict",
        "dtype", "exp", "exp()", "float", "float32", "float64", "fork", "int", "np.array(...)",
        "numpy",
        "numpy.ndarray", "return", "tanh", "x.copy()",
    }
)  # fmt: skip
LATIN = re.compile(r"[A-Za-z][A-Za-z_.()\[\]0-9]*")


def english_words(japanese: str) -> list[str]:
    """The Latin words of a Japanese template's own text (not its placeholders, nor code in
    backquotes) that are not code: English left behind."""
    fixed = re.sub(r"`[^`]*`", " ", PLACEHOLDER.sub(" ", japanese))
    words = (word.rstrip("(").rstrip(".") for word in LATIN.findall(fixed))
    # One letter is a formula's variable (a, b, x, N, s(1 − s)).
    return [
        word for word in words if word not in CODE_WORDS and len(re.sub(r"[\d()]", "", word)) > 1
    ]


def test_no_japanese_template_keeps_english_words() -> None:
    assert english_words("形状：{shape} のはずが、x.copy() を使ってください") == []
    assert english_words("{array} の軸 {axis} of {name}") == ["of"]
    left = {t.english: english_words(t.translation) for t in catalog("ja")}
    assert {english: words for english, words in left.items() if words} == {}
